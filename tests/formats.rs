//! `outflank convert`: Othello transcripts, GGF and SGF read and written, against files written
//! by hand from the formats' published descriptions, and round trips of recorded games.

use crate::common::run::{outflank, stderr, stdout};
use serde_json::Value;

fn temp(name: &str) -> String {
    crate::common::run::temp("formats", name)
}

fn write(name: &str, text: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Converts and returns standard output, asserting success.
fn convert(args: &[&str]) -> String {
    let mut all = vec!["convert"];
    all.extend(args);
    let o = outflank(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The shortest game of Othello: Black wipes White out in nine moves, 13 - 0.
const WIPEOUT: &str = "e6f4e3f6g5d6e7f5c5";

#[test]
fn a_transcript_is_checked_and_written_back() {
    let txt = write("wipeout.txt", &format!("{WIPEOUT}\n"));
    let json = convert(&["games/othello.rules", &txt, "--to", "record"]);
    let record: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(record["moves"].as_array().unwrap().len(), 9, "{json}");
    assert_eq!(record["result"]["winner"], "black", "{json}");
    assert_eq!(record["result"]["scores"]["black"], 13.0, "{json}");
    assert_eq!(record["result"]["scores"]["white"], 0.0, "{json}");
    // Back to a transcript, and through GGF to one: the same nine moves.
    let rec = write("wipeout.json", &json);
    assert_eq!(
        convert(&["games/othello.rules", &rec, "--to", "transcript"]),
        format!("{WIPEOUT}\n")
    );
    let ggf = write(
        "wipeout.ggf",
        &convert(&["games/othello.rules", &rec, "--to", "ggf"]),
    );
    assert_eq!(
        convert(&["games/othello.rules", &ggf, "--to", "transcript"]),
        format!("{WIPEOUT}\n")
    );
    // Upper case and spaces, as transcripts are also written, read the same.
    let spaced = write("spaced.txt", "E6 F4 E3 F6 G5 D6 E7 F5 C5\n");
    assert_eq!(
        convert(&["games/othello.rules", &spaced, "--to", "transcript"]),
        format!("{WIPEOUT}\n")
    );
    // An illegal move is named by its number, and nothing is written.
    let bad = write("bad.txt", "e6f4e3a1\n");
    let o = outflank(&["convert", "games/othello.rules", &bad, "--to", "record"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("line 1: move 4 (`a1`) is not legal here"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}

/// A game as the Generic Game Server writes it: the board and the side to move in BO, moves
/// with an evaluation and a time after slashes, properties a record has no place for.
#[test]
fn ggf_reads_a_server_game_and_writes_one() {
    let game = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:11.MST]PB[alpha]PW[beta]\
RB[2000.00]RW[1900.00]TI[05:00//02:00]TY[8]RE[+13.000]BO[8 -------- -------- -------- \
---O*--- ---*O--- -------- -------- -------- *]B[e6//0.01]W[f4]B[E3/1.50/0.02]W[f6]B[g5]\
W[d6]B[e7]W[f5]B[c5];)\n";
    let ggf = write("server.ggf", game);
    let o = outflank(&["convert", "games/othello.rules", &ggf, "--to", "record"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(record["players"]["black"], "alpha");
    assert_eq!(record["players"]["white"], "beta");
    assert_eq!(record["moves"][2], "e3");
    assert_eq!(record["result"]["scores"]["black"], 13.0);
    // What a record does not keep is said, each property once.
    for unused in [
        "PC[GGS/os]",
        "DT[",
        "RB[2000.00]",
        "RW[1900.00]",
        "TI[05:00//02:00]",
    ] {
        assert!(stderr(&o).contains(unused), "{unused}: {}", stderr(&o));
    }
    let rec = write("server.json", &stdout(&o));
    assert_eq!(
        convert(&["games/othello.rules", &rec, "--to", "ggf"]),
        "(;GM[Othello]PC[outflank]PB[alpha]PW[beta]RE[+13.000]TY[8]BO[8 -------- -------- \
-------- ---O*--- ---*O--- -------- -------- -------- *]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]\
W[f5]B[c5];)\n"
    );
    // A game on another board is refused, naming both sizes.
    let o = outflank(&[
        "convert",
        "games/othello.rules",
        &ggf,
        "--set",
        "size=6",
        "--to",
        "record",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("a board of 8x8, these rules' is 6x6"),
        "{}",
        stderr(&o)
    );
}

/// A Reversi Go game in SGF: points as two letters from the top left, a resignation, and a
/// variation beside the main line (left out, and said); a resignation a record cannot hold (by
/// the player who has just moved) is said too, and the game kept unfinished.
#[test]
fn sgf_reads_the_main_line_and_writes_it_back() {
    let game =
        "(;FF[4]GM[1]SZ[9]PB[Ann]PW[Bob]KM[5.5]RE[B+R]\n;B[ee];W[dc]\n(;B[cg])\n(;B[gg];W[gc]))\n";
    let sgf = write("go.sgf", game);
    let o = outflank(&[
        "convert",
        "games/reversi-go-9x9.rules",
        &sgf,
        "--to",
        "record",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        record["moves"],
        serde_json::json!(["e5", "d3", "c7"]),
        "{}",
        stdout(&o)
    );
    assert_eq!(record["result"]["resigned"], "white");
    assert_eq!(record["result"]["winner"], "black");
    assert!(stderr(&o).contains("KM[5.5]"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 nodes of other variations"),
        "{}",
        stderr(&o)
    );
    let rec = write("go.json", &stdout(&o));
    assert_eq!(
        convert(&["games/reversi-go-9x9.rules", &rec, "--to", "sgf"]),
        "(;FF[4]GM[1]CA[UTF-8]AP[outflank]SZ[9]PB[Ann]PW[Bob]RE[B+R]\n;B[ee]\n;W[dc]\n;B[cg])\n"
    );
    // White's time running out on its turn: a loss on time, written back as such.
    let timed = write("timed.sgf", "(;FF[4]GM[1]SZ[9]RE[B+T];B[ee])");
    let json = convert(&["games/reversi-go-9x9.rules", &timed, "--to", "record"]);
    let record: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(record["result"]["resigned"], "white", "{json}");
    assert_eq!(record["result"]["on_time"], true, "{json}");
    let rec = write("timed.json", &json);
    assert!(convert(&["games/reversi-go-9x9.rules", &rec, "--to", "sgf"]).contains("RE[B+T]"));
    assert!(convert(&["games/reversi-go-9x9.rules", &rec, "--to", "ggf"]).contains(":t]"));
    // Black resigning after its own move: kept unfinished, and said.
    let late = write("late.sgf", "(;FF[4]GM[1]SZ[9]RE[W+R];B[ee])");
    let o = outflank(&[
        "convert",
        "games/reversi-go-9x9.rules",
        &late,
        "--to",
        "record",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(record["result"].is_null(), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("RE[W+R]: black resigns after black's move"),
        "{}",
        stderr(&o)
    );
    // An empty move is a pass; a point off the board is refused.
    let passed = write("pass.sgf", "(;FF[4]GM[1]SZ[9];B[ee];W[];B[dd])");
    let json = convert(&["games/reversi-go-9x9.rules", &passed, "--to", "record"]);
    let record: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(record["moves"], serde_json::json!(["e5", "pass", "d4"]));
    let off = write("off.sgf", "(;FF[4]GM[1]SZ[9];B[ej])");
    let o = outflank(&[
        "convert",
        "games/reversi-go-9x9.rules",
        &off,
        "--to",
        "record",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("`ej` is not a point of a 9x9 board"),
        "{}",
        stderr(&o)
    );
}

/// Recorded games of 6x6 Othello (random players: passes happen) go through each format and
/// back to the same moves and results; a game the formats cannot hold is refused by name.
#[test]
fn recorded_games_round_trip_through_every_format() {
    let games = temp("random.jsonl");
    let o = outflank(&[
        "run",
        "games/othello.rules",
        "--set",
        "size=6",
        "--games",
        "12",
        "--seed",
        "5",
        "--record",
        &games,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let moves_and_results = |jsonl: &str| -> Vec<(Value, Value)> {
        jsonl
            .lines()
            .map(|l| {
                let r: Value = serde_json::from_str(l).unwrap();
                (r["moves"].clone(), r["result"].clone())
            })
            .collect()
    };
    let original = moves_and_results(&std::fs::read_to_string(&games).unwrap());
    let passes = original
        .iter()
        .filter(|(m, _)| m.as_array().unwrap().iter().any(|m| m == "pass"))
        .count();
    assert!(
        passes > 0,
        "no game with a pass: the test would not test them"
    );
    for (format, ext) in [("transcript", "txt"), ("ggf", "ggf"), ("sgf", "sgf")] {
        let file = temp(&format!("random.{ext}"));
        let o = outflank(&[
            "convert",
            "games/othello.rules",
            &games,
            "--to",
            format,
            "-o",
            &file,
        ]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        let back = convert(&[
            "games/othello.rules",
            &file,
            "--set",
            "size=6",
            "--to",
            "record",
        ]);
        assert_eq!(moves_and_results(&back), original, "{format}");
    }
    // Verto's captures are steps after the placement (random players make some in five
    // games): no transcript holds them.
    let verto = temp("verto.jsonl");
    let o = outflank(&[
        "run",
        "games/verto-8x8.rules",
        "--games",
        "5",
        "--record",
        &verto,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = outflank(&[
        "convert",
        "games/verto-8x8.rules",
        &verto,
        "--to",
        "transcript",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("is not a placement on one cell or a pass"),
        "{}",
        stderr(&o)
    );
}

/// A GGF result that the moves contradict is named as not kept (the record keeps the moves'
/// result), and `--output` naming the input by another path is refused, the input unchanged.
#[test]
fn a_contradicted_result_is_named_and_the_input_is_never_written_over() {
    let moves = write("wipeout.txt", WIPEOUT);
    let ggf = convert(&["games/othello.rules", &moves, "--to", "ggf"]);
    assert!(ggf.contains("RE[+13.000]"), "{ggf}");
    let forged = ggf.replace("RE[+13.000]", "RE[+64.000]");
    let wrong = write("contradicted.ggf", &forged);
    let o = outflank(&["convert", "games/othello.rules", &wrong, "--to", "record"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(record["result"]["scores"]["black"], 13.0);
    assert!(
        stderr(&o).contains(
            "note: not kept (a record has no place for it): RE[+64.000] (the moves give +13.000)"
        ),
        "{}",
        stderr(&o)
    );
    // The input by a path through a folder and back.
    let dir = std::path::Path::new(&wrong).parent().unwrap().to_path_buf();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let round = dir.join("sub/../contradicted.ggf");
    let o = outflank(&[
        "convert",
        "games/othello.rules",
        &wrong,
        "--to",
        "sgf",
        "--output",
        round.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&wrong).unwrap(), forged);
}

/// A board of a size and nothing else, as libFuzzer found it (`.ci/fuzz`): the GGF reader
/// sliced the cells between the size and the player to move without asking whether there were
/// any, and panicked. Now a one-line error.
#[test]
fn a_ggf_board_of_a_size_alone_is_refused_in_one_line() {
    for (board, message) in [
        (
            "BO[8]",
            "BO[...] has no cells after the size 8, and no player to move",
        ),
        ("BO[8 *]", "BO[...] has 0 cells for a board of 64"),
    ] {
        let file = write("size-alone.ggf", &format!("(;GM[Othello]{board}B[f5];)\n"));
        let o = outflank(&["convert", "games/othello.rules", &file, "--to", "record"]);
        assert_eq!(o.status.code(), Some(1), "{board}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(message), "{board}: {err}");
        assert!(!err.contains("panicked"), "{board}: {err}");
    }
}
