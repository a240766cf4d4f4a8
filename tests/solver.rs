//! The solver's exact values against an alpha-beta over the engine's steps, from positions
//! nine empty cells from the end of seeded random games: the solver's last stretch searches
//! the boards alone (src/engine/solving/search/counted.rs), with its own move order, bounds
//! on margins and symmetry merges, so every kind of board and line it runs that way is checked
//! against the rules as the engine plays them: pieces counted for and against the mover, lines
//! in all directions, in four and in five, removed cells, hexagons, boards of more than 64
//! cells.

use crate::common::{assert_within_window, engine, engine_from, near_the_end, plain_value};
use outflank::engine::negamax::{
    Aim,
    Question::{Whole, Within},
};
use outflank::engine::state::State;
use outflank::engine::Engine;

fn solves_as_plain_negamax(e: &Engine, what: &str) {
    let positions = near_the_end(e, 9, 12);
    assert!(
        positions.len() >= 8,
        "{what}: {} positions",
        positions.len()
    );
    for (i, s) in positions.iter().enumerate() {
        let solution = outflank::apps::solve::solve(e, s, 1 << 24).unwrap();
        let end = solution.end.outcome.unwrap();
        assert_eq!(
            end.value_for(s.mover),
            plain_value(e, s),
            "{what}, position {i}: {}",
            e.position_rows(s)
        );
    }
}

#[test]
fn othello_and_anti_othello_solve_to_the_plain_value() {
    // Pieces counted for the mover and against it (fewest pieces wins).
    solves_as_plain_negamax(
        &engine("games/othello.rules", &[("size", "6")]),
        "Othello 6x6",
    );
    let anti = engine("games/anti-othello.rules", &[("size", "6")]);
    solves_as_plain_negamax(&anti, "Anti-Othello 6x6");
}

#[test]
fn boards_with_removed_cells_and_hexagons_solve_to_the_plain_value() {
    // A line stops at a removed cell; a hexagon has six directions and twelve symmetries.
    solves_as_plain_negamax(
        &engine("games/octagon-othello.rules", &[]),
        "Octagon Othello",
    );
    let hex = engine("games/hex-reversi.rules", &[("side", "3")]);
    solves_as_plain_negamax(&hex, "Hexagonal Reversi");
}

#[test]
fn the_margin_searchs_own_table_keeps_the_values_exact() {
    // From 12 empty cells, the positions of 9 and 10 that the margin search keeps in its
    // own table (src/engine/solving/search/margins.rs) are met again by other orders of the
    // same placements, and by each of the solver's empty-window questions: their bounds and
    // best placements are reused in other windows than they were proved in.
    use outflank::engine::solving::search::Table;
    for (file, what) in [
        ("games/othello.rules", "Othello 6x6"),
        ("games/anti-othello.rules", "Anti-Othello 6x6"),
    ] {
        let e = engine(file, &[("size", "6")]);
        let positions = near_the_end(&e, 12, 4);
        assert_eq!(positions.len(), 4, "{what}");
        for (i, s) in positions.iter().enumerate() {
            let v = plain_value(&e, s);
            let what = format!("{what}, position {i} ({})", e.position_rows(s));
            let exact = e
                .runner_value(s, &mut Table::new(1 << 16), Whole(Aim::Value))
                .unwrap();
            assert_eq!(exact, Some(v), "{what}");
            // The margins around the value, as the questions ask them.
            for window in [(v - 2.5, v - 0.5), (v - 0.5, v + 0.5), (v + 0.5, v + 2.5)] {
                let got = e
                    .runner_value(s, &mut Table::new(1 << 16), Within(window.0, window.1))
                    .unwrap()
                    .expect("the runner searches it");
                assert_within_window(v, got, window, &what);
            }
        }
    }
}

