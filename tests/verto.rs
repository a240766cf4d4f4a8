//! Verto (Dieter Stein): the rule text's examples rebuilt as positions, perft against a
//! second, plain generator written here, and seeded games as snapshots.

use crate::common;
use crate::common::{engine, play, step_names as steps_from, whole_turns as turns_from};
use outflank::agents::game_seed;
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::Engine;

fn verto() -> Engine {
    engine("games/verto-8x8.rules", &[])
}

/// Stones of the player to move at `s` gained by each whole turn, minus the stones entered.
fn captures_per_turn(e: &Engine, s: &State) -> Vec<(String, u32)> {
    let theirs = s.pieces.of(1 - s.mover as usize).count();
    e.whole_turns(s, 100_000)
        .unwrap()
        .into_iter()
        .map(|t| {
            (
                t.notation,
                theirs - t.after.pieces.of(1 - s.mover as usize).count(),
            )
        })
        .collect()
}

#[test]
fn two_step_capture() {
    // Dark to move. Entering at e5 puts the light d4 between it and the dark c3: d4 flips at
    // once. The new stone must then jump the light f6 onto g7; after that no jump is left.
    let e = verto();
    let s = e
        .position(
            "......../......../..D...../...L..../......../.....L../......../........",
            Some("dark"),
        )
        .unwrap();
    let e5: Vec<String> = turns_from(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("e5"))
        .collect();
    assert_eq!(e5, ["e5-g7"]);
    // Flipped at once, not at the end of the turn: d4 is dark before the jump is chosen.
    let mid = play(&e, &s, "e5");
    assert_eq!(e.board_rows(&mid)[3], "...D....");
    assert_eq!(e.board_rows(&mid)[5], ".....L..");
    assert_eq!(steps_from(&e, &mid), ["-g7"]);
    let after = play(&e, &s, "e5-g7");
    assert_eq!(
        e.board_rows(&after),
        [
            "........", "........", "..D.....", "...D....", "....D...", ".....D..", "......D.",
            "........"
        ]
    );
    assert_eq!(e.player_name(after.mover), "light");
}

#[test]
fn threat_of_four_captures_and_the_defence() {
    // Light threatens d4: capture c3 (against b2), then jump e5 to f6, f7 to f8, e8 to d8.
    let e = verto();
    let rows = [
        "......../.L....../..D...../......../....D.../......L./.....D../....D...",
        "light",
    ];
    let s = e.position(rows[0], Some(rows[1])).unwrap();
    let best = captures_per_turn(&e, &s)
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .unwrap();
    assert_eq!(best, ("d4-f6-f8-d8".to_string(), 4));

    // Dark to move in the same position: entering at f6 (next to its own stones, and legal
    // because the light g6 is next to it too) blocks the first jump.
    let s = e.position(rows[0], Some("dark")).unwrap();
    assert!(turns_from(&e, &s).contains(&"f6".to_string()));
    let defended = play(&e, &s, "f6");
    let after: Vec<(String, u32)> = captures_per_turn(&e, &defended);
    let best = after.iter().map(|(_, n)| *n).max().unwrap();
    assert!(best < 4, "after the defence Light captures at most {best}");
    // The loss is reduced, not avoided: e6 now captures f6 (against g6) and jumps once more.
    let twos: Vec<&str> = after
        .iter()
        .filter(|(_, n)| *n == 2)
        .map(|(t, _)| t.as_str())
        .collect();
    assert_eq!(twos, ["e6-e4", "e6-g8"]);
    assert!(
        after.iter().any(|(t, n)| t == "d4" && *n == 1),
        "d4 still captures c3, no jump"
    );
}

#[test]
fn one_capture_out_of_three() {
    // Entering at d4 sandwiches c3, d3 and e3 at once: exactly one of them may be captured.
    let e = verto();
    let s = e
        .position(
            "......../.L.L.L../..DDD.../......../......../......../......../........",
            Some("light"),
        )
        .unwrap();
    let mid = play(&e, &s, "d4");
    assert_eq!(steps_from(&e, &mid), ["xc3", "xd3", "xe3"]);
    let d4: Vec<String> = turns_from(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("d4"))
        .collect();
    assert_eq!(d4, ["d4xc3", "d4xd3", "d4xe3"]);
    for (turn, row) in [
        ("d4xc3", "..LDD..."),
        ("d4xd3", "..DLD..."),
        ("d4xe3", "..DDL..."),
    ] {
        let after = play(&e, &s, turn);
        assert_eq!(e.board_rows(&after)[2], row, "{turn} flips only its stone");
    }
}

