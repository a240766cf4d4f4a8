//! `run` (self-play with statistics and records) and `replay` (checking records).

use super::game::{load_game, start, write_stdout, Failure, GameArgs};
use super::output::{board_text, json_document, percent_ci, rate, result_line};
use super::progress::Progress;
use clap::Args;
use outflank::apps::record::{params_of, replay, rules_hash, Record, StartPosition};
use outflank::apps::selfplay::{play_series, wilson, GameResult, Match, SeriesEnd, SeriesError};
use outflank::apps::shards::Series;
use outflank::diagnostic::count_of;
use outflank::engine::state::State;
use outflank::engine::Engine;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

// The options of `run` (its help is the doc comment of `Command::Run`).
#[derive(Args)]
pub(super) struct RunArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// How many games to play (up to 20, each one's result gets a line of its own).
    #[arg(long, default_value_t = 1)]
    pub(super) games: u64,
    #[command(flatten)]
    pub(super) series: SeriesArgs,
    /// The summary as one JSON object.
    #[arg(long)]
    pub(super) json: bool,
    /// Append a record of every game to this JSON-lines file.
    #[arg(long, value_name = "FILE.jsonl")]
    pub(super) record: Option<String>,
}

/// Who plays a series of self-play games and how it is seeded, as `run` and `analyse` take it.
#[derive(Args)]
pub(super) struct SeriesArgs {
    /// The series' seed: the same seed gives the same games whatever --jobs.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// One player per seat, in turn order, separated by commas: random, greedy,
    /// mcts[:N|:Nms], alphabeta[:D[:E]] (default: random in every seat).
    #[arg(long)]
    pub(super) agents: Option<String>,
    /// One seat's agent, by the player's name in the rules, e.g. --seat white=mcts:2000
    /// (repeatable; as `play` takes it). Seats it does not name keep --agents' or random.
    #[arg(long = "seat", value_name = "PLAYER=AGENT")]
    pub(super) seat: Vec<String>,
    /// Move every agent one seat on at each game, so each plays every seat (with two
    /// players: swap seats every other game); for fair strength comparisons
    #[arg(long)]
    pub(super) swap: bool,
    /// Threads (default: all cores). The games do not depend on it.
    #[arg(long)]
    pub(super) jobs: Option<usize>,
}

// The options of `replay` (its help is the doc comment of `Command::Replay`).
#[derive(Args)]
pub(super) struct ReplayArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// A record file: one JSON object, or JSON lines.
    pub(super) record: String,
    /// Only report whether the records match.
    #[arg(long)]
    pub(super) quiet: bool,
}

/// The most threads `run --jobs` starts: far more than cores anywhere, few enough to start.
const MAX_JOBS: usize = 1024;

#[derive(Serialize)]
struct Share {
    wins: u64,
    rate: f64,
    ci95: [f64; 2],
}

#[derive(Serialize)]
struct Length {
    mean: f64,
    min: usize,
    max: usize,
}

#[derive(Serialize)]
struct Summary {
    rules: String,
    games: u64,
    seed: u64,
    jobs: usize,
    /// Agent of each player (before swapping).
    seats: BTreeMap<String, String>,
    swap: bool,
    /// Wins by player.
    wins: BTreeMap<String, Share>,
    /// Wins by agent, when seats are swapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    agents: Option<BTreeMap<String, Share>>,
    draws: u64,
    /// Stopped by a signal: `games` is what was played of the games asked for.
    interrupted: bool,
    /// Game length in whole turns.
    length: Length,
    /// Mean number of options at a decision with more than one.
    branching: f64,
    seconds: f64,
    games_per_second: f64,
}

fn share(wins: u64, n: u64) -> Share {
    let (lo, hi) = wilson(wins, n);
    Share {
        wins,
        rate: if n > 0 { wins as f64 / n as f64 } else { 0.0 },
        ci95: [lo, hi],
    }
}

