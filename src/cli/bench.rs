//! `bench`: how fast each game runs, on one thread. Numbers, never assertions: tests do not time.

use super::game::{load_game, Failure, GameArgs};
use super::output::json_document;
use clap::Args;
use outflank::agents::{game_seed, random_game};
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use serde::Serialize;
use std::time::Instant;

// The options of `bench` (its help is the doc comment of `Command::Bench`).
#[derive(Args)]
pub(super) struct BenchArgs {
    /// Rules files (default: every file in games/, or every bundled game outside the
    /// repository).
    pub(super) files: Vec<String>,
    /// Seconds to spend on each measurement (at most an hour).
    #[arg(long, default_value_t = 1.0, value_parser = bench_seconds)]
    pub(super) seconds: f64,
    /// The measurements as JSON: an array of one object per game.
    #[arg(long)]
    pub(super) json: bool,
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

#[derive(Serialize)]
struct Row {
    game: String,
    playouts_per_second: f64,
    steps_per_playout: f64,
    perft_depth: u32,
    perft_leaves_per_second: f64,
    bytes_per_state: usize,
    /// The runner's own state, which its playouts and perft copy instead.
    runner_bytes_per_state: usize,
    /// How the runner takes the game's turns: "direct" (a loop over the boards alone),
    /// "enclosure" (a Go-like capture as one step), "enclosure loop" (playouts run such
    /// placements as a loop among words), or "general" (the turn program, step by step).
    path: &'static str,
}

pub(super) fn cmd_bench(a: &BenchArgs) -> Result<String, Failure> {
    let BenchArgs {
        ref files,
        seconds,
        json,
    } = *a;
    let files: Vec<String> = if !files.is_empty() {
        files.clone()
    } else if std::path::Path::new("games").is_dir() {
        let mut all: Vec<String> = std::fs::read_dir("games")
            .map_err(|e| format!("cannot list games/: {e}; name the files to measure"))?
            .filter_map(std::result::Result::ok)
            .map(|e| format!("games/{}", e.file_name().to_string_lossy()))
            .filter(|n| {
                std::path::Path::new(n)
                    .extension()
                    .is_some_and(|e| e == "rules")
            })
            .collect();
        all.sort();
        all
    } else {
        // Outside the repository: the bundled games, as `games/NAME` finds them.
        let mut all: Vec<String> = super::game::BUNDLED
            .iter()
            .map(|(name, _)| format!("games/{name}"))
            .collect();
        all.sort();
        all
    };
    let mut rows = Vec::new();
    for file in &files {
        let engine = load_game(&GameArgs::plain(file))?;
        let start = engine.start()?;
        // Random playouts from the start until the time is used.
        let began = Instant::now();
        let (mut games, mut steps) = (0u64, 0u64);
        while began.elapsed().as_secs_f64() < seconds {
            let mut rng = Rng::new(game_seed(1, games));
            let (_, n) = random_game(&engine, &start, &mut rng)?;
            games += 1;
            steps += n;
        }
        let playout_time = began.elapsed().as_secs_f64();
        // Perft: deepening one ply at a time while the next depth is expected to take no more
        // than the time (the last depth's time times the growth of the leaf count).
        let (mut depth, mut leaves, mut perft_time) = (0, 0u64, 0.0);
        let mut growth = 1.0;
        while perft_time < seconds / 4.0 && perft_time * growth < seconds && depth < 12 {
            let t = Instant::now();
            let n = engine.perft(&start, depth + 1)?;
            let elapsed = t.elapsed().as_secs_f64();
            growth = n as f64 / leaves.max(1) as f64;
            (depth, leaves, perft_time) = (depth + 1, n, elapsed);
        }
        rows.push(Row {
            game: engine.game.title.clone(),
            playouts_per_second: games as f64 / playout_time,
            steps_per_playout: steps as f64 / games.max(1) as f64,
            perft_depth: depth,
            perft_leaves_per_second: if perft_time > 0.0 {
                leaves as f64 / perft_time
            } else {
                0.0
            },
            bytes_per_state: std::mem::size_of::<State>(),
            runner_bytes_per_state: engine.runner_state_bytes(),
            path: engine.runner_path(),
        });
    }
    if json {
        return Ok(json_document(
            &serde_json::json!({
                "games": rows,
                "instructions": outflank::board::cpu::names(),
            }),
            true,
        ));
    }
    let mut out = format!(
        "{:<32} {:>12} {:>8} {:>6} {:>14} {:>11} {:>12}  {}\n",
        "game",
        "playouts/s",
        "steps",
        "depth",
        "perft leaves/s",
        "state bytes",
        "runner bytes",
        "path"
    );
    for r in &rows {
        out.push_str(&format!(
            "{:<32} {:>12.0} {:>8.1} {:>6} {:>14.0} {:>11} {:>12}  {}\n",
            r.game,
            r.playouts_per_second,
            r.steps_per_playout,
            r.perft_depth,
            r.perft_leaves_per_second,
            r.bytes_per_state,
            r.runner_bytes_per_state,
            r.path
        ));
    }
    out.push_str(&format!(
        "bit instructions: {}\n",
        outflank::board::cpu::names()
    ));
    Ok(out)
}
