//! Line patterns compiled into lanes of shifts and masks, for matching from one cell or for
//! all cells at once.

use super::rays::nearest_captures;
use super::rotations::Rotations;
use super::translations::Translations;
use crate::board::geometry::{Geometry, NONE};
use crate::board::sets::Board;
use crate::board::sets::{AmountsOf, Lanes};
use crate::ir::{Game, LinePattern};

/// A line's directions in two groups of four lanes: those along which cell numbers grow
/// ("up", a left shift) and those along which they fall ("down", a right shift). Each of the
/// eight directions has a fixed group, so any set of directions fits; unused lanes have empty
/// masks. Every lane of a group shifts the same way, which keeps the work per step to a shift
/// and a mask, and lets compilers run the four lanes as one vector.
pub(crate) struct CompiledLine<B: Board> {
    /// The directions the line runs along, for the general (backtracking) matcher.
    pub(crate) dirs: Vec<usize>,
    /// For whole-set matching, which walks each direction backwards.
    pub(crate) back: [Group<B>; 2],
    /// For matching from one cell, all directions at once.
    pub(crate) ahead: [Group<B>; 2],
    /// `back` laid out as the set type's lanes want (see [`Lanes::REPACKED`]), where that
    /// layout takes the line's steps.
    back_lanes: Option<[(AmountsOf<B>, B::Lanes); 2]>,
    /// The most cells a straight run can hold along any used direction.
    pub(crate) longest_run: u32,
    /// Every element matches a set number of cells (`opponent empty`, `opponent{2} friend`).
    pub(crate) fixed_length: bool,
    /// For single-cell matching: `beyond[c][lane]`, the cells after `c` along the lane's
    /// direction up to the edge or a removed cell; lanes 0-3 go up, 4-7 go down.
    pub(crate) beyond: Vec<[B; 8]>,
    /// On a wrapping board, the line walked direction by direction instead of by lanes: a lane
    /// shifts one way, and a row that crosses a joined edge continues the other way.
    pub(crate) walks: Option<Box<Walks<B>>>,
    /// On a wrapping board that fills one word, the line's steps as rotations, for the cells
    /// lines start from (taken instead of `walks`).
    rotations: Option<Box<Rotations<B>>>,
    /// On a wrapping board where a moved frame straightens every walk, the captures from one
    /// cell found there (taken instead of `walks`).
    translations: Option<Box<Translations<B>>>,
}

/// A line on a wrapping board, one direction at a time.
pub(crate) struct Walks<B> {
    /// `ahead[(c * 8 + k) * pieces..][..pieces]`: the cells after `c` along the line's `k`th
    /// direction, up to an edge, a removed cell or `c` itself, cut where the walk crosses a
    /// joined edge: within each piece cell numbers run one way (`ascending[k]`), so the
    /// nearest cell of a set is its lowest or highest. Unused pieces are empty.
    ahead: Vec<B>,
    /// The most pieces a walk has: two on a cylinder, three on a square torus (a diagonal
    /// crossing both edges apart), more on a long thin one.
    pieces: usize,
    ascending: [bool; 8],
    /// Per direction of the line (in the order of `dirs`): the steps that walk it backwards.
    back: Vec<WalkBack<B>>,
}

/// The steps that walk one direction backwards on a wrapping board: each lands on the cells
/// `lands` with a shift of `amount`, the first two growing cell numbers, the last two
/// lowering them (unused ones land nowhere). A diagonal on a torus has four: within the
/// board, across either joined edge, across both; two of each kind.
#[derive(Clone, Copy)]
struct WalkBack<B> {
    amount: [B; 4],
    lands: [B; 4],
    /// The most cells a run can hold along the direction without reaching its own start.
    longest: u32,
    /// Only the first step of each kind is used (a straight line on a torus, or any line on
    /// a cylinder but a diagonal): two shifts a step instead of four.
    paired: bool,
}

impl<B: Board> WalkBack<B> {
    /// One step of every cell in `s` that lands in `within[i]` by step `i`.
    #[inline(always)]
    fn step(&self, s: B, within: &[B; 4]) -> B {
        // A fixed four, without tests: quicker than skipping the unused ones (and than
        // running the eight directions as lanes of vectors, measured).
        (s.up(self.amount[0]) & within[0])
            | (s.up(self.amount[1]) & within[1])
            | (s.down(self.amount[2]) & within[2])
            | (s.down(self.amount[3]) & within[3])
    }

    /// [`WalkBack::step`] where only steps 0 and 2 land anywhere.
    #[inline(always)]
    fn step_paired(&self, s: B, within: &[B; 4]) -> B {
        (s.up(self.amount[0]) & within[0]) | (s.down(self.amount[2]) & within[2])
    }
}

