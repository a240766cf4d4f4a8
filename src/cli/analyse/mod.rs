//! `analyse` (self-play with the metrics a designer asks for, docs/ANALYSIS.md: one series, a
//! sweep over a parameter, or one shard of a series), `merge` (shards back into one series,
//! docs/SCALING.md) and `compare` (variants side by side).

pub(super) mod charts;
mod html;
mod text;

use super::game::{load_game, load_game_showing, start, Failure, GameArgs};
use super::output::json_document;
use super::progress::Progress;
use super::run::{
    append_record, game_of_record, job_count, open_record, seat_agents, series_of, stop_on_signals,
    SeriesArgs, STOP,
};
use clap::Args;
use outflank::apps::analysis::{crossing, Crossing, GameSummary, Proportion, Report};
use outflank::apps::record::Record;
use outflank::apps::selfplay::{play_series, Match, SeriesEnd, SeriesError};
use outflank::apps::shards::{merge, verify, Series, Shard, ShardWriter};
use outflank::diagnostic::count_of;
use outflank::engine::state::State;
use outflank::engine::Engine;
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::sync::atomic::Ordering;

// The options of `analyse` (its help is the doc comment of `Command::Analyse`).
#[derive(Args)]
pub(super) struct AnalyseArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// Games to play (for each swept value): the intervals narrow with the square root of it.
    #[arg(long, default_value_t = 200)]
    pub(super) games: u64,
    #[command(flatten)]
    pub(super) series: SeriesArgs,
    /// Play the series once for each value of a parameter and find its fair value: NAME=V1,V2,...
    /// or NAME=A..B (every whole number from A to B) or NAME=A..B:STEP; agent=A1,A2,... sweeps
    /// the first seat's agent instead (with --swap, it plays every seat).
    #[arg(long, value_name = "NAME=VALUES", conflicts_with = "shard")]
    pub(super) sweep: Option<String>,
    /// Play only shard K of N of the series (its games and seeds are those of the whole) and
    /// write it as JSON lines on standard output, for `outflank merge` (docs/SCALING.md).
    #[arg(long, value_name = "K/N", conflicts_with_all = ["json", "record", "plots", "html"])]
    pub(super) shard: Option<Shard>,
    #[command(flatten)]
    pub(super) report: ReportArgs,
}

/// What a finished study writes, besides its text on standard output.
#[derive(Args)]
pub(super) struct ReportArgs {
    /// The report as JSON (docs/ANALYSIS.md describes its fields).
    #[arg(long)]
    pub(super) json: bool,
    /// Append a record of every game to this JSON-lines file (as `run --record` does).
    #[arg(long, value_name = "FILE.jsonl")]
    pub(super) record: Option<String>,
    /// Write the charts (SVG) into this folder, made if missing.
    #[arg(long, value_name = "DIR")]
    pub(super) plots: Option<String>,
    /// Write the report, charts included, as one self-contained HTML page.
    #[arg(long, value_name = "FILE.html")]
    pub(super) html: Option<String>,
}

// The options of `merge` (its help is the doc comment of `Command::Merge`).
#[derive(Args)]
pub(super) struct MergeArgs {
    /// The shards (files written by `analyse --shard K/N`), in any order.
    #[arg(required = true)]
    pub(super) shards: Vec<String>,
    /// Merge even when some shards are missing; the report covers the games given.
    #[arg(long)]
    pub(super) allow_missing: bool,
    /// Replay every game's record under the rules, and refuse the merge if a record does not
    /// replay or a game's summary is not what its moves give.
    #[arg(long)]
    pub(super) verify: bool,
    /// The rules file to verify with, when it is not where the shards name it (the rules'
    /// hash must agree).
    #[arg(long, value_name = "FILE", requires = "verify")]
    pub(super) rules: Option<String>,
    #[command(flatten)]
    pub(super) report: ReportArgs,
}

