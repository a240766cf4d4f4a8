//! What a designer asks of a variant, measured over self-play (docs/ANALYSIS.md): is it fair
//! (wins per seat, first-player advantage, draws), decisive (how early the final winner leads
//! for good), dramatic (lead changes, comebacks), how long and how branchy (over the game's
//! course too), which words the turns use, which `end` rules end the games, and how the
//! openings fare. Each game is first reduced to a [`GameSummary`], which
//! is small and self-contained; the [`Report`] is computed from the summaries alone, in game
//! order, so summaries made anywhere (threads, processes, machines) give the same report.

use super::selfplay::{wilson, GameResult};
use crate::engine::state::State;
use crate::engine::Engine;
use crate::ir::NOBODY;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One game, reduced to what the metrics need.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's index in its series (from 0) and its seed.
    pub index: u64,
    pub seed: u64,
    /// The agent of each player, by player index.
    pub agents: Vec<String>,
    /// The winner's player index; none for a draw.
    pub winner: Option<u8>,
    pub turns: u64,
    pub steps: u64,
    /// Decisions with more than one option, and the options they had in all.
    pub decisions: u64,
    pub options: u64,
    /// How often the unique leader by score changed over the game.
    pub lead_changes: u32,
    /// For a won game: the share of the game (0 to 1) played before the winner took the lead
    /// for good (1 when the winner did not lead at the end by score alone).
    pub settled_at: Option<f64>,
    /// For a won game: whether the winner was behind at some point.
    pub comeback: Option<bool>,
    /// For a won game: the most the winner was ever behind the best other score (0 when it
    /// never was).
    pub deficit: Option<f64>,
    /// The first turn, in notation.
    pub first_move: Option<String>,
    /// How often each step that is a word (`pass`, a token taken) was played.
    pub words: BTreeMap<String, u32>,
    /// Branching over the game's course: for each tenth of its turns, the decisions with more
    /// than one option and the options they had in all.
    pub course: Vec<[u64; 2]>,
    /// The first player's lead by score (its score less the best other's) at the start and
    /// after every whole turn.
    pub lead: Vec<f64>,
    /// The `end` rule that ended the game, as written in the rules.
    pub ended_by: Option<String>,
}

/// The parts of a game's course that branching is followed over.
pub const TENTHS: usize = 10;

/// The unique leader by score, if one player's score is above all others.
fn leader(scores: &[f64]) -> Option<usize> {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut at = scores.iter().enumerate().filter(|(_, &s)| s == best);
    match (at.next(), at.next()) {
        (Some((p, _)), None) => Some(p),
        _ => None,
    }
}

