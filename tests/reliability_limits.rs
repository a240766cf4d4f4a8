//! Hostile input, continued (tests/reliability.rs has the first part): warnings held once,
//! files that are right, control characters, memory bounds of solve, perft and a long think,
//! what the fuzzer found, records of interrupted plays, costly loops, and endless inputs to
//! records, shards, computer players and threads.

use crate::common;

use super::reliability::*;
use crate::common::run::{outflank, outflank_with_input, stderr, stdout};
use std::process::Command;

/// Ten thousand warnings: each shares the file instead of copying it (they took 1.4 GB), and
/// the first hundred are shown with a count of the rest.
#[test]
fn many_warnings_are_held_once_and_shown_in_part() {
    let mut text = String::from(ENDLESS_GAME);
    for i in 0..10_000 {
        text.push_str(&format!("def unused{i} = {i}\n"));
    }
    let path = write_temp("many-warnings.rules", &text);
    let o = outflank_limited(&format!("--as={}", 512u64 << 20), &["check", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.matches("is never used").count(), 100);
    assert!(
        err.contains("... and 9900 more warnings, not shown: fix these first"),
        "{}",
        &err[err.len().saturating_sub(500)..]
    );
}

/// Files that are right but were explained as wrong: each now checks, and plays.
#[test]
fn right_files_are_not_called_wrong() {
    let chain: String = (0..40)
        .map(|i| format!("def d{i} = d{} + 1\n", i + 1))
        .collect();
    let cases = [
        // A byte-order mark, as some editors write.
        ("bom.rules", format!("\u{feff}{ENDLESS_GAME}")),
        // Old Mac line endings.
        ("cr.rules", ENDLESS_GAME.replace('\n', "\r")),
        // Windows line endings.
        ("crlf.rules", ENDLESS_GAME.replace('\n', "\r\n")),
        // A region used before it is written.
        (
            "region-order.rules",
            ENDLESS_GAME.replace(
                "score p = count(p)",
                "score p = count(p & inner)\nregion inner = outer - corners\nregion outer = all",
            ),
        ),
        // Forty defs in a chain: long, not recursive.
        (
            "def-chain.rules",
            ENDLESS_GAME.replace("score p = count(p)", "score p = count(p) + d0")
                + &chain
                + "def d40 = 1\n",
        ),
    ];
    for (name, text) in cases {
        let path = write_temp(name, text);
        let o = outflank(&["check", &path]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert!(stderr(&o).is_empty(), "{name}: {}", stderr(&o));
    }
    // Lines are counted as an editor counts them, whatever the line endings.
    for (name, ending) in [("cr-bad.rules", "\r"), ("crlf-bad.rules", "\r\n")] {
        let path = temp(name);
        let text = format!("{ENDLESS_GAME}bogus item\n").replace('\n', ending);
        std::fs::write(&path, text).unwrap();
        let o = outflank(&["check", &path]);
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).contains(&format!("{name}:9:1]")),
            "{}",
            stderr(&o)
        );
    }
}

