//! The runner with its fast paths must play exactly the games the plain run of the same
//! program plays (every `where` asked cell by cell as written, no recognised shape of turn):
//! the same random playouts from the same seed, the same perft counts and the same errors,
//! on every bundled game and on rules written to reach each fast path.

use crate::common::{assert_within_window, engine, engine_from, game_files};
use outflank::agents::game_seed;
use outflank::engine::negamax::{
    Aim,
    Question::{Whole, Within},
};
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::Engine;

fn oracle(e: &Engine) -> Engine {
    Engine::new(e.game.clone()).plain()
}

/// What a finished playout is judged by.
fn summary(s: &State, steps: u64) -> String {
    format!(
        "{:?} mover {} turn {} passes {} outcome {:?} after {steps} steps",
        s.pieces, s.mover, s.turn, s.passes, s.outcome
    )
}

/// Random playouts from the start and from positions along other playouts, with the fast
/// paths and by the plain run.
fn compare_playouts(fast: &Engine, what: &str, games: u64) {
    let slow = oracle(fast);
    for game in 0..games {
        let seed = game_seed(3, game);
        // Start somewhere along a game, so that mid-game positions are covered too.
        let (from, _) = slow
            .random_playout(&slow.start().unwrap(), &mut Rng::new(seed ^ 1), game % 40)
            .unwrap();
        let (a, n) = fast
            .random_playout(&from, &mut Rng::new(seed), u64::MAX)
            .unwrap();
        let (b, m) = slow
            .random_playout(&from, &mut Rng::new(seed), u64::MAX)
            .unwrap();
        assert_eq!(summary(&a, n), summary(&b, m), "{what}, game {game}");
        assert!(a.is_over(), "{what}: the playout ended");
    }
}

/// Perft at a few depths from positions along random games, with the fast paths and by the
/// plain run.
fn compare_perft(fast: &Engine, what: &str, games: u64, depth: u32) {
    let slow = oracle(fast);
    for game in 0..games {
        let (from, _) = slow
            .random_playout(&slow.start().unwrap(), &mut Rng::new(game), game * 3 % 50)
            .unwrap();
        for d in 1..=depth {
            assert_eq!(
                fast.perft(&from, d).unwrap(),
                slow.perft(&from, d).unwrap(),
                "{what}, game {game}, depth {d}"
            );
        }
    }
}

#[test]
fn the_solver_takes_the_games_of_one_placement_a_turn() {
    let mut searches = Vec::new();
    for file in game_files() {
        let e = engine(&file, &[]);
        if e.runner_searches() {
            searches.push(file.trim_start_matches("games/").to_string());
        }
    }
    assert_eq!(
        searches,
        [
            "anti-othello.rules",
            "cylinder-othello.rules",
            "gravity-othello.rules",
            "hex-reversi.rules",
            "octagon-othello.rules",
            "othello.rules",
            "reversi-10x10.rules",
            "reversi-6x6.rules",
            "reversi-8x8.rules",
            "torus-othello.rules"
        ]
    );
}

#[test]
fn boards_of_several_words_run_fast_as_the_plain_build_runs_them() {
    // 144 cells take the six-word sets, 484 the largest; both are held to the oracle.
    for size in ["12", "22"] {
        let e = engine("games/othello.rules", &[("size", size)]);
        assert!(e.runner_is_direct(), "size {size}");
        let what = format!("othello size {size}");
        compare_playouts(&e, &what, 12);
        compare_perft(&e, &what, 4, 3);
    }
}

#[test]
fn fast_playouts_equal_the_plain_build_on_bundled_games() {
    // Games off the runner still take fast paths (`where` clauses asked of all cells at once):
    // they are held to the plain build too.
    for file in game_files() {
        let e = engine(&file, &[]);
        let games = if e.game.geometry.cells() > 128 {
            40
        } else {
            150
        };
        compare_playouts(&e, &file, games);
    }
}

#[test]
fn fast_perft_equals_the_plain_build_on_bundled_games() {
    for file in game_files() {
        let e = engine(&file, &[]);
        compare_perft(&e, &file, 12, 3);
    }
}

#[test]
fn runner_perft_matches_published_othello_counts() {
    // Independent facts: the published Othello perft counts, through the runner.
    let e = engine("games/othello.rules", &[]);
    let start = e.start().unwrap();
    let published = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216];
    for (depth, &n) in published.iter().enumerate() {
        assert_eq!(e.perft(&start, depth as u32).unwrap(), n, "depth {depth}");
    }
}

/// Rules that use what the runner runs beyond the bundled games: general line patterns (`pair`
/// always takes two cells: the runner's one-walk path, and its sources found four directions
/// at a time), per-cell `where` clauses it cannot hoist, neighbourhoods, removed cells, later
/// choices reached when the earlier have no candidate, end checks after a step (one whose
/// winner is the mover: its remembered answers must tell the movers apart), `for each`
/// winners, tie-breaks and turn numbers.
const GENERAL: &str = r#"
    board 7 x 6
    removed cells(d3, a6)
    player black 'B'
    player white 'W'
    setup {
      black on c3, e4
      white on c4, e3
    }
    line hop = opponent? friend
    line pair = opponent{2} empty along diagonal
    line rook = opponent+ friend along orthogonal
    region home = rows(1, 1)
    turn {
      if turn <= 2 or count(empty) == 31 {
        choose c in empty & home { place c }
      } else {
        choose c in empty where some(captured(rook, c)) and count(neighbours(c) & friend) < 3 {
          place c
          flip captured(rook, c)
          flip captured(hop, c)
          stop
        }
        choose e in empty where some(captured(pair, e)) and e in home {
          place e
          flip captured(pair, e)
          stop
        }
        choose d in empty & adjacent(friend) where not some(ends(pair, d)) {
          place d
          flip captured(hop, d)
          flip captured(pair, d)
        }
      }
    }
    end after step for each p when count(p & home) >= 4 winner p
    end after step when count(black & home) >= 2 and count(white & home) >= 2 winner mover
    end when blocked
    end when passes >= 2
    score p = count(p)
    tiebreak p = count(p & home)
