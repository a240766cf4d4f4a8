//! VECT-REVERSE (Alexandre Pochomkin) and its Corner Lock and Handicap variants: the worked
//! example, the special cases of the rulebook, every tie-break level, perft against a second
//! generator written here, and seeded games.

use crate::common;
use crate::common::{engine, play, step_names as steps, whole_turns as turns};
use outflank::agents::game_seed;
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::Engine;
use outflank::ir::NOBODY;

fn vect(set: &[(&str, &str)]) -> Engine {
    engine("games/vect-reverse.rules", set)
}

fn at(e: &Engine, rows: &[&str], to_move: &str) -> State {
    e.position(&rows.join("/"), Some(to_move)).unwrap()
}

/// The worked example's shape (its figures are missing, so the squares are ours): White places
/// at c5, outflanking d5. Moving d5 anywhere but d6 ends the turn; from d6 it outflanks d7,
/// which continues only from e7, where it outflanks f7; f7's move ends the turn.
const EXAMPLE: [&str; 8] = [
    "........", "........", "........", "........", "...BW...", "........", "...B.BW.", "...W....",
];

#[test]
fn the_worked_example_turn_step_by_step() {
    let e = vect(&[]);
    let s = at(&e, &EXAMPLE, "white");
    let c5: Vec<String> = turns(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("c5"))
        .collect();
    assert_eq!(
        c5.len(),
        5 + 5 + 6,
        "5 stops after d5, 5 after d7, 6 destinations for f7"
    );
    assert!(c5.contains(&"c5-d5>c4".to_string()) && c5.contains(&"c5-d5>d6-d7>c6".to_string()));

    // Placed: the outflanked d5 does not flip by itself.
    let s1 = play(&e, &s, "c5");
    assert_eq!(e.board_rows(&s1)[4], "..WBW...");
    assert_eq!(steps(&e, &s1), ["-d5"]);
    assert_eq!(
        steps(&e, &play(&e, &s, "c5-d5")),
        [">c4", ">d4", ">e4", ">c6", ">d6", ">e6"]
    );
    // d5 moves to d6 and turns white; from there it outflanks d7: the chain goes on.
    let s2 = play(&e, &s, "c5-d5>d6");
    assert_eq!(
        &e.board_rows(&s2)[4..8],
        ["..W.W...", "...W....", "...B.BW.", "...W...."]
    );
    assert_eq!(steps(&e, &s2), ["-d7"]);
    let s3 = play(&e, &s, "c5-d5>d6-d7>e7");
    assert_eq!(
        &e.board_rows(&s3)[5..8],
        ["...W....", "....WBW.", "...W...."]
    );
    assert_eq!(steps(&e, &s3), ["-f7"]);
    let s4 = play(&e, &s, "c5-d5>d6-d7>e7-f7>f6");
    assert_eq!(
        &e.board_rows(&s4)[4..8],
        ["..W.W...", "...W.W..", "....W.W.", "...W...."]
    );
    assert_eq!(
        e.player_name(s4.mover),
        "black",
        "no new outflank: the turn is over"
    );
    // Elsewhere than d6 the first move ends the turn at once.
    assert_eq!(e.player_name(play(&e, &s, "c5-d5>c4").mover), "black");
}

#[test]
fn a_chosen_disc_without_empty_neighbour_ends_the_turn_unmoved() {
    // a3 outflanks b3 and c3 (closed by d3). c3 is boxed in: choosing it ends the turn,
    // and it neither moves nor flips.
    let e = vect(&[]);
    let rows = [
        "........", ".BBB....", ".BBW....", ".BBB....", "........", "........", "........",
        "........",
    ];
    let s = at(&e, &rows, "white");
    let a3: Vec<String> = turns(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("a3"))
        .collect();
    assert_eq!(a3, ["a3-b3>a2", "a3-b3>a4", "a3-c3"]);
    let after = play(&e, &s, "a3-c3");
    assert_eq!(e.board_rows(&after)[2], "WBBW....");
    assert_eq!(e.player_name(after.mover), "black");
}

