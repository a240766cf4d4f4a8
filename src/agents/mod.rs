//! Players that choose steps. Every decision is one step, so a long chain never has to be
//! enumerated as whole turns.

use crate::engine::state::State;
use crate::engine::{Engine, RuleError, Step};

use crate::engine::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a search handed `stop` should give up now.
fn stopped(stop: Option<&AtomicBool>) -> bool {
    stop.is_some_and(|s| s.load(Ordering::Relaxed))
}

/// A game longer than this is taken to be endless (rules without a reachable end).
pub const MAX_GAME_STEPS: u64 = 1_000_000;

/// The seed of game `index` of a series: independent of how games are spread over threads.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64()
}

/// Plays a whole game of uniform random steps; returns the final state and the number of steps.
pub fn random_game(
    engine: &Engine,
    start: &State,
    rng: &mut Rng,
) -> Result<(State, u64), RuleError> {
    let (s, plies) = engine.random_playout(start, rng, MAX_GAME_STEPS)?;
    if plies == MAX_GAME_STEPS && !s.is_over() {
        return Err(RuleError {
            message: format!("the game did not end within {MAX_GAME_STEPS} steps; do the end conditions ever hold?"),
            at: None,
            help: None,
            label: None,
        });
    }
    Ok((s, plies))
}

mod alphabeta;
mod greedy;
mod mcts;
pub mod search;

pub use alphabeta::{AlphaBeta, EXACT_EMPTIES, EXACT_STEP_EMPTIES};
pub use greedy::Greedy;
pub use mcts::{Budget, Mcts};

/// A player that decides one step at a time.
pub trait Agent: Send {
    /// How the agent is named on the command line and in records (`mcts:1000`).
    fn describe(&self) -> String;
    /// Picks one of `legal`, the legal steps at `s` (never empty; the caller has them already).
    fn choose(&mut self, engine: &Engine, s: &State, legal: &[Step]) -> Result<Step, RuleError>;
    /// As [`Agent::choose`], telling `watch` the step it would play if stopped, each time it
    /// learns more (for a display beside the wait), and giving up early, with the best step so
    /// far, when `stop` is set (within a playout, or a step searched at the root). Watching
    /// never changes the choice. Agents that decide at once report nothing and never stop.
    fn think(
        &mut self,
        engine: &Engine,
        s: &State,
        legal: &[Step],
        watch: &mut dyn FnMut(Thought),
        stop: Option<&AtomicBool>,
    ) -> Result<Step, RuleError> {
        let _ = (watch, stop);
        self.choose(engine, s, legal)
    }
    /// [`Agent::think`] watched, to the end.
    fn choose_watched(
        &mut self,
        engine: &Engine,
        s: &State,
        legal: &[Step],
        watch: &mut dyn FnMut(Thought),
    ) -> Result<Step, RuleError> {
        self.think(engine, s, legal, watch, None)
    }
    /// [`Agent::think`] until `stop` is set; `Ok(None)` when it was: a series stopped from the
    /// page or by Ctrl-C does not wait for a move that may take minutes.
    fn choose_unless_stopped(
        &mut self,
        engine: &Engine,
        s: &State,
        legal: &[Step],
        stop: &AtomicBool,
    ) -> Result<Option<Step>, RuleError> {
        let step = self.think(engine, s, legal, &mut |_| {}, Some(stop))?;
        Ok((!stopped(Some(stop))).then_some(step))
    }
}

/// The step an agent holds best while it is still choosing, and what it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thought {
    pub step: Step,
    pub basis: Basis,
}

/// What a [`Thought`] rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Basis {
    /// A search this many steps deep (complete, or under way with this step best so far),
    /// and the step's value for the mover as the search estimates it.
    Depth { depth: u32, value: f64 },
    /// Playouts run so far, and the mover's mean reward in those through the step (0 a sure
    /// loss, 1 a sure win).
    Playouts { playouts: u64, reward: f64 },
}

/// Uniform among the legal steps.
pub struct Random {
    rng: Rng,
}

impl Random {
    pub fn new(seed: u64) -> Random {
        Random {
            rng: Rng::new(seed),
        }
    }
}

impl Agent for Random {
    fn describe(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, _: &Engine, _: &State, legal: &[Step]) -> Result<Step, RuleError> {
        Ok(legal[self.rng.below(legal.len())])
    }
}

/// Builds an agent from its command-line name: `random`, `greedy`, `mcts[:N|:Nms]`,
/// `alphabeta[:DEPTH[:EXACT]]` (EXACT: the empty cells from which it solves exactly).
pub fn agent(spec: &str, seed: u64) -> Result<Box<dyn Agent>, String> {
    let (kind, arg) = match spec.split_once(':') {
        Some((k, a)) => (k, Some(a)),
        None => (spec, None),
    };
    let number = |a: &str, what: &str| -> Result<u64, String> {
        a.parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("`{spec}`: {what} must be a positive whole number"))
    };
    match (kind, arg) {
        ("random", None) => Ok(Box::new(Random::new(seed))),
        ("greedy", None) => Ok(Box::new(Greedy::new(seed))),
        ("mcts", None) => Ok(Box::new(Mcts::new(seed, Budget::Playouts(1000)))),
        ("mcts", Some(a)) => {
            let budget = match a.strip_suffix("ms") {
                Some(ms) => Budget::Millis(number(ms, "the time budget")?),
                None => Budget::Playouts(number(a, "the number of playouts")?),
            };
            Ok(Box::new(Mcts::new(seed, budget)))
        }
        ("alphabeta", None) => Ok(Box::new(AlphaBeta::new(seed, 4, None))),
        ("alphabeta", Some(a)) => {
            let (depth, exact) = match a.split_once(':') {
                Some((d, e)) => (d, Some(e)),
                None => (a, None),
            };
            let depth = number(depth, "the depth")?;
            if depth > 64 {
                return Err(format!("`{spec}`: a depth above 64 is not useful"));
            }
            let exact = match exact {
                None => None,
                Some(e) => Some(e.parse::<u32>().ok().filter(|&e| e <= 64).ok_or_else(|| {
                    format!("`{spec}`: the empty cells to solve from must be a whole number from 0 to 64")
                })?),
            };
            Ok(Box::new(AlphaBeta::new(seed, depth as u32, exact)))
        }
        (_, Some(_)) if ["random", "greedy"].contains(&kind) => Err(format!("`{spec}`: {kind} takes no setting")),
        _ => Err(format!(
            "unknown player `{spec}`; the players are random, greedy, mcts[:PLAYOUTS|:MSms], alphabeta[:DEPTH[:EXACT]]"
        )),
    }
}

/// Score of `p` minus the best of the other players', as the rules score the position now.
pub fn score_margin(engine: &Engine, s: &State, p: u8) -> f64 {
    engine.outcome(s, None).margin(p)
}

/// A finished game's value for `p`: far beyond any score margin, so a win is always preferred.
pub fn terminal_value(s: &State, p: u8) -> f64 {
    s.outcome
        .expect("terminal states have an outcome")
        .value_for(p)
}