impl GameSummary {
    /// Summarises a game played from `start` with its moves written down (a match with
    /// `notation`): the moves are replayed to follow the scores turn by turn.
    pub fn of(engine: &Engine, start: &State, r: &GameResult) -> Result<GameSummary, String> {
        let mut s = *start;
        let mut course = vec![engine.outcome(&s, None).scores().to_vec()];
        let mut words = BTreeMap::new();
        let mut branching = vec![[0u64; 2]; TENTHS];
        let mut options = Vec::new();
        let turns = r.moves.len().max(1);
        for (turn, m) in r.moves.iter().enumerate() {
            let played = engine
                .parse_turn(&s, m)
                .map_err(|_| format!("game {}: its move `{m}` does not replay", r.index + 1))?;
            let mut before = s;
            let tenth = &mut branching[turn * TENTHS / turns];
            for (step, after) in played {
                engine
                    .steps(&before, &mut options)
                    .map_err(|e| format!("game {}: {e}", r.index + 1))?;
                if options.len() > 1 {
                    tenth[0] += 1;
                    tenth[1] += options.len() as u64;
                }
                if engine.step_cell(&before, step).is_none() {
                    *words
                        .entry(engine.step_notation(&before, step))
                        .or_default() += 1;
                }
                before = after;
            }
            s = before;
            course.push(engine.outcome(&s, None).scores().to_vec());
        }
        let winner = (r.outcome.winner != NOBODY).then_some(r.outcome.winner);
        let mut lead_changes = 0;
        let mut last = None;
        for scores in &course {
            if let Some(p) = leader(scores) {
                if last.is_some_and(|q| q != p) {
                    lead_changes += 1;
                }
                last = Some(p);
            }
        }
        let (settled_at, comeback) = match winner {
            Some(w) => {
                let w = w as usize;
                let turns = course.len() - 1;
                // Positions from the end that the winner leads, counted back.
                let led = course
                    .iter()
                    .rev()
                    .take_while(|scores| leader(scores) == Some(w))
                    .count();
                let settled = if turns == 0 {
                    0.0
                } else {
                    (turns + 1 - led.max(1)) as f64 / turns as f64
                };
                let behind = course
                    .iter()
                    .any(|scores| scores.iter().any(|&other| other > scores[w]));
                (Some(settled.min(1.0)), Some(behind))
            }
            None => (None, None),
        };
        let deficit = winner.map(|w| {
            let w = w as usize;
            course
                .iter()
                .flat_map(|scores| scores.iter().map(move |&other| other - scores[w]))
                .fold(0.0, f64::max)
        });
        Ok(GameSummary {
            index: r.index,
            seed: r.seed,
            agents: r.agents.clone(),
            winner,
            turns: r.turns,
            steps: r.steps,
            decisions: r.decisions,
            options: r.options,
            lead_changes,
            settled_at,
            comeback,
            deficit,
            first_move: r.moves.first().cloned(),
            words,
            course: branching,
            ended_by: engine.end_reached(&r.final_state),
            lead: course
                .iter()
                .map(|scores| {
                    let others = scores[1..]
                        .iter()
                        .copied()
                        .fold(f64::NEG_INFINITY, f64::max);
                    if others.is_finite() {
                        scores[0] - others
                    } else {
                        scores[0]
                    }
                })
                .collect(),
        })
    }
}

/// A proportion with its 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Proportion {
    pub count: u64,
    pub of: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

impl Proportion {
    /// Whether two proportions differ clearly: a two-sided test of equal rates (pooled
    /// two-proportion z-test) rejects at the 5% level.
    pub fn differs(&self, other: &Proportion) -> bool {
        if self.of == 0 || other.of == 0 {
            return false;
        }
        let (n1, n2) = (self.of as f64, other.of as f64);
        let pooled = (self.count + other.count) as f64 / (n1 + n2);
        let se = (pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)).sqrt();
        se > 0.0 && ((self.rate - other.rate) / se).abs() > 1.96
    }

    pub fn new(count: u64, of: u64) -> Proportion {
        let (lo, hi) = wilson(count, of);
        Proportion {
            count,
            of,
            rate: if of > 0 {
                count as f64 / of as f64
            } else {
                0.0
            },
            ci95: [lo, hi],
        }
    }
}

/// A mean with its 95% interval (normal approximation; none below two values).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mean {
    pub mean: f64,
    pub ci95: Option<[f64; 2]>,
    pub of: u64,
}

impl Mean {
    /// The standard error, read back from the interval (none below two values).
    fn standard_error(&self) -> Option<f64> {
        self.ci95.map(|[lo, hi]| (hi - lo) / (2.0 * 1.96))
    }

    /// Whether two means differ clearly: the difference is more than 1.96 standard errors of
    /// the difference (a z-test with each sample's own variance, as Welch's).
    pub fn differs(&self, other: &Mean) -> bool {
        match (self.standard_error(), other.standard_error()) {
            (Some(a), Some(b)) => {
                let se = (a * a + b * b).sqrt();
                if se > 0.0 {
                    (self.mean - other.mean).abs() / se > 1.96
                } else {
                    self.mean != other.mean
                }
            }
            _ => false,
        }
    }

    pub fn of(values: &[f64]) -> Mean {
        let n = values.len() as f64;
        if values.is_empty() {
            return Mean {
                mean: 0.0,
                ci95: None,
                of: 0,
            };
        }
        let mean = values.iter().sum::<f64>() / n;
        let ci95 = (values.len() > 1).then(|| {
            let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let half = 1.96 * (variance / n).sqrt();
            [mean - half, mean + half]
        });
        Mean {
            mean,
            ci95,
            of: values.len() as u64,
        }
    }
}