pub(super) fn cmd_run(o: &RunArgs) -> Result<String, Failure> {
    let args = &o.game;
    let engine = load_game(args)?;
    let begin = start(&engine, args)?;
    let players = engine.game.player_count();
    let series = series_of(&engine, args, &begin, &o.series, o.games)?;
    let specs = series.agents.clone();
    if o.games == 0 {
        return Err(Failure::Message("--games 0: nothing to play".into()));
    }
    let m = Match {
        agents: specs.clone(),
        swap: o.series.swap,
        // Only a record keeps the moves; the per-game lines give the number of turns.
        notation: o.record.is_some(),
    };
    let jobs = job_count(o.series.jobs, o.games)?;
    // A progress bar only for a person watching.
    let show = std::io::stderr().is_terminal() && !o.json;
    let progress = Progress::new(show, o.games, "games");
    // A record file is opened before the first game, so that a bad path fails at once, and
    // each game is written (and flushed) as it ends: an interrupted run keeps what it played.
    let mut record_file = open_record(o.record.as_deref())?;
    let series = series.record();
    let mut tally = Tally::new(players as usize);
    stop_on_signals();
    let started = Instant::now();
    let ended = {
        let mut each = |r: GameResult| -> Result<(), String> {
            if let (Some(file), Some(path)) = (record_file.as_mut(), &o.record) {
                append_record(file, path, &Record::of_game(&engine, &series, &r))?;
            }
            tally.add(&engine, r);
            progress.set(tally.games);
            Ok(())
        };
        play_series(
            &engine,
            &begin,
            &m,
            o.series.seed,
            0..o.games,
            jobs,
            &STOP,
            &mut each,
        )
    };
    let seconds = started.elapsed().as_secs_f64();
    drop(progress);
    let ended = ended.map_err(|e| match e {
        SeriesError::Rule(e) => Failure::from(e),
        SeriesError::Other(m) => Failure::Message(m),
    })?;
    let interrupted = ended == SeriesEnd::Interrupted;
    if interrupted && tally.games == 0 {
        eprintln!("interrupted before any game ended");
        return Err(Failure::Interrupted);
    }

    let n = tally.games;
    let Tally {
        wins,
        by_agent,
        draws,
        ..
    } = &tally;
    let draws = *draws;
    let summary = Summary {
        rules: args.file.clone(),
        games: n,
        seed: o.series.seed,
        jobs,
        seats: (0..players)
            .map(|p| (engine.player_name(p).to_string(), specs[p as usize].clone()))
            .collect(),
        swap: o.series.swap,
        wins: (0..players)
            .map(|p| {
                (
                    engine.player_name(p).to_string(),
                    share(wins[p as usize], n),
                )
            })
            .collect(),
        agents: (o.series.swap && specs.iter().any(|a| *a != specs[0])).then(|| {
            specs
                .iter()
                .map(|a| (a.clone(), share(by_agent.get(a).copied().unwrap_or(0), n)))
                .collect()
        }),
        draws,
        interrupted,
        length: Length {
            mean: tally.turns as f64 / n as f64,
            min: tally.shortest,
            max: tally.longest,
        },
        branching: if tally.decisions > 0 {
            tally.options as f64 / tally.decisions as f64
        } else {
            1.0
        },
        seconds,
        games_per_second: if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        },
    };
    if o.json {
        let text = json_document(&summary, true);
        return finish(text, interrupted);
    }

    let out = summary_text(&engine, &tally, &summary, o, &specs);
    finish(out, interrupted)
}

/// The series that `args` describe for a loaded game.
pub(super) fn series_of(
    engine: &Engine,
    game: &GameArgs,
    begin: &State,
    series: &SeriesArgs,
    games: u64,
) -> Result<Series, Failure> {
    Ok(Series {
        rules: game.file.clone(),
        rules_hash: rules_hash(engine),
        params: params_of(engine),
        start: game
            .position
            .is_some()
            .then(|| StartPosition::of(engine, begin)),
        players: (0..engine.game.player_count())
            .map(|p| engine.player_name(p).to_string())
            .collect(),
        agents: seat_agents(engine, series.agents.as_deref(), &series.seat)?,
        swap: series.swap,
        seed: series.seed,
        games,
    })
}

