//! The `outflank` command line. Everything here is presentation: reading files, rendering
//! diagnostics and boards, JSON. The game logic lives in the library.

mod bench;
mod output;
mod play;
mod run;

use outflank::agents::game_seed;

use clap::{Args, Parser, Subcommand};
use outflank::check::{check, CheckError};
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::turns::{abbreviate, ListError, PlayError};
use outflank::engine::{Engine, Extra, RuleError};
use outflank::source::{read_source, FsLoader};
use output::*;
use std::io::IsTerminal;
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
    Check {
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// List the legal moves after a history of moves.
    Moves {
        #[command(flatten)]
        game: GameArgs,
        /// Moves to play first, separated by spaces; the last may stop mid-turn.
        #[arg(long, default_value = "")]
        moves: String,
        /// List only the next step's choices instead of whole turns.
        #[arg(long)]
        steps: bool,
        /// List at most this many whole turns (the output says when more exist).
        #[arg(long, default_value_t = 100_000)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// Count the move sequences of a given depth.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long)]
        depth: u32,
        #[arg(long, default_value = "")]
        moves: String,
        /// List the count under each first move.
        #[arg(long)]
        divide: bool,
        #[arg(long)]
        json: bool,
    },
    /// Self-play between computer players, in parallel, with a statistical summary.
    Run {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value_t = 1)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// One player per seat, in turn order, separated by commas: random, greedy,
        /// mcts[:N|:Nms], alphabeta[:D] (default: random in every seat).
        #[arg(long)]
        agents: Option<String>,
        /// Move every agent one seat on at each game, so each plays every seat (with two
        /// players: swap seats every other game); for fair strength comparisons
        #[arg(long)]
        swap: bool,
        /// Threads (default: all cores). The games do not depend on it.
        #[arg(long)]
        jobs: Option<usize>,
        #[arg(long)]
        json: bool,
        /// Append a record of every game to this JSON-lines file.
        #[arg(long, value_name = "FILE.jsonl")]
        record: Option<String>,
    },
    /// Play a game in the terminal: `--NAME PLAYER` for each player named in the rules
    /// (human, random, greedy, mcts[:N|:Nms], alphabeta[:D]); default: human against mcts.
    Play {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        limit: StepLimit,
        /// Keep the game in this file as it is played: written at the start, at the end
        /// however the session ends (Ctrl-C and a closed terminal included), and readable by
        /// `replay`.
        #[arg(long, value_name = "FILE")]
        record: Option<String>,
        /// --NAME PLAYER pairs, e.g. --black human --white alphabeta:4.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "--PLAYER WHO"
        )]
        seats: Vec<String>,
    },
    /// The exact result with best play by both sides (small boards).
    Solve {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value = "")]
        moves: String,
        #[arg(long)]
        json: bool,
        /// Megabytes the solver's tables may take (16 to 1048576); a smaller table costs only
        /// repeated work.
        #[arg(long, value_name = "MB", default_value_t = (outflank::solve::DEFAULT_MEMORY >> 20) as u64,
              value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
        memory: u64,
    },
    /// Put rules files in canonical layout (comments kept); --check only reports.
    Fmt {
        #[arg(required = true)]
        files: Vec<String>,
        #[arg(long)]
        check: bool,
    },
    /// Say why a move is legal or not, pointing at the rules, and what it changes.
    Explain {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value = "")]
        moves: String,
        /// The move to explain (a whole turn or its first steps).
        #[arg(name = "MOVE")]
        the_move: String,
    },
    /// Draw the board as an SVG diagram.
    Render {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value = "")]
        moves: String,
        /// Mark the legal moves (dots) or the cells chosen in the last move (rings).
        #[arg(long, value_parser = ["legal", "last"])]
        mark: Option<String>,
        /// Shade a named region (repeatable).
        #[arg(long, value_name = "REGION")]
        shade: Vec<String>,
        /// Where to write the SVG.
        #[arg(long, value_name = "OUT.svg", required_unless_present = "png")]
        svg: Option<String>,
        /// Where to write a PNG of the same diagram.
        #[arg(long, value_name = "OUT.png")]
        png: Option<String>,
    },
    /// Run the examples written in rules files; exit 1 if any fails.
    Test {
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Measure speed: random playouts and perft leaves per second, one thread, per game.
    Bench {
        /// Rules files (default: every file in games/).
        files: Vec<String>,
        /// Seconds to spend on each measurement (at most an hour).
        #[arg(long, default_value_t = 1.0, value_parser = bench_seconds)]
        seconds: f64,
        #[arg(long)]
        json: bool,
    },
    /// Replay recorded games, checking every move and the result.
    Replay {
        #[command(flatten)]
        game: GameArgs,
        /// A record file: one JSON object, or JSON lines.
        record: String,
        /// Only report whether the records match.
        #[arg(long)]
        quiet: bool,
    },
    /// Print a playthrough, step by step, as stable text.
    Trace {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        limit: StepLimit,
        /// Seed of the random players (used when no --moves are given).
        #[arg(long, conflicts_with = "moves")]
        seed: Option<u64>,
        #[arg(long)]
        moves: Option<String>,
    },
}

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

