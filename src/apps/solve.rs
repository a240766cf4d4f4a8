//! The exact value of a position with best play by both sides: the one search
//! ([`crate::engine::negamax`]) over the whole game tree. For small boards only; the tree
//! grows exponentially.

use crate::agents::search::{on_one_side, terminal, Search};
use crate::engine::kernel::search::Table;
use crate::engine::negamax::{next_down, next_up, Watch};
use crate::engine::state::State;
use crate::engine::{Engine, RuleError, Step};

/// The result with best play.
pub struct Solution {
    /// The line of best play, in steps, and the position it ends in.
    pub line: Vec<(State, Step)>,
    pub end: State,
    /// Positions searched.
    pub nodes: u64,
}

/// Memory the solver's table may take unless told otherwise: 1 GB.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// Never called: the solver searches to the end of the game.
fn no_horizon(engine: &Engine, s: &State, p: u8) -> Result<f64, RuleError> {
    Ok(crate::agents::score_margin(engine, s, p))
}

/// The tree the solver searches: the runner's states a turn at a time where every turn is one
/// placement (the faster), else the engine's states a step at a time.
enum Solver {
    Turns(Table),
    Steps(Search),
}

impl Solver {
    /// The value of `s` for its mover: exact without a window; with one, exact inside it and a
    /// bound on the side it falls outside. None when the runner's search cannot take `s`.
    fn value(
        &mut self,
        engine: &Engine,
        s: &State,
        window: Option<(f64, f64)>,
    ) -> Result<Option<f64>, RuleError> {
        match (self, window) {
            (Solver::Turns(table), _) => engine.kernel_value(s, table, window),
            (Solver::Steps(search), None) => search.exact_value(engine, s).map(Some),
            (Solver::Steps(search), Some((alpha, beta))) => {
                search.value(engine, s, None, alpha, beta).map(Some)
            }
        }
    }

    /// Puts `steps`, the moves of `s`, in the order the line tries them: the runner's solver's
    /// own order where it takes `s` (ties, and moves it does not rank, in the rules' order),
    /// else the rules' order. The solver's order puts first the move its table holds, which
    /// mostly keeps the value, so that few moves must be shown to lose more (on Othello 6x6
    /// from the start the line then takes 0.6 M positions instead of 137 M). Where
    /// threads shared the table it reads nothing of it but the judge, which is the same each
    /// run: a solve on one thread finds the same line each run, and so do solves on several,
    /// whatever their number (the two lines are best ones, not always the same).
    fn order(&self, engine: &Engine, s: &State, steps: &mut [Step]) -> Result<(), RuleError> {
        if let Solver::Turns(table) = self {
            if let Some(ranks) = engine.kernel_ranks(s, table)? {
                let rank = |step: &Step| {
                    ranks
                        .iter()
                        .find(|&&(_, cell)| cell == usize::from(step.value))
                        .map_or(u64::MAX, |&(rank, _)| rank)
                };
                steps.sort_by_cached_key(rank);
            }
        }
        Ok(())
    }

    fn nodes(&self) -> u64 {
        match self {
            Solver::Turns(table) => table.nodes,
            Solver::Steps(search) => search.nodes(),
        }
    }
}

/// Solves `s`: best play for both sides to the end of the game, on one thread.
/// The table takes at most `memory` bytes.
pub fn solve(engine: &Engine, s: &State, memory: usize) -> Result<Solution, RuleError> {
    solve_watched(engine, s, memory, 1, || None)
}

/// [`solve`] on `jobs` threads where the game is searched a turn at a time and the solve is
/// long enough (the value and the line are the same whatever `jobs`; the positions searched
/// are not), telling a watch made by `watch` how it goes: the positions searched, the
/// samples solved while the solver learns its move order, and the bounds on the value of `s`
/// as they close in.
pub fn solve_watched(
    engine: &Engine,
    s: &State,
    memory: usize,
    jobs: usize,
    watch: impl Fn() -> Option<Box<dyn Watch>>,
) -> Result<Solution, RuleError> {
    let mut table = Table::within_jobs(memory, jobs);
    if let Some(w) = watch() {
        table.watch(w);
    }
    if let Some(solution) = best_line(engine, s, Solver::Turns(table))? {
        return Ok(solution);
    }
    let mut search = Search::new(no_horizon, memory);
    if let Some(w) = watch() {
        search.watch(w);
    }
    search.search_for(engine, s.mover);
    let solution = best_line(engine, s, Solver::Steps(search))?;
    Ok(solution.expect("the engine's search takes every position"))
}

/// The line of best play from `s`, found with `solver`; None when it cannot take a position.
/// With more than two players the search is paranoid, for the player to move at `s`.
fn best_line(
    engine: &Engine,
    s: &State,
    mut solver: Solver,
) -> Result<Option<Solution>, RuleError> {
    let root = s.mover;
    let mut line = Vec::new();
    let mut cur = *s;
    let mut steps = Vec::new();
    if !cur.is_over() {
        let Some(mut value) = solver.value(engine, &cur, None)? else {
            return Ok(None);
        };
        while !cur.is_over() {
            engine.steps(&cur, &mut steps)?;
            solver.order(engine, &cur, &mut steps)?;
            let mut chosen = None;
            for &step in &steps {
                let t = engine.apply(&cur, step)?;
                // The position's value, seen from the next mover.
                let same = on_one_side(root, cur.mover, t.mover);
                let target = if same { value } else { -value };
                // No step is worth more than the position, so a step is best exactly when it
                // is worth at least that: one empty-window question per step.
                let best = if let Some(v) = terminal(root, &t, t.mover) {
                    v == target
                } else {
                    let window = if same {
                        (next_down(target), target)
                    } else {
                        (target, next_up(target))
                    };
                    let Some(v) = solver.value(engine, &t, Some(window))? else {
                        return Ok(None);
                    };
                    if same {
                        v >= target
                    } else {
                        v <= target
                    }
                };
                if best {
                    chosen = Some((step, t, target));
                    break;
                }
            }
            let Some((step, t, target)) = chosen else {
                return Ok(None);
            };
            value = target;
            line.push((cur, step));
            cur = t;
        }
    }
    Ok(Some(Solution {
        line,
        end: cur,
        nodes: solver.nodes(),
    }))
}
