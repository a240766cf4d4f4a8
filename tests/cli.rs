//! The command-line contract, through the built binary.

use crate::common;

use crate::common::run::{outflank, outflank_with_input, stderr, stdout};
use serde_json::Value;
use std::process::Output;

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

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
fn solve_small_othello() {
    // Othello on 4x4 with best play: the second player wins, 11 to 3.
    let o = outflank(&["solve", "games/othello.rules", "--set", "size=4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("with best play: black 3, white 11: white wins"),
        "{}",
        stdout(&o)
    );
    let v = json(&outflank(&[
        "solve",
        "games/othello.rules",
        "--set",
        "size=4",
        "--json",
    ]));
    assert_eq!(v["result"]["winner"], "white");
    // The best line replays to that result.
    let line = line_of(&v);
    let end = json(&outflank(&[
        "moves",
        "games/othello.rules",
        "--set",
        "size=4",
        "--json",
        "--moves",
        &line.join(" "),
    ]));
    assert_eq!(end["result"]["scores"]["white"], 11);
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

/// Joel Feinstein's 1993 line of perfect play on the 6x6 board, turned into our coordinates
/// (his board was the middle of an 8x8 one); the pass is Black's, at move 31.
const FEINSTEIN_6X6: &str = "c2 b4 c5 d2 e4 e3 d1 c1 b1 d5 d6 f4 b3 b2 f3 f2 e2 b6 a4 c6 \
                             a6 a2 b5 a5 e6 e5 a3 a1 f5 f6 pass e1 f1";

/// The two lines of perfect play for Anti-Othello 6x6 that F. Pittner published with his
/// program Tothello (2006): Black wins by two discs either way. Tothello's notation leaves
/// out passes; the second line's White passes before Black's last move.
const TOTHELLO_ANTI_6X6: [&str; 2] = [
    "c2 b4 d5 e2 e3 c1 b1 e4 d1 d2 f2 e1 f3 f4 b3 d6 a5 a4 a3 a2 b5 b2 e6 c5 c6 f1 f5 e5 f6 \
     b6 a6 a1",
    "c2 d2 e4 d5 e3 f3 f4 f5 e1 b3 b2 e5 c5 b4 a4 d6 a5 b1 d1 c1 e2 a2 b5 a3 c6 b6 e6 f2 f1 \
     f6 a1 pass a6",
];

/// `outflank COMMAND games/RULES.rules --set size=6 --moves MOVES EXTRA...`.
/// The moves of a solve's best line, from its JSON.
fn line_of(v: &serde_json::Value) -> Vec<&str> {
    v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect()
}

fn on_6x6(rules: &str, command: &str, moves: &str, extra: &[&str]) -> std::process::Output {
    let file = format!("games/{rules}.rules");
    let mut args = vec![command, &file, "--set", "size=6", "--moves", moves];
    args.extend_from_slice(extra);
    outflank(&args)
}

/// Checks a published line of perfect play on the 6x6 board of `rules`: played out, it ends
/// in `ending`; solved from 20 empty cells along it (its first 12 moves), the value for Black
/// is `value`, and the line the solver finds ends in `ending` too. Returns the solve's JSON.
fn solves_along(rules: &str, published: &str, value: f64, ending: &str) -> serde_json::Value {
    let end = on_6x6(rules, "moves", published, &[]);
    assert!(stdout(&end).contains(ending), "{}", stdout(&end));
    let first: Vec<&str> = published.split_whitespace().take(12).collect();
    let first = first.join(" ");
    let v = json(&on_6x6(rules, "solve", &first, &["--json", "--jobs", "1"]));
    assert_eq!(v["value"], value, "{v}");
    assert_eq!(v["value_for"], "black", "{v}");
    let line = line_of(&v);
    // The best line ends the game: 20 empty cells, and the passes it holds.
    assert!(line.len() >= 20, "{line:?}");
    let all = format!("{first} {}", line.join(" "));
    let end = on_6x6(rules, "moves", &all, &[]);
    assert!(stdout(&end).contains(ending), "{all}: {}", stdout(&end));
    v
}

#[test]
fn solve_6x6_othello_along_the_published_line() {
    // The published result: White wins 20-16, so Black loses by four (the whole board:
    // docs/SOLVED.md).
    let ending = "game over: black 16, white 20: white wins";
    let v = solves_along("othello", FEINSTEIN_6X6, -1e6 - 4.0, ending);
    assert_eq!(v["result"]["scores"]["white"], 20, "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0, "{v}");
    // The solve's own words, without --json.
    let first: Vec<&str> = FEINSTEIN_6X6.split_whitespace().take(12).collect();
    let o = on_6x6("othello", "solve", &first.join(" "), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("with best play: black 16, white 20: white wins"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn solve_6x6_anti_othello_along_the_published_lines() {
    // Tothello's result: Black wins 17-19 along both lines (fewer discs win), by two (the
    // whole board, 17 minutes in a release build, finds it too: docs/SOLVED.md).
    for published in TOTHELLO_ANTI_6X6 {
        let ending = "game over: black -17, white -19: black wins";
        let v = solves_along("anti-othello", published, 1e6 + 2.0, ending);
        assert_eq!(v["result"]["scores"]["black"], -17, "{v}");
    }
}

#[test]
fn the_best_lines_in_the_solved_games_end_as_it_says() {
    // docs/SOLVED.md gives each whole board's line of best play, found by solves too long for
    // the tests: played out, each must end in the result the document states.
    let doc = include_str!("../docs/SOLVED.md");
    let lines = &doc[doc.find("Best lines, in the notation").unwrap()..];
    for (label, game, ending) in [
        (
            "Othello 6x6",
            &["games/othello.rules", "--set", "size=6"][..],
            "black 16, white 20: white wins",
        ),
        (
            "Anti-Othello 6x6",
            &["games/anti-othello.rules", "--set", "size=6"][..],
            "black -17, white -19: black wins",
        ),
        (
            "Verto 4x4",
            &["games/verto-8x8.rules", "--set", "size=4"][..],
            "light 7, dark 9: dark wins",
        ),
        (
            "Verto 5x5",
            &["games/verto-8x8.rules", "--set", "size=5"][..],
            "light 12, dark 13: dark wins",
        ),
        (
            "Reversi (BrainKing, 6x6)",
            &["games/reversi-6x6.rules"][..],
            "black 17, white 19: white wins",
        ),
    ] {
        let at = lines.find(&format!("- {label}: `")).unwrap() + label.len() + 5;
        let moves = lines[at..].split('`').next().unwrap();
        let moves = moves.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut args = vec!["moves"];
        args.extend_from_slice(game);
        args.extend(["--moves", &moves]);
        let o = outflank(&args);
        assert!(o.status.success(), "{label}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("game over: {ending}")),
            "{label}: {moves}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn an_outcome_solve_says_who_wins_in_fewer_positions() {
    // From 20 empty cells along the published lines: the winner alone, without the margin's
    // questions, and a line that keeps the win for the winner.
    for (rules, published, winner) in [
        ("othello", FEINSTEIN_6X6, "white"),
        ("anti-othello", TOTHELLO_ANTI_6X6[0], "black"),
    ] {
        let first: Vec<&str> = published.split_whitespace().take(12).collect();
        let first = first.join(" ");
        let exact = json(&on_6x6(rules, "solve", &first, &["--json", "--jobs", "1"]));
        let v = json(&on_6x6(
            rules,
            "solve",
            &first,
            &["--json", "--jobs", "1", "--outcome"],
        ));
        assert_eq!(
            (&exact["exact"], &v["exact"]),
            (&true.into(), &false.into())
        );
        assert!(v["value"].is_null(), "{rules}: {v}");
        assert_eq!(v["result"]["winner"], winner, "{rules}: {v}");
        let (fewer, more) = (
            v["nodes"].as_u64().unwrap(),
            exact["nodes"].as_u64().unwrap(),
        );
        assert!(fewer < more, "{rules}: {fewer} positions, exact {more}");
        let all = format!("{first} {}", line_of(&v).join(" "));
        let end = json(&on_6x6(rules, "moves", &all, &["--json"]));
        assert_eq!(end["result"]["winner"], winner, "{rules}: {all}");
        let o = on_6x6(rules, "solve", &first, &["--outcome"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!(
                "with best play: {winner} wins (by how much was not solved)"
            )),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn a_long_solve_learns_a_judge_for_its_order() {
    // 26 empty cells along Feinstein's line, the first solve long enough to learn a judge
    // (docs/SOLVED.md): the published value still, in far fewer positions than the 165.1 M
    // the solve took without one, though the count holds the positions its samples took.
    let first: Vec<&str> = FEINSTEIN_6X6.split_whitespace().take(6).collect();
    let first = first.join(" ");
    let solve = |jobs: &str| {
        json(&on_6x6(
            "othello",
            "solve",
            &first,
            &["--json", "--jobs", jobs],
        ))
    };
    let v = solve("1");
    assert_eq!(v["value"], -1e6 - 4.0, "{v}");
    let nodes = v["nodes"].as_u64().unwrap();
    assert!(nodes < 70_000_000, "{nodes} positions");
    // Two threads find the same value. One thread's line follows its table's moves, two
    // threads' the judge's order alone: each is a best one (it replays to the published
    // result), not always the same.
    let two = solve("2");
    for field in ["value", "result"] {
        assert_eq!(v[field], two[field], "{field}: {v} against {two}");
    }
    for solved in [&v, &two] {
        let line = line_of(solved);
        let end = on_6x6(
            "othello",
            "moves",
            &format!("{first} {}", line.join(" ")),
            &[],
        );
        assert!(
            stdout(&end).contains("game over: black 16, white 20: white wins"),
            "{solved}: {}",
            stdout(&end)
        );
    }
}

#[test]
fn solving_on_two_threads_finds_the_same_line_each_run() {
    // 24 empty cells along Feinstein's line: long enough to be shared among the threads,
    // whose line reads nothing of the shared table (one thread's is in
    // `a_long_solve_learns_a_judge_for_its_order`).
    let first: Vec<&str> = FEINSTEIN_6X6.split_whitespace().take(8).collect();
    let solve = |jobs: &str| {
        json(&on_6x6(
            "othello",
            "solve",
            &first.join(" "),
            &["--json", "--jobs", jobs],
        ))
    };
    let (once, again) = (solve("2"), solve("2"));
    assert_eq!(once["value"], -1e6 - 4.0, "{once}");
    for field in ["value", "result", "line"] {
        assert_eq!(once[field], again[field], "{field}: {once} against {again}");
    }
    assert!(again["nodes"].as_u64().unwrap() > 0, "{again}");
    let o = outflank(&[
        "solve",
        "games/othello.rules",
        "--set",
        "size=4",
        "--jobs",
        "0",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--jobs 0: at least one thread is needed"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn play_a_scripted_game_through_standard_input() {
    let saved = temp("played.json");
    // Two humans on 4x4: a typo, a look at the legal moves, an undo, then the game to its end.
    let script = format!(
        "a1\nD3\n?\nb1\nundo\nb1\na1\na2\nc1\nd4\na3\nd1\nb4\na4\nc4\nsave {saved}\nquit\n"
    );
    let o = outflank_with_input(
        &[
            "play",
            "games/othello.rules",
            "--set",
            "size=4",
            "--black",
            "human",
            "--white",
            "human",
        ],
        &script,
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(text.contains("`a1` is not legal here"), "{text}");
    // Suggestions by place on the board: the legal cells next to a1 (b1 and a2; d3 and c4 are
    // as near by spelling), and d3 for D3 whatever its case.
    assert!(
        text.contains("legal here: b1 a2 d3 c4; did you mean b1 or a2?\n"),
        "{text}"
    );
    assert!(
        text.contains("`D3` is not legal here") && text.contains("did you mean d3?\n"),
        "{text}"
    );
    assert!(text.contains("legal moves (4): b1 a2 d3 c4"), "{text}");
    assert!(text.contains("undone"), "{text}");
    assert!(
        text.contains("game over: black 3, white 11: white wins"),
        "{text}"
    );
    // The saved record replays.
    let o = outflank(&["replay", "games/othello.rules", &saved, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("10 moves replayed, black 3, white 11: white wins"),
        "{}",
        stdout(&o)
    );
}

/// An installed binary runs the bundled games from any folder: `games/NAME.rules` (or
/// `NAME.rules`) that is not on disk is the bundled game, the base files it extends too; a file
/// on disk comes first; `bench` without files measures every bundled game.
#[test]
fn the_bundled_games_run_from_any_folder() {
    let dir = temp("elsewhere");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_outflank"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    // Othello's published perft: 244 sequences of four moves.
    for name in ["games/othello.rules", "othello.rules"] {
        let o = run(&["perft", name, "--depth", "4"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(stdout(&o).contains("244"), "{name}: {}", stdout(&o));
    }
    // Anti-Othello extends othello.rules, found bundled as well.
    let o = run(&["moves", "games/anti-othello.rules"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("4 legal moves"), "{}", stdout(&o));
    let o = run(&["solve", "games/othello.rules", "--set", "size=4"]);
    assert!(stdout(&o).contains("black 3, white 11"), "{}", stdout(&o));
    for command in ["check", "test"] {
        let o = run(&[command, "games/verto-9x9.rules"]);
        assert!(o.status.success(), "{command}: {}", stderr(&o));
    }
    let o = run(&["bench", "--seconds", "0.01", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let measured: Value = serde_json::from_slice(&o.stdout).unwrap();
    let bundled = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/games"))
        .unwrap()
        .count();
    assert_eq!(measured["games"].as_array().unwrap().len(), bundled);
    // A file of one's own, even one named as a bundled game, comes first.
    std::fs::create_dir_all(format!("{dir}/games")).unwrap();
    let mine =
        include_str!("../games/othello.rules").replace("title \"Othello\"", "title \"Mine\"");
    std::fs::write(format!("{dir}/games/othello.rules"), mine).unwrap();
    let o = run(&["info", "games/othello.rules"]);
    assert!(stdout(&o).starts_with("Mine"), "{}", stdout(&o));
    // A name that is not bundled is still the error of a missing file.
    let o = run(&["perft", "games/nosuch.rules", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: cannot read games/nosuch.rules"),
        "{}",
        stderr(&o)
    );
}

/// `--seat PLAYER=AGENT` seats players the same way in `run`, `analyse` and `play`; the older
/// forms (`--agents A,B`, `--NAME PLAYER`) still work beside it.
#[test]
fn one_seat_syntax_for_run_analyse_and_play() {
    let small = [
        "games/othello.rules",
        "--set",
        "size=4",
        "--games",
        "4",
        "--json",
    ];
    let seats = |extra: &[&str]| {
        let mut args = vec!["run"];
        args.extend(small);
        args.extend(extra);
        json(&outflank(&args))["seats"].clone()
    };
    assert_eq!(
        seats(&["--seat", "white=greedy"]),
        serde_json::json!({ "black": "random", "white": "greedy" })
    );
    assert_eq!(
        seats(&["--agents", "greedy,greedy", "--seat", "black=mcts:10"]),
        serde_json::json!({ "black": "mcts:10", "white": "greedy" })
    );
    let mut args = vec!["analyse"];
    args.extend(small);
    args.extend(["--seat", "black=greedy", "--seat", "white=greedy"]);
    let report = json(&outflank(&args));
    assert_eq!(
        report["seats"][0]["agents"],
        serde_json::json!({ "greedy": 4 })
    );
    // Mistakes, each said in one line with what to write.
    for (seat, said) in [
        ("red=greedy", "--seat red=greedy: no player `red` in these rules; the players are black and white"),
        ("white", "--seat white: write PLAYER=AGENT, a player of black and white and who plays it, e.g. --seat black=mcts"),
        ("white=grumpy", "unknown player `grumpy`"),
    ] {
        let mut args = vec!["run"];
        args.extend(small);
        args.extend(["--seat", seat]);
        let o = outflank(&args);
        assert_eq!(o.status.code(), Some(1), "{seat}");
        assert!(stderr(&o).contains(said), "{seat}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
    let mut args = vec!["run"];
    args.extend(small);
    args.extend(["--seat", "white=greedy", "--seat", "white=random"]);
    assert!(stderr(&outflank(&args)).contains("white is seated twice"));
    // play: two computers seated with --seat play the game out without a human's input.
    let o = outflank_with_input(
        &[
            "play",
            "games/othello.rules",
            "--set",
            "size=4",
            "--seat",
            "black=greedy",
            "--seat",
            "white=random",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("game over"), "{}", stdout(&o));
    let o = outflank_with_input(
        &["play", "games/othello.rules", "--seat", "green=human"],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no player `green`"), "{}", stderr(&o));
    // A seat given twice is refused in play too, whichever form names it.
    let o = outflank_with_input(
        &[
            "play",
            "games/othello.rules",
            "--seat",
            "white=greedy",
            "--white",
            "random",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--white random: white is seated twice; keep one"),
        "{}",
        stderr(&o)
    );
    // An option of the game written after the players is pointed to its place.
    let o = outflank_with_input(
        &[
            "play",
            "games/othello.rules",
            "--white",
            "random",
            "--set",
            "size=6",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--set: write it before the players"),
        "{}",
        stderr(&o)
    );
}

/// `--time`: each player's clock shows in the status line; a computer whose turn takes longer
/// than its time loses before its move counts, the record says so and `replay` accepts it.
#[test]
fn play_with_a_clock_ends_when_a_time_runs_out() {
    let saved = temp("clock.json");
    let o = outflank_with_input(
        &[
            "play",
            "games/othello.rules",
            "--set",
            "size=4",
            "--time",
            "0.3s",
            "--black",
            "human",
            "--white",
            "mcts:600ms",
            "--record",
            &saved,
        ],
        "d3\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("time left: black 0:00.3, white 0:00.3"),
        "{text}"
    );
    assert!(
        text.contains("white (mcts:600ms) took too long: its time ran out"),
        "{text}"
    );
    assert!(
        text.contains("game over: white ran out of time: black wins"),
        "{text}"
    );
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(record["moves"], serde_json::json!(["d3"]));
    assert_eq!(record["result"]["resigned"], "white");
    assert_eq!(record["result"]["on_time"], true);
    let o = outflank(&["replay", "games/othello.rules", &saved, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A time that is not one is refused, saying how to write one.
    let o = outflank(&["play", "games/othello.rules", "--time", "5x"]);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("write it as 5m, 90s"), "{}", stderr(&o));
}

/// Inside a turn of several steps, undo takes back one step; back at the turn's start, the next
/// undo takes back the turn before (Verto 5x5: light's c2 captures b2 or c3).
#[test]
fn play_takes_back_one_step_of_a_turn() {
    let saved = temp("steps.json");
    let before = "b3 d2 d3 d4 d5 e5 c4 a4 b4 e4 d1 c3 b1 b2 a2 e2";
    let mut script: String = before.split(' ').map(|m| format!("{m}\n")).collect();
    script += &format!("c2\nundo\nundo\ne2\nc2\nxb2\nsave {saved}\nquit\n");
    let o = outflank_with_input(
        &[
            "play",
            "games/verto-8x8.rules",
            "--set",
            "size=5",
            "--light",
            "human",
            "--dark",
            "human",
        ],
        &script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let continues = "light continues c2; next: xb2 xc3";
    let first = text.find(continues).expect("c2 starts a turn of two steps");
    let rest = &text[first..];
    // One step back, then the turn before: dark's e2 (dark has a piece fewer and is to move
    // again), which dark then plays again.
    let step = rest.find("light> undone: the last step").unwrap();
    let turn = rest.find("light> undone\n").unwrap();
    assert!(step < turn, "{rest}");
    assert!(
        rest[turn..].contains("score: light 7, dark 8\ndark> "),
        "{rest}"
    );
    assert_eq!(rest.matches(continues).count(), 2, "{rest}");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let moves: Vec<&str> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 17, "{moves:?}");
    assert_eq!(moves[15..], ["e2", "c2xb2"]);
}

/// A game saved half way goes on with `--resume`: its moves are there (undo reaches into
/// them), its parameters come from the record, and the game saved again at its end replays
/// with every move. A finished game or a record of other rules is refused.
#[test]
fn play_resumes_a_saved_game() {
    let half = temp("half.json");
    let two_humans = ["--black", "human", "--white", "human"];
    let mut args = vec!["play", "games/othello.rules", "--set", "size=4"];
    args.extend(two_humans);
    let o = outflank_with_input(&args, &format!("b1\na1\na2\nsave {half}\nquit\n"));
    assert!(o.status.success(), "{}", stderr(&o));
    let done = temp("done.json");
    // No --set: the size comes from the record. An undo takes back a saved move.
    let mut args = vec!["play", "games/othello.rules", "--resume", &half];
    args.extend(two_humans);
    let o = outflank_with_input(
        &args,
        &format!("undo\na2\nc1\nd4\na3\nd1\nb4\na4\nc4\nsave {done}\nquit\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("resumed after 3 moves"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("undone"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("game over: black 3, white 11: white wins"),
        "{}",
        stdout(&o)
    );
    let o = outflank(&["replay", "games/othello.rules", &done, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("10 moves replayed"), "{}", stdout(&o));
    let mut args = vec!["play", "games/othello.rules", "--resume", &done];
    args.extend(two_humans);
    let o = outflank_with_input(&args, "quit\n");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("this game is over"), "{}", stderr(&o));
    let mut args = vec!["play", "games/anti-othello.rules", "--resume", &half];
    args.extend(two_humans);
    let o = outflank_with_input(&args, "quit\n");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("hash"), "{}", stderr(&o));
}

#[test]
fn play_against_the_computer_and_resign() {
    let o = outflank_with_input(
        &["play", "games/othello.rules", "--white", "alphabeta:2"],
        "d3\nresign\n",
    );
    let text = stdout(&o);
    assert!(text.contains("white (alphabeta:2) plays "), "{text}");
    assert!(
        text.contains("game over: black resigns: white wins"),
        "{text}"
    );
    let o = outflank_with_input(&["play", "games/othello.rules", "--red", "human"], "");
    assert!(
        stderr(&o).contains("--black PLAYER --white PLAYER"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn reversi_go_agreement_on_dead_groups() {
    let file = "games/reversi-go-9x9.rules";
    // A lone black stone in the white corner: dead. White has 2 stones, 78 points of territory.
    let position =
        "BW......./W......../........./........./........./........./........./........./.........";
    let args = [
        "play",
        file,
        "--position",
        position,
        "--to-move",
        "black",
        "--black",
        "human",
        "--white",
        "human",
    ];
    let saved = temp("agreed.json");
    // Both pass; Black proposes nothing, White flips a1; both accept.
    let o = outflank_with_input(
        &args,
        &format!("pass\npass\ndone\na1-done\nyes\nyes\nsave {saved}\nquit\n"),
    );
    let text = stdout(&o);
    assert!(
        text.contains("the players may agree to flip dead groups"),
        "{text}"
    );
    assert!(text.contains("agreed"), "{text}");
    // White: 3 stones + 78 territory + komi 7. Black: nothing left.
    assert!(
        text.contains("game over: black 0, white 88: white wins"),
        "{text}"
    );
    // A saved record replays from the same position.
    let replays = |record: &str| {
        let args = [
            "replay",
            file,
            record,
            "--quiet",
            "--position",
            position,
            "--to-move",
            "black",
        ];
        let o = outflank(&args);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    replays(&saved);

    // Taken back after the agreement: the game goes on, the record holds no agreement and
    // replays.
    let undone = temp("agreed-undone.json");
    let o = outflank_with_input(
        &args,
        &format!("pass\npass\ndone\na1-done\nyes\nyes\nundo\nsave {undone}\nquit\n"),
    );
    assert!(stdout(&o).contains("undone"), "{}", stdout(&o));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&undone).unwrap()).unwrap();
    assert!(record["agreement"].is_null(), "{record}");
    assert!(record["result"].is_null(), "{record}");
    assert_eq!(record["moves"], serde_json::json!(["pass"]), "{record}");
    replays(&undone);

    // Declined: play resumes, and two passes in a row end it as it stands.
    let o = outflank_with_input(&args, "pass\npass\ndone\na1-done\nno\npass\npass\nquit\n");
    let text = stdout(&o);
    assert!(text.contains("no agreement: play resumes"), "{text}");
    assert!(
        text.contains("game over: black 1, white 87: white wins"),
        "{text}"
    );
    assert_eq!(
        text.matches("the players may agree").count(),
        1,
        "no second offer without a placement"
    );
}

#[test]
fn bench_reports_rates_per_game() {
    let v = json(&outflank(&[
        "bench",
        "games/othello.rules",
        "games/reversi-go-19x19.rules",
        "--seconds",
        "0.05",
        "--json",
    ]));
    let rows = v["games"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["game"], "Othello");
    assert!(rows[0]["playouts_per_second"].as_f64().unwrap() > 0.0);
    assert!(rows[0]["perft_depth"].as_u64().unwrap() >= 1);
    assert!(rows[1]["bytes_per_state"].as_u64().unwrap() > 0);
    // The runner's state is the board and counters, smaller than the engine's position.
    let runner = rows[0]["runner_bytes_per_state"].as_u64().unwrap();
    assert!(runner > 0 && runner < rows[0]["bytes_per_state"].as_u64().unwrap());
    // A board of 361 cells runs on the runner too, in six-word sets.
    let wide = rows[1]["runner_bytes_per_state"].as_u64().unwrap();
    assert!(wide > runner && wide < rows[1]["bytes_per_state"].as_u64().unwrap());
    assert_eq!(rows[0]["path"], "direct");
    assert_eq!(rows[1]["path"], "enclosure loop");
    // The table says the same, under the runner's one name.
    let o = outflank(&["bench", "games/ataxx.rules", "--seconds", "0.05"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let header = text.lines().next().unwrap();
    assert!(
        header.contains("runner bytes") && header.ends_with("path"),
        "{text}"
    );
    assert!(
        text.lines().nth(1).unwrap().ends_with("  general"),
        "{text}"
    );
    assert!(!text.to_lowercase().contains("kernel"), "{text}");
}

#[test]
fn every_bundled_game_passes_its_own_examples() {
    let mut files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/games"))
        .unwrap()
        .map(|e| format!("games/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    files.sort();
    let mut args = vec!["test"];
    args.extend(files.iter().map(String::as_str));
    let o = outflank(&args);
    let text = stdout(&o);
    assert!(o.status.success(), "{text}\n{}", stderr(&o));
    assert!(
        !text.contains("(no examples)"),
        "every game carries examples:\n{text}"
    );
    assert!(text.trim_end().ends_with(" passed, 0 failed"), "{text}");
}

#[test]
fn kinds_of_piece_pass_their_examples() {
    // Jokers and stones in the setup; a stone placed with `place c as stone`; a joker named
    // by a line.
    for (file, passed) in [
        ("joker-and-stones", 2),
        ("place-a-stone", 1),
        ("kinds-in-lines", 1),
    ] {
        let path = format!("tests/fixtures/valid/{file}.rules");
        let o = outflank(&["test", &path]);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
        let summary = format!("{passed} passed, 0 failed");
        assert!(text.trim_end().ends_with(&summary), "{text}");
    }
    // `check` names the kinds after the players.
    let o = outflank(&["check", "tests/fixtures/valid/joker-and-stones.rules"]);
    assert!(
        stdout(&o).contains("black and white; piece joker; piece stone)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn examples_run_with_the_parameters_they_set() {
    // The 6 x 6 example plays f6, which the default 4 x 4 board does not have; the 8 x 8 one
    // offers only corners, which a parameter of its own asks for.
    let o = outflank(&["test", "tests/fixtures/valid/example-settings.rules"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    for name in [
        "the default board is 4 x 4",
        "a 6 x 6 board",
        "corners first on 8 x 8",
    ] {
        assert!(text.contains(&format!("ok    {name}")), "{text}");
    }
    assert!(text.trim_end().ends_with("3 passed, 0 failed"), "{text}");
}

#[test]
fn a_failing_example_is_reported_with_a_board_diff() {
    let o = outflank(&["test", "tests/fixtures/valid/failing-example.rules"]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(text.contains("ok    placing works"), "{text}");
    assert!(
        text.contains("FAIL  a wrong expectation: the board differs"),
        "{text}"
    );
    assert!(
        text.contains("expected") && text.contains("actual"),
        "{text}"
    );
    assert!(
        text.contains("*  1 W...       B..."),
        "the differing row is marked: {text}"
    );
    assert!(text.trim_end().ends_with("1 passed, 1 failed"), "{text}");
    assert!(
        stderr(&o).contains("failing-example.rules:"),
        "points at the example: {}",
        stderr(&o)
    );
}

/// The elements of an SVG document with the given `class`.
fn count_class(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .count()
}

#[test]
fn render_draws_a_well_formed_diagram() {
    let path = temp("board.svg");
    let o = outflank(&[
        "render",
        "games/vect-reverse-corner-lock.rules",
        "--moves",
        "d3-d4>c3",
        "--mark",
        "last",
        "--shade",
        "centre",
        "--svg",
        &path,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    let class = |c: &str| count_class(&doc, c);
    // After d3 and the move of d4 to c3: black d3, c3, e4, d5; white e5.
    let pieces: Vec<(String, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| {
            (
                n.attribute("data-player").unwrap().to_string(),
                format!(
                    "{},{}",
                    n.attribute("cx").unwrap(),
                    n.attribute("cy").unwrap()
                ),
            )
        })
        .collect();
    assert_eq!(pieces.len(), 5);
    assert_eq!(pieces.iter().filter(|(p, _)| p == "black").count(), 4);
    assert_eq!(class("removed"), 4, "the four corners");
    assert_eq!(class("region"), 4, "the centre squares are shaded");
    assert_eq!(class("coord"), 16, "a to h and 1 to 8");
    assert_eq!(
        class("mark"),
        3,
        "the placement, the chosen disc and its destination"
    );
    insta::assert_snapshot!(text);

    let o = outflank(&[
        "render",
        "games/othello.rules",
        "--shade",
        "nowhere",
        "--svg",
        &path,
    ]);
    assert!(
        stderr(&o).contains("no region named `nowhere`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn explain_points_at_the_rule_that_allows_or_forbids() {
    let o = outflank(&["explain", "games/othello.rules", "d3"]);
    let text = stdout(&o);
    assert!(o.status.success());
    assert!(text.starts_with("d3 is legal for black"), "{text}");
    assert!(
        text.contains("othello.rules:32"),
        "points at the choose: {text}"
    );
    assert!(
        text.trim_end().ends_with("it places d3; flips d4"),
        "{text}"
    );
    insta::assert_snapshot!("explain_legal", text);

    // Empty, but outflanks nothing: the where clause is to blame, not the set.
    let o = outflank(&["explain", "games/othello.rules", "a1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("for a1 this condition is false"),
        "{}",
        stdout(&o)
    );
    // BrainKing's opening: a1 is outside the centre squares the option offers.
    let o = outflank(&["explain", "games/reversi-8x8.rules", "a1"]);
    assert!(
        stdout(&o).contains("a1 is not in the cells this option offers"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("empty & centre"), "{}", stdout(&o));
    // A failing requirement (Reversi Go's suicide rule).
    let position =
        "BBBBB.W../WWWWWW.../........./........./........./........./........./........./.........";
    let o = outflank(&[
        "explain",
        "games/reversi-go-9x9.rules",
        "--position",
        position,
        "--to-move",
        "black",
        "f1",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("after f1 this requirement does not hold"),
        "{text}"
    );
    assert!(text.contains("require some(liberties(group(c)))"), "{text}");
    insta::assert_snapshot!("explain_require", text);
    // Not a cell at all.
    let o = outflank(&["explain", "games/othello.rules", "z9"]);
    assert!(
        stdout(&o).contains("`z9` is not a cell of this 8 x 8 board"),
        "{}",
        stdout(&o)
    );
    // A chain: every step, and everything it changes.
    let position = "......../......../..D...../...L..../......../.....L../......../........";
    let o = outflank(&[
        "explain",
        "games/verto-8x8.rules",
        "--position",
        position,
        "--to-move",
        "dark",
        "e5-g7",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("`e5` is allowed") && text.contains("`-g7` is allowed"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("it places e5 g7; flips d4 f6"),
        "{text}"
    );
}

#[test]
fn fmt_rewrites_layout_and_check_reports() {
    let path = temp("messy.rules");
    std::fs::write(&path, "board 4 x 4   // the board\nplayer black 'B'\n   player white 'W'\nturn {\nchoose c in empty {   place c }\n}\n\n\n\nend when none(empty)\nscore p = count(p)\n").unwrap();
    let o = outflank(&["fmt", "--check", &path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("is not formatted"));
    let o = outflank(&["fmt", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text,
        "board 4 x 4 // the board\nplayer black 'B'\nplayer white 'W'\nturn {\n  choose c in empty { place c }\n}\n\nend when none(empty)\nscore p = count(p)\n"
    );
    assert!(outflank(&["fmt", "--check", &path]).status.success());
    // A file that does not parse is left alone.
    std::fs::write(&path, "board 4 x\n").unwrap();
    assert_eq!(outflank(&["fmt", &path]).status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "board 4 x\n");
}

#[test]
fn render_also_writes_png() {
    let (svg, png) = (temp("b.svg"), temp("b.png"));
    let o = outflank(&[
        "render",
        "games/othello.rules",
        "--mark",
        "legal",
        "--svg",
        &svg,
        "--png",
        &png,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    // The IHDR chunk: width and height match the SVG's.
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let root = doc.root_element();
    assert_eq!(width.to_string(), root.attribute("width").unwrap());
    assert_eq!(height.to_string(), root.attribute("height").unwrap());
    // The coordinates are lettered without fonts: above each column its letter in dark
    // strokes (the margin is white), each column's different from the others.
    let image = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    let label = |column: u32| -> Vec<bool> {
        let (x0, y0) = (30 + 40 * column + 12, 6);
        let mut dark = Vec::new();
        for y in y0..y0 + 16 {
            for x in x0..x0 + 16 {
                let p = image.pixel(x, y).unwrap();
                dark.push(p.red() < 128 && p.green() < 128 && p.blue() < 128);
            }
        }
        dark
    };
    let labels: Vec<Vec<bool>> = (0..8).map(label).collect();
    for (column, dark) in labels.iter().enumerate() {
        let n = dark.iter().filter(|&&d| d).count();
        assert!(n >= 8, "column {column}'s letter has {n} dark pixels");
        assert!(n < dark.len() / 2, "column {column}'s letter is a blot");
    }
    for a in 0..8 {
        for b in a + 1..8 {
            assert_ne!(labels[a], labels[b], "columns {a} and {b} lettered alike");
        }
    }
    // The SVG file keeps real text, which a browser sets in its own fonts.
    assert!(
        text.contains("<text class=\"coord\""),
        "the SVG keeps real text"
    );
}

#[test]
fn the_lettering_has_a_glyph_for_every_character_of_a_name() {
    use outflank::apps::lettering::has_glyph;
    // Cell names and region names are identifiers: ASCII letters, digits and underscores.
    for c in ('a'..='z').chain('A'..='Z').chain('0'..='9').chain(['_']) {
        assert!(has_glyph(c), "no glyph for {c:?}");
    }
    assert!(
        !has_glyph('é'),
        "a character without a glyph is drawn as a box"
    );
    // A lettered diagram, which the PNG is rasterized from, leaves no text to set in a font:
    // a hexagonal board's cell names and a region's name in the legend are strokes too.
    let path = temp("hex-region.rules");
    let rules = std::fs::read_to_string("games/hex-reversi.rules").unwrap();
    std::fs::write(&path, rules + "\nregion middle_1 = centre(1, 1)\n").unwrap();
    let e = crate::common::engine(&path, &[]);
    let region = "middle_1".to_string();
    let drawing = |lettered| outflank::apps::render::Drawing {
        shade: vec![region.clone()],
        lettered,
        ..Default::default()
    };
    let s = e.start().unwrap();
    let plain = outflank::apps::render::svg(&e, &s, &drawing(false)).unwrap();
    let lettered = outflank::apps::render::svg(&e, &s, &drawing(true)).unwrap();
    let count = |svg: &str, what: &str| svg.matches(what).count();
    assert!(count(&lettered, "<text") == 0, "{lettered}");
    assert_eq!(
        count(&lettered, "<g class=\"coord\">"),
        count(&plain, "<text class=\"coord\""),
        "every cell name lettered"
    );
    assert_eq!(count(&lettered, "<g class=\"legend\">"), 1);
}

#[test]
fn render_draws_hexagonal_boards_as_hexagons_that_touch_their_neighbours() {
    let path = temp("hex.svg");
    let o = outflank(&[
        "render",
        "games/hex-reversi.rules",
        "--mark",
        "legal",
        "--svg",
        &path,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    // Each cell's hexagon by name, as the centre of its six points.
    let mut centres = std::collections::BTreeMap::new();
    for n in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("cell"))
    {
        let points: Vec<(f64, f64)> = n
            .attribute("points")
            .unwrap()
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(points.len(), 6);
        let x = points.iter().map(|p| p.0).sum::<f64>() / 6.0;
        let y = points.iter().map(|p| p.1).sum::<f64>() / 6.0;
        centres.insert(n.attribute("data-cell").unwrap().to_string(), (x, y));
    }
    // A hexagon of side 5 has 61 cells.
    assert_eq!(centres.len(), 61);
    // Two cells are neighbours on the board exactly when their hexagons share a side: their
    // centres are one hexagon's width apart, the closest any two are. The board's neighbours
    // of e5 (the centre) are its grid's north, northeast, east, south, southwest and west.
    let distance = |a: &str, b: &str| {
        let (p, q) = (centres[a], centres[b]);
        ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt()
    };
    let mut touching: Vec<&str> = centres
        .keys()
        .map(|k| k.as_str())
        .filter(|&k| k != "e5" && distance(k, "e5") < 41.0)
        .collect();
    touching.sort();
    assert_eq!(touching, ["d5", "d6", "e4", "e6", "f4", "f5"]);
    for k in &touching {
        assert!((distance(k, "e5") - 40.0).abs() < 0.5, "{k}");
    }
    let count = |class: &str| count_class(&doc, class);
    assert_eq!(count("piece"), 6, "the six discs of the start");
    assert!(count("mark") > 0, "the legal placements are marked");
    // The picture holds every hexagon: no point lies outside the drawing.
    let root = doc.root_element();
    let width: f64 = root.attribute("width").unwrap().parse().unwrap();
    let height: f64 = root.attribute("height").unwrap().parse().unwrap();
    for (x, y) in centres.values() {
        assert!(*x > 20.0 && *x < width - 20.0 && *y > 20.0 && *y < height - 20.0);
    }
}

#[test]
fn four_players_run_play_record_and_replay() {
    // `run`: one agent per player; each seat's wins and the draws add up to the games.
    let path = temp("rolit.jsonl");
    let _ = std::fs::remove_file(&path);
    let v = json(&outflank(&[
        "run",
        "games/rolit.rules",
        "--games",
        "8",
        "--agents",
        "greedy,random,random,random",
        "--swap",
        "--record",
        &path,
        "--json",
    ]));
    let players = ["red", "yellow", "green", "blue"];
    let wins: u64 = players
        .iter()
        .map(|p| v["wins"][p]["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 8);
    // The agents changed seats, so wins are counted by agent too.
    let by_agent = v["agents"]["greedy"]["wins"].as_u64().unwrap()
        + v["agents"]["random"]["wins"].as_u64().unwrap();
    assert_eq!(by_agent, wins);
    // The records name four players and four scores, and replay.
    let text = std::fs::read_to_string(&path).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["players"].as_object().unwrap().len(), 4);
    assert_eq!(first["result"]["scores"].as_object().unwrap().len(), 4);
    let o = outflank(&["replay", "games/rolit.rules", &path, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("moves replayed").count(), 8);

    // A wrong number of agents says how many and whose.
    let o = outflank(&["run", "games/rolit.rules", "--agents", "random,random"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("name 4 players, one for each of red, yellow, green and blue"),
        "{}",
        stderr(&o)
    );

    // `play` with a human in the second seat: the computers move in turn order around them,
    // and resigning is refused among four.
    let o = outflank_with_input(
        &[
            "play",
            "games/rolit.rules",
            "--red",
            "random",
            "--yellow",
            "human",
            "--green",
            "random",
            "--blue",
            "random",
        ],
        "resign\nquit\n",
    );
    let out = stdout(&o);
    assert!(out.contains("red (random) plays"), "{out}");
    assert!(
        out.contains("only a game of two players ends by resigning"),
        "{out}"
    );
    assert!(out.contains("score: red "), "{out}");
    assert!(out.contains(", blue "), "{out}");
}

#[test]
fn render_tells_every_player_apart() {
    // Four players named by letters, not colours: four pieces, four fills.
    let rules = temp("four.rules");
    std::fs::write(
        &rules,
        "board 4 x 4\nplayer a 'A'\nplayer b 'B'\nplayer c 'C'\nplayer d 'D'\n\
         setup { a on b2  b on c2  c on b3  d on c3 }\n\
         turn { choose x in empty { place x } }\nend when none(empty)\nscore p = count(p)\n",
    )
    .unwrap();
    let svg = temp("four.svg");
    let o = outflank(&["render", &rules, "--svg", &svg]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let fills: std::collections::BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| n.attribute("fill").unwrap())
        .collect();
    assert_eq!(count_class(&doc, "piece"), 4);
    assert_eq!(fills.len(), 4, "{fills:?}");
}

#[test]
fn render_draws_pieces_of_no_player_apart() {
    // Four discs, two jokers and two stones: the kinds' pieces are diamonds, named by kind.
    let svg = temp("kinds.svg");
    let file = "tests/fixtures/valid/joker-and-stones.rules";
    let o = outflank(&["render", file, "--svg", &svg]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let pieces: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .collect();
    let discs = pieces.iter().filter(|n| n.tag_name().name() == "circle");
    assert!(discs.clone().all(|n| n.attribute("data-player").is_some()));
    assert_eq!(discs.count(), 4);
    let kinds: Vec<&str> = pieces
        .iter()
        .filter(|n| n.tag_name().name() == "polygon")
        .map(|n| n.attribute("data-kind").unwrap())
        .collect();
    // In cell order: c4, f4, g6, c7.
    assert_eq!(kinds, ["stone", "joker", "stone", "joker"]);
}

/// The quoted string of each `KEYWORD "..."` line of a rules file, read here from the text.
fn quoted_items(text: &str, keyword: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(keyword)?.trim().strip_prefix('"'))
        .map(|rest| rest.trim_end().trim_end_matches('"').to_string())
        .collect()
}

#[test]
fn info_shows_what_the_rules_file_declares() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/othello.rules"))
        .unwrap();
    let o = outflank(&["info", "games/othello.rules"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], quoted_items(&text, "title")[0]);
    let credits = quoted_items(&text, "credit");
    let sources = quoted_items(&text, "source");
    assert!(!credits.is_empty() && !sources.is_empty());
    for c in &credits {
        assert!(lines.contains(&format!("credit: {c}").as_str()), "{out}");
    }
    for s in &sources {
        assert!(lines.contains(&format!("source: {s}").as_str()), "{out}");
    }
    // `param size = 8 in 4 to 26 step 2` in the file.
    assert!(text.contains("param size = 8 in 4 to 26 step 2"));
    assert!(
        lines.contains(&"parameter: size = 8 (4 to 26 step 2)"),
        "{out}"
    );
    assert!(
        lines.contains(&"board: grid 8 x 8, 64 cells in play"),
        "{out}"
    );
    assert!(
        lines.contains(&"players: black 'B', moves first; white 'W'"),
        "{out}"
    );

    // A setting is applied, and a bad one refused.
    let o = outflank(&["info", "games/othello.rules", "--set", "size=6"]);
    assert!(
        stdout(&o).contains("parameter: size = 6 (4 to 26 step 2)"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("board: grid 6 x 6, 36 cells in play"));
    // The symmetries the solver uses (tests/symmetry.rs checks that each plays the same).
    assert!(
        stdout(&o).contains("symmetries: a quarter turn, a half turn, three quarter turns,"),
        "{}",
        stdout(&o)
    );
    let o = outflank(&["info", "games/gravity-othello.rules"]);
    assert!(
        stdout(&o).contains("symmetries: the mirror left to right\n"),
        "{}",
        stdout(&o)
    );
    let o = outflank(&["info", "games/othello.rules", "--set", "size=7"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--set size=7"), "{}", stderr(&o));
}

#[test]
fn info_names_the_runner_width_and_how_turns_run() {
    let v = json(&outflank(&[
        "info",
        "games/reversi-go-19x19.rules",
        "--json",
    ]));
    assert_eq!(v["board"]["cells"], 361);
    // 361 cells take six words of 64.
    assert_eq!(v["runner"]["set_cells"], 384);
    assert_eq!(v["runner"]["turns"], "enclosure loop");
    let names: Vec<&str> = v["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["handicap", "komi", "size"]);
    assert_eq!(v["parameters"][0]["allowed"], "0, 2 to 9");
    assert_eq!(v["tokens"][0], "button");

    let v = json(&outflank(&["info", "games/othello.rules", "--json"]));
    assert_eq!(v["runner"]["set_cells"], 64);
    assert_eq!(v["runner"]["turns"], "direct");
    let v = json(&outflank(&["info", "games/hex-reversi.rules", "--json"]));
    assert_eq!(v["board"]["shape"], "hexagon");
    let v = json(&outflank(&[
        "info",
        "games/rolit-3-neutral.rules",
        "--json",
    ]));
    assert_eq!(v["kinds"][0]["note"], "as opponent");
    assert_eq!(v["players"].as_array().unwrap().len(), 3);
}

/// The commands `outflank --help` lists (`help` left out).
fn commands_in_help() -> Vec<String> {
    let top = stdout(&outflank(&["--help"]));
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect();
    assert!(
        commands.len() > 15,
        "commands read from the help: {commands:?}"
    );
    commands
}

#[test]
fn every_argument_and_option_of_every_command_says_what_it_is_for() {
    let commands = commands_in_help();
    let mut silent = Vec::new();
    for command in &commands {
        let help = stdout(&outflank(&[command.as_str(), "--help"]));
        for line in help.lines() {
            let entry = line.trim_start();
            if !line.starts_with("  ") || !(entry.starts_with('-') || entry.starts_with('<')) {
                continue;
            }
            // The name, then two spaces or more, then what it is for.
            let said = entry.split_once("  ").map_or("", |(_, rest)| rest.trim());
            if said.is_empty() || said.starts_with("[default:") {
                silent.push(format!("{command}: {entry}"));
            }
        }
    }
    assert!(silent.is_empty(), "without a help text: {silent:#?}");
}

/// What bash's completion offers for the words typed so far (the last one being completed),
/// with the script `outflank completions bash` prints loaded as a user would load it.
fn bash_completes(script: &str, words: &[&str]) -> Vec<String> {
    let path = temp("outflank.bash");
    std::fs::write(&path, script).unwrap();
    let typed = words.join(" ");
    let program = format!(
        "source {path}\nCOMP_WORDS=({typed})\nCOMP_CWORD={}\nCOMP_LINE='{typed}'\n\
         COMP_POINT=${{#COMP_LINE}}\n_outflank outflank '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words.len() - 1,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let o = std::process::Command::new("bash")
        .args(["-c", &program])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(str::to_string).collect()
}

#[test]
fn completions_offer_every_command_and_each_commands_options() {
    let o = outflank(&["completions", "bash"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = stdout(&o);
    // Every command after the program's name, and only the commands that begin as typed.
    let offered = bash_completes(&script, &["outflank", "''"]);
    for command in commands_in_help() {
        assert!(offered.contains(&command), "{command} not in {offered:?}");
    }
    assert_eq!(bash_completes(&script, &["outflank", "so"]), ["solve"]);
    // A command's own options, and the values an option takes.
    let solve = bash_completes(&script, &["outflank", "solve", "--me"]);
    assert_eq!(solve, ["--memory"]);
    let check = bash_completes(&script, &["outflank", "check", "--format", "''"]);
    assert_eq!(check, ["human", "json", "github"]);
    // The other shells get a script each; an unknown shell is refused with the known ones.
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = outflank(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        assert!(stdout(&o).contains("solve"), "{shell}");
    }
    let o = outflank(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("possible values: bash"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_manual_pages_render_and_cover_every_command() {
    let o = outflank(&["man"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH outflank 1"), "{page}");
    // groff reads the page without a warning (-ww: all of them), and the text it sets names
    // every command.
    let render = |roff: &str| {
        let mut groff = std::process::Command::new("groff")
            .args(["-man", "-Tutf8", "-ww"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("groff is installed (.ci/run installs groff-base)");
        use std::io::Write;
        groff
            .stdin
            .take()
            .unwrap()
            .write_all(roff.as_bytes())
            .unwrap();
        let o = groff.wait_with_output().unwrap();
        assert!(o.status.success() && o.stderr.is_empty(), "{}", stderr(&o));
        // Bold and underlined letters are overstruck: keep the letters.
        let text = stdout(&o);
        let mut plain = String::new();
        for c in text.chars() {
            if c == '\u{8}' {
                plain.pop();
            } else {
                plain.push(c);
            }
        }
        plain
    };
    let text = render(&page);
    let commands = commands_in_help();
    for command in &commands {
        assert!(
            text.contains(&format!("outflank-{command}(1)")),
            "{command}: {text}"
        );
    }
    // One page a command, each with its options.
    let dir = temp("man");
    let o = outflank(&["man", "--dir", &dir]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("wrote {} manual pages to {dir}\n", commands.len() + 1)
    );
    for command in &commands {
        let path = format!("{dir}/outflank-{command}.1");
        let roff = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        render(&roff);
    }
    let solve = render(&std::fs::read_to_string(format!("{dir}/outflank-solve.1")).unwrap());
    assert!(solve.contains("--memory"), "{solve}");
    // A directory that cannot be made is an error of one line.
    let o = outflank(&["man", "--dir", "/proc/no/such/place"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: man --dir /proc/no/such/place: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_places_each_diagnostic_by_line_and_column_for_json_and_github() {
    let path = temp("misspelt.rules");
    let rules = "board 3 x 3\nplayer a 'A'\nplayer b 'B'\nturn {\n  choose c in emptyy { place c }\n}\nscore p = count(p)\n";
    std::fs::write(&path, rules).unwrap();
    // Line 5, columns 15 to 21: `emptyy`, counted by hand from the text above.
    let o = outflank(&["check", &path, "--format", "github"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        format!(
            "::error file={path},line=5,col=15,endLine=5,endColumn=21,title=unknown name `emptyy`\
             ::unknown name `emptyy`: not defined%0Ahelp: did you mean `empty`?\n"
        )
    );
    let o = outflank(&["check", &path, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let file = &v["files"][0];
    assert_eq!(file["ok"], false);
    let d = &file["diagnostics"][0];
    assert_eq!(
        (&d["line"], &d["column"], &d["end_line"], &d["end_column"]),
        (
            &Value::from(5),
            &Value::from(15),
            &Value::from(5),
            &Value::from(21)
        )
    );
    assert_eq!(d["severity"], "error");
    assert_eq!(d["help"], "did you mean `empty`?");

    // A warning in a base file points into the base; the check passes. The place is checked
    // against the file's own text: the columns hold the condition that can never hold.
    let o = outflank(&[
        "check",
        "games/vect-reverse-corner-lock.rules",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    let d = &v["files"][0]["diagnostics"][0];
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["file"], "games/vect-reverse.rules");
    let base = std::fs::read_to_string("games/vect-reverse.rules").unwrap();
    let line: Vec<char> = base
        .lines()
        .nth(d["line"].as_u64().unwrap() as usize - 1)
        .unwrap()
        .chars()
        .collect();
    let (from, to) = (
        d["column"].as_u64().unwrap() as usize,
        d["end_column"].as_u64().unwrap() as usize,
    );
    let pointed: String = line[from - 1..to - 1].iter().collect();
    assert_eq!(pointed, "points(p) >= p.target");
    let o = outflank(&[
        "check",
        "games/vect-reverse-corner-lock.rules",
        "--format",
        "github",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("::warning file=games/vect-reverse.rules,line="));

    // A file that cannot be read, and properties escaped as the runner reads them.
    let o = outflank(&["check", "no, such: file.rules", "--format", "github"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("::error file=no%2C such%3A file.rules::"),
        "{}",
        stdout(&o)
    );
    let o = outflank(&["check", "games/othello.rules", "--format", "json"]);
    assert!(o.status.success());
    assert_eq!(json(&o)["files"][0]["diagnostics"], Value::Array(vec![]));
}

#[test]
fn a_variant_of_a_bundled_game_checks_from_any_folder() {
    // A designer's own folder, without the base file: `extends "othello.rules"` names the
    // bundled game, however the variant's path is spelt (it once depended on the folder the
    // command ran in).
    let variant = common::run::temp("cli-variant-of-bundled", "mine.rules");
    let dir = std::path::Path::new(&variant).parent().unwrap();
    // A base left beside it by an earlier run would be read instead of the bundled one.
    let _ = std::fs::remove_file(dir.join("othello.rules"));
    std::fs::write(&variant, "extends \"othello.rules\"\ntitle \"Mine\"\n").unwrap();
    let variant = variant.as_str();
    let o = outflank(&["check", variant]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("ok (Mine, 8 x 8"), "{}", stdout(&o));
    let o = outflank(&["run", variant, "--games", "2", "--set", "size=6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A base file beside the variant comes first.
    let othello = std::fs::read_to_string("games/othello.rules").unwrap();
    let small = othello.replacen("param size = 8", "param size = 4", 1);
    assert_ne!(small, othello, "the bundled Othello's size parameter moved");
    std::fs::write(dir.join("othello.rules"), small).unwrap();
    let o = outflank(&["check", variant]);
    assert!(stdout(&o).contains("ok (Mine, 4 x 4"), "{}", stdout(&o));
    // A path with a folder in it names a file only.
    std::fs::write(
        dir.join("mine.rules"),
        "extends \"elsewhere/othello.rules\"\ntitle \"Mine\"\n",
    )
    .unwrap();
    let o = outflank(&["check", variant]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot load base file"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(dir.join("othello.rules")).unwrap();
}
