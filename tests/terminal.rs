//! `play` in a real terminal: tmux runs it in a pane of a tmux server of the test's own, keys
//! are sent as a person types them (arrows, Tab, Enter), and the pane's screen is read back,
//! with its colours when asked.

use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server with one pane running `outflank`, killed when dropped.
struct Pane {
    socket: String,
}

impl Pane {
    /// `outflank ARGS` in an 80x50 pane, with `env` set (NO_COLOR unset and no history file
    /// unless given).
    fn start(name: &str, env: &[(&str, &str)], args: &[&str]) -> Pane {
        let socket = format!("outflank-{name}-{}", std::process::id());
        let mut command = vec!["env".to_string(), "-u".into(), "NO_COLOR".into()];
        command.push("OUTFLANK_HISTORY=".into());
        command.extend(env.iter().map(|(k, v)| format!("{k}={v}")));
        command.push(env!("CARGO_BIN_EXE_outflank").into());
        command.extend(args.iter().map(|a| a.to_string()));
        let quoted: Vec<String> = command
            .iter()
            .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
            .collect();
        let pane = Pane { socket };
        let o = pane
            .tmux(&[
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "80",
                "-y",
                "50",
                "-c",
                env!("CARGO_MANIFEST_DIR"),
                &quoted.join(" "),
                ";",
                "set-option",
                "-g",
                "remain-on-exit",
                "on",
            ])
            .output()
            .expect("tmux runs (.ci/run installs it)");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        pane
    }

    fn tmux(&self, args: &[&str]) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]).args(args);
        c
    }

    /// Types `text` as it is, letter by letter.
    fn type_text(&self, text: &str) {
        assert!(self
            .tmux(&["send-keys", "-l", text])
            .status()
            .unwrap()
            .success());
    }

    /// Presses keys by tmux's names: Enter, Tab, Up, Left, BSpace.
    fn press(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend(keys);
        assert!(self.tmux(&args).status().unwrap().success());
    }

    /// The screen as text, lines wrapped at the pane's edge joined again; with `colours`, with
    /// the escapes that draw them.
    fn screen(&self, colours: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-J", "-S", "-200"];
        if colours {
            args.push("-e");
        }
        let o = self.tmux(&args).output().unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Waits (ten seconds at most) until `text` has appeared `times` times on the screen. Keys are
    /// typed only once the prompt they answer is drawn: the line editor asks the terminal where
    /// the cursor is as it starts, and keys typed before its answer can be lost.
    fn wait_for(&self, text: &str, times: usize) -> String {
        let mut screen = String::new();
        poll(
            || {
                screen = self.screen(false);
                screen.matches(text).count() >= times
            },
            || {
                format!(
                    "`{text}` did not appear {times} times:\n{}",
                    self.screen(false)
                )
            },
        );
        screen
    }

    /// Waits (ten seconds at most) until the program in the pane has ended, as tmux reports it.
    fn wait_until_ended(&self) {
        poll(
            || {
                let o = self
                    .tmux(&["display-message", "-p", "#{pane_dead}"])
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&o.stdout).trim() == "1"
            },
            || format!("the program did not end:\n{}", self.screen(false)),
        );
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]).output();
    }
}

