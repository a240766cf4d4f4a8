//! Negamax over steps with alpha-beta and a transposition table, shared by the alphabeta player
//! (a depth limit and an evaluation at the horizon) and the solver (to the end of the game). A
//! turn of several steps is searched step by step: a value changes sign only when the mover does.
//!
//! With more than two players the search is paranoid: the player it searches for (the root)
//! assumes every other player plays against it, as one side. A value is then the root's for
//! the root's positions and its negation for the others', so negamax carries over unchanged,
//! with the sign changing only when play passes between the root and the others.

use crate::engine::hash::PositionMap;
use crate::engine::state::{State, StateKey};
use crate::engine::{Engine, RuleError, Step};

/// Steps one line of the search may take below its root (see [`Search::node`]).
const MAX_SEARCH_STEPS: usize = 20_000;

/// A position's value for a player at the search horizon.
pub type Evaluate = fn(&Engine, &State, u8) -> Result<f64, RuleError>;

/// Bytes of one table entry, its key included (for sizing the table to a memory budget).
pub const ENTRY_BYTES: usize = std::mem::size_of::<(StateKey, Entry)>();

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
    /// Per distance from the search's root, the last two steps that cut a search off there:
    /// a step that refutes one sibling usually refutes the next (on a Go board, the same
    /// answer works against most of the 361 placements).
    killers: Vec<[Option<Step>; 2]>,
    /// How much searching each step's cut-offs have saved, anywhere in the tree: orders the
    /// steps the table and the killers say nothing about.
    history: PositionMap<Step, u64>,
    /// Positions searched.
    pub nodes: u64,
    /// The player searched for, in games of more than two players (see the module's notes).
    root: u8,
}

impl Search {
    /// `max_entries` bounds the table's memory (it is cleared when full; that only costs work).
    pub fn new(evaluate: Evaluate, max_entries: usize) -> Search {
        Search {
            table: PositionMap::default(),
            max_entries,
            evaluate,
            killers: Vec::new(),
            history: PositionMap::default(),
            nodes: 0,
            root: 0,
        }
    }

    /// Searches for `player` from now on. With two players a value is its mover's whoever
    /// searches, so the table stays; with more, what it knows was for another root.
    pub fn search_for(&mut self, engine: &Engine, player: u8) {
        if engine.game.player_count() > 2 && player != self.root {
            self.table.clear();
        }
        self.root = player;
    }

    /// Whether `a` and `b` are on one side: both the root or both among the others (with two
    /// players: the same player).
    fn same_side(&self, a: u8, b: u8) -> bool {
        (a == self.root) == (b == self.root)
    }

    /// What a value for the root is worth to `p` (with two players the values are exactly
    /// opposite, so this is `p`'s own value).
    fn for_player(&self, p: u8, root_value: f64) -> f64 {
        if self.same_side(p, self.root) {
            root_value
        } else {
            -root_value
        }
    }

    /// A finished game's value for `p`.
    fn terminal(&self, s: &State, p: u8) -> f64 {
        let outcome = s.outcome.expect("terminal states have an outcome");
        self.for_player(p, outcome.value_for(self.root))
    }

    /// The horizon's value of `s` for its mover.
    fn horizon(&self, engine: &Engine, s: &State) -> Result<f64, RuleError> {
        let v = (self.evaluate)(engine, s, self.root)?;
        Ok(self.for_player(s.mover, v))
    }

    /// Puts the steps likeliest to cut first: the table's best step, then this distance's
    /// killers, then the rest by history (a stable sort keeps the rules' order among equals).
    fn order(&self, steps: &mut [Step], first: Option<Step>, ply: usize) {
        let killers = self.killers.get(ply).copied().unwrap_or_default();
        let rank = |step: &Step| {
            if Some(*step) == first {
                u64::MAX
            } else if Some(*step) == killers[0] {
                u64::MAX - 1
            } else if Some(*step) == killers[1] {
                u64::MAX - 2
            } else {
                self.history.get(step).copied().unwrap_or(0)
            }
        };
        steps.sort_by_cached_key(|step| std::cmp::Reverse(rank(step)));
    }

    /// Notes that `step` cut the search off at distance `ply` with `depth` steps left.
    fn record_cut(&mut self, step: Step, ply: usize, depth: Option<u32>) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(step) {
            k[1] = k[0];
            k[0] = Some(step);
        }
        // A cut high in the tree saved far more work than one at the horizon.
        let d = u64::from(depth.unwrap_or(32).min(32));
        *self.history.entry(step).or_insert(0) += d * d;
    }

    /// The value of `s` for its mover, exact when it lies inside (alpha, beta). `depth`: steps
    /// left before evaluating, or None to search to the end of the game.
    pub fn value(
        &mut self,
        engine: &Engine,
        s: &State,
        depth: Option<u32>,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, RuleError> {
        self.node(engine, s, depth, alpha, beta, 0)
    }

    /// [`Search::value`] at `ply` steps below the search's root.
    fn node(
        &mut self,
        engine: &Engine,
        s: &State,
        depth: Option<u32>,
        mut alpha: f64,
        beta: f64,
        ply: usize,
    ) -> Result<f64, RuleError> {
        self.nodes += 1;
        if s.is_over() {
            return Ok(self.terminal(s, s.mover));
        }
        // Positions count their turn, so a line never repeats one: a game that need not end
        // would recurse until the stack ran out.
        if ply > MAX_SEARCH_STEPS {
            return Err(RuleError::endless_game(
                &engine.game,
                format!(
                    "a line of play went {MAX_SEARCH_STEPS} steps without the game ending; the search needs a game that always ends"
                ),
            ));
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
            return self.horizon(engine, s);
        }
        let mut steps = Vec::new();
        engine.steps(s, &mut steps)?;
        self.order(&mut steps, first, ply);
        let child_depth = depth.map(|d| d - 1);
        let alpha0 = alpha;
        let (mut best, mut best_step) = (f64::NEG_INFINITY, None);
        for step in steps {
            let t = engine.apply(s, step)?;
            let v = if t.is_over() {
                self.terminal(&t, s.mover)
            } else if self.same_side(t.mover, s.mover) {
                self.node(engine, &t, child_depth, alpha, beta, ply + 1)?
            } else {
                -self.node(engine, &t, child_depth, -beta, -alpha, ply + 1)?
            };
            if v > best {
                best = v;
                best_step = Some(step);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.record_cut(step, ply, depth);
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
            self.terminal(&t, s.mover)
        } else if self.same_side(t.mover, s.mover) {
            self.value(engine, &t, rest, alpha, beta)?
        } else {
            -self.value(engine, &t, rest, -beta, -alpha)?
        };
        Ok((v, t))
    }
}
