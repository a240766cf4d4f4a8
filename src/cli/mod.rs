//! The `outflank` command line. Everything here is presentation: reading files, rendering
//! diagnostics and boards, JSON. The game logic lives in the library.

// The writing macros come before the modules, which use them.
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

macro_rules! outp {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = write!($out, $($arg)*);
    }};
}

mod analyse;
mod author;
mod bench;
mod convert;
mod inspect;
mod lsp;
mod output;
mod play;
mod progress;
mod render;
mod run;
mod serve;
mod shell;
mod solve;

use outflank::agents::game_seed;

use author::{CheckArgs, FmtArgs, InfoArgs, TestArgs};
use bench::BenchArgs;
use clap::{Args, Parser, Subcommand};
use inspect::{ExplainArgs, MovesArgs, PerftArgs, TraceArgs};
use outflank::check::{check, CheckError, Checked};
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::turns::{abbreviate, ListError, PlayError};
use outflank::engine::{Engine, Extra, RuleError};
use outflank::source::{read_source, FsLoader, Loader, SourceFile};
use output::*;
use play::PlayArgs;
use render::RenderArgs;
use run::{ReplayArgs, RunArgs};
use solve::SolveArgs;
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "outflank",
    version,
    about = "Reversi-family games written as text rules"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

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
    position: Option<String>,
    /// The player to move in --position (default: the first mover).
    #[arg(long, value_name = "PLAYER", requires = "position")]
    to_move: Option<String>,
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
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Check rules files; print diagnostics for every problem.
    Check(CheckArgs),
    /// What a rules file describes: title, credits, sources, board, players, parameters and
    /// what they allow, regions, lines, and how the runner takes the game.
    Info(InfoArgs),
    /// List the legal moves after a history of moves.
    Moves(MovesArgs),
    /// Count the move sequences of a given depth.
    Perft(PerftArgs),
    /// Self-play between computer players, in parallel, with a statistical summary.
    Run(RunArgs),
    /// Self-play measured as a designer asks: fairness per seat and for the first player,
    /// draws, decisiveness, lead changes, comebacks, drama, length, branching (also over the
    /// game), word steps, endings and openings, each estimate with its 95% interval
    /// (docs/ANALYSIS.md); with charts, a sweep to a parameter's fair value, or one shard.
    Analyse(analyse::AnalyseArgs),
    /// Merge the shards of a series (`analyse --shard K/N`, in any order) into the report, and
    /// the records, that one process playing the whole series gives; refuses shards of other
    /// rules or settings, shards given twice or overlapping, and missing ones.
    Merge(analyse::MergeArgs),
    /// Variants side by side: the metrics of `analyse` for each rules file, with the
    /// differences from the first that are statistically clear marked.
    Compare(analyse::CompareArgs),
    /// Play a game in the terminal: `--NAME PLAYER` for each player named in the rules
    /// (human, random, greedy, mcts[:N|:Nms], alphabeta[:D[:E]]); default: human against mcts.
    Play(PlayArgs),
    /// The exact result with best play by both sides (small boards), or with --outcome only
    /// who wins.
    Solve(SolveArgs),
    /// Put rules files in canonical layout (comments kept); --check only reports.
    Fmt(FmtArgs),
    /// Say why a move is legal or not, pointing at the rules, and what it changes.
    Explain(ExplainArgs),
    /// Draw the board as an SVG diagram.
    Render(RenderArgs),
    /// Run the examples written in rules files; exit 1 if any fails.
    Test(TestArgs),
    /// Measure speed: random playouts and perft leaves per second, one thread, per game.
    Bench(BenchArgs),
    /// Replay recorded games, checking every move and the result.
    Replay(ReplayArgs),
    /// Convert game records between outflank's records (JSON) and Othello transcripts, GGF
    /// and SGF, checking every move against the rules.
    Convert(convert::ConvertArgs),
    /// Print a playthrough, step by step, as stable text.
    Trace(TraceArgs),
    /// A language server for rules files, on stdin and stdout, for editors (see editors/).
    Lsp,
    /// Play in the browser: a local web server with the page (play, watch, replay, edit,
    /// analyse) and its JSON API (docs/API.md).
    Serve(serve::ServeArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell).
    Completions(shell::CompletionsArgs),
    /// Print the manual page, or write one page per command into a directory (--dir).
    Man(shell::ManArgs),
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