/// Wins of one seat (a player in turn order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    pub player: String,
    /// The agents that played the seat, and how many games each.
    pub agents: BTreeMap<String, u64>,
    pub wins: Proportion,
}

/// How the games that opened with one first move went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    pub first_move: String,
    pub games: u64,
    /// Wins of the player who made the move (the first player).
    pub first_player_wins: Proportion,
}

/// How many games one `end` rule ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ending {
    /// The rule as written (`end when passes >= 2`); `other` for games no rule holds at the
    /// end of.
    pub rule: String,
    pub games: Proportion,
}

/// The metrics of a series of games (docs/ANALYSIS.md defines each).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub games: u64,
    pub seats: Vec<Seat>,
    pub draws: Proportion,
    /// The first player's wins among the games someone won.
    pub first_player: Proportion,
    /// The share of a won game played before its winner led for good.
    pub decisiveness: Mean,
    pub lead_changes: Mean,
    /// Won games whose winner was behind at some point.
    pub comebacks: Proportion,
    /// How far behind the winner of a won game was at its worst, in the rules' score.
    pub drama: Mean,
    /// Whole turns per game.
    pub length: Mean,
    pub shortest: u64,
    pub longest: u64,
    /// Steps per turn, over all turns.
    pub steps_per_turn: f64,
    /// Options per decision with more than one.
    pub branching: f64,
    /// The same for each tenth of a game's turns (none where no decision had a choice).
    pub branching_course: Vec<Option<f64>>,
    /// Word steps per game, by word.
    pub words: BTreeMap<String, f64>,
    /// The share of games each `end` rule ended, most first.
    pub endings: Vec<Ending>,
    /// The most played first moves, most played first (at most 12).
    pub openings: Vec<Opening>,
}

/// First moves shown in a report.
const OPENINGS: usize = 12;

impl Report {
    /// The report of `games` (any order; they are taken in game order) of a game whose
    /// players are `players`, in turn order.
    pub fn of(players: &[String], games: &[GameSummary]) -> Report {
        let mut games: Vec<&GameSummary> = games.iter().collect();
        games.sort_by_key(|g| g.index);
        let n = games.len() as u64;
        let won: Vec<&&GameSummary> = games.iter().filter(|g| g.winner.is_some()).collect();
        let seats = players
            .iter()
            .enumerate()
            .map(|(p, name)| {
                let mut agents = BTreeMap::new();
                for g in &games {
                    if let Some(a) = g.agents.get(p) {
                        *agents.entry(a.clone()).or_default() += 1;
                    }
                }
                let wins = games.iter().filter(|g| g.winner == Some(p as u8)).count();
                Seat {
                    player: name.clone(),
                    agents,
                    wins: Proportion::new(wins as u64, n),
                }
            })
            .collect();
        let first_wins = won.iter().filter(|g| g.winner == Some(0)).count() as u64;
        let settled: Vec<f64> = won.iter().filter_map(|g| g.settled_at).collect();
        let comebacks = won.iter().filter(|g| g.comeback == Some(true)).count() as u64;
        let lengths: Vec<f64> = games.iter().map(|g| g.turns as f64).collect();
        let turns: u64 = games.iter().map(|g| g.turns).sum();
        let steps: u64 = games.iter().map(|g| g.steps).sum();
        let decisions: u64 = games.iter().map(|g| g.decisions).sum();
        let options: u64 = games.iter().map(|g| g.options).sum();
        let mut course = [[0u64; 2]; TENTHS];
        for g in &games {
            for (sum, part) in course.iter_mut().zip(&g.course) {
                sum[0] += part[0];
                sum[1] += part[1];
            }
        }
        let mut words: BTreeMap<String, f64> = BTreeMap::new();
        for g in &games {
            for (w, k) in &g.words {
                *words.entry(w.clone()).or_default() += f64::from(*k);
            }
        }
        for v in words.values_mut() {
            *v /= n.max(1) as f64;
        }
        let mut by_end: BTreeMap<&str, u64> = BTreeMap::new();
        for g in &games {
            *by_end
                .entry(g.ended_by.as_deref().unwrap_or("other"))
                .or_default() += 1;
        }
        let mut endings: Vec<Ending> = by_end
            .into_iter()
            .map(|(rule, k)| Ending {
                rule: rule.to_string(),
                games: Proportion::new(k, n),
            })
            .collect();
        endings.sort_by_key(|e| std::cmp::Reverse(e.games.count));
        let mut by_first: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for g in &games {
            if let Some(m) = &g.first_move {
                let e = by_first.entry(m).or_default();
                e.0 += 1;
                e.1 += u64::from(g.winner == Some(0));
            }
        }
        let mut openings: Vec<Opening> = by_first
            .into_iter()
            .map(|(m, (played, wins))| Opening {
                first_move: m.to_string(),
                games: played,
                first_player_wins: Proportion::new(wins, played),
            })
            .collect();
        // Most played first; a tie in the order of the moves' notation (the map's order).
        openings.sort_by_key(|o| std::cmp::Reverse(o.games));
        openings.truncate(OPENINGS);
        Report {
            games: n,
            seats,
            draws: Proportion::new(n - won.len() as u64, n),
            first_player: Proportion::new(first_wins, won.len() as u64),
            decisiveness: Mean::of(&settled),
            lead_changes: Mean::of(
                &games
                    .iter()
                    .map(|g| f64::from(g.lead_changes))
                    .collect::<Vec<_>>(),
            ),
            comebacks: Proportion::new(comebacks, won.len() as u64),
            drama: Mean::of(&won.iter().filter_map(|g| g.deficit).collect::<Vec<_>>()),
            length: Mean::of(&lengths),
            shortest: games.iter().map(|g| g.turns).min().unwrap_or(0),
            longest: games.iter().map(|g| g.turns).max().unwrap_or(0),
            steps_per_turn: if turns > 0 {
                steps as f64 / turns as f64
            } else {
                0.0
            },
            branching: if decisions > 0 {
                options as f64 / decisions as f64
            } else {
                1.0
            },
            branching_course: course
                .iter()
                .map(|&[d, o]| (d > 0).then(|| o as f64 / d as f64))
                .collect(),
            words,
            endings,
            openings,
        }
    }
}

