//! Leaps (`directions knight = (1, 2), ...`): one step by a vector of columns and rows, which
//! `adjacent` and `neighbours` take. A knight-hop Reversi is checked against a generator
//! written here from the rule alone, on a square board, on a torus and on a board with holes,
//! from the start and from positions reached by play, on the fast and the plain runner.

use crate::common::engine_from;
use outflank::engine::Engine;

const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

/// Knight-hop Reversi on `board`: a player places on an empty cell a knight's leap from one
/// of its pieces, and every opponent piece a knight's leap from the placed one turns its own.
fn knight_reversi(board: &str) -> Engine {
    engine_from(&format!(
        r#"
        {board}
        player black 'B'
        player white 'W'
        directions knight = (1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)
        setup {{
          white on d4, e5
          black on e4, d5
        }}
        turn {{
          choose c in empty & adjacent(mover, knight) {{
            place c
            flip adjacent(c, knight) & opponent
          }}
        }}
        end when blocked
        score p = count(p)
        "#
    ))
}

/// The same game, counted without outflank: cells `x + y * width`, `None` for a removed cell.
#[derive(Clone)]
struct Knights {
    width: i32,
    height: i32,
    wraps: bool,
    cells: Vec<Option<Option<u8>>>,
    mover: u8,
}

impl Knights {
    fn new(width: i32, height: i32, wraps: bool, removed: &[usize]) -> Knights {
        let mut cells = vec![Some(None); (width * height) as usize];
        for &r in removed {
            cells[r] = None;
        }
        let mut k = Knights {
            width,
            height,
            wraps,
            cells,
            mover: 0,
        };
        // d4 and e5 white, e4 and d5 black (rows counted from the top).
        for (name, p) in [("d4", 1), ("e5", 1), ("e4", 0), ("d5", 0)] {
            let c = k.cell(name);
            k.cells[c] = Some(Some(p));
        }
        k
    }

    fn cell(&self, name: &str) -> usize {
        let x = i32::from(name.as_bytes()[0] - b'a');
        let y: i32 = name[1..].parse::<i32>().unwrap() - 1;
        (x + y * self.width) as usize
    }

    fn name(&self, c: usize) -> String {
        let (x, y) = (c as i32 % self.width, c as i32 / self.width);
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// Where a knight's leap `v` from `c` lands, if on a cell in play.
    fn hop(&self, c: usize, (dx, dy): (i32, i32)) -> Option<usize> {
        let (mut x, mut y) = (c as i32 % self.width + dx, c as i32 / self.width + dy);
        if self.wraps {
            x = x.rem_euclid(self.width);
            y = y.rem_euclid(self.height);
        }
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        let to = (x + y * self.width) as usize;
        (to != c && self.cells[to].is_some()).then_some(to)
    }

    fn placements(&self, p: u8) -> Vec<usize> {
        let mut out: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c] == Some(Some(p)))
            .flat_map(|c| KNIGHT.iter().filter_map(move |&v| self.hop(c, v)))
            .filter(|&t| self.cells[t] == Some(None))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn play(&self, c: usize) -> Knights {
        let mut next = self.clone();
        next.cells[c] = Some(Some(self.mover));
        for &v in &KNIGHT {
            if let Some(t) = self.hop(c, v) {
                if self.cells[t] == Some(Some(1 - self.mover)) {
                    next.cells[t] = Some(Some(self.mover));
                }
            }
        }
        next.mover = 1 - self.mover;
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.placements(self.mover);
        if moves.is_empty() {
            if self.placements(1 - self.mover).is_empty() {
                return 1;
            }
            let mut passed = self.clone();
            passed.mover = 1 - self.mover;
            return passed.perft(depth - 1);
        }
        moves.iter().map(|&c| self.play(c).perft(depth - 1)).sum()
    }
}

/// Perft from the start and from positions a few turns in, against the generator.
fn agrees(board: &str, reference: Knights, depth: u32) {
    for e in [knight_reversi(board), knight_reversi(board).plain()] {
        let start = e.start().unwrap();
        for d in 1..=depth {
            assert_eq!(
                e.perft(&start, d).unwrap(),
                reference.perft(d),
                "{board}, depth {d}"
            );
        }
        // Lines of play that take the first, the last and a middle placement in turn.
        for pick in 0..3usize {
            let (mut k, mut history) = (reference.clone(), Vec::new());
            for turn in 0..8 {
                let moves = k.placements(k.mover);
                let Some(&c) = moves.get((pick * turn * 7) % moves.len().max(1)) else {
                    break;
                };
                history.push(k.name(c));
                k = k.play(c);
            }
            let s = e.play_history(&start, &history.join(" ")).unwrap();
            assert_eq!(
                e.perft(&s, depth - 1).unwrap(),
                k.perft(depth - 1),
                "{board} after {history:?}"
            );
        }
    }
}

#[test]
fn knight_hops_on_a_square_board_count_as_the_generator_does() {
    // From the start, black may land on the 14 cells a knight's leap from e4 or d5.
    let e = knight_reversi("board 8 x 8");
    assert_eq!(e.perft(&e.start().unwrap(), 1).unwrap(), 14);
    agrees("board 8 x 8", Knights::new(8, 8, false, &[]), 4);
}

#[test]
fn knight_hops_cross_a_torus_s_joined_edges() {
    // On 6 x 6 many leaps cross an edge, and some land where another leap lands.
    agrees("board 6 x 6 torus", Knights::new(6, 6, true, &[]), 4);
}

#[test]
fn knight_hops_never_land_on_a_removed_cell() {
    // c2, f3 and e7 are out of play: leaps that would land there go nowhere.
    let reference = Knights::new(8, 8, false, &[2 + 8, 5 + 2 * 8, 4 + 6 * 8]);
    agrees("board 8 x 8 removed cells(c2, f3, e7)", reference, 4);
}

#[test]
fn a_leap_set_with_compass_directions_steps_both_ways() {
    // `hop` is a step east and a leap two rows down, `more` adds a leap along the diagonal:
    // from a1, b1, a3 and d4.
    let e = engine_from(
        r#"
        board 4 x 4
        player black 'B'
        player white 'W'
        directions hop = east, (0, 2)
        directions more = hop, (3, 3)
        setup { black on a1 }
        turn { choose c in empty & neighbours(a1, more) { place c } }
        end when blocked
        score p = count(p)
        "#,
    );
    let turns = e.perft_divide(&e.start().unwrap(), 1).unwrap();
    let mut cells: Vec<String> = turns.into_iter().map(|(t, _)| t).collect();
    cells.sort();
    assert_eq!(cells, ["a3", "b1", "d4"]);
}

#[test]
fn symmetries_are_those_that_keep_every_leap() {
    let symmetries = |vectors: &str| {
        let e = engine_from(&format!(
            r#"
            board 8 x 8
            player black 'B'
            player white 'W'
            directions leap = {vectors}
            turn {{ choose c in empty & adjacent(pieces, leap) {{ place c }} }}
            end when blocked
            score p = count(p)
            "#
        ));
        e.game.symmetries.len()
    };
    // A knight's eight leaps are kept by the square's seven symmetries, a leap forward and back
    // by the half turn and the two mirrors, one leap alone by none.
    let knight = "(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)";
    assert_eq!(symmetries(knight), 7);
    assert_eq!(symmetries("(0, 2), (0, -2)"), 3);
    assert_eq!(symmetries("(1, 2)"), 0);
}
