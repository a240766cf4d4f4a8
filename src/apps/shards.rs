//! A series of self-played games split into shards by game index, so that its parts can run
//! as separate processes on any number of machines, and merged into exactly the result that
//! one process gives (docs/SCALING.md). A game's seed depends only on the series' seed and the
//! game's index, so a shard plays the very games that the whole series plays at its indices.
//!
//! A shard is JSON lines: a head naming the shard and its series, one line per game (its
//! summary and its record) in game order, and a last line saying the shard is complete. A
//! process that stops early leaves a shard without that line, which [`merge`] refuses.
//!
//! Each line ends with a `chain`: a hash of its text and of the chain of the line before, so
//! that a line edited, removed or moved after it was written is found and named. The hash
//! notices changes, it does not stop a forger (who could compute it again); `merge --verify`
//! replays every record for that.

use super::analysis::GameSummary;
use super::record::{replay, Fnv, Record, StartPosition};
use super::selfplay::GameResult;
use crate::agents::game_seed;
use crate::engine::state::State;
use crate::engine::Engine;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;

/// The version of the shard format written; [`merge`] reads it and `UNCHAINED_FORMAT`.
pub const SHARD_FORMAT: u32 = 2;

/// Shards written before their lines were chained: merged, with a warning that an edit in
/// them would go unnoticed.
const UNCHAINED_FORMAT: u32 = 1;

/// Shard K of N, as `--shard K/N` names it (K counted from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub of: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}`: give the shard as K/N, with K from 1 to N (e.g. 3/8)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, of): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if of == 0 || index == 0 || index > of {
            return Err(bad());
        }
        Ok(Shard { index, of })
    }
}

impl Shard {
    /// The games of this shard among `games`: the K-th of N nearly equal consecutive parts.
    pub fn games(&self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.of)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

/// What makes a series: shards merge only when all of this is the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// The rules file as it was named (informative: shards run on other machines may name it
    /// otherwise; the hash is what must agree).
    pub rules: String,
    pub rules_hash: String,
    pub params: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<StartPosition>,
    /// The players' names, in turn order.
    pub players: Vec<String>,
    /// The agents by seat, before any swapping.
    pub agents: Vec<String>,
    pub swap: bool,
    pub seed: u64,
    /// Games in the whole series.
    pub games: u64,
}

impl Series {
    /// A record without moves or result, for [`Record::of_game`].
    pub fn record(&self) -> Record {
        Record {
            rules: self.rules.clone(),
            rules_hash: self.rules_hash.clone(),
            params: self.params.clone(),
            players: BTreeMap::new(),
            seed: None,
            start: self.start.clone(),
            moves: Vec::new(),
            agreement: None,
            result: None,
        }
    }

    /// The first thing that differs between two series, in words; none when they merge.
    fn difference(&self, other: &Series) -> Option<String> {
        let params = |s: &Series| {
            s.params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if self.rules_hash != other.rules_hash {
            Some(format!(
                "other rules (rules hash {} against {})",
                other.rules_hash, self.rules_hash
            ))
        } else if self.params != other.params {
            Some(format!(
                "other parameters ({} against {})",
                params(other),
                params(self)
            ))
        } else if self.start != other.start {
            Some("another start position (--position)".into())
        } else if self.agents != other.agents || self.swap != other.swap {
            Some(format!(
                "other agents ({}{} against {}{})",
                other.agents.join(","),
                if other.swap { " swapped" } else { "" },
                self.agents.join(","),
                if self.swap { " swapped" } else { "" }
            ))
        } else if self.seed != other.seed {
            Some(format!(
                "another seed ({} against {})",
                other.seed, self.seed
            ))
        } else if self.games != other.games {
            Some(format!(
                "another number of games (--games {} against {})",
                other.games, self.games
            ))
        } else if self.players != other.players {
            Some("other players".into())
        } else {
            None
        }
    }
}

/// The head of a shard: which part of which series it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardHead {
    pub format: u32,
    pub index: u64,
    pub of: u64,
    /// The game indices it holds: from `first` up to, not including, `end`.
    pub first: u64,
    pub end: u64,
}

/// One line of a shard; exactly one group of fields is present.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<ShardHead>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    series: Option<Series>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game: Option<GameSummary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    record: Option<Record>,
    /// The last line: the number of games the shard holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    complete: Option<u64>,
}

/// How a line's chain is written: the last member of its JSON object.
const CHAIN_KEY: &str = ",\"chain\":\"";