/// Four lanes of one shift direction: how far each shifts and which cells may receive.
#[derive(Clone, Copy)]
pub(crate) struct Group<B> {
    pub(crate) amount: [B; 4],
    /// The cells a step in the lane's direction can land on (a step off the board or across
    /// its edge lands elsewhere and is masked away).
    pub(crate) lands: [B; 4],
}

impl<B: Board> Group<B> {
    /// One step of every lane, kept where `within` allows.
    #[inline(always)]
    pub(crate) fn shift(&self, s: [B; 4], up: bool, within: [B; 4]) -> [B; 4] {
        std::array::from_fn(|i| {
            let moved = if up {
                s[i].up(self.amount[i])
            } else {
                s[i].down(self.amount[i])
            };
            moved & within[i]
        })
    }

    #[inline(always)]
    pub(crate) fn step(&self, s: [B; 4], up: bool) -> [B; 4] {
        self.shift(s, up, self.lands)
    }
}

pub(crate) fn compile_line<B: Board>(game: &Game, line: &LinePattern) -> CompiledLine<B> {
    let g = &game.geometry;
    // A direction no cell has a neighbour in (a diagonal on a board one cell wide) holds no
    // line; its step may even be 0, which fits neither half of the shifts.
    let dirs: Vec<usize> = line.dirs.iter().filter(|&d| g.has_steps(d)).collect();
    let empty = Group {
        amount: [B::EMPTY; 4],
        lands: [B::EMPTY; 4],
    };
    let mut back = [empty, empty];
    let mut back_amounts = [[0u32; 4]; 2];
    let mut ahead = [empty, empty];
    let mut filled = [0usize; 2];
    let mut filled_ahead = [0usize; 2];
    let mut longest_run = 0;
    let mut beyond = vec![[B::EMPTY; 8]; g.cells()];
    let mut forward = [0usize; 2];
    for &d in &dirs {
        // Walking backwards: the step goes the opposite way and lands on cells that have a
        // neighbour in direction d.
        let offset = -g.step_offset[d];
        let group = usize::from(offset < 0);
        let lane = filled[group];
        filled[group] += 1;
        back[group].amount[lane] = B::amount(offset.unsigned_abs());
        back_amounts[group][lane] = offset.unsigned_abs();
        back[group].lands[lane] = B::from_bits(&g.step_from[d]);
        // Walking forwards: lands on cells that have a neighbour the opposite way.
        let group = usize::from(g.step_offset[d] < 0);
        let lane = filled_ahead[group];
        filled_ahead[group] += 1;
        ahead[group].amount[lane] = B::amount(g.step_offset[d].unsigned_abs());
        ahead[group].lands[lane] = B::from_bits(&g.step_from[(d + 4) % 8]);
        let (dx, dy) = crate::board::geometry::DIRS[d];
        let along = match (dx, dy) {
            (0, _) => g.height,
            (_, 0) => g.width,
            _ => g.width.min(g.height),
        };
        longest_run = longest_run.max(along.saturating_sub(2) as u32);
        let group = usize::from(g.step_offset[d] < 0);
        let lane = group * 4 + forward[group];
        forward[group] += 1;
        // A wrapping board walks its lines instead (see `walks`).
        if g.wrap.any() {
            continue;
        }
        for (c, cell) in beyond.iter_mut().enumerate() {
            let mut at = g.neighbours[c][d];
            while at != NONE {
                cell[lane] = cell[lane] | B::single(at as usize);
                at = g.neighbours[at as usize][d];
            }
        }
    }
    let walks = g.wrap.any().then(|| walks_of::<B>(g, &dirs));
    let back_lanes = back_amounts
        .iter()
        .map(|&cells| B::Lanes::amounts(cells))
        .collect::<Option<Vec<_>>>()
        .map(|amounts| std::array::from_fn(|i| (amounts[i], B::Lanes::from_sets(back[i].lands))))
        // Only repacked layouts step these lanes; the others flood their sets directly.
        .filter(|_| B::Lanes::REPACKED);
    let rotations = walks.as_ref().and_then(|w| {
        let longest: Vec<u32> = w.back.iter().map(|b| b.longest).collect();
        Rotations::new(g, &dirs, &longest).map(Box::new)
    });
    let translations = walks
        .as_ref()
        .and_then(|_| Translations::new(g, &dirs).map(Box::new));
    CompiledLine {
        rotations,
        translations,
        dirs,
        back,
        back_lanes,
        ahead,
        longest_run,
        // The lanes that match a fixed-length line in one walk cannot wrap.
        fixed_length: walks.is_none() && line.elements.iter().all(|&(_, min, max)| min == max),
        beyond,
        walks,
    }
}

