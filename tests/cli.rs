//! The command-line contract, through the built binary.

use crate::common;

use crate::common::run::{json, outflank, stderr, stdout};
use serde_json::Value;

#[test]
fn check_accepts_every_game_and_rejects_broken_files() {
    let games: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/games"))
        .unwrap()
        .map(|e| format!("games/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    let args: Vec<&str> = std::iter::once("check")
        .chain(games.iter().map(String::as_str))
        .collect();
    let o = outflank(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o)
            .lines()
            .filter(|l| l.ends_with(")") && l.contains(": ok ("))
            .count(),
        games.len()
    );

    let o = outflank(&[
        "check",
        "games/othello.rules",
        "tests/fixtures/invalid/unknown-name-typo.rules",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("unknown name `emtpy`"), "{err}");
    assert!(
        err.contains("unknown-name-typo.rules:5:15"),
        "file, line and column: {err}"
    );
    assert!(err.contains("help:"), "{err}");
    assert!(
        stdout(&o).contains("games/othello.rules: ok"),
        "valid files are still reported"
    );
}

#[test]
fn moves_json_has_the_documented_shape() {
    let v = json(&outflank(&["moves", "games/othello.rules", "--json"]));
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["over"], false);
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["board"][3], "...WB...");
    assert_eq!(v["board"][4], "...BW...");
    let moves = v["moves"].as_array().unwrap();
    let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    // d3 flips d4: the board after it, and white to move.
    assert_eq!(moves[0]["board"][2], "...B....");
    assert_eq!(moves[0]["board"][3], "...BB...");
    assert_eq!(moves[0]["to_move"], "white");
}

#[test]
fn moves_json_reports_a_finished_game() {
    // The shortest Othello game: nine moves, black wipes out white.
    let v = json(&outflank(&[
        "moves",
        "games/othello.rules",
        "--json",
        "--moves",
        "e6 f4 e3 f6 g5 d6 e7 f5 c5",
    ]));
    assert_eq!(v["over"], true);
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
    assert_eq!(v["result"]["winner"], "black");
    assert_eq!(v["result"]["scores"]["black"], 13);
    assert_eq!(v["result"]["scores"]["white"], 0);
}