// The options of `compare` (its help is the doc comment of `Command::Compare`).
#[derive(Args)]
pub(super) struct CompareArgs {
    /// Two or more rules files; each is compared with the first.
    #[arg(required = true, num_args = 2..)]
    pub(super) files: Vec<String>,
    /// Set a parameter in every file that has it, e.g. --set size=6 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(super) set: Vec<String>,
    /// Games to play with each file.
    #[arg(long, default_value_t = 200)]
    pub(super) games: u64,
    #[command(flatten)]
    pub(super) series: SeriesArgs,
    /// The reports and the clear differences as JSON.
    #[arg(long)]
    pub(super) json: bool,
}

/// The games of a study that ended, in game order, and whether a signal cut it short.
struct Played {
    summaries: Vec<GameSummary>,
    interrupted: bool,
}

/// Plays the games `games` of `series`, handing each one's summary and record to `each`
/// (in game order) and keeping the summaries when `keep`. `done` is added to the progress
/// bar's count (for a sweep, the games of the values before).
#[allow(clippy::too_many_arguments)]
fn play_study(
    engine: &Engine,
    begin: &State,
    series: &Series,
    games: Range<u64>,
    jobs: usize,
    progress: &Progress,
    done: u64,
    keep: bool,
    each: &mut dyn FnMut(&GameSummary, &Record) -> Result<(), String>,
) -> Result<Played, Failure> {
    let m = Match {
        agents: series.agents.clone(),
        swap: series.swap,
        // The moves are replayed to follow the scores turn by turn.
        notation: true,
    };
    let template = series.record();
    let mut summaries = Vec::new();
    let mut ended = 0;
    stop_on_signals();
    let result = play_series(
        engine,
        begin,
        &m,
        series.seed,
        games,
        jobs,
        &STOP,
        &mut |r| {
            let summary = GameSummary::of(engine, begin, &r)?;
            each(&summary, &Record::of_game(engine, &template, &r))?;
            if keep {
                summaries.push(summary);
            }
            ended += 1;
            progress.set(done + ended);
            Ok(())
        },
    );
    let result = result.map_err(|e| match e {
        SeriesError::Rule(e) => Failure::from(e),
        SeriesError::Other(m) => Failure::Message(m),
    })?;
    let interrupted = result == SeriesEnd::Interrupted || STOP.load(Ordering::Relaxed);
    if interrupted && ended == 0 {
        return Err(Failure::Interrupted);
    }
    Ok(Played {
        summaries,
        interrupted,
    })
}

/// Plays a whole series with `--jobs` threads, keeping its summaries (see [`play_study`]).
fn play_whole(
    engine: &Engine,
    begin: &State,
    series: &Series,
    jobs: Option<usize>,
    progress: &Progress,
    done: u64,
    each: &mut dyn FnMut(&GameSummary, &Record) -> Result<(), String>,
) -> Result<Played, Failure> {
    let jobs = job_count(jobs, series.games)?;
    let games = 0..series.games;
    play_study(
        engine, begin, series, games, jobs, progress, done, true, each,
    )
}

/// The `--record` file of a study, if one was asked for.
struct Records {
    file: Option<(std::fs::File, String)>,
}

impl Records {
    /// Opens the file at once, so that a bad path fails before the first game.
    fn open(out: &ReportArgs) -> Result<Records, Failure> {
        let file = open_record(out.record.as_deref())?;
        Ok(Records {
            file: file.zip(out.record.clone()),
        })
    }

    fn write(&mut self, record: &Record) -> Result<(), String> {
        match &mut self.file {
            Some((file, path)) => append_record(file, path, record),
            None => Ok(()),
        }
    }
}

fn is_watched(quiet: bool) -> bool {
    std::io::stderr().is_terminal() && !quiet
}

pub(super) fn cmd_analyse(a: &AnalyseArgs) -> Result<String, Failure> {
    if a.games == 0 {
        return Err(Failure::Message("--games 0: nothing to play".into()));
    }
    if let Some(sweep) = &a.sweep {
        return cmd_sweep(a, sweep);
    }
    let engine = load_game(&a.game)?;
    let begin = start(&engine, &a.game)?;
    let series = series_of(&engine, &a.game, &begin, &a.series, a.games)?;
    if let Some(shard) = a.shard {
        return write_shard(&engine, &begin, &series, shard, a);
    }
    let progress = Progress::new(is_watched(a.report.json), a.games, "games");
    let mut records = Records::open(&a.report)?;
    let played = play_whole(
        &engine,
        &begin,
        &series,
        a.series.jobs,
        &progress,
        0,
        &mut |_, record| records.write(record),
    )?;
    drop(progress);
    if played.interrupted {
        eprintln!(
            "interrupted: the report covers the {} that ended",
            count_of(played.summaries.len() as u64, "game")
        );
    }
    report_outputs(&series, &played.summaries, &a.report, false)
}