/// The chain of a line whose text without its chain is `body`, after the line whose chain is
/// `previous` (0 before the head).
fn link(previous: u64, body: &str) -> u64 {
    let mut h = Fnv::default();
    h.write(&previous.to_le_bytes());
    h.write(body.as_bytes());
    h.0
}

/// A line's text without its chain, and the chain, when it has one.
fn unchain(text: &str) -> (std::borrow::Cow<'_, str>, Option<u64>) {
    let text = text.trim_end();
    let found = text.rfind(CHAIN_KEY).and_then(|at| {
        let hex = text[at + CHAIN_KEY.len()..].strip_suffix("\"}")?;
        let chain = (hex.len() == 16).then(|| u64::from_str_radix(hex, 16).ok())??;
        Some((format!("{}}}", &text[..at]), chain))
    });
    match found {
        Some((body, chain)) => (body.into(), Some(chain)),
        None => (text.into(), None),
    }
}

/// Writes a shard's lines, each chained to the one before.
#[derive(Default)]
pub struct ShardWriter {
    chain: u64,
}

impl ShardWriter {
    fn line(&mut self, line: &Line) -> String {
        let body = serde_json::to_string(line).expect("plain data serializes");
        self.chain = link(self.chain, &body);
        let open = body.strip_suffix('}').expect("a line is a JSON object");
        format!("{open}{CHAIN_KEY}{:016x}\"}}\n", self.chain)
    }

    /// The first line of shard `shard` of `series`.
    pub fn head(&mut self, series: &Series, shard: Shard) -> String {
        let games = shard.games(series.games);
        self.line(&Line {
            shard: Some(ShardHead {
                format: SHARD_FORMAT,
                index: shard.index,
                of: shard.of,
                first: games.start,
                end: games.end,
            }),
            series: Some(series.clone()),
            ..Line::default()
        })
    }

    /// The line of one game.
    pub fn game(&mut self, summary: &GameSummary, record: &Record) -> String {
        self.line(&Line {
            game: Some(summary.clone()),
            record: Some(record.clone()),
            ..Line::default()
        })
    }

    /// The last line of a shard that holds `games` games.
    pub fn complete(&mut self, games: u64) -> String {
        self.line(&Line {
            complete: Some(games),
            ..Line::default()
        })
    }
}

/// A series put back together from its shards.
#[derive(Debug)]
pub struct Merged {
    pub series: Series,
    /// Every game, in game order, with its record.
    pub games: Vec<(GameSummary, Record)>,
    /// Game indices that no shard held (empty unless missing shards were allowed).
    pub missing: Vec<Range<u64>>,
    /// What was merged but could not be checked as a whole (shards of the unchained format).
    pub warnings: Vec<String>,
}

/// Games `r` as a person counts them (from 1).
fn span(r: &Range<u64>) -> String {
    if r.end == r.start + 1 {
        format!("game {}", r.start + 1)
    } else {
        format!("games {}-{}", r.start + 1, r.end)
    }
}

/// One shard read: its head, its series, its games.
struct Part {
    name: String,
    head: ShardHead,
    series: Series,
    games: Vec<(GameSummary, Record)>,
}

/// A change found in a shard's line, in words.
fn edited(at: &str, what: &str) -> String {
    format!(
        "{at}: {what} was changed after the shard was written (its chain does not match its \
         text); merge the shard as analyse wrote it, or run it again"
    )
}

