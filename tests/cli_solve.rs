//! `solve` through the built binary: the published lines of 6x6 Othello and Anti-Othello,
//! outcomes, the judge, and threads.

use crate::common::run::{json, outflank, stderr, stdout};

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
