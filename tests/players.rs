//! Computer players: small, seeded versions of the strength measurements, and self-play that
//! does not depend on the number of threads.

use crate::common;
use crate::common::engine;
use outflank::agents::{Agent, AlphaBeta};
use outflank::apps::selfplay::{play_games, Match};
use outflank::engine::state::State;

fn score(file: &str, set: &[(&str, &str)], a: &str, b: &str, games: u64) -> (u64, u64) {
    let e = engine(file, set);
    let start = e.start().unwrap();
    let m = Match {
        agents: vec![a.into(), b.into()],
        swap: true,
        notation: true,
    };
    let results = play_games(&e, &start, &m, 5, games, 2, &|_| {}).unwrap();
    let wins_a = results
        .iter()
        .filter(|r| (r.outcome.winner as usize) < 2 && r.agents[r.outcome.winner as usize] == a)
        .count();
    (wins_a as u64, games)
}

#[test]
fn mcts_beats_random() {
    for (file, set) in [
        ("games/othello.rules", &[("size", "6")][..]),
        ("games/verto-8x8.rules", &[("size", "6")][..]),
        // Groups, trials and a score with komi.
        ("games/reversi-go-9x9.rules", &[][..]),
    ] {
        let (wins, n) = score(file, set, "mcts:300", "random", 10);
        assert!(wins >= 9, "{file}: mcts won {wins} of {n}");
    }
}

#[test]
fn alphabeta_beats_greedy() {
    let (wins, n) = score(
        "games/othello.rules",
        &[("size", "6")],
        "alphabeta:3",
        "greedy",
        12,
    );
    assert!(wins >= 9, "alphabeta won {wins} of {n}");
}

#[test]
fn alphabeta_plays_for_the_tie_breaks_where_they_decide() {
    // Corner Lock has no corners, so the score is at most 1 and the tie-break (cells in the
    // centre area) decides most games: an evaluation without it plays nearly blind.
    let (wins, n) = score(
        "games/vect-reverse-corner-lock.rules",
        &[],
        "alphabeta:3",
        "greedy",
        16,
    );
    assert!(wins >= 14, "alphabeta won {wins} of {n}");
}

#[test]
fn alphabeta_puts_the_score_before_the_tie_breaks() {
    // In VECT-REVERSE the score (corners held, 0 to 4) is small beside the tie-breaks (cells
    // held) and the mobility: a search that adds them up gives corners away for cells, and
    // greedy, which looks at the score alone, wins a third of the games against it.
    let (wins, n) = score("games/vect-reverse.rules", &[], "alphabeta:3", "greedy", 24);
    assert!(wins >= 18, "alphabeta won {wins} of {n}");
}

#[test]
fn greedy_beats_random_at_scoring_games() {
    let (wins, n) = score("games/reversi-go-9x9.rules", &[], "greedy", "random", 10);
    assert!(wins >= 8, "greedy won {wins} of {n}");
}

#[test]
fn self_play_does_not_depend_on_the_number_of_threads() {
    let e = engine("games/vect-reverse.rules", &[]);
    let start = e.start().unwrap();
    let m = Match {
        agents: vec!["greedy".into(), "random".into()],
        swap: true,
        notation: true,
    };
    let one = play_games(&e, &start, &m, 9, 8, 1, &|_| {}).unwrap();
    let two = play_games(&e, &start, &m, 9, 8, 2, &|_| {}).unwrap();
    let moves = |r: &Vec<outflank::apps::selfplay::GameResult>| {
        r.iter().map(|g| g.moves.clone()).collect::<Vec<_>>()
    };
    assert_eq!(moves(&one), moves(&two));
    assert_ne!(one[0].moves, one[1].moves, "games differ from each other");
}

#[test]
fn every_agent_plays_every_game_to_the_end() {
    for file in common::game_files() {
        // Small budgets: this checks that they work everywhere, not how well.
        let set: &[(&str, &str)] = if file.contains("reversi-go") {
            &[("size", "9")]
        } else {
            &[]
        };
        let e = engine(&file, set);
        let start = e.start().unwrap();
        let players = e.game.players.len();
        for pair in [["greedy", "mcts:8"], ["alphabeta:1", "random"]] {
            let m = Match {
                // The pair in turn, to every seat.
                agents: (0..players).map(|p| pair[p % 2].into()).collect(),
                swap: false,
                notation: true,
            };
            let r = play_games(&e, &start, &m, 1, 1, 1, &|_| {}).unwrap();
            assert!(r[0].final_state.is_over(), "{file} {pair:?}");
        }
    }
}

