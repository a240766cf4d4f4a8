//! Reports as text: every estimate with its interval, as a person reads them.

use super::super::output::percent_ci;
use super::{Sweep, Variant};
use outflank::apps::analysis::{Mean, Proportion, Report};
use outflank::apps::shards::Series;
use outflank::diagnostic::count_of;
use std::collections::BTreeMap;

fn percent(p: &Proportion) -> String {
    percent_ci(p.rate, p.ci95)
}

fn mean(m: &Mean, digits: usize) -> String {
    match m.ci95 {
        Some([lo, hi]) => format!("{:.digits$} (95% CI {lo:.digits$}-{hi:.digits$})", m.mean),
        None => format!("{:.digits$}", m.mean),
    }
}

/// The share of a game played before its winner led for good, in percent of the game.
fn decisiveness(d: &Mean) -> String {
    match d.ci95 {
        Some([lo, hi]) => format!(
            "{:.0}% (95% CI {:.0}-{:.0}%)",
            d.mean * 100.0,
            lo.max(0.0) * 100.0,
            hi.min(1.0) * 100.0
        ),
        None => format!("{:.0}%", d.mean * 100.0),
    }
}

/// The words for the first player's share of won games.
fn verdict(p: &Proportion) -> &'static str {
    if p.ci95[0] > 0.5 {
        "the first player is favoured"
    } else if p.ci95[1] < 0.5 {
        "the second player is favoured"
    } else {
        "no advantage shown"
    }
}