/// Rules of an outflanking game on `board` whose line runs along `dirs`.
fn outflanking(board: &str, dirs: &str) -> String {
    format!(
        "title \"t\"\n{board}\nplayer black 'B'\nplayer white 'W'\n\
         first black\nsetup {{\n  white on at(3, 3), at(4, 4)\n  black on at(4, 3), at(3, 4)\n}}\n\
         directions lines = {dirs}\nline outflank = opponent+ friend along lines\n\
         turn {{ choose c in empty where some(captured(outflank, c)) {{ place c flip captured(outflank, c) }} }}\n\
         end when blocked\nscore p = count(p)\n"
    )
}

#[test]
fn lines_along_some_directions_solve_to_the_plain_value() {
    // Four directions never flip along a diagonal; with one way of a diagonal added, a run
    // up it to the right flips and the same run down it to the left does not.
    let board = "board 6 x 6\nremoved cells(a1, f6)";
    let four = engine_from(&outflanking(board, "orthogonal"));
    solves_as_plain_negamax(&four, "orthogonal");
    let five = engine_from(&outflanking(board, "orthogonal, northeast"));
    solves_as_plain_negamax(&five, "orthogonal and northeast");
}

#[test]
fn boards_of_more_than_64_cells_solve_to_the_plain_value() {
    // The solver's symmetries keep images of such boards in two words, not one.
    let e = engine_from(&outflanking("board 10 x 8", "all"));
    solves_as_plain_negamax(&e, "10 x 8");
}

/// A position of a square board as rows of cells (`position_rows` without the slashes).
struct Board {
    cells: Vec<char>,
    width: usize,
}

impl Board {
    fn of(e: &Engine, s: &State) -> Board {
        let rows = e.position_rows(s);
        let width = rows.split('/').next().unwrap().chars().count();
        let cells = rows.chars().filter(|&c| c != '/').collect();
        Board { cells, width }
    }