/// The `--record` file, opened to append.
pub(super) fn open_record(path: Option<&str>) -> Result<Option<std::fs::File>, String> {
    path.map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("--record {path}: {e}"))
    })
    .transpose()
}

/// Writes one record as a line of the `--record` file `path`, flushed at once so that an
/// interrupted series keeps every game it finished.
pub(super) fn append_record(
    file: &mut std::fs::File,
    path: &str,
    record: &Record,
) -> Result<(), String> {
    let line = serde_json::to_string(record).expect("records serialize") + "\n";
    file.write_all(line.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("--record {path}: {e}"))
}

/// The agent of each seat, in turn order, from `--agents` (random in every seat without it)
/// and then `--seat PLAYER=AGENT`, each checked.
pub(super) fn seat_agents(
    engine: &Engine,
    agents: Option<&str>,
    seats: &[String],
) -> Result<Vec<String>, Failure> {
    let players = engine.game.player_count();
    let specs: Vec<String> = match agents {
        Some(list) => list.split(',').map(|a| a.trim().to_string()).collect(),
        None => vec!["random".to_string(); players as usize],
    };
    if specs.len() != players as usize {
        let example = [
            "mcts", "random", "greedy", "random", "mcts", "random", "greedy", "random",
        ];
        return Err(Failure::Message(format!(
            "--agents {}: name {players} players, one for each of {} in turn order, e.g. {}",
            agents.unwrap_or_default(),
            engine.game.player_list(),
            example[..players as usize].join(",")
        )));
    }
    let mut specs = specs;
    let mut named = Vec::new();
    for seat in seats {
        let (p, agent) = super::game::seat_pair(engine, seat)?;
        if named.contains(&p) {
            return Err(Failure::Message(format!(
                "--seat {seat}: {} is seated twice; keep one",
                engine.player_name(p)
            )));
        }
        named.push(p);
        specs[usize::from(p)] = agent.to_string();
    }
    for spec in &specs {
        outflank::agents::agent(spec, 0)?;
    }
    Ok(specs)
}

/// The threads to play on: `--jobs`, or one per core; never more than the games.
pub(super) fn job_count(jobs: Option<usize>, games: u64) -> Result<usize, Failure> {
    let jobs = jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    if jobs == 0 {
        return Err(Failure::Message(
            "--jobs 0: at least one thread is needed".into(),
        ));
    }
    if jobs > MAX_JOBS {
        return Err(Failure::Message(format!(
            "--jobs {jobs}: at most {MAX_JOBS} threads (this machine has {} cores)",
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        )));
    }
    // No more threads than games: the others would have nothing to do.
    let jobs = jobs
        .min(usize::try_from(games).unwrap_or(usize::MAX))
        .max(1);
    Ok(jobs)
}

/// The summary as text: each game's line and the last game's board (for a few games), then
/// wins per seat (and per agent when seats swap), draws, length and speed.
fn summary_text(
    engine: &Engine,
    tally: &Tally,
    summary: &Summary,
    o: &RunArgs,
    specs: &[String],
) -> String {
    let (n, draws, jobs, seconds) = (tally.games, tally.draws, summary.jobs, summary.seconds);
    let (players, interrupted) = (engine.game.player_count(), summary.interrupted);
    let mut out = String::new();
    if n <= SHOWN_GAMES as u64 {
        for line in &tally.lines {
            out.push_str(line);
        }
        out.push('\n');
        if let Some(last) = &tally.last {
            out.push_str(&board_text(engine, &last.final_state));
            out.push_str(&format!(
                "final position of game {}: {}\n\n",
                last.index + 1,
                result_line(engine, &last.final_state)
            ));
        }
    }
    let pct = |s: &Share| percent_ci(s.rate, s.ci95);
    if interrupted {
        out.push_str(&format!(
            "interrupted: {n} of {} played\n",
            count_of(o.games, "game")
        ));
    }
    out.push_str(&format!(
        "{}, seed {}, {}{}\n",
        count_of(n, "game"),
        o.series.seed,
        count_of(jobs as u64, "job"),
        match (o.series.swap, players) {
            (false, _) => "",
            (true, 2) => ", seats swapped every other game",
            (true, _) => ", agents moved one seat on at each game",
        }
    ));
    for p in 0..players {
        let name = engine.player_name(p);
        let s = &summary.wins[name];
        let seat = if o.series.swap {
            String::new()
        } else {
            format!(" ({})", specs[p as usize])
        };
        out.push_str(&format!(
            "{name}{seat}: {}, {}\n",
            count_of(s.wins, "win"),
            pct(s)
        ));
    }
    if let Some(agents) = &summary.agents {
        for (a, s) in agents {
            out.push_str(&format!("{a}: {}, {}\n", count_of(s.wins, "win"), pct(s)));
        }
    }
    out.push_str(&format!("draws: {draws}\n"));
    out.push_str(&format!(
        "length: {:.1} turns on average (min {}, max {}); {:.1} choices per decision\n",
        summary.length.mean, summary.length.min, summary.length.max, summary.branching
    ));
    out.push_str(&format!(
        "{} games/s ({seconds:.3} s)\n",
        rate(n as f64, seconds)
    ));
    out
}

