//! `play`'s terminal: where standard input and output are a terminal, lines are read with
//! rustyline (editing, history, Tab completing the legal moves and the commands), the board is
//! drawn in colour unless `NO_COLOR` is set, and a spinner shows while a computer thinks.
//! Anything else (a script, a pipe) reads plain lines and writes plain text, the prompts
//! included, so a test can drive a whole game through standard input.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rustyline::completion::Completer;
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::io::{BufRead, IsTerminal, Write};
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
    Editor(Box<Editor<Words, DefaultHistory>>),
    Plain(std::io::Lines<std::io::StdinLock<'static>>),
}

impl Reader {
    /// The editor on a terminal, plain lines otherwise.
    pub(super) fn new() -> Reader {
        if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
            let config = Config::builder()
                .auto_add_history(true)
                .completion_type(CompletionType::List)
                .build();
            if let Ok(mut editor) = Editor::with_config(config) {
                editor.set_helper(Some(Words::default()));
                return Reader::Editor(Box::new(editor));
            }
        }
        Reader::Plain(std::io::stdin().lock().lines())
    }

    /// The words Tab completes until the next call: the legal moves and the commands.
    pub(super) fn complete_from(&mut self, words: Vec<String>) {
        if let Reader::Editor(editor) = self {
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
            Reader::Editor(editor) => match editor.readline(prompt) {
                Ok(line) => Line::Text(line),
                Err(ReadlineError::Interrupted) => Line::Interrupted,
                Err(_) => Line::End,
            },
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

/// A spinner on standard error while a computer chooses, with what it is doing and the time
/// it has taken; gone when dropped. Drawn only when standard error is a terminal.
pub(super) struct Thinking(ProgressBar);

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
        Thinking(bar)
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