/// Where a rate swept over a parameter crosses one half (a fair game), with the interval of
/// values whose 95% bands contain one half.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crossing {
    /// The value where the rate, drawn as straight lines between the swept values, first
    /// reaches one half.
    pub value: f64,
    /// The values where the lower and the upper band reach one half, in increasing order; none
    /// where the band does not reach it inside the swept range.
    pub ci95: [Option<f64>; 2],
}

/// The first value at which `ys`, drawn as straight lines between the points `xs`, reaches
/// one half.
fn half_at(xs: &[f64], ys: &[f64]) -> Option<f64> {
    for i in 0..xs.len() {
        let d = ys[i] - 0.5;
        if d == 0.0 {
            return Some(xs[i]);
        }
        if let Some(&next) = ys.get(i + 1) {
            let e = next - 0.5;
            if d * e < 0.0 {
                return Some(xs[i] + (xs[i + 1] - xs[i]) * d / (d - e));
            }
        }
    }
    None
}

/// The fair value of a parameter from a rate measured at each of its values (in increasing
/// order of value): where the rate crosses one half, and where its 95% band does. None when
/// the rate does not reach one half inside the sweep.
pub fn crossing(points: &[(f64, Proportion)]) -> Option<Crossing> {
    let xs: Vec<f64> = points.iter().map(|(x, _)| *x).collect();
    let rate: Vec<f64> = points.iter().map(|(_, p)| p.rate).collect();
    let lo: Vec<f64> = points.iter().map(|(_, p)| p.ci95[0]).collect();
    let hi: Vec<f64> = points.iter().map(|(_, p)| p.ci95[1]).collect();
    let value = half_at(&xs, &rate)?;
    // A falling rate leaves the fair band when its lower bound falls to one half (below that,
    // the first value is still clearly above) and ends it when the upper bound does.
    let falling = rate.last() < rate.first();
    let (first, last) = if falling {
        (half_at(&xs, &lo), half_at(&xs, &hi))
    } else {
        (half_at(&xs, &hi), half_at(&xs, &lo))
    };
    Some(Crossing {
        value,
        ci95: [first.filter(|&v| v <= value), last.filter(|&v| v >= value)],
    })
}