/// `bench --seconds`: a positive, finite time of at most an hour.
fn bench_seconds(text: &str) -> Result<f64, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if s.is_finite() && s > 0.0 && s <= 3600.0 {
        Ok(s)
    } else {
        Err(format!(
            "{text} seconds: give a time above 0 and at most 3600"
        ))
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

fn render_width() -> usize {
    100
}

pub(crate) fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
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
    let source = read_source(&args.file)?;
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
    match check(source, &FsLoader, &overrides) {
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
            Ok(Engine::new(checked.game))
        }
        Err(CheckError::Setting(msg)) => Err(Failure::Message(msg)),
        Err(CheckError::Rules(diags)) => {
            eprint!("{}", diags.render(color(), render_width()));
            Err(Failure::Printed)
        }
    }
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
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || run(cli))
        .expect("a thread can be started")
        .join()
        .unwrap_or(101)
}

fn run(cli: Cli) -> i32 {
    let result = match cli.command {
        Command::Check { files } => cmd_check(&files),
        Command::Moves {
            game,
            moves,
            steps,
            limit,
            json,
        } => cmd_moves(&game, &moves, steps, limit, json),
        Command::Perft {
            game,
            depth,
            moves,
            divide,
            json,
        } => cmd_perft(&game, depth, &moves, divide, json),
        Command::Run {
            game,
            games,
            seed,
            agents,
            swap,
            jobs,
            json,
            record,
        } => run::cmd_run(
            &game,
            &run::RunOptions {
                games,
                seed,
                agents,
                swap,
                jobs,
                json,
                record,
            },
        ),
        Command::Solve {
            game,
            moves,
            json,
            memory,
        } => cmd_solve(&game, &moves, json, memory),
        Command::Play {
            game,
            seed,
            limit,
            record,
            seats,
        } => play::cmd_play(&game, &seats, seed, limit, record),
        Command::Bench {
            files,
            seconds,
            json,
        } => bench::cmd_bench(&files, seconds, json),
        Command::Test { files } => cmd_test(&files),
        Command::Fmt { files, check } => cmd_fmt(&files, check),
        Command::Explain {
            game,
            moves,
            the_move,
        } => cmd_explain(&game, &moves, &the_move),
        Command::Render {
            game,
            moves,
            mark,
            shade,
            svg,
            png,
        } => cmd_render(
            &game,
            &moves,
            mark.as_deref(),
            shade,
            svg.as_deref(),
            png.as_deref(),
        ),
        Command::Replay {
            game,
            record,
            quiet,
        } => run::cmd_replay(&game, &record, quiet),
        Command::Trace {
            game,
            limit,
            seed,
            moves,
        } => cmd_trace(&game, seed, moves.as_deref(), limit),
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

fn cmd_check(files: &[String]) -> Result<String, Failure> {
    let mut out = String::new();
    let mut failed = false;
    for f in files {
        let source = match read_source(f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}", outflank::diagnostic::printable(&e));
                failed = true;
                continue;
            }
        };
        match check(source, &FsLoader, &[]) {
            Ok(checked) => {
                if !checked.warnings.is_empty() {
                    eprint!("{}", checked.warnings.render(color(), render_width()));
                }
                let g = &checked.game;
                outln!(
                    out,
                    "{f}: ok ({}, {} x {}, {}{})",
                    if g.title.is_empty() {
                        "untitled"
                    } else {
                        &g.title
                    },
                    g.geometry.width,
                    g.geometry.height,
                    g.player_list(),
                    g.kinds
                        .iter()
                        .map(|k| format!("; piece {}", k.name))
                        .collect::<Vec<_>>()
                        .concat()
                );
            }
            Err(CheckError::Rules(d)) => {
                eprint!("{}", d.render(color(), render_width()));
                failed = true;
            }
            Err(CheckError::Setting(m)) => {
                eprintln!("error: {}", outflank::diagnostic::printable(&m));
                failed = true;
            }
        }
    }
    if failed {
        write_stdout(&out)?;
        Err(Failure::Printed)
    } else {
        Ok(out)
    }
}

