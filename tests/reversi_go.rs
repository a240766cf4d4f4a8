//! Reversi Go: the rule text's pictures rebuilt as positions, territory and scoring, the
//! pass rules, perft against a second generator written here, and seeded games.

use crate::common;
use crate::common::{engine, play, step_names as legal};
use outflank::agents::game_seed;
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::Engine;

fn go(set: &[(&str, &str)]) -> Engine {
    engine("games/reversi-go-9x9.rules", set)
}

/// A 9x9 position from its first rows (the rest empty).
fn pos(e: &Engine, top: &[&str], to_move: &str) -> State {
    let mut rows: Vec<String> = top.iter().map(|r| format!("{r:.<9}")).collect();
    rows.resize(9, ".........".into());
    e.position(&rows.join("/"), Some(to_move)).unwrap()
}

#[test]
fn filling_the_last_liberty_flips_the_whole_group() {
    // The black group a1 b1 a2 has one liberty, b2. White plays there: all three turn white.
    let e = go(&[]);
    let s = pos(&e, &["BBW", "B", "W"], "white");
    let after = play(&e, &s, "b2");
    assert_eq!(
        &e.board_rows(&after)[..3],
        ["WWW......", "WW.......", "W........"]
    );
}

#[test]
fn a_placement_without_liberty_is_legal_when_its_flip_frees_it() {
    // e5 is the last liberty of the black pair e3-e4 and of the lone white e6. White's e5
    // flips the pair, which joins e5-e6 to the white stones around: a group with liberties.
    let e = go(&[]);
    let top = ["", "....W", "...WBW", "...WBW", "...B.B", "...BWB", "....B"];
    let s = pos(&e, &top, "white");
    assert!(legal(&e, &s).contains(&"e5".to_string()));
    let after = play(&e, &s, "e5");
    assert_eq!(
        &e.board_rows(&after)[2..6],
        ["...WWW...", "...WWW...", "...BWB...", "...BWB..."]
    );

    // Without the flip (the pair keeps a liberty at e2), the same placement is suicide.
    let mut freer = top;
    freer[1] = "";
    let s = pos(&e, &freer, "white");
    assert!(!legal(&e, &s).contains(&"e5".to_string()));
}

#[test]
fn the_two_illegal_placements() {
    let e = go(&[]);
    // Left picture: f1 fills the last liberty of the five black stones and flips nothing.
    let s = pos(&e, &["BBBBB.W", "WWWWWW"], "black");
    let moves = legal(&e, &s);
    assert!(!moves.contains(&"f1".to_string()), "plain suicide");
    assert!(moves.contains(&"g2".to_string()));
    // Right picture: c1 flips the white b1, but the black group of eight that results has
    // no liberty: still illegal.
    let s = pos(&e, &["BW.W", "BBBW", "BBWW", "WWW"], "black");
    assert!(!legal(&e, &s).contains(&"c1".to_string()));
}

#[test]
fn territory_belongs_to_the_only_colour_around_it() {
    // Top left: 6 empty points bordered only by white. Right: 4 bordered only by black.
    // Bottom left: 7 bordered by both, nobody's; the large open rest is nobody's too.
    let e = go(&[]);
    let rows = [
        "...W.....",
        "...W.....",
        "WWW.....B",
        ".......B.",
        ".......B.",
        ".......B.",
        "BBW....B.",
        "...W....B",
        "....B....",
    ];
    let s = e.position(&rows.join("/"), Some("black")).unwrap();
    let end = play(&e, &s, "pass pass");
    let o = end.outcome.expect("two passes in succession end the game");
    // Black: 9 stones + 4 territory. White: 7 stones + 6 territory + komi 7.
    assert_eq!(o.scores(), [13.0, 20.0]);
    let no_komi = go(&[("komi", "0")]);
    let s = no_komi.position(&rows.join("/"), Some("black")).unwrap();
    let o = play(&no_komi, &s, "pass pass").outcome.unwrap();
    assert_eq!(o.scores(), [13.0, 13.0]);
    assert_eq!(
        o.winner,
        outflank::ir::NOBODY,
        "equal scores and no button: a draw"
    );
    // With the button the tie is broken by half a point.
    let o = play(&no_komi, &s, "button pass pass").outcome.unwrap();
    assert_eq!(o.scores(), [13.5, 13.0]);
    assert_eq!(o.winner, 0);
}