/// What a user typed is shown back without its control characters: an escape sequence in a
/// move cannot clear or recolour the terminal.
#[test]
fn control_characters_are_shown_as_escapes() {
    let o = outflank(&["moves", "games/othello.rules", "--moves", "d3 \u{1b}[2J"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stderr(&o).contains('\u{1b}'));
    assert!(
        stderr(&o).contains("`\\u{1b}[2J` is not legal"),
        "{}",
        stderr(&o)
    );
    let o = outflank(&["explain", "games/othello.rules", "\u{1b}[31mx"]);
    assert!(!stdout(&o).contains('\u{1b}') && !stderr(&o).contains('\u{1b}'));
    assert!(
        stdout(&o).contains("\\u{1b}[31mx is not legal"),
        "{}",
        stdout(&o)
    );
    let o = outflank_with_input(
        &["play", "games/othello.rules", "--white", "human"],
        "\u{7}\u{1b}[2J\nquit\n",
    );
    assert!(!stdout(&o).contains('\u{1b}') && !stdout(&o).contains('\u{7}'));
    assert!(stdout(&o).contains("\\u{7}\\u{1b}[2J"), "{}", stdout(&o));
}

/// `solve` keeps its tables within `--memory`: on a game far too large to solve it runs on
/// under an address-space limit a little above it, where its tables used to grow past 2 GB
/// in seconds.
#[test]
fn solve_stays_within_its_memory() {
    for rules in ["games/vect-reverse.rules", "games/reversi-go-9x9.rules"] {
        let mut child = Command::new("prlimit")
            // The main thread's 256 MB stack, the tables' 64 MB, and room for the rest.
            .arg(format!("--as={}", 512u64 << 20))
            .arg(env!("CARGO_BIN_EXE_outflank"))
            .args(["solve", rules, "--memory", "64"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_secs(3));
        let status = child.try_wait().unwrap();
        let _ = child.kill();
        let o = child.wait_with_output().unwrap();
        assert!(
            status.is_none(),
            "{rules}: ended with {status:?}: {}",
            stderr(&o)
        );
    }
    // Sizes in megabytes (the number alone) or with a unit; out of range or not a size, a
    // usage error that says what to write.
    for (bad, said) in [
        ("8", "out of range: the table takes 16M to 1024G"),
        ("2T", "write a number with K, M or G"),
        ("99999999999G", "out of range"),
        ("G", "write a number with K, M or G"),
    ] {
        let o = outflank(&["solve", "games/othello.rules", "--memory", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains(said), "{bad}: {}", stderr(&o));
    }
    for good in ["16", "16M", "64m", "1G", "16384K", "1GiB"] {
        let o = outflank(&[
            "solve",
            "games/othello.rules",
            "--set",
            "size=4",
            "--memory",
            good,
        ]);
        assert!(o.status.success(), "{good}: {}", stderr(&o));
    }
}

/// `--memory` bounds the table at its largest too, as the process's peak shows: the table
/// doubles in place, where a new one made beside the old held half as much again at the last
/// doubling (a solve of Verto 5x5 under `--memory 8G` peaked at 12 GiB).
#[test]
fn solve_peaks_within_its_memory() {
    const TABLE_KB: u64 = 128 << 10;
    let mut child = Command::new(env!("CARGO_BIN_EXE_outflank"))
        .args(["solve", "games/verto-8x8.rules", "--memory", "128M"])
        .args(["--jobs", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let peak = || common::run::memory_kb(child.id(), "VmHWM");
    // Before its last doubling the table had half the 128 MB, so a process past 128 MB holds
    // the whole table (the rest of the process is about 12 MB).
    let start = std::time::Instant::now();
    while peak() < TABLE_KB {
        assert!(
            start.elapsed().as_secs() < 120,
            "the table never grew to its size: {} kB",
            peak()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Time for the doubling under way to finish (it takes a fraction of this).
    std::thread::sleep(std::time::Duration::from_secs(1));
    let most = peak();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        most < TABLE_KB + (32 << 10),
        "peaked at {most} kB under --memory 128M"
    );
}

/// `perft`'s memo of positions inside turns keeps to its 512 MB, growing included: a fixed
/// count of entries took 0.75 GB on VECT-REVERSE's 64 cells, and four times as much on the
/// widest boards with eight players.
#[test]
fn perft_memo_keeps_to_its_memory() {
    let child = common::run::spawn_piped(&["perft", "games/vect-reverse.rules", "--depth", "6"]);
    let (o, peak) = common::run::wait_with_peak_kb(child);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("perft 6: 39910856 leaves"),
        "{}",
        stdout(&o)
    );
    // The memo fills and is cleared at this depth: it held 0.75 GB before.
    assert!(peak < (512 + 32) << 10, "peaked at {peak} kB");
}

/// A computer player's tree keeps to its 128 MB however long it thinks: it grew a node a
/// playout, about 125 MB a second of thought in a test build (400 MB in 3 s).
#[test]
fn a_long_think_keeps_its_tree_within_bounds() {
    use std::io::Write;
    let mut child = common::run::spawn_piped(&[
        "play",
        "games/othello.rules",
        "--black",
        "mcts:4000ms",
        "--white",
        "human",
    ]);
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let (o, peak) = common::run::wait_with_peak_kb(child);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("black (mcts:4000ms) plays"),
        "{}",
        stdout(&o)
    );
    assert!(peak < 200 << 10, "peaked at {peak} kB");
}

/// Cases the fuzz campaign (tests/fuzz.rs) found, kept as plain tests.
#[test]
fn what_the_fuzzer_found_stays_fixed() {
    // A line pattern on a board one cell wide: its diagonals have a step of 0 (it panicked).
    let narrow = temp("one-wide.rules");
    std::fs::write(
        &narrow,
        "title \"narrow\"\nboard 1 x 6\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
         line outflank = opponent+ friend\n\
         turn { choose c in empty where true { place c flip captured(outflank, c) } }\n\
         end when none(empty)\nscore p = count(p)\n",
    )
    .unwrap();
    for command in [vec!["trace"], vec!["perft", "--depth", "3"], vec!["solve"]] {
        let (args, o) = on_file(&command, &narrow);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
    // Any empty cell may be taken: 6 x 5 x 4 sequences of three placements.
    let o = outflank(&["perft", &narrow, "--depth", "3"]);
    assert!(stdout(&o).contains("120"), "{}", stdout(&o));

    // A choice whose option leads back to it through a loop, with nothing changed: its options
    // were tried inside one another until the stack ran out.
    let trials = temp("trials.rules");
    std::fs::write(
        &trials,
        "title \"trials\"\nboard 4 x 4\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
         turn {\n  while true {\n    choose c in corners {\n      require some(empty)\n      \
         choose d in friend { place d }\n    }\n  }\n}\n\
         end when none(empty)\nscore p = count(p)\n",
    )
    .unwrap();
    for command in [vec!["moves"], vec!["run", "--games", "1"], vec!["trace"]] {
        let (args, o) = on_file(&command, &trials);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("options were tried inside one another 256 deep"),
            "{err}"
        );
        assert!(err.contains("trials.rules:8:12"), "{err}");
        assert!(
            err.contains("this option leads back to its own choice"),
            "{err}"
        );
    }
}

/// `play --record` keeps the game in a file: written before the first move (a file that cannot
/// be written is said at once) and again when the session ends, whoever played.
#[test]
fn play_keeps_its_game_in_a_record() {
    let record = temp("played-record.json");
    let _ = std::fs::remove_file(&record);
    // After the players, as the other options of `play` may come.
    let o = outflank_with_input(
        &[
            "play",
            "games/othello.rules",
            "--black",
            "random",
            "--white",
            "greedy",
            "--record",
            &record,
        ],
        "undo\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Computers' turns are not taken back: there is no human turn to go back to.
    assert!(stdout(&o).contains("nothing to undo"), "{}", stdout(&o));
    assert!(stderr(&o).contains(&format!("the game is saved to {record}")));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert!(saved["moves"].as_array().unwrap().len() >= 30, "{saved}");
    assert!(saved["result"]["scores"].is_object(), "{saved}");
    let o = outflank(&["replay", "games/othello.rules", &record, "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let o = outflank_with_input(
        &[
            "play",
            "games/othello.rules",
            "--record",
            "/nonexistent/dir/game.json",
        ],
        "d3\nquit\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        "error: cannot write the game to /nonexistent/dir/game.json: No such file or directory (os error 2)"
    );
    assert!(stdout(&o).is_empty(), "no game is begun: {}", stdout(&o));
}

/// Ctrl-C, SIGTERM or a closed terminal (SIGHUP) in the middle of `play` keeps the game: in
/// the record file, which replays, or as the moves printed when there is no file.
#[test]
fn an_interrupted_play_keeps_its_game() {
    use std::io::{Read, Write};
    for (signal, with_file) in [
        ("-INT", true),
        ("-TERM", true),
        ("-HUP", true),
        ("-INT", false),
    ] {
        let record = temp(&format!("interrupted-play{signal}.json"));
        let _ = std::fs::remove_file(&record);
        let mut args = vec!["play", "games/othello.rules", "--white", "greedy"];
        if with_file {
            args.extend(["--record", &record]);
        }
        let mut child = common::run::spawn_piped(&args);
        // The human plays d3 and leaves standard input open, as at a terminal.
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"d3\n").unwrap();
        let mut output = child.stdout.take().unwrap();
        let mut shown = String::new();
        let began = std::time::Instant::now();
        // Waits for the computer's reply and the prompt after it.
        while !shown.contains("white (greedy) plays") || !shown.ends_with("black> ") {
            assert!(began.elapsed().as_secs() < 60, "no reply: {shown}");
            let mut buf = [0u8; 4096];
            let n = output.read(&mut buf).unwrap();
            assert!(n > 0, "play ended early: {shown}");
            shown.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        let reply = shown
            .split("white (greedy) plays ")
            .nth(1)
            .and_then(|r| r.lines().next())
            .unwrap()
            .to_string();
        let o = interrupt(child, signal);
        drop(input);
        assert_eq!(o.status.code(), Some(130), "{signal}: {}", stderr(&o));
        if !with_file {
            assert_eq!(
                stderr(&o).trim(),
                format!("interrupted after 2 moves: d3 {reply}")
            );
            continue;
        }
        assert_eq!(
            stderr(&o).trim(),
            format!("interrupted: the game so far is saved to {record}"),
            "{signal}"
        );
        let saved: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
        assert_eq!(saved["moves"], serde_json::json!(["d3", reply]), "{signal}");
        assert!(saved["result"].is_null(), "an unfinished game: {saved}");
        let o = outflank(&["replay", "games/othello.rules", &record, "--quiet"]);
        assert_eq!(o.status.code(), Some(0), "{signal}: {}", stderr(&o));
    }
}

/// A loop whose rounds change nothing is endless whatever each round costs: it is reported
/// as soon as its state repeats, not after a million costly rounds (here about 300 CPU
/// seconds: a flood of the 26 x 26 board for each of its cells in every round). The CPU limit
/// only ends the run if that went wrong.
#[test]
fn a_costly_loop_that_changes_nothing_is_stopped_at_once() {
    let path = write_temp(
        "costly-loop.rules",
        "title \"costly loop\"\nboard 26 x 26\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
         turn {\n  while some(empty) {\n    choose c in empty where count(liberties(group(c))) > 0 {\n\
         \x20     require turn < 0\n    }\n  }\n}\nend when none(empty)\nscore p = count(p)\n",
    );
    let o = outflank_limited("--cpu=30", &["moves", &path]);
    assert_loop_without_end(&o, "costly-loop.rules:7:3");
}

/// Ctrl-C or SIGTERM during `solve`: what is proved so far is printed, not lost.
#[test]
fn an_interrupted_solve_says_what_it_has_proved() {
    for signal in ["-INT", "-TERM"] {
        // Othello 6x6 from the start: longer than the wait below.
        let child = common::run::spawn_piped(&["solve", "games/othello.rules", "--set", "size=6"]);
        std::thread::sleep(std::time::Duration::from_secs(3));
        let o = interrupt(child, signal);
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        let said = stderr(&o);
        let rest = said
            .trim()
            .strip_prefix("interrupted after ")
            .unwrap_or_else(|| panic!("{said}"));
        let (positions, rest) = rest.split_once(" positions in ").unwrap();
        assert!(positions.parse::<u64>().unwrap() > 0, "{said}");
        let (_, proved) = rest.split_once(" s: ").unwrap();
        // Before the first empty-window search ends nothing is proved; the solve first learns
        // its move order from 1,500 sample endgames (docs/SOLVED.md), and says how far it
        // got. After that search, the bounds on Black's value (Black loses by four) hold the
        // true value.
        let learning = proved
            .strip_prefix("nothing is proved yet; learning the move order: ")
            .and_then(|l| l.strip_suffix(" sample endgames solved"))
            .and_then(|l| l.split_once(" of "))
            .map(|(valued, of)| (valued.parse::<u32>().unwrap(), of));
        assert!(
            proved == "nothing is proved yet"
                || learning.is_some_and(|(valued, of)| valued <= 1500 && of == "1500")
                || proved.starts_with("the value is at most black loses by ")
                || proved.starts_with("the value is between black loses by "),
            "{said}"
        );
    }
}

/// A line's repetition past the board's cells is an error at `check`, for every command that
/// loads the file and for each board size a parameter gives: a count near 2^32 once passed
/// with a warning, and then every command that asked about the line spent tens of seconds on a
/// position. Each command here runs under a limit of 10 s of processor time.
#[test]
fn a_repeat_count_past_the_board_is_refused_at_once() {
    let rules = |count: &str| {
        format!(
            "param size = 8\nboard size x size\nplayer black 'B'\nplayer white 'W'\n\
             line outflank = opponent{{{count}}} friend\n\
             turn {{ choose c in empty where some(captured(outflank, c)) {{ place c  \
             flip captured(outflank, c) }} }}\nend when blocked\nscore p = count(p)\n"
        )
    };
    let huge = write_temp("repeat-huge.rules", rules("4294967295"));
    for command in [
        &["check"][..],
        &["moves"],
        &["perft", "--depth", "2"],
        &["run", "--games", "1"],
        &["trace", "--seed", "1"],
        &["render", "--svg", "/dev/null"],
    ] {
        let mut args = vec![command[0], huge.as_str()];
        args.extend(&command[1..]);
        let o = outflank_limited("--cpu=10", &args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("a repetition of 4294967295 cells is longer than any line on this board")
                && err.contains("the board has 64 cells"),
            "{args:?}: {err}"
        );
    }
    // Forty cells fit the board of 64 cells that the default size gives, not one of 16.
    let forty = write_temp("repeat-forty.rules", rules("40"));
    let fits = outflank(&["check", &forty]);
    assert!(fits.status.success(), "{}", stderr(&fits));
    let small = outflank(&["moves", &forty, "--set", "size=4"]);
    assert_eq!(small.status.code(), Some(1));
    assert!(
        stderr(&small).contains("a repetition of 40 cells is longer than any line on this board"),
        "{}",
        stderr(&small)
    );
}

/// Records, shards and transcripts are read whole up to a bound (docs/RELIABILITY.md): an
/// endless file stops there with a one-line error, under a bounded peak of memory, where
/// `replay` on /dev/zero once reached 2 GB in 5 s and went on.
#[test]
fn endless_records_shards_and_transcripts_stop_at_their_bound() {
    for args in [
        &["replay", "games/othello.rules", "/dev/zero"][..],
        &[
            "convert",
            "games/othello.rules",
            "/dev/zero",
            "--from",
            "record",
            "--to",
            "sgf",
        ],
        &[
            "convert",
            "games/othello.rules",
            "/dev/zero",
            "--from",
            "ggf",
            "--to",
            "record",
        ],
        &["merge", "/dev/zero"],
        &["play", "games/othello.rules", "--resume", "/dev/zero"],
    ] {
        let o = outflank_limited("--as=1500000000", args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("/dev/zero is larger than 256 MB;") && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}

/// A computer player's playouts end where a game does: one that runs past the limit of a
/// whole game makes the game an endless one, reported as such, where each such playout once
/// counted as a draw and `run --agents mcts:1,mcts:1` went on for hours.
#[test]
fn a_computer_player_on_an_endless_game_reports_it() {
    let path = write_temp("endless-for-mcts.rules", ENDLESS_GAME);
    let o = outflank_limited(
        "--cpu=60",
        &["run", &path, "--games", "1", "--agents", "mcts:1,mcts:1"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the game did not end within 1000000 steps"),
        "{err}"
    );
}

/// The solver's helper threads have the stack of the thread that searches alone: on a game
/// that never ends, `solve --jobs 2` reports the endless line as `--jobs 1` does, where its
/// helpers once overflowed their stacks and the process aborted.
#[test]
fn a_solve_on_several_threads_reports_an_endless_game() {
    let path = write_temp(
        "endless-for-solve.rules",
        "board 4 x 4\nplayer black 'B'\nplayer white 'W'\n\
         turn { choose c in empty { } }\nend when blocked\nscore p = count(p)\n",
    );
    for jobs in ["1", "2"] {
        let o = outflank(&["solve", &path, "--jobs", jobs]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "--jobs {jobs}: {err}");
        assert!(
            err.contains("without the game ending"),
            "--jobs {jobs}: {err}"
        );
    }
}