fn render_width() -> usize {
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
fn bundled(path: &str) -> Option<&'static str> {
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
fn bundled_named(name: &str) -> Option<&'static str> {
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
fn load_game_showing(args: &GameArgs, in_full: bool) -> Result<Engine, Failure> {
    load_checked(args, in_full).map(|c| Engine::new(c.game))
}

/// The rules file checked with the settings of `args`, its examples with it; warnings shown
/// in full or summed up, errors shown.
fn load_checked(args: &GameArgs, in_full: bool) -> Result<Checked, Failure> {
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
fn position(engine: &Engine, args: &GameArgs, history: &str) -> Result<State, Failure> {
    let start = start(engine, args)?;
    Ok(engine.play_history(&start, history)?)
}

pub(crate) fn start(engine: &Engine, args: &GameArgs) -> Result<State, Failure> {
    match &args.position {
        Some(rows) => engine
            .position(rows, args.to_move.as_deref())
            .map_err(|e| Failure::Message(format!("--position: {e}"))),
        None => Ok(engine.start()?),
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
const STREAM_CHUNK: usize = 1 << 16;

/// Runs the command line; returns the process exit code. The work runs on a thread with a
/// large stack: parsing and checking recurse as deep as the rules' expressions nest, and the
/// parser's limits keep that depth far below this.
pub(crate) fn main() -> i32 {
    let cli = Cli::parse();
    if let Err(m) = outflank::board::instructions::check_switch() {
        eprintln!("error: {m}");
        return 2;
    }
    std::thread::Builder::new()
        .stack_size(outflank::engine::negamax::SEARCH_STACK_BYTES)
        .spawn(move || run(cli))
        .expect("a thread can be started")
        .join()
        .unwrap_or(101)
}

fn run(cli: Cli) -> i32 {
    let result = match &cli.command {
        Command::Check(a) => author::cmd_check(a),
        Command::Info(a) => author::cmd_info(a),
        Command::Fmt(a) => author::cmd_fmt(a),
        Command::Test(a) => author::cmd_test(a),
        Command::Moves(a) => inspect::cmd_moves(a),
        Command::Perft(a) => inspect::cmd_perft(a),
        Command::Explain(a) => inspect::cmd_explain(a),
        Command::Trace(a) => inspect::cmd_trace(a),
        Command::Render(a) => render::cmd_render(a),
        Command::Solve(a) => solve::cmd_solve(a),
        Command::Run(a) => run::cmd_run(a),
        Command::Analyse(a) => analyse::cmd_analyse(a),
        Command::Merge(a) => analyse::cmd_merge(a),
        Command::Compare(a) => analyse::cmd_compare(a),
        Command::Replay(a) => run::cmd_replay(a),
        Command::Convert(a) => convert::cmd_convert(a),
        Command::Play(a) => play::cmd_play(a),
        Command::Bench(a) => bench::cmd_bench(a),
        Command::Lsp => lsp::serve()
            .map(|()| String::new())
            .map_err(Failure::Message),
        Command::Serve(a) => serve::cmd_serve(a),
        Command::Completions(a) => shell::cmd_completions(a),
        Command::Man(a) => shell::cmd_man(a),
    };
    match result {
        Ok(text) => match write_stdout(&text) {
            Ok(()) => 0,
            Err(m) => {
                eprintln!("error: {}", outflank::diagnostic::printable(&m));
                1
            }
        },
        Err(Failure::Printed) => 1,
        Err(Failure::Interrupted) => 130,
        Err(Failure::Message(m)) => {
            eprintln!("error: {}", outflank::diagnostic::printable(&m));
            1
        }
    }
}