#[test]
fn handicap_stones_come_first_and_cost_points() {
    let e = go(&[("handicap", "3")]);
    let s = e.start().unwrap();
    // Black's first turn is the three handicap stones, one step each.
    assert_eq!(e.player_name(s.mover), "black");
    let after = play(&e, &s, "a1-b1-c1");
    assert_eq!(e.player_name(after.mover), "white");
    assert_eq!(e.board_rows(&after)[0], "BBB......");
    // White takes the button; then two passes. Black: 3 stones + 78 territory - (3 - 1).
    // White: the button's half point + komi 7.
    let end = play(&e, &s, "a1-b1-c1 button pass pass");
    assert_eq!(end.outcome.unwrap().scores(), [79.0, 7.5]);
    // Handicap 1 is not allowed by the rules.
    let err = outflank::check::check(
        outflank::source::read_source("games/reversi-go-9x9.rules").unwrap(),
        &outflank::source::FsLoader,
        &[("handicap".into(), "1".into())],
    );
    match err {
        Err(outflank::check::CheckError::Setting(m)) => assert!(m.contains("0, 2 to 9"), "{m}"),
        _ => panic!("handicap 1 must be refused"),
    }
}

#[test]
fn two_passes_end_the_game_and_taking_the_button_is_not_a_pass() {
    let e = go(&[]);
    let s = e.start().unwrap();
    assert_eq!(
        legal(&e, &s).len(),
        81 + 2,
        "every point, the button, a pass"
    );
    assert!(!play(&e, &s, "pass button pass").is_over());
    assert!(play(&e, &s, "pass button pass pass").is_over());
    let s = play(&e, &s, "button");
    assert!(
        !legal(&e, &s).contains(&"button".to_string()),
        "the button is taken once"
    );
    assert_eq!(e.extra(&s)[0].0, "button");
    assert_eq!(e.extra(&s)[0].1.holder(), Some("black"));
}

/// A second Reversi Go generator, written from the rules without the engine.
mod plain {
    #[derive(Clone)]
    pub(super) struct Go {
        pub n: usize,
        /// 0 empty, 1 black, 2 white.
        pub b: Vec<u8>,
        pub to_move: u8,
        /// 0 nobody, else the holder of the button.
        pub button: u8,
        pub passes: u32,
    }

    impl Go {
        fn nbrs(&self, c: usize) -> Vec<usize> {
            let (x, y, n) = (c % self.n, c / self.n, self.n);
            let mut v = Vec::new();
            if x > 0 {
                v.push(c - 1);
            }
            if x + 1 < n {
                v.push(c + 1);
            }
            if y > 0 {
                v.push(c - n);
            }
            if y + 1 < n {
                v.push(c + n);
            }
            v
        }

        fn group(&self, c: usize) -> (Vec<usize>, bool) {
            let colour = self.b[c];
            let mut seen = vec![false; self.b.len()];
            let mut stack = vec![c];
            let mut group = Vec::new();
            let mut free = false;
            seen[c] = true;
            while let Some(x) = stack.pop() {
                group.push(x);
                for y in self.nbrs(x) {
                    if self.b[y] == 0 {
                        free = true;
                    } else if self.b[y] == colour && !seen[y] {
                        seen[y] = true;
                        stack.push(y);
                    }
                }
            }
            (group, free)
        }

        /// The position after placing at `c`, if legal.
        pub(super) fn place(&self, c: usize) -> Option<Go> {
            let mut g = self.clone();
            let p = self.to_move;
            g.b[c] = p;
            for y in self.nbrs(c) {
                if g.b[y] == 3 - p {
                    let (stones, free) = g.group(y);
                    if !free {
                        for s in stones {
                            g.b[s] = p;
                        }
                    }
                }
            }
            if !g.group(c).1 {
                return None;
            }
            g.to_move = 3 - p;
            g.passes = 0;
            Some(g)
        }

        pub(super) fn children(&self) -> Vec<Go> {
            let mut out: Vec<Go> = (0..self.b.len())
                .filter(|&c| self.b[c] == 0)
                .filter_map(|c| self.place(c))
                .collect();
            if self.button == 0 {
                let mut g = self.clone();
                g.button = self.to_move;
                g.to_move = 3 - self.to_move;
                g.passes = 0;
                out.push(g);
            }
            let mut g = self.clone();
            g.to_move = 3 - self.to_move;
            g.passes += 1;
            out.push(g);
            out
        }

        pub(super) fn perft(&self, depth: u32) -> u64 {
            if depth == 0 || self.passes >= 2 {
                return 1;
            }
            let children = self.children();
            if depth == 1 {
                return children.len() as u64;
            }
            children.iter().map(|c| c.perft(depth - 1)).sum()
        }