/// White holds three corners; g6 outflanks g7, which can move into the fourth corner h8.
const THREE_CORNERS: [&str; 8] = [
    "W......W", "........", "........", "........", "........", ".......W", "......BB", "W.....W.",
];

#[test]
fn reaching_the_target_ends_the_game_in_the_middle_of_a_chain() {
    let e = vect(&[]);
    let s = at(&e, &THREE_CORNERS, "white");
    assert_eq!(
        steps(&e, &play(&e, &s, "g6-g7")),
        [">f6", ">f7", ">f8", ">h8"]
    );
    // From h8 the disc would outflank h7 (closed by h6) and the chain would go on, but the
    // fourth corner is the fourth point: the game ends at once.
    let end = play(&e, &s, "g6-g7>h8");
    let o = end.outcome.expect("the target ends the game mid-turn");
    assert_eq!(o.winner, 1);
    assert_eq!(o.scores(), [0.0, 4.0]);
    assert!(steps(&e, &end).is_empty());
    // Another destination: no target, and the turn ends normally.
    assert!(!play(&e, &s, "g6-g7>f7").is_over());
}

#[test]
fn handicap_targets_are_per_player() {
    // Two corners held; taking h8 makes three points.
    let mut rows = THREE_CORNERS;
    rows[7] = "......W.";
    let base = vect(&[]);
    assert!(
        !play(&base, &at(&base, &rows, "white"), "g6-g7>h8").is_over(),
        "4 points needed"
    );
    let handicap = engine("games/vect-reverse-handicap.rules", &[]);
    let end = play(&handicap, &at(&handicap, &rows, "white"), "g6-g7>h8");
    assert_eq!(
        end.outcome.unwrap().winner,
        1,
        "White's target is 3 in the Handicap variant"
    );
    // The same through parameters on the base file.
    let set = vect(&[("white_target", "3")]);
    assert!(play(&set, &at(&set, &rows, "white"), "g6-g7>h8").is_over());
    // Black's target of 5 in the Handicap variant: three corners are not enough for Black.
    let swapped: Vec<String> = rows
        .iter()
        .map(|r| r.replace('W', "x").replace('B', "W").replace('x', "B"))
        .collect();
    let swapped: Vec<&str> = swapped.iter().map(String::as_str).collect();
    let s = handicap
        .position(&swapped.join("/"), Some("black"))
        .unwrap();
    assert!(!play(&handicap, &s, "g6-g7>h8").is_over());
}

#[test]
fn a_full_center_area_ends_the_game_only_at_the_end_of_a_turn() {
    let e = vect(&[]);
    let inner_white = ".WWWWWW.";
    // c2 is the last empty Center Area square. Placing there fills it, but the outflanked d2
    // then moves out to the Outer Area: not full at the end of the turn, no end.
    let rows_a = [
        "........",
        ".W.BWWW.",
        inner_white,
        inner_white,
        inner_white,
        inner_white,
        inner_white,
        "........",
    ];
    let s = at(&e, &rows_a, "white");
    let mid = play(&e, &s, "c2");
    assert!(
        !e.board_rows(&mid)[1..7]
            .iter()
            .any(|r| r[1..7].contains('.')),
        "full mid-turn"
    );
    assert!(!mid.is_over());
    assert!(!play(&e, &s, "c2-d2>d1").is_over());
    // Here the outer disc c1 is moved into c2: full at the end of the turn, the game ends.
    let rows_b = [
        "..BW....",
        ".W.WWWW.",
        inner_white,
        inner_white,
        inner_white,
        inner_white,
        inner_white,
        "........",
    ];
    let s = at(&e, &rows_b, "white");
    assert_eq!(turns(&e, &s), ["b1-c1>c2"]);
    let end = play(&e, &s, "b1-c1>c2");
    let o = end
        .outcome
        .expect("a full Center Area at the end of a turn ends the game");
    assert_eq!(o.scores(), [0.0, 1.0], "White holds the Center Base");
}

