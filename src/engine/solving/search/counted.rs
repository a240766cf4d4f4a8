//! The last empty cells of a game that ends exactly when neither side can place and scores
//! each side's pieces ([`Direct::ends_when_blocked`], [`Direct::counted_score`]): alpha-beta
//! over the two boards in whole pieces of margin, with none of the general values (a win
//! worth a million and the margin, as `f64`) on the way. The values of the general search are
//! a strictly rising function of the margin ([`value_of_margin`]), so a window on them is a
//! window on the margin, and a bound on the margin is one on the value.

use super::margins::MarginTable;
use super::order::FEW_CELLS;
use super::{take_child, RunnerTree, Table, DIRECT_PLAIN_EMPTIES};
use crate::board::sets::Board;
use crate::engine::plan::shapes::Direct;
use crate::engine::runner::copies::chosen_copies;
use crate::engine::runner::direct::DirectTurns;
use crate::engine::runner::RunState;
use crate::engine::state::WIN_VALUE;

/// Beyond every margin a board the table's keys hold can end with (128 cells).
const NO_MARGIN: i32 = 256;

/// From this many empty cells up, the margin search keeps its positions in a
/// [`MarginTable`].
const MARGIN_TABLED_EMPTIES: u32 = 9;

/// From this many empty cells up, the margin search tries to cut a position off by its
/// stable pieces (`stable`) before it lists the placements. From 6: at 26 empty cells of
/// Othello 6x6 7.1% fewer positions, 7 or 8 about as quick with fewer cut (test builds);
/// at 5, where a position costs less, 2.6% fewer positions in more time.
const STABLE_EMPTIES: u32 = 6;

/// The stable pieces are counted only where the side has this many pieces to spare beyond
/// the count that would cut: with fewer, the cut came in at most one try in fifteen (one in
/// a hundred with one to spare, none with none), and the count cost more than it saved.
const STABLE_SPARE: i32 = 4;

// Children of the margin search's tabled positions are listed in an array of this size.
const _: () = assert!(super::COUNTED_UNTABLED_EMPTIES as usize <= super::UNTABLED_PLACEMENTS);

// `counted_plain`'s children, whose empty cells `few_left` orders, have few enough of them.
const _: () = assert!(DIRECT_PLAIN_EMPTIES as usize - 1 <= FEW_CELLS);

/// A finished game's margin for the side that has `ours` against `theirs`, its score
/// counting pieces times `sign`.
#[inline(always)]
fn finished_margin<B: Board>(sign: i32, ours: B, theirs: B) -> i32 {
    sign * (ours.count() as i32 - theirs.count() as i32)
}

/// The general search's value of a finished game that the mover leads by `margin` pieces
/// (as `Outcome::value_for` gives it for a counted score with two players).
fn value_of_margin(margin: i32) -> f64 {
    let m = f64::from(margin);
    match margin.signum() {
        1 => WIN_VALUE + m,
        -1 => -WIN_VALUE + m,
        _ => 0.0,
    }
}

/// The largest margin whose value is at most `x` (a margin at or below it fails low).
fn margin_at_most(x: f64) -> i32 {
    let m = if x >= value_of_margin(1) {
        (x - WIN_VALUE).floor()
    } else if x >= 0.0 {
        0.0
    } else if x >= value_of_margin(-1) {
        -1.0
    } else {
        (x + WIN_VALUE).floor()
    };
    m.clamp(-f64::from(NO_MARGIN), f64::from(NO_MARGIN)) as i32
}

/// The least margin whose value is at least `x` (a margin at or above it fails high).
fn margin_at_least(x: f64) -> i32 {
    let m = if x > value_of_margin(1) {
        (x - WIN_VALUE).ceil()
    } else if x > 0.0 {
        1.0
    } else if x > value_of_margin(-1) {
        0.0
    } else {
        (x + WIN_VALUE).ceil()
    };
    m.clamp(-f64::from(NO_MARGIN), f64::from(NO_MARGIN)) as i32
}

