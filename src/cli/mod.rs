//! The `outflank` command line. Everything here is presentation: reading files, rendering
//! diagnostics and boards, JSON. The game logic lives in the library.

mod output;

use crate::agents::{game_seed, random_game, Rng};
use crate::check::{check, CheckError};
use crate::engine::state::State;
use crate::engine::turns::{abbreviate, ListError, PlayError};
use crate::engine::{Engine, RuleError};
use crate::source::{Loader, SourceFile};
use clap::{Args, Parser, Subcommand};
use output::*;
use std::io::IsTerminal;
use std::path::Path;
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
struct GameArgs {
    /// The rules file.
    file: String,
    /// Set a parameter, e.g. --set size=10 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Start from this position instead of the setup: rows of symbols, row 1 first, separated
    /// by `/` (`.` empty, `#` removed), e.g. "..../.BW./.WB./....".
    #[arg(long, value_name = "ROWS")]
    position: Option<String>,
    /// The player to move in --position (default: the first mover).
    #[arg(long, value_name = "PLAYER", requires = "position")]
    to_move: Option<String>,
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
        /// Stop listing whole turns beyond this many.
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
    /// Play games between seeded random players.
    Run {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value_t = 1)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Print a playthrough, step by step, as stable text.
    Trace {
        #[command(flatten)]
        game: GameArgs,
        /// Seed of the random players (used when no --moves are given).
        #[arg(long, conflicts_with = "moves")]
        seed: Option<u64>,
        #[arg(long)]
        moves: Option<String>,
    },
}

/// Finds base files relative to the file that extends them.
pub struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, base: &str, path: &str) -> Result<Arc<SourceFile>, String> {
        let dir = Path::new(base).parent().unwrap_or(Path::new(""));
        let full = dir.join(path);
        let name = full.to_string_lossy().into_owned();
        read_source(&name)
    }
}