#[test]
fn every_tie_break_level() {
    // Positions where nobody can outflank: both pass and the game ends.
    let e = vect(&[]);
    let empty = "........";
    let case = |rows: [&str; 8]| {
        play(&e, &at(&e, &rows, "black"), "pass pass")
            .outcome
            .unwrap()
    };
    // 1. Points: two corners against none.
    let o = case([
        "B.......", empty, "..W.....", empty, empty, ".....W..", empty, ".......B",
    ]);
    assert_eq!((o.scores(), o.winner), (&[2.0, 0.0][..], 0));
    // 2. Equal points; Black has more Center Area discs (2 to 0) though fewer in all (2 to 3).
    let o = case([
        empty, empty, "W.B.....", empty, ".......W", ".....B..", "W.......", empty,
    ]);
    assert_eq!((o.scores(), o.winner), (&[0.0, 0.0][..], 0));
    // 3. Equal points and Center Area (1 each); Black has more discs in all (3 to 2).
    let o = case([
        empty, empty, "B.B.....", empty, ".......B", ".....W..", "W.......", empty,
    ]);
    assert_eq!((o.scores(), o.winner), (&[0.0, 0.0][..], 0));
    // 4. All equal: a draw.
    let o = case([
        empty, empty, "B.B.....", empty, ".......W", ".....W..", empty, empty,
    ]);
    assert_eq!(o.winner, NOBODY);
}

#[test]
fn corner_lock_removes_the_corners_and_the_chains() {
    let e = engine("games/vect-reverse-corner-lock.rules", &[]);
    let s = e.start().unwrap();
    let rows = e.board_rows(&s);
    assert_eq!(
        (&rows[0][..1], &rows[0][7..], &rows[7][..1], &rows[7][7..]),
        ("#", "#", "#", "#")
    );
    // The worked example's turn stops after its first move-and-flip.
    let mut example = EXAMPLE;
    example[0] = "#......#";
    example[7] = "#..W...#";
    let s = at(&e, &example, "white");
    let c5: Vec<String> = turns(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("c5"))
        .collect();
    assert_eq!(
        c5,
        ["c5-d5>c4", "c5-d5>d4", "c5-d5>e4", "c5-d5>c6", "c5-d5>d6", "c5-d5>e6"]
    );
    // A disc next to a removed corner cannot move there.
    let rows = [
        "#W.....#", "BW......", "........", "........", "........", "........", "........",
        "#......#",
    ];
    let s = at(&e, &rows, "black");
    // c2 outflanks b2 (closed by a2); b2 may go anywhere empty around it except the corner a1.
    assert_eq!(
        turns(&e, &s),
        ["c2-b2>c1", "c2-b2>a3", "c2-b2>b3", "c2-b2>c3"]
    );
}

#[test]
fn corner_lock_warns_that_the_target_cannot_be_reached() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let check = |path: &str| {
        let c = outflank::check::check(
            outflank::source::read_source(path).unwrap(),
            &outflank::source::FsLoader,
            &[],
        )
        .unwrap_or_else(|_| panic!("{path} must check"));
        c.warnings.render(false, 100)
    };
    let warnings = check("games/vect-reverse-corner-lock.rules");
    assert!(
        warnings.contains("this end condition can never hold"),
        "{warnings}"
    );
    assert!(
        warnings.contains("at most 1, the right side at least 4"),
        "{warnings}"
    );
    insta::assert_snapshot!(warnings);
    // The same rule on the full board can fire: no warning there.
    assert_eq!(check("games/vect-reverse.rules"), "");
    assert_eq!(check("games/vect-reverse-handicap.rules"), "");
}

