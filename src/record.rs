//! Game records: what was played, under which rules and parameters, and how it ended. One JSON
//! object per game (a `.jsonl` file holds many).

use crate::engine::state::State;
use crate::engine::turns::PlayError;
use crate::engine::Engine;
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
    /// Whole turns in notation.
    pub moves: Vec<String>,
    /// An agreement after the game stopped: each player's proposal in order (the player to move
    /// first), as steps of the rules' agreement program; "" for no proposal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agreement: Option<Vec<String>>,
    pub result: Option<RecordResult>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RecordResult {
    /// The winner's name, or null for a draw (`"resigned"` says who gave up, if anyone).
    pub winner: Option<String>,
    pub scores: BTreeMap<String, f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<String>,
}

/// The hash that ties a record to the exact text of its rules (and their bases).
pub fn rules_hash(engine: &Engine) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for file in &engine.game.files {
        for b in file.text.bytes().chain(std::iter::once(0u8)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("fnv1a64:{h:016x}")
}

pub fn result_of(engine: &Engine, s: &State) -> Option<RecordResult> {
    s.outcome.map(|o| RecordResult {
        winner: (o.winner != NOBODY).then(|| engine.player_name(o.winner).to_string()),
        scores: (0..2)
            .map(|p| (engine.player_name(p).to_string(), o.scores[p as usize]))
            .collect(),
        resigned: None,
    })
}

pub fn params_of(engine: &Engine) -> BTreeMap<String, String> {
    engine.game.params.iter().cloned().collect()
}

/// Why a record does not match its rules.
#[derive(Debug, PartialEq)]
pub enum Mismatch {
    Hash {
        record: String,
        rules: String,
    },
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
            Mismatch::Hash { record, rules } => write!(
                f,
                "the record was made with other rules: its hash is {record}, these rules hash to {rules}"
            ),
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

fn describe(r: &Option<RecordResult>) -> String {
    match r {
        None => "no result".into(),
        Some(r) => {
            let scores: Vec<String> = r.scores.iter().map(|(p, s)| format!("{p} {s}")).collect();
            let who = r
                .winner
                .as_deref()
                .map(|w| format!("{w} wins"))
                .unwrap_or_else(|| "a draw".into());
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
        let proposer = if i % 2 == 0 {
            stopped.mover
        } else {
            1 - stopped.mover
        };
        let Some(mut a) = engine
            .begin_agreement(&s, proposer)
            .map_err(|e| format!("rule error: {e}"))?
        else {
            return Err("these rules have no agreement".into());
        };
        for part in text.split_whitespace() {
            let played = engine.parse_turn(&a, part).map_err(|e| e.to_string())?;
            a = played.last().map(|(_, st)| *st).unwrap_or(a);
        }
        if !a.is_over() {
            return Err(format!("the proposal `{text}` is not finished"));
        }
        s = a;
    }
    Ok(s)
}

/// Replays a record from `start`; returns the state after each move.
pub fn replay(engine: &Engine, start: &State, record: &Record) -> Result<Vec<State>, Mismatch> {
    let hash = rules_hash(engine);
    if record.rules_hash != hash {
        return Err(Mismatch::Hash {
            record: record.rules_hash.clone(),
            rules: hash,
        });
    }
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
        s = played.last().map(|(_, st)| *st).unwrap_or(s);
        if !s.is_over() && s.steps > 0 {
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
        (Some(r), _) if r.resigned.is_some() => {}
        (Some(_), false) => {
            return Err(Mismatch::Unfinished {
                moves: record.moves.len(),
            })
        }
        _ => {
            let replayed = result_of(engine, &s);
            if replayed != record.result {
                return Err(Mismatch::Result {
                    record: describe(&record.result),
                    replay: describe(&replayed),
                });
            }
        }
    }
    Ok(states)
}
