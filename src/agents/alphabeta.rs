//! Iterative-deepening alpha-beta over steps, with a transposition table. A turn of several
//! steps is searched step by step; the sign of a value changes only when the mover changes.

use super::search::Search;
use super::{score_margin, Agent, Rng};
use crate::engine::state::State;
use crate::engine::{Engine, RuleError, Step};

pub struct AlphaBeta {
    depth: u32,
    rng: Rng,
    search: Search,
}

/// Table entries kept before the table is cleared (memory bound).
const MAX_ENTRIES: usize = 1 << 20;

impl AlphaBeta {
    pub fn new(seed: u64, depth: u32) -> AlphaBeta {
        AlphaBeta {
            depth,
            rng: Rng::new(seed),
            search: Search::new(Self::evaluate, MAX_ENTRIES),
        }
    }

    /// Position value for the player to move: the score margin plus the mobility margin (first
    /// steps available to each side), which says more than the score early in most games, plus
    /// the tie-break margins at falling weights (the rules' tie-breaks decide close games).
    fn evaluate(engine: &Engine, s: &State, steps: usize) -> Result<f64, RuleError> {
        let mine = if s.steps == 0 {
            steps
        } else {
            engine.first_steps(s, s.mover)?
        };
        let theirs = engine.first_steps(s, 1 - s.mover)?;
        Ok(
            score_margin(engine, s, s.mover) + engine.tiebreak_margin(s, s.mover) + mine as f64
                - theirs as f64,
        )
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
        // Iterative deepening: shallower searches fill the table that orders the deeper ones.
        let mut values = vec![0.0; steps.len()];
        for depth in 1..=self.depth {
            for (i, &step) in steps.iter().enumerate() {
                values[i] = self.search.step_value(engine, s, step, Some(depth))?.0;
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