/// Asks `done` every 50 ms until it says yes, failing with `why()` after ten seconds.
fn poll(mut done: impl FnMut() -> bool, why: impl Fn() -> String) {
    let begun = Instant::now();
    while !done() {
        assert!(begun.elapsed() < Duration::from_secs(10), "{}", why());
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn temp(name: &str) -> String {
    crate::common::run::temp("terminal", name)
}

use crate::common::run::TWO_PEOPLE_ON_4X4 as FOUR;

/// Tab completes a legal move, the arrows move in the line and through the history (no
/// `^[[A` on the screen), undo and the marks of the last turn work, and the game saved from
/// the terminal goes on in a second session with `--resume`.
#[test]
fn play_in_a_terminal_edits_completes_recalls_and_resumes() {
    let saved = temp("terminal-game.json");
    let _ = std::fs::remove_file(&saved);
    let pane = Pane::start("edit", &[("NO_COLOR", "1")], &FOUR);
    pane.wait_for("black>", 1);
    // b1 is the only legal move (of b1, a2, d3, c4) or command that starts with b.
    pane.type_text("b");
    pane.press(&["Tab"]);
    pane.press(&["Enter"]);
    let screen = pane.wait_for("white>", 1);
    // Black's b1 took the white piece on b2: a star after b1, a plus after b2.
    assert!(screen.contains(" 1 . B*"), "{screen}");
    assert!(screen.contains(" 2 . B+B"), "{screen}");
    pane.type_text("undo");
    pane.press(&["Enter"]);
    pane.wait_for("black>", 2);
    // Up twice: back past `undo` to `b1`.
    pane.press(&["Up", "Up", "Enter"]);
    pane.wait_for("white>", 2);
    pane.type_text("undo");
    pane.press(&["Enter"]);
    pane.wait_for("black>", 3);
    // `1`, then Left to go before it, then `a` in front: a1 is not legal, and says so.
    pane.type_text("1");
    pane.press(&["Left"]);
    pane.type_text("a");
    pane.press(&["Enter"]);
    let screen = pane.wait_for("`a1` is not legal here", 1);
    assert!(!screen.contains("^["), "{screen}");
    pane.wait_for("black>", 4);
    pane.type_text("d3");
    pane.press(&["Enter"]);
    pane.wait_for("white>", 3);
    pane.type_text(&format!("save {saved}"));
    pane.press(&["Enter"]);
    pane.wait_for("saved to", 1);
    pane.wait_for("white>", 4);
    pane.type_text("quit");
    pane.press(&["Enter"]);
    pane.wait_until_ended();
    drop(pane);

    let mut args = FOUR.to_vec();
    args.extend(["--resume", &saved]);
    let pane = Pane::start("resume", &[("NO_COLOR", "1")], &args);
    let screen = pane.wait_for("white>", 1);
    assert!(screen.contains("resumed after 1 move"), "{screen}");
    assert!(screen.contains(" 3 . B B+B*"), "{screen}");
}

/// The lines typed are kept in the history file, and Up brings them back in the next session.
#[test]
fn play_in_a_terminal_keeps_the_history_between_sessions() {
    let history = temp("play-history");
    let _ = std::fs::remove_file(&history);
    let env = [("NO_COLOR", "1"), ("OUTFLANK_HISTORY", history.as_str())];
    let pane = Pane::start("history-first", &env, &FOUR);
    pane.wait_for("black>", 1);
    pane.type_text("b1");
    pane.press(&["Enter"]);
    pane.wait_for("white>", 1);
    pane.type_text("quit");
    pane.press(&["Enter"]);
    pane.wait_until_ended();
    drop(pane);
    let kept = std::fs::read_to_string(&history).expect("the history file is written");
    let lines: Vec<&str> = kept.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines, ["b1", "quit"], "{kept}");

    let pane = Pane::start("history-second", &env, &FOUR);
    pane.wait_for("black>", 1);
    // Up once is the last session's `quit`, twice its `b1`, played again here.
    pane.press(&["Up", "Up", "Enter"]);
    let screen = pane.wait_for("white>", 1);
    assert!(screen.contains(" 1 . B*"), "{screen}");
}

/// A history file that cannot be made is said once, and the game goes on without it.
#[test]
fn play_in_a_terminal_goes_on_without_a_history_file_it_cannot_make() {
    // A folder cannot be made inside an ordinary file.
    let blocker = temp("history-blocker");
    std::fs::write(&blocker, "not a folder").unwrap();
    let history = format!("{blocker}/play-history");
    let pane = Pane::start(
        "history-bad",
        &[("NO_COLOR", "1"), ("OUTFLANK_HISTORY", history.as_str())],
        &FOUR,
    );
    let screen = pane.wait_for("black>", 1);
    assert!(
        screen.contains(&format!("cannot use the history file {history}")),
        "{screen}"
    );
    pane.type_text("b1");
    pane.press(&["Enter"]);
    pane.wait_for("white>", 1);
    assert_eq!(std::fs::read_to_string(&blocker).unwrap(), "not a folder");
}

/// The board is in colour on a terminal, and in none with NO_COLOR set.
#[test]
fn play_in_a_terminal_draws_colour_unless_no_color() {
    let pane = Pane::start("colour", &[], &FOUR);
    pane.wait_for("black>", 1);
    let coloured = pane.screen(true);
    // Black's pieces in bold yellow, White's in bold cyan (tmux writes the attributes one by
    // one).
    assert!(coloured.contains("\x1b[1m\x1b[33mB"), "{coloured:?}");
    assert!(coloured.contains("\x1b[1m\x1b[36mW"), "{coloured:?}");
    drop(pane);
    let pane = Pane::start("plain", &[("NO_COLOR", "1")], &FOUR);
    pane.wait_for("black>", 1);
    let plain = pane.screen(true);
    assert!(!plain.contains('\x1b'), "{plain:?}");
}

/// Against a computer: `hint` suggests a legal move, and the computer's move is said.
#[test]
fn play_in_a_terminal_gives_hints_and_the_computer_answers() {
    let mut args = FOUR[..6].to_vec();
    args.extend(["--white", "greedy"]);
    let pane = Pane::start("hint", &[("NO_COLOR", "1")], &args);
    pane.wait_for("black>", 1);
    pane.type_text("hint");
    pane.press(&["Enter"]);
    let screen = pane.wait_for("hint (alphabeta:4): ", 1);
    let line = screen
        .lines()
        .find(|l| l.starts_with("hint (alphabeta:4): "))
        .unwrap();
    let suggested = line.trim_start_matches("hint (alphabeta:4): ").trim();
    assert!(["b1", "a2", "d3", "c4"].contains(&suggested), "{line}");
    pane.wait_for("black>", 2);
    pane.type_text(suggested);
    pane.press(&["Enter"]);
    pane.wait_for("white (greedy) plays ", 1);
    pane.wait_for("black>", 2);
}

/// While the computer thinks, the spinner names the step it holds best so far.
#[test]
fn play_in_a_terminal_shows_the_computers_best_step_so_far() {
    let mut args = FOUR[..6].to_vec();
    args.extend(["--white", "mcts:2000ms"]);
    let pane = Pane::start("thinking", &[("NO_COLOR", "1")], &args);
    pane.wait_for("black>", 1);
    // After b1, white can take back on a1, c1 or a3 (a choice, so mcts reports as it goes).
    pane.type_text("b1");
    pane.press(&["Enter"]);
    let screen = pane.wait_for("white (mcts:2000ms) is thinking: best so far ", 1);
    let line = screen
        .lines()
        .find(|l| l.contains("is thinking: best so far "))
        .unwrap();
    let (_, best) = line.split_once("best so far ").unwrap();
    let (step, why) = best.split_once(' ').unwrap();
    assert!(["a1", "c1", "a3"].contains(&step), "{line}");
    assert!(why.contains("playouts)"), "{line}");
    let screen = pane.wait_for("white (mcts:2000ms) plays ", 1);
    assert!(
        !screen.contains("best so far"),
        "the spinner is cleared: {screen}"
    );
}

/// A human's time runs from the prompt to the line typed: waiting past it loses the game, and
/// the move typed too late is not played.
#[test]
fn play_in_a_terminal_loses_a_human_on_time() {
    // The game's options come before the players.
    let mut args = FOUR[..4].to_vec();
    args.extend(["--time", "0.5s"]);
    args.extend(&FOUR[4..]);
    let pane = Pane::start("clock", &[("NO_COLOR", "1")], &args);
    pane.wait_for("black>", 1);
    std::thread::sleep(Duration::from_millis(900));
    pane.type_text("d3");
    pane.press(&["Enter"]);
    let screen = pane.wait_for("game over: black ran out of time: white wins", 1);
    assert!(
        screen.contains("time left: black 0:00.0, white 0:00.5"),
        "{screen}"
    );
    assert!(!screen.contains(" 3 . B B B"), "{screen}");
}

/// `convert` to a terminal shows control characters from its input as escapes: a player's name
/// holding a colour escape is printed as text, not obeyed (it once turned the terminal red).
#[test]
fn convert_to_a_terminal_shows_control_characters_as_escapes() {
    let sgf = temp("red-name.sgf");
    std::fs::write(&sgf, "(;FF[4]GM[1]SZ[9]PB[\x1b[31mred]PW[w];B[ee])").unwrap();
    let pane = Pane::start(
        "convert",
        &[],
        &["convert", "games/reversi-go-9x9.rules", &sgf, "--to", "ggf"],
    );
    pane.wait_until_ended();
    let screen = pane.screen(true);
    assert!(screen.contains(r"PB[\u{1b}[31mred]"), "{screen:?}");
    assert!(!screen.contains("\x1b[31m"), "{screen:?}");
}
