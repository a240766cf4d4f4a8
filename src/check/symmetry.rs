//! The board's symmetries that the rules keep: a turn or reflection of the board under which
//! the cells in play, the neighbour tables, every cell and set the rules name and every
//! direction set they use are the same. Such a map sends each position to one that plays the
//! same, so the solver treats the two as one (the value of the game, what a table learnt).

use crate::board::bits::Bits;
use crate::board::geometry::{DirSet, Geometry, DIRS, NONE};
use crate::ir::{Cell, Cond, Game, Instr, Num, Player, RegValue, Set, Symmetry};

/// The candidates: the eight turns and reflections of a rectangle (of a square, for some),
/// each as where it sends column and row (`w`, `h`: the board's size) and where it sends a
/// step's vector. Those that need a square board are tried only on one.
type Candidate = (
    &'static str,
    fn(i64, i64, i64, i64) -> (i64, i64),
    fn(i32, i32) -> (i32, i32),
    bool,
);

const CANDIDATES: [Candidate; 7] = [
    (
        "a quarter turn",
        |c, r, _, h| (h - 1 - r, c),
        |x, y| (-y, x),
        true,
    ),
    (
        "a half turn",
        |c, r, w, h| (w - 1 - c, h - 1 - r),
        |x, y| (-x, -y),
        false,
    ),
    (
        "three quarter turns",
        |c, r, w, _| (r, w - 1 - c),
        |x, y| (y, -x),
        true,
    ),
    (
        "the mirror left to right",
        |c, r, w, _| (w - 1 - c, r),
        |x, y| (-x, y),
        false,
    ),
    (
        "the mirror top to bottom",
        |c, r, _, h| (c, h - 1 - r),
        |x, y| (x, -y),
        false,
    ),
    (
        "the mirror in the diagonal from a1",
        |c, r, _, _| (r, c),
        |x, y| (y, x),
        true,
    ),
    (
        "the mirror in the other diagonal",
        |c, r, w, h| (h - 1 - r, w - 1 - c),
        |x, y| (-y, -x),
        true,
    ),
];

/// The turns and reflections of a hexagon that the rectangle's do not give, about the
/// centre of a square grid of odd side (the hexagon's centre cell). The grid's cells are axial
/// coordinates: a sixth of a turn sends the step (x, y) to (-y, x + y), and each mirror is the
/// one in the diagonal from a1 after some sixths of a turn. Named by the line each mirror
/// keeps: the middle row and column are lines of cells, the mirrors at right angles to them
/// run between cells.
const HEX_CANDIDATES: [Candidate; 8] = [
    (
        "a sixth of a turn",
        |c, r, w, h| about_centre(c, r, w, h, |q, p| (-p, q + p)),
        |x, y| (-y, x + y),
        true,
    ),
    (
        "a third of a turn",
        |c, r, w, h| about_centre(c, r, w, h, |q, p| (-q - p, q)),
        |x, y| (-x - y, x),
        true,
    ),
    (
        "two thirds of a turn",
        |c, r, w, h| about_centre(c, r, w, h, |q, p| (p, -q - p)),
        |x, y| (y, -x - y),
        true,
    ),
    (
        "five sixths of a turn",
        |c, r, w, h| about_centre(c, r, w, h, |q, p| (q + p, -q)),
        |x, y| (x + y, -x),
        true,
    ),
    (
        "the mirror in the middle row",
        |c, r, w, h| about_centre(c, r, w, h, |q, p| (q + p, -p)),
        |x, y| (x + y, -y),
        true,
    ),
    (
        "the mirror in the middle column",
        |c, r, w, h| about_centre(c, r, w, h, |q, p| (-q, q + p)),
        |x, y| (-x, x + y),
        true,
    ),
    (
        "the mirror at right angles to the middle row",
        |c, r, w, h| about_centre(c, r, w, h, |q, p| (-q - p, p)),
        |x, y| (-x - y, y),
        true,
    ),
    (
        "the mirror at right angles to the middle column",
        |c, r, w, h| about_centre(c, r, w, h, |q, p| (q, -q - p)),
        |x, y| (x, -x - y),
        true,
    ),
];

/// Cell (c, r) of a `w` x `h` grid moved by `map`, which takes and gives steps from the
/// grid's centre (whole on a grid of odd side, the only one the hexagon's maps are tried on).
fn about_centre(c: i64, r: i64, w: i64, h: i64, map: fn(i64, i64) -> (i64, i64)) -> (i64, i64) {
    let (c0, r0) = ((w - 1) / 2, (h - 1) / 2);
    let (q, p) = map(c - c0, r - r0);
    (c0 + q, r0 + p)
}