#[test]
fn an_illegal_move_names_the_move_and_its_position() {
    let o = outflank(&["moves", "games/othello.rules", "--moves", "d3 c3 a1"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("move 3 `a1` is not legal"), "{err}");
    assert!(err.contains("legal here:"), "{err}");
}

#[test]
fn set_changes_parameters_and_reports_the_range() {
    let v = json(&outflank(&[
        "moves",
        "games/othello.rules",
        "--set",
        "size=6",
        "--json",
    ]));
    assert_eq!(v["board"].as_array().unwrap().len(), 6);
    let o = outflank(&["moves", "games/othello.rules", "--set", "size=30"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("4 to 26 step 2"), "names the range: {err}");
    let o = outflank(&["moves", "games/othello.rules", "--set", "colour=red"]);
    assert!(stderr(&o).contains("no parameter named `colour`; the parameters are size"));
    let o = outflank(&["moves", "games/othello.rules", "--set", "size"]);
    assert!(stderr(&o).contains("write NAME=VALUE"));
}

#[test]
fn steps_and_limit_for_multi_step_turns() {
    let file = "tests/fixtures/valid/jump-chain.rules";
    let v = json(&outflank(&[
        "moves", file, "--json", "--moves", "c3xb4", "--steps",
    ]));
    let names: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["-a1", "-e1", "-e5"]);
    assert!(v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["to_move"] == "dark"));
    // A mid-turn history lists the ways to finish the turn.
    let v = json(&outflank(&["moves", file, "--json", "--moves", "c3"]));
    let names: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["c3xb4-a1", "c3xb4-e1", "c3xb4-e5"]);
    // More whole turns than the limit: the first ones, in listing order, and a note that
    // more exist (the full list has 22: three chains and 19 plain entries).
    let all = json(&outflank(&["moves", file, "--json"]));
    let all: Vec<&str> = all["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(all.len(), 22);
    let o = outflank(&["moves", file, "--limit", "5"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let line = text.lines().last().unwrap();
    assert_eq!(
        line,
        format!(
            "the first 5 legal moves (more beyond --limit 5; --steps lists the next step's \
             choices): {}",
            all[..5].join(" ")
        )
    );
    let v = json(&outflank(&["moves", file, "--json", "--limit", "5"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 5);
    assert_eq!(v["more"], true);
    // Exactly as many as the limit: nothing is left out, and nothing says so.
    let v = json(&outflank(&["moves", file, "--json", "--limit", "22"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 22);
    assert!(v.get("more").is_none());
}

#[test]
fn move_notation_round_trips_through_the_command_line() {
    let file = "tests/fixtures/valid/jump-chain.rules";
    let v = json(&outflank(&["moves", file, "--json"]));
    for m in v["moves"].as_array().unwrap() {
        let notation = m["move"].as_str().unwrap();
        let after = json(&outflank(&["moves", file, "--json", "--moves", notation]));
        assert_eq!(after["board"], m["board"], "{notation}");
        assert_eq!(after["to_move"], m["to_move"], "{notation}");
    }
}

#[test]
fn perft_json_and_divide() {
    let v = json(&outflank(&[
        "perft",
        "games/othello.rules",
        "--depth",
        "6",
        "--json",
    ]));
    assert_eq!(v["depth"], 6);
    assert_eq!(v["leaves"], 8200);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    let o = outflank(&["perft", "games/othello.rules", "--depth", "3", "--divide"]);
    let text = stdout(&o);
    assert!(
        text.contains("d3: 14\n") && text.contains("e6: 14\n"),
        "{text}"
    );
    assert!(text.contains("perft 3: 56 leaves"), "{text}");
    assert!(text.contains("leaves/s"), "{text}");
}

#[test]
fn run_is_reproducible_from_its_seed() {
    let a = stdout(&outflank(&[
        "run",
        "games/reversi-6x6.rules",
        "--games",
        "5",
        "--seed",
        "42",
    ]));
    let b = stdout(&outflank(&[
        "run",
        "games/reversi-6x6.rules",
        "--games",
        "5",
        "--seed",
        "42",
    ]));
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("games/s"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
    assert!(a.contains("games/s"), "{a}");
    assert_eq!(a.lines().filter(|l| l.starts_with("game ")).count(), 5);
    let c = stdout(&outflank(&[
        "run",
        "games/reversi-6x6.rules",
        "--games",
        "5",
        "--seed",
        "43",
    ]));
    assert_ne!(strip(&a), strip(&c), "another seed, other games");
}

#[test]
fn trace_of_a_seeded_game() {
    let o = outflank(&["trace", "games/reversi-6x6.rules", "--seed", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // Independent facts first: four opening placements in the centre, then a result line.
    let plays: Vec<&str> = text.lines().filter(|l| l.contains(" plays ")).collect();
    for p in &plays[..4] {
        let cell = p.rsplit(' ').next().unwrap();
        assert!(
            ["c3", "d3", "c4", "d4"].contains(&cell),
            "opening placement {cell}"
        );
    }
    assert!(text.lines().last().unwrap().starts_with("result: "));
    insta::assert_snapshot!(text);
    // Without --seed, seed 1, as `run` and `play` default to, and the help says so.
    let seed_1 = stdout(&outflank(&[
        "trace",
        "games/reversi-6x6.rules",
        "--seed",
        "1",
    ]));
    let unseeded = stdout(&outflank(&["trace", "games/reversi-6x6.rules"]));
    assert!(unseeded.contains("\nseed: 1\n"), "{unseeded}");
    assert_eq!(unseeded, seed_1);
    for command in ["trace", "run", "play"] {
        let help = stdout(&outflank(&[command, "--help"]));
        let seed = help
            .lines()
            .find(|l| l.trim_start().starts_with("--seed"))
            .unwrap();
        assert!(seed.contains("[default: 1]"), "{command}: {seed}");
    }
}

#[test]
fn trace_of_given_moves_stops_where_they_end() {
    let o = outflank(&["trace", "games/othello.rules", "--moves", "f5 d6 c3"]);
    let text = stdout(&o);
    assert!(
        text.contains("black plays f5")
            && text.contains("white plays d6")
            && text.contains("black plays c3")
    );
    assert!(
        text.trim_end()
            .ends_with("white to move; the given moves end here"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn a_rule_that_fails_while_running_points_at_itself() {
    let o = outflank(&[
        "moves",
        "tests/fixtures/valid/place-twice.rules",
        "--moves",
        "a1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("rule error: place on a1, which is not empty"),
        "{err}"
    );
    assert!(
        err.contains("place-twice.rules:8:5"),
        "points at the second place: {err}"
    );
    assert!(
        !err.contains("is not legal"),
        "not reported as the user's mistake: {err}"
    );
}

#[test]
fn counters_are_printed_and_reported_per_player() {
    let file = "tests/fixtures/valid/supply.rules";
    let v = json(&outflank(&["moves", file, "--json"]));
    assert_eq!(v["extra"]["supply"]["black"], 4);
    assert_eq!(v["extra"]["taken"]["white"], 0);
    let moves = v["moves"].as_array().unwrap();
    let c2 = moves.iter().find(|m| m["move"] == "c2").unwrap();
    assert_eq!(c2["extra"]["supply"]["black"], 3);
    assert_eq!(c2["extra"]["taken"]["black"], 1);
    // The text output names each counter with both players' values.
    let text = stdout(&outflank(&["moves", file]));
    assert!(text.contains("supply: black 4, white 4\n"), "{text}");
    // `explain` says what a move changes beyond the board: c2 spends a disc and takes c3.
    let text = stdout(&outflank(&["explain", file, "c2"]));
    assert!(
        text.contains("it places c2; flips c3; changes black's supply from 4 to 3; changes black's taken from 0 to 1"),
        "{text}"
    );
    let text = stdout(&outflank(&[
        "explain",
        "games/reversi-go-9x9.rules",
        "button",
    ]));
    assert!(text.contains("it gives button to black"), "{text}");
}

#[test]
fn json_reports_extra_state_and_half_point_scores() {
    let file = "games/reversi-go-9x9.rules";
    let v = json(&outflank(&["moves", file, "--json"]));
    assert_eq!(v["extra"]["button"], Value::Null);
    let moves = v["moves"].as_array().unwrap();
    let button = moves.iter().find(|m| m["move"] == "button").unwrap();
    let pass = moves.iter().find(|m| m["move"] == "pass").unwrap();
    // Same board, told apart by the extra state.
    assert_eq!(button["board"], pass["board"]);
    assert_eq!(button["extra"]["button"], "black");
    assert_eq!(pass["extra"]["button"], Value::Null);

    let v = json(&outflank(&[
        "moves",
        file,
        "--json",
        "--moves",
        "e5 button pass pass",
    ]));
    assert_eq!(v["over"], true);
    // Black: 1 stone + 80 territory. White: the button's half point + komi 7.
    assert_eq!(v["result"]["scores"]["black"], 81);
    assert_eq!(v["result"]["scores"]["white"], 7.5);
    assert_eq!(v["result"]["winner"], "black");
}

fn temp(name: &str) -> String {
    common::run::temp("cli", name)
}

#[test]
fn run_with_agents_gives_the_same_games_whatever_the_jobs() {
    let (a, b) = (temp("jobs1.jsonl"), temp("jobs2.jsonl"));
    for (jobs, path) in [("1", &a), ("2", &b)] {
        let _ = std::fs::remove_file(path);
        let o = outflank(&[
            "run",
            "games/reversi-6x6.rules",
            "--games",
            "6",
            "--seed",
            "4",
            "--agents",
            "greedy,random",
            "--swap",
            "--jobs",
            jobs,
            "--record",
            path,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let (a, b) = (
        std::fs::read_to_string(&a).unwrap(),
        std::fs::read_to_string(&b).unwrap(),
    );
    assert_eq!(a.lines().count(), 6);
    assert_eq!(a, b);
}

#[test]
fn run_json_summary() {
    let v = json(&outflank(&[
        "run",
        "games/othello.rules",
        "--set",
        "size=6",
        "--games",
        "10",
        "--agents",
        "greedy,random",
        "--json",
    ]));
    assert_eq!(v["games"], 10);
    let wins =
        v["wins"]["black"]["wins"].as_u64().unwrap() + v["wins"]["white"]["wins"].as_u64().unwrap();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 10);
    let ci = v["wins"]["black"]["ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= v["wins"]["black"]["rate"].as_f64().unwrap());
    assert!(v["length"]["min"].as_u64().unwrap() <= v["length"]["max"].as_u64().unwrap());
    assert!(v["branching"].as_f64().unwrap() > 1.0);
    assert!(v["games_per_second"].as_f64().unwrap() > 0.0);
    let o = outflank(&["run", "games/othello.rules", "--agents", "mcts,wizard"]);
    assert!(
        stderr(&o).contains("unknown player `wizard`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn replay_checks_records_precisely() {
    let path = temp("replay.jsonl");
    let _ = std::fs::remove_file(&path);
    let o = outflank(&[
        "run",
        "games/verto-8x8.rules",
        "--games",
        "2",
        "--agents",
        "random,greedy",
        "--record",
        &path,
    ]);
    assert!(o.status.success());
    let o = outflank(&["replay", "games/verto-8x8.rules", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(":2: "), "both records replayed");

    let text = std::fs::read_to_string(&path).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let write = |name: &str, v: &Value| {
        let p = temp(name);
        std::fs::write(&p, serde_json::to_string(v).unwrap()).unwrap();
        p
    };
    // A move changed to one that is not legal there.
    let mut bad = first.clone();
    bad["moves"][3] = Value::from("a1");
    let o = outflank(&[
        "replay",
        "games/verto-8x8.rules",
        &write("bad-move.json", &bad),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("move 4 `a1` does not replay"),
        "{}",
        stderr(&o)
    );
    // A result that the moves do not lead to.
    let mut bad = first.clone();
    bad["result"]["winner"] = Value::from(if first["result"]["winner"] == "light" {
        "dark"
    } else {
        "light"
    });
    let o = outflank(&[
        "replay",
        "games/verto-8x8.rules",
        &write("bad-result.json", &bad),
    ]);
    assert!(
        stderr(&o).contains("the record says") && stderr(&o).contains("but the replay ends with"),
        "{}",
        stderr(&o)
    );
    // Other rules: the hash differs.
    let o = outflank(&[
        "replay",
        "games/verto-9x9.rules",
        &write("good.json", &first),
    ]);
    assert!(
        stderr(&o).contains("the record was made with other rules"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn commands_that_run_a_game_sum_up_its_warnings_in_one_line() {
    // Corner Lock warns on purpose (its target cannot be reached without corners).
    let file = "games/vect-reverse-corner-lock.rules";
    let o = outflank(&["moves", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).trim(),
        format!("note: {file} has a warning about its rules; `outflank check {file}` shows it")
    );
    // In full where the designer looks at the rules, and where `check` cannot repeat them.
    for args in [
        vec!["check", file],
        vec!["test", file],
        vec!["moves", file, "--set", "chains=true"],
    ] {
        let o = outflank(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("this end condition can never hold"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}