#[test]
fn illegal_entries_and_the_corner_rule() {
    // Light d4, dark g7; light to move and no capture exists.
    let e = verto();
    let s = e
        .position(
            "......../......../......../...L..../......../......../......D./........",
            Some("light"),
        )
        .unwrap();
    let legal = turns_from(&e, &s);
    // Next to its own stone with no enemy stone beside: illegal.
    for cell in ["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"] {
        assert!(
            !legal.contains(&cell.to_string()),
            "{cell} touches only a friendly stone"
        );
    }
    // A corner needs a stone next to it: h8 has the dark g7, a1 has nothing.
    assert!(legal.contains(&"h8".to_string()));
    assert!(!legal.contains(&"a1".to_string()) && !legal.contains(&"h1".to_string()));
    // Next to the enemy stone only: fine.
    assert!(legal.contains(&"f6".to_string()));
    // 64 cells - 2 stones - 8 around d4 - 3 bare corners = 51 entries.
    assert_eq!(legal.len(), 51);
}

#[test]
fn a_player_without_capture_or_entry_passes() {
    // Every empty cell touches only light stones: light must pass, dark can enter.
    let e = engine("games/verto-8x8.rules", &[("size", "4")]);
    let s = e.position("LLLL/L.LL/LLLL/LLL.", Some("light")).unwrap();
    assert_eq!(steps_from(&e, &s), ["pass"]);
    let after = play(&e, &s, "pass");
    assert_eq!(e.player_name(after.mover), "dark");
    assert_eq!(turns_from(&e, &after), ["b2", "d4"]);
}

#[test]
fn the_game_ends_on_a_full_board_and_can_be_drawn() {
    let e = engine("games/verto-8x8.rules", &[("size", "4")]);
    let s = e.position("LLLL/LLDD/LDLD/DDD.", Some("dark")).unwrap();
    // d4 is a corner with stones beside it, friend and enemy; entering it fills the board,
    // capturing nothing: 8 against 8.
    let end = play(&e, &s, "d4");
    let o = end.outcome.expect("a full board ends the game");
    assert_eq!(o.scores(), [8.0, 8.0]);
    assert_eq!(o.winner, outflank::ir::NOBODY);
}

/// A second Verto generator, written from the rules without the engine: a plain board,
/// whole turns built by recursion. Counts whole turns (a pass is one, a full board a leaf).
mod plain {
    pub(super) struct Verto {
        pub n: i32,
    }

    const DIRS: [(i32, i32); 8] = [
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];

    impl Verto {
        fn at(&self, b: &[u8], x: i32, y: i32) -> Option<u8> {
            (x >= 0 && y >= 0 && x < self.n && y < self.n).then(|| b[(y * self.n + x) as usize])
        }

        fn chain(&self, b: &[u8], p: u8, x: i32, y: i32, out: &mut Vec<Vec<u8>>) {
            let o = 3 - p;
            let mut jumped = false;
            for (dx, dy) in DIRS {
                if self.at(b, x + dx, y + dy) == Some(o)
                    && self.at(b, x + 2 * dx, y + 2 * dy) == Some(0)
                {
                    jumped = true;
                    let mut c = b.to_vec();
                    c[((y + dy) * self.n + x + dx) as usize] = p;
                    c[((y + 2 * dy) * self.n + x + 2 * dx) as usize] = p;
                    self.chain(&c, p, x + 2 * dx, y + 2 * dy, out);
                }
            }
            if !jumped {
                out.push(b.to_vec());
            }
        }

        /// Boards after every complete turn of `p` (1 light, 2 dark); empty: must pass.
        pub(super) fn turns(&self, b: &[u8], p: u8) -> Vec<Vec<u8>> {
            let o = 3 - p;
            let mut out = Vec::new();
            for y in 0..self.n {
                for x in 0..self.n {
                    if b[(y * self.n + x) as usize] != 0 {
                        continue;
                    }
                    let mut captured = false;
                    for (dx, dy) in DIRS {
                        if self.at(b, x + dx, y + dy) == Some(o)
                            && self.at(b, x + 2 * dx, y + 2 * dy) == Some(p)
                        {
                            captured = true;
                            let mut c = b.to_vec();
                            c[(y * self.n + x) as usize] = p;
                            c[((y + dy) * self.n + x + dx) as usize] = p;
                            self.chain(&c, p, x, y, &mut out);
                        }
                    }
                    if captured {
                        continue;
                    }
                    let around: Vec<u8> = DIRS
                        .iter()
                        .filter_map(|(dx, dy)| self.at(b, x + dx, y + dy))
                        .collect();
                    let friend = around.contains(&p);
                    let enemy = around.contains(&o);
                    let corner = (x == 0 || x == self.n - 1) && (y == 0 || y == self.n - 1);
                    // Forbidden: beside a friend with no enemy beside; a corner with no stone beside.
                    // Both need "no enemy beside", so together: no enemy, and a friend or a corner.
                    if !enemy && (friend || corner) {
                        continue;
                    }
                    let mut c = b.to_vec();
                    c[(y * self.n + x) as usize] = p;
                    out.push(c);
                }
            }
            out
        }