"#;

#[test]
fn fast_equals_plain_on_general_rules() {
    let e = engine_from(GENERAL);
    compare_playouts(&e, "general rules", 300);
    compare_perft(&e, "general rules", 10, 4);
    // Without the early win, games run to the end and some are decided by the tie-break.
    let e = engine_from(&GENERAL.replace("end after step", "// end after step"));
    compare_playouts(&e, "general rules to the end", 300);
}

/// Rules of the shape the runner runs as a loop over the boards alone, with what the bundled
/// games of that shape do not use: a run closed by an empty cell, lines along some directions
/// only, a removed cell, a board that is not square, and an end condition that needs a blocked
/// mover but asks more.
const DIRECT: &str = r#"
    board 7 x 5
    removed cells(d3)
    player black 'B'
    player white 'W'
    setup {
      black on c2, e4
      white on c4, e2
    }
    line spread = opponent+ empty along orthogonal
    turn {
      choose c in empty where some(captured(spread, c)) {
        place c
        flip captured(spread, c)
      }
    }
    end when blocked and count(empty) < 40
    end when blocked
    score p = count(p)
"#;

#[test]
fn direct_loop_equals_the_plain_build() {
    for (what, e) in [
        ("direct rules", engine_from(DIRECT)),
        (
            "othello 6x6",
            engine("games/othello.rules", &[("size", "6")]),
        ),
        // The choice in the `else` of an opening phase that fills the centre first: run as
        // a loop once the centre is full, by the general path before.
        ("reversi 6x6", engine("games/reversi-6x6.rules", &[])),
        (
            "reversi 10x10",
            engine("games/reversi-8x8.rules", &[("size", "10")]),
        ),
    ] {
        assert!(e.runner_is_direct(), "{what} run as a loop over the boards");
        compare_playouts(&e, what, 300);
        compare_perft(&e, what, 10, 5);
        // Playouts cut off after a set number of steps stop where the plain build stops.
        let slow = oracle(&e);
        let start = e.start().unwrap();
        for game in 0..100 {
            let seed = game_seed(5, game);
            let (a, n) = e
                .random_playout(&start, &mut Rng::new(seed), game % 37)
                .unwrap();
            let (b, m) = slow
                .random_playout(&start, &mut Rng::new(seed), game % 37)
                .unwrap();
            assert_eq!(
                summary(&a, n),
                summary(&b, m),
                "{what}, cut off, game {game}"
            );
            assert_eq!(a.pc, b.pc, "{what}, cut off, game {game}");
        }
    }
    // One opening test before the choice is enough to leave the loop to the general path.
    let gated = DIRECT
        .replace("turn {", "turn {\n  if turn >= 0 {")
        .replace(
            "    end when blocked and",
            "    }\n    end when blocked and",
        );
    let e = engine_from(&gated);
    assert!(!e.runner_is_direct());
    // A phase gate is passed for good only while taken cells stay taken: a `move` anywhere in
    // the program could empty the region again, so the loop is not taken.
    let phase = "turn {\n  if some(empty & corners) {\n    choose c in empty & corners { place c }\n  } else {";
    let phased = DIRECT.replace("turn {", phase).replace(
        "    end when blocked and",
        "    }\n    end when blocked and",
    );
    assert!(engine_from(&phased).runner_is_direct(), "{phased}");
    let moving = phased.replace(
        "choose c in empty & corners { place c }",
        "choose c in empty & corners { place c  move c to c }",
    );
    assert!(!engine_from(&moving).runner_is_direct(), "{moving}");
}

#[test]
fn every_shape_of_choice_runs_fast_as_on_the_plain_build() {
    // Three options whose later ones are not all words or passes: the third's cells are
    // listed after the first's, before the words.
    let cells_later = GO_LIKE.replace(
        r#""moon" where"#,
        r#"m in empty where turn > 30 { place m } "moon" where"#,
    );
    let e = engine_from(&cells_later);
    compare_playouts(&e, "cells as a third option", 100);
    compare_perft(&e, "cells as a third option", 6, 2);
    // `auto` with a `require`: only the candidates that pass their trials count, so one
    // that passes alone is taken at once, and none that passes skips the choice.
    for require in ["count(friend) > 1", "count(neighbours(c) & friend) == 0"] {
        let auto_tried = GENERAL.replace(
            "choose c in empty & home { place c }",
            &format!("choose auto c in empty & home {{ place c  require {require} }}"),
        );
        let e = engine_from(&auto_tried);
        compare_playouts(&e, &auto_tried, 200);
        compare_perft(&e, &auto_tried, 6, 3);
    }
    // Turns beyond one placement run on the runner, but perft and the solver do not.
    let variable = GENERAL.replace(
        "place c\n          flip captured(rook, c)",
        "place c\n          let k = 1\n          flip captured(rook, c)",
    );
    let e = engine_from(&variable);
    assert!(!e.runner_searches(), "a turn variable");
    let two_steps = GENERAL.replace(
        "choose c in empty & home { place c }",
        "choose c in empty & home { place c  choose d in empty { place d } }",
    );
    let e = engine_from(&two_steps);
    assert!(!e.runner_searches(), "two choices in a turn");
    compare_playouts(&e, "two choices in a turn", 100);
}

