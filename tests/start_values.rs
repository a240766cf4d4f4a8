//! `--extra`: the counters' and tokens' values a game starts from, in the form `moves --json`
//! prints under "extra"; kept in records, so that a game started so replays exactly.

use crate::common::run::{json, outflank, stderr, stdout, temp};
use serde_json::Value;

/// Othello 6x6 with a supply of discs: a player with none left passes.
const SUPPLY: &str = "tests/fixtures/valid/supply.rules";

fn perft(args: &[&str]) -> u64 {
    let o = outflank(&[&["perft", SUPPLY, "--depth", "3"], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let leaves = text.split_whitespace().nth(2).unwrap();
    leaves.parse().unwrap()
}

#[test]
fn counters_start_where_extra_says() {
    // With one disc each: black's four placements, white's three replies to each, then black
    // has no disc left and passes.
    assert_eq!(
        perft(&["--extra", r#"{"supply": {"black": 1, "white": 1}}"#]),
        12
    );
    // Only what is named changes: black's empty supply is a pass at once, white's four
    // discs play on.
    let v = json(&outflank(&[
        "moves",
        SUPPLY,
        "--json",
        "--extra",
        r#"{"supply": {"black": 0}}"#,
    ]));
    assert_eq!(v["extra"]["supply"]["black"], 0);
    assert_eq!(v["extra"]["supply"]["white"], 4);
    assert_eq!(v["moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["moves"][0]["move"], "pass");
}

#[test]
fn a_position_from_moves_json_starts_the_same_game() {
    // The board and extra values `moves --json` prints after some moves, given back as
    // --position and --extra, are the position those moves reached.
    let played = "c2 b2 a2 c1";
    let after = json(&outflank(&["moves", SUPPLY, "--moves", played, "--json"]));
    assert_eq!(after["extra"]["supply"]["black"], 2);
    let rows: Vec<&str> = after["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let extra = serde_json::to_string(&after["extra"]).unwrap();
    let again = json(&outflank(&[
        "moves",
        SUPPLY,
        "--position",
        &rows.join("/"),
        "--to-move",
        after["to_move"].as_str().unwrap(),
        "--extra",
        &extra,
        "--json",
    ]));
    assert_eq!(again["extra"], after["extra"]);
    assert_eq!(again["moves"], after["moves"]);
    let count = |args: &[&str]| perft(args);
    assert_eq!(
        count(&["--moves", played]),
        count(&[
            "--position",
            &rows.join("/"),
            "--to-move",
            "black",
            "--extra",
            &extra
        ])
    );
}

#[test]
fn a_record_keeps_the_values_it_started_from() {
    let path = temp("start_values", "extra.jsonl");
    let _ = std::fs::remove_file(&path);
    let extra = r#"{"supply": {"black": 2, "white": 3}, "taken": {"white": 5}}"#;
    let o = outflank(&[
        "run",
        SUPPLY,
        "--games",
        "3",
        "--agents",
        "random,greedy",
        "--extra",
        extra,
        "--position",
        "....../....../..WB../..BW../....../......",
        "--record",
        &path,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["start"]["extra"]["supply"]["white"], 3, "{line}");
        assert_eq!(record["start"]["extra"]["taken"]["white"], 5, "{line}");
        // Two discs for black, three for white: five placements at most.
        assert!(record["moves"].as_array().unwrap().len() <= 5 + 3, "{line}");
    }
    let o = outflank(&["replay", SUPPLY, &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The same record without its values does not replay: the moves were played with them.
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut stripped = first.clone();
    stripped["start"].as_object_mut().unwrap().remove("extra");
    let other = temp("start_values", "stripped.jsonl");
    std::fs::write(&other, serde_json::to_string(&stripped).unwrap()).unwrap();
    let o = outflank(&["replay", SUPPLY, &other]);
    assert!(!o.status.success(), "{}", stdout(&o));
}

#[test]
fn bad_values_get_one_line_each() {
    for (extra, says) in [
        (
            r#"{"suply": {"black": 0}}"#,
            "no token or counter named `suply`; these rules have supply, taken",
        ),
        (
            r#"{"supply": "black"}"#,
            "`supply` is a counter: give each player's value",
        ),
        (
            r#"{"supply": {"blak": 1}}"#,
            "no player named `blak`; the players are black and white",
        ),
        (
            r#"{"supply": {"black": 1.5}}"#,
            "black's value 1.5 is not a whole number",
        ),
        (
            r#"{"supply": {"black": 2000000000}}"#,
            "counters hold whole numbers below a billion",
        ),
        ("[1]", "expected a JSON object"),
        ("{", "not JSON"),
    ] {
        let o = outflank(&["moves", SUPPLY, "--extra", extra]);
        assert!(!o.status.success(), "{extra}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{extra}: {err}");
        assert!(
            err.contains("--extra: ") && err.contains(says),
            "{extra}: {err}"
        );
    }
    let o = outflank(&["moves", "games/othello.rules", "--extra", r#"{"x": null}"#]);
    assert!(
        stderr(&o).contains("no token or counter named `x`: these rules have none"),
        "{}",
        stderr(&o)
    );
}
