//! What every command shares, below the commands: the rules file loaded and checked (from
//! disk or the bundled games), the game started, the failure that ends a command, and the
//! writing of standard output. `mod.rs` only parses the command line and dispatches.

use clap::Args;
use outflank::check::{check, CheckError, Checked};
use outflank::engine::state::State;
use outflank::engine::turns::PlayError;
use outflank::engine::{Engine, RuleError};
use outflank::source::{read_source, FsLoader, Loader, SourceFile};
use std::io::IsTerminal;
use std::sync::Arc;

#[derive(Args, Clone)]
pub(crate) struct GameArgs {
    /// The rules file.
    pub(crate) file: String,
    /// Set a parameter, e.g. --set size=10 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
    /// Start from this position instead of the setup: rows of symbols, row 1 first, separated
    /// by `/` (`.` empty, `#` removed), e.g. "..../.BW./.WB./....".
    #[arg(long, value_name = "ROWS")]
    pub(crate) position: Option<String>,
    /// The player to move in --position (default: the first mover).
    #[arg(long, value_name = "PLAYER", requires = "position")]
    pub(crate) to_move: Option<String>,
    /// Tokens' holders and counters' values at the start (the setup or --position), as
    /// `moves --json` prints them under "extra", e.g. '{"supply": {"black": 3}, "button":
    /// "white"}'; what it leaves out starts as the rules say.
    #[arg(long, value_name = "JSON")]
    pub(crate) extra: Option<String>,
}

/// How long a game may go on before it is taken to be one that never ends.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct StepLimit {
    /// Steps a game may take before it is reported as endless (at most 1000000).
    #[arg(long, value_name = "N", default_value_t = outflank::agents::MAX_GAME_STEPS,
          value_parser = clap::value_parser!(u64).range(1..=outflank::agents::MAX_GAME_STEPS))]
    pub(crate) max_steps: u64,
}

impl GameArgs {
    /// A rules file as written, without parameters or a position.
    pub(crate) fn plain(file: &str) -> GameArgs {
        GameArgs {
            file: file.to_string(),
            set: Vec::new(),
            position: None,
            to_move: None,
            extra: None,
        }
    }
}

/// A failure that ends the command: already printed or to print as one line.
pub(crate) enum Failure {
    Printed,
    Message(String),
    /// Stopped by a signal, after saying what was done: exit 130, as a shell reports Ctrl-C.
    Interrupted,
}

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure::Message(s)
    }
}

impl From<PlayError> for Failure {
    fn from(e: PlayError) -> Self {
        match e {
            PlayError::Illegal(m) => Failure::Message(m),
            PlayError::Rule(r) => r.into(),
        }
    }
}

impl From<RuleError> for Failure {
    /// A rules file that misbehaves while running: point at the rule when it is known.
    fn from(e: RuleError) -> Self {
        match e.at {
            Some((file, span)) => {
                let mut all = outflank::diagnostic::Diagnostics::default();
                all.push(
                    outflank::diagnostic::Diagnostic::error(&file, span, format!("rule error: {}", e.message))
                        .with_label(e.label.unwrap_or("while running this rule"))
                        .with_help(e.help.unwrap_or("the rules allowed a step that this statement cannot carry out; guard it with a condition")),
                );
                eprint!("{}", all.render(color(), render_width()));
                Failure::Printed
            }
            None => Failure::Message(format!("rule error: {}", e.message)),
        }
    }
}

pub(crate) fn render_width() -> usize {
    100
}

pub(crate) fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The bundled games (built into the binary), in the order `serve`'s page offers them. Their
/// list is kept beside games/, so that no game is named here.
pub(crate) const BUNDLED: &[(&str, &str)] = include!("../../bundled-games.rs");

/// The text of the bundled game `path` names when no file is there: `games/NAME.rules` or
/// `NAME.rules`, so that an installed binary runs the bundled games from any folder. A file on
/// disk always comes first, and one that is there but unreadable keeps its own error.
pub(crate) fn bundled(path: &str) -> Option<&'static str> {
    let p = std::path::Path::new(path);
    if p.exists() {
        return None;
    }
    let folder = p.parent().map(|d| d.to_string_lossy()).unwrap_or_default();
    if !(folder.is_empty() || folder == "games" || folder.ends_with("/games")) {
        return None;
    }
    bundled_named(p.file_name()?.to_str()?)
}

/// The text of the bundled game whose file is named `name` (`othello.rules`).
pub(crate) fn bundled_named(name: &str) -> Option<&'static str> {
    BUNDLED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// A rules file from disk, or the bundled game of that name when no file is there.
pub(crate) fn read_rules(path: &str) -> Result<Arc<SourceFile>, String> {
    read_source(path).or_else(|e| {
        bundled(path)
            .map(|text| SourceFile::new(path, text))
            .ok_or(e)
    })
}

/// The bundled base file that `extends "PATH"` names when no file `full` (PATH beside the
/// variant) is on disk: the bundled game of a bare file name, so that a variant of
/// `othello.rules` checks from any folder and however its own path is spelt; or, as
/// [`read_rules`] finds a file, one in a `games` folder.
pub(crate) fn bundled_base(full: &str, path: &str) -> Option<&'static str> {
    // A file on disk comes first, and keeps its own error when it cannot be read.
    if std::path::Path::new(full).exists() {
        return None;
    }
    let bare = std::path::Path::new(path)
        .parent()
        .is_some_and(|d| d.as_os_str().is_empty());
    if bare {
        bundled_named(path)
    } else {
        bundled(full)
    }
}

/// Base files (`extends`) from disk beside the file that names them, or bundled (see
/// [`bundled_base`]).
pub(crate) struct RulesLoader;