/// A Go-like game with everything of that kind the runner runs: tokens and their holders, a
/// `require` that often refuses (no group of ten), floods (groups, liberties, surrounded groups,
/// a group that breathes, territory in the score), three options of which two are words, and a
/// pass.
const GO_LIKE: &str = r#"
    board 7 x 7
    player black 'B'
    player white 'W'
    token star
    token moon
    turn {
      choose {
        c in empty where some(neighbours(c, orthogonal) & empty) or turn > 12 {
          place c
          flip surrounded(opponent & neighbours(c, orthogonal))
          require some(liberties(group(c)))
          require count(group(c)) < 10
        }
        "star" where holder(star) == nobody { take star }
        "moon" where holder(moon) != mover and turn > 5 and count(liberties(friend)) > 3 {
          take moon
        }
        pass
      }
    }
    end when passes >= 2
    end when turn > 150
    score p = count(p) + count(territory(p)) + (if holder(star) == p then 0.5 else 0)
      + (if holder(moon) == p then 1 else 0)
"#;

#[test]
fn fast_equals_plain_on_go_like_rules() {
    let e = engine_from(GO_LIKE);
    assert!(!e.runner_searches());
    compare_playouts(&e, "go-like", 300);
    // Without the pass, a turn whose every placement is refused (and whose tokens are gone)
    // has no step: the runner must try every candidate to know it.
    let no_pass = engine_from(&GO_LIKE.replace("        pass\n", ""));
    compare_playouts(&no_pass, "go-like without a pass", 300);
    // A require that refuses every placement after the first turns: often more refusals in
    // one step than the random draw keeps in place, so it keeps the rest on the heap; the
    // draws still agree.
    let picky = engine_from(&GO_LIKE.replace("count(group(c)) < 10", "turn < 4"));
    compare_playouts(&picky, "picky go-like", 100);
}

#[test]
fn captures_by_enclosure_run_as_one_step_as_the_plain_build_runs_them() {
    // The bundled Go games take the step, and so do its variants: without the require,
    // the operands swapped, another neighbourhood. Each is held to the plain build.
    for file in game_files().iter().filter(|f| f.contains("reversi-go")) {
        assert!(engine(file, &[]).runner_encloses(), "{file}");
    }
    let one_require = GO_LIKE.replace("          require count(group(c)) < 10\n", "");
    let variants = [
        one_require.clone(),
        one_require.replace(
            "opponent & neighbours(c, orthogonal)",
            "neighbours(c, orthogonal) & opponent",
        ),
        one_require.replace("          require some(liberties(group(c)))\n", ""),
        one_require.replace(
            "opponent & neighbours(c, orthogonal))",
            "opponent & neighbours(c))",
        ),
    ];
    for (i, rules) in variants.iter().enumerate() {
        assert_ne!(rules, GO_LIKE, "variant {i} changed the rules");
        let e = engine_from(rules);
        assert!(e.runner_encloses(), "variant {i}");
        compare_playouts(&e, &format!("enclosure variant {i}"), 150);
        compare_perft(&e, &format!("enclosure variant {i}"), 6, 3);
    }
    // Two requires are more than the one step covers: the instructions run instead.
    assert!(!engine_from(GO_LIKE).runner_encloses());
}

#[test]
fn placements_among_words_run_as_a_loop_as_the_plain_build_runs_them() {
    // The loop keeps which words a turn offers, and that no end holds, from placement to
    // placement only where nothing a placement changes can change them; each way of being
    // outside that is held to the plain build as well.
    for file in game_files().iter().filter(|f| f.contains("reversi-go")) {
        assert!(engine(file, &[]).runner_loops_enclosures(), "{file}");
    }
    let one_require = GO_LIKE.replace("          require count(group(c)) < 10\n", "");
    let settled = one_require
        .replace(
            " where some(neighbours(c, orthogonal) & empty) or turn > 12",
            "",
        )
        .replace(
            "holder(moon) != mover and turn > 5 and count(liberties(friend)) > 3",
            "holder(moon) == nobody",
        )
        .replace("    end when turn > 150\n", "");
    let variants = [
        // A `where` on the placement, a word that asks the mover, the turn and the cells,
        // an end on the turn.
        ("as written", one_require.clone()),
        ("words and ends that stay", settled.clone()),
        // Once both tokens are taken, a turn whose placements are all refused has no step.
        ("without a pass", settled.replace("        pass\n", "")),
        (
            "an end on the tokens",
            settled.replace(
                "end when passes >= 2",
                "end when passes >= 2\n    end when holder(star) == white and holder(moon) == black",
            ),
        ),
        (
            "an end that placements bring",
            settled.replace("end when passes >= 2", "end when passes >= 2\n    end when count(empty) < 20"),
        ),
        (
            "a word that asks the mover",
            settled.replace("holder(star) == nobody", "holder(star) != mover"),
        ),
    ];
    for (what, rules) in &variants {
        let e = engine_from(rules);
        assert!(e.runner_loops_enclosures(), "{what}");
        compare_playouts(&e, what, 150);
        // Stopped after any number of steps, the loop stands where the plain build stands.
        let slow = oracle(&e);
        let start = e.start().unwrap();
        for limit in 0..40 {
            let (a, n) = e
                .random_playout(&start, &mut Rng::new(limit), limit)
                .unwrap();
            let (b, m) = slow
                .random_playout(&start, &mut Rng::new(limit), limit)
                .unwrap();
            assert_eq!(summary(&a, n), summary(&b, m), "{what}, limit {limit}");
            assert_eq!(a.pc, b.pc, "{what}, limit {limit}");
        }
    }
    assert_ne!(variants[1].1, variants[2].1);
    // Outside the shape: two requires (the instructions run), a counter, a cell option among
    // the words.
    assert!(!engine_from(GO_LIKE).runner_loops_enclosures());
    let counted = one_require.replace(
        "    token star\n",
        "    token star\n    counter stones = 0\n",
    );
    let counted = counted.replace("{ take star }", "{ take star  add stones 1 to mover }");
    assert!(!engine_from(&counted).runner_loops_enclosures());
    let cell_word = one_require.replace(
        "        pass\n",
        "        d in empty where turn > 40 { place d }\n",
    );
    assert!(!engine_from(&cell_word).runner_loops_enclosures());
}