/// The walks of a board with joined edges along each of `dirs`: how a run is stepped back
/// towards its start, and each cell's walk ahead cut into the pieces along which cell numbers
/// move by one step.
fn walks_of<B: Board>(g: &Geometry, dirs: &[usize]) -> Box<Walks<B>> {
    let back = dirs
        .iter()
        .map(|&d| {
            let b = (d + 4) % 8;
            let mut walk = WalkBack {
                amount: [B::EMPTY; 4],
                lands: [B::EMPTY; 4],
                longest: 0,
                paired: false,
            };
            let mut filled = [0, 2];
            for (from, offset) in g.steps(b) {
                let kind = usize::from(offset < 0);
                let slot = &mut filled[kind];
                assert!(*slot < 2 + 2 * kind, "at most two steps of each kind");
                walk.amount[*slot] = B::amount(offset.unsigned_abs());
                walk.lands[*slot] = B::from_bits(&from.shifted(offset));
                *slot += 1;
            }
            // The longest walk from a cell that stops at an edge, a removed cell or the
            // cell itself: a run leaves room for the cell that closes it.
            let longest = (0..g.cells())
                .map(|c| {
                    let (mut at, mut n) = (g.neighbours[c][d], 0u32);
                    while at != NONE && usize::from(at) != c {
                        n += 1;
                        at = g.neighbours[usize::from(at)][d];
                    }
                    n
                })
                .max()
                .unwrap_or(0);
            walk.longest = longest.saturating_sub(1);
            walk.paired = filled[0] <= 1 && filled[1] <= 3;
            walk
        })
        .collect();
    let mut ascending = [false; 8];
    let mut walked = Vec::new();
    for (k, &d) in dirs.iter().enumerate() {
        ascending[k] = g.step_offset[d] > 0;
        for c in 0..g.cells() {
            let (mut at, mut pieces) = (c, vec![B::EMPTY]);
            loop {
                let next = g.neighbours[at][d];
                if next == NONE || usize::from(next) == c {
                    break;
                }
                let next = usize::from(next);
                let last = pieces.len() - 1;
                if next as i32 - at as i32 != g.step_offset[d] && !pieces[last].is_empty() {
                    pieces.push(B::EMPTY);
                }
                let last = pieces.len() - 1;
                pieces[last] = pieces[last] | B::single(next);
                at = next;
            }
            walked.push((c * 8 + k, pieces));
        }
    }
    let most = walked.iter().map(|(_, p)| p.len()).max().unwrap_or(1);
    let mut ahead = vec![B::EMPTY; g.cells() * 8 * most];
    for (at, pieces) in walked {
        ahead[at * most..at * most + pieces.len()].copy_from_slice(&pieces);
    }
    Box::new(Walks {
        ahead,
        pieces: most,
        ascending,
        back,
    })
}

impl<B: Board> CompiledLine<B> {
    /// [`CompiledLine::run_captures`] on any board, joined edges or not.
    #[inline(always)]
    pub(crate) fn captures(&self, from: usize, run: B, end: B, ends: bool) -> B {
        // Moved frames exist only beside walks: flat boards pay one test, as before.
        match &self.walks {
            Some(_) if let Some(t) = &self.translations => t.captures(from, run, end, ends),
            Some(walks) => self.walked_captures(walks, from, run, end, ends),
            None => self.run_captures(from, run, end, ends),
        }
    }

    /// [`CompiledLine::run_sources`] on any board, joined edges or not.
    #[inline(always)]
    pub(crate) fn sources(&self, run: B, end: B) -> B {
        // Rotations exist only beside walks: flat boards pay one test, as before.
        match &self.walks {
            Some(_) if let Some(r) = &self.rotations => r.sources(run, end),
            Some(walks) => self.walked_sources(walks, run, end),
            None => self.run_sources(run, end),
        }
    }

    /// [`CompiledLine::captures`] where the board has joined edges (the line is walked).
    #[inline(always)]
    pub(crate) fn wrapped_captures(&self, from: usize, run: B, end: B) -> B {
        // Moved frames exist only beside walks: flat boards pay one test, as before.
        match &self.walks {
            Some(_) if let Some(t) = &self.translations => t.captures(from, run, end, false),
            Some(walks) => self.walked_captures(walks, from, run, end, false),
            None => B::EMPTY,
        }
    }

    /// [`CompiledLine::sources`] where the board has joined edges (the line is walked).
    #[inline(always)]
    pub(crate) fn wrapped_sources(&self, run: B, end: B) -> B {
        // Rotations exist only beside walks: flat boards pay one test, as before.
        match &self.walks {
            Some(_) if let Some(r) = &self.rotations => r.sources(run, end),
            Some(walks) => self.walked_sources(walks, run, end),
            None => B::EMPTY,
        }
    }