/// Which of the turns `left` (a mask of `children`'s indices) has the least rank, the first
/// of equals: one at a time, the order a stable sort gives. Nine cuts in ten come from the
/// first turn tried, and where one does, the others need no order.
#[inline(always)]
fn least_rank<B: Copy>(children: &[(u32, B, B, B)], left: u32) -> usize {
    let mut pick = left.trailing_zeros() as usize;
    let mut rest = left & (left - 1);
    while rest != 0 {
        let j = rest.trailing_zeros() as usize;
        if children[j].0 < children[pick].0 {
            pick = j;
        }
        rest &= rest - 1;
    }
    pick
}

impl<B: Board, const P: usize> RunnerTree<'_, B, P> {
    /// The value at `s`, whose mover and opponent have the cells `boards` and whose mover may
    /// place on `moves`, of a game of `d`'s kind whose score counts pieces times `sign`,
    /// within the general search's window `(alpha, beta)`: what `direct_sorted` and
    /// `direct_plain` would find, counted in `table`, in the same positions below
    /// [`MARGIN_TABLED_EMPTIES`] empty cells (from there `margins` answers some).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn counted_value(
        &self,
        table: &mut Table,
        margins: &mut MarginTable,
        d: &Direct<B>,
        s: &RunState<B, P>,
        sign: f64,
        boards: (B, B),
        moves: B,
        (alpha, beta): (f64, f64),
    ) -> f64 {
        let (low, high) = (margin_at_most(alpha), margin_at_least(beta));
        let sign = if sign < 0.0 { -1 } else { 1 };
        let nodes = &mut table.nodes;
        let window = (low, high);
        let margin = if crate::board::cpu::vectors() {
            self.counted_sorted::<true>(margins, d, s, sign, boards, moves, window, nodes)
        } else {
            self.counted_sorted::<false>(margins, d, s, sign, boards, moves, window, nodes)
        };
        value_of_margin(margin)
    }

    // The search below runs in the copies of `chosen_copies`: the last empty cells are most of
    // a solve's positions, and vector instructions speed its placements up.
    chosen_copies!(counted_plain, counted_plain_v3, counted_plain_base, counted_plain_on,
        (&self, d: &Direct<B>, sign: i32, boards: (B, B), moves: B, alpha: i32, beta: i32,
         nodes: &mut u64) -> i32);
    chosen_copies!(few_left, few_left_v3, few_left_base, few_left_on,
        (&self, d: &Direct<B>, sign: i32, boards: (B, B), rest: B, window: (i32, i32),
         nodes: &mut u64) -> i32);
    chosen_copies!(counted_sorted, counted_sorted_v3, counted_sorted_base, counted_sorted_on,
        (&self, margins: &mut MarginTable, d: &Direct<B>, s: &RunState<B, P>, sign: i32,
         boards: (B, B), moves: B, window: (i32, i32), nodes: &mut u64) -> i32);

    /// [`RunnerTree::counted_value`]'s search, over margins, in the last
    /// [`DIRECT_PLAIN_EMPTIES`] empty cells: the placements in the order of
    /// `Searching::last_stretch_order`, the positions counted as in `direct_plain`. Below, each
    /// side's placements are found by [`RunnerTree::few_left`] from the empty cells' rays.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn counted_plain_on<const V3: bool>(
        &self,
        d: &Direct<B>,
        sign: i32,
        (mover, opponent): (B, B),
        moves: B,
        mut alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> i32 {
        let k = self.runner;
        let empty = k.playable & !(mover | opponent);
        let mut best = -NO_MARGIN;
        for cell in k.last_stretch_order(moves, empty) {
            // The placer's cells are `other`, the next mover's `next`.
            let boards = DirectTurns(k.0).place::<false>(d, mover, opponent, cell);
            let rest = empty & !B::single(cell);
            let v = self.few_left::<V3>(d, sign, boards, rest, (alpha, beta), nodes);
            if take_child(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }

    /// The margin for the placer who has `placer` against `next`, the next mover's cells,
    /// with one empty cell `last` left: whoever may place there ends the game, the next mover
    /// first. Found from that cell's rays, not from every placement; a placement there counts
    /// as a position, as in [`RunnerTree::counted_plain`].
    #[inline(always)]
    fn last_one(
        &self,
        d: &Direct<B>,
        sign: i32,
        (next, placer): (B, B),
        last: usize,
        nodes: &mut u64,
    ) -> i32 {
        let k = self.runner;
        // Written out: as `Option::or_else`, the second try was a call of its own.
        let (ours, theirs) = if let Some(boards) = DirectTurns(k.0).try_place(d, next, placer, last)
        {
            *nodes += 1;
            boards
        } else if let Some((theirs, ours)) = DirectTurns(k.0).try_place(d, placer, next, last) {
            *nodes += 1;
            (ours, theirs)
        } else {
            (placer, next)
        };
        finished_margin(sign, ours, theirs)
    }

    /// The margin for the placer who has `placer` against `next`, the next mover's cells,
    /// with the empty cells `rest` left, a few at the end of the game: each side's placements
    /// found by trying those cells' rays (a few cells' rays cost less than every placement
    /// of the board), in the order of `Searching::last_stretch_order`. The placer's window is
    /// `(alpha, beta)`. A position is counted where its mover places, once, as
    /// `direct_plain` counts it.
    #[inline(always)]
    fn few_left_on<const V3: bool>(
        &self,
        d: &Direct<B>,
        sign: i32,
        (next, placer): (B, B),
        rest: B,
        (alpha, beta): (i32, i32),
        nodes: &mut u64,
    ) -> i32 {
        if rest.is_empty() {
            return finished_margin(sign, placer, next);
        }
        if rest.without_lowest().is_empty() {
            return self.last_one(d, sign, (next, placer), rest.lowest(), nodes);
        }
        // The cells in order, found once for both sides.
        let (cells, n) = self.runner.few_in_order(rest);
        let order = &cells[..n];
        let boards = (next, placer);
        let window = (-beta, -alpha);
        if let Some(v) = self.few_placed::<V3>(d, sign, boards, rest, order, window, nodes) {
            return -v;
        }
        // The next mover passes and the placer places again.
        let boards = (placer, next);
        let window = (alpha, beta);
        if let Some(v) = self.few_placed::<V3>(d, sign, boards, rest, order, window, nodes) {
            return v;
        }
        finished_margin(sign, placer, next)
    }

    /// The margin for `mover`, against `opponent`, to place on one of the empty cells `rest`,
    /// tried in `order`, within the window `(alpha, beta)`; None when it may place on none.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn few_placed<const V3: bool>(
        &self,
        d: &Direct<B>,
        sign: i32,
        (mover, opponent): (B, B),
        rest: B,
        order: &[u8],
        (mut alpha, beta): (i32, i32),
        nodes: &mut u64,
    ) -> Option<i32> {
        let k = self.runner;
        // No margin comes near `-NO_MARGIN`: while `best` is that, `mover` has not placed.
        let mut best = -NO_MARGIN;
        for &cell in order {
            let cell = usize::from(cell);
            let Some(boards) = DirectTurns(k.0).try_place(d, mover, opponent, cell) else {
                continue;
            };
            if best == -NO_MARGIN {
                // The position where `mover` places, counted once, as the general path does.
                *nodes += 1;
            }
            let left = rest & !B::single(cell);
            // One cell left: its rays straight away, without a call that finds it so.
            let v = if !left.is_empty() && left.without_lowest().is_empty() {
                self.last_one(d, sign, boards, left.lowest(), nodes)
            } else {
                self.few_left::<V3>(d, sign, boards, left, (alpha, beta), nodes)
            };
            if take_child(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        (best > -NO_MARGIN).then_some(best)
    }

    /// The most margin the mover with `mover` against `opponent` can still end with, where
    /// `empty` are the empty cells, when the pieces of the side that counts against it that
    /// can never be captured bound it at or below `alpha`: a cut without a search. None when
    /// the game's line gives no such pieces, or they do not bound it that low.
    #[inline(always)]
    fn stable_most(
        &self,
        sign: i32,
        (mover, opponent): (B, B),
        empty: B,
        alpha: i32,
    ) -> Option<i32> {
        let k = self.runner;
        let stability = k.1.stability.as_ref()?;
        // Each of that side's stable pieces is one the mover never has: with pieces counted
        // times -1, the mover's own count against it.
        let side = if sign > 0 { opponent } else { mover };
        let cells = k.playable.count() as i32;
        let most = |pieces: u32| cells - 2 * pieces as i32;
        if most(side.count()) + 2 * STABLE_SPARE > alpha {
            return None;
        }
        let most = most(stability.stable(side, empty).count());
        (most <= alpha).then_some(most)
    }

    /// The margin as [`RunnerTree::counted_plain`] finds it, a little before the end: the
    /// placements ordered as `direct_sorted` orders them (`RunnerTree::sorted_turns`),
    /// without the general search's steps between the turns.
    /// `s` is a state of the game (the order reads only the boards); a pass counts as two
    /// positions, as it does in the general search.
    ///
    /// From [`MARGIN_TABLED_EMPTIES`] empty cells up, positions are kept in `margins`: their
    /// bounds narrow the window or answer at once, and their best placement is tried first.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn counted_sorted_on<const V3: bool>(
        &self,
        margins: &mut MarginTable,
        d: &Direct<B>,
        s: &RunState<B, P>,
        sign: i32,
        (mover, opponent): (B, B),
        moves: B,
        (mut alpha, mut beta): (i32, i32),
        nodes: &mut u64,
    ) -> i32 {
        let k = self.runner;
        let empty = k.playable & !(mover | opponent);
        let empties = empty.count();
        if empties <= DIRECT_PLAIN_EMPTIES {
            let boards = (mover, opponent);
            return self.counted_plain::<V3>(d, sign, boards, moves, alpha, beta, nodes);
        }
        let tabled = empties >= MARGIN_TABLED_EMPTIES;
        let mut hint = None;
        if tabled {
            if let Some((low, high, cell)) = margins.get(mover, opponent) {
                if low >= beta || low == high {
                    return low;
                }
                if high <= alpha {
                    return high;
                }
                alpha = alpha.max(low);
                beta = beta.min(high);
                hint = Some(B::single(cell));
            }
        }
        if empties >= STABLE_EMPTIES {
            if let Some(most) = self.stable_most(sign, (mover, opponent), empty, alpha) {
                return most;
            }
        }
        let window = (alpha, beta);
        let (children, n) = self.ranked_turns(d, s, (mover, opponent), moves);
        let (mut best, mut best_at) = (-NO_MARGIN, 0);
        // The turns not yet searched, in the order `sorted_turns` gives them, after the
        // table's best placement (the one child whose boards hold that cell).
        let mut left = (1u32 << n) - 1;
        let mut first = hint.and_then(|cell| {
            (0..n).find(|&j| !((children[j].1 | children[j].2) & cell).is_empty())
        });
        while left != 0 {
            let i = first.take().unwrap_or_else(|| least_rank(&children, left));
            left &= !(1 << i);
            let (_, next, other, replies) = children[i];
            let v = if replies.is_empty() {
                let again = DirectTurns(k.0).moves::<false>(d, other, next);
                if again.is_empty() {
                    finished_margin(sign, other, next)
                } else {
                    *nodes += 2;
                    let boards = (other, next);
                    let window = (alpha, beta);
                    self.counted_sorted::<V3>(margins, d, s, sign, boards, again, window, nodes)
                }
            } else {
                *nodes += 1;
                let boards = (next, other);
                let window = (-beta, -alpha);
                -self.counted_sorted::<V3>(margins, d, s, sign, boards, replies, window, nodes)
            };
            if v > best {
                best_at = i;
            }
            if take_child(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        // (A mover here always has a placement: its callers pass or end the game first.)
        if tabled && n > 0 {
            let (v, i) = (best, best_at);
            let (low, high) = if v <= window.0 {
                (-NO_MARGIN, v)
            } else if v >= window.1 {
                (v, NO_MARGIN)
            } else {
                (v, v)
            };
            let placed = (children[i].1 | children[i].2) & empty;
            margins.put(mover, opponent, low, high, placed.lowest());
        }
        best
    }
}
