//! The charts of a study, as SVG drawn by hand: a few lines, bars and bands on two axes do not
//! need a plotting library. Each element carries a class (`game`, `mean`, `bar`, `rate`,
//! `band`, `fair`) so that pages can style them and tests can read them.

use super::super::output::escape_markup;
use super::Sweep;
use outflank::apps::analysis::{GameSummary, Report};
use std::fmt::Write;

/// One chart: its file name (without `.svg`), its title and its drawing.
#[derive(Clone, serde::Serialize)]
pub(crate) struct Chart {
    pub(crate) name: &'static str,
    pub(crate) title: String,
    pub(crate) svg: String,
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 360.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 52.0;

/// Games whose own lines are drawn in the lead chart; the mean covers all.
const GAMES_DRAWN: usize = 20;

/// A step between ticks that reads well (1, 2 or 5 times a power of ten) for a range.
fn tick_step(range: f64) -> f64 {
    if range <= 0.0 || !range.is_finite() {
        return 1.0;
    }
    let raw = range / 5.0;
    let power = 10f64.powf(raw.log10().floor());
    let unit = raw / power;
    power
        * if unit < 1.5 {
            1.0
        } else if unit < 3.5 {
            2.0
        } else if unit < 7.5 {
            5.0
        } else {
            10.0
        }
}

/// A number as a tick label: no trailing zeros.
fn label(v: f64) -> String {
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// Two axes over the ranges `x` and `y`, and the drawing begun on them.
struct Plot {
    x: (f64, f64),
    y: (f64, f64),
    svg: String,
}

impl Plot {
    fn new(title: &str, x_label: &str, y_label: &str, x: (f64, f64), y: (f64, f64)) -> Plot {
        Plot::with_names(title, x_label, y_label, x, y, None)
    }

    /// A plot whose x values are the places 0, 1, ... of `names` (one tick each, named), or
    /// numbers when none are given.
    fn with_names(
        title: &str,
        x_label: &str,
        y_label: &str,
        x: (f64, f64),
        y: (f64, f64),
        names: Option<&[String]>,
    ) -> Plot {
        let widen = |(lo, hi): (f64, f64)| {
            if hi > lo {
                (lo, hi)
            } else {
                (lo - 1.0, hi + 1.0)
            }
        };
        let mut p = Plot {
            x: widen(x),
            y: widen(y),
            svg: String::new(),
        };
        let _ = write!(
            p.svg,
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">
<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>
<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>
"##,
            WIDTH / 2.0,
            escape_markup(title)
        );
        let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP);
        let step = tick_step(p.y.1 - p.y.0);
        let mut v = (p.y.0 / step).ceil() * step;
        while v <= p.y.1 + step * 1e-9 {
            let y = p.sy(v);
            let _ = writeln!(
                p.svg,
                r##"<line x1="{x0}" y1="{y:.1}" x2="{x1}" y2="{y:.1}" stroke="#e4e4e4"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
                x0 - 6.0,
                y + 4.0,
                label(v)
            );
            v += step;
        }
        let ticks: Vec<(f64, String)> = match names {
            Some(names) => names
                .iter()
                .enumerate()
                .map(|(i, n)| (i as f64, escape_markup(n)))
                .collect(),
            None => {
                let step = tick_step(p.x.1 - p.x.0);
                let mut v = (p.x.0 / step).ceil() * step;
                let mut ticks = Vec::new();
                while v <= p.x.1 + step * 1e-9 {
                    ticks.push((v, label(v)));
                    v += step;
                }
                ticks
            }
        };
        for (v, text) in ticks {
            let x = p.sx(v);
            let _ = writeln!(
                p.svg,
                r##"<line x1="{x:.1}" y1="{y0}" x2="{x:.1}" y2="{}" stroke="#888888"/><text x="{x:.1}" y="{}" text-anchor="middle">{text}</text>"##,
                y0 + 5.0,
                y0 + 18.0,
            );
        }
        let _ = write!(
            p.svg,
            r##"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="#444444"/>
<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="#444444"/>
<text x="{}" y="{}" text-anchor="middle">{}</text>
<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">{}</text>
"##,
            f64::midpoint(x0, x1),
            HEIGHT - 12.0,
            escape_markup(x_label),
            f64::midpoint(y0, y1),
            f64::midpoint(y0, y1),
            escape_markup(y_label)
        );
        p
    }

    fn sx(&self, v: f64) -> f64 {
        LEFT + (v - self.x.0) / (self.x.1 - self.x.0) * (WIDTH - LEFT - RIGHT)
    }

    fn sy(&self, v: f64) -> f64 {
        HEIGHT - BOTTOM - (v - self.y.0) / (self.y.1 - self.y.0) * (HEIGHT - TOP - BOTTOM)
    }

    fn points(&self, points: &[(f64, f64)]) -> String {
        points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", self.sx(x), self.sy(y)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn line(&mut self, class: &str, style: &str, points: &[(f64, f64)]) {
        let _ = writeln!(
            self.svg,
            r#"<polyline class="{class}" fill="none" {style} points="{}"/>"#,
            self.points(points)
        );
    }

    fn finish(mut self) -> String {
        self.svg.push_str("</svg>\n");
        self.svg
    }
}

/// The charts of one series: the first player's lead over the games' course, the lengths,
/// and the branching by tenth of a game.
pub(crate) fn of_series(players: &[String], r: &Report, games: &[GameSummary]) -> Vec<Chart> {
    let mut charts = Vec::new();
    let first = players.first().map_or("first player", String::as_str);
    let longest = games.iter().map(|g| g.lead.len()).max().unwrap_or(1);
    let (lo, hi) = games
        .iter()
        .flat_map(|g| g.lead.iter().copied())
        .fold((0f64, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let title = format!("{first}'s lead by score, turn by turn");
    let mut p = Plot::new(
        &title,
        "turn",
        "lead",
        (0.0, (longest - 1) as f64),
        (lo, hi),
    );
    p.line(
        "zero",
        r##"stroke="#444444" stroke-dasharray="4 3""##,
        &[(0.0, 0.0), ((longest - 1) as f64, 0.0)],
    );
    for g in games.iter().take(GAMES_DRAWN) {
        let points: Vec<(f64, f64)> = g
            .lead
            .iter()
            .enumerate()
            .map(|(t, &v)| (t as f64, v))
            .collect();
        p.line(
            "game",
            r##"stroke="#7aa6c2" stroke-opacity="0.6""##,
            &points,
        );
    }
    // The mean over the games still going at each turn.
    let mean: Vec<(f64, f64)> = (0..longest)
        .filter_map(|t| {
            let at: Vec<f64> = games
                .iter()
                .filter_map(|g| g.lead.get(t).copied())
                .collect();
            (!at.is_empty()).then(|| (t as f64, at.iter().sum::<f64>() / at.len() as f64))
        })
        .collect();
    p.line("mean", r##"stroke="#b03a2e" stroke-width="2.5""##, &mean);
    charts.push(Chart {
        name: "lead",
        title,
        svg: p.finish(),
    });

    let title = "Length of the games".to_string();
    let (short, long) = (r.shortest, r.longest.max(r.shortest));
    // One bar per length, or per a run of lengths on a wide spread.
    let width = ((long - short + 1) as f64 / 40.0).ceil().max(1.0) as u64;
    let bins = ((long - short) / width + 1) as usize;
    let mut counts = vec![0u64; bins];
    for g in games {
        counts[((g.turns - short) / width) as usize] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1) as f64;
    let mut p = Plot::new(
        &title,
        "turns",
        "games",
        (short as f64, (short + bins as u64 * width) as f64),
        (0.0, top),
    );
    for (i, &c) in counts.iter().enumerate() {
        let from = (short + i as u64 * width) as f64;
        let (x0, x1) = (p.sx(from), p.sx(from + width as f64));
        let (y0, y1) = (p.sy(0.0), p.sy(c as f64));
        let _ = writeln!(
            p.svg,
            r##"<rect class="bar" data-count="{c}" x="{:.1}" y="{y1:.1}" width="{:.1}" height="{:.1}" fill="#5d8a5d" stroke="#ffffff"/>"##,
            x0,
            (x1 - x0).max(1.0),
            y0 - y1
        );
    }
    charts.push(Chart {
        name: "lengths",
        title,
        svg: p.finish(),
    });

    let title = "Choices per decision over the course of a game".to_string();
    let points: Vec<(f64, f64)> = r
        .branching_course
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.map(|b| ((i as f64 + 0.5) * 10.0, b)))
        .collect();
    let top = points.iter().map(|p| p.1).fold(1.0, f64::max);
    let mut p = Plot::new(
        &title,
        "share of the game (%)",
        "choices",
        (0.0, 100.0),
        (0.0, top),
    );
    p.line("rate", r##"stroke="#2e5e8a" stroke-width="2.5""##, &points);
    charts.push(Chart {
        name: "branching",
        title,
        svg: p.finish(),
    });
    charts
}

/// The chart of a sweep: the first player's share of won games at each value, with its 95%
/// band, the fair line at 50% and the fair value found.
pub(super) fn of_sweep(s: &Sweep) -> Vec<Chart> {
    if s.values.iter().any(|v| v.agent_wins.is_some()) {
        return of_agent_sweep(s);
    }
    let points: Vec<(f64, f64, f64, f64)> = s
        .values
        .iter()
        .filter_map(|v| {
            let x = v.value.parse::<f64>().ok()?;
            let p = &v.report.first_player;
            Some((x, p.rate, p.ci95[0], p.ci95[1]))
        })
        .collect();
    if points.len() < 2 {
        return Vec::new();
    }
    let (x0, x1) = (points[0].0, points[points.len() - 1].0);
    let title = format!("First player's share of won games against {}", s.parameter);
    let mut p = Plot::new(
        &title,
        &s.parameter,
        "first player's share",
        (x0, x1),
        (0.0, 1.0),
    );
    let band: Vec<(f64, f64)> = points
        .iter()
        .map(|q| (q.0, q.3))
        .chain(points.iter().rev().map(|q| (q.0, q.2)))
        .collect();
    let _ = writeln!(
        p.svg,
        r##"<polygon class="band" fill="#9fc5e8" fill-opacity="0.5" points="{}"/>"##,
        p.points(&band)
    );
    p.line(
        "half",
        r##"stroke="#444444" stroke-dasharray="4 3""##,
        &[(x0, 0.5), (x1, 0.5)],
    );
    let rate: Vec<(f64, f64)> = points.iter().map(|q| (q.0, q.1)).collect();
    p.line("rate", r##"stroke="#1f4e79" stroke-width="2.5""##, &rate);
    if let Some(c) = &s.fair {
        p.line(
            "fair",
            r##"stroke="#b03a2e" stroke-width="1.5""##,
            &[(c.value, 0.0), (c.value, 1.0)],
        );
    }
    vec![Chart {
        name: "sweep",
        title,
        svg: p.finish(),
    }]
}

/// The chart of a sweep of agents: each agent's share of games won, with its 95% band.
fn of_agent_sweep(s: &Sweep) -> Vec<Chart> {
    let names: Vec<String> = s.values.iter().map(|v| v.value.clone()).collect();
    let shares: Vec<(f64, f64, f64)> = s
        .values
        .iter()
        .map(|v| {
            v.agent_wins
                .as_ref()
                .map_or((0.0, 0.0, 0.0), |p| (p.rate, p.ci95[0], p.ci95[1]))
        })
        .collect();
    let title = "Win rate by agent".to_string();
    let last = (names.len().max(2) - 1) as f64;
    let mut p = Plot::with_names(
        &title,
        "agent",
        "share of games won",
        (-0.5, last + 0.5),
        (0.0, 1.0),
        Some(&names),
    );
    for (i, &(rate, lo, hi)) in shares.iter().enumerate() {
        let x = i as f64;
        p.line(
            "band",
            r##"stroke="#9fc5e8" stroke-width="6""##,
            &[(x, lo), (x, hi)],
        );
        let _ = writeln!(
            p.svg,
            r##"<circle class="rate" cx="{:.1}" cy="{:.1}" r="4" fill="#1f4e79"/>"##,
            p.sx(x),
            p.sy(rate)
        );
    }
    p.line(
        "half",
        r##"stroke="#444444" stroke-dasharray="4 3""##,
        &[(-0.5, 0.5), (last + 0.5, 0.5)],
    );
    vec![Chart {
        name: "strength",
        title,
        svg: p.finish(),
    }]
}