        /// Empty cells in regions bordered by `colour`'s stones alone.
        pub(super) fn territory(&self, colour: u8) -> usize {
            let mut seen = vec![false; self.b.len()];
            let mut total = 0;
            for start in 0..self.b.len() {
                if self.b[start] != 0 || seen[start] {
                    continue;
                }
                let (mut region, mut border) = (0, [false; 3]);
                let mut stack = vec![start];
                seen[start] = true;
                while let Some(x) = stack.pop() {
                    region += 1;
                    for y in self.nbrs(x) {
                        match self.b[y] {
                            0 if !seen[y] => {
                                seen[y] = true;
                                stack.push(y);
                            }
                            0 => {}
                            c => border[c as usize] = true,
                        }
                    }
                }
                if border[colour as usize] && !border[3 - colour as usize] {
                    total += region;
                }
            }
            total
        }

        /// Stones, territory, the button's half point and (for White) a komi of 7.
        pub(super) fn scores(&self) -> [f64; 2] {
            [1u8, 2].map(|colour| {
                let stones = self.b.iter().filter(|&&v| v == colour).count();
                let button = if self.button == colour { 0.5 } else { 0.0 };
                let komi = if colour == 2 { 7.0 } else { 0.0 };
                (stones + self.territory(colour)) as f64 + button + komi
            })
        }

        pub(super) fn rows(&self) -> String {
            self.b
                .iter()
                .map(|&v| ['.', 'B', 'W'][v as usize])
                .collect()
        }
    }
}

#[test]
fn perft_depth_1_to_3_matches_a_second_generator() {
    let e = go(&[]);
    let s = e.start().unwrap();
    let plain = plain::Go {
        n: 9,
        b: vec![0; 81],
        to_move: 1,
        button: 0,
        passes: 0,
    };
    let ours: Vec<u64> = (1..=3).map(|d| e.perft(&s, d).unwrap()).collect();
    let theirs: Vec<u64> = (1..=3).map(|d| plain.perft(d)).collect();
    assert_eq!(ours, theirs);
    // By hand: 81 points + button + pass; then 81*82 + 82 + 83.
    assert_eq!(&ours[..2], [83, 6807]);
}

#[test]
fn random_positions_agree_with_the_second_generator() {
    // 13x13 too: its sets take several words, which the faster paths handle apart.
    for (size, games) in [(9, 20), (13, 2)] {
        random_positions_agree(&go(&[("size", &size.to_string())]), size, games);
    }
}

#[test]
fn a_board_beyond_384_cells_agrees_with_the_second_generator() {
    // 21x21 (441 cells) takes the widest set type, past the one that holds 19x19.
    let text = std::fs::read_to_string(format!(
        "{}/games/reversi-go-9x9.rules",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace("param size = 9 in 9 to 19", "param size = 21 in 9 to 21");
    assert!(text.contains("param size = 21"));
    let e = common::engine_from(&text);
    random_positions_agree(&e, 21, 1);
}

/// The placements the second generator allows at a 9x9 position given by its first rows.
fn plain_placements(top: &[&str], to_move: u8) -> Vec<String> {
    let mut b = vec![0u8; 81];
    for (y, row) in top.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            b[y * 9 + x] = match c {
                'B' => 1,
                'W' => 2,
                _ => 0,
            };
        }
    }
    let p = plain::Go {
        n: 9,
        b,
        to_move,
        button: 0,
        passes: 0,
    };
    (0..81)
        .filter(|&c| p.b[c] == 0 && p.place(c).is_some())
        .map(|c| format!("{}{}", (b'a' + (c % 9) as u8) as char, c / 9 + 1))
        .collect()
}

#[test]
fn placements_with_no_empty_neighbour_are_judged_by_the_groups_around_them() {
    // Each cell named below has no empty neighbour, so no liberty of its own: whether it is
    // legal depends on the groups it touches. Worked out by hand, and the whole list of
    // placements must be the second generator's.
    let e = go(&[]);
    let cases: [(&[&str], &str, &str, bool); 10] = [
        // b1 has two liberties, a1 and c1: either placement leaves it the other.
        (&[".B.W", "WWW"], "black", "a1", true),
        (&[".B.W", "WWW"], "black", "c1", true),
        // The same cells for White, next to White's own groups with liberties to spare.
        (&[".B.W", "WWW"], "white", "a1", true),
        // b1's only liberty is a1 and the white stones around have others: suicide.
        (&[".BW", "WW"], "black", "a1", false),
        // For White, a1 takes b1, whose stone turns white and joins c1 and b2.
        (&[".BW", "WW"], "white", "a1", true),
        // a1 takes the white b1 (its last liberty), though a2 still breathes.
        (&[".WB", "WB"], "black", "a1", true),
        // b1 is down to a1, but a2 breathes at a3: a1 joins a2 and lives.
        (&[".BW", "BW"], "black", "a1", true),
        // b1 breathes at c1 but a2 is down to a1: White takes a2.
        (&[".B.", "BW", "W"], "white", "a1", true),
        // Taking b1 gives Black a group of eight with no liberty (the rule text's picture).
        (&["BW.W", "BBBW", "BBWW", "WWW"], "black", "c1", false),
        // b1 and a2 share their second liberty, b2: a1 joins them and keeps it.
        (&[".BW", "B.W", "W"], "black", "a1", true),
    ];
    for (top, to_move, cell, legal_here) in cases {
        let s = pos(&e, top, to_move);
        let mut placements: Vec<String> = legal(&e, &s)
            .into_iter()
            .filter(|n| n != "button" && n != "pass")
            .collect();
        let mut theirs = plain_placements(top, if to_move == "black" { 1 } else { 2 });
        placements.sort();
        theirs.sort();
        assert_eq!(placements, theirs, "{top:?}, {to_move} to move");
        assert_eq!(
            placements.contains(&cell.to_string()),
            legal_here,
            "{cell} in {top:?}, {to_move} to move"
        );
        assert_eq!(e.perft(&s, 1).unwrap(), placements.len() as u64 + 2);
    }
}

