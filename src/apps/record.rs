//! Game records: what was played, under which rules and parameters, and how it ended. One JSON
//! object per game (a `.jsonl` file holds many).

use super::selfplay::GameResult;
use crate::engine::state::State;
use crate::engine::turns::PlayError;
use crate::engine::{Engine, Extra};
use crate::ir::NOBODY;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// The rules file as it was named when the game was played.
    pub rules: String,
    /// FNV-1a (64 bits) of the rules text, base files included.
    pub rules_hash: String,
    pub params: BTreeMap<String, String>,
    /// Player name -> the agent (or `human`) that played it.
    pub players: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Where the game began, when not at the rules' setup (`--position`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<StartPosition>,
    /// Whole turns in notation.
    pub moves: Vec<String>,
    /// An agreement after the game stopped: each player's proposal in order (the player to move
    /// first), as steps of the rules' agreement program; "" for no proposal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agreement: Option<Vec<String>>,
    pub result: Option<RecordResult>,
}

impl Record {
    /// The record of a self-played game `r`, under the rules, parameters and start that
    /// `series` (a record without moves or result) names: one record per game, whoever writes
    /// it (`run --record`, `analyse --record`, a shard, `merge`), so that they are the same.
    pub fn of_game(engine: &Engine, series: &Record, r: &GameResult) -> Record {
        Record {
            players: (0..engine.game.player_count())
                .map(|p| {
                    (
                        engine.player_name(p).to_string(),
                        r.agents[p as usize].clone(),
                    )
                })
                .collect(),
            seed: Some(r.seed),
            moves: r.moves.clone(),
            result: result_of(engine, &r.final_state),
            ..series.clone()
        }
    }
}

/// A starting position: rows as `--position` takes them, the player to move, and the
/// counters' and tokens' values as `--extra` takes them (when the rules have any).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StartPosition {
    pub rows: String,
    pub to_move: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Map<String, serde_json::Value>>,
}

impl StartPosition {
    pub fn of(engine: &Engine, s: &State) -> StartPosition {
        StartPosition {
            rows: engine.position_rows(s),
            to_move: engine.player_name(s.mover).to_string(),
            extra: extra_json(engine, s),
        }
    }

    /// The position itself, on `engine`'s rules.
    pub fn state(&self, engine: &Engine) -> Result<State, String> {
        let extra = match &self.extra {
            Some(map) => extra_from_json(map)?,
            None => Vec::new(),
        };
        engine.position_with(&self.rows, Some(&self.to_move), &extra)
    }
}

/// The tokens' holders and the counters' values of `s` as JSON, as `moves --json` prints them
/// under "extra" and `--extra` reads them; None when the rules have neither.
pub fn extra_json(
    engine: &Engine,
    s: &State,
) -> Option<serde_json::Map<String, serde_json::Value>> {
    use serde_json::Value;
    let extra = engine.extra(s);
    (!extra.is_empty()).then(|| {
        extra
            .into_iter()
            .map(|(k, v)| {
                let value = match v {
                    Extra::Holder(h) => h.map_or(Value::Null, Value::from),
                    Extra::PerPlayer(values) => Value::Object(
                        values
                            .into_iter()
                            .map(|(p, n)| (p, Value::from(n)))
                            .collect(),
                    ),
                };
                (k, value)
            })
            .collect()
    })
}

