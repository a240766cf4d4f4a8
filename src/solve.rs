//! The exact value of a position with best play by both sides: alpha-beta over the whole game
//! tree with a transposition table. For small boards only; the tree grows exponentially.

use crate::agents::search::Search;
use crate::agents::terminal_value;
use crate::engine::kernel::search::{next_down, next_up, Table};
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

/// Memory the solver's tables may take unless told otherwise: 1 GB.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// Slots of the kernel's table that fit in `memory` bytes (64 bytes a slot; the table starts
/// small and grows only as the search needs).
fn kernel_slots(memory: usize) -> usize {
    let slots = (memory / 64).max(2);
    if slots.is_power_of_two() {
        slots
    } else {
        slots.next_power_of_two() / 2
    }
}

/// Entries of the step-by-step search's table that fit in `memory` bytes: the table is a hash
/// map, whose storage is a power of two of key, value and a control byte, at most 7/8 full;
/// it is cleared when full (which costs only repeated work).
fn search_entries(memory: usize) -> usize {
    let entry = crate::agents::search::ENTRY_BYTES + 1;
    let buckets = (memory / entry).max(16);
    let buckets = if buckets.is_power_of_two() {
        buckets
    } else {
        buckets.next_power_of_two() / 2
    };
    buckets / 8 * 7
}

/// Never called: the solver searches to the end of the game.
fn no_horizon(engine: &Engine, s: &State, p: u8) -> Result<f64, RuleError> {
    Ok(crate::agents::score_margin(engine, s, p))
}

/// Solves `s`: best play for both sides to the end of the game.
/// The tables take at most `memory` bytes.
pub fn solve(engine: &Engine, s: &State, memory: usize) -> Result<Solution, RuleError> {
    if let Some(solution) = solve_on_kernel(engine, s, memory)? {
        return Ok(solution);
    }
    let mut search = Search::new(no_horizon, search_entries(memory));
    search.search_for(engine, s.mover);
    let mut line = Vec::new();
    let mut cur = *s;
    // At each position of the best line, pick a step whose exact value equals the position's.
    while !cur.is_over() {
        let value = search.value(engine, &cur, None, f64::NEG_INFINITY, f64::INFINITY)?;
        let mut steps = Vec::new();
        engine.steps(&cur, &mut steps)?;
        let mut chosen = None;
        for step in steps {
            let (v, t) = search.step_value(engine, &cur, step, None)?;
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
        nodes: search.nodes,
    })
}

/// The same search on the kernel's own states, for games of one placement a turn: the values
/// agree with the step-by-step search's (tests compare them), only faster. None when the
/// game's turns have several steps or its board is too large for the search's table.
fn solve_on_kernel(
    engine: &Engine,
    s: &State,
    memory: usize,
) -> Result<Option<Solution>, RuleError> {
    let mut table = Table::new(kernel_slots(memory));
    let mut line = Vec::new();
    let mut cur = *s;
    let mut steps = Vec::new();
    if cur.is_over() {
        return Ok(Some(Solution {
            line,
            end: cur,
            nodes: 0,
        }));
    }
    let Some(mut value) = engine.kernel_value(&cur, &mut table, None)? else {
        return Ok(None);
    };
    while !cur.is_over() {
        engine.steps(&cur, &mut steps)?;
        let mut chosen = None;
        for &step in &steps {
            // No step is worth more than the position, so a step is best exactly when it is
            // worth at least that: one empty-window question per step, not an exact value.
            let t = engine.apply(&cur, step)?;
            let best = if t.is_over() {
                terminal_value(&t, cur.mover) == value
            } else {
                let (target, flips) = if t.mover == cur.mover {
                    (value, false)
                } else {
                    (-value, true)
                };
                let window = if flips {
                    (target, next_up(target))
                } else {
                    (next_down(target), target)
                };
                let Some(v) = engine.kernel_value(&t, &mut table, Some(window))? else {
                    return Ok(None);
                };
                if flips {
                    v <= target
                } else {
                    v >= target
                }
            };
            if best {
                chosen = Some((step, t));
                break;
            }
        }
        let Some((step, t)) = chosen else {
            return Ok(None);
        };
        // The best step keeps the position's value, seen from the next mover.
        if t.mover != cur.mover {
            value = -value;
        }
        line.push((cur, step));
        cur = t;
    }
    Ok(Some(Solution {
        line,
        end: cur,
        nodes: table.nodes,
    }))
}
