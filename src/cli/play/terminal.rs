//! `play`'s terminal: where standard input and output are a terminal, lines are read with
//! rustyline (editing, history kept in a file between sessions, Tab completing the legal moves
//! and the commands), the board is drawn in colour unless `NO_COLOR` is set, and a spinner
//! shows while a computer thinks.
//! Anything else (a script, a pipe) reads plain lines and writes plain text, the prompts
//! included, so a test can drive a whole game through standard input.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use outflank::agents::Basis;
use rustyline::completion::Completer;
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

/// What the player typed.
pub(super) enum Line {
    Text(String),
    /// Standard input ended (Ctrl-D, or the end of a script).
    End,
    /// Ctrl-C at the prompt: a terminal in rustyline's raw mode sends no signal for it.
    Interrupted,
}

/// Where the player's lines come from.
pub(super) enum Reader {
    /// The line editor, and the file its history is appended to (none when there is no
    /// place for one, or writing it failed once).
    Editor(Box<Editor<Words, DefaultHistory>>, Option<PathBuf>),
    Plain(std::io::Lines<std::io::StdinLock<'static>>),
}

/// The lines of earlier sessions kept: enough to reach last week's openings, small to load.
const HISTORY_LINES: usize = 1000;

impl Reader {
    /// The editor on a terminal, with the history of earlier sessions; plain lines otherwise.
    pub(super) fn new() -> Reader {
        if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
            let config = Config::builder()
                .auto_add_history(true)
                .history_ignore_dups(true)
                .and_then(|c| c.max_history_size(HISTORY_LINES))
                .map(|c| c.completion_type(CompletionType::List).build());
            if let Ok(mut editor) = config.and_then(Editor::with_config) {
                editor.set_helper(Some(Words::default()));
                let file = history_file().and_then(|file| load_history(&mut editor, file));
                return Reader::Editor(Box::new(editor), file);
            }
        }
        Reader::Plain(std::io::stdin().lock().lines())
    }

    /// The words Tab completes until the next call: the legal moves and the commands.
    pub(super) fn complete_from(&mut self, words: Vec<String>) {
        if let Reader::Editor(editor, _) = self {
            if let Some(helper) = editor.helper_mut() {
                helper.0 = words;
            }
        }
    }

    /// The next line, after `prompt`: the editor draws it; for plain lines it is written to
    /// `out` like any other text.
    pub(super) fn read(&mut self, prompt: &str, out: &mut Out) -> Line {
        match self {
            Reader::Plain(lines) => {
                out.say(prompt);
                match lines.next() {
                    Some(Ok(line)) => Line::Text(line),
                    _ => Line::End,
                }
            }
            Reader::Editor(editor, file) => match editor.readline(prompt) {
                Ok(line) => {
                    // Appended line by line, so that a session that ends abruptly (a loss on
                    // time, a closed terminal) keeps what was typed, and two sessions at once
                    // interleave rather than overwrite each other (rustyline locks the file).
                    if let Some(path) = file {
                        if let Err(e) = editor.append_history(path) {
                            eprintln!(
                                "cannot write the history file {}: {e}; this session's lines are not kept",
                                path.display()
                            );
                            *file = None;
                        }
                    }
                    Line::Text(line)
                }
                Err(ReadlineError::Interrupted) => Line::Interrupted,
                Err(_) => Line::End,
            },
        }
    }
}

/// Where the lines typed are kept between sessions: `OUTFLANK_HISTORY` when set (set empty for
/// no file), else `outflank/play-history` in the XDG state folder (`$XDG_STATE_HOME`, by default
/// `~/.local/state`). None when neither is known.
fn history_file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("OUTFLANK_HISTORY") {
        return (!path.is_empty()).then(|| PathBuf::from(path));
    }
    // The XDG specification says a relative path there is invalid and to be ignored.
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            let home = PathBuf::from(std::env::var_os("HOME")?);
            home.is_absolute()
                .then(|| home.join(".local").join("state"))
        })?;
    Some(state.join("outflank").join("play-history"))
}