pub fn read_source(name: &str) -> Result<Arc<SourceFile>, String> {
    std::fs::read_to_string(name)
        .map(|text| SourceFile::new(name, text))
        .map_err(|e| format!("cannot read {name}: {e}"))
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

/// A failure that ends the command: already printed or to print as one line.
enum Failure {
    Printed,
    Message(String),
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
                let mut all = crate::diagnostic::Diagnostics::default();
                all.push(
                    crate::diagnostic::Diagnostic::error(&file, span, format!("rule error: {}", e.message))
                        .with_label("while running this rule")
                        .with_help("the rules allowed a step that this statement cannot carry out; guard it with a condition"),
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

fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn load_game(args: &GameArgs) -> Result<Engine, Failure> {
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
            if !checked.warnings.is_empty() {
                eprint!("{}", checked.warnings.render(color(), render_width()));
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

fn start(engine: &Engine, args: &GameArgs) -> Result<State, Failure> {
    match &args.position {
        Some(rows) => engine
            .position(rows, args.to_move.as_deref())
            .map_err(|e| Failure::Message(format!("--position: {e}"))),
        None => Ok(engine.start()?),
    }
}

/// Writes everything at once; a reader that stops early (`| head`) is not worth a message.
fn write_stdout(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Runs the command line; returns the process exit code. The work runs on a thread with a
/// large stack: parsing and checking recurse as deep as the rules' expressions nest, and the
/// parser's limits keep that depth far below this.
pub fn main() -> i32 {
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
        Command::Run { game, games, seed } => cmd_run(&game, games, seed),
        Command::Trace { game, seed, moves } => cmd_trace(&game, seed, moves.as_deref()),
    };
    match result {
        Ok(text) => {
            write_stdout(&text);
            0
        }
        Err(Failure::Printed) => 1,
        Err(Failure::Message(m)) => {
            eprintln!("error: {m}");
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
                eprintln!("error: {e}");
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
                    "{f}: ok ({}, {} x {}, {} and {})",
                    if g.title.is_empty() {
                        "untitled"
                    } else {
                        &g.title
                    },
                    g.geometry.width,
                    g.geometry.height,
                    g.players[0].name,
                    g.players[1].name
                );
            }
            Err(CheckError::Rules(d)) => {
                eprint!("{}", d.render(color(), render_width()));
                failed = true;
            }
            Err(CheckError::Setting(m)) => {
                eprintln!("error: {m}");
                failed = true;
            }
        }
    }
    if failed {
        write_stdout(&out);
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
        match engine.whole_turns(&s, limit) {
            Ok(turns) => turns
                .into_iter()
                .map(|t| MoveEntry::new(&engine, format!("{begun}{}", t.notation), &t.after))
                .collect(),
            Err(ListError::Rule(e)) => return Err(e.into()),
            Err(ListError::TooMany(n)) => {
                return Err(Failure::Message(format!(
                    "this position has more than {n} whole turns; list the next step's choices with --steps, or raise --limit"
                )))
            }
        }
    };
    if json {
        let report = PositionReport::new(&engine, &s, entries);
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
            outln!(out, "{} legal {what}: {}", names.len(), names.join(" "));
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

fn cmd_run(args: &GameArgs, games: u64, seed: u64) -> Result<String, Failure> {
    let mut out = String::new();
    let engine = load_game(args)?;
    let start = start(&engine, args)?;
    let started = Instant::now();
    let mut wins = [0u64; 2];
    let mut draws = 0;
    let mut total_steps = 0;
    let mut last = start;
    let show_each = games <= 20;
    for i in 0..games {
        let mut rng = Rng::new(game_seed(seed, i));
        let (end, steps) = random_game(&engine, &start, &mut rng)?;
        total_steps += steps;
        let outcome = end.outcome.expect("random games run to their end");
        match outcome.winner {
            w if (w as usize) < 2 => wins[w as usize] += 1,
            _ => draws += 1,
        }
        if show_each {
            outln!(
                out,
                "game {}: {} ({steps} steps)",
                i + 1,
                result_line(&engine, &end)
            );
        }
        last = end;
    }
    let seconds = started.elapsed().as_secs_f64();
    out.push('\n');
    outp!(out, "{}", board_text(&engine, &last));
    outln!(
        out,
        "final position of game {games}: {}",
        result_line(&engine, &last)
    );
    outln!(
        out,
        "{games} games: {} {} wins, {} {} wins, {draws} draws; {:.1} steps per game",
        engine.player_name(0),
        wins[0],
        engine.player_name(1),
        wins[1],
        total_steps as f64 / games.max(1) as f64
    );
    outln!(
        out,
        "{} games/s ({seconds:.3} s)",
        rate(games as f64, seconds)
    );
    Ok(out)
}

fn cmd_trace(args: &GameArgs, seed: Option<u64>, history: Option<&str>) -> Result<String, Failure> {
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
    let mut scripted: Vec<crate::engine::Step> = Vec::new();
    if let Some(h) = history {
        let mut cur = s;
        for (i, m) in h.split_whitespace().enumerate() {
            let played = engine.parse_turn(&cur, m).map_err(|e| match e {
                PlayError::Illegal(why) => {
                    Failure::Message(format!("move {} `{m}` is not legal: {why}", i + 1))
                }
                rule => rule.into(),
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
    loop {
        out.push('\n');
        if s.is_over() {
            outp!(out, "{}", board_text(&engine, &s));
            outln!(out, "result: {}", result_line(&engine, &s));
            break;
        }
        engine.steps(&s, &mut buf)?;
        let step = if history.is_some() {
            match next_scripted.next() {
                Some(step) => step,
                None => {
                    outp!(out, "{}", board_text(&engine, &s));
                    outln!(
                        out,
                        "{} to move; the given moves end here",
                        engine.player_name(s.mover)
                    );
                    break;
                }
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
        outp!(out, "{}", board_text(&engine, &s));
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
