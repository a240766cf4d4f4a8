//! Ataxx: the published perft counts of the start, and deeper counts, seeded games and the
//! blocked-cell board checked against a second generator written here from the rules.

use crate::common;
use crate::common::{engine, play_alongside};
use outflank::agents::game_seed;
use outflank::engine::rng::Rng;
use outflank::engine::state::State;

/// Ataxx on a mailbox board, independent of the engine: 0 empty, 1 red, 2 blue, 3 blocked;
/// cells row by row from the top-left (as the engine prints them).
#[derive(Clone)]
struct Mailbox {
    cells: [u8; 49],
    to_move: u8,
}

/// A step: a growth into a cell, or a jump from one cell to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Grow(usize),
    Jump(usize, usize),
}

fn xy(c: usize) -> (i32, i32) {
    ((c % 7) as i32, (c / 7) as i32)
}

/// King steps between two cells.
fn steps_apart(a: usize, b: usize) -> i32 {
    let ((ax, ay), (bx, by)) = (xy(a), xy(b));
    (ax - bx).abs().max((ay - by).abs())
}

impl Mailbox {
    fn start(blocked: &[usize]) -> Mailbox {
        let mut cells = [0; 49];
        // Red on a1 and g7, blue on g1 and a7.
        (cells[0], cells[48], cells[6], cells[42]) = (1, 1, 2, 2);
        for &b in blocked {
            cells[b] = 3;
        }
        Mailbox { cells, to_move: 1 }
    }

    fn steps(&self, player: u8) -> Vec<Step> {
        let mut out = Vec::new();
        for to in (0..49).filter(|&c| self.cells[c] == 0) {
            let near = |d: i32| (0..49).filter(move |&f| steps_apart(f, to) == d);
            if near(1).any(|f| self.cells[f] == player) {
                out.push(Step::Grow(to));
            }
            for from in near(2).filter(|&f| self.cells[f] == player) {
                out.push(Step::Jump(from, to));
            }
        }
        out
    }

    fn over(&self) -> bool {
        let has = |p: u8| self.cells.contains(&p);
        !has(1) || !has(2) || (self.steps(1).is_empty() && self.steps(2).is_empty())
    }

    /// Plays a step, or a pass when `step` is None.
    fn play(&mut self, step: Option<Step>) {
        let me = self.to_move;
        if let Some(step) = step {
            let to = match step {
                Step::Grow(to) => to,
                Step::Jump(from, to) => {
                    self.cells[from] = 0;
                    to
                }
            };
            self.cells[to] = me;
            for c in 0..49 {
                if steps_apart(c, to) == 1 && self.cells[c] == 3 - me {
                    self.cells[c] = me;
                }
            }
        }
        self.to_move = 3 - me;
    }

    fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(7)
            .map(|r| {
                r.iter()
                    .map(|&v| ['.', 'X', 'O', '#'][v as usize])
                    .collect()
            })
            .collect()
    }
}

impl common::Oracle for Mailbox {
    type Move = Step;
    fn moves(&self) -> Vec<Step> {
        self.steps(self.to_move)
    }
    fn over(&self) -> bool {
        Mailbox::over(self)
    }
    fn play_move(&mut self, m: Option<Step>) {
        self.play(m)
    }
}

fn name(c: usize) -> String {
    format!("{}{}", (b'a' + (c % 7) as u8) as char, c / 7 + 1)
}

fn notation(step: Step) -> String {
    match step {
        Step::Grow(to) => name(to),
        Step::Jump(from, to) => format!("{}-{}", name(from), name(to)),
    }
}

/// Blocked c3, e3, c5 and e5, as games/ataxx-blocked.rules has them.
const BLOCKED: [usize; 4] = [14 + 2, 14 + 4, 28 + 2, 28 + 4];

#[test]
fn the_start_has_the_published_perft_counts() {
    // The counts Ataxx engines publish for the standard start, depths 1 to 4.
    let e = engine("games/ataxx.rules", &[]);
    let s = e.start().unwrap();
    let published = [16u64, 256, 6460, 155_888];
    for (d, &n) in published.iter().enumerate() {
        assert_eq!(e.perft(&s, d as u32 + 1).unwrap(), n, "depth {}", d + 1);
    }
}

#[test]
fn perft_matches_the_mailbox_generator() {
    for (file, blocked) in [("ataxx", &[][..]), ("ataxx-blocked", &BLOCKED[..])] {
        let e = engine(&format!("games/{file}.rules"), &[]);
        let s = e.start().unwrap();
        let plain = Mailbox::start(blocked);
        assert_eq!(e.board_rows(&s), plain.rows(), "{file}");
        for d in 1..=4 {
            assert_eq!(
                e.perft(&s, d).unwrap(),
                common::perft_of(&plain, d),
                "{file} depth {d}"
            );
        }
    }
}

#[test]
fn seeded_games_agree_with_the_mailbox_generator() {
    for (file, blocked) in [("ataxx", &[][..]), ("ataxx-blocked", &BLOCKED[..])] {
        let e = engine(&format!("games/{file}.rules"), &[]);
        let mut positions = 0;
        for game in 0..30 {
            let mut rng = Rng::new(game_seed(21, game));
            let what = format!("{file} game {game}");
            let same_board =
                |s: &State, m: &Mailbox| assert_eq!(e.board_rows(s), m.rows(), "{what}");
            let start = Mailbox::start(blocked);
            positions +=
                play_alongside(&e, start, &mut rng, &what, |_, st| notation(st), same_board);
        }
        assert!(positions > 1000, "{file}: {positions} positions");
    }
}
