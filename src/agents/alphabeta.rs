//! Iterative-deepening alpha-beta over steps, with a transposition table. A turn of several
//! steps is searched step by step; the sign of a value changes only when the mover changes.

use super::search::Search;
use super::{score_margin, Agent};
use crate::engine::rng::Rng;
use crate::engine::state::State;
use crate::engine::{Engine, RuleError, Step};

pub struct AlphaBeta {
    depth: u32,
    rng: Rng,
    search: Search,
}

/// How quickly the secondary terms of the evaluation approach their bound of one point.
const SOFTNESS: f64 = 8.0;

/// The most memory the table may take. A position's key holds a set for every possible
/// player, so the bound is in bytes, not in entries.
const TABLE_BYTES: usize = 256 << 20;

impl AlphaBeta {
    pub fn new(seed: u64, depth: u32) -> AlphaBeta {
        AlphaBeta {
            depth,
            rng: Rng::new(seed),
            search: Search::new(Self::evaluate, TABLE_BYTES),
        }
    }

    /// Positions searched so far, over every decision (for measuring the search).
    pub fn nodes(&self) -> u64 {
        self.search.nodes()
    }

    /// Position value for the player to move: the score margin first; then, worth less than
    /// one point of score together, the tie-break margins at falling weights (tie-breaks decide
    /// close games) and the mobility margin (the first steps each side could start, counted
    /// without trying their bodies: cheap, and the same count where no `require` can refuse),
    /// which says more than the score early in most games. Bounding them keeps a search from
    /// giving up score for cells or mobility where the score is small beside them (a game that
    /// scores four corners against dozens of cells).
    /// With more than two players, the margins are over the best of the others.
    fn evaluate(engine: &Engine, s: &State, p: u8) -> Result<f64, RuleError> {
        let mine = engine.first_candidates(s, p)?;
        let mut theirs = 0;
        for q in (0..engine.game.player_count()).filter(|&q| q != p) {
            theirs = theirs.max(engine.first_candidates(s, q)?);
        }
        let secondary = engine.tiebreak_margin(s, p) + mine as f64 - theirs as f64;
        Ok(score_margin(engine, s, p) + secondary / (secondary.abs() + SOFTNESS))
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
        self.search.search_for(engine, s.mover);
        // Ties go to the step searched first, in an order the seed shuffles. Asking which of
        // the tied steps are tied would cost a full search of every one of them: on a Go
        // board, where hundreds of first placements are worth the same, that made depth 4
        // hundreds of times dearer than a search that only asks "is this step better?".
        let mut order: Vec<usize> = (0..steps.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, self.rng.below(i + 1));
        }
        // Iterative deepening: shallower searches fill the table that orders the deeper ones,
        // and each depth tries the steps in the order the last one ranked them.
        let mut values = vec![0.0; steps.len()];
        let mut chosen = order[0];
        for depth in 1..=self.depth {
            let mut best = f64::NEG_INFINITY;
            for &i in &order {
                // The first step gets its exact value; the others only need to say whether
                // they beat it (a step that does not reports a bound at most the best).
                values[i] = self.search.step_value_within(
                    engine,
                    s,
                    steps[i],
                    Some(depth),
                    best,
                    f64::INFINITY,
                )?;
                if values[i] > best {
                    best = values[i];
                    chosen = i;
                }
            }
            // Stable: the chosen step stays ahead of later ones that only reported its value
            // as their bound.
            order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        }
        Ok(steps[chosen])
    }
}
