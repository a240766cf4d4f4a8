//! The runner's solver against the step-by-step search of the plain run: the same values and
//! lines, windowed searches near the end, a table that forgets, and the judge that orders
//! moves (its fit, its laid-out margin, its pairs).

use crate::common::{assert_within_window, engine, engine_from, game_files};
use outflank::engine::negamax::{
    Aim,
    Question::{Whole, Within},
};
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::Engine;

use super::runner::{oracle, GENERAL};

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
fn a_windowed_solve_near_the_end_is_exact_inside_and_a_bound_outside() {
    // In its last nine empty cells a game that counts pieces is searched in whole pieces of
    // margin, not in the general values (a win is a million and the margin). Whatever the
    // window, the answer must be the exact value inside it and a bound on the right side
    // outside: windows that fall between a draw and the least win included, where no value
    // lies. The exact value comes from the step-by-step search on the plain runner.
    use outflank::engine::solving::search::Table;
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
    use outflank::engine::solving::search::Table;
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

/// The solver's learnt judge (docs/SOLVED.md): its regression finds weights known in advance.
#[test]
fn a_judge_fit_recovers_weights_that_explain_its_samples() {
    use outflank::engine::solving::judge::Judge;
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
    use outflank::engine::solving::judge::Judge;
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
    use outflank::engine::solving::judge::Judge;
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
    use outflank::engine::runner::AnyRunner;
    use outflank::engine::solving::search;
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
        let tables = search::SolverTables::new(k, &e.game);
        let mut tree = search::RunnerTree::new(k, &tables, &e.game);
        let mut table = search::Table::within(16 << 20);
        search::learn(&mut tree, &mut table, &k.import(&e.game, &start)).unwrap();
        assert_eq!(table.learnt.is_some(), learns, "{path}");
        // The samples' solves count in the table's positions.
        assert_eq!(table.nodes > 1_000_000, learns, "{path}: {}", table.nodes);
    }
}
