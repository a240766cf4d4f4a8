//! The `outflank` command line. Everything here is presentation: reading files, rendering
//! diagnostics and boards, JSON. The game logic lives in the library. This file parses the
//! command line and dispatches; the commands share `game` (loading rules, starting games,
//! failures, standard output) and `output`, below them, and import nothing from here.

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
mod game;
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

use author::{CheckArgs, FmtArgs, InfoArgs, TestArgs};
use bench::BenchArgs;
use clap::{CommandFactory, Parser, Subcommand};
use game::{write_stdout, Failure};
use inspect::{ExplainArgs, MovesArgs, PerftArgs, TraceArgs};
use play::PlayArgs;
use render::RenderArgs;
use run::{ReplayArgs, RunArgs};
use solve::SolveArgs;

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

/// Runs the command line; returns the process exit code. The work runs on a thread with a
/// large stack: parsing and checking recurse as deep as the rules' expressions nest, and the
/// parser's limits keep that depth far below this.
pub(crate) fn main() -> i32 {
    let cli = Cli::parse();
    if let Err(m) = outflank::board::cpu::check_switch() {
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
        Command::Completions(a) => shell::cmd_completions(a, Cli::command()),
        Command::Man(a) => shell::cmd_man(a, Cli::command()),
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