impl Loader for RulesLoader {
    fn load(&self, base: &str, path: &str) -> Result<Arc<SourceFile>, String> {
        FsLoader.load(base, path).or_else(|e| {
            let dir = std::path::Path::new(base).parent();
            let full = dir.map_or(path.into(), |d| d.join(path));
            let full = full.to_string_lossy();
            bundled_base(&full, path)
                .map(|text| SourceFile::new(full.as_ref(), text))
                .ok_or(e)
        })
    }
}

/// Loads and checks a rules file for a command that runs it. Warnings about the rules as
/// written are summed up in one line, since `check` shows them in full and a bundled variant
/// may warn on purpose; those that come with `--set` values are shown in full, as `check`
/// has no such option.
pub(crate) fn load_game(args: &GameArgs) -> Result<Engine, Failure> {
    load_game_showing(args, !args.set.is_empty())
}

/// [`load_game`], showing every warning in full or summing them up.
pub(crate) fn load_game_showing(args: &GameArgs, in_full: bool) -> Result<Engine, Failure> {
    load_checked(args, in_full).map(|c| Engine::new(c.game))
}

/// The rules file checked with the settings of `args`, its examples with it; warnings shown
/// in full or summed up, errors shown.
pub(crate) fn load_checked(args: &GameArgs, in_full: bool) -> Result<Checked, Failure> {
    let source = read_rules(&args.file)?;
    let mut overrides = Vec::new();
    for s in &args.set {
        let Some((k, v)) = s.split_once('=') else {
            return Err(Failure::Message(format!(
                "--set {s}: write NAME=VALUE, e.g. --set size=10"
            )));
        };
        let k = k.trim();
        if overrides.iter().any(|(name, _)| name == k) {
            return Err(Failure::Message(format!(
                "--set {k}=... is given twice; keep one"
            )));
        }
        overrides.push((k.to_string(), v.trim().to_string()));
    }
    match check(source, &RulesLoader, &overrides) {
        Ok(checked) => {
            let n = checked.warnings.0.len();
            if n > 0 && in_full {
                eprint!("{}", checked.warnings.render(color(), render_width()));
            } else if n > 0 {
                let (count, them) = if n == 1 {
                    ("a warning".to_string(), "it")
                } else {
                    (format!("{n} warnings"), "them")
                };
                eprintln!(
                    "note: {} has {count} about its rules; `outflank check {}` shows {them}",
                    args.file, args.file
                );
            }
            Ok(checked)
        }
        Err(CheckError::Setting(msg)) => Err(Failure::Message(msg)),
        Err(CheckError::Rules(diags)) => {
            eprint!("{}", diags.render(color(), render_width()));
            Err(Failure::Printed)
        }
    }
}

/// `PLAYER=AGENT` of `--seat` (`run`, `analyse` and `play`): the player's number and the
/// agent as written (not yet checked).
pub(crate) fn seat_pair<'a>(engine: &Engine, seat: &'a str) -> Result<(u8, &'a str), Failure> {
    let names = engine.game.player_list();
    let Some((name, agent)) = seat.split_once('=') else {
        return Err(Failure::Message(format!(
            "--seat {seat}: write PLAYER=AGENT, a player of {names} and who plays it, e.g. --seat {}=mcts",
            engine.player_name(0)
        )));
    };
    let Some(p) = (0..engine.game.player_count()).find(|&p| engine.player_name(p) == name.trim())
    else {
        return Err(Failure::Message(format!(
            "--seat {seat}: no player `{}` in these rules; the players are {names}",
            name.trim()
        )));
    };
    Ok((p, agent.trim()))
}

/// The starting position (the rules' setup or --position), then the history played on it.
pub(crate) fn position(engine: &Engine, args: &GameArgs, history: &str) -> Result<State, Failure> {
    let start = start(engine, args)?;
    Ok(engine.play_history(&start, history)?)
}

pub(crate) fn start(engine: &Engine, args: &GameArgs) -> Result<State, Failure> {
    let extra = match &args.extra {
        Some(text) => {
            let bad = |e: String| Failure::Message(format!("--extra: {e}"));
            let map = match serde_json::from_str::<serde_json::Value>(text) {
                Ok(serde_json::Value::Object(map)) => map,
                Ok(_) => {
                    return Err(bad(
                        "expected a JSON object, e.g. '{\"supply\": {\"black\": 3}}'".into(),
                    ))
                }
                Err(e) => return Err(bad(format!("not JSON: {e}"))),
            };
            let extra = outflank::apps::record::extra_from_json(&map).map_err(bad)?;
            engine.extra_fits(&extra).map_err(bad)?;
            extra
        }
        None => Vec::new(),
    };
    match &args.position {
        Some(rows) => engine
            .position_with(rows, args.to_move.as_deref(), &extra)
            .map_err(|e| Failure::Message(format!("--position: {e}"))),
        None if extra.is_empty() => Ok(engine.start()?),
        None => engine
            .start_with(&extra)
            .map_err(|e| Failure::Message(format!("--extra: {e}"))),
    }
}

/// Writes everything at once. A reader that stops early (`| head`) is not worth a message; any
/// other failure (a full disk) is, since the output is lost: it is returned.
pub(crate) fn write_stdout(text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the output: {e}"))
        }
        _ => Ok(()),
    }
}

/// Writes and empties the first part of a long output, so that it is not all held at once;
/// `Ok(false)` when no one reads any more (a closed pipe), and the command may stop.
pub(crate) fn stream_stdout(text: &mut String) -> Result<bool, String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    text.clear();
    match written {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}

/// Output a command holds before writing it: a trace of a long game is written as it goes.
pub(crate) const STREAM_CHUNK: usize = 1 << 16;
