//! `solve`: the exact result with best play, or who wins.

use super::game::*;
use super::output::*;
use clap::Args;
use outflank::engine::negamax::{Aim, Watch};
use outflank::engine::state::read_value;
use outflank::ir::NOBODY;
use std::cmp::Ordering;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Instant;

// The options of `solve` (its help is the doc comment of `Command::Solve`).
#[derive(Args)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// Moves played before solving, in notation, separated by spaces.
    #[arg(long, default_value = "")]
    pub(super) moves: String,
    /// The result, the value, the best line and the counts as JSON.
    #[arg(long)]
    pub(super) json: bool,
    /// Only who wins, or a draw, not by how much: one or two of the exact solve's questions,
    /// often far fewer positions. The line keeps the result at each step; its margin need
    /// not be the best.
    #[arg(long)]
    pub(super) outcome: bool,
    /// Memory the solver's table may take: a number with K, M or G (bytes: 512M, 2G), or
    /// plain megabytes; 16M to 1024G. A smaller table costs only repeated work.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = memory_size)]
    pub(super) memory: u64,
    /// Threads to search on (default: one per core). Short solves, and games whose counters,
    /// tokens or agreement outlast a turn, run on one thread. The value does not depend on it; the positions
    /// searched do, and so may the best line: one thread's and that of threads that shared
    /// the search may be different best lines (each the same every run).
    #[arg(long)]
    pub(super) jobs: Option<usize>,
}

/// The bytes a `--memory` value stands for.
fn memory_size(text: &str) -> Result<u64, String> {
    let not_a_size =
        || format!("`{text}` is not a size: write a number with K, M or G, as 512M or 2G");
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, "M"),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => return Err(not_a_size()),
    };
    let n: u64 = digits.parse().map_err(|_| not_a_size())?;
    let bytes = n
        .checked_shl(shift)
        .filter(|b| b >> shift == n)
        .unwrap_or(u64::MAX);
    if !(16 << 20..=1 << 40).contains(&bytes) {
        return Err(format!(
            "`{text}` is out of range: the table takes 16M to 1024G"
        ));
    }
    Ok(bytes)
}

/// What the solve has proved so far, shared by the progress line and the Ctrl-C handler.
struct Proved {
    started: Instant,
    nodes: u64,
    /// Bounds on the value for the player to move at the solved position.
    low: f64,
    high: f64,
    /// While the solver learns its order: how many of how many sample endgames are solved.
    learning: Option<(usize, usize)>,
}

/// A value of the search (see `Outcome::value_for`) in words, for `player`.
fn value_words(player: &str, v: f64) -> String {
    match read_value(v) {
        (Ordering::Greater, margin) => format!("{player} wins by {margin}"),
        (Ordering::Less, margin) => format!("{player} loses by {}", -margin),
        (_, 0.0) => "a draw".into(),
        (_, margin) => format!("a draw, {player} {margin:+}"),
    }
}

impl Proved {
    /// The bounds in words, or None before any is known.
    fn bounds(&self, player: &str) -> Option<String> {
        match (self.low.is_finite(), self.high.is_finite()) {
            (false, false) => None,
            (true, false) => Some(format!("at least {}", value_words(player, self.low))),
            (false, true) => Some(format!("at most {}", value_words(player, self.high))),
            (true, true) => Some(format!(
                "between {} and {}",
                value_words(player, self.low),
                value_words(player, self.high)
            )),
        }
    }

    /// The bounds in words, or what is under way before any is known.
    fn proved(&self, player: &str, nothing: &str) -> String {
        self.bounds(player).unwrap_or_else(|| match self.learning {
            Some((valued, of)) => {
                format!(
                    "{nothing}; learning the move order: {valued} of {of} sample endgames solved"
                )
            }
            None => nothing.into(),
        })
    }

    fn line(&self, player: &str) -> String {
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = self.nodes as f64 / seconds.max(1e-9);
        format!(
            "{} positions, {:.1} M/s, {seconds:.0} s; value: {}",
            self.nodes,
            rate / 1e6,
            self.proved(player, "not bounded yet")
        )
    }
}

/// Tells the shared record and the progress line what the search reports.
struct Watcher {
    proved: Arc<Mutex<Proved>>,
    bar: Option<indicatif::ProgressBar>,
    player: String,
}

