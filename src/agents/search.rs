//! Negamax over steps with alpha-beta and a transposition table, shared by the alphabeta player
//! (a depth limit and an evaluation at the horizon) and the solver (to the end of the game). A
//! turn of several steps is searched step by step: a value changes sign only when the mover does.

use super::terminal_value;
use crate::engine::hash::PositionMap;
use crate::engine::state::{State, StateKey};
use crate::engine::{Engine, RuleError, Step};

/// A position's value for its mover at the search horizon.
pub type Evaluate = fn(&Engine, &State) -> Result<f64, RuleError>;

#[derive(Clone, Copy)]
struct Entry {
    /// Remaining depth the value was searched to (`u32::MAX`: to the end of the game).
    depth: u32,
    value: f64,
    bound: Bound,
    best: Option<Step>,
}

#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

pub struct Search {
    table: PositionMap<StateKey, Entry>,
    max_entries: usize,
    evaluate: Evaluate,
    /// Positions searched.
    pub nodes: u64,
}

impl Search {
    /// `max_entries` bounds the table's memory (it is cleared when full; that only costs work).
    pub fn new(evaluate: Evaluate, max_entries: usize) -> Search {
        Search {
            table: PositionMap::default(),
            max_entries,
            evaluate,
            nodes: 0,
        }
    }

    /// The value of `s` for its mover, exact when it lies inside (alpha, beta). `depth`: steps
    /// left before evaluating, or None to search to the end of the game.
    pub fn value(
        &mut self,
        engine: &Engine,
        s: &State,
        depth: Option<u32>,
        mut alpha: f64,
        beta: f64,
    ) -> Result<f64, RuleError> {
        self.nodes += 1;
        if s.is_over() {
            return Ok(terminal_value(s, s.mover));
        }
        let depth_key = depth.unwrap_or(u32::MAX);
        let key = s.key();
        let mut first = None;
        if let Some(e) = self.table.get(&key) {
            if e.depth >= depth_key {
                match e.bound {
                    Bound::Exact => return Ok(e.value),
                    Bound::Lower if e.value >= beta => return Ok(e.value),
                    Bound::Upper if e.value <= alpha => return Ok(e.value),
                    _ => {}
                }
            }
            first = e.best;
        }
        // At the horizon before listing the steps: listing tries each one's `require`,
        // which costs more than the evaluation itself (hundreds of trials on a Go board).
        if depth == Some(0) {
            return (self.evaluate)(engine, s);
        }
        let mut steps = Vec::new();
        engine.steps(s, &mut steps)?;
        // The table's best step first: it usually cuts the rest.
        if let Some(b) = first {
            if let Some(i) = steps.iter().position(|&x| x == b) {
                steps.swap(0, i);
            }
        }
        let child_depth = depth.map(|d| d - 1);
        let alpha0 = alpha;
        let (mut best, mut best_step) = (f64::NEG_INFINITY, None);
        for step in steps {
            let t = engine.apply(s, step)?;
            let v = if t.is_over() {
                terminal_value(&t, s.mover)
            } else if t.mover == s.mover {
                self.value(engine, &t, child_depth, alpha, beta)?
            } else {
                -self.value(engine, &t, child_depth, -beta, -alpha)?
            };
            if v > best {
                best = v;
                best_step = Some(step);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= self.max_entries {
            self.table.clear();
        }
        self.table.insert(
            key,
            Entry {
                depth: depth_key,
                value: best,
                bound,
                best: best_step,
            },
        );
        Ok(best)
    }

    /// The exact value of playing `step` at `s`, for the player to move at `s`, and the state
    /// after it. `depth` counts the step itself.
    pub fn step_value(
        &mut self,
        engine: &Engine,
        s: &State,
        step: Step,
        depth: Option<u32>,
    ) -> Result<(f64, State), RuleError> {
        self.step_value_within(engine, s, step, depth, f64::NEG_INFINITY, f64::INFINITY)
    }

    /// [`Search::step_value`] inside the window (alpha, beta) of the player to move at `s`:
    /// exact inside it, a bound on the side it falls outside.
    pub fn step_value_within(
        &mut self,
        engine: &Engine,
        s: &State,
        step: Step,
        depth: Option<u32>,
        alpha: f64,
        beta: f64,
    ) -> Result<(f64, State), RuleError> {
        let t = engine.apply(s, step)?;
        let rest = depth.map(|d| d.saturating_sub(1));
        let v = if t.is_over() {
            terminal_value(&t, s.mover)
        } else if t.mover == s.mover {
            self.value(engine, &t, rest, alpha, beta)?
        } else {
            -self.value(engine, &t, rest, -beta, -alpha)?
        };
        Ok((v, t))
    }
}
