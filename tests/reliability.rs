//! Hostile input, one class at a time: what would crash, hang, eat memory, lose data or explain
//! itself wrongly gets a precise outcome instead (a diagnostic with a location, a one-line error
//! with a non-zero exit, a bounded run). docs/RELIABILITY.md lists the limits these tests hold.

use crate::common;

use crate::common::run::{outflank, outflank_with_input, stderr, stdout};
use std::process::{Command, Output};

pub(crate) fn temp(name: &str) -> String {
    common::run::temp("reliability", name)
}

/// Writes `contents` as the file `name` (a rules file, a record) in this test binary's folder;
/// returns its path.
pub(crate) fn write_temp(name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = temp(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// Runs outflank from the repository under a `prlimit` resource limit (`--as=BYTES` for
/// address space, `--cpu=SECONDS` for processor time).
pub(crate) fn outflank_limited(limit: &str, args: &[&str]) -> Output {
    Command::new("prlimit")
        .arg(limit)
        .arg(env!("CARGO_BIN_EXE_outflank"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Sends `signal` (`-INT`, `-TERM`, `-HUP`) to `child` and waits for what it printed.
pub(crate) fn interrupt(child: std::process::Child, signal: &str) -> Output {
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait_with_output().unwrap()
}

/// Runs `command` (its name, then its options) on the rules file `path`.
pub(crate) fn on_file<'a>(command: &[&'a str], path: &'a str) -> (Vec<&'a str>, Output) {
    let mut args = vec![command[0], path];
    args.extend(&command[1..]);
    let o = outflank(&args);
    (args, o)
}

/// Games that need not end: every command reports it on one line or as a rule error, none
/// overflows its stack or runs forever.
#[test]
fn games_and_turns_that_never_end_are_errors_not_crashes() {
    let rules = |turn: &str| {
        format!(
            "title \"endless\"\nboard 4 x 4\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
             turn {{ {turn} }}\nend when none(empty)\nscore p = count(p)\n"
        )
    };
    let cases = [
        // A turn that never ends: its choice changes nothing and the loop asks again.
        (
            "endless-turn.rules",
            rules("while true { choose c in all { } }"),
            vec![
                vec!["moves"],
                vec!["perft", "--depth", "2"],
                vec!["solve"],
                vec![
                    "run",
                    "--games",
                    "2",
                    "--agents",
                    "alphabeta:2,random",
                    "--jobs",
                    "2",
                ],
            ],
            "more than 1024 steps",
        ),
        // Turns that end but change nothing: the game goes on for ever.
        (
            "endless-game.rules",
            rules("choose c in all { }"),
            vec![vec!["solve"]],
            "10000 turns without the game ending",
        ),
        (
            "endless-game-of-two-steps.rules",
            rules("choose c in all { } choose d in all { }"),
            vec![vec!["solve"]],
            "10000 turns without the game ending",
        ),
    ];
    for (name, text, commands, message) in cases {
        let path = write_temp(name, text);
        for command in commands {
            let (args, o) = on_file(&command, &path);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        }
    }
}

/// Inputs that used to hang or lose output: each is refused at once with one line and a
/// non-zero exit.
#[test]
fn endless_inputs_and_lost_output_are_refused() {
    // An endless time, an endless file, a thread per game times fifty thousand.
    let o = outflank(&["bench", "games/othello.rules", "--seconds", "inf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give a time above 0 and at most 3600"),
        "{}",
        stderr(&o)
    );
    let o = outflank(&["check", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        "error: /dev/zero is larger than 4 MB; a rules file is text of a few kilobytes"
    );
    let o = outflank(&[
        "run",
        "games/othello.rules",
        "--games",
        "2",
        "--jobs",
        "100000",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: --jobs 100000: at most 1024 threads"),
        "{}",
        stderr(&o)
    );
    // More jobs than games: only as many threads as games.
    let o = outflank(&[
        "run",
        "games/reversi-6x6.rules",
        "--games",
        "2",
        "--jobs",
        "1000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("2 games, seed 1, 2 jobs"),
        "{}",
        stdout(&o)
    );
    // Not UTF-8: said with the byte, not a parse error at 1:1.
    let path = write_temp("latin1.rules", b"title \"caf\xe9\"\n");
    let o = outflank(&["check", &path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not UTF-8 text (byte 11 is not valid)"),
        "{}",
        stderr(&o)
    );
    // Output that cannot be written is an error, not a silent success.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_outflank"))
        .args(["moves", "games/othello.rules"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot write the output"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_empty_move_is_not_explained_as_legal() {
    for blank in ["", "  "] {
        let o = outflank(&["explain", "games/othello.rules", blank]);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            stderr(&o).trim(),
            "error: no move to explain: give one, e.g. `outflank explain FILE d3`"
        );
    }
}

/// A 4x4 game whose turns may change nothing: it need not end.
pub(crate) const ENDLESS_GAME: &str =
    "title \"endless\"\nboard 4 x 4\nplayer black 'B'\nplayer white 'W'\n\
    first black\nturn { choose c in all { } }\nend when none(empty)\nscore p = count(p)\n";

/// The commands that play a game out stop one that never ends at their step limit, and point
/// at the end condition that never came to hold.
#[test]
fn every_command_that_plays_a_game_out_stops_an_endless_one() {
    let path = write_temp("endless-game.rules", ENDLESS_GAME);
    let cases: [(Vec<&str>, &str); 3] = [
        (
            vec!["trace", &path, "--max-steps", "40"],
            "the game did not end within 40 steps",
        ),
        (
            vec![
                "play",
                &path,
                "--max-steps",
                "40",
                "--black",
                "random",
                "--white",
                "greedy",
            ],
            "the game did not end within 40 steps",
        ),
        // The default limit; game 1 is named whatever the threads' timing.
        (
            vec!["run", &path, "--games", "4", "--jobs", "2"],
            "game 1 did not end within 1000000 steps",
        ),
    ];
    for (args, message) in cases {
        let o = outflank(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(err.contains("endless-game.rules:7:1"), "{args:?}: {err}");
        assert!(err.contains("this never came to hold"), "{args:?}: {err}");
    }
    // The trace shows the steps it played (40 of them) before the error.
    let o = outflank(&["trace", &path, "--max-steps", "40"]);
    assert_eq!(stdout(&o).matches(" plays ").count(), 40);
    let o = outflank(&["trace", &path, "--max-steps", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// A loop that never reaches a choice is reported at the loop, by every command.
#[test]
fn a_loop_without_end_is_pointed_at() {
    let path = write_temp(
        "loop.rules",
        "title \"loop\"\nboard 4 x 4\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
         turn {\n  let n = 0\n  while n < 1 { let n = n * 1 }\n  choose c in empty { place c }\n}\n\
         end when none(empty)\nscore p = count(p)\n",
    );
    for command in [
        vec!["moves"],
        vec!["perft", "--depth", "1"],
        vec!["trace"],
        vec!["run", "--games", "1"],
    ] {
        let (args, o) = on_file(&command, &path);
        let err = assert_loop_without_end(&o, "loop.rules:8:3");
        assert!(err.contains("while n < 1"), "{args:?}: {err}");
    }
}

/// `run` keeps counts, not games: a million games fit in a gigabyte of address space, most of
/// it the threads' stacks and allocator arenas (keeping every game's result took 1.5 GB).
#[test]
fn a_long_run_holds_its_statistics_not_its_games() {
    let o = outflank_limited(
        &format!("--as={}", 1u64 << 30),
        &[
            "run",
            "games/othello.rules",
            "--games",
            "1000000",
            "--jobs",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("1000000 games, seed 1"),
        "{}",
        stdout(&o)
    );
}

/// Ctrl-C or SIGTERM ends a run with what it played: a summary of the games that ended, a
/// record file of exactly those games that replays, and exit code 130.
#[test]
fn an_interrupted_run_keeps_its_games() {
    for signal in ["-INT", "-TERM"] {
        let record = temp(&format!("interrupted{signal}.jsonl"));
        let _ = std::fs::remove_file(&record);
        let child = Command::new(env!("CARGO_BIN_EXE_outflank"))
            .args([
                "run",
                "games/othello.rules",
                "--games",
                "100000000",
                "--agents",
                "greedy,random",
                "--record",
                &record,
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Some games must have been written before the signal.
        let began = std::time::Instant::now();
        while std::fs::read_to_string(&record).map_or(0, |t| t.lines().count()) < 20 {
            assert!(began.elapsed().as_secs() < 60, "no games recorded");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let o = interrupt(child, signal);
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        let out = stdout(&o);
        let played: u64 = out
            .strip_prefix("interrupted: ")
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{out}"));
        assert!(
            out.contains(&format!(
                "{}, seed 1",
                outflank::diagnostic::count_of(played, "game")
            )),
            "{out}"
        );
        let text = std::fs::read_to_string(&record).unwrap();
        assert_eq!(text.lines().count() as u64, played);
        assert!(text.ends_with('\n'));
        let o = outflank(&["replay", "games/othello.rules", &record, "--quiet"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
}

/// Replays `record` (JSON text) against `rules`; exit code and the error line.
pub(crate) fn replay(rules: &str, name: &str, record: &str) -> (Option<i32>, String) {
    let path = write_temp(name, record);
    let o = outflank(&["replay", rules, &path, "--quiet"]);
    (o.status.code(), stderr(&o).trim().replace(&path, "RECORD"))
}

/// A resignation is checked like any result: who resigned, who won, the scores.
#[test]
fn forged_resignations_do_not_replay() {
    let saved = temp("resigned.json");
    let o = outflank_with_input(
        &["play", "games/othello.rules", "--white", "human"],
        &format!("d3\nc3\nresign\nsave {saved}\nquit\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let honest = std::fs::read_to_string(&saved).unwrap();
    let record: serde_json::Value = serde_json::from_str(&honest).unwrap();
    // Black resigned at move 3, with 3 discs against 3.
    assert_eq!(record["result"]["resigned"], "black");
    assert_eq!(record["result"]["winner"], "white");
    assert_eq!(record["result"]["scores"]["black"], 3.0);
    assert_eq!(
        replay("games/othello.rules", "honest.json", &honest).0,
        Some(0)
    );
    // A parameter the record sets is blamed on the record, not on a `--set` nobody typed.
    let mut alien = record.clone();
    alien["params"] = serde_json::json!({ "martian": "3" });
    let (code, err) = replay("games/othello.rules", "alien.json", &alien.to_string());
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with("error: RECORD: the record's parameter martian=3: no parameter named")
            && !err.contains("--set"),
        "{err}"
    );
    // Said as the end it is, where `replay` once called it "not finished".
    let path = write_temp("honest-said.json", &honest);
    let o = outflank(&["replay", "games/othello.rules", &path, "--quiet"]);
    assert_eq!(
        stdout(&o).trim().replace(&path, "RECORD"),
        "RECORD: 2 moves replayed, black resigned: white wins"
    );
    let forge = |field: &str, value: serde_json::Value| {
        let mut r = record.clone();
        let mut at = &mut r["result"];
        for key in field.split('.') {
            at = &mut at[key];
        }
        *at = value;
        r.to_string()
    };
    let cases = [
        (
            forge("scores.black", 999.into()),
            "the record says black 999, white 3 (white wins), but the replay ends with black 3, white 3 (white wins)",
        ),
        (
            forge("resigned", "martian".into()),
            "the resignation does not replay: `martian` is not a player of these rules",
        ),
        (
            forge("resigned", "white".into()),
            "the resignation does not replay: white resigned, but it was black's turn",
        ),
        (
            forge("winner", "black".into()),
            "the resignation does not replay: black resigned, so white wins, but the record names black",
        ),
    ];
    for (forged, message) in cases {
        let (code, err) = replay("games/othello.rules", "forged.json", &forged);
        assert_eq!(code, Some(1), "{err}");
        assert_eq!(err, format!("error: RECORD: {message}"));
    }
    // A resignation of a finished game: the whole game is played, then someone "resigns".
    let o = outflank(&[
        "run",
        "games/reversi-6x6.rules",
        "--games",
        "1",
        "--record",
        &temp("finished.jsonl"),
    ]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(temp("finished.jsonl")).unwrap();
    let mut finished: serde_json::Value =
        serde_json::from_str(text.lines().last().unwrap()).unwrap();
    finished["result"]["resigned"] = "black".into();
    let (code, err) = replay(
        "games/reversi-6x6.rules",
        "late.json",
        &finished.to_string(),
    );
    assert_eq!(code, Some(1));
    assert!(
        err.ends_with("black resigned a game that was already over"),
        "{err}"
    );
}

/// A record carries what it needs: its start position; and its hash follows what the rules
/// say, not how they are laid out.
#[test]
fn records_replay_from_their_start_and_outlive_comments() {
    let record = temp("from-position.jsonl");
    let _ = std::fs::remove_file(&record);
    let position = "......../......../......../...BW.../...WWW../......../......../........";
    let o = outflank(&[
        "run",
        "games/othello.rules",
        "--games",
        "3",
        "--position",
        position,
        "--to-move",
        "black",
        "--record",
        &record,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&record).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["start"]["rows"], position);
    assert_eq!(first["start"]["to_move"], "black");
    let o = outflank(&["replay", "games/othello.rules", &record, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3);

    // The same rules with comments, blank lines and another layout: the records still replay.
    let rules = std::fs::read_to_string("games/othello.rules").unwrap();
    let relaid: String = rules
        .lines()
        .map(|l| format!("   {}   // a note\n\n", l.replace(" = ", "=")))
        .collect();
    let relaid_path = write_temp("othello-relaid.rules", relaid);
    let o = outflank(&["replay", &relaid_path, &record, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A change of meaning does not.
    let changed_path = write_temp(
        "othello-changed.rules",
        rules.replacen("in 4 to 26", "in 4 to 24", 1),
    );
    assert_ne!(rules, std::fs::read_to_string(&changed_path).unwrap());
    let o = outflank(&["replay", &changed_path, &record, "--quiet"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the record was made with other rules (games/othello.rules"),
        "{}",
        stderr(&o)
    );

    // Another game's record is said to be another game's, before its parameters are tried.
    let o = outflank(&["replay", "games/reversi-go-9x9.rules", &record, "--quiet"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("the record was made with other rules (games/othello.rules"),
        "{err}"
    );
    assert!(!err.contains("--set"), "{err}");
}

/// Asserts that `o` failed with the endless-loop rule error pointing at `place` (FILE:LINE:COL);
/// returns its stderr.
pub(crate) fn assert_loop_without_end(o: &Output, place: &str) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the turn program went round without reaching a choice"),
        "{err}"
    );
    assert!(err.contains(place), "{err}");
    err
}