impl Watcher {
    /// Puts what `p` records on the progress line, where there is one.
    fn show(&self, p: &Proved) {
        if let Some(bar) = &self.bar {
            bar.set_message(p.line(&self.player));
        }
    }
}

impl Watch for Watcher {
    fn searched(&mut self, nodes: u64) {
        let mut p = lock(&self.proved);
        p.nodes = nodes;
        self.show(&p);
    }

    fn bounded(&mut self, low: f64, high: f64) {
        let mut p = lock(&self.proved);
        // Only the first search (the value of the solved position) bounds it; the searches
        // that then find the best line ask about later positions.
        if p.low < p.high {
            (p.low, p.high) = (low, high);
        }
        self.show(&p);
    }

    fn learning(&mut self, progress: Option<(usize, usize)>) {
        let mut p = lock(&self.proved);
        p.learning = progress;
        self.show(&p);
    }
}

fn lock(m: &Mutex<Proved>) -> std::sync::MutexGuard<'_, Proved> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(super) fn cmd_solve(a: &SolveArgs) -> Result<String, Failure> {
    let SolveArgs {
        game: ref args,
        moves: ref history,
        json,
        outcome,
        memory,
        jobs,
    } = *a;
    let aim = if outcome { Aim::Outcome } else { Aim::Value };
    let jobs = super::run::job_count(jobs, u64::MAX)?;
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let started = Instant::now();
    let player = engine.player_name(s.mover).to_string();
    let proved = Arc::new(Mutex::new(Proved {
        started,
        nodes: 0,
        low: f64::NEG_INFINITY,
        high: f64::INFINITY,
        learning: None,
    }));
    // Ctrl-C, SIGTERM or a closed terminal: what is proved so far is not lost.
    {
        let (proved, player) = (Arc::clone(&proved), player.clone());
        let _ = ctrlc::set_handler(move || {
            let p = lock(&proved);
            let bounds = match p.bounds(&player) {
                Some(b) => format!("the value is {b}"),
                None => p.proved(&player, "nothing is proved yet"),
            };
            let text = format!(
                "interrupted after {} positions in {:.1} s: {bounds}",
                p.nodes,
                p.started.elapsed().as_secs_f64()
            );
            eprintln!("\n{}", outflank::diagnostic::printable(&text));
            std::process::exit(130);
        });
    }
    let bar = (!json && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(250));
        bar
    });
    let memory = usize::try_from(memory).unwrap_or(usize::MAX);
    let solution = outflank::apps::solve::solve_watched(&engine, &s, memory, jobs, aim, || {
        let w: Box<dyn Watch> = Box::new(Watcher {
            proved: Arc::clone(&proved),
            bar: bar.clone(),
            player: player.clone(),
        });
        Some(w)
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let solution = solution?;
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
    let value = end
        .outcome
        .filter(|_| !outcome)
        .map(|o| o.value_for(s.mover));
    if json {
        #[derive(serde::Serialize)]
        struct Solved {
            /// Whether the margin is solved too (not under `--outcome`).
            exact: bool,
            /// The end of the line: with best play, or under `--outcome` its winner only.
            result: Option<ResultReport>,
            /// For the player to move at the solved position: a win is worth a million plus
            /// the margin, a loss minus a million plus the margin, a draw the margin. None
            /// under `--outcome`.
            value: Option<f64>,
            value_for: String,
            line: Vec<String>,
            nodes: u64,
            seconds: f64,
        }
        let report = PositionReport::new(&engine, end, Vec::new());
        let solved = Solved {
            exact: !outcome,
            result: report.result,
            value,
            value_for: player,
            line: turns,
            nodes: solution.nodes,
            seconds,
        };
        return Ok(json_document(&solved, true));
    }
    let mut out = String::new();
    if outcome {
        let result = match end.outcome.map(|o| o.winner) {
            Some(w) if w != NOBODY => format!("{} wins", engine.player_name(w)),
            _ => "a draw".into(),
        };
        outln!(out, "with best play: {result} (by how much was not solved)");
        outln!(out, "a line that keeps it: {}", turns.join(" "));
        outln!(out, "it ends: {}", result_line(&engine, end));
    } else {
        outln!(out, "with best play: {}", result_line(&engine, end));
        outln!(out, "best line: {}", turns.join(" "));
    }
    outp!(out, "{}", board_text(&engine, end));
    outln!(
        out,
        "{} positions searched in {seconds:.3} s",
        solution.nodes
    );
    Ok(out)
}