/// Every symmetry of `game`'s board that its rules keep, the identity left out.
pub(super) fn symmetries(game: &Game) -> Vec<Symmetry> {
    let g = &game.geometry;
    let hexagonal = g.hex && g.width == g.height && g.width % 2 == 1;
    CANDIDATES
        .iter()
        .chain(HEX_CANDIDATES.iter().filter(|_| hexagonal))
        .filter(|c| !c.3 || g.width == g.height)
        .filter_map(|&(name, cell_map, dir_map, _)| of_board(g, name, cell_map, dir_map))
        .filter(|s| keeps_rules(game, s))
        .collect()
}

/// The candidate as a map of the board's cells and directions, if it keeps the cells in play
/// and who neighbours whom.
fn of_board(
    g: &Geometry,
    name: &'static str,
    cell_map: fn(i64, i64, i64, i64) -> (i64, i64),
    dir_map: fn(i32, i32) -> (i32, i32),
) -> Option<Symmetry> {
    let (w, h) = (g.width as i64, g.height as i64);
    // Cells out of play stay where they are (a turn of a hexagon sends some of the grid's
    // corners off it), so the map stays one to one; a cell in play must land on one.
    let mut cells = Vec::with_capacity(g.cells());
    for cell in 0..g.cells() {
        if !g.playable.contains(cell) {
            cells.push(cell as u16);
            continue;
        }
        let (c, r) = ((cell % g.width) as i64, (cell / g.width) as i64);
        let (c2, r2) = cell_map(c, r, w, h);
        if !(0..w).contains(&c2) || !(0..h).contains(&r2) {
            return None;
        }
        cells.push((r2 * w + c2) as u16);
    }
    let mut dirs = [0u8; 8];
    for (d, &(x, y)) in DIRS.iter().enumerate() {
        let image = dir_map(x, y);
        dirs[d] = match DIRS.iter().position(|&v| v == image) {
            Some(i) => i as u8,
            // The grid's two diagonals that join no hexagons: no rule steps along them.
            None if g.hex && x == y => d as u8,
            None => return None,
        };
    }
    let s = Symmetry { name, cells, dirs };
    let in_play = g
        .playable
        .iter()
        .all(|c| g.playable.contains(usize::from(s.cells[c])));
    let neighbours_kept = g.playable.iter().all(|c| {
        (0..8).all(|d| {
            let n = g.neighbours[c][d];
            let image = if n == NONE {
                NONE
            } else {
                s.cells[usize::from(n)]
            };
            g.neighbours[usize::from(s.cells[c])][usize::from(s.dirs[d])] == image
        })
    });
    (in_play && neighbours_kept && s.keeps_dirs(g.connect)).then_some(s)
}

/// Whether every cell, set and direction the rules name reads the same under `s`.
fn keeps_rules(game: &Game, s: &Symmetry) -> bool {
    game.lines.iter().all(|l| s.keeps_dirs(l.dirs))
        && game.leaps.iter().all(|v| keeps_leaps(&game.geometry, s, v))
        && game.program.iter().all(|i| i.kept_by(s))
        && game
            .ends
            .iter()
            .all(|e| e.condition.kept_by(s) && e.winner.as_ref().is_none_or(|p| p.kept_by(s)))
        && game.score.kept_by(s)
        && game.tiebreaks.iter().all(|t| t.kept_by(s))
}

/// Whether `s` sends the cells a leap by `vectors` joins onto cells it joins: where the
/// leaps from each cell land, moved by `s`, is where they land from the cell's image (a
/// knight's eight leaps are kept by every turn and reflection; `(1, 2)` alone by none).
fn keeps_leaps(g: &Geometry, s: &Symmetry, vectors: &[(i32, i32)]) -> bool {
    let landing = |cell: usize| -> Vec<u16> {
        let mut to: Vec<u16> = vectors
            .iter()
            .filter_map(|&v| g.leap(cell, v))
            .map(|t| t as u16)
            .collect();
        to.sort_unstable();
        to.dedup();
        to
    };
    g.playable.iter().all(|c| {
        let mut moved: Vec<u16> = landing(c)
            .iter()
            .map(|&t| s.cells[usize::from(t)])
            .collect();
        moved.sort_unstable();
        moved == landing(usize::from(s.cells[c]))
    })
}

impl Symmetry {
    fn keeps_dirs(&self, d: DirSet) -> bool {
        self.dirs_image(d) == d
    }

    fn keeps_bits(&self, b: &Bits) -> bool {
        self.bits_image(b) == *b
    }
}

/// An expression of the rules that reads the same after a symmetry.
trait KeptBy {
    fn kept_by(&self, s: &Symmetry) -> bool;
}

