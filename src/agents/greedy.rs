//! The best immediate score change: each step is judged by the score margin right after it.

use super::{score_margin, terminal_value, Agent};
use crate::engine::rng::Rng;
use crate::engine::state::State;
use crate::engine::{Engine, RuleError, Step};

pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::new(seed),
        }
    }
}

impl Agent for Greedy {
    fn describe(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, engine: &Engine, s: &State, legal: &[Step]) -> Result<Step, RuleError> {
        let me = s.mover;
        let mut best: Vec<Step> = Vec::new();
        let mut best_value = f64::NEG_INFINITY;
        for &step in legal {
            let t = engine.apply(s, step)?;
            let v = if t.is_over() {
                terminal_value(&t, me)
            } else {
                score_margin(engine, &t, me)
            };
            if v > best_value {
                best_value = v;
                best.clear();
            }
            if v == best_value {
                best.push(step);
            }
        }
        // Equal steps are told apart by the seed, so games differ but repeat exactly.
        Ok(best[self.rng.below(best.len())])
    }
}