/// The step alphabeta at `depth` with `seed` chooses at `s`, in notation, and the positions it
/// searched to choose it.
fn alphabeta_choice(
    e: &outflank::engine::Engine,
    s: &State,
    depth: u32,
    seed: u64,
) -> (String, u64) {
    let mut legal = Vec::new();
    e.steps(s, &mut legal).unwrap();
    let mut player = AlphaBeta::new(seed, depth, Some(0));
    let step = player.choose(e, s, &legal).unwrap();
    (e.step_notation(s, step), player.nodes())
}

#[test]
fn alphabeta_takes_the_one_best_step_whatever_its_seed() {
    // The rule text's example: b2 fills the last liberty of three black stones and flips them.
    // Searched one or two steps deep, every other step is worse (three steps deep, b3 ties
    // it), and a later step that reports the best value only as its bound must not be taken
    // for it.
    let e = engine("games/reversi-go-9x9.rules", &[]);
    let s = e
        .position(
            "BBW....../B......../W......../........./........./........./........./........./.........",
            Some("white"),
        )
        .unwrap();
    for depth in 1..=2 {
        for seed in 0..8 {
            assert_eq!(
                alphabeta_choice(&e, &s, depth, seed).0,
                "b2",
                "depth {depth}, seed {seed}"
            );
        }
    }
}

#[test]
fn alphabeta_breaks_ties_by_its_seed() {
    // On the empty board every placement is worth the same two steps ahead.
    let e = engine("games/reversi-go-9x9.rules", &[]);
    let s = e.start().unwrap();
    let picks: std::collections::BTreeSet<String> = (0..10)
        .map(|seed| alphabeta_choice(&e, &s, 2, seed).0)
        .collect();
    assert!(picks.len() >= 5, "ten seeds chose only {picks:?}");
    assert_eq!(
        alphabeta_choice(&e, &s, 2, 3),
        alphabeta_choice(&e, &s, 2, 3)
    );
}

#[test]
fn alphabeta_searches_few_positions_where_hundreds_of_steps_tie() {
    // The empty 19 x 19 board: 362 steps, nearly all worth the same. Proving each tie, or
    // ordering the replies badly, searches hundreds of times more positions than this.
    let e = engine("games/reversi-go-19x19.rules", &[]);
    let s = e.start().unwrap();
    let (_, nodes) = alphabeta_choice(&e, &s, 3, 1);
    assert!(nodes < 200_000, "{nodes} positions");
}

#[test]
fn random_games_without_notation_are_the_games_played_step_by_step() {
    // Without notation, two random players play on the runner's own state; with it, through
    // the engine's legal-step lists and the random agent. One seed must give one game either
    // way: the same final position, turns, steps and choices counted.
    use common::game_files;
    for file in game_files() {
        let e = engine(&file, &[]);
        let start = e.start().unwrap();
        let with = |notation| Match {
            agents: vec!["random".into(); e.game.players.len()],
            swap: false,
            notation,
        };
        let slow = play_games(&e, &start, &with(true), 11, 6, 1, &|_| {}).unwrap();
        let fast = play_games(&e, &start, &with(false), 11, 6, 2, &|_| {}).unwrap();
        for (a, b) in slow.iter().zip(&fast) {
            let what = format!("{file}, game {}", a.index);
            assert_eq!(a.final_state.pieces, b.final_state.pieces, "{what}");
            assert_eq!(a.outcome, b.outcome, "{what}");
            assert_eq!(
                (a.turns, a.steps, a.decisions, a.options),
                (b.turns, b.steps, b.decisions, b.options),
                "{what}"
            );
            assert_eq!(a.moves.len() as u64, a.turns, "{what}");
            assert!(b.moves.is_empty(), "{what}");
        }
        assert_eq!(slow.len(), 6);
        assert_eq!(fast.len(), 6);
    }
}

