//! One binary, the processor's bit instructions on and forced off (`OUTFLANK_CPU=baseline`):
//! the same counts and the same games. CI also runs the whole suite a second time with the
//! switch set (.ci/run).

use crate::common::run::{stderr, stdout};
use outflank::board::cpu::{nth, ones};
use std::process::{Command, Output};

fn outflank_with(switch: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_outflank"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("OUTFLANK_CPU");
    if let Some(value) = switch {
        command.env("OUTFLANK_CPU", value);
    }
    command.output().unwrap()
}

fn json_of(switch: Option<&str>, args: &[&str]) -> serde_json::Value {
    let out = outflank_with(switch, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn the_chosen_instructions_count_and_find_cells_as_plain_loops_do() {
    // In this process the instructions are whatever the processor has (and the baseline in
    // CI's second run); each answer is held to a bit-by-bit loop of the test's own.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..5_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for w in [x, x & (x >> 3), x | (x << 5), !0, 0, 1 << (x % 64)] {
            let cells: Vec<usize> = (0..64).filter(|&i| w >> i & 1 == 1).collect();
            assert_eq!(ones(w) as usize, cells.len(), "{w:#x}");
            for (k, &cell) in cells.iter().enumerate() {
                assert_eq!(nth(w, k), cell, "{w:#x} {k}");
            }
        }
    }
}

#[test]
fn perft_counts_the_published_numbers_with_the_instructions_and_without() {
    // Othello from the start, 8 plies: 390,216 (the published count); Verto on 8x8 and Reversi
    // Go on 19x19 (six-word sets) against each other, as no count is published for them.
    let cases: [(&[&str], Option<u64>); 3] = [
        (
            &["perft", "games/othello.rules", "--depth", "8", "--json"],
            Some(390_216),
        ),
        (
            &["perft", "games/verto-8x8.rules", "--depth", "3", "--json"],
            None,
        ),
        (
            &[
                "perft",
                "games/reversi-go-19x19.rules",
                "--depth",
                "2",
                "--json",
            ],
            None,
        ),
    ];
    for (args, published) in cases {
        let fast = json_of(None, args)["leaves"].as_u64().unwrap();
        let baseline = json_of(Some("baseline"), args)["leaves"].as_u64().unwrap();
        assert_eq!(fast, baseline, "{args:?}");
        if let Some(n) = published {
            assert_eq!(fast, n, "{args:?}");
        }
    }
}

#[test]
fn random_games_draw_the_same_cells_with_the_instructions_and_without() {
    // Random players draw the k-th legal cell: `pdep` where the processor has it, a loop of
    // clearings elsewhere. The same seed must give the same games, move for move.
    for game in ["games/othello.rules", "games/reversi-go-13x13.rules"] {
        let record = |switch: Option<&str>, name: &str| {
            // A record grows by the games it is given, so each run starts a file of its own.
            let stem = game.trim_start_matches("games/").trim_end_matches(".rules");
            let path = crate::common::run::temp("instructions", &format!("{stem}-{name}"));
            let _ = std::fs::remove_file(&path);
            let args = [
                "run", game, "--games", "6", "--seed", "11", "--record", &path,
            ];
            let out = outflank_with(switch, &args);
            assert!(out.status.success(), "{}", stderr(&out));
            std::fs::read_to_string(&path).unwrap()
        };
        let fast = record(None, "fast.jsonl");
        let baseline = record(Some("baseline"), "baseline.jsonl");
        assert_eq!(fast.lines().count(), 6, "{game}");
        assert_eq!(fast, baseline, "{game}");
    }
}

#[test]
fn bench_names_the_instructions_it_ran_with() {
    let args = [
        "bench",
        "games/othello.rules",
        "--seconds",
        "0.05",
        "--json",
    ];
    let fast = json_of(None, &args)["instructions"]
        .as_str()
        .unwrap()
        .to_owned();
    let baseline = json_of(Some("baseline"), &args)["instructions"]
        .as_str()
        .unwrap()
        .to_owned();
    if outflank::board::cpu::chosen_at_run_time() {
        assert!(baseline.starts_with("baseline"), "{baseline}");
        assert!(baseline.contains("OUTFLANK_CPU=baseline"), "{baseline}");
        // The machines this runs on have had popcnt for fifteen years.
        assert!(fast.starts_with("popcnt"), "{fast}");
        assert!(fast.contains("run time"), "{fast}");
    } else {
        assert!(fast.contains("when compiling"), "{fast}");
        assert!(baseline.contains("cannot change"), "{baseline}");
    }
}

#[test]
fn a_misspelt_switch_is_an_error_not_ignored() {
    let out = outflank_with(Some("basline"), &["info", "games/othello.rules"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("OUTFLANK_CPU=\"basline\"") && err.contains("OUTFLANK_CPU=baseline"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
    // The switch's own values pass, and empty is unset.
    for value in ["baseline", "auto", ""] {
        let out = outflank_with(Some(value), &["info", "games/othello.rules"]);
        assert!(out.status.success(), "{value}: {}", stderr(&out));
    }
}
