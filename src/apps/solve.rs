//! The exact value of a position with best play by both sides: the one search
//! ([`crate::engine::negamax`]) over the whole game tree. For small boards only; the tree
//! grows exponentially.

use crate::agents::search::{on_one_side, terminal, Search};
use crate::engine::negamax::{least_of_kind, next_down, next_up, Aim, Question, Watch};
use crate::engine::solving::search::Table;
use crate::engine::state::{read_value, State};
use crate::engine::{Engine, RuleError, Step};

/// The result with best play.
pub struct Solution {
    /// The line of best play, in steps, and the position it ends in. With [`Aim::Outcome`],
    /// a line that keeps the result (the same winner, or a draw) at each step, and its end:
    /// the winner's steps are best by the result only, not by the margin, and the loser's are
    /// the first the solver would try.
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

/// The tree the solver searches: the runner's states a turn at a time (the faster; a turn of
/// several steps taken whole), else, where counters, tokens or an agreement outlast a turn,
/// the engine's states a step at a time.
enum Solver {
    Turns(Table),
    Steps(Search),
}

impl Solver {
    /// The value of `s` for its mover, as `question` asks it. None when the runner's search
    /// cannot take `s`.
    fn value(
        &mut self,
        engine: &Engine,
        s: &State,
        question: Question,
    ) -> Result<Option<f64>, RuleError> {
        match (self, question) {
            (Solver::Turns(table), _) => engine.runner_value(s, table, question),
            (Solver::Steps(search), Question::Whole(aim)) => {
                search.exact_value(engine, s, aim).map(Some)
            }
            (Solver::Steps(search), Question::Within(alpha, beta)) => {
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
            if let Some(ranks) = engine.runner_ranks(s, table)? {
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
    solve_watched(engine, s, memory, 1, Aim::Value, || None)
}

/// [`solve`] as far as `aim` asks (the exact result, or who wins), on `jobs` threads where
/// the game is searched a turn at a time and the solve is long enough (the value and the line
/// are the same whatever `jobs`; the positions searched are not), telling a watch made by
/// `watch` how it goes: the positions searched, the samples solved while the solver learns
/// its move order, and the bounds on the value of `s` as they close in.
pub fn solve_watched(
    engine: &Engine,
    s: &State,
    memory: usize,
    jobs: usize,
    aim: Aim,
    watch: impl Fn() -> Option<Box<dyn Watch>>,
) -> Result<Solution, RuleError> {
    let mut table = Table::within_jobs(memory, jobs);
    if let Some(w) = watch() {
        table.watch(w);
    }
    if let Some(solution) = best_line(engine, s, Solver::Turns(table), aim)? {
        return Ok(solution);
    }
    let mut search = Search::new(no_horizon, memory);
    if let Some(w) = watch() {
        search.watch(w);
    }
    search.search_for(engine, s.mover);
    let solution = best_line(engine, s, Solver::Steps(search), aim)?;
    Ok(solution.expect("the engine's search takes every position"))
}

/// The least value a step must be worth, for the player to move, to be played in a line
/// that keeps `value`, a position's value for that player found as far as `aim` asks: the
/// value itself where it is exact; else the least value of its kind (any step keeps a loss).
fn floor(value: f64, aim: Aim) -> f64 {
    match aim {
        Aim::Value => value,
        Aim::Outcome => least_of_kind(read_value(value).0),
    }
}

/// The line of best play from `s` as far as `aim` asks, found with `solver`; None when it
/// cannot take a position. With more than two players the search is paranoid, for the player
/// to move at `s`.
fn best_line(
    engine: &Engine,
    s: &State,
    mut solver: Solver,
    aim: Aim,
) -> Result<Option<Solution>, RuleError> {
    let root = s.mover;
    let mut line = Vec::new();
    let mut cur = *s;
    let mut steps = Vec::new();
    if !cur.is_over() {
        let Some(mut value) = solver.value(engine, &cur, Question::Whole(aim))? else {
            return Ok(None);
        };
        while !cur.is_over() {
            engine.steps(&cur, &mut steps)?;
            solver.order(engine, &cur, &mut steps)?;
            // No step is worth more than the position, so a step keeps its value exactly
            // when it is worth at least the floor: one empty-window question per step.
            let least = floor(value, aim);
            let mut chosen = None;
            for &step in &steps {
                let t = engine.apply(&cur, step)?;
                // The least value, and the position's value, seen from the next mover.
                let same = on_one_side(root, cur.mover, t.mover);
                let (least, kept) = if same {
                    (least, value)
                } else {
                    (-least, -value)
                };
                let keeps = if least.is_infinite() {
                    true
                } else {
                    let v = if let Some(v) = terminal(root, &t, t.mover) {
                        v
                    } else {
                        let window = if same {
                            Question::Within(next_down(least), least)
                        } else {
                            Question::Within(least, next_up(least))
                        };
                        let Some(v) = solver.value(engine, &t, window)? else {
                            return Ok(None);
                        };
                        v
                    };
                    if same {
                        v >= least
                    } else {
                        v <= least
                    }
                };
                if keeps {
                    chosen = Some((step, t, kept));
                    break;
                }
            }
            let Some((step, t, kept)) = chosen else {
                return Ok(None);
            };
            value = kept;
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