/// A second VECT-REVERSE generator, written from the rulebook without the engine.
mod plain {
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

    #[derive(Clone)]
    pub(super) struct Pos {
        pub b: Vec<u8>,
        pub to_move: u8,
        pub passes: u32,
        pub over: bool,
    }

    fn cell(x: i32, y: i32) -> Option<usize> {
        (0..8).contains(&x).then_some(())?;
        (0..8).contains(&y).then(|| (y * 8 + x) as usize)
    }

    fn outflanked(b: &[u8], from: usize, p: u8) -> Vec<usize> {
        let (x0, y0) = ((from % 8) as i32, (from / 8) as i32);
        let mut out = Vec::new();
        for (dx, dy) in DIRS {
            let mut run = Vec::new();
            let (mut x, mut y) = (x0 + dx, y0 + dy);
            while let Some(c) = cell(x, y) {
                if b[c] == 3 - p {
                    run.push(c);
                } else {
                    if b[c] == p && !run.is_empty() {
                        out.extend(run.iter().copied());
                    }
                    break;
                }
                x += dx;
                y += dy;
            }
        }
        out.sort();
        out
    }

    fn points(b: &[u8], p: u8) -> u32 {
        let corners = [0, 7, 56, 63].iter().filter(|&&c| b[c] == p).count() as u32;
        let centre = |q: u8| [27, 28, 35, 36].iter().filter(|&&c| b[c] == q).count();
        corners + u32::from(centre(p) > centre(3 - p))
    }

    fn inner_full(b: &[u8]) -> bool {
        (1..7).all(|y| (1..7).all(|x| b[y * 8 + x] != 0))
    }

    /// After a step: has either player (mover first) reached 4 points?
    fn target(b: &[u8], p: u8) -> bool {
        points(b, p) >= 4 || points(b, 3 - p) >= 4
    }

    impl Pos {
        fn finish(&self, b: Vec<u8>, over: bool) -> Pos {
            let over = over || inner_full(&b);
            Pos {
                b,
                to_move: 3 - self.to_move,
                passes: 0,
                over,
            }
        }

        fn moves(&self, b: Vec<u8>, targets: Vec<usize>, out: &mut Vec<Pos>) {
            let p = self.to_move;
            for t in targets {
                let (x, y) = ((t % 8) as i32, (t / 8) as i32);
                let dests: Vec<usize> = DIRS
                    .iter()
                    .filter_map(|(dx, dy)| cell(x + dx, y + dy))
                    .filter(|&c| b[c] == 0)
                    .collect();
                if dests.is_empty() {
                    out.push(self.finish(b.clone(), false));
                    continue;
                }
                for d in dests {
                    let mut c = b.clone();
                    c[t] = 0;
                    c[d] = p;
                    if target(&c, p) {
                        out.push(Pos {
                            b: c,
                            to_move: 3 - p,
                            passes: 0,
                            over: true,
                        });
                        continue;
                    }
                    let next = outflanked(&c, d, p);
                    if next.is_empty() {
                        out.push(self.finish(c, false));
                    } else {
                        self.moves(c, next, out);
                    }
                }
            }
        }

        /// Every complete turn (a pass when there is no placement).
        pub(super) fn children(&self) -> Vec<Pos> {
            let p = self.to_move;
            let mut out = Vec::new();
            for c in 0..64 {
                if self.b[c] != 0 {
                    continue;
                }
                let targets = outflanked(&self.b, c, p);
                if targets.is_empty() {
                    continue;
                }
                let mut b = self.b.clone();
                b[c] = p;
                if target(&b, p) {
                    out.push(Pos {
                        b,
                        to_move: 3 - p,
                        passes: 0,
                        over: true,
                    });
                } else {
                    self.moves(b, targets, &mut out);
                }
            }
            if out.is_empty() {
                out.push(Pos {
                    b: self.b.clone(),
                    to_move: 3 - p,
                    passes: self.passes + 1,
                    over: self.passes + 1 >= 2,
                });
            }
            out
        }