    /// The cells next to `cell` in the eight directions.
    fn around(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let (w, h) = (self.width as i64, (self.cells.len() / self.width) as i64);
        let (r, c) = (cell as i64 / w, cell as i64 % w);
        (-1..=1)
            .flat_map(move |dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
            .filter(move |&(y, x)| (y, x) != (r, c) && (0..h).contains(&y) && (0..w).contains(&x))
            .map(move |(y, x)| (y * w + x) as usize)
    }
}

/// The cells the mover at `s` may place on (none where it must pass or the game is over).
fn placements(e: &Engine, s: &State) -> Vec<usize> {
    if s.is_over() {
        return Vec::new();
    }
    let mut steps = Vec::new();
    e.steps(s, &mut steps).unwrap();
    steps
        .iter()
        .filter(|step| step.alt != outflank::engine::FORCED_PASS)
        .map(|step| usize::from(step.value))
        .collect()
}

/// What the solver's order counts for the mover at `s`, who may place on `moves`, written from
/// its description (docs/SOLVED.md, "Move order"): the placements, those on the cells with
/// fewest neighbours (a square's corners) counted three times, and the empty cells next to the
/// other player's pieces.
fn prospects(e: &Engine, s: &State, moves: &[usize]) -> i32 {
    let board = Board::of(e, s);
    let fewest = |cell: usize| board.around(cell).count() == 3;
    let other = ['W', 'B'][usize::from(s.mover)];
    let near = (0..board.cells.len())
        .filter(|&c| board.cells[c] == '.' && board.around(c).any(|n| board.cells[n] == other))
        .count();
    let corners = moves.iter().filter(|&&c| fewest(c)).count();
    (moves.len() + 2 * corners + near) as i32
}

/// The guess `depth` turns ahead at `s`: plain negamax over the placements, the count above
/// at the leaves, a mover with no placement as badly off as can be (-64).
fn guess(e: &Engine, s: &State, depth: u32) -> i32 {
    let moves = placements(e, s);
    if moves.is_empty() {
        return -64;
    }
    if depth == 0 {
        return prospects(e, s, &moves);
    }
    moves
        .iter()
        .map(|&cell| {
            let step = outflank::engine::Step {
                alt: 0,
                value: cell as u16,
            };
            -guess(e, &e.apply(s, step).unwrap(), depth - 1)
        })
        .max()
        .unwrap()
}

#[test]
fn far_from_the_end_the_order_is_a_plain_negamax_two_turns_ahead() {
    // From 17 empty cells up (with no judge learnt), each move's rank is 10,003 plus the
    // guess two turns ahead for the opponent, which the solver finds by alpha-beta: it must
    // be the value plain negamax gives, for every move of every position.
    use outflank::engine::solving::search::Table;
    let e = engine("games/othello.rules", &[("size", "6")]);
    let mut ranked = 0;
    for s in near_the_end(&e, 19, 6) {
        let ranks = e.runner_ranks(&s, &Table::new(1 << 12)).unwrap().unwrap();
        let cells = placements(&e, &s);
        assert_eq!(ranks.len(), cells.len(), "{}", e.position_rows(&s));
        for (rank, cell) in ranks {
            let step = outflank::engine::Step {
                alt: 0,
                value: cell as u16,
            };
            let t = e.apply(&s, step).unwrap();
            let expected = if t.is_over() {
                1
            } else if placements(&e, &t).is_empty() {
                2
            } else {
                (3 + 10_000 + guess(&e, &t, 2)).max(3) as u64
            };
            assert_eq!(rank, expected, "{} at cell {cell}", e.position_rows(&s));
            ranked += 1;
        }
    }
    assert!(ranked >= 30, "{ranked} moves ranked");
}

/// Every state `steps` steps or fewer from the start of `e`, turns part-way included.
fn states_within(e: &Engine, steps: usize) -> Vec<State> {
    let mut all = vec![e.start().unwrap()];
    let mut frontier = all.clone();
    let mut listed = Vec::new();
    for _ in 0..steps {
        let mut next = Vec::new();
        for s in frontier.iter().filter(|s| !s.is_over()) {
            e.steps(s, &mut listed).unwrap();
            for &step in &listed {
                next.push(e.apply(s, step).unwrap());
            }
        }
        all.extend_from_slice(&next);
        frontier = next;
    }
    all
}

#[test]
fn small_state_keys_tell_apart_exactly_the_states_full_keys_do() {
    use outflank::engine::state::SmallStateKey;
    use std::collections::{HashMap, HashSet};
    // The step-by-step search keys its table by the small keys where the game fits them
    // (agents/search.rs): they must merge exactly the states the full keys merge. Verto's
    // turns hold a capture's chain part-way (registers) and its states meet again by other
    // orders of placements; VECT-REVERSE's turns are several steps too.
    for (rules, set, steps) in [
        ("games/verto-8x8.rules", &[("size", "4")][..], 6),
        ("games/vect-reverse.rules", &[][..], 3),
    ] {
        let e = engine(rules, set);
        assert!(SmallStateKey::fits(&e.game), "{rules}");
        let states = states_within(&e, steps);
        let mut small_of = HashMap::new();
        let mut smalls = HashSet::new();
        for s in &states {
            let small = SmallStateKey::of(s);
            // Equal full keys, equal small keys...
            assert!(
                *small_of.entry(s.key()).or_insert(small) == small,
                "{rules}"
            );
            smalls.insert(small);
        }
        // ...and as many small keys as full ones: no two states merged that are apart.
        assert_eq!(smalls.len(), small_of.len(), "{rules}");
        // Transpositions were there to merge.
        assert!(
            small_of.len() < states.len(),
            "{rules}: {} states",
            states.len()
        );
    }
    // Two players on 19 x 19 need twelve words of pieces: full keys.
    let big = engine("games/reversi-go-19x19.rules", &[]);
    assert!(!SmallStateKey::fits(&big.game));
}

#[test]
fn a_search_handed_a_game_its_small_keys_do_not_fit_keys_it_in_full() {
    use outflank::agents::score_margin;
    use outflank::agents::search::Search;
    use outflank::engine::state::SmallStateKey;
    use outflank::engine::RuleError;
    fn margin(e: &Engine, s: &State, p: u8) -> Result<f64, RuleError> {
        Ok(score_margin(e, s, p))
    }
    // Othello 4x4 with a counter: counters live at the top of the registers, beyond what a
    // small key holds.
    let counted = engine_from(
        "board 4 x 4\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
         setup {\n  white on b2, c3\n  black on c2, b3\n}\n\
         counter placed = 0\n\
         line outflank = opponent+ friend\n\
         turn {\n  choose c in empty where some(captured(outflank, c)) {\n    place c\n    \
         flip captured(outflank, c)\n    add placed 1\n  }\n}\n\
         end when blocked\nscore p = count(p)\n",
    );
    assert!(!SmallStateKey::fits(&counted.game));
    let verto = engine("games/verto-8x8.rules", &[("size", "4")]);
    let mut search = Search::new(margin, 1 << 20);
    // A first search on a game that fits makes the table of small keys.
    let start = verto.start().unwrap();
    search.value(&verto, &start, Some(3), -1e9, 1e9).unwrap();
    // The second game's states are told apart by their counters too: the exact value is
    // the plain one.
    let s = counted.start().unwrap();
    let v = search.exact_value(&counted, &s, Aim::Value).unwrap();
    assert_eq!(v, plain_value(&counted, &s));
    // A counter outlasts the turn, and the runner's table keys do not hold it: its solver
    // leaves the game to the step-by-step search, and `solve` finds the plain value so.
    let mut table = outflank::engine::solving::search::Table::new(1 << 16);
    assert_eq!(
        counted
            .runner_value(&s, &mut table, Whole(Aim::Value))
            .unwrap(),
        None
    );
    let solution = outflank::apps::solve::solve(&counted, &s, 1 << 20).unwrap();
    assert_eq!(solution.end.outcome.unwrap().value_for(s.mover), v);
}

/// Who wins `s` with best play, by the kind of `value`, its value for its mover: Some(the
/// winner) or None for a draw.
fn winner_by_value(s: &State, value: f64) -> Option<bool> {
    use outflank::engine::state::read_value;
    use std::cmp::Ordering;
    match read_value(value).0 {
        Ordering::Greater => Some(true),
        Ordering::Less => Some(false),
        Ordering::Equal => None,
    }
    .map(|mover_wins| (s.mover == 0) == mover_wins)
}

/// Solves each of `positions` for its outcome alone and checks it against plain alpha-beta
/// (`plain_value`): the value's kind, that it bounds the exact value on the side it says,
/// and that every position of the line it plays has the same winner with best play. Returns
/// how many positions were a win for their mover, a draw and a loss.
fn outcome_as_plain_negamax(e: &Engine, positions: &[State], what: &str) -> [usize; 3] {
    use outflank::apps::solve::solve_watched;
    use outflank::engine::solving::search::Table;
    use outflank::engine::state::read_value;
    let mut kinds = [0; 3];
    for (i, s) in positions.iter().enumerate() {
        let what = format!("{what}, position {i}: {}", e.position_rows(s));
        let exact = plain_value(e, s);
        let winner = winner_by_value(s, exact);
        kinds[match read_value(exact).0 {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        }] += 1;
        if let Some(got) = e
            .runner_value(s, &mut Table::new(1 << 16), Whole(Aim::Outcome))
            .unwrap()
        {
            assert_eq!(read_value(got).0, read_value(exact).0, "{what}: {got}");
            // A lower bound where the mover at least draws, else an upper one.
            if read_value(exact).0 == std::cmp::Ordering::Less {
                assert!(got >= exact, "{what}: {got} below {exact}");
            } else {
                assert!(got <= exact, "{what}: {got} above {exact}");
            }
        }
        let solution = solve_watched(e, s, 1 << 24, 1, Aim::Outcome, || None).unwrap();
        let mut at = *s;
        for (j, &(from, step)) in solution.line.iter().enumerate() {
            assert!(
                from.key() == at.key(),
                "{what}: the line's step {j} is played from elsewhere"
            );
            assert_eq!(
                winner_by_value(&at, plain_value(e, &at)),
                winner,
                "{what}: the line's position {j} has another winner"
            );
            at = e.apply(&at, step).unwrap();
        }
        assert!(
            at.key() == solution.end.key() && at.is_over(),
            "{what}: the line ends the game"
        );
        assert_eq!(
            winner_by_value(s, at.outcome.unwrap().value_for(s.mover)),
            winner,
            "{what}: the line's end"
        );
    }
    kinds
}

#[test]
fn an_outcome_solve_finds_the_winner_with_best_play_and_a_line_that_keeps_it() {
    let mut kinds = [0; 3];
    for (file, set, what) in [
        ("games/othello.rules", &[("size", "6")][..], "Othello 6x6"),
        (
            "games/anti-othello.rules",
            &[("size", "6")][..],
            "Anti-Othello 6x6",
        ),
        ("games/octagon-othello.rules", &[][..], "Octagon Othello"),
    ] {
        let e = engine(file, set);
        let positions = near_the_end(&e, 9, 10);
        assert!(positions.len() >= 8, "{what}: {}", positions.len());
        for (k, n) in outcome_as_plain_negamax(&e, &positions, what)
            .into_iter()
            .enumerate()
        {
            kinds[k] += n;
        }
    }
    // Both kinds of decided result were met.
    assert!(
        kinds[0] > 0 && kinds[2] > 0,
        "wins, draws, losses: {kinds:?}"
    );
    // Drawn positions: Othello 6x6 positions of five and six empty cells, kept where plain
    // alpha-beta finds a draw, so that the outcome's second question is asked and answered
    // no, and the line keeps the draw from both sides.
    let e = engine("games/othello.rules", &[("size", "6")]);
    let drawn: Vec<State> = [5, 6]
        .into_iter()
        .flat_map(|empties| near_the_end(&e, empties, 300))
        .filter(|s| plain_value(&e, s) == 0.0)
        .take(4)
        .collect();
    assert!(!drawn.is_empty(), "no drawn position among the seeds");
    assert_eq!(
        outcome_as_plain_negamax(&e, &drawn, "Othello 6x6, drawn"),
        [0, drawn.len(), 0]
    );
}

#[test]
fn an_outcome_solve_of_several_steps_a_turn_keeps_the_winner() {
    // Verto: a capture's chain makes a turn of several steps; the step-by-step search asks
    // the outcome's questions and the line keeps the winner inside a turn too.
    use outflank::engine::rng::Rng;
    let e = engine("games/verto-8x8.rules", &[("size", "4")]);
    let positions: Vec<State> = (0..6)
        .filter_map(|seed| {
            let (s, _) = e
                .random_playout(&e.start().unwrap(), &mut Rng::new(seed), 9)
                .unwrap();
            (!s.is_over()).then_some(s)
        })
        .collect();
    assert!(positions.len() >= 4, "{} positions", positions.len());
    let kinds = outcome_as_plain_negamax(&e, &positions, "Verto 4x4");
    assert!(kinds[0] + kinds[2] > 0, "{kinds:?}");
}

/// Positions of `e`'s seeded random games, played a step at a time: per game, the first
/// between turns with at most `empties` empty cells, and the first inside a turn (a capture's
/// chain under way) with at most two more.
fn between_and_inside_turns(e: &Engine, empties: usize, seeds: u64) -> (Vec<State>, Vec<State>) {
    use outflank::engine::rng::Rng;
    let empty = |s: &State| e.position_rows(s).matches('.').count();
    let (mut between, mut inside) = (Vec::new(), Vec::new());
    for seed in 0..seeds {
        let mut rng = Rng::new(seed);
        let mut s = e.start().unwrap();
        let (mut found_between, mut found_inside) = (false, false);
        while !(s.is_over() || found_between && found_inside) {
            if s.steps == 0 && !found_between && empty(&s) <= empties {
                between.push(s);
                found_between = true;
            }
            if s.steps > 0 && !found_inside && empty(&s) <= empties + 2 {
                inside.push(s);
                found_inside = true;
            }
            let step = e.random_step(&s, &mut rng).unwrap().unwrap();
            s = e.apply(&s, step).unwrap();
        }
    }
    (between, inside)
}

#[test]
fn turns_of_several_steps_solve_whole_to_the_plain_value() {
    use outflank::engine::negamax::{next_down, next_up};
    use outflank::engine::solving::search::Table;
    use outflank::engine::state::read_value;
    // The runner's solver takes a turn of several steps whole (Verto's capture and its chain
    // of jumps; VECT-REVERSE's placement and its moves), from positions between turns and
    // inside one; its values, bounds, outcomes and lines are held to alpha-beta over the
    // engine's steps. Inside VECT-REVERSE's turns a chain of moves branches so widely that
    // alpha-beta over the engine's steps takes seconds a position: its positions are between
    // turns only.
    for (file, set, empties, seeds, what, inside_too) in [
        (
            "games/verto-8x8.rules",
            &[("size", "4")][..],
            8,
            16,
            "Verto 4x4",
            true,
        ),
        (
            "games/verto-8x8.rules",
            &[("size", "5")][..],
            7,
            10,
            "Verto 5x5",
            true,
        ),
        (
            "games/vect-reverse.rules",
            &[][..],
            4,
            8,
            "VECT-REVERSE",
            false,
        ),
    ] {
        let e = engine(file, set);
        assert!(!e.runner_searches(), "{what}: turns of several steps");
        let (between, mut inside) = between_and_inside_turns(&e, empties, seeds);
        if !inside_too {
            inside.clear();
        }
        assert!(
            between.len() >= 4 && (inside.len() >= 2 || !inside_too),
            "{what}: {} and {}",
            between.len(),
            inside.len()
        );
        for (i, s) in between.iter().chain(&inside).enumerate() {
            let what = format!("{what}, position {i}: {}", e.position_rows(s));
            let v = plain_value(&e, s);
            let mut table = Table::new(1 << 20);
            let exact = e.runner_value(s, &mut table, Whole(Aim::Value)).unwrap();
            assert_eq!(exact, Some(v), "{what}");
            let outcome = e.runner_value(s, &mut Table::new(1 << 20), Whole(Aim::Outcome));
            let outcome = outcome.unwrap().expect("the runner's solver takes it");
            assert_eq!(read_value(outcome).0, read_value(v).0, "{what}: {outcome}");
            // Windows at, around, above and below the value, asked of one table.
            for window in [
                (next_down(v), v),
                (v, next_up(v)),
                (v - 3.0, v + 3.0),
                (v + 1.0, v + 4.0),
                (v - 4.0, v - 1.0),
            ] {
                let got = e.runner_value(s, &mut table, Within(window.0, window.1));
                assert_within_window(v, got.unwrap().unwrap(), window, &what);
            }
            let solution = outflank::apps::solve::solve(&e, s, 1 << 24).unwrap();
            let end = solution.end.outcome.unwrap().value_for(s.mover);
            assert_eq!(end, v, "{what}: the line's end");
        }
    }
}

#[test]
fn the_whole_turns_of_verto_4x4_solve_from_the_start_as_the_step_by_step_search() {
    use outflank::agents::search::Search;
    use outflank::engine::solving::search::Table;
    // From the empty board every position a symmetry maps onto itself is met at the top of
    // the tree, where the solver leaves out the turns that begin on a cell mapped to an
    // earlier one; the step-by-step search has no symmetry and no whole turns.
    let e = engine("games/verto-8x8.rules", &[("size", "4")]);
    let s = e.start().unwrap();
    let whole = e.runner_value(&s, &mut Table::new(1 << 24), Whole(Aim::Value));
    let mut search = Search::new(
        |e, s, p| Ok(outflank::agents::score_margin(e, s, p)),
        1 << 24,
    );
    search.search_for(&e, s.mover);
    let by_steps = search.exact_value(&e, &s, Aim::Value).unwrap();
    assert_eq!(whole.unwrap(), Some(by_steps));
    // Dark, the second player, wins by two (docs/SOLVED.md).
    assert_eq!(by_steps, -1_000_002.0);
}