/// Plays one shard of a series, writing it to standard output line by line as its games end
/// (a shard cut short has no last line, and `merge` refuses it).
fn write_shard(
    engine: &Engine,
    begin: &State,
    series: &Series,
    shard: Shard,
    a: &AnalyseArgs,
) -> Result<String, Failure> {
    let games = shard.games(series.games);
    let count = games.end - games.start;
    let mut out = std::io::stdout().lock();
    let mut write = |line: String| {
        out.write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write the shard: {e}"))
    };
    let mut lines = ShardWriter::default();
    write(lines.head(series, shard))?;
    if count > 0 {
        let jobs = job_count(a.series.jobs, count)?;
        let progress = Progress::new(is_watched(false), count, "games");
        let played = play_study(
            engine,
            begin,
            series,
            games,
            jobs,
            &progress,
            0,
            false,
            &mut |summary, record| write(lines.game(summary, record)),
        )?;
        if played.interrupted {
            eprintln!("interrupted: the shard is incomplete, and merge will ask for it again");
            return Err(Failure::Interrupted);
        }
    }
    write(lines.complete(count))?;
    Ok(String::new())
}

pub(super) fn cmd_merge(a: &MergeArgs) -> Result<String, Failure> {
    let mut files = Vec::new();
    for path in &a.shards {
        let text = outflank::source::read_text(
            path,
            outflank::source::MAX_RECORD_BYTES,
            "a shard holds one line per game; split the series into more shards",
        )?;
        files.push((path.clone(), text));
    }
    let merged = merge(&files, a.allow_missing)
        .map_err(|problems| Failure::Message(format!("cannot merge: {}", problems.join("\n"))))?;
    for warning in &merged.warnings {
        eprintln!("warning: {warning}");
    }
    if a.verify {
        let file = a.rules.as_deref().unwrap_or(&merged.series.rules);
        let plain = load_game(&GameArgs::plain(file))?;
        let mut problems = Vec::new();
        if let Some((_, first)) = merged.games.first() {
            let (engine, begin) = game_of_record(
                &GameArgs::plain(file),
                &plain,
                first,
                &format!("merge --verify with {file}"),
            )?;
            problems = verify(&engine, &begin, &merged.series, &merged.games);
        }
        if !problems.is_empty() {
            return Err(Failure::Message(format!(
                "cannot merge: {} of {} games do not verify:\n{}",
                problems.len(),
                merged.games.len(),
                problems.join("\n")
            )));
        }
        eprintln!(
            "verified: {} replayed, each as its summary says",
            count_of(merged.games.len() as u64, "game")
        );
    }
    for gap in &merged.missing {
        eprintln!(
            "warning: games {}-{} are missing; the report covers the {} given",
            gap.start + 1,
            gap.end,
            count_of(merged.games.len() as u64, "game")
        );
    }
    let mut records = Records::open(&a.report)?;
    for (_, record) in &merged.games {
        records.write(record)?;
    }
    let summaries: Vec<GameSummary> = merged.games.into_iter().map(|(s, _)| s).collect();
    report_outputs(
        &merged.series,
        &summaries,
        &a.report,
        !merged.missing.is_empty(),
    )
}

/// A study's report from its games, written as `out` asks: the charts and the page to their
/// files, the report (text or JSON) returned for standard output.
fn report_outputs(
    series: &Series,
    summaries: &[GameSummary],
    out: &ReportArgs,
    partial: bool,
) -> Result<String, Failure> {
    let report = Report::of(&series.players, summaries);
    let charts = charts::of_series(&series.players, &report, summaries);
    let text = text::report(series, &report, partial);
    write_charts(out, &charts)?;
    if let Some(path) = &out.html {
        write_file(path, &html::page(&series.rules, &text, &charts))?;
    }
    if out.json {
        return Ok(json_document(&report, true));
    }
    Ok(text)
}