#[test]
fn swapped_seats_give_every_agent_every_seat() {
    let m = Match {
        agents: vec!["a".into(), "b".into(), "c".into()],
        swap: true,
        notation: false,
    };
    let seatings: Vec<Vec<String>> = (0..3).map(|i| m.seating(i)).collect();
    assert_eq!(seatings[0], ["a", "b", "c"]);
    for seat in 0..3 {
        let mut sat: Vec<&str> = seatings.iter().map(|s| s[seat].as_str()).collect();
        sat.sort();
        assert_eq!(sat, ["a", "b", "c"], "seat {seat}");
    }
    // Game 3 starts the round again; with two players, the swap of every other game.
    assert_eq!(m.seating(3), m.seating(0));
    let two = Match {
        agents: vec!["x".into(), "y".into()],
        ..m
    };
    assert_eq!(two.seating(1), ["y", "x"]);
    assert_eq!(two.seating(2), ["x", "y"]);
}

/// From `EXACT_EMPTIES` empty cells on, alphabeta plays a best step: one after which the
/// solver finds the position worth what it was worth before (positions reached by random
/// play on 6x6 Othello, where a depth of one alone often misses it).
#[test]
fn alphabeta_plays_the_endgame_exactly() {
    use outflank::agents::EXACT_EMPTIES;
    use outflank::apps::solve::solve;
    let e = engine("games/othello.rules", &[("size", "6")]);
    let worth = |s: &State, p: u8| -> f64 {
        if let Some(o) = s.outcome {
            return o.value_for(p);
        }
        solve(&e, s, 1 << 24)
            .unwrap()
            .end
            .outcome
            .unwrap()
            .value_for(p)
    };
    let (mut exact, mut shallow_missed) = (0, 0);
    for seed in 0..12 {
        let mut rng = outflank::engine::rng::Rng::new(seed);
        let mut s = e.start().unwrap();
        let empties = |s: &State| (0..36).filter(|&c| s.owner(c).is_none()).count() as u32;
        while !s.is_over() && empties(&s) > EXACT_EMPTIES - 2 {
            let step = e.random_step(&s, &mut rng).unwrap().unwrap();
            s = e.apply(&s, step).unwrap();
        }
        if s.is_over() {
            continue;
        }
        let mut legal = Vec::new();
        e.steps(&s, &mut legal).unwrap();
        if legal.len() < 2 {
            continue;
        }
        let best = worth(&s, s.mover);
        for (exact_from, must_be_best) in [(EXACT_EMPTIES, true), (0, false)] {
            let mut player = AlphaBeta::new(seed, 1, Some(exact_from));
            let step = player.choose(&e, &s, &legal).unwrap();
            let after = worth(&e.apply(&s, step).unwrap(), s.mover);
            if must_be_best {
                assert_eq!(after, best, "seed {seed}");
                exact += 1;
            } else if after < best {
                shallow_missed += 1;
            }
        }
    }
    assert!(exact >= 8, "{exact}");
    // The comparison means something: without the exact endgame depth one does miss.
    assert!(shallow_missed > 0);
}

