//! Why a move is legal or not, in terms of the rules' own text: which option allows a step, or
//! for each option, what excludes the step (its candidate set, its `where`, a `require`).

use super::face::Engine;
use super::runner::each_width;
use super::runner::positions::Positions;
use super::state::{State, AT_FORCED_PASS, AT_GAME_OVER};
use super::step::{RuleError, FORCED_PASS};
use crate::ir::{AltKind, Loc};

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