/// The summary as the command's output; an interrupted run prints it and then fails.
fn finish(summary: String, interrupted: bool) -> Result<String, Failure> {
    if !interrupted {
        return Ok(summary);
    }
    write_stdout(&summary)?;
    eprintln!("interrupted: the summary and the record cover the games that ended");
    Err(Failure::Interrupted)
}

/// Raised by Ctrl-C or SIGTERM during `run`: the games end where they are.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// Lets Ctrl-C and SIGTERM end a run cleanly; a second signal ends the process at once.
pub(super) fn stop_on_signals() {
    // Fails only when a handler is already set (a second run in one process): keep that one.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
}

/// Games whose one-line results are shown.
const SHOWN_GAMES: usize = 20;

/// What a run keeps of its games: counts and sums, not the games.
#[derive(Default)]
struct Tally {
    games: u64,
    /// Per player.
    wins: Vec<u64>,
    by_agent: BTreeMap<String, u64>,
    draws: u64,
    turns: u64,
    shortest: usize,
    longest: usize,
    decisions: u64,
    options: u64,
    /// The first games' result lines, and the last game.
    lines: Vec<String>,
    last: Option<GameResult>,
}

impl Tally {
    fn new(players: usize) -> Tally {
        Tally {
            wins: vec![0; players],
            ..Tally::default()
        }
    }

    fn add(&mut self, engine: &Engine, r: GameResult) {
        match r.outcome.winner {
            w if (w as usize) < self.wins.len() => {
                self.wins[w as usize] += 1;
                *self
                    .by_agent
                    .entry(r.agents[w as usize].clone())
                    .or_default() += 1;
            }
            _ => self.draws += 1,
        }
        let turns = r.turns as usize;
        self.shortest = if self.games == 0 {
            turns
        } else {
            self.shortest.min(turns)
        };
        self.longest = self.longest.max(turns);
        self.games += 1;
        self.turns += r.turns;
        self.decisions += r.decisions;
        self.options += r.options;
        if self.lines.len() < SHOWN_GAMES {
            self.lines.push(format!(
                "game {}: {} ({} turns)\n",
                r.index + 1,
                result_line(engine, &r.final_state),
                r.turns
            ));
        }
        self.last = Some(r);
    }
}