fn cmd_moves(
    args: &GameArgs,
    history: &str,
    steps: bool,
    limit: usize,
    json: bool,
) -> Result<String, Failure> {
    let mut out = String::new();
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    // Whole turns beyond the limit are left out, and the output says so.
    let mut more = false;
    let entries: Vec<MoveEntry> = if steps {
        let mut buf = Vec::new();
        engine.steps(&s, &mut buf)?;
        let mut out = Vec::new();
        for step in buf {
            let after = engine.apply(&s, step)?;
            out.push(MoveEntry::new(
                &engine,
                engine.step_notation(&s, step),
                &after,
            ));
        }
        out
    } else {
        // In the middle of a turn, the history's last move is the turn's beginning: list whole
        // turns that start with it, so an entry can replace it in --moves.
        let begun = if s.steps > 0 {
            history.split_whitespace().last().unwrap_or("")
        } else {
            ""
        };
        let (turns, beyond) = engine.first_turns(&s, limit)?;
        more = beyond;
        turns
            .into_iter()
            .map(|t| MoveEntry::new(&engine, format!("{begun}{}", t.notation), &t.after))
            .collect()
    };
    if json {
        let mut report = PositionReport::new(&engine, &s, entries);
        report.more = more;
        outln!(
            out,
            "{}",
            serde_json::to_string_pretty(&report).expect("plain data serializes")
        );
    } else {
        outp!(out, "{}", describe_position(&engine, &s));
        let names: Vec<String> = entries.iter().map(|e| e.notation.clone()).collect();
        if !s.is_over() {
            let what = if steps { "choices" } else { "moves" };
            if more {
                outln!(
                    out,
                    "the first {} legal {what} (more beyond --limit {limit}; --steps lists the next step's choices): {}",
                    names.len(),
                    names.join(" ")
                );
            } else {
                outln!(out, "{} legal {what}: {}", names.len(), names.join(" "));
            }
        }
    }
    Ok(out)
}

fn cmd_perft(
    args: &GameArgs,
    depth: u32,
    history: &str,
    divide: bool,
    json: bool,
) -> Result<String, Failure> {
    let mut out = String::new();
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let started = Instant::now();
    let (leaves, split) = if divide {
        let split = match engine.perft_divide(&s, depth) {
            Ok(v) => v,
            Err(ListError::Rule(e)) => return Err(e.into()),
            Err(ListError::TooMany(_)) => unreachable!("no limit"),
        };
        (split.iter().map(|(_, n)| n).sum(), split)
    } else {
        (engine.perft(&s, depth)?, Vec::new())
    };
    let seconds = started.elapsed().as_secs_f64();
    if json {
        let report = PerftReport {
            depth,
            leaves,
            seconds,
            divide: divide.then(|| {
                split
                    .iter()
                    .map(|(m, n)| DivideEntry {
                        r#move: m.clone(),
                        leaves: *n,
                    })
                    .collect()
            }),
        };
        outln!(
            out,
            "{}",
            serde_json::to_string(&report).expect("plain data serializes")
        );
    } else {
        for (m, n) in &split {
            outln!(out, "{m}: {n}");
        }
        outln!(
            out,
            "perft {depth}: {leaves} leaves in {seconds:.3} s ({} leaves/s)",
            rate(leaves as f64, seconds)
        );
    }
    Ok(out)
}

fn cmd_fmt(files: &[String], check: bool) -> Result<String, Failure> {
    let mut out = String::new();
    let mut unformatted = Vec::new();
    for file in files {
        let source = read_source(file)?;
        // Refuse to lay out a file that does not parse: whitespace is all that may change.
        if let Err(d) = outflank::syntax::parse(&source) {
            let mut all = outflank::diagnostic::Diagnostics::default();
            all.push(d);
            eprint!("{}", all.render(color(), render_width()));
            return Err(Failure::Printed);
        }
        let formatted = outflank::format::format(&source.text);
        if formatted == source.text {
            continue;
        }
        if check {
            unformatted.push(file.clone());
        } else {
            std::fs::write(file, formatted).map_err(|e| format!("cannot write {file}: {e}"))?;
            outln!(out, "formatted {file}");
        }
    }
    if !unformatted.is_empty() {
        for f in &unformatted {
            outln!(out, "{f} is not formatted");
        }
        write_stdout(&out)?;
        return Err(Failure::Printed);
    }
    Ok(out)
}

