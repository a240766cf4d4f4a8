//! The exact value of a position with best play by both sides: alpha-beta over the whole game
//! tree with a transposition table. For small boards only; the tree grows exponentially.

use crate::engine::state::{State, StateKey};
use crate::engine::{Engine, RuleError, Step};
use crate::ir::NOBODY;
use std::collections::HashMap;

/// The result with best play.
pub struct Solution {
    /// The line of best play, in steps, and the position it ends in.
    pub line: Vec<(State, Step)>,
    pub end: State,
    /// Positions searched.
    pub nodes: u64,
}

#[derive(Clone, Copy)]
struct Entry {
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

/// Table size at which it is cleared (bounds memory; costs only repeated work).
const MAX_ENTRIES: usize = 1 << 23;

/// A finished game's value for `p`: the result first, then the score margin.
fn final_value(s: &State, p: u8) -> f64 {
    let o = s.outcome.expect("only finished games are valued");
    let margin = o.scores[p as usize] - o.scores[1 - p as usize];
    let result = match o.winner {
        w if w == p => 1.0,
        NOBODY => 0.0,
        _ => -1.0,
    };
    result * 1e6 + margin
}

struct Solver<'a> {
    engine: &'a Engine,
    table: HashMap<StateKey, Entry>,
    nodes: u64,
}

impl Solver<'_> {
    /// The value of `s` for its mover, exact when it lies inside (alpha, beta).
    fn search(&mut self, s: &State, mut alpha: f64, beta: f64) -> Result<f64, RuleError> {
        self.nodes += 1;
        if s.is_over() {
            return Ok(final_value(s, s.mover));
        }
        let key = s.key();
        let mut first = None;
        if let Some(e) = self.table.get(&key) {
            match e.bound {
                Bound::Exact => return Ok(e.value),
                Bound::Lower if e.value >= beta => return Ok(e.value),
                Bound::Upper if e.value <= alpha => return Ok(e.value),
                _ => {}
            }
            first = e.best;
        }
        let mut steps = Vec::new();
        self.engine.steps(s, &mut steps)?;
        if let Some(b) = first {
            if let Some(i) = steps.iter().position(|&x| x == b) {
                steps.swap(0, i);
            }
        }
        let alpha0 = alpha;
        let mut best = f64::NEG_INFINITY;
        let mut best_step = None;
        for step in steps {
            let t = self.engine.apply(s, step)?;
            let v = if t.is_over() {
                final_value(&t, s.mover)
            } else if t.mover == s.mover {
                self.search(&t, alpha, beta)?
            } else {
                -self.search(&t, -beta, -alpha)?
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
                value: best,
                bound,
                best: best_step,
            },
        );
        Ok(best)
    }
}

/// Solves `s`: best play for both sides to the end of the game.
pub fn solve(engine: &Engine, s: &State) -> Result<Solution, RuleError> {
    let mut solver = Solver {
        engine,
        table: HashMap::new(),
        nodes: 0,
    };
    let mut line = Vec::new();
    let mut cur = *s;
    // At each position of the best line, pick a step whose exact value equals the position's.
    while !cur.is_over() {
        let value = solver.search(&cur, f64::NEG_INFINITY, f64::INFINITY)?;
        let mut steps = Vec::new();
        engine.steps(&cur, &mut steps)?;
        let mut chosen = None;
        for step in steps {
            let t = engine.apply(&cur, step)?;
            let v = if t.is_over() {
                final_value(&t, cur.mover)
            } else if t.mover == cur.mover {
                solver.search(&t, f64::NEG_INFINITY, f64::INFINITY)?
            } else {
                -solver.search(&t, f64::NEG_INFINITY, f64::INFINITY)?
            };
            if v == value {
                chosen = Some((step, t));
                break;
            }
        }
        let (step, t) = chosen.expect("some step achieves the position's value");
        line.push((cur, step));
        cur = t;
    }
    Ok(Solution {
        line,
        end: cur,
        nodes: solver.nodes,
    })
}