#[test]
fn enclosures_on_boards_that_wrap_onto_themselves_run_as_the_plain_build_runs_them() {
    // One cell across, a cylinder's sideways steps would lead a cell back to itself, which
    // is no liberty; two across, both reach the same cell. Placements found legal without a
    // trial (next to an empty cell) must agree with the plain build in perft and playouts.
    let one_require = GO_LIKE.replace("          require count(group(c)) < 10\n", "");
    for board in [
        "1 x 7 cylinder",
        "7 x 1 torus",
        "2 x 6 cylinder",
        "1 x 1 torus",
    ] {
        let rules = one_require.replace("board 7 x 7", &format!("board {board}"));
        assert_ne!(rules, one_require);
        let e = engine_from(&rules);
        assert!(e.runner_encloses(), "{board}");
        compare_playouts(&e, board, 60);
        compare_perft(&e, board, 10, 3);
    }
}

/// Othello on a board with joined edges, and a variant that also reads a line's closing
/// cells (`ends`), off the direct loop.
const WRAPPED: &str = r#"
    board 8 x 8 torus
    player black 'B'
    player white 'W'
    setup {
      white on b2, c3
      black on c2, b3
    }
    line outflank = opponent+ friend
    line hop = opponent+ empty
    turn {
      choose c in empty where some(captured(outflank, c)) {
        place c
        flip captured(outflank, c)
      }
    }
    end when blocked
    score p = count(p)
"#;

#[test]
fn captures_across_joined_edges_of_every_shape_match_the_plain_build() {
    // Square boards take each placement's walks in a moved frame where they run straight;
    // boards whose sides differ, where a torus's diagonal crosses both edges apart, and
    // boards with holes are held to the plain build as well.
    let reads_ends = WRAPPED.replace(
        "where some(captured(outflank, c)) {",
        "where some(captured(outflank, c)) or some(ends(hop, c)) {",
    );
    assert_ne!(reads_ends, WRAPPED);
    for board in [
        "8 x 8 torus",
        "8 x 8 cylinder",
        "6 x 6 torus\n    removed cells(e5, a6)",
        "6 x 4 torus",
        "4 x 7 torus",
        "7 x 5 cylinder",
        "3 x 8 cylinder",
        "11 x 11 torus",
    ] {
        for (variant, rules) in [("othello", WRAPPED), ("ends", reads_ends.as_str())] {
            let rules = rules.replace("board 8 x 8 torus", &format!("board {board}"));
            let e = engine_from(&rules);
            let what = format!("{variant} on {board}");
            compare_playouts(&e, &what, 40);
            compare_perft(&e, &what, 6, 3);
        }
    }
}

/// Turns of several steps with everything the runner runs in them: two kinds of option (cells
/// and a word; a voluntary pass in a variant), chains in `while` loops, `auto` choices, number and cell variables,
/// `move`, `between`, an `else` that stops the turn, end checks after each step.
const CHAINS: &str = r#"
    board 6 x 6
    removed cells(f1)
    player black 'B'
    player white 'W'
    setup {
      black on c3, d4
      white on d3, c4
    }
    region corners = corners
    line flank = opponent+ friend
    line jump = opponent empty
    turn {
      choose {
        c in empty where some(captured(flank, c)) or (turn > 30 and none(friend & neighbours(c))) {
          place c
          let from = c
          let n = 0
          while some(ends(jump, from)) and n < 3 {
            choose auto landing in ends(jump, from) {
              flip between(from, landing)
              place landing
              let from = landing
              let n = n + 1
            }
          }
          if n == 0 {
            choose disc in captured(flank, c) mark "x" {
              choose dest in empty & neighbours(disc) mark ">" {
                move disc to dest
                flip dest
              } else {
                stop
              }
            }
          }
        }
        "rest" where turn > 20 { }
      }
    }
    end after step for each p when count(p & corners) >= 2 winner p
    end when passes >= 3
    end when none(empty)
    // Moves and rests need not fill the board: a turn limit keeps every game finite.
    end when turn > 80
    score p = count(p)
"#;