/// The history in `file` loaded into `editor`: `file` back when lines can be appended to it,
/// None (with the reason on standard error) when its folder cannot be made or it cannot be
/// read; a file not yet there is the first session's.
fn load_history(editor: &mut Editor<Words, DefaultHistory>, file: PathBuf) -> Option<PathBuf> {
    let failed = |e: &dyn std::fmt::Display| {
        eprintln!(
            "cannot use the history file {}: {e}; this session's lines are not kept (set OUTFLANK_HISTORY to another file, or to nothing for none)",
            file.display()
        );
    };
    if let Some(folder) = file.parent().filter(|f| !f.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(folder) {
            failed(&e);
            return None;
        }
    }
    match editor.load_history(&file) {
        Ok(()) => Some(file),
        Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Some(file),
        Err(e) => {
            failed(&e);
            None
        }
    }
}

/// Tab's words: those that start with what is typed before the cursor, from its last space.
#[derive(Default)]
pub(super) struct Words(Vec<String>);

impl Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(' ').map_or(0, |i| i + 1);
        let typed = &line[start..pos];
        let found = self.0.iter().filter(|w| w.starts_with(typed)).cloned();
        Ok((start, found.collect()))
    }
}

impl Hinter for Words {
    type Hint = String;
}
impl Highlighter for Words {}
impl Validator for Words {}
impl Helper for Words {}

/// Standard output for the session. A write that fails is kept and ends the game: no one sees
/// it any more (or the disk is full).
pub(super) struct Out {
    stdout: std::io::StdoutLock<'static>,
    pub(super) lost: Option<std::io::Error>,
    /// Whether the board is drawn in colour.
    pub(super) colour: bool,
}

impl Out {
    pub(super) fn new() -> Out {
        Out {
            stdout: std::io::stdout().lock(),
            lost: None,
            colour: colour(),
        }
    }

    /// Writes text that may hold the player's own words (moves echoed back, file names): no
    /// terminal escapes from them.
    pub(super) fn say(&mut self, text: &str) {
        self.raw(&outflank::diagnostic::printable(text));
    }

    /// Writes text of our own making, colours included.
    pub(super) fn raw(&mut self, text: &str) {
        let out = &mut self.stdout;
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            self.lost = Some(e);
        }
    }
}

/// Colour on standard output: a terminal, and no `NO_COLOR` (<https://no-color.org>) set to
/// anything but the empty string.
fn colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The colour of each player's pieces, in seat order: bold yellow, cyan, magenta, green, then
/// bold alone.
const PIECE_COLOURS: [&str; 4] = ["1;33", "1;36", "1;35", "1;32"];

/// `text` in the colour of player `p`'s pieces.
pub(super) fn piece(text: char, p: u8) -> String {
    let code = PIECE_COLOURS.get(usize::from(p)).unwrap_or(&"1");
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// `text` as a mark of the last turn: red.
pub(super) fn mark(text: char) -> String {
    format!("\x1b[31m{text}\x1b[0m")
}

/// A spinner on standard error while a computer chooses, with what it is doing, the step it
/// holds best so far and the time it has taken; gone when dropped. Drawn only when standard
/// error is a terminal.
pub(super) struct Thinking(ProgressBar, String);

impl Thinking {
    pub(super) fn new(what: &str) -> Thinking {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .expect("the template is well formed"),
        );
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(100));
        Thinking(bar, what.to_string())
    }

    /// Shows `step` (in notation) as the step the computer holds best, and why.
    pub(super) fn best(&self, step: &str, basis: Basis) {
        let why = match basis {
            Basis::Depth { depth, value } => format!("{depth} steps deep, {value:+.1}"),
            Basis::Playouts { playouts, reward } => {
                format!("{:.0}% over {playouts} playouts", reward * 100.0)
            }
        };
        self.0
            .set_message(format!("{}: best so far {step} ({why})", self.1));
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
