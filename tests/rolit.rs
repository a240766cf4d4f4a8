//! Rolit for three and four players, and for three with a neutral fourth ball, checked against
//! a second generator written here from the rules: perft from the start, and seeded games
//! compared position by position.

use crate::common;
use crate::common::{engine, perft_of, play_alongside};
use outflank::agents::game_seed;
use outflank::engine::rng::Rng;
use outflank::engine::state::State;

/// Rolit on a mailbox board, independent of the engine: 0 empty, 1 + p for player p's ball
/// (4 for the blue ball, which belongs to no one when three play); cells row by row from the
/// top-left (a1 first, as the engine numbers them).
#[derive(Clone)]
struct Mailbox {
    cells: [u8; 64],
    players: u8,
    to_move: u8,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

fn at(x: i32, y: i32) -> Option<usize> {
    ((0..8).contains(&x) && (0..8).contains(&y)).then(|| (y * 8 + x) as usize)
}

impl Mailbox {
    /// The start: red d4, yellow e4, green e5, and blue d5 with four players or with the
    /// neutral ball.
    fn start(players: u8, neutral: bool) -> Mailbox {
        let mut cells = [0; 64];
        let d4 = 3 * 8 + 3;
        (cells[d4], cells[d4 + 1], cells[d4 + 9]) = (1, 2, 3);
        if players == 4 || neutral {
            cells[d4 + 8] = 4;
        }
        Mailbox {
            cells,
            players,
            to_move: 0,
        }
    }

    /// The balls a ball of `player` on `cell` would turn.
    fn captures(&self, cell: usize, player: u8) -> Vec<usize> {
        let mine = player + 1;
        let (x, y) = ((cell % 8) as i32, (cell / 8) as i32);
        let mut out = Vec::new();
        for (dx, dy) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut cx, mut cy) = (x + dx, y + dy);
            while let Some(c) = at(cx, cy) {
                match self.cells[c] {
                    0 => break,
                    v if v == mine => {
                        out.extend(&run);
                        break;
                    }
                    // Any other ball, a neutral one too, is taken by a line closed over it.
                    _ => run.push(c),
                }
                cx += dx;
                cy += dy;
            }
        }
        out
    }

    fn next_to_a_ball(&self, cell: usize) -> bool {
        let (x, y) = ((cell % 8) as i32, (cell / 8) as i32);
        DIRECTIONS
            .iter()
            .filter_map(|(dx, dy)| at(x + dx, y + dy))
            .any(|c| self.cells[c] != 0)
    }

    fn placements(&self) -> Vec<usize> {
        let empty: Vec<usize> = (0..64).filter(|&c| self.cells[c] == 0).collect();
        let capturing: Vec<usize> = empty
            .iter()
            .copied()
            .filter(|&c| !self.captures(c, self.to_move).is_empty())
            .collect();
        if capturing.is_empty() {
            empty
                .into_iter()
                .filter(|&c| self.next_to_a_ball(c))
                .collect()
        } else {
            capturing
        }
    }

    fn play(&mut self, cell: usize) {
        let me = self.to_move;
        for c in self.captures(cell, me) {
            self.cells[c] = me + 1;
        }
        self.cells[cell] = me + 1;
        self.to_move = (me + 1) % self.players;
    }

    fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(8)
            .map(|r| {
                r.iter()
                    .map(|&v| ['.', 'R', 'Y', 'G', 'B'][v as usize])
                    .collect()
            })
            .collect()
    }

    fn count(&self, player: u8) -> usize {
        self.cells.iter().filter(|&&v| v == player + 1).count()
    }
}

impl common::Oracle for Mailbox {
    type Move = usize;
    fn moves(&self) -> Vec<usize> {
        self.placements()
    }
    fn over(&self) -> bool {
        !self.cells.contains(&0)
    }
    fn play_move(&mut self, m: Option<usize>) {
        // Rolit never passes: while a cell is empty, one is next to a ball.
        self.play(m.expect("a placement"))
    }
}

fn name(c: usize) -> String {
    format!("{}{}", (b'a' + (c % 8) as u8) as char, c / 8 + 1)
}

/// Each file, its players and whether a neutral ball stands on d5.
const FILES: [(&str, u8, bool); 3] = [
    ("rolit-3", 3, false),
    ("rolit", 4, false),
    ("rolit-3-neutral", 3, true),
];