/// Values in the form [`extra_json`] writes: a token's holder's name (or null), a counter's
/// object of each player's whole number.
pub fn extra_from_json(
    map: &serde_json::Map<String, serde_json::Value>,
) -> Result<Vec<(String, Extra)>, String> {
    use serde_json::Value;
    map.iter()
        .map(|(name, value)| {
            let extra = match value {
                Value::Null => Extra::Holder(None),
                Value::String(h) => Extra::Holder(Some(h.clone())),
                Value::Object(values) => Extra::PerPlayer(
                    values
                        .iter()
                        .map(|(p, v)| match v.as_i64() {
                            Some(n) => Ok((p.clone(), n)),
                            None => Err(format!("`{name}`: {p}'s value {v} is not a whole number")),
                        })
                        .collect::<Result<_, _>>()?,
                ),
                other => {
                    return Err(format!(
                        "`{name}`: {other} is neither a player's name, null, nor an object of \
                         each player's value"
                    ))
                }
            };
            Ok((name.clone(), extra))
        })
        .collect()
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RecordResult {
    /// The winner's name, or null for a draw (`"resigned"` says who gave up, if anyone).
    pub winner: Option<String>,
    pub scores: BTreeMap<String, f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<String>,
    /// `resigned` gave the game up because their clock ran out (`play --time`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_time: bool,
}

/// The hash that ties a record to its rules (base files included): FNV-1a (64 bits) over the
/// rules' tokens, so that a comment, a blank line or a new layout (`outflank fmt`) leaves it
/// alone, and so do the rules' examples, which test the rules without being part of them.
pub fn rules_hash(engine: &Engine) -> String {
    let mut h = Fnv::default();
    for file in &engine.game.files {
        for token in rule_tokens(&file.text) {
            h.write(token.as_bytes());
            h.write(&[0x1f]);
        }
        h.write(&[0]);
    }
    format!("tokens-fnv1a64:{:016x}", h.0)
}

/// The hash of records written before hashes were taken over tokens: the raw text.
fn text_hash(engine: &Engine) -> String {
    let mut h = Fnv::default();
    for file in &engine.game.files {
        h.write(file.text.as_bytes());
        h.write(&[0]);
    }
    format!("fnv1a64:{:016x}", h.0)
}

/// FNV-1a, 64 bits: a hash to notice changes by (not forgeries: anyone can compute it).
pub(crate) struct Fnv(pub(crate) u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The tokens of a rules text: words and numbers, quoted strings and symbols whole, every other
/// mark on its own; spaces and comments dropped, and `example` items (brace-balanced) skipped.
/// The grammar ignores spacing between tokens, so two texts with the same tokens say the same.
fn rule_tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            continue;
        }
        if c == b'"' || c == b'\'' {
            // A quoted string or symbol, escapes included, up to its closing quote.
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
        } else if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80)
            {
                i += 1;
            }
        } else {
            i += 1;
        }
        tokens.push(&text[start..i]);
    }
    // Examples: at brace depth 0, `example` up to the brace that closes its block.
    let mut kept = Vec::with_capacity(tokens.len());
    let (mut depth, mut skipping, mut opened) = (0usize, false, false);
    for t in tokens {
        if depth == 0 && t == "example" {
            (skipping, opened) = (true, false);
        }
        match t {
            "{" => {
                depth += 1;
                opened = true;
            }
            "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
        if !skipping {
            kept.push(t);
        } else if opened && depth == 0 {
            skipping = false;
        }
    }
    kept
}

pub fn result_of(engine: &Engine, s: &State) -> Option<RecordResult> {
    s.outcome.map(|o| RecordResult {
        winner: (o.winner != NOBODY).then(|| engine.player_name(o.winner).to_string()),
        scores: (0..engine.game.player_count())
            .map(|p| (engine.player_name(p).to_string(), o.scores()[p as usize]))
            .collect(),
        resigned: None,
        on_time: false,
    })
}

/// The result of a game of two players that `p` resigned in position `s`: the other player
/// wins, with the scores of the position as it stood.
pub fn resignation(engine: &Engine, s: &State, p: u8) -> RecordResult {
    let outcome = engine.outcome(s, None);
    RecordResult {
        winner: Some(engine.player_name(1 - p).to_string()),
        scores: (0..engine.game.player_count())
            .map(|q| {
                (
                    engine.player_name(q).to_string(),
                    outcome.scores()[q as usize],
                )
            })
            .collect(),
        resigned: Some(engine.player_name(p).to_string()),
        on_time: false,
    }
}

/// The result of a game of two players that `p` lost in position `s` because their time ran
/// out: a resignation the clock made.
pub fn time_loss(engine: &Engine, s: &State, p: u8) -> RecordResult {
    RecordResult {
        on_time: true,
        ..resignation(engine, s, p)
    }
}

pub fn params_of(engine: &Engine) -> BTreeMap<String, String> {
    engine
        .game
        .params
        .iter()
        .map(|p| (p.name.clone(), p.value.clone()))
        .collect()
}

/// Why a record does not match its rules.
#[derive(Debug, PartialEq)]
pub enum Mismatch {
    Hash {
        rules_file: String,
        record: String,
        rules: String,
    },
    /// A resignation that could not have happened as recorded.
    Resignation(String),
    Move {
        number: usize,
        notation: String,
        why: String,
    },
    Unfinished {
        moves: usize,
    },
    Result {
        record: String,
        replay: String,
    },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Hash { rules_file, record, rules } => write!(
                f,
                "the record was made with other rules ({rules_file}, hash {record}); these rules hash to {rules}"
            ),
            Mismatch::Resignation(why) => write!(f, "the resignation does not replay: {why}"),
            Mismatch::Move { number, notation, why } => write!(f, "move {number} `{notation}` does not replay: {why}"),
            Mismatch::Unfinished { moves } => {
                write!(f, "the record claims a result, but the game is not over after its {moves} moves")
            }
            Mismatch::Result { record, replay } => {
                write!(f, "the record says {record}, but the replay ends with {replay}")
            }
        }
    }
}

fn describe(r: Option<&RecordResult>) -> String {
    match r {
        None => "no result".into(),
        Some(r) => {
            let scores: Vec<String> = r.scores.iter().map(|(p, s)| format!("{p} {s}")).collect();
            let who = r
                .winner
                .as_deref()
                .map_or_else(|| "a draw".into(), |w| format!("{w} wins"));
            format!("{} ({who})", scores.join(", "))
        }
    }
}