/// The report of one series; `partial` when games of it are missing (a merge of some shards).
pub(super) fn report(series: &Series, r: &Report, partial: bool) -> String {
    let mut out = format!(
        "{}{}, seed {}{}\n\nfairness\n",
        count_of(r.games, "game"),
        if partial || r.games < series.games {
            format!(" of {}", series.games)
        } else {
            String::new()
        },
        series.seed,
        if series.swap {
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
        out.push_str(&format!(
            "  first player's share of won games: {}: {}\n",
            percent(&r.first_player),
            verdict(&r.first_player)
        ));
    }
    out.push_str("\ncourse of a game\n");
    out.push_str(&format!(
        "  decisiveness: the winner leads for good after {} of the game\n",
        decisiveness(&r.decisiveness)
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
        "  drama: the winner was at worst {} points behind\n",
        mean(&r.drama, 2)
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
    let course: Vec<String> = r
        .branching_course
        .iter()
        .map(|b| b.map_or("-".into(), |b| format!("{b:.1}")))
        .collect();
    out.push_str(&format!(
        "  choices per decision by tenth of the game: {}\n",
        course.join(" ")
    ));
    for (word, per_game) in &r.words {
        out.push_str(&format!("  `{word}`: {per_game:.2} per game\n"));
    }
    if !r.endings.is_empty() {
        out.push_str("\nhow the games ended\n");
        for e in &r.endings {
            out.push_str(&format!(
                "  {}: {}, {}\n",
                e.rule,
                count_of(e.games.count, "game"),
                percent(&e.games)
            ));
        }
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

/// A sweep of the first seat's agent: one line per agent, its wins first.
fn agent_sweep(s: &Sweep) -> String {
    let width = s
        .values
        .iter()
        .map(|v| v.value.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut out = format!(
        "  {:<width$}  its share of games won            first player's share of won games  draws\n",
        "agent"
    );
    for v in &s.values {
        let wins = v.agent_wins.as_ref().map_or(String::new(), percent);
        out.push_str(&format!(
            "  {:<width$}  {wins:<34}  {:<34}  {:>5.1}%\n",
            v.value,
            percent(&v.report.first_player),
            v.report.draws.rate * 100.0,
        ));
    }
    out
}

/// A sweep: one line per value, then the fair value.
pub(super) fn sweep(series: &Series, s: &Sweep) -> String {
    let games = s.values.first().map_or(0, |v| v.report.games);
    let mut out = format!(
        "{} per value of {}, seed {}{}\n\n",
        count_of(games, "game"),
        s.parameter,
        series.seed,
        if series.swap {
            ", agents moved one seat on at each game"
        } else {
            ""
        }
    );
    if s.values.iter().any(|v| v.agent_wins.is_some()) {
        out.push_str(&format!(
            "against {} in the other seats\n\n",
            series.agents[1..].join(", ")
        ));
        out.push_str(&agent_sweep(s));
        return out;
    }
    let width = s.values.iter().map(|v| v.value.len()).max().unwrap_or(0);
    out.push_str(&format!(
        "  {:>width$}  first player's share of won games  draws   length\n",
        s.parameter,
        width = width.max(s.parameter.len())
    ));
    for v in &s.values {
        out.push_str(&format!(
            "  {:>width$}  {:<34}  {:>5.1}%  {:>6.1}\n",
            v.value,
            percent(&v.report.first_player),
            v.report.draws.rate * 100.0,
            v.report.length.mean,
            width = width.max(s.parameter.len())
        ));
    }
    out.push('\n');
    match &s.fair {
        Some(c) => {
            let end = |v: Option<f64>, none: &str| v.map_or(none.to_string(), |v| format!("{v:.1}"));
            out.push_str(&format!(
                "fair {}: {:.1} (95% CI {} to {}), where the first player's share crosses 50%\n",
                s.parameter,
                c.value,
                end(c.ci95[0], "below the sweep"),
                end(c.ci95[1], "beyond the sweep")
            ));
        }
        None => out.push_str(&format!(
            "no fair {} in the sweep: the first player's share does not cross 50% between {} and {}\n",
            s.parameter,
            s.values.first().map_or("", |v| v.value.as_str()),
            s.values.last().map_or("", |v| v.value.as_str())
        )),
    }
    if s.fair_within_interval.is_empty() {
        out.push_str("at no value does the interval hold 50%: each favours one player\n");
    } else {
        out.push_str(&format!(
            "no player shown to be favoured (50% within the interval) at {} = {}\n",
            s.parameter,
            s.fair_within_interval.join(", ")
        ));
    }
    out
}

/// Variants side by side: one row per metric, one column per variant, a mark where a
/// variant differs clearly from the first.
pub(super) struct Comparison<'a> {
    variants: &'a [Variant],
}

/// A metric of the comparison: its name, a variant's value as text, and whether two
/// variants differ clearly on it (none where it has no interval).
type Metric = (
    &'static str,
    fn(&Report) -> String,
    Option<fn(&Report, &Report) -> bool>,
);

const METRICS: &[Metric] = &[
    (
        "first player (of won games)",
        |r| percent(&r.first_player),
        Some(|a, b| a.first_player.differs(&b.first_player)),
    ),
    (
        "draws",
        |r| percent(&r.draws),
        Some(|a, b| a.draws.differs(&b.draws)),
    ),
    (
        "decisiveness",
        |r| decisiveness(&r.decisiveness),
        Some(|a, b| a.decisiveness.differs(&b.decisiveness)),
    ),
    (
        "lead changes per game",
        |r| mean(&r.lead_changes, 2),
        Some(|a, b| a.lead_changes.differs(&b.lead_changes)),
    ),
    (
        "comebacks (of won games)",
        |r| percent(&r.comebacks),
        Some(|a, b| a.comebacks.differs(&b.comebacks)),
    ),
    (
        "drama (winner's worst deficit)",
        |r| mean(&r.drama, 2),
        Some(|a, b| a.drama.differs(&b.drama)),
    ),
    (
        "length in turns",
        |r| mean(&r.length, 1),
        Some(|a, b| a.length.differs(&b.length)),
    ),
    (
        "steps per turn",
        |r| format!("{:.2}", r.steps_per_turn),
        None,
    ),
    (
        "choices per decision",
        |r| format!("{:.2}", r.branching),
        None,
    ),
];

impl Comparison<'_> {
    pub(super) fn of(variants: &[Variant]) -> Comparison<'_> {
        Comparison { variants }
    }

    /// For each metric with an interval, whether each variant differs clearly from the first.
    pub(super) fn differences(&self) -> BTreeMap<&'static str, Vec<bool>> {
        let first = &self.variants[0].report;
        METRICS
            .iter()
            .filter_map(|(name, _, differs)| {
                let differs = (*differs)?;
                Some((
                    *name,
                    self.variants
                        .iter()
                        .map(|v| differs(first, &v.report))
                        .collect(),
                ))
            })
            .collect()
    }

    pub(super) fn text(&self, games: u64, seed: u64) -> String {
        let first = &self.variants[0].report;
        let mut rows: Vec<Vec<String>> = vec![std::iter::once(String::new())
            .chain(self.variants.iter().map(|v| v.rules.clone()))
            .collect()];
        for (name, show, differs) in METRICS {
            let mut row = vec![name.to_string()];
            for v in self.variants {
                let mark = differs.is_some_and(|d| d(first, &v.report));
                row.push(format!(
                    "{}{}",
                    show(&v.report),
                    if mark { " *" } else { "" }
                ));
            }
            rows.push(row);
        }
        let columns = rows[0].len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = format!("{} per variant, seed {seed}\n\n", count_of(games, "game"));
        for row in &rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, &w)| format!("{cell:<w$}"))
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        out.push_str(
            "\n* differs clearly from the first variant (a two-sided test at the 5% level)\n",
        );
        out
    }
}
