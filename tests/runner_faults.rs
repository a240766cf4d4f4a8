//! The runner's faults as the plain run reports them: rule errors where the rules cause them,
//! end checks it skips, loops and turns that never end, and counters.

use crate::common::{engine, engine_from};
use outflank::engine::rng::Rng;

use super::runner::{compare_perft, compare_playouts, oracle, summary};

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