        pub(super) fn perft(&self, depth: u32) -> u64 {
            if depth == 0 || self.over {
                return 1;
            }
            let children = self.children();
            if depth == 1 {
                return children.len() as u64;
            }
            children.iter().map(|c| c.perft(depth - 1)).sum()
        }

        pub(super) fn rows(&self) -> String {
            self.b
                .iter()
                .map(|&v| ['.', 'B', 'W'][v as usize])
                .collect()
        }
    }

    pub(super) fn start() -> Pos {
        let mut b = vec![0u8; 64];
        b[27] = 2;
        b[36] = 2;
        b[28] = 1;
        b[35] = 1;
        Pos {
            b,
            to_move: 1,
            passes: 0,
            over: false,
        }
    }
}

#[test]
fn perft_depth_1_to_4_matches_a_second_generator() {
    let e = vect(&[]);
    let s = e.start().unwrap();
    let ours: Vec<u64> = (1..=4).map(|d| e.perft(&s, d).unwrap()).collect();
    let theirs: Vec<u64> = (1..=4).map(|d| plain::start().perft(d)).collect();
    assert_eq!(ours, theirs);
    // By hand: each of Black's 4 placements outflanks one disc with 4 empty neighbours, and no
    // destination outflanks anything more.
    assert_eq!(ours[0], 16);
}

#[test]
fn random_positions_agree_with_the_second_generator() {
    let e = vect(&[]);
    let mut compared = 0;
    for game in 0..25 {
        let mut rng = Rng::new(game_seed(41, game));
        let mut s = e.start().unwrap();
        let mut buf = Vec::new();
        while !s.is_over() {
            if s.steps == 0 {
                // Some positions hold hundreds of thousands of whole turns: compare where the
                // list is small enough to enumerate, and play on step by step everywhere.
                if let Ok(whole) = e.whole_turns(&s, 20_000) {
                    let b: Vec<u8> = e
                        .board_rows(&s)
                        .concat()
                        .chars()
                        .map(|c| match c {
                            'B' => 1,
                            'W' => 2,
                            _ => 0,
                        })
                        .collect();
                    let p = plain::Pos {
                        b,
                        to_move: s.mover + 1,
                        passes: s.passes,
                        over: false,
                    };
                    let mut ours: Vec<(String, bool)> = whole
                        .iter()
                        .map(|t| (e.board_rows(&t.after).concat(), t.after.is_over()))
                        .collect();
                    let mut theirs: Vec<(String, bool)> =
                        p.children().iter().map(|c| (c.rows(), c.over)).collect();
                    ours.sort();
                    theirs.sort();
                    assert_eq!(ours, theirs, "game {game} turn {}", s.turn);
                    compared += 1;
                }
            }
            e.steps(&s, &mut buf).unwrap();
            s = e.apply(&s, buf[rng.below(buf.len())]).unwrap();
        }
    }
    assert!(compared > 1000, "only {compared} positions compared");
}

fn seeded_game(e: &Engine, seed: u64) -> String {
    let (moves, s) = common::seeded_game(e, seed);
    let o = s.outcome.unwrap();
    format!(
        "{}\n\n{}\n\npoints: black {} white {}, winner {}\n",
        moves.join("\n"),
        e.board_rows(&s).join("\n"),
        o.scores()[0],
        o.scores()[1],
        e.player_name(o.winner)
    )
}

#[test]
fn seeded_games() {
    for (file, seed) in [
        ("vect-reverse", 1),
        ("vect-reverse", 2),
        ("vect-reverse-corner-lock", 1),
        ("vect-reverse-handicap", 1),
    ] {
        let e = engine(&format!("games/{file}.rules"), &[]);
        insta::assert_snapshot!(format!("{file}_seed_{seed}"), seeded_game(&e, seed));
    }
}