/// Reads a shard's head (its first line): the head, its series, whether its lines are chained,
/// and the head's chain.
fn read_head(
    name: &str,
    first: &str,
    problems: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> Option<(ShardHead, Series, bool, u64)> {
    let (body, chain) = unchain(first);
    let Ok(Line {
        shard: Some(head),
        series: Some(series),
        game: None,
        record: None,
        complete: None,
    }) = serde_json::from_str::<Line>(&body)
    else {
        problems.push(format!(
            "{name}: not a shard (its first line should be the head that `outflank analyse --shard K/N` writes)"
        ));
        return None;
    };
    let chained = match head.format {
        SHARD_FORMAT => true,
        UNCHAINED_FORMAT => {
            warnings.push(format!(
                "{name}: a shard of format {UNCHAINED_FORMAT}, whose lines carry no chain: an \
                 edit in it would not be noticed (merge --verify replays its records)"
            ));
            false
        }
        other => {
            problems.push(format!(
                "{name}: shard format {other} (this outflank reads formats \
                 {UNCHAINED_FORMAT} and {SHARD_FORMAT})"
            ));
            return None;
        }
    };
    let previous = link(0, &body);
    if chained && chain != Some(previous) {
        problems.push(edited(&format!("{name}:1"), "the head"));
        return None;
    }
    if head.of == 0 || head.index == 0 || head.index > head.of {
        problems.push(format!(
            "{name}: its head names shard {}/{}, which no split has (K runs from 1 to N)",
            head.index, head.of
        ));
        return None;
    }
    let games = Shard {
        index: head.index,
        of: head.of,
    }
    .games(series.games);
    if (head.first, head.end) != (games.start, games.end) {
        problems.push(format!(
            "{name}: its head gives games {}-{}, but shard {}/{} of {} games holds {}",
            head.first + 1,
            head.end,
            head.index,
            head.of,
            series.games,
            span(&games)
        ));
        return None;
    }
    Some((head, series, chained, previous))
}

/// Reads one shard named `name`; every problem found goes to `problems`, and a shard that
/// cannot be checked whole to `warnings`.
fn read_part(
    name: &str,
    text: &str,
    problems: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> Option<Part> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        problems.push(format!("{name}: empty: no shard in this file"));
        return None;
    };
    let (head, series, chained, mut previous) = read_head(name, first, problems, warnings)?;
    let mut part = Part {
        name: name.to_string(),
        head,
        series,
        games: Vec::new(),
    };
    let expected = part.head.first..part.head.end;
    let mut complete = None;
    for (i, text) in lines {
        let at = format!("{name}:{}", i + 1);
        if complete.is_some() {
            problems.push(format!("{at}: a line after the shard's last"));
            break;
        }
        let (body, chain) = if chained {
            unchain(text)
        } else {
            (text.into(), None)
        };
        let this = link(previous, &body);
        let intact = !chained || chain == Some(this);
        previous = this;
        match serde_json::from_str::<Line>(&body) {
            Ok(Line {
                game: Some(summary),
                record: Some(record),
                shard: None,
                series: None,
                complete: None,
            }) => {
                let want = expected.start + part.games.len() as u64;
                if summary.index != want || !expected.contains(&summary.index) {
                    problems.push(format!(
                        "{at}: game {} where the shard's game {} belongs",
                        summary.index + 1,
                        want + 1
                    ));
                    return None;
                }
                if !intact {
                    problems.push(edited(&at, &format!("game {}", summary.index + 1)));
                    return None;
                }
                if summary.seed != game_seed(part.series.seed, summary.index) {
                    problems.push(format!(
                        "{at}: game {} has another seed than the series gives it (an edited line?)",
                        summary.index + 1
                    ));
                    return None;
                }
                part.games.push((summary, record));
            }
            Ok(Line {
                complete: Some(n),
                shard: None,
                series: None,
                game: None,
                record: None,
            }) => {
                if !intact {
                    problems.push(edited(&at, "the last line"));
                    return None;
                }
                complete = Some(n);
            }
            Ok(_) => {
                problems.push(format!("{at}: not a line of a shard"));
                return None;
            }
            Err(e) => {
                problems.push(format!("{at}: not a line of a shard: {e}"));
                return None;
            }
        }
    }
    let held = part.games.len() as u64;
    if complete != Some(held) || held != expected.end - expected.start {
        problems.push(format!(
            "{name}: shard {}/{} is incomplete: {} of its {} games (its process stopped early?); run it again",
            part.head.index,
            part.head.of,
            held,
            expected.end - expected.start
        ));
        return None;
    }
    Some(part)
}