fn cmd_explain(args: &GameArgs, history: &str, the_move: &str) -> Result<String, Failure> {
    use outflank::diagnostic::{Diagnostic, Diagnostics};
    if the_move.trim().is_empty() {
        return Err(Failure::Message(
            "no move to explain: give one, e.g. `outflank explain FILE d3`".into(),
        ));
    }
    // Echoed in the explanation: no terminal escapes from it.
    let the_move = outflank::diagnostic::printable(the_move);
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let ex = engine.explain(&s, the_move.trim())?;
    let player = engine.player_name(ex.player).to_string();
    let mut out = String::new();
    let verdict = if ex.legal { "legal" } else { "not legal" };
    outln!(out, "{} is {verdict} for {player}", the_move.trim());
    let mut diags = Diagnostics::default();
    let mut plain = Vec::new();
    for step in &ex.steps {
        if let Some(loc) = step.allowed_by {
            let file = &engine.game.files[loc.file as usize];
            let mut d = Diagnostic::warning(
                file,
                loc.span,
                format!("`{}` is allowed by this option", step.text),
            )
            .with_label(format!("allows {}", step.text));
            d.severity = miette::Severity::Advice;
            diags.push(d);
        } else if step.allowed_by.is_none() && step.reasons.is_empty() {
            plain.push(format!("`{}`: the forced pass", step.text));
        }
        for (why, loc) in &step.reasons {
            match loc {
                Some(loc) => {
                    let file = &engine.game.files[loc.file as usize];
                    diags.push(
                        Diagnostic::error(file, loc.span, why.clone()).with_label(why.clone()),
                    );
                }
                None => plain.push(why.clone()),
            }
        }
    }
    outp!(out, "{}", diags.render(false, render_width()));
    for p in plain {
        outln!(out, "{p}");
    }
    // What the legal part of the move changes.
    let (mut placed, mut flipped, mut vacated) = (Vec::new(), Vec::new(), Vec::new());
    let g = &engine.game.geometry;
    for c in 0..g.cells() {
        match (s.owner(c), ex.after.owner(c)) {
            (None, Some(_)) => placed.push(g.name(c)),
            (Some(a), Some(b)) if a != b => flipped.push(g.name(c)),
            (Some(_), None) => vacated.push(g.name(c)),
            _ => {}
        }
    }
    let mut parts = Vec::new();
    for (what, cells) in [
        ("places", &placed),
        ("flips", &flipped),
        ("empties", &vacated),
    ] {
        if !cells.is_empty() {
            parts.push(format!("{what} {}", cells.join(" ")));
        }
    }
    // And the state beyond the board: a token changing hands, a counter changing.
    for ((name, before), (_, after)) in engine.extra(&s).into_iter().zip(engine.extra(&ex.after)) {
        match (&before, &after) {
            (Extra::PerPlayer(b), Extra::PerPlayer(a)) => {
                for ((player, x), (_, y)) in b.iter().zip(a) {
                    if x != y {
                        parts.push(format!("changes {player}'s {name} from {x} to {y}"));
                    }
                }
            }
            _ if before != after => parts.push(format!("gives {name} to {after}")),
            _ => {}
        }
    }
    let lead = if ex.legal { "it" } else { "its legal part" };
    if ex.steps.iter().any(|st| st.allowed_by.is_some()) || ex.legal {
        outln!(
            out,
            "{lead} {}",
            if parts.is_empty() {
                "changes no cell".to_string()
            } else {
                parts.join("; ")
            }
        );
    }
    if ex.legal {
        Ok(out)
    } else {
        write_stdout(&out)?;
        Err(Failure::Printed)
    }
}