/// Applies agreement proposals to a stopped game: the player to move proposes first.
pub fn apply_agreement(
    engine: &Engine,
    stopped: &State,
    proposals: &[String],
) -> Result<State, String> {
    if !stopped.is_over() {
        return Err("an agreement needs a game that has stopped".into());
    }
    let mut s = *stopped;
    for (i, text) in proposals.iter().enumerate() {
        if text.is_empty() {
            continue;
        }
        // The players propose in turn order, starting with the one to move.
        let order: Vec<u8> = engine.game.turn_order(stopped.mover).collect();
        let proposer = order[i % order.len()];
        let Some(mut a) = engine
            .begin_agreement(&s, proposer)
            .map_err(|e| format!("rule error: {e}"))?
        else {
            return Err("these rules have no agreement".into());
        };
        for part in text.split_whitespace() {
            let played = engine.parse_turn(&a, part).map_err(|e| e.to_string())?;
            a = played.last().map_or(a, |(_, st)| *st);
        }
        if !a.is_over() {
            return Err(format!("the proposal `{text}` is not finished"));
        }
        s = a;
    }
    Ok(s)
}

/// A resignation replays when the player to move resigned a game still going, and the record
/// names the other player the winner with the scores of the position as it stood.
fn check_resignation(
    engine: &Engine,
    s: &State,
    over: bool,
    r: &RecordResult,
) -> Result<(), Mismatch> {
    let who = r.resigned.as_deref().unwrap_or_default();
    let Some(p) = engine.game.player_by_name(who) else {
        return Err(Mismatch::Resignation(format!(
            "`{who}` is not a player of these rules"
        )));
    };
    if over {
        return Err(Mismatch::Resignation(format!(
            "{who} resigned a game that was already over"
        )));
    }
    if p != s.mover {
        return Err(Mismatch::Resignation(format!(
            "{who} resigned, but it was {}'s turn",
            engine.player_name(s.mover)
        )));
    }
    if engine.game.player_count() != 2 {
        return Err(Mismatch::Resignation(format!(
            "{who} resigned, but only a game of two players ends by resigning"
        )));
    }
    let winner = engine.player_name(1 - p);
    if r.winner.as_deref() != Some(winner) {
        return Err(Mismatch::Resignation(format!(
            "{who} resigned, so {winner} wins, but the record names {}",
            r.winner.as_deref().unwrap_or("no winner")
        )));
    }
    let replayed = resignation(engine, s, p);
    if replayed.scores != r.scores {
        return Err(Mismatch::Result {
            record: describe(Some(r)),
            replay: describe(Some(&replayed)),
        });
    }
    Ok(())
}

/// Checks that a record was made with these rules (by its hash; records from before hashes
/// were taken over tokens carry the hash of the raw text).
pub fn same_rules(engine: &Engine, record: &Record) -> Result<(), Mismatch> {
    let hash = if record.rules_hash.starts_with("fnv1a64:") {
        text_hash(engine)
    } else {
        rules_hash(engine)
    };
    if record.rules_hash != hash {
        return Err(Mismatch::Hash {
            rules_file: record.rules.clone(),
            record: record.rules_hash.clone(),
            rules: hash,
        });
    }
    Ok(())
}

/// Replays a record from `start`; returns the state after each move.
pub fn replay(engine: &Engine, start: &State, record: &Record) -> Result<Vec<State>, Mismatch> {
    same_rules(engine, record)?;
    let mut s = *start;
    let mut states = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let played = engine.parse_turn(&s, m).map_err(|e| Mismatch::Move {
            number: i + 1,
            notation: m.clone(),
            why: match e {
                PlayError::Illegal(w) => w,
                PlayError::Rule(r) => format!("rule error: {r}"),
            },
        })?;
        s = played.last().map_or(s, |(_, st)| *st);
        // A player may resign in the middle of a turn: its steps so far are the last move.
        let resigned_here = i + 1 == record.moves.len()
            && record.result.as_ref().is_some_and(|r| r.resigned.is_some());
        if !s.is_over() && s.steps > 0 && !resigned_here {
            return Err(Mismatch::Move {
                number: i + 1,
                notation: m.clone(),
                why: "it stops in the middle of a turn".into(),
            });
        }
        states.push(s);
    }
    if let Some(proposals) = &record.agreement {
        s = apply_agreement(engine, &s, proposals).map_err(|why| Mismatch::Move {
            number: record.moves.len() + 1,
            notation: proposals.join(" / "),
            why,
        })?;
        states.push(s);
    }
    match (&record.result, s.is_over()) {
        (Some(r), over) if r.resigned.is_some() => check_resignation(engine, &s, over, r)?,
        (Some(_), false) => {
            return Err(Mismatch::Unfinished {
                moves: record.moves.len(),
            })
        }
        _ => {
            let replayed = result_of(engine, &s);
            if replayed != record.result {
                return Err(Mismatch::Result {
                    record: describe(record.result.as_ref()),
                    replay: describe(replayed.as_ref()),
                });
            }
        }
    }
    Ok(states)
}