fn write_file(path: &str, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| Failure::Message(format!("{path}: {e}")))
}

/// The charts as files `NAME.svg` in the `--plots` folder.
fn write_charts(out: &ReportArgs, charts: &[charts::Chart]) -> Result<(), Failure> {
    let Some(dir) = &out.plots else {
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| Failure::Message(format!("--plots {dir}: {e}")))?;
    for c in charts {
        write_file(&format!("{dir}/{}.svg", c.name), &c.svg)?;
    }
    Ok(())
}

/// The values of `--sweep NAME=...`.
fn sweep_values(spec: &str) -> Result<(String, Vec<String>), Failure> {
    let bad = |why: &str| {
        Failure::Message(format!(
            "--sweep {spec}: {why}; write NAME=V1,V2,... or NAME=A..B or NAME=A..B:STEP, e.g. --sweep komi=0..10"
        ))
    };
    let (name, values) = spec
        .split_once('=')
        .ok_or_else(|| bad("no `=` after the parameter's name"))?;
    let values: Vec<String> = if let Some((from, rest)) = values.split_once("..") {
        let (to, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let number = |t: &str| {
            t.trim()
                .parse::<i64>()
                .map_err(|_| bad("a range of whole numbers"))
        };
        let (from, to, step) = (number(from)?, number(to)?, number(step)?);
        if step <= 0 || to < from {
            return Err(bad("the range must go up, by a step above 0"));
        }
        if (to - from) / step >= MAX_SWEEP as i64 {
            return Err(bad(&format!("more than {MAX_SWEEP} values")));
        }
        (0..=(to - from) / step)
            .map(|k| (from + k * step).to_string())
            .collect()
    } else {
        values.split(',').map(|v| v.trim().to_string()).collect()
    };
    if values.iter().any(String::is_empty) || values.len() < 2 {
        return Err(bad("at least two values"));
    }
    if values.len() > MAX_SWEEP {
        return Err(bad(&format!("more than {MAX_SWEEP} values")));
    }
    Ok((name.trim().to_string(), values))
}

/// The most values a sweep takes.
const MAX_SWEEP: usize = 1000;

/// The name `--sweep` takes for the agent of the first seat rather than a parameter.
const AGENT_SWEEP: &str = "agent";

/// One swept value and its series' report.
#[derive(Serialize)]
pub(super) struct SweptValue {
    pub(super) value: String,
    pub(super) report: Report,
    /// In a sweep of agents: the games the swept agent won, of all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) agent_wins: Option<Proportion>,
}

/// A sweep: the report at each value and where the first player's share crosses one half.
#[derive(Serialize)]
pub(super) struct Sweep {
    pub(super) parameter: String,
    pub(super) values: Vec<SweptValue>,
    /// Where the first player's share of won games crosses one half (none when it does not
    /// inside the sweep, or the values are not numbers).
    pub(super) fair: Option<Crossing>,
    /// The values at which the share's 95% interval holds one half: none of them is shown to
    /// favour either player.
    pub(super) fair_within_interval: Vec<String>,
}

fn cmd_sweep(a: &AnalyseArgs, spec: &str) -> Result<String, Failure> {
    let (name, values) = sweep_values(spec)?;
    let progress = Progress::new(
        is_watched(a.report.json),
        a.games * values.len() as u64,
        "games",
    );
    let mut swept = Vec::new();
    let mut records = Records::open(&a.report)?;
    let mut series = None;
    let by_agent = name == AGENT_SWEEP;
    for (i, value) in values.iter().enumerate() {
        let mut game = a.game.clone();
        if !by_agent {
            game.set
                .retain(|s| s.split_once('=').map(|(k, _)| k) != Some(name.as_str()));
            game.set.push(format!("{name}={value}"));
        }
        // Warnings in full once, not again for every value.
        let engine = load_game_showing(&game, i == 0)?;
        let begin = start(&engine, &game)?;
        let mut this = series_of(&engine, &game, &begin, &a.series, a.games)?;
        if by_agent {
            let mut agents = this.agents.clone();
            agents[0].clone_from(value);
            this.agents = seat_agents(&engine, Some(&agents.join(",")), &[])?;
        }
        let played = play_whole(
            &engine,
            &begin,
            &this,
            a.series.jobs,
            &progress,
            i as u64 * a.games,
            &mut |_, record| records.write(record),
        )?;
        let agent_wins = by_agent.then(|| {
            let games = &played.summaries;
            let won = games
                .iter()
                .filter(|g| g.winner.is_some_and(|w| g.agents[w as usize] == *value))
                .count();
            Proportion::new(won as u64, games.len() as u64)
        });
        swept.push(SweptValue {
            value: value.clone(),
            report: Report::of(&this.players, &played.summaries),
            agent_wins,
        });
        series.get_or_insert(this);
        if played.interrupted {
            eprintln!("interrupted: the sweep covers the values played");
            break;
        }
    }
    drop(progress);
    let points: Option<Vec<_>> = swept
        .iter()
        .map(|v| {
            v.value
                .parse::<f64>()
                .ok()
                .map(|x| (x, v.report.first_player.clone()))
        })
        .collect();
    let sweep = Sweep {
        parameter: name,
        fair: points.as_deref().and_then(crossing),
        fair_within_interval: swept
            .iter()
            .filter(|v| {
                let p = &v.report.first_player;
                p.of > 0 && p.ci95[0] <= 0.5 && 0.5 <= p.ci95[1]
            })
            .map(|v| v.value.clone())
            .collect(),
        values: swept,
    };
    let series = series.expect("a sweep has values");
    let text = text::sweep(&series, &sweep);
    let charts = charts::of_sweep(&sweep);
    write_charts(&a.report, &charts)?;
    if let Some(path) = &a.report.html {
        write_file(path, &html::page(&series.rules, &text, &charts))?;
    }
    if a.report.json {
        return Ok(json_document(&sweep, true));
    }
    Ok(text)
}

/// One variant of a comparison.
#[derive(Serialize)]
pub(super) struct Variant {
    pub(super) rules: String,
    pub(super) report: Report,
}

pub(super) fn cmd_compare(a: &CompareArgs) -> Result<String, Failure> {
    if a.games == 0 {
        return Err(Failure::Message("--games 0: nothing to play".into()));
    }
    let total = a.games * a.files.len() as u64;
    let progress = Progress::new(is_watched(a.json), total, "games");
    let mut variants = Vec::new();
    for (i, file) in a.files.iter().enumerate() {
        let plain = load_game_showing(&GameArgs::plain(file), false)?;
        // A setting applies to the files that have the parameter.
        let set = a
            .set
            .iter()
            .filter(|s| {
                let name = s.split_once('=').map_or(s.as_str(), |(k, _)| k);
                plain.game.params.iter().any(|p| p.name == name)
            })
            .cloned()
            .collect();
        let game = GameArgs {
            set,
            ..GameArgs::plain(file)
        };
        let engine = load_game(&game)?;
        let begin = start(&engine, &game)?;
        let series = series_of(&engine, &game, &begin, &a.series, a.games)?;
        let played = play_whole(
            &engine,
            &begin,
            &series,
            a.series.jobs,
            &progress,
            i as u64 * a.games,
            &mut |_, _| Ok(()),
        )?;
        if played.interrupted {
            return Err(Failure::Interrupted);
        }
        variants.push(Variant {
            rules: file.clone(),
            report: Report::of(&series.players, &played.summaries),
        });
    }
    drop(progress);
    let table = text::Comparison::of(&variants);
    if a.json {
        #[derive(Serialize)]
        struct Compared<'a> {
            variants: &'a [Variant],
            /// For each metric, whether each variant differs clearly from the first.
            clearly_different: std::collections::BTreeMap<&'static str, Vec<bool>>,
        }
        let json = Compared {
            variants: &variants,
            clearly_different: table.differences(),
        };
        return Ok(json_document(&json, true));
    }
    Ok(table.text(a.games, a.series.seed))
}