        pub(super) fn perft(&self, b: &[u8], p: u8, depth: u32) -> u64 {
            if depth == 0 || !b.contains(&0) {
                return 1;
            }
            let turns = self.turns(b, p);
            if turns.is_empty() {
                if self.turns(b, 3 - p).is_empty() {
                    return 1;
                }
                return self.perft(b, 3 - p, depth - 1);
            }
            if depth == 1 {
                return turns.len() as u64;
            }
            turns.iter().map(|t| self.perft(t, 3 - p, depth - 1)).sum()
        }
    }
}

#[test]
fn perft_depth_1_to_4_matches_a_second_generator() {
    // By hand: 60 first moves (the 4 corners have no stone beside them); then Dark may use
    // every cell but the corners not touching Light's stone: 12 * 60 + 48 * 59 = 3552.
    let e = verto();
    let s = e.start().unwrap();
    let plain = plain::Verto { n: 8 };
    let empty = vec![0u8; 64];
    let ours: Vec<u64> = (1..=4).map(|d| e.perft(&s, d).unwrap()).collect();
    let theirs: Vec<u64> = (1..=4).map(|d| plain.perft(&empty, 1, d)).collect();
    assert_eq!(ours, theirs);
    assert_eq!(&ours[..2], [60, 3552]);
    assert_eq!(ours, [60, 3552, 186108, 9752028]);
}

#[test]
fn random_positions_agree_with_the_second_generator() {
    let e = verto();
    let plain = plain::Verto { n: 8 };
    for game in 0..30 {
        let mut rng = Rng::new(game_seed(21, game));
        let mut s = e.start().unwrap();
        while !s.is_over() {
            let cells: Vec<u8> = e
                .board_rows(&s)
                .concat()
                .chars()
                .map(|c| match c {
                    'L' => 1,
                    'D' => 2,
                    _ => 0,
                })
                .collect();
            let mut ours: Vec<String> = e
                .whole_turns(&s, 100_000)
                .unwrap()
                .iter()
                .map(|t| e.board_rows(&t.after).concat())
                .collect();
            let mut theirs: Vec<String> = plain
                .turns(&cells, s.mover + 1)
                .iter()
                .map(|b| b.iter().map(|&v| ['.', 'L', 'D'][v as usize]).collect())
                .collect();
            if theirs.is_empty() {
                theirs.push(cells.iter().map(|&v| ['.', 'L', 'D'][v as usize]).collect());
            }
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "game {game}, turn {}", s.turn);
            let turns = e.whole_turns(&s, 100_000).unwrap();
            s = turns[rng.below(turns.len())].after;
        }
    }
}

/// A seeded game as numbered pairs of whole turns, then the final board and result.
fn seeded_game(e: &Engine, seed: u64) -> String {
    let (moves, s) = common::seeded_game(e, seed);
    let mut out = String::new();
    for (i, pair) in moves.chunks(2).enumerate() {
        out.push_str(&format!("{:>3}. {}\n", i + 1, pair.join(" ")));
    }
    out.push('\n');
    out.push_str(&e.board_rows(&s).join("\n"));
    let o = s.outcome.unwrap();
    out.push_str(&format!(
        "\n\nlight {} dark {}, winner {}\n",
        o.scores()[0],
        o.scores()[1],
        e.player_name(o.winner)
    ));
    out
}

#[test]
fn seeded_games_8x8() {
    let e = verto();
    for seed in [1, 2] {
        insta::assert_snapshot!(format!("verto_8x8_seed_{seed}"), seeded_game(&e, seed));
    }
}

#[test]
fn seeded_game_9x9() {
    let e = engine("games/verto-9x9.rules", &[]);
    insta::assert_snapshot!("verto_9x9_seed_1", seeded_game(&e, 1));
}

#[test]
fn the_size_is_a_parameter() {
    // The 9x9 file is the 8x8 file with another size; any size in range plays to the end.
    let e = engine("games/verto-8x8.rules", &[("size", "10")]);
    let s = e.start().unwrap();
    assert_eq!(
        e.perft(&s, 1).unwrap(),
        96,
        "100 cells minus the four bare corners"
    );
    let mut rng = Rng::new(3);
    let (end, _) = outflank::agents::random_game(&e, &s, &mut rng).unwrap();
    assert!(end.is_over());
    assert_eq!(
        end.pieces.of(0).count() + end.pieces.of(1).count(),
        100,
        "the game ends on a full board"
    );
}
