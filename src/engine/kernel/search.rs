//! Exact game values on the kernel: negamax with alpha-beta and a transposition table, for the
//! solver. Values are those of the interpreter's search (`agents::terminal_value`): a win is
//! worth a million plus the score margin, so the best play also maximises the margin.

use super::{At, GiveUp, KState, Kernel};
use crate::engine::board::Board;
use crate::engine::hash::PositionMap;
use crate::ir::Game;

/// A position as the table knows it: both players' cells, the mover, and the counters the
/// rules may read.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    pieces: [u128; 2],
    mover: u8,
    turn: u32,
    passes: u32,
}

#[derive(Clone, Copy)]
struct Entry {
    /// The value lies in `low..=high` (equal when exact).
    low: f64,
    high: f64,
    /// The best cell found, tried first next time.
    best: u16,
}

/// The solver's memory between searches of one game.
pub struct Table {
    entries: PositionMap<Key, Entry>,
    max_entries: usize,
    pub nodes: u64,
}

impl Table {
    pub fn new(max_entries: usize) -> Table {
        Table {
            entries: PositionMap::default(),
            max_entries,
            nodes: 0,
        }
    }
}

impl<B: Board> Kernel<B> {
    fn key(s: &KState<B>) -> Key {
        Key {
            pieces: s.pieces.map(|p| p.to_u128()),
            mover: s.mover,
            turn: s.turn,
            passes: s.passes,
        }
    }

    /// The value of a finished game for `player`.
    pub fn terminal_value(
        &self,
        game: &Game,
        s: &KState<B>,
        winner: Option<u8>,
        player: u8,
    ) -> f64 {
        self.outcome(game, s, winner).value_for(player)
    }

    /// The exact value of `s` for its mover when it lies inside (alpha, beta); otherwise a
    /// bound on the side of the window it falls.
    pub fn value(
        &self,
        game: &Game,
        table: &mut Table,
        s: &KState<B>,
        at: &At<B>,
        mut alpha: f64,
        mut beta: f64,
    ) -> Result<f64, GiveUp> {
        table.nodes += 1;
        let (pc, moves) = match *at {
            At::Over(winner) => return Ok(self.terminal_value(game, s, winner, s.mover)),
            At::Pass => {
                let mut t = s.at_boundary();
                let next = self.pass(game, &mut t)?;
                return self.child_value(game, table, s, &t, &next, alpha, beta);
            }
            At::Choice { pc, moves, .. } => (pc, moves),
        };
        let key = Self::key(s);
        let mut first = None;
        if let Some(e) = table.entries.get(&key) {
            if e.low == e.high || e.low >= beta {
                return Ok(e.low);
            }
            if e.high <= alpha {
                return Ok(e.high);
            }
            alpha = alpha.max(e.low);
            beta = beta.min(e.high);
            first = Some(e.best as usize);
        }
        // Children in order: the table's best first, then those that leave the opponent the
        // fewest replies (a cut comes soonest from a move that constrains).
        let mut children: Vec<(u32, usize, KState<B>, At<B>)> =
            Vec::with_capacity(moves.count() as usize);
        for cell in moves.cells() {
            let mut t = s.at_boundary();
            let next = self.play(game, &mut t, pc, 0, cell)?;
            let replies = match next {
                _ if first == Some(cell) => 0,
                At::Over(_) => 1,
                At::Pass => 2,
                At::Choice { moves, .. } => 3 + moves.count(),
            };
            children.push((replies, cell, t, next));
        }
        children.sort_by_key(|c| c.0);
        let (alpha0, beta0) = (alpha, beta);
        let mut best = (f64::NEG_INFINITY, 0usize);
        for (i, (_, cell, t, next)) in children.iter().enumerate() {
            // Principal variation search: the first child with the whole window, the others
            // only asked whether they beat alpha (an empty window), searched again in full
            // only when they do. Good ordering makes the re-searches rare.
            let v = if i == 0 {
                self.child_value(game, table, s, t, next, alpha, beta)?
            } else {
                let probe = self.child_value(game, table, s, t, next, alpha, next_up(alpha))?;
                if probe > alpha && probe < beta {
                    self.child_value(game, table, s, t, next, alpha, beta)?
                } else {
                    probe
                }
            };
            if v > best.0 {
                best = (v, *cell);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let value = best.0;
        let (low, high) = if value <= alpha0 {
            (f64::NEG_INFINITY, value)
        } else if value >= beta0 {
            (value, f64::INFINITY)
        } else {
            (value, value)
        };
        if table.entries.len() >= table.max_entries {
            table.entries.clear();
        }
        table.entries.insert(
            key,
            Entry {
                low,
                high,
                best: best.1 as u16,
            },
        );
        Ok(value)
    }

    /// The exact value of `s` for its mover, found by a series of empty-window searches that
    /// close in on it (MTD(f)): each answers "above or below this?" far faster than one search
    /// with the whole window, and the table carries what each learnt to the next.
    pub fn exact_value(
        &self,
        game: &Game,
        table: &mut Table,
        s: &KState<B>,
        at: &At<B>,
    ) -> Result<f64, GiveUp> {
        let (mut low, mut high) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut guess = 0.0;
        while low < high {
            let beta = if guess == low { next_up(guess) } else { guess };
            guess = self.value(game, table, s, at, next_down(beta), beta)?;
            if guess < beta {
                high = guess;
            } else {
                low = guess;
            }
        }
        Ok(low)
    }

    /// The value for the mover at `s` of going to `t` (where `next` says how `t` stands).
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &self,
        game: &Game,
        table: &mut Table,
        s: &KState<B>,
        t: &KState<B>,
        next: &At<B>,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, GiveUp> {
        if let At::Over(winner) = next {
            return Ok(self.terminal_value(game, t, *winner, s.mover));
        }
        // Every kernel turn hands the move to the other player.
        Ok(-self.value(game, table, t, next, -beta, -alpha)?)
    }
}

/// The smallest value above `x`: the upper end of an empty window at `x`.
pub fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        x
    } else if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// The largest value below `x`.
pub fn next_down(x: f64) -> f64 {
    -next_up(-x)
}
