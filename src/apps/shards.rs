//! A series of self-played games split into shards by game index, so that its parts can run
//! as separate processes on any number of machines, and merged into exactly the result that
//! one process gives (docs/SCALING.md). A game's seed depends only on the series' seed and the
//! game's index, so a shard plays the very games that the whole series plays at its indices.
//!
//! A shard is JSON lines: a head naming the shard and its series, one line per game (its
//! summary and its record) in game order, and a last line saying the shard is complete. A
//! process that stops early leaves a shard without that line, which [`merge`] refuses.

use super::analysis::GameSummary;
use super::record::{Record, StartPosition};
use crate::agents::game_seed;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;

/// The version of the shard format; [`merge`] refuses any other.
pub const SHARD_FORMAT: u32 = 1;

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

fn json_line(line: &Line) -> String {
    serde_json::to_string(line).expect("plain data serializes") + "\n"
}

/// The first line of shard `shard` of `series`.
pub fn head_line(series: &Series, shard: Shard) -> String {
    let games = shard.games(series.games);
    json_line(&Line {
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
pub fn game_line(summary: &GameSummary, record: &Record) -> String {
    json_line(&Line {
        game: Some(summary.clone()),
        record: Some(record.clone()),
        ..Line::default()
    })
}

/// The last line of a shard that holds `games` games.
pub fn complete_line(games: u64) -> String {
    json_line(&Line {
        complete: Some(games),
        ..Line::default()
    })
}

/// A series put back together from its shards.
#[derive(Debug)]
pub struct Merged {
    pub series: Series,
    /// Every game, in game order, with its record.
    pub games: Vec<(GameSummary, Record)>,
    /// Game indices that no shard held (empty unless missing shards were allowed).
    pub missing: Vec<Range<u64>>,
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

/// Reads one shard named `name`; every problem found goes to `problems`.
fn read_part(name: &str, text: &str, problems: &mut Vec<String>) -> Option<Part> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let not_shard = format!(
        "{name}: not a shard (its first line should be the head that `outflank analyse --shard K/N` writes)"
    );
    let Some((_, first)) = lines.next() else {
        problems.push(format!("{name}: empty: no shard in this file"));
        return None;
    };
    let Ok(Line {
        shard: Some(head),
        series: Some(series),
        ..
    }) = serde_json::from_str::<Line>(first)
    else {
        problems.push(not_shard);
        return None;
    };
    if head.format != SHARD_FORMAT {
        problems.push(format!(
            "{name}: shard format {} (this outflank reads format {SHARD_FORMAT})",
            head.format
        ));
        return None;
    }
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
        match serde_json::from_str::<Line>(text) {
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
            }) => complete = Some(n),
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
    let mut parts: Vec<Part> = files
        .iter()
        .filter_map(|(name, text)| read_part(name, text, &mut problems))
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
    })
}