/// Merges shards, given as (name, text), in any order, into the series they split. Refused,
/// with every problem found: a file that is not a shard or not complete, shards of other rules
/// or other settings, shards that hold the same games (a shard given twice, or shards of
/// different splits that overlap), and games that no shard holds unless `allow_missing`.
pub fn merge(files: &[(String, String)], allow_missing: bool) -> Result<Merged, Vec<String>> {
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let mut parts: Vec<Part> = files
        .iter()
        .filter_map(|(name, text)| read_part(name, text, &mut problems, &mut warnings))
        .collect();
    let Some(first) = parts.first() else {
        if problems.is_empty() {
            problems.push("no shards to merge".into());
        }
        return Err(problems);
    };
    let series = first.series.clone();
    for p in &parts[1..] {
        if let Some(d) = series.difference(&p.series) {
            problems.push(format!(
                "{}: {d} than {}: shards of one series only",
                p.name, first.name
            ));
        }
    }
    parts.sort_by_key(|p| (p.head.first, p.head.end));
    let mut missing = Vec::new();
    let mut covered = 0;
    for (i, p) in parts.iter().enumerate() {
        if p.head.first > covered {
            missing.push(covered..p.head.first);
        }
        if i > 0 && p.head.first < covered && p.head.end > p.head.first {
            let before = &parts[i - 1];
            if (before.head.first, before.head.end) == (p.head.first, p.head.end) {
                problems.push(format!(
                    "{} and {} hold the same games ({}): the same shard given twice",
                    before.name,
                    p.name,
                    span(&(p.head.first..p.head.end))
                ));
            } else {
                problems.push(format!(
                    "{} and {} overlap: both hold {} (the same seeds)",
                    before.name,
                    p.name,
                    span(&(p.head.first..covered.min(p.head.end)))
                ));
            }
        }
        covered = covered.max(p.head.end);
    }
    if covered < series.games {
        missing.push(covered..series.games);
    }
    if !missing.is_empty() && !allow_missing {
        let of = parts[0].head.of;
        for gap in &missing {
            let which: Vec<String> = (1..=of)
                .map(|k| Shard { index: k, of })
                .filter(|s| {
                    let g = s.games(series.games);
                    g.start < gap.end && gap.start < g.end
                })
                .map(|s| format!("{}/{}", s.index, s.of))
                .collect();
            problems.push(format!(
                "{} of the {} missing (shard {}); give every shard, or --allow-missing",
                span(gap),
                series.games,
                which.join(", ")
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let games = parts.into_iter().flat_map(|p| p.games).collect();
    Ok(Merged {
        series,
        games,
        missing,
        warnings,
    })
}

/// Replays every merged game's record from `begin` under `engine` (the rules of `series`, with
/// its parameters and start) and summarises it again: a record must be of the series' game, and
/// what a line says of its game must be what its moves give. The problems found, each naming
/// its game; none when every game holds.
pub fn verify(
    engine: &Engine,
    begin: &State,
    series: &Series,
    games: &[(GameSummary, Record)],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (summary, record) in games {
        let game = summary.index + 1;
        // The engine is the series'; a record of other settings would be replayed as if it
        // were of them.
        if record.params != series.params || record.start != series.start {
            problems.push(format!(
                "game {game}: its record sets other parameters or another start than its series"
            ));
            continue;
        }
        let states = match replay(engine, begin, record) {
            Ok(states) => states,
            Err(m) => {
                problems.push(format!("game {game}: its record does not replay: {m}"));
                continue;
            }
        };
        let last = states.last().copied().unwrap_or(*begin);
        let played = GameResult {
            index: summary.index,
            seed: summary.seed,
            agents: summary.agents.clone(),
            moves: record.moves.clone(),
            turns: record.moves.len() as u64,
            outcome: engine.outcome(&last, None),
            final_state: last,
            steps: summary.steps,
            decisions: summary.decisions,
            options: summary.options,
        };
        let again = match GameSummary::of(engine, begin, &played) {
            Ok(again) => again,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        // Through JSON, as the line was: a number reads back as it was written.
        let again: GameSummary =
            serde_json::from_str(&serde_json::to_string(&again).expect("plain data serializes"))
                .expect("a summary reads back");
        let course = |k: usize| again.course.iter().map(|c| c[k]).sum::<u64>();
        let differs = if again != *summary {
            Some(first_difference(summary, &again))
        } else if (course(0), course(1)) != (summary.decisions, summary.options) {
            Some("count of decisions and options")
        } else {
            None
        };
        if let Some(what) = differs {
            problems.push(format!(
                "game {game}: the {what} its summary gives is not what its moves give"
            ));
        }
    }
    problems
}

/// The first part of two summaries of one game that differs, in words.
fn first_difference(line: &GameSummary, again: &GameSummary) -> &'static str {
    if line.winner != again.winner {
        "winner"
    } else if line.turns != again.turns {
        "number of turns"
    } else if line.lead != again.lead {
        "lead over the game"
    } else if line.ended_by != again.ended_by {
        "end reached"
    } else if line.first_move != again.first_move {
        "first move"
    } else if line.course != again.course || line.words != again.words {
        "branching"
    } else {
        "measure of the lead (its changes, comeback or deficit)"
    }
}
