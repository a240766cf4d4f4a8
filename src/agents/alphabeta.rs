//! Iterative-deepening alpha-beta over steps, with a transposition table. A turn of several
//! steps is searched step by step; the sign of a value changes only when the mover changes.

use super::search::{Budget, Search};
use super::{score_margin, stopped, Agent, Basis, Thought};
use crate::engine::negamax::Question;
use crate::engine::rng::Rng;
use crate::engine::solving::search::Table;
use crate::engine::state::State;
use crate::engine::{Engine, RuleError, Step};
use std::sync::atomic::AtomicBool;

pub struct AlphaBeta {
    depth: u32,
    /// Empty cells from which the player solves the position exactly (0: never); None for
    /// the defaults, [`EXACT_EMPTIES`] or [`EXACT_STEP_EMPTIES`] by the game.
    exact: Option<u32>,
    rng: Rng,
    search: Search,
    /// The solver's table, made at the first exact decision.
    solved: Option<Table>,
}

/// By default the player solves exactly from this many empty cells on, in games whose every
/// turn fills one (see [`Engine::runner_is_direct`]): on an 8x8 board such a solve takes
/// milliseconds, and the game's end is then played perfectly.
pub const EXACT_EMPTIES: u32 = 12;

/// In the other games (turns of several steps, or rules the runner's solver does not take),
/// the player tries to solve from this many empty cells on, a step at a time (the runner's
/// solver takes whole turns too since 2026-12-05; the player does not use it there yet), within
/// `EXACT_STEP_POSITIONS`: fewer than in direct games, because a tree of steps is wider and
/// each of its positions dearer (docs/PLAYERS.md measures the choice on Verto).
pub const EXACT_STEP_EMPTIES: u32 = 8;

/// The positions a solve a step at a time may expand before the player gives it up for its
/// usual search: tens of milliseconds, so that a game whose end is near in cells but far in
/// steps (or that need not end) loses little.
const EXACT_STEP_POSITIONS: u64 = 50_000;

/// The most memory the solver's table may take.
const SOLVED_BYTES: usize = 64 << 20;

/// How quickly the secondary terms of the evaluation approach their bound of one point.
const SOFTNESS: f64 = 8.0;

/// The most memory the table may take. A position's key holds a set for every possible
/// player, so the bound is in bytes, not in entries.
const TABLE_BYTES: usize = 256 << 20;

impl AlphaBeta {
    /// A player searching `depth` steps ahead, and to the end of the game from `exact` empty
    /// cells on.
    pub fn new(seed: u64, depth: u32, exact: Option<u32>) -> AlphaBeta {
        AlphaBeta {
            depth,
            exact,
            rng: Rng::new(seed),
            search: Search::new(Self::evaluate, TABLE_BYTES),
            solved: None,
        }
    }

    /// The step with the best exact value among `steps`, tried in `order`; None where the
    /// runner's solver does not take the position.
    fn exact_choice(
        &mut self,
        engine: &Engine,
        s: &State,
        steps: &[Step],
        order: &[usize],
    ) -> Result<Option<usize>, RuleError> {
        let table = self
            .solved
            .get_or_insert_with(|| Table::within(SOLVED_BYTES));
        table.new_search();
        let mut best = (f64::NEG_INFINITY, None);
        for &i in order {
            let t = engine.apply(s, steps[i])?;
            let v = if let Some(o) = t.outcome {
                o.value_for(s.mover)
            } else {
                // Only whether the step beats the best so far: an empty window above it.
                let same = t.mover == s.mover;
                let window = if same {
                    Question::Within(best.0, f64::INFINITY)
                } else {
                    Question::Within(f64::NEG_INFINITY, -best.0)
                };
                let Some(v) = engine.runner_value(&t, table, window)? else {
                    return Ok(None);
                };
                if same {
                    v
                } else {
                    -v
                }
            };
            if v > best.0 {
                best = (v, Some(i));
            }
        }
        Ok(best.1)
    }

    /// [`AlphaBeta::exact_choice`] for the games that are not direct: the
    /// engine's search a step at a time, to the end of the game, sharing the player's table.
    /// None when it would take more than [`EXACT_STEP_POSITIONS`] positions, or a line longer
    /// than a few steps per empty cell.
    fn exact_step_choice(
        &mut self,
        engine: &Engine,
        s: &State,
        steps: &[Step],
        order: &[usize],
        empties: usize,
    ) -> Result<Option<usize>, RuleError> {
        let mut budget = Budget {
            positions: EXACT_STEP_POSITIONS,
            line: 4 * empties + 8,
        };
        let mut best = (f64::NEG_INFINITY, None);
        for &i in order {
            // Only whether the step beats the best so far, as in the usual search.
            let Some(v) = self.search.step_value_within_budget(
                engine,
                s,
                steps[i],
                best.0,
                f64::INFINITY,
                &mut budget,
            )?
            else {
                return Ok(None);
            };
            if v > best.0 {
                best = (v, Some(i));
            }
        }
        Ok(best.1)
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
        match self.exact {
            None => format!("alphabeta:{}", self.depth),
            Some(e) => format!("alphabeta:{}:{e}", self.depth),
        }
    }

    fn choose(&mut self, engine: &Engine, s: &State, legal: &[Step]) -> Result<Step, RuleError> {
        self.think(engine, s, legal, &mut |_| {}, None)
    }

    /// Iterative deepening; when `stop` is set, before the next step at the root, so that one
    /// step's search is what a stop waits for. The exact searches do not look at `stop`: their
    /// budgets keep them to milliseconds.
    fn think(
        &mut self,
        engine: &Engine,
        s: &State,
        legal: &[Step],
        watch: &mut dyn FnMut(Thought),
        stop: Option<&AtomicBool>,
    ) -> Result<Step, RuleError> {
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
        let playable = &engine.game.geometry.playable;
        let empties = playable.iter().filter(|&c| s.owner(c).is_none()).count();
        if engine.runner_is_direct() && engine.runner_searches() {
            if empties <= self.exact.unwrap_or(EXACT_EMPTIES) as usize {
                if let Some(i) = self.exact_choice(engine, s, steps, &order)? {
                    return Ok(steps[i]);
                }
            }
        } else if empties <= self.exact.unwrap_or(EXACT_STEP_EMPTIES) as usize {
            if let Some(i) = self.exact_step_choice(engine, s, steps, &order, empties)? {
                return Ok(steps[i]);
            }
        }
        // Iterative deepening: shallower searches fill the table that orders the deeper ones,
        // and each depth tries the steps in the order the last one ranked them.
        let mut values = vec![0.0; steps.len()];
        let mut chosen = order[0];
        for depth in 1..=self.depth {
            let mut best = f64::NEG_INFINITY;
            for &i in &order {
                if stopped(stop) {
                    return Ok(steps[chosen]);
                }
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
                    watch(Thought {
                        step: steps[i],
                        basis: Basis::Depth { depth, value: best },
                    });
                }
            }
            // Stable: the chosen step stays ahead of later ones that only reported its value
            // as their bound.
            order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        }
        Ok(steps[chosen])
    }
}