pub(super) fn cmd_replay(a: &ReplayArgs) -> Result<String, Failure> {
    let ReplayArgs {
        game: ref args,
        record: ref path,
        quiet,
    } = *a;
    let records = read_records(path)?;
    let mut out = String::new();
    // The rules' hash does not depend on parameters: a record of other rules is told apart
    // before its parameters are tried on these (they may not even exist here).
    let plain = load_game(&GameArgs::plain(&args.file))?;
    for (line, record) in &records {
        let where_ = if records.len() > 1 {
            format!("{path}:{line}")
        } else {
            path.clone()
        };
        let (engine, begin) = match game_of_record(args, &plain, record, &where_) {
            Ok(game) => game,
            Err(e) => {
                write_stdout(&out)?;
                return Err(e);
            }
        };
        match replay(&engine, &begin, record) {
            Err(m) => {
                write_stdout(&out)?;
                return Err(Failure::Message(format!("{where_}: {m}")));
            }
            Ok(states) => {
                if !quiet {
                    for (i, (m, s)) in record.moves.iter().zip(&states).enumerate() {
                        out.push_str(&format!("{}. {m}\n", i + 1));
                        out.push_str(&board_text(&engine, s));
                    }
                }
                let end = states.last().copied().unwrap_or(begin);
                let resigned = record.result.as_ref().and_then(|r| {
                    let who = r.resigned.as_deref()?;
                    let how = if r.on_time {
                        "ran out of time"
                    } else {
                        "resigned"
                    };
                    let winner = r.winner.as_deref().unwrap_or("nobody");
                    Some(format!("{who} {how}: {winner} wins"))
                });
                // A resignation that got this far replayed as recorded (`replay` checks it).
                let verdict = match resigned {
                    _ if end.is_over() => result_line(&engine, &end),
                    Some(verdict) => verdict,
                    None => "not finished".into(),
                };
                out.push_str(&format!(
                    "{where_}: {} moves replayed, {verdict}\n",
                    record.moves.len()
                ));
            }
        }
    }
    Ok(out)
}

/// The records of a file: one JSON object, or one per line, each with its line number.
pub(super) fn read_records(path: &str) -> Result<Vec<(usize, Record)>, Failure> {
    let text = outflank::source::read_text(
        path,
        outflank::source::MAX_RECORD_BYTES,
        "split a longer series into files of whole lines",
    )?;
    let mut records = Vec::new();
    match serde_json::from_str::<Record>(&text) {
        Ok(r) => records.push((1, r)),
        Err(_) => {
            for (i, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                let r: Record = serde_json::from_str(line)
                    .map_err(|e| format!("{path}:{}: not a game record: {e}", i + 1))?;
                records.push((i + 1, r));
            }
        }
    }
    if records.is_empty() {
        return Err(Failure::Message(format!("{path}: no records in this file")));
    }
    Ok(records)
}

/// The game a record was played in: these rules (`plain`, loaded without settings) when the
/// record's hash is theirs, with the record's parameters and start unless the command line
/// gives them. `where_` names the record in messages.
pub(super) fn game_of_record(
    args: &GameArgs,
    plain: &Engine,
    record: &Record,
    where_: &str,
) -> Result<(Engine, outflank::engine::state::State), Failure> {
    if let Err(m) = outflank::apps::record::same_rules(plain, record) {
        return Err(Failure::Message(format!("{where_}: {m}")));
    }
    let mut game_args = args.clone();
    let mut from_record = Vec::new();
    for (k, v) in &record.params {
        if !args
            .set
            .iter()
            .any(|s| s.split('=').next() == Some(k.as_str()))
        {
            from_record.push(format!("{k}={v}"));
        }
    }
    game_args.set.extend(from_record.iter().cloned());
    if let (None, Some(p)) = (&args.position, &record.start) {
        game_args.position = Some(p.rows.clone());
        game_args.to_move = Some(p.to_move.clone());
        if game_args.extra.is_none() {
            game_args.extra = (p.extra.clone()).map(|m| serde_json::Value::Object(m).to_string());
        }
    }
    let engine = load_game(&game_args).map_err(|e| match e {
        // A setting the record made is the record's, not the command line's.
        Failure::Message(m) => Failure::Message(
            match from_record.iter().find_map(|set| {
                m.strip_prefix(&format!("--set {set}: "))
                    .map(|rest| (set, rest))
            }) {
                Some((set, rest)) => format!("{where_}: the record's parameter {set}: {rest}"),
                None => m,
            },
        ),
        other => other,
    })?;
    let begin = match start(&engine, &game_args) {
        Err(Failure::Message(m)) if args.position.is_none() && record.start.is_some() => {
            let m = m.trim_start_matches("--position: ");
            return Err(Failure::Message(format!(
                "{where_}: the record's start position does not fit these rules: {m}"
            )));
        }
        begun => begun?,
    };
    Ok((engine, begin))
}