#[test]
fn fast_equals_plain_on_turns_of_several_steps() {
    let e = engine_from(CHAINS);
    assert!(!e.runner_searches());
    compare_playouts(&e, "chains", 300);
    // Playouts cut short stop anywhere, mid-turn too: the whole state must agree, variables
    // and step counts included.
    let slow = oracle(&e);
    let mut mid_turn = 0;
    for game in 0..300 {
        let from = e.start().unwrap();
        let limit = game % 50;
        let (a, n) = e.random_playout(&from, &mut Rng::new(game), limit).unwrap();
        let (b, m) = slow
            .random_playout(&from, &mut Rng::new(game), limit)
            .unwrap();
        assert_eq!((format!("{a:?}"), n), (format!("{b:?}"), m), "game {game}");
        mid_turn += usize::from(a.steps > 0);
    }
    assert!(mid_turn > 20, "only {mid_turn} playouts stopped mid-turn");
    let passing = engine_from(&CHAINS.replace(r#""rest" where turn > 20 { }"#, "pass"));
    compare_playouts(&passing, "chains with a voluntary pass", 200);
}

/// Solves from positions along random games with the fast paths and by the plain run: the
/// same values, and each step of the runner's line keeps the value as the step-by-step search
/// finds it. The lines
/// themselves may differ: the runner's solver asks the moves in its own order, the other in
/// the rules' order, and both take the first move that keeps the value.
fn compare_solutions(fast: &Engine, what: &str, games: u64, plies: u64) -> usize {
    let slow = oracle(fast);
    let mut total = 0;
    for game in 0..games {
        let (from, _) = slow
            .random_playout(
                &slow.start().unwrap(),
                &mut Rng::new(game),
                plies + game % 4,
            )
            .unwrap();
        let memory = outflank::apps::solve::DEFAULT_MEMORY;
        let a = outflank::apps::solve::solve(fast, &from, memory).unwrap();
        let b = outflank::apps::solve::solve(&slow, &from, memory).unwrap();
        // Values for the player to move at `from`: ends of equal value may differ in their
        // scores where the game ends before the board is full.
        let value = |end: &State| outflank::agents::terminal_value(end, from.mover);
        assert_eq!(value(&a.end), value(&b.end), "{what}, game {game}");
        let mut at = from;
        for (i, &(_, step)) in a.line.iter().enumerate() {
            at = slow.apply(&at, step).unwrap();
            let rest = outflank::apps::solve::solve(&slow, &at, memory).unwrap();
            assert_eq!(
                value(&rest.end),
                value(&a.end),
                "{what}, game {game}: step {i} of the line loses value"
            );
        }
        assert!(at.is_over(), "{what}, game {game}: the line stops short");
        assert_eq!(at.outcome, a.end.outcome, "{what}, game {game}");
        total += a.line.len();
    }
    total
}

#[test]
fn runner_solutions_equal_the_step_by_step_search() {
    let e = engine("games/othello.rules", &[("size", "4")]);
    assert!(compare_solutions(&e, "othello 4x4", 12, 0) > 60);
    // From before an opening phase that fills the centre: the general path, then the loop.
    let phased = engine("games/reversi-8x8.rules", &[("size", "4")]);
    assert!(phased.runner_is_direct());
    assert!(compare_solutions(&phased, "reversi 4x4", 8, 0) > 60);
    // 6x6 from 10 to 12 empty cells: each of the solver's three stretches (plain, sorted,
    // with the table) takes part, and more placements per position than 4x4 offers.
    let six = engine("games/othello.rules", &[("size", "6")]);
    assert!(compare_solutions(&six, "othello 6x6", 3, 20) > 25);
    // A score with halves (the first player gets half a point): the search closes in on
    // values between whole numbers too.
    let halves = engine_from(
        &std::fs::read_to_string("games/othello.rules")
            .unwrap()
            .replace("param size = 8", "param size = 4")
            .replace(
                "score p = count(p)",
                "score p = count(p) + (if p == black then 0.5 else 0)",
            ),
    );
    assert!(compare_solutions(&halves, "othello 4x4 with a half point", 8, 0) > 40);
    // The fewest pieces win (each player scores minus its count): the solver counts a
    // finished game's value on the boards, with the sign the score gives.
    let anti = engine("games/anti-othello.rules", &[("size", "4")]);
    assert!(compare_solutions(&anti, "anti-othello 4x4", 8, 0) > 40);
    // Without the early win, so that games last into the solved stretch.
    let to_the_end = engine_from(&GENERAL.replace("end after step", "// end after step"));
    assert!(compare_solutions(&to_the_end, "general rules", 6, 22) > 20);
}

#[test]
fn the_last_cells_tried_by_their_rays_equal_the_step_by_step_search() {
    // With four empty cells or fewer left the solver tries those cells' rays for each side
    // instead of finding placements: who places, who passes and places again, and when the
    // game ends before the board is full. From 2 to 5 empty cells on 6x6, against the plain
    // search.
    let six = engine("games/othello.rules", &[("size", "6")]);
    assert!(compare_solutions(&six, "othello 6x6, the last cells", 60, 27) > 100);
    // Scored by minus the pieces: the sign of the margin too.
    let anti = engine("games/anti-othello.rules", &[("size", "6")]);
    assert!(compare_solutions(&anti, "anti-othello 6x6, the last cells", 60, 27) > 100);
}

#[test]
fn a_rule_error_on_the_runner_is_reported_where_the_rules_cause_it() {
    // Placing on an occupied cell is a rule error: the runner reports it itself, with the
    // same message and place in the rules as the plain build.
    let e = engine_from(
        r#"
        board 3 x 3
        player black 'B'
        player white 'W'
        setup { black on b2 }
        turn { choose c in all { place c } }
        end when none(empty)
        score p = count(p)
        "#,
    );
    let mut failed = 0;
    for seed in 0..20 {
        let fast = e.random_playout(&e.start().unwrap(), &mut Rng::new(seed), u64::MAX);
        let slow = oracle(&e).random_playout(&e.start().unwrap(), &mut Rng::new(seed), u64::MAX);
        match (fast, slow) {
            (Err(a), Err(b)) => {
                assert_eq!(a.message, b.message);
                assert!(a.message.contains("not empty"), "{}", a.message);
                let (file, span) = a.at.expect("the runner says where");
                assert_eq!(&file.text[span.start..span.end], "place c");
                assert_eq!(b.at.map(|(_, s)| s), Some(span));
                failed += 1;
            }
            (Ok((a, n)), Ok((b, m))) => assert_eq!(summary(&a, n), summary(&b, m)),
            (a, b) => panic!(
                "seed {seed}: the runners disagree: {:?} / {:?}",
                a.is_ok(),
                b.is_ok()
            ),
        }
    }
    assert!(failed > 0, "some playout placed on an occupied cell");
    assert!(e.perft(&e.start().unwrap(), 2).is_err());
}

#[test]
fn end_checks_skipped_by_the_runner_are_still_asked_from_a_new_position() {
    // The runner skips after-step end checks while nothing they read changes, but only once it
    // has seen them false: from a set-up position where a target is already reached, the
    // first step must end the game, as on the plain build, whatever cells it touches.
    let e = engine("games/vect-reverse.rules", &[]);
    let s = e
        .position(
            "W......W/......../......../...BW.../...WB.../......../......../W......W",
            Some("black"),
        )
        .unwrap();
    let slow = oracle(&e);
    for seed in 0..20 {
        let (a, n) = e.random_playout(&s, &mut Rng::new(seed), u64::MAX).unwrap();
        let (b, m) = slow
            .random_playout(&s, &mut Rng::new(seed), u64::MAX)
            .unwrap();
        assert_eq!(summary(&a, n), summary(&b, m), "seed {seed}");
        assert_eq!(
            (n, a.outcome.unwrap().winner),
            (1, 1),
            "white wins after one step"
        );
    }
}

/// A turn whose loop never ends is a rule error the player sees, fast or plain: the runner
/// counts the jumps a step takes and reports the loop. The last
/// two loops have no jump left once compiled: a forced choice's body, or a choice with no
/// candidate, leads straight back to the choice.
#[test]
fn a_loop_that_never_ends_is_reported_not_run_forever() {
    let placing = |body: &str| format!("choose c in empty {{ place c {body} }}");
    for (setup, turn) in [
        ("", placing("while some(empty) { let n = 1 }")),
        ("", placing("while true { choose auto x in friend { } }")),
        // Black must capture at a1; then White has no capture, and the loop asks again and
        // again.
        (
            "setup { white on b1  black on c1 }",
            "while true { choose c in empty where some(captured(outflank, c)) { place c flip captured(outflank, c) stop } }".to_string(),
        ),
    ] {
        let e = engine_from(&format!(
            "board 4 x 4
            player black 'B'
            player white 'W'
            {setup}
            line outflank = opponent+ friend
            turn {{
              {turn}
            }}
            end when none(empty)
            score p = count(p)"
        ));
        let start = e.start().unwrap();
        for runner in [&e, &oracle(&e)] {
            let error = runner
                .random_playout(&start, &mut Rng::new(1), u64::MAX)
                .unwrap_err();
            assert!(error.message.contains("never ends"), "{turn}: {error}");
            // Reported at the loop, from its keyword to its condition.
            let (file, span) = error.at.expect("the loop");
            let shown = &file.text[span.start..span.end];
            assert!(
                shown == "while some(empty)" || shown == "while true",
                "{turn}: {shown}"
            );
        }
    }
}

#[test]
fn a_windowed_solve_near_the_end_is_exact_inside_and_a_bound_outside() {
    // In its last nine empty cells a game that counts pieces is searched in whole pieces of
    // margin, not in the general values (a win is a million and the margin). Whatever the
    // window, the answer must be the exact value inside it and a bound on the right side
    // outside: windows that fall between a draw and the least win included, where no value
    // lies. The exact value comes from the step-by-step search on the plain runner.
    use outflank::engine::runner::search::Table;
    let mut checked = 0;
    for rules in ["games/othello.rules", "games/anti-othello.rules"] {
        let e = engine(rules, &[("size", "6")]);
        let slow = oracle(&e);
        for game in 0..10 {
            // 32 empty cells at the start: 5 to 9 left (fewer where a pass came).
            let (from, _) = e
                .random_playout(&e.start().unwrap(), &mut Rng::new(game), 23 + game % 5)
                .unwrap();
            if from.is_over() {
                continue;
            }
            let memory = outflank::apps::solve::DEFAULT_MEMORY;
            let end = outflank::apps::solve::solve(&slow, &from, memory)
                .unwrap()
                .end;
            let v = outflank::agents::terminal_value(&end, from.mover);
            let inf = f64::INFINITY;
            let windows = [
                (-inf, inf),
                (v - 0.5, v + 0.5),
                (v - 1.0, v + 1.0),
                (v + 0.5, v + 2.5),
                (v - 2.5, v - 0.5),
                (v, inf),
                (-inf, v),
                (0.25, 0.75),
                (0.5, 1e6),
                (-1e6, -0.5),
                (-1e6 - 1.5, 1e6 + 1.5),
                (-inf, 0.0),
                (0.0, inf),
            ];
            for window in windows {
                let got = e
                    .runner_value(&from, &mut Table::new(1 << 12), Within(window.0, window.1))
                    .unwrap()
                    .expect("the runner searches it");
                assert_within_window(v, got, window, &format!("{rules}, game {game}"));
            }
            checked += 1;
        }
    }
    assert!(checked >= 16, "{checked} positions");
}

#[test]
fn a_table_that_forgets_gives_the_same_values() {
    // Two slots: nearly every entry is overwritten before it is read again, so the values
    // must come from the search alone; a table that kept wrong bounds, or reused an entry for
    // another position, would disagree with the large one.
    use outflank::engine::runner::search::Table;
    let e = engine("games/othello.rules", &[("size", "6")]);
    for game in 0..6 {
        let (from, _) = e
            .random_playout(&e.start().unwrap(), &mut Rng::new(game), 16 + game % 3)
            .unwrap();
        let big = e
            .runner_value(&from, &mut Table::new(1 << 16), Whole(Aim::Value))
            .unwrap();
        let small = e
            .runner_value(&from, &mut Table::new(2), Whole(Aim::Value))
            .unwrap();
        assert!(big.is_some(), "game {game}: the runner solved it");
        assert_eq!(big, small, "game {game}");
    }
}

/// A turn whose steps change nothing goes on forever: listing its whole turns, perft and
/// playouts stop at the bound on a turn's steps with an error at the choice, instead of
/// recursing until the stack overflows. A long turn that does end, one step short of the bound,
/// is listed and counted.
#[test]
fn a_turn_that_never_ends_is_an_error_and_a_long_one_still_runs() {
    // Perft follows a turn a step per call, so a turn at the bound needs more stack than a
    // test thread's 2 MB (see MAX_TURN_STEPS); the command line's threads have it.
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(endless_and_long_turns)
        .unwrap()
        .join()
        .unwrap();
}

fn endless_and_long_turns() {
    let game = |turn: &str| {
        engine_from(&format!(
            "board 4 x 4
            player black 'B'
            player white 'W'
            turn {{ {turn} }}
            end when none(empty)
            score p = count(p)"
        ))
    };
    let endless = game("while true { choose c in all { } }");
    let start = endless.start().unwrap();
    for runner in [&endless, &oracle(&endless)] {
        let turns = runner.whole_turns(&start, usize::MAX);
        let Err(outflank::engine::turns::ListError::Rule(error)) = turns else {
            panic!("listing an endless turn must fail")
        };
        assert!(error.message.contains("more than 1024 steps"), "{error}");
        let (file, span) = error.at.expect("the choice's option");
        assert_eq!(&file.text[span.start..span.end], "c in all { }");
        assert!(runner.perft(&start, 1).is_err());
        let error = runner
            .random_playout(&start, &mut Rng::new(1), u64::MAX)
            .unwrap_err();
        assert!(error.message.contains("more than 1024 steps"), "{error}");
    }
    // 1023 steps of one candidate each, then a placement: one whole turn per empty cell.
    let long = game("repeat 1023 { choose c in a1 { } } choose d in empty { place d }");
    let start = long.start().unwrap();
    let turns = long.whole_turns(&start, usize::MAX).unwrap();
    assert_eq!(turns.len(), 16);
    assert_eq!(long.perft(&start, 1).unwrap(), 16);
    assert_eq!(long.perft(&start, 2).unwrap(), 16 * 15);
}

#[test]
fn counters_run_fast_as_on_the_plain_build() {
    // Counters live in registers that outlast the turn: the fast paths must keep them as the
    // plain build does, in playouts, in perft and in the solver's positions.
    let e = engine("tests/fixtures/valid/supply.rules", &[]);
    assert!(!e.runner_is_direct(), "the direct loop keeps no counters");
    compare_playouts(&e, "supply", 200);
    compare_perft(&e, "supply", 8, 4);
}

/// The solver's learnt judge (docs/SOLVED.md): its regression finds weights known in advance.
#[test]
fn a_judge_fit_recovers_weights_that_explain_its_samples() {
    use outflank::engine::runner::judge::Judge;
    // Two cells of separate classes and no pairs: a margin of 3 per own piece on the
    // first cell and -2 per opponent's piece on the second, plus a placement each.
    let mut judge = Judge::new(&[(0, 0), (1, 1)], &[], 2);
    let mut samples = Vec::new();
    for bits in 0..9u32 {
        let (first, second) = (bits % 3, bits / 3);
        let mine = u128::from(first == 0) | u128::from(second == 0) << 1;
        let theirs = u128::from(first == 1) | u128::from(second == 1) << 1;
        for moves in 0..4 {
            let y = 3.0 * f64::from(u8::from(first == 0)) - 2.0 * f64::from(u8::from(second == 1))
                + f64::from(moves);
            samples.push((judge.features(mine, theirs, moves, 0), y));
        }
    }
    // Many copies, so that the ridge's pull is small beside them.
    let samples: Vec<_> = samples.iter().cycle().take(36 * 1000).cloned().collect();
    judge.fit(&samples);
    let own_first = judge.margin(1, 0, 0, 0) - judge.margin(0, 0, 0, 0);
    let theirs_second = judge.margin(0, 2, 0, 0) - judge.margin(0, 0, 0, 0);
    let a_move = judge.margin(0, 0, 1, 0) - judge.margin(0, 0, 0, 0);
    assert!((own_first - 3.0).abs() < 0.01, "{own_first}");
    assert!((theirs_second + 2.0).abs() < 0.01, "{theirs_second}");
    assert!((a_move - 1.0).abs() < 0.01, "{a_move}");
}

/// The judge's laid-out sum (blocks of two by two cells, pairs across joined edges apart)
/// is the sum of its features' weights, on boards whose last row and column fill blocks of
/// their own and with a pair that no block holds: boards of at most 64 cells, which the
/// judge reads in one word, the largest of them, and one of more.
#[test]
fn a_judges_laid_out_margin_is_the_sum_of_its_features_weights() {
    for (width, height) in [(5, 3), (8, 8), (9, 8)] {
        laid_out_margin_is_the_feature_sum(width, height);
    }
}

fn laid_out_margin_is_the_feature_sum(width: usize, height: usize) {
    use outflank::engine::runner::judge::Judge;
    let cells: Vec<_> = (0..width * height).map(|c| (c, c % 4)).collect();
    let mut pairs = Vec::new();
    for a in 0..width * height {
        for b in 0..width * height {
            let (ax, ay, bx, by) = (a % width, a / width, b % width, b / width);
            if a != b && ax.abs_diff(bx) <= 1 && ay.abs_diff(by) <= 1 {
                // Few enough classes that the fit stays small on the larger boards.
                pairs.push((a, b, (a.min(b) % 7, a.max(b) % 7)));
            }
        }
    }
    // The two ends of the first row, as neighbours across a joined edge.
    pairs.push((0, width - 1, (0, width - 1)));
    let mut judge = Judge::new(&cells, &pairs, width);
    let mut seed = 12345u64;
    let mut random = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    let position = |random: &mut dyn FnMut() -> u64| {
        let (mut mine, mut theirs) = (0u128, 0u128);
        for c in 0..width * height {
            match random() % 3 {
                0 => mine |= 1 << c,
                1 => theirs |= 1 << c,
                _ => {}
            }
        }
        (mine, theirs, (random() % 9) as u32, (random() % 9) as u32)
    };
    let mut samples = Vec::new();
    for _ in 0..400 {
        let (mine, theirs, m, t) = position(&mut random);
        let truth = f64::from((mine & 0b1_0001).count_ones()) * 3.0
            - f64::from(theirs.count_ones())
            + f64::from(m) * 0.5
            + (random() % 100) as f64 / 50.0;
        samples.push((judge.features(mine, theirs, m, t), truth));
    }
    judge.fit(&samples);
    assert!(judge.weights().iter().any(|w| w.abs() > 0.1));
    for _ in 0..500 {
        let (mine, theirs, m, t) = position(&mut random);
        let plain: f64 = (judge.features(mine, theirs, m, t).iter())
            .map(|&(i, x)| judge.weights()[i] * x)
            .sum();
        let laid_out = judge.margin(mine, theirs, m, t);
        // Each block's and loose pair's weight is rounded to a 256th of a piece, and there
        // are fewer of them than cells (and one loose pair).
        let rounding = (width * height + 1) as f64 * 0.5 / 256.0;
        assert!(
            (laid_out - plain).abs() <= rounding,
            "{width}x{height}, {mine:b} {theirs:b}: {laid_out} for {plain}"
        );
    }
}

/// The judge reads a pair of neighbours both ways round when it is listed both ways, each
/// way with its own class: what it judges is what its fit learnt, whichever way the weights
/// were laid out for the solver.
#[test]
fn a_judge_reads_pairs_listed_both_ways_round_as_its_fit_learnt_them() {
    use outflank::engine::runner::judge::Judge;
    let pairs = [(0, 1, (0, 1)), (1, 0, (1, 0))];
    let mut judge = Judge::new(&[(0, 0), (1, 1)], &pairs, 2);
    // 0 own piece, 1 the other player's, 2 empty; worth 4 when the first cell is the mover's
    // and the second empty, and 1 a second cell of the other player's.
    let truth = |first: u32, second: u32| {
        4.0 * f64::from(u8::from(first == 0 && second == 2)) + f64::from(u8::from(second == 1))
    };
    let boards = |first: u32, second: u32| {
        let mine = u128::from(first == 0) | u128::from(second == 0) << 1;
        let theirs = u128::from(first == 1) | u128::from(second == 1) << 1;
        (mine, theirs)
    };
    let mut samples = Vec::new();
    for (first, second) in (0..3).flat_map(|a| (0..3).map(move |b| (a, b))) {
        let (mine, theirs) = boards(first, second);
        samples.push((judge.features(mine, theirs, 0, 0), truth(first, second)));
    }
    let samples: Vec<_> = samples.iter().cycle().take(9 * 4000).cloned().collect();
    judge.fit(&samples);
    for (first, second) in (0..3).flat_map(|a| (0..3).map(move |b| (a, b))) {
        let (mine, theirs) = boards(first, second);
        let judged = judge.margin(mine, theirs, 0, 0);
        let want = truth(first, second);
        // The judge sums its weights in 256ths of a piece: three of them, each rounded.
        assert!(
            (judged - want).abs() < 0.02,
            "{first} {second}: {judged} for {want}"
        );
    }
}

/// A solve long enough learns its judge (docs/SOLVED.md) also where its position comes before
/// the game's outflanking placements: BrainKing Reversi's empty board, whose centre is filled
/// first, learns from the positions its samples' games reach after that opening. A short
/// solve learns none.
#[test]
fn a_judge_is_learnt_through_an_opening_of_another_kind() {
    use outflank::engine::runner::{search, AnyRunner};
    for (path, set, learns) in [
        ("games/reversi-6x6.rules", &[][..], true),
        ("games/othello.rules", &[("size", "4")][..], false),
    ] {
        let e = engine(path, set);
        let runner = AnyRunner::new(&e.game, false);
        let AnyRunner::Narrow(k) = &runner else {
            panic!("{path}: a small board runs on sets of one word");
        };
        let start = e.start().unwrap();
        let mut tree = search::RunnerTree::new(k, &e.game);
        let mut table = search::Table::within(16 << 20);
        tree.learn(&mut table, &k.import(&e.game, &start)).unwrap();
        assert_eq!(table.learnt.is_some(), learns, "{path}");
        // The samples' solves count in the table's positions.
        assert_eq!(table.nodes > 1_000_000, learns, "{path}: {}", table.nodes);
    }
}
