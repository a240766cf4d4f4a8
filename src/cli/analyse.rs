//! `analyse`: self-play with the metrics a designer asks for (docs/ANALYSIS.md), each estimate
//! with its 95% interval, as text or JSON.

use super::run::{job_count, progress_bar, seat_agents, stop_on_signals, SeriesArgs, STOP};
use super::{load_game, start, Failure, GameArgs};
use clap::Args;
use outflank::apps::analysis::{GameSummary, Mean, Proportion, Report};
use outflank::apps::selfplay::{play_series, Match, SeriesEnd, SeriesError};
use outflank::diagnostic::count_of;
use std::io::IsTerminal;
use std::sync::atomic::Ordering;

// The options of `analyse` (its help is the doc comment of `Command::Analyse`).
#[derive(Args)]
pub(super) struct AnalyseArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// Games to play: the intervals narrow with the square root of it.
    #[arg(long, default_value_t = 200)]
    pub(super) games: u64,
    #[command(flatten)]
    pub(super) series: SeriesArgs,
    /// The report as JSON (docs/ANALYSIS.md describes its fields).
    #[arg(long)]
    pub(super) json: bool,
}

pub(super) fn cmd_analyse(a: &AnalyseArgs) -> Result<String, Failure> {
    let engine = load_game(&a.game)?;
    let begin = start(&engine, &a.game)?;
    let specs = seat_agents(&engine, a.series.agents.as_deref())?;
    if a.games == 0 {
        return Err(Failure::Message("--games 0: nothing to play".into()));
    }
    let jobs = job_count(a.series.jobs, a.games)?;
    let m = Match {
        agents: specs,
        swap: a.series.swap,
        // The moves are replayed to follow the scores turn by turn.
        notation: true,
    };
    let progress = progress_bar(std::io::stderr().is_terminal() && !a.json, a.games);
    let mut summaries = Vec::new();
    stop_on_signals();
    let ended = play_series(
        &engine,
        &begin,
        &m,
        a.series.seed,
        a.games,
        jobs,
        &STOP,
        &mut |r| {
            summaries.push(GameSummary::of(&engine, &begin, &r)?);
            progress(summaries.len() as u64);
            Ok(())
        },
    );
    if std::io::stderr().is_terminal() && !a.json {
        eprintln!();
    }
    let ended = ended.map_err(|e| match e {
        SeriesError::Rule(e) => Failure::from(e),
        SeriesError::Other(m) => Failure::Message(m),
    })?;
    if ended == SeriesEnd::Interrupted || STOP.load(Ordering::Relaxed) {
        if summaries.is_empty() {
            return Err(Failure::Interrupted);
        }
        eprintln!(
            "interrupted: the report covers the {} that ended",
            count_of(summaries.len() as u64, "game")
        );
    }
    let players: Vec<String> = (0..engine.game.player_count())
        .map(|p| engine.player_name(p).to_string())
        .collect();
    let report = Report::of(&players, &summaries);
    if a.json {
        return Ok(serde_json::to_string_pretty(&report).expect("plain data serializes") + "\n");
    }
    Ok(text(&report, a))
}

fn percent(p: &Proportion) -> String {
    format!(
        "{:.1}% (95% CI {:.1}-{:.1}%)",
        p.rate * 100.0,
        p.ci95[0] * 100.0,
        p.ci95[1] * 100.0
    )
}

fn mean(m: &Mean, digits: usize) -> String {
    match m.ci95 {
        Some([lo, hi]) => format!("{:.digits$} (95% CI {lo:.digits$}-{hi:.digits$})", m.mean),
        None => format!("{:.digits$}", m.mean),
    }
}

/// The report as text, estimates with their intervals.
fn text(r: &Report, a: &AnalyseArgs) -> String {
    let mut out = format!(
        "{}, seed {}{}\n\nfairness\n",
        count_of(r.games, "game"),
        a.series.seed,
        if a.series.swap {
            ", agents moved one seat on at each game"
        } else {
            ""
        }
    );
    for seat in &r.seats {
        let agents: Vec<String> = seat.agents.keys().cloned().collect();
        out.push_str(&format!(
            "  {} ({}): {}, {}\n",
            seat.player,
            agents.join(", "),
            count_of(seat.wins.count, "win"),
            percent(&seat.wins)
        ));
    }
    out.push_str(&format!(
        "  draws: {}, {}\n",
        r.draws.count,
        percent(&r.draws)
    ));
    if r.seats.len() == 2 && r.first_player.of > 0 {
        let verdict = if r.first_player.ci95[0] > 0.5 {
            "the first player is favoured"
        } else if r.first_player.ci95[1] < 0.5 {
            "the second player is favoured"
        } else {
            "no advantage shown"
        };
        out.push_str(&format!(
            "  first player's share of won games: {}: {verdict}\n",
            percent(&r.first_player)
        ));
    }
    out.push_str("\ncourse of a game\n");
    let d = &r.decisiveness;
    let share = match d.ci95 {
        Some([lo, hi]) => format!(
            "{:.0}% (95% CI {:.0}-{:.0}%)",
            d.mean * 100.0,
            lo.max(0.0) * 100.0,
            hi.min(1.0) * 100.0
        ),
        None => format!("{:.0}%", d.mean * 100.0),
    };
    out.push_str(&format!(
        "  decisiveness: the winner leads for good after {share} of the game\n"
    ));
    out.push_str(&format!(
        "  lead changes: {} per game\n",
        mean(&r.lead_changes, 2)
    ));
    out.push_str(&format!(
        "  comebacks: {} of won games\n",
        percent(&r.comebacks)
    ));
    out.push_str(&format!(
        "  length: {} turns (min {}, max {})\n",
        mean(&r.length, 1),
        r.shortest,
        r.longest
    ));
    out.push_str(&format!(
        "  {:.2} steps per turn; {:.2} choices per decision\n",
        r.steps_per_turn, r.branching
    ));
    for (word, per_game) in &r.words {
        out.push_str(&format!("  `{word}`: {per_game:.2} per game\n"));
    }
    if !r.openings.is_empty() {
        out.push_str("\nopenings (the first player's wins after each first move)\n");
        for o in &r.openings {
            out.push_str(&format!(
                "  {}: {}, {}\n",
                o.first_move,
                count_of(o.games, "game"),
                percent(&o.first_player_wins)
            ));
        }
    }
    out
}
