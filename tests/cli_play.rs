//! `play` through the built binary: scripted games on standard input, seats and agents, the
//! clock, taking back, saving and resuming, resigning, and agreement on dead groups.

use crate::common;
use crate::common::run::{json, outflank, outflank_with_input, stderr, stdout, TWO_PEOPLE_ON_4X4};
use serde_json::Value;

fn temp(name: &str) -> String {
    common::run::temp("cli", name)
}

#[test]
fn play_a_scripted_game_through_standard_input() {
    let saved = temp("played.json");
    // Two humans on 4x4: a typo, a look at the legal moves, an undo, then the game to its end.
    let script = format!(
        "a1\nD3\n?\nb1\nundo\nb1\na1\na2\nc1\nd4\na3\nd1\nb4\na4\nc4\nsave {saved}\nquit\n"
    );
    let o = outflank_with_input(&TWO_PEOPLE_ON_4X4, &script);
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
