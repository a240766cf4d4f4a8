//! Exact game values on the kernel: negamax with alpha-beta and a transposition table, for the
//! solver. Values are those of the players' search (`agents::terminal_value`): a win is
//! worth a million plus the score margin, so the best play also maximises the margin.
//!
//! Games whose every turn is one outflanking placement ([`Direct`]) are searched in three
//! stretches, by the empty cells left: far from the end with the table and the moves sorted
//! by what they leave the opponent; closer, sorted without the table; at the very end, plain
//! alpha-beta over the two boards. Other games use the first stretch throughout.

use super::{At, Direct, Fault, KState, Kernel};
use crate::board::sets::Board;
use crate::ir::Game;

/// A position as the table knows it: both players' cells, the mover, and the counters the
/// rules may read.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Key {
    pieces: [u128; 2],
    turn: u32,
    passes: u32,
    mover: u8,
}

impl Key {
    fn hash(&self) -> u64 {
        let words = [
            self.pieces[0] as u64,
            (self.pieces[0] >> 64) as u64,
            self.pieces[1] as u64,
            (self.pieces[1] >> 64) as u64,
            (self.turn as u64) << 32 | (self.passes as u64) << 8 | self.mover as u64,
        ];
        words.iter().fold(0u64, |h, &w| {
            (h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
    }
}

/// What the table knows of a position: its value lies in `low..=high` (equal when exact).
#[derive(Clone, Copy, Default)]
struct Slot {
    pieces: [u128; 2],
    turn: u32,
    passes: u32,
    mover: u8,
    low: f64,
    high: f64,
    /// The best cell found, tried first next time.
    best: u8,
    /// The empty cells left when the entry was made, plus one (0: the slot is unused). An
    /// entry about more empty cells stands for more work, so it is kept in preference.
    work: u8,
}

/// The solver's memory between searches of one game: slots in pairs, one kept for the entry
/// that stands for the most work and one for the latest. The table doubles while it is three
/// quarters full, up to a set size; after that a full table forgets the cheapest positions
/// first (a map cleared when full forgot everything at once, and grew to gigabytes before
/// it did).
pub struct Table {
    slots: Vec<Slot>,
    /// Slots in use, and the most there may be.
    used: usize,
    max_slots: usize,
    pub nodes: u64,
    /// The last turn a line of the search may reach (see [`MAX_SEARCH_TURNS`]).
    pub(crate) last_turn: u32,
}

/// Turns one line of the search may take from where it starts. Positions count their turn, so
/// none repeats and the search has no cycle to notice: a game whose turns need not end it (each
/// turn changes nothing, say) would otherwise recurse until the stack runs out.
pub const MAX_SEARCH_TURNS: u32 = 10_000;

// One cache line per slot.
const _: () = assert!(std::mem::size_of::<Slot>() == 64);

impl Slot {
    /// The key's fields side by side with the rest: a slot fills 64 bytes, one cache line.
    fn key(&self) -> Key {
        Key {
            pieces: self.pieces,
            turn: self.turn,
            passes: self.passes,
            mover: self.mover,
        }
    }
}

impl Table {
    /// The size a table starts at.
    const FIRST_SLOTS: usize = 1 << 10;

    /// A table that grows to at most `max_slots` slots (rounded down to a power of two).
    pub fn new(max_slots: usize) -> Table {
        let max_slots = if max_slots.is_power_of_two() {
            max_slots
        } else {
            max_slots.next_power_of_two() / 2
        }
        .max(2);
        Table {
            slots: vec![Slot::default(); Self::FIRST_SLOTS.min(max_slots)],
            used: 0,
            max_slots,
            nodes: 0,
            last_turn: u32::MAX,
        }
    }

    /// Twice the slots, the entries placed again.
    fn grow(&mut self) {
        let bigger = vec![Slot::default(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.used = 0;
        for slot in old.into_iter().filter(|s| s.work != 0) {
            self.put(slot);
        }
    }

    /// The first slot of the pair that may hold `key`.
    fn pair(&self, key: &Key) -> usize {
        (key.hash() as usize) & (self.slots.len() - 2)
    }

    fn get(&self, key: &Key) -> Option<&Slot> {
        let i = self.pair(key);
        self.slots[i..i + 2]
            .iter()
            .find(|s| s.work != 0 && s.key() == *key)
    }

    fn put(&mut self, slot: Slot) {
        if self.used * 4 >= self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        let key = slot.key();
        let i = self.pair(&key);
        let (kept, latest) = (self.slots[i], self.slots[i + 1]);
        if kept.key() == key || slot.work >= kept.work {
            // The displaced entry still stands for work: it moves to the latest's place.
            if kept.work != 0 && kept.key() != key {
                self.used += usize::from(latest.work == 0);
                self.slots[i + 1] = kept;
            } else if latest.work != 0 && latest.key() == key {
                self.used -= 1;
                self.slots[i + 1].work = 0;
            }
            self.used += usize::from(kept.work == 0);
            self.slots[i] = slot;
        } else {
            self.used += usize::from(latest.work == 0);
            self.slots[i + 1] = slot;
        }
    }
}

/// Positions of [`Direct`] games with at most this many empty cells are searched by
/// [`Kernel::direct_value`] alone: no table, no ordering. They are most of the tree, and each
/// is over in a few hundred instructions, where a table lookup and a sort would cost more
/// than they save.
const DIRECT_PLAIN_EMPTIES: u32 = 5;

/// Up to this many empty cells, [`Kernel::direct_sorted`]: moves ordered, still no table
/// (its lookups miss the cache: they were a quarter of the time when every position above
/// the plain ones used it).
const DIRECT_UNTABLED_EMPTIES: u32 = 9;

impl<B: Board, const P: usize> Kernel<B, P> {
    fn key(s: &KState<B, P>) -> Key {
        Key {
            // The search runs only with two players (see `Kernel::value`'s callers).
            pieces: [s.pieces[0].to_u128(), s.pieces[1].to_u128()],
            mover: s.mover,
            turn: s.turn,
            passes: s.passes,
        }
    }

    /// The value of a finished game for `player`.
    pub fn terminal_value(
        &self,
        game: &Game,
        s: &KState<B, P>,
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
        s: &KState<B, P>,
        at: &At<B>,
        mut alpha: f64,
        mut beta: f64,
    ) -> Result<f64, Fault> {
        table.nodes += 1;
        if s.turn > table.last_turn {
            return Err(Box::new(crate::engine::RuleError::endless_game(
                game,
                format!(
                    "a line of play went {MAX_SEARCH_TURNS} turns without the game ending; the search needs a game that always ends"
                ),
            )));
        }
        let (pc, moves) = match *at {
            At::Over(winner) => return Ok(self.terminal_value(game, s, winner, s.mover)),
            At::Pass => {
                let mut t = s.at_boundary(self.counted());
                let next = self.pass(game, &mut t)?;
                return self.child_value(game, table, s, &t, &next, alpha, beta);
            }
            At::Choice { pc, moves, .. } => (pc, moves),
        };
        let empties = (self.playable & !(s.pieces[0] | s.pieces[1])).count();
        // The solver's loops are the lanes' (no board it solves has joined edges).
        let direct = self.direct_at_choice(pc).filter(|d| !d.wraps);
        if let Some(d) = direct {
            if empties <= DIRECT_PLAIN_EMPTIES {
                return self.direct_value(game, table, d, s, moves, alpha, beta);
            }
            if empties <= DIRECT_UNTABLED_EMPTIES {
                return self.direct_sorted(game, table, d, s, moves, alpha, beta);
            }
        }
        let key = Self::key(s);
        let mut first = None;
        if let Some(e) = table.get(&key) {
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
        let mut children: Vec<(u32, usize, KState<B, P>, At<B>)> =
            Vec::with_capacity(moves.count() as usize);
        for cell in moves.cells() {
            let (t, next) = match direct {
                Some(d) => self.direct_child(game, d, s, cell),
                None => {
                    let mut t = s.at_boundary(self.counted());
                    let next = self.play(game, &mut t, pc, 0, cell)?;
                    (t, next)
                }
            };
            let order = match next {
                _ if first == Some(cell) => 0,
                At::Over(_) => 1,
                At::Pass => 2,
                At::Choice { moves, .. } => 3 + self.prospects(game, &t, moves),
            };
            children.push((order, cell, t, next));
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
        table.put(Slot {
            pieces: key.pieces,
            turn: key.turn,
            passes: key.passes,
            mover: key.mover,
            low,
            high,
            best: best.1 as u8,
            work: (empties + 1).min(255) as u8,
        });
        Ok(value)
    }

    /// How much `t` offers its mover, who may place on `moves`: the placements, those on the
    /// cells with fewest neighbours counted three times, and the empty cells next to the
    /// other player's pieces (where placements may come later). The solver tries first the
    /// moves that leave the opponent least: a cut comes soonest from a move that constrains.
    /// The weights are the best of those tried on 6x6 Othello endgames (a third fewer
    /// positions than counting placements alone); any rules get the same order.
    fn prospects(&self, game: &Game, t: &KState<B, P>, moves: B) -> u32 {
        let other = t.pieces[1 - t.mover as usize];
        let empty = self.playable & !(t.pieces[0] | t.pieces[1]);
        let near = self.ctx(game, t).adjacent(other, 0xff);
        let fewest = self.by_exposure.first().copied().unwrap_or(B::EMPTY);
        moves.count() + 2 * (moves & fewest).count() + (near & empty).count()
    }

    /// The position after the mover of a [`Direct`] game places on `cell`, and where it
    /// stands.
    #[inline(always)]
    fn direct_child(
        &self,
        game: &Game,
        d: &Direct<B>,
        s: &KState<B, P>,
        cell: usize,
    ) -> (KState<B, P>, At<B>) {
        let m = s.mover as usize;
        let (next, other, replies) =
            self.direct_turn::<false>(d, s.pieces[m], s.pieces[1 - m], cell);
        let t = Self::after_direct(s, next, other);
        let at = self.direct_at(game, d, &t, replies);
        (t, at)
    }

    /// Where `t`, reached by a turn of a [`Direct`] game, stands: a choice among its mover's
    /// placements `replies`, or (with none) a pass or the end, as the general path decides.
    #[inline(always)]
    fn direct_at(&self, game: &Game, d: &Direct<B>, t: &KState<B, P>, replies: B) -> At<B> {
        if replies.is_empty() {
            self.start_or_end(game, t, None)
        } else {
            At::Choice {
                pc: d.pc,
                moves: replies,
                more: B::EMPTY,
            }
        }
    }

    /// [`Kernel::value`] of a [`Direct`] game a little before its end: alpha-beta over the
    /// boards, the moves in the order of [`Kernel::prospects`], no table.
    #[allow(clippy::too_many_arguments)]
    fn direct_sorted(
        &self,
        game: &Game,
        table: &mut Table,
        d: &Direct<B>,
        s: &KState<B, P>,
        moves: B,
        mut alpha: f64,
        beta: f64,
    ) -> Result<f64, Fault> {
        let m = s.mover as usize;
        let (mover, opponent) = (s.pieces[m], s.pieces[1 - m]);
        // Placements are on empty cells, so they fit.
        let mut children = [(0u32, B::EMPTY, B::EMPTY, B::EMPTY); DIRECT_UNTABLED_EMPTIES as usize];
        let mut n = 0;
        for cell in moves.cells() {
            let (next, other, replies) = self.direct_turn::<false>(d, mover, opponent, cell);
            let order = if replies.is_empty() {
                // A pass or the end: either leaves the opponent nothing to choose from now.
                0
            } else {
                1 + self.prospects(game, &Self::after_direct(s, next, other), replies)
            };
            children[n] = (order, next, other, replies);
            n += 1;
        }
        let children = &mut children[..n];
        children.sort_unstable_by_key(|c| c.0);
        let mut best = f64::NEG_INFINITY;
        for &(_, next, other, replies) in children.iter() {
            let t = Self::after_direct(s, next, other);
            let at = self.direct_at(game, d, &t, replies);
            let v = self.child_value(game, table, s, &t, &at, alpha, beta)?;
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Ok(best)
    }

    /// [`Kernel::value`] near the end of a [`Direct`] game: plain alpha-beta over the boards,
    /// the mover's placements `moves` tried on the cells with fewest neighbours first (no
    /// sort, and a tenth fewer positions than in the order of the cells).
    #[allow(clippy::too_many_arguments)]
    fn direct_value(
        &self,
        game: &Game,
        table: &mut Table,
        d: &Direct<B>,
        s: &KState<B, P>,
        moves: B,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, Fault> {
        let m = s.mover as usize;
        let boards = (s.pieces[m], s.pieces[1 - m]);
        self.direct_plain(game, table, d, s, 0, boards, moves, alpha, beta)
    }

    /// The search of [`Kernel::direct_value`] `plies` turns after `s`, with the mover's and
    /// the opponent's cells in `boards`: a whole state is made only where a mover is blocked
    /// and the general path decides between a pass and the end (copying one per position
    /// was a fifth of the time).
    #[allow(clippy::too_many_arguments)]
    fn direct_plain(
        &self,
        game: &Game,
        table: &mut Table,
        d: &Direct<B>,
        s: &KState<B, P>,
        plies: u32,
        (mover, opponent): (B, B),
        moves: B,
        mut alpha: f64,
        beta: f64,
    ) -> Result<f64, Fault> {
        let mut best = f64::NEG_INFINITY;
        for cell in self
            .by_exposure
            .iter()
            .flat_map(|&class| (moves & class).cells())
        {
            let (next, other, replies) = self.direct_turn::<false>(d, mover, opponent, cell);
            let v = if replies.is_empty() {
                // The position this search stands at, as a state, then the turn played.
                let mut here = s.at_boundary(self.counted());
                here.mover ^= (plies & 1) as u8;
                here.turn += plies;
                let (who, t) = (here.mover, Self::after_direct(&here, next, other));
                match self.start_or_end(game, &t, None) {
                    At::Over(winner) => self.terminal_value(game, &t, winner, who),
                    at => -self.value(game, table, &t, &at, -beta, -alpha)?,
                }
            } else {
                table.nodes += 1;
                let boards = (next, other);
                -self.direct_plain(game, table, d, s, plies + 1, boards, replies, -beta, -alpha)?
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Ok(best)
    }

    /// The exact value of `s` for its mover, found by a series of empty-window searches that
    /// close in on it: each answers "at least this?" far faster than one search with the
    /// whole window, and the table carries what each learnt to the next. The first asks
    /// whether the mover wins; then the questions go out in doubling steps until one side is
    /// bounded, and halve the gap after that. Asking one step at a time (MTD(f)) took eleven
    /// searches for a margin of ten, and those close to the value are the costly ones.
    pub fn exact_value(
        &self,
        game: &Game,
        table: &mut Table,
        s: &KState<B, P>,
        at: &At<B>,
    ) -> Result<f64, Fault> {
        let (mut low, mut high) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut step = 1.0;
        let mut target = 0.0;
        while low < high {
            let v = self.value(game, table, s, at, next_down(target), target)?;
            if v >= target {
                low = v;
            } else {
                high = v;
            }
            target = match (low.is_finite(), high.is_finite()) {
                (true, false) => low + step,
                (false, true) => high - step,
                (true, true) => low + (high - low) / 2.0,
                (false, false) => break,
            };
            step *= 2.0;
            // Each question must lie above what is known to be reached and no higher than
            // what is known to be the most, or the search would not close in.
            if target <= low {
                target = next_up(low);
            }
            if target > high {
                target = high;
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
        s: &KState<B, P>,
        t: &KState<B, P>,
        next: &At<B>,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, Fault> {
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