/// The same in a game of several steps a turn, solved a step at a time: from
/// `EXACT_STEP_EMPTIES` empty cells on, alphabeta plays a best step of Verto, as a plain
/// negamax written here (every step, no pruning, no table) values them.
#[test]
fn alphabeta_plays_the_endgame_of_a_game_of_steps_exactly() {
    use outflank::agents::EXACT_STEP_EMPTIES;
    let e = engine("games/verto-8x8.rules", &[("size", "6")]);
    // The value of `s` for `p`: a win is worth more than any margin, as the outcome says.
    fn worth(e: &outflank::engine::Engine, s: &State, p: u8) -> f64 {
        if let Some(o) = s.outcome {
            return o.value_for(p);
        }
        let mut steps = Vec::new();
        e.steps(s, &mut steps).unwrap();
        let values = steps
            .iter()
            .map(|&st| worth(e, &e.apply(s, st).unwrap(), s.mover));
        let best = values.fold(f64::NEG_INFINITY, f64::max);
        if p == s.mover {
            best
        } else {
            -best
        }
    }
    let (mut exact, mut shallow_missed) = (0, 0);
    for seed in 0..10 {
        let mut rng = outflank::engine::rng::Rng::new(seed);
        let mut s = e.start().unwrap();
        let empties = |s: &State| (0..36).filter(|&c| s.owner(c).is_none()).count() as u32;
        // A turn's first step, with a few cells fewer than the player solves from.
        while !s.is_over() && (s.steps > 0 || empties(&s) > EXACT_STEP_EMPTIES - 1) {
            let step = e.random_step(&s, &mut rng).unwrap().unwrap();
            s = e.apply(&s, step).unwrap();
        }
        if s.is_over() {
            continue;
        }
        let mut legal = Vec::new();
        e.steps(&s, &mut legal).unwrap();
        if legal.len() < 2 {
            continue;
        }
        let best = worth(&e, &s, s.mover);
        for (exact_from, must_be_best) in [(None, true), (Some(0), false)] {
            let mut player = AlphaBeta::new(seed, 1, exact_from);
            let step = player.choose(&e, &s, &legal).unwrap();
            let after = worth(&e, &e.apply(&s, step).unwrap(), s.mover);
            if must_be_best {
                assert_eq!(after, best, "seed {seed}");
                exact += 1;
            } else if after < best {
                shallow_missed += 1;
            }
        }
    }
    assert!(exact >= 6, "{exact}");
    assert!(shallow_missed > 0);
}

/// A watched choice is the unwatched one, and the watcher hears the best step so far: from
/// alphabeta at every depth, in order, the last report at its full depth naming the step it
/// plays; from mcts every 256 playouts, naming the root's most visited step.
#[test]
fn players_report_their_best_step_while_they_think() {
    use outflank::agents::{Basis, Budget, Mcts, Thought};
    let e = engine("games/othello.rules", &[("size", "6")]);
    // Past the symmetric opening, so that the steps differ in value.
    let mut s = e.start().unwrap();
    let mut legal = Vec::new();
    for _ in 0..5 {
        e.steps(&s, &mut legal).unwrap();
        s = e.apply(&s, legal[legal.len() / 2]).unwrap();
    }
    e.steps(&s, &mut legal).unwrap();
    assert!(legal.len() > 2, "a position with a choice");

    let mut heard: Vec<Thought> = Vec::new();
    let watched = AlphaBeta::new(7, 4, Some(0))
        .choose_watched(&e, &s, &legal, &mut |t| heard.push(t))
        .unwrap();
    let unwatched = AlphaBeta::new(7, 4, Some(0))
        .choose(&e, &s, &legal)
        .unwrap();
    assert_eq!(watched, unwatched);
    let depths: Vec<u32> = heard
        .iter()
        .map(|t| match t.basis {
            Basis::Depth { depth, .. } => depth,
            Basis::Playouts { .. } => panic!("alphabeta reports depths: {t:?}"),
        })
        .collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    for depth in 1..=4 {
        assert!(depths.contains(&depth), "depth {depth} in {depths:?}");
    }
    assert_eq!(heard.last().unwrap().step, watched);
    assert!(heard.iter().all(|t| legal.contains(&t.step)));

    let mut heard: Vec<Thought> = Vec::new();
    let watched = Mcts::new(3, Budget::Playouts(1000))
        .choose_watched(&e, &s, &legal, &mut |t| heard.push(t))
        .unwrap();
    let unwatched = Mcts::new(3, Budget::Playouts(1000))
        .choose(&e, &s, &legal)
        .unwrap();
    assert_eq!(watched, unwatched);
    let playouts: Vec<u64> = heard
        .iter()
        .map(|t| match t.basis {
            Basis::Playouts { playouts, reward } => {
                assert!((0.0..=1.0).contains(&reward), "{t:?}");
                playouts
            }
            Basis::Depth { .. } => panic!("mcts reports playouts: {t:?}"),
        })
        .collect();
    assert_eq!(playouts, [256, 512, 768]);
    assert!(heard.iter().all(|t| legal.contains(&t.step)));
}