    /// For a line that is a run of `run` cells closed by an `end` cell: the cells it captures
    /// from `from` (with `ends`, the closing cells instead). Not on a board with joined edges
    /// (see [`CompiledLine::captures`]): the `Direct` loop, which never meets one, calls it
    /// without the test.
    #[inline(always)]
    pub(crate) fn run_captures(&self, from: usize, run: B, end: B, ends: bool) -> B {
        nearest_captures(&self.beyond[from], run, end, ends)
    }

    /// For a line that is a run of `run` cells closed by an `end` cell: every cell from which
    /// it captures something, by whole-set shifts. Not on a board with joined edges (see
    /// [`CompiledLine::sources`]).
    #[inline(always)]
    pub(crate) fn run_sources(&self, run: B, end: B) -> B {
        if B::Lanes::REPACKED {
            if let Some(lanes) = &self.back_lanes {
                return self.repacked_sources(lanes, run, end);
            }
        }
        let mut out = B::EMPTY;
        // Run cells whose next cell closes the line, then runs growing backwards. On boards
        // of one or two words a fixed number of rounds (no test per round) is quicker than
        // stopping early; on wider ones a round costs a shift per word and runs are short
        // beside the board (26 x 26 Othello: twice the playouts, five times the perft).
        let stop_early = B::CELLS > 128;
        for (group, back) in self.back.iter().enumerate() {
            let up = group == 0;
            // Run cells a step can land on: one mask per step instead of two.
            let within = back.lands.map(|m| m & run);
            let mut reach = back.shift([end; 4], up, within);
            let mut runs = reach;
            for _ in 1..self.longest_run {
                if stop_early && reach.iter().all(|r| r.is_empty()) {
                    break;
                }
                reach = back.shift(reach, up, within);
                for (a, b) in runs.iter_mut().zip(reach) {
                    *a = *a | b;
                }
            }
            for r in back.step(runs, up) {
                out = out | r;
            }
        }
        out
    }

    /// [`CompiledLine::run_sources`] on lanes laid out for their set type. The same steps as
    /// there; kept apart because the one-word sets' code, written over lanes too, came out
    /// of the compiler a quarter slower in Othello's playouts (measured), through
    /// vectorising decisions elsewhere in the loop.
    #[inline(always)]
    fn repacked_sources(&self, lanes: &[(AmountsOf<B>, B::Lanes); 2], run: B, end: B) -> B {
        let mut out = B::EMPTY;
        for (group, (amount, lands)) in lanes.iter().enumerate() {
            let up = group == 0;
            let within = *lands & B::Lanes::splat(run);
            let mut reach = B::Lanes::splat(end).shift(amount, up, within);
            let mut runs = reach;
            for _ in 1..self.longest_run {
                reach = reach.shift(amount, up, within);
                runs = runs | reach;
            }
            out = out | runs.shift(amount, up, *lands).union();
        }
        out
    }

    /// [`CompiledLine::run_captures`] on a wrapping board: each direction a piece at a time
    /// (see [`Walks::ahead`]), stopping short of the start.
    #[inline(always)]
    fn walked_captures(&self, walks: &Walks<B>, from: usize, run: B, end: B, ends: bool) -> B {
        let mut out = B::EMPTY;
        let n = walks.pieces;
        for k in 0..self.dirs.len() {
            let mut taken = B::EMPTY;
            for &piece in &walks.ahead[(from * 8 + k) * n..][..n] {
                let stops = piece & !run;
                if stops.is_empty() {
                    // The whole piece is run (an empty piece: the walk ended unclosed).
                    taken = taken | piece;
                    continue;
                }
                let (stop, before) = if walks.ascending[k] {
                    let stop = stops.lowest_bit();
                    (stop, piece & stop.below())
                } else {
                    let stop = stops.highest_bit();
                    (stop, piece & !stop.below() & !stop)
                };
                taken = taken | before;
                if !(stop & end).is_empty() && !taken.is_empty() {
                    out = out | if ends { stop } else { taken };
                }
                break;
            }
        }
        out
    }

    /// [`CompiledLine::run_sources`] on a wrapping board: runs grown backwards from the closing
    /// cells, one direction at a time, never longer than the direction allows (so a run never
    /// meets its own start).
    #[inline(always)]
    fn walked_sources(&self, walks: &Walks<B>, run: B, end: B) -> B {
        let mut out = B::EMPTY;
        for walk in &walks.back {
            let within = walk.lands.map(|m| m & run);
            let mut reach = walk.step(end, &within);
            let mut runs = reach;
            if walk.paired {
                for _ in 1..walk.longest {
                    reach = walk.step_paired(reach, &within);
                    runs = runs | reach;
                }
            } else {
                for _ in 1..walk.longest {
                    reach = walk.step(reach, &within);
                    runs = runs | reach;
                }
            }
            out = out | walk.step(runs, &walk.lands);
        }
        out
    }
}