/// Rasterizes an SVG diagram (text in the system's fonts, when it has any).
fn png_of(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    // The diagram asks for "sans-serif"; map it to a sans face that is installed.
    let family = fonts
        .faces()
        .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
        .filter(|name| name.contains("Sans") && !name.contains("Mono"))
        .min();
    if let Some(family) = family {
        fonts.set_sans_serif_family(family);
    }
    let tree =
        usvg::Tree::from_str(svg, &options).map_err(|e| format!("cannot read the diagram: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("the diagram has no size")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

fn cmd_render(
    args: &GameArgs,
    history: &str,
    mark: Option<&str>,
    shade: Vec<String>,
    svg_out: Option<&str>,
    png_out: Option<&str>,
) -> Result<String, Failure> {
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let mut drawing = outflank::render::Drawing {
        shade,
        ..Default::default()
    };
    match mark {
        Some("legal") => {
            let mut buf = Vec::new();
            engine.steps(&s, &mut buf)?;
            drawing.dots = buf
                .iter()
                .filter_map(|&st| engine.step_cell(&s, st))
                .collect();
        }
        Some(_) => {
            // Replay the last move of the history step by step to find the cells it chose.
            let moves: Vec<&str> = history.split_whitespace().collect();
            if let Some((last, before)) = moves.split_last() {
                let prior = position(&engine, args, &before.join(" "))?;
                let played = engine
                    .parse_turn(&prior, last)
                    .map_err(|e| Failure::Message(e.to_string()))?;
                let mut at = prior;
                for (step, after) in played {
                    drawing.rings.extend(engine.step_cell(&at, step));
                    at = after;
                }
            }
        }
        None => {}
    }
    let text = outflank::render::svg(&engine, &s, &drawing)?;
    let mut done = String::new();
    if let Some(out) = svg_out {
        std::fs::write(out, &text).map_err(|e| format!("cannot write {out}: {e}"))?;
        outln!(done, "wrote {out}");
    }
    if let Some(out) = png_out {
        let bytes = png_of(&text)?;
        std::fs::write(out, bytes).map_err(|e| format!("cannot write {out}: {e}"))?;
        outln!(done, "wrote {out}");
    }
    Ok(done)
}

fn cmd_test(files: &[String]) -> Result<String, Failure> {
    let (mut passed, mut failed) = (0, 0);
    let mut out = String::new();
    for file in files {
        // A designer testing the examples wants the warnings too.
        let engine = load_game_showing(&GameArgs::plain(file), true)?;
        outln!(out, "{file}");
        if engine.game.examples.is_empty() {
            outln!(out, "  (no examples)");
        }
        let source = engine
            .game
            .files
            .last()
            .expect("a checked game has its file")
            .clone();
        for (i, example) in engine.game.examples.iter().enumerate() {
            let settings = outflank::examples::settings(example);
            // An example that sets parameters runs on the rules checked with them (the same
            // file, so its examples come in the same order).
            let with_settings;
            let (runner, example) = if settings.is_empty() {
                (&engine, example)
            } else {
                let mut args = GameArgs::plain(file);
                args.set = settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
                with_settings = load_game(&args)?;
                (&with_settings, &with_settings.game.examples[i])
            };
            match outflank::examples::run_example(runner, example) {
                Ok(()) => {
                    passed += 1;
                    outln!(out, "  ok    {}", example.name.node);
                }
                Err(f) => {
                    failed += 1;
                    outln!(out, "  FAIL  {}: {}", example.name.node, f.message);
                    if let Some((want, have)) = &f.boards {
                        let width = want
                            .iter()
                            .chain(have)
                            .map(std::string::String::len)
                            .max()
                            .unwrap_or(0)
                            .max(8);
                        outln!(out, "          {:<width$}   {}", "expected", "actual");
                        for i in 0..want.len().max(have.len()) {
                            let (w, h) = (
                                want.get(i).map_or("", String::as_str),
                                have.get(i).map_or("", String::as_str),
                            );
                            let mark = if w == h { ' ' } else { '*' };
                            outln!(out, "     {mark}{:>3} {w:<width$}   {h}", i + 1);
                        }
                    }
                    let mut d = outflank::diagnostic::Diagnostics::default();
                    d.push(
                        outflank::diagnostic::Diagnostic::error(
                            &source,
                            f.span,
                            format!("example `{}` failed", example.name.node),
                        )
                        .with_label(f.message.clone())
                        .with_help(
                            "the example's steps run in order; the labelled one did not hold",
                        ),
                    );
                    eprint!("{}", d.render(color(), render_width()));
                }
            }
        }
    }
    outln!(out, "{passed} passed, {failed} failed");
    if failed > 0 {
        write_stdout(&out)?;
        return Err(Failure::Printed);
    }
    Ok(out)
}

fn cmd_solve(args: &GameArgs, history: &str, json: bool, memory: u64) -> Result<String, Failure> {
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let started = Instant::now();
    let memory = usize::try_from(memory << 20).unwrap_or(usize::MAX);
    let solution = outflank::solve::solve(&engine, &s, memory)?;
    let seconds = started.elapsed().as_secs_f64();
    // The best line as whole turns.
    let mut turns: Vec<String> = Vec::new();
    for (st, step) in &solution.line {
        let text = engine.step_notation(st, *step);
        match turns.last_mut() {
            Some(last) if st.steps > 0 => last.push_str(&text),
            _ => turns.push(text),
        }
    }
    let end = &solution.end;
    if json {
        #[derive(serde::Serialize)]
        struct Solved {
            result: Option<ResultReport>,
            line: Vec<String>,
            nodes: u64,
            seconds: f64,
        }
        let report = PositionReport::new(&engine, end, Vec::new());
        let solved = Solved {
            result: report.result,
            line: turns,
            nodes: solution.nodes,
            seconds,
        };
        return Ok(serde_json::to_string_pretty(&solved).expect("plain data serializes") + "\n");
    }
    let mut out = String::new();
    outln!(out, "with best play: {}", result_line(&engine, end));
    outln!(out, "best line: {}", turns.join(" "));
    outp!(out, "{}", board_text(&engine, end));
    outln!(
        out,
        "{} positions searched in {seconds:.3} s",
        solution.nodes
    );
    Ok(out)
}

fn cmd_trace(
    args: &GameArgs,
    seed: Option<u64>,
    history: Option<&str>,
    limit: StepLimit,
) -> Result<String, Failure> {
    let mut out = String::new();
    let engine = load_game(args)?;
    let mut s = start(&engine, args)?;
    let title = if engine.game.title.is_empty() {
        "untitled"
    } else {
        &engine.game.title
    };
    outln!(out, "{title}");
    let params: Vec<String> = engine
        .game
        .params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if !params.is_empty() {
        outln!(out, "parameters: {}", params.join(" "));
    }
    // The history's steps, in order, or a seeded random player.
    let mut scripted: Vec<outflank::engine::Step> = Vec::new();
    if let Some(h) = history {
        let mut cur = s;
        for (i, m) in h.split_whitespace().enumerate() {
            let played = engine.parse_turn(&cur, m).map_err(|e| match e {
                PlayError::Illegal(why) => {
                    Failure::Message(format!("move {} `{m}` is not legal: {why}", i + 1))
                }
                rule @ PlayError::Rule(_) => rule.into(),
            })?;
            if let Some((_, st)) = played.last() {
                cur = *st;
            }
            scripted.extend(played.into_iter().map(|(step, _)| step));
        }
        outln!(out, "moves: {h}");
    } else {
        outln!(out, "seed: {}", seed.unwrap_or(1));
    }
    let mut rng = Rng::new(game_seed(seed.unwrap_or(1), 0));
    let mut buf = Vec::new();
    let mut next_scripted = scripted.into_iter();
    let mut steps = 0u64;
    loop {
        if out.len() > STREAM_CHUNK && !stream_stdout(&mut out)? {
            return Ok(String::new());
        }
        if steps == limit.max_steps {
            stream_stdout(&mut out)?;
            return Err(RuleError::endless_game(
                &engine.game,
                format!("the game did not end within {} steps", limit.max_steps),
            )
            .into());
        }
        steps += 1;
        out.push('\n');
        if s.is_over() {
            outp!(out, "{}", position_text(&engine, &s));
            outln!(out, "result: {}", result_line(&engine, &s));
            break;
        }
        engine.steps(&s, &mut buf)?;
        let step = if history.is_some() {
            if let Some(step) = next_scripted.next() {
                step
            } else {
                outp!(out, "{}", board_text(&engine, &s));
                outln!(
                    out,
                    "{} to move; the given moves end here",
                    engine.player_name(s.mover)
                );
                break;
            }
        } else {
            buf[rng.below(buf.len())]
        };
        let heading = if s.steps == 0 {
            format!("turn {}: {} to move", s.turn, engine.player_name(s.mover))
        } else {
            format!(
                "turn {}, step {}: {} to choose",
                s.turn,
                s.steps + 1,
                engine.player_name(s.mover)
            )
        };
        outln!(out, "{heading}");
        outp!(out, "{}", position_text(&engine, &s));
        let legal: Vec<String> = buf.iter().map(|&st| engine.step_notation(&s, st)).collect();
        outln!(out, "legal: {}", abbreviate(&legal));
        outln!(
            out,
            "{} plays {}",
            engine.player_name(s.mover),
            engine.step_notation(&s, step)
        );
        s = engine.apply(&s, step)?;
    }
    Ok(out)
}
