//! Whole turns: the rules' "moves", each a complete sequence of steps by one player. Only
//! `moves`, `perft` and records enumerate them; everything that plays goes step by step.

use super::face::Engine;
use super::state::State;
use super::step::{RuleError, Step};

/// A whole turn: its steps' notation joined, and the state after it.
pub struct Turn {
    pub notation: String,
    pub after: State,
}

/// Why a written move could not be played.
#[derive(Debug)]
pub enum PlayError {
    /// The text does not name a legal move here (one line for the user).
    Illegal(String),
    /// The rules failed while playing it.
    Rule(RuleError),
}

impl From<RuleError> for PlayError {
    fn from(e: RuleError) -> Self {
        PlayError::Rule(e)
    }
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Illegal(m) => f.write_str(m),
            PlayError::Rule(e) => write!(f, "rule error: {e}"),
        }
    }
}

/// Why a list of whole turns stopped.
#[derive(Debug)]
pub enum ListError {
    Rule(RuleError),
    /// More than the limit exist.
    TooMany(usize),
}

impl From<RuleError> for ListError {
    fn from(e: RuleError) -> Self {
        ListError::Rule(e)
    }
}

/// Whether `t` is still in the turn that was being played at `s`.
#[inline]
fn same_turn(s: &State, t: &State) -> bool {
    !t.is_over() && t.turn == s.turn
}

impl Engine {
    /// Every way to complete the current turn, at most `limit` of them.
    pub fn whole_turns(&self, s: &State, limit: usize) -> Result<Vec<Turn>, ListError> {
        let mut out = Vec::new();
        let mut prefix = String::new();
        self.collect_turns(s, s, &mut prefix, &mut out, limit)?;
        Ok(out)
    }

    /// The first `limit` whole turns from `s` in listing order, and whether more exist.
    pub fn first_turns(&self, s: &State, limit: usize) -> Result<(Vec<Turn>, bool), RuleError> {
        let mut out = Vec::new();
        let mut prefix = String::new();
        match self.collect_turns(s, s, &mut prefix, &mut out, limit) {
            Ok(()) => Ok((out, false)),
            Err(ListError::TooMany(_)) => Ok((out, true)),
            Err(ListError::Rule(e)) => Err(e),
        }
    }

    /// Lists the whole turns from `s` depth first, in the order of each step's list, with an
    /// explicit stack rather than recursion: a turn may take up to `MAX_TURN_STEPS` steps.
    fn collect_turns(
        &self,
        root: &State,
        s: &State,
        prefix: &mut String,
        out: &mut Vec<Turn>,
        limit: usize,
    ) -> Result<(), ListError> {
        /// A sub-state of the turn, its steps not yet followed, and the notation's length
        /// before it.
        struct Open {
            at: State,
            steps: std::vec::IntoIter<Step>,
            len: usize,
        }
        let open = |at: &State, len: usize| -> Result<Open, ListError> {
            let mut steps = Vec::new();
            self.steps(at, &mut steps)?;
            Ok(Open {
                at: *at,
                steps: steps.into_iter(),
                len,
            })
        };
        let mut stack = vec![open(s, prefix.len())?];
        while let Some(top) = stack.last_mut() {
            let Some(step) = top.steps.next() else {
                prefix.truncate(top.len);
                stack.pop();
                continue;
            };
            let from = top.at;
            prefix.truncate(top.len);
            prefix.push_str(&self.step_notation(&from, step));
            let t = self.apply(&from, step)?;
            if same_turn(root, &t) {
                stack.push(open(&t, prefix.len())?);
            } else {
                if out.len() == limit {
                    return Err(ListError::TooMany(limit));
                }
                out.push(Turn {
                    notation: prefix.clone(),
                    after: t,
                });
            }
        }
        Ok(())
    }

    /// Counts the sequences of `depth` whole turns (a forced pass is a turn; a finished game
    /// counts as one leaf).
    pub fn perft(&self, s: &State, depth: u32) -> Result<u64, RuleError> {
        self.runner.perft(&self.game, s, depth)
    }

    /// Perft split by the first whole turn.
    pub fn perft_divide(&self, s: &State, depth: u32) -> Result<Vec<(String, u64)>, ListError> {
        let turns = self.whole_turns(s, usize::MAX)?;
        turns
            .into_iter()
            .map(|t| Ok((t.notation, self.perft(&t.after, depth.saturating_sub(1))?)))
            .collect()
    }

    /// Plays the steps written in `text` (one whole turn, or the start of one) from `s`.
    /// Returns the states after each step. At each point the legal step whose notation is the
    /// longest prefix of the remaining text is taken.
    pub fn parse_turn(&self, s: &State, text: &str) -> Result<Vec<(Step, State)>, PlayError> {
        let illegal = |m: String| Err(PlayError::Illegal(m));
        let mut cur = *s;
        let mut rest = text;
        let mut played = Vec::new();
        let mut steps = Vec::new();
        while !rest.is_empty() {
            if cur.is_over() {
                return illegal(format!("the game is over; `{rest}` cannot be played"));
            }
            if !played.is_empty() && !same_turn(s, &cur) {
                return illegal(format!("the turn is complete before `{rest}`"));
            }
            self.steps(&cur, &mut steps)?;
            let mut best: Option<(usize, Step)> = None;
            for &step in &steps {
                let n = self.step_notation(&cur, step);
                if rest.starts_with(&n) && best.is_none_or(|(len, _)| n.len() > len) {
                    best = Some((n.len(), step));
                }
            }
            let Some((len, step)) = best else {
                let legal: Vec<String> = steps
                    .iter()
                    .map(|&st| self.step_notation(&cur, st))
                    .collect();
                return illegal(if legal.is_empty() {
                    format!("no step is possible here, so `{rest}` cannot be played")
                } else {
                    format!(
                        "`{rest}` does not start with a legal step; legal here: {}",
                        abbreviate(&legal)
                    )
                });
            };
            cur = self.apply(&cur, step)?;
            played.push((step, cur));
            rest = &rest[len..];
        }
        Ok(played)
    }

    /// Plays a history of whole turns separated by spaces; the last may stop mid-turn.
    pub fn play_history(&self, start: &State, history: &str) -> Result<State, PlayError> {
        let mut s = *start;
        let moves: Vec<&str> = history.split_whitespace().collect();
        for (i, m) in moves.iter().enumerate() {
            let played = self.parse_turn(&s, m).map_err(|e| match e {
                PlayError::Illegal(why) => {
                    PlayError::Illegal(format!("move {} `{m}` is not legal: {why}", i + 1))
                }
                rule @ PlayError::Rule(_) => rule,
            })?;
            let end = played.last().map_or(s, |(_, st)| *st);
            if i + 1 < moves.len() && same_turn(&s, &end) {
                return Err(PlayError::Illegal(format!(
                    "move {} `{m}` stops in the middle of a turn; only the last move of a history may",
                    i + 1
                )));
            }
            s = end;
        }
        Ok(s)
    }
}

/// Counts of mid-turn sub-states already seen, by remaining depth.
/// At most 20 items, then a count of the rest.
pub fn abbreviate(items: &[String]) -> String {
    if items.len() <= 20 {
        items.join(" ")
    } else {
        format!(
            "{} ... and {} more",
            items[..20].join(" "),
            items.len() - 20
        )
    }
}