impl KeptBy for Instr {
    fn kept_by(&self, s: &Symmetry) -> bool {
        match self {
            Instr::Choose(c) => c.alts.iter().all(|a| {
                let kind = match &a.kind {
                    crate::ir::AltKind::Cell { set, .. } => set.kept_by(s),
                    _ => true,
                };
                kind && a.condition.as_ref().is_none_or(|c| c.kept_by(s))
            }),
            Instr::Place(c, _) | Instr::PlaceKind(c, _, _) => c.kept_by(s),
            Instr::Flip(set) | Instr::Remove(set) => set.kept_by(s),
            Instr::FlipTo(set, p) => set.kept_by(s) && p.kept_by(s),
            Instr::Move(a, b, _) => a.kept_by(s) && b.kept_by(s),
            Instr::Let(_, RegValue::Cell(c)) => c.kept_by(s),
            Instr::Let(_, RegValue::Num(n)) => n.kept_by(s),
            Instr::JumpUnless(c, _) | Instr::Require(c, _) => c.kept_by(s),
            Instr::Add(a) => a.player.kept_by(s) && a.amount.kept_by(s),
            // Exchanging sides moves no cell.
            Instr::Jump(_) | Instr::Stop | Instr::Take(_) | Instr::MarkPass | Instr::Swap => true,
        }
    }
}

impl KeptBy for Cond {
    fn kept_by(&self, s: &Symmetry) -> bool {
        match self {
            Cond::Const(_) | Cond::Blocked => true,
            Cond::Not(a) => a.kept_by(s),
            Cond::And(a, b) | Cond::Or(a, b) => a.kept_by(s) && b.kept_by(s),
            Cond::Num(_, a, b) => a.kept_by(s) && b.kept_by(s),
            Cond::Player(_, a, b) => a.kept_by(s) && b.kept_by(s),
            Cond::Cell(_, a, b) => a.kept_by(s) && b.kept_by(s),
            Cond::SetEq(_, a, b) => a.kept_by(s) && b.kept_by(s),
            Cond::In(c, set) => c.kept_by(s) && set.kept_by(s),
            Cond::NonEmpty(set) => set.kept_by(s),
            Cond::AnyLine(_, c) | Cond::Breathes(c) => c.kept_by(s),
        }
    }
}

impl KeptBy for Num {
    fn kept_by(&self, s: &Symmetry) -> bool {
        match self {
            Num::Const(_) | Num::Turn | Num::Passes | Num::Reg(_) => true,
            Num::Count(set) => set.kept_by(s),
            Num::Add(a, b) | Num::Sub(a, b) | Num::Mul(a, b) | Num::Div(a, b) => {
                a.kept_by(s) && b.kept_by(s)
            }
            Num::Neg(a) => a.kept_by(s),
            Num::If(c, a, b) => c.kept_by(s) && a.kept_by(s) && b.kept_by(s),
            Num::Attr(p, _) | Num::Counter(p, _) => p.kept_by(s),
            // A cell's row or column changes under every turn and reflection but the identity.
            Num::Row(_) | Num::Column(_) => false,
            // Steps between cells: the same after any map that keeps who neighbours whom.
            Num::Distance(a, b) => a.kept_by(s) && b.kept_by(s),
        }
    }
}

impl KeptBy for Cell {
    fn kept_by(&self, s: &Symmetry) -> bool {
        match self {
            Cell::Const(c) => s.cells[usize::from(*c)] == *c,
            Cell::Reg(_) => true,
            Cell::If(c, a, b) => c.kept_by(s) && a.kept_by(s) && b.kept_by(s),
        }
    }
}

impl KeptBy for Player {
    fn kept_by(&self, s: &Symmetry) -> bool {
        match self {
            Player::If(c, a, b) => c.kept_by(s) && a.kept_by(s) && b.kept_by(s),
            Player::Opponent(p) | Player::Next(p) => p.kept_by(s),
            _ => true,
        }
    }
}

impl KeptBy for Set {
    fn kept_by(&self, s: &Symmetry) -> bool {
        match self {
            Set::Const(b) => s.keeps_bits(b),
            Set::Empty | Set::AllPieces | Set::Sources(_) => true,
            Set::Pieces(p) | Set::Territory(p) => p.kept_by(s),
            Set::Single(c) | Set::Captured(_, c) | Set::Ends(_, c) | Set::Group(c) => c.kept_by(s),
            Set::Neighbours(c, d) => c.kept_by(s) && s.keeps_dirs(*d),
            Set::Adjacent(a, d) => a.kept_by(s) && s.keeps_dirs(*d),
            // Every leap set is kept, or the symmetry was not taken (`keeps_rules`).
            Set::Leap(a, _) => a.kept_by(s),
            Set::Union(a, b) | Set::Inter(a, b) | Set::Minus(a, b) => a.kept_by(s) && b.kept_by(s),
            Set::Between(a, b) => a.kept_by(s) && b.kept_by(s),
            Set::Liberties(a) | Set::Surrounded(a) => a.kept_by(s),
            Set::Ring(c, _) => c.kept_by(s),
            Set::If(c, a, b) => c.kept_by(s) && a.kept_by(s) && b.kept_by(s),
            Set::Filter(a, _, c) => a.kept_by(s) && c.kept_by(s),
        }
    }
}
