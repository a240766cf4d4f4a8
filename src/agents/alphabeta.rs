//! Iterative-deepening alpha-beta over steps, with a transposition table. A turn of several
//! steps is searched step by step; the sign of a value changes only when the mover changes.

use super::{score_margin, terminal_value, Agent, Rng};
use crate::engine::state::{State, StateKey};
use crate::engine::{Engine, RuleError, Step};
use std::collections::HashMap;

pub struct AlphaBeta {
    depth: u32,
    rng: Rng,
    table: HashMap<StateKey, Entry>,
}

#[derive(Clone, Copy)]
struct Entry {
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

/// Table entries kept before the table is cleared (memory bound).
const MAX_ENTRIES: usize = 1 << 20;

impl AlphaBeta {
    pub fn new(seed: u64, depth: u32) -> AlphaBeta {
        AlphaBeta {
            depth,
            rng: Rng::new(seed),
            table: HashMap::new(),
        }
    }

    /// Position value for the player to move: the score margin plus the mobility margin (first
    /// steps available to each side), which says more than the score early in most games.
    fn evaluate(engine: &Engine, s: &State, steps: usize) -> Result<f64, RuleError> {
        let mine = if s.steps == 0 {
            steps
        } else {
            engine.first_steps(s, s.mover)?
        };
        let theirs = engine.first_steps(s, 1 - s.mover)?;
        Ok(score_margin(engine, s, s.mover) + mine as f64 - theirs as f64)
    }

    fn search(
        &mut self,
        engine: &Engine,
        s: &State,
        depth: u32,
        mut alpha: f64,
        beta: f64,
    ) -> Result<f64, RuleError> {
        if s.is_over() {
            return Ok(terminal_value(s, s.mover));
        }
        let key = s.key();
        let mut first = None;
        if let Some(e) = self.table.get(&key) {
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return Ok(e.value),
                    Bound::Lower if e.value >= beta => return Ok(e.value),
                    Bound::Upper if e.value <= alpha => return Ok(e.value),
                    _ => {}
                }
            }
            first = e.best;
        }
        let mut steps = Vec::new();
        engine.steps(s, &mut steps)?;
        if depth == 0 {
            return Self::evaluate(engine, s, steps.len());
        }
        // The table's best step first: it usually cuts the rest.
        if let Some(b) = first {
            if let Some(i) = steps.iter().position(|&x| x == b) {
                steps.swap(0, i);
            }
        }
        let alpha0 = alpha;
        let mut best = f64::NEG_INFINITY;
        let mut best_step = None;
        for step in steps {
            let t = engine.apply(s, step)?;
            let v = if t.mover == s.mover && !t.is_over() {
                self.search(engine, &t, depth - 1, alpha, beta)?
            } else if t.is_over() {
                terminal_value(&t, s.mover)
            } else {
                -self.search(engine, &t, depth - 1, -beta, -alpha)?
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
        if self.table.len() >= MAX_ENTRIES {
            self.table.clear();
        }
        self.table.insert(
            key,
            Entry {
                depth,
                value: best,
                bound,
                best: best_step,
            },
        );
        Ok(best)
    }
}

impl Agent for AlphaBeta {
    fn describe(&self) -> String {
        format!("alphabeta:{}", self.depth)
    }

    fn choose(&mut self, engine: &Engine, s: &State, legal: &[Step]) -> Result<Step, RuleError> {
        let steps = legal;
        if steps.len() == 1 {
            return Ok(steps[0]);
        }
        let mut values = vec![0.0; steps.len()];
        for depth in 1..=self.depth {
            for (i, &step) in steps.iter().enumerate() {
                let t = engine.apply(s, step)?;
                values[i] = if t.is_over() {
                    terminal_value(&t, s.mover)
                } else if t.mover == s.mover {
                    self.search(engine, &t, depth - 1, f64::NEG_INFINITY, f64::INFINITY)?
                } else {
                    -self.search(engine, &t, depth - 1, f64::NEG_INFINITY, f64::INFINITY)?
                };
            }
        }
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<Step> = steps
            .iter()
            .zip(&values)
            .filter(|(_, &v)| v == best)
            .map(|(&st, _)| st)
            .collect();
        Ok(ties[self.rng.below(ties.len())])
    }
}