fn random_positions_agree(e: &Engine, n: usize, games: u64) {
    for game in 0..games {
        let mut rng = Rng::new(game_seed(31, game));
        let mut s = e.start().unwrap();
        let mut p = plain::Go {
            n,
            b: vec![0; n * n],
            to_move: 1,
            button: 0,
            passes: 0,
        };
        while !s.is_over() {
            let mut ours: Vec<String> = e
                .whole_turns(&s, 1000)
                .unwrap()
                .iter()
                .map(|t| {
                    format!(
                        "{} {:?}",
                        e.board_rows(&t.after).concat(),
                        e.extra(&t.after)[0].1.holder()
                    )
                })
                .collect();
            let names = ["", "black", "white"];
            let mut theirs: Vec<String> = p
                .children()
                .iter()
                .map(|c| {
                    format!(
                        "{} {:?}",
                        c.rows(),
                        (c.button != 0).then(|| names[c.button as usize].to_string())
                    )
                })
                .collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "game {game} turn {}", s.turn);
            // Perft counts its last turn without playing it, most placements without a
            // trial (those next to an empty cell); late in a game the rest are many.
            assert_eq!(
                e.perft(&s, 1).unwrap(),
                p.perft(1),
                "game {game} turn {}",
                s.turn
            );
            if n <= 9 && s.turn.is_multiple_of(15) {
                assert_eq!(
                    e.perft(&s, 2).unwrap(),
                    p.perft(2),
                    "game {game} turn {}",
                    s.turn
                );
            }
            // The scores as they stand, territory included.
            assert_eq!(
                e.outcome(&s, None).scores(),
                p.scores(),
                "game {game} turn {}",
                s.turn
            );
            // Play a placement most of the time, so games fill the board.
            let turns = e.whole_turns(&s, 1000).unwrap();
            let pick = if turns.len() > 2 && rng.below(10) > 0 {
                rng.below(turns.len() - 2)
            } else {
                rng.below(turns.len())
            };
            let chosen = &turns[pick];
            let children = p.children();
            p = children
                .into_iter()
                .find(|c| {
                    c.rows() == e.board_rows(&chosen.after).concat()
                        && (c.button == 0) == e.extra(&chosen.after)[0].1.holder().is_none()
                        && c.passes == chosen.after.passes
                })
                .unwrap();
            s = chosen.after;
        }
    }
}

fn seeded_game(e: &Engine, seed: u64) -> String {
    let mut rng = Rng::new(game_seed(seed, 0));
    let mut s = e.start().unwrap();
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    while !s.is_over() {
        e.steps(&s, &mut buf).unwrap();
        let step = buf[rng.below(buf.len())];
        moves.push(e.step_notation(&s, step));
        s = e.apply(&s, step).unwrap();
    }
    let replayed = play(e, &e.start().unwrap(), &moves.join(" "));
    assert_eq!(e.board_rows(&replayed), e.board_rows(&s));
    let o = s.outcome.unwrap();
    format!(
        "{}\n\n{}\n\nbutton: {:?}\nblack {} white {}, winner {}\n",
        moves
            .chunks(10)
            .map(|c| c.join(" "))
            .collect::<Vec<_>>()
            .join("\n"),
        e.board_rows(&s).join("\n"),
        e.extra(&s)[0].1.holder(),
        o.scores()[0],
        o.scores()[1],
        e.player_name(o.winner)
    )
}

#[test]
fn seeded_games_9x9() {
    let e = go(&[]);
    for seed in [1, 2] {
        insta::assert_snapshot!(format!("reversi_go_9x9_seed_{seed}"), seeded_game(&e, seed));
    }
}
