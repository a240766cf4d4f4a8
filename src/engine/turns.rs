//! Whole turns: the rules' "moves", each a complete sequence of steps by one player. Only
//! `moves`, `perft` and records enumerate them; everything that plays goes step by step.
//!
//! Explaining a move: why it is legal or not, in the rules' own terms: which option allows a
//! step, or for each option, what excludes the step (its candidate set, its `where`, a
//! `require`).

use super::face::Engine;
use super::runner::each_width;
use super::runner::positions::Positions;
use super::state::{State, AT_FORCED_PASS, AT_GAME_OVER};
use super::step::{RuleError, Step, FORCED_PASS};
use crate::ir::{AltKind, Loc};

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

/// One step of the move as written.
#[derive(Debug)]
pub struct StepExplanation {
    /// The step's text (or what was left of the move when it failed).
    pub text: String,
    /// The option that allows it, when it is legal.
    pub allowed_by: Option<Loc>,
    /// When it is not legal: each reason, with the rule text it comes from.
    pub reasons: Vec<(String, Option<Loc>)>,
}

#[derive(Debug)]
pub struct Explanation {
    pub player: u8,
    pub steps: Vec<StepExplanation>,
    /// True when every step was legal.
    pub legal: bool,
    /// The position after the legal steps.
    pub after: State,
}

impl Engine {
    pub fn explain(&self, s: &State, text: &str) -> Result<Explanation, RuleError> {
        let mut cur = *s;
        let mut rest = text;
        let mut steps = Vec::new();
        let mut buf = Vec::new();
        while !rest.is_empty() {
            if cur.pc == AT_GAME_OVER {
                steps.push(StepExplanation {
                    text: rest.into(),
                    allowed_by: None,
                    reasons: vec![("the game is over".into(), None)],
                });
                return Ok(Explanation {
                    player: s.mover,
                    steps,
                    legal: false,
                    after: cur,
                });
            }
            self.steps(&cur, &mut buf)?;
            let best = buf
                .iter()
                .map(|&st| (self.step_notation(&cur, st), st))
                .filter(|(n, _)| rest.starts_with(n.as_str()))
                .max_by_key(|(n, _)| n.len());
            if let Some((n, step)) = best {
                let allowed_by = (step.alt != FORCED_PASS)
                    .then(|| self.choose_at(cur.pc).alts[step.alt as usize].loc);
                steps.push(StepExplanation {
                    text: n.clone(),
                    allowed_by,
                    reasons: Vec::new(),
                });
                cur = self.apply(&cur, step)?;
                rest = &rest[n.len()..];
                continue;
            }
            let reasons = self.why_not(&cur, rest)?;
            steps.push(StepExplanation {
                text: rest.into(),
                allowed_by: None,
                reasons,
            });
            return Ok(Explanation {
                player: s.mover,
                steps,
                legal: false,
                after: cur,
            });
        }
        Ok(Explanation {
            player: s.mover,
            steps,
            legal: true,
            after: cur,
        })
    }

    /// For each option of the current choice, what keeps `rest` from being one of its steps.
    fn why_not(&self, cur: &State, rest: &str) -> Result<Vec<(String, Option<Loc>)>, RuleError> {
        if cur.pc == AT_FORCED_PASS {
            return Ok(vec![(
                format!(
                    "{} has no legal step and must pass",
                    self.player_name(cur.mover)
                ),
                None,
            )]);
        }
        let g = &self.game.geometry;
        let c = self.choose_at(cur.pc);
        let mut reasons = Vec::new();
        for (i, alt) in c.alts.iter().enumerate() {
            let prefix = match (&alt.mark, cur.steps) {
                (Some(m), _) => m.clone(),
                (None, 0) => String::new(),
                (None, _) => "-".into(),
            };
            let Some(value) = rest.strip_prefix(prefix.as_str()) else {
                continue;
            };
            match &alt.kind {
                AltKind::Cell { reg, set } => {
                    let Some((cell, _)) = g.parse_prefix(value) else {
                        continue;
                    };
                    let name = g.name(cell);
                    // The compiler moves parts of the `where` clause into the set; judge the
                    // set and the clause as written, so that each reason points at its text.
                    let (written, condition) = match &alt.written {
                        Some(w) => (&w.0, Some(&w.1)),
                        None => (set, alt.condition.as_ref()),
                    };
                    if !self.set_value(cur, written).contains(cell) {
                        reasons.push((
                            format!("{name} is not in the cells this option offers"),
                            alt.set_loc,
                        ));
                        continue;
                    }
                    let probe = Some((*reg, cell));
                    if let Some(cond) = condition {
                        if !self.cond_value(cur, cond, probe) {
                            reasons.push((
                                format!("for {name} this condition is false"),
                                alt.condition_loc,
                            ));
                            continue;
                        }
                    }
                    let game = &self.game;
                    let refused =
                        each_width!(&self.runner, k => Positions(k).refusal(game, cur, i, cell))?;
                    if let Some(loc) = refused {
                        reasons.push((
                            format!("after {name} this requirement does not hold"),
                            Some(loc),
                        ));
                    }
                }
                AltKind::Word(_) | AltKind::Pass => {
                    let word = match &alt.kind {
                        AltKind::Word(w) => w.as_str(),
                        _ => "pass",
                    };
                    if !value.starts_with(word) {
                        continue;
                    }
                    if let Some(cond) = &alt.condition {
                        if !self.cond_value(cur, cond, None) {
                            reasons.push((
                                format!("`{word}` is not allowed now: this condition is false"),
                                alt.condition_loc,
                            ));
                        }
                    }
                }
            }
        }
        if reasons.is_empty() {
            let what = match g
                .parse_prefix(rest.trim_start_matches(|ch: char| !ch.is_ascii_alphanumeric()))
            {
                None if rest
                    .chars()
                    .next()
                    .is_some_and(|ch| ch.is_ascii_lowercase())
                    && rest.len() <= 4 =>
                {
                    format!(
                    "`{rest}` is not a cell of this {} x {} board (columns a to {}, rows 1 to {})",
                    g.width,
                    g.height,
                    (b'a' + g.width as u8 - 1) as char,
                    g.height
                )
                }
                _ => format!("`{rest}` does not name any option of this step"),
            };
            let mut legal = Vec::new();
            let mut buf = Vec::new();
            self.steps(cur, &mut buf)?;
            legal.extend(buf.iter().map(|&st| self.step_notation(cur, st)));
            reasons.push((
                format!("{what}; legal here: {}", super::turns::abbreviate(&legal)),
                None,
            ));
        }
        Ok(reasons)
    }
}