#[test]
fn perft_matches_the_mailbox_generator() {
    for (file, players, neutral) in FILES {
        let e = engine(&format!("games/{file}.rules"), &[]);
        let s = e.start().unwrap();
        let plain = Mailbox::start(players, neutral);
        assert_eq!(e.board_rows(&s), plain.rows(), "{file}");
        for d in 1..=5 {
            assert_eq!(
                e.perft(&s, d).unwrap(),
                perft_of(&plain, d),
                "{file} depth {d}"
            );
        }
    }
}

#[test]
fn seeded_games_agree_with_the_mailbox_generator() {
    for (file, players, neutral) in FILES {
        let e = engine(&format!("games/{file}.rules"), &[]);
        let mut positions = 0;
        for game in 0..20 {
            let mut rng = Rng::new(game_seed(31, game));
            let what = format!("{file} game {game}");
            let same = |s: &State, m: &Mailbox| {
                assert_eq!(e.board_rows(s), m.rows(), "{what}");
                assert_eq!(s.mover, m.to_move, "{what}");
            };
            let start = Mailbox::start(players, neutral);
            positions += play_alongside(&e, start, &mut rng, &what, |_, c| name(c), same);
        }
        assert!(positions >= 20 * 60, "{file}: {positions} positions");
    }
}

#[test]
fn the_most_balls_win_and_a_tie_at_the_top_draws() {
    for (file, players, neutral) in FILES {
        let e = engine(&format!("games/{file}.rules"), &[]);
        for seed in 0..40 {
            let (moves, end) = common::seeded_game(&e, seed);
            let mut m = Mailbox::start(players, neutral);
            for text in &moves {
                let cell = (0..64).find(|&c| name(c) == *text).unwrap();
                m.play(cell);
            }
            let counts: Vec<usize> = (0..players).map(|p| m.count(p)).collect();
            let outcome = end.outcome.unwrap();
            let scores: Vec<usize> = outcome.scores().iter().map(|&v| v as usize).collect();
            assert_eq!(scores, counts, "{file} seed {seed}");
            let best = *counts.iter().max().unwrap();
            let leaders: Vec<u8> = (0..players)
                .filter(|&p| counts[p as usize] == best)
                .collect();
            let expected = if leaders.len() == 1 {
                leaders[0]
            } else {
                outflank::ir::NOBODY
            };
            assert_eq!(outcome.winner, expected, "{file} seed {seed}");
        }
    }
}

/// A finished game's worth to `root`, as the search counts it: a win or a loss a million
/// beyond any margin, and the margin of balls over the best other player.
fn worth(m: &Mailbox, root: u8) -> f64 {
    let counts: Vec<f64> = (0..m.players).map(|p| m.count(p) as f64).collect();
    let best_other = (0..m.players)
        .filter(|&p| p != root)
        .map(|p| counts[p as usize])
        .fold(f64::NEG_INFINITY, f64::max);
    let margin = counts[root as usize] - best_other;
    let top = counts.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let leaders = counts.iter().filter(|&&c| c == top).count();
    match (counts[root as usize] == top, leaders) {
        (true, 1) => 1e6 + margin,
        (_, 1) => -1e6 + margin,
        _ => margin,
    }
}

/// The value `root` can make sure of when every other player plays against it.
fn paranoid(m: &Mailbox, root: u8) -> f64 {
    if !m.cells.contains(&0) {
        return worth(m, root);
    }
    let values = m.placements().into_iter().map(|c| {
        let mut next = m.clone();
        next.play(c);
        paranoid(&next, root)
    });
    if m.to_move == root {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

#[test]
fn the_solver_plays_paranoid_among_three_or_four() {
    // Endgames with seven empty cells, reached by seeded random play: the solver's line must
    // end where the player to move gets what a minimax written here says it can make sure of.
    for (file, players, neutral) in FILES {
        let e = engine(&format!("games/{file}.rules"), &[]);
        for seed in 0..6 {
            let mut rng = Rng::new(game_seed(41, seed));
            let mut m = Mailbox::start(players, neutral);
            while m.cells.iter().filter(|&&v| v == 0).count() > 7 {
                let moves = m.placements();
                m.play(moves[rng.below(moves.len())]);
            }
            let to_move = e.player_name(m.to_move).to_string();
            let s = e.position(&m.rows().join("/"), Some(&to_move)).unwrap();
            let solution = outflank::apps::solve::solve(&e, &s, 1 << 24).unwrap();
            let end = solution.end.outcome.unwrap();
            let what = format!("{file} seed {seed}");
            assert_eq!(solution.line.len(), 7, "{what}");
            assert_eq!(end.value_for(m.to_move), paranoid(&m, m.to_move), "{what}");
        }
    }
}
