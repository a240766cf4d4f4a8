//! The runner with its fast paths must play exactly the games the plain run of the same
//! program plays (every `where` asked cell by cell as written, no recognised shape of turn):
//! the same random playouts from the same seed, the same perft counts and the same errors,
//! on every bundled game and on rules written to reach each fast path. The whole-set forms of
//! its expressions likewise agree with the per-cell ones they replace.

use crate::common::{engine, engine_from, game_files};
use outflank::agents::game_seed;
use outflank::board::bits::Bits;
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::Engine;
use outflank::ir::{Cell, Cond, Set};

pub(crate) fn oracle(e: &Engine) -> Engine {
    Engine::new(e.game.clone()).plain()
}

/// What a finished playout is judged by.
pub(crate) fn summary(s: &State, steps: u64) -> String {
    format!(
        "{:?} mover {} turn {} passes {} outcome {:?} after {steps} steps",
        s.pieces, s.mover, s.turn, s.passes, s.outcome
    )
}

/// Random playouts from the start and from positions along other playouts, with the fast
/// paths and by the plain run.
pub(crate) fn compare_playouts(fast: &Engine, what: &str, games: u64) {
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
pub(crate) fn compare_perft(fast: &Engine, what: &str, games: u64, depth: u32) {
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
        // Past 300 cells (Reversi Go 19x19) the plain run's depth 3 takes 4 s a position here:
        // three positions there, as many as the other games' twelve took in all.
        let games = if e.game.geometry.cells() > 300 { 3 } else { 12 };
        compare_perft(&e, &file, games, 3);
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
pub(crate) const GENERAL: &str = r#"
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

/// Plays `games` seeded random games and, at every position, compares each line's whole-set
/// sources with the per-cell match. Returns the number of comparisons.
fn compare_lines(e: &Engine, seed: u64, games: u64, what: &str) -> usize {
    let mut checked = 0;
    for game in 0..games {
        let mut rng = Rng::new(game_seed(seed, game));
        let mut s = e.start().unwrap();
        let mut buf = Vec::new();
        while !s.is_over() {
            for (l, line) in e.game.lines.iter().enumerate() {
                let fast = e.set_value(&s, &Set::Sources(l));
                let mut slow = Bits::EMPTY;
                for c in e.game.geometry.playable.iter() {
                    // The meaning: placing at c captures something (a match that takes no
                    // cell does not count). The per-cell test must agree with it too.
                    let at = Box::new(Cell::Const(c as u16));
                    let captures = !e.set_value(&s, &Set::Captured(l, at.clone())).is_empty();
                    let any = e.cond_value(&s, &Cond::AnyLine(l, at), None);
                    assert_eq!(any, captures, "{what}, {c}");
                    if captures {
                        slow.insert(c);
                    }
                }
                assert_eq!(
                    fast, slow,
                    "{what}, line {}, game {game}, turn {}",
                    line.name, s.turn
                );
                checked += 1;
            }
            e.steps(&s, &mut buf).unwrap();
            s = e.apply(&s, buf[rng.below(buf.len())]).unwrap();
        }
    }
    checked
}

#[test]
fn line_sources_equal_the_per_cell_match() {
    let checked: usize = game_files()
        .iter()
        .map(|file| compare_lines(&engine(file, &[]), 77, 12, file))
        .sum();
    assert!(checked > 5000, "only {checked} comparisons");
}

#[test]
fn line_sources_handle_every_kind_of_element() {
    // Patterns beyond the bundled games: optional and counted elements, overlapping classes,
    // orthogonal directions, and removed cells in the way.
    let rules = r#"
        board 7 x 6
        removed cells(d3)
        player black 'B'
        player white 'W'
        line a = opponent? friend
        line b = opponent{2} empty
        line c = piece+ friend along orthogonal
        line d = opponent empty? piece
        turn { choose x in empty { place x } }
        end when none(empty)
        score p = count(p)
    "#;
    let e = engine_from(rules);
    assert!(compare_lines(&e, 5, 40, "test rules") > 500);
}
