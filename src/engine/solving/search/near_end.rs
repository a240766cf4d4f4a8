//! The stretch a little before the end of a [`Direct`] game, searched without the solver's
//! table: moves sorted by what they leave the opponent, then plain alpha-beta over the
//! boards (see [`DIRECT_UNTABLED_EMPTIES`] and [`DIRECT_PLAIN_EMPTIES`]).

use super::margins::MarginTable;
use super::{
    take_child, Node, RunnerTree, Table, COUNTED_UNTABLED_EMPTIES, DIRECT_PLAIN_EMPTIES,
    DIRECT_UNTABLED_EMPTIES, UNTABLED_PLACEMENTS,
};
use crate::board::sets::Board;
use crate::engine::negamax;
use crate::engine::plan::shapes::Direct;
use crate::engine::runner::direct::DirectTurns;
use crate::engine::runner::{At, Fault, RunState};

impl<B: Board, const P: usize> RunnerTree<'_, B, P> {
    /// The value of `s` at the choice at `pc` among `moves` when it lies in a stretch near the
    /// end that is searched without the table (see [`DIRECT_UNTABLED_EMPTIES`]), else None.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn untabled(
        &mut self,
        table: &mut Table,
        s: &RunState<B, P>,
        pc: u32,
        moves: B,
        alpha: f64,
        beta: f64,
        ply: usize,
    ) -> Result<Option<f64>, Fault> {
        let k = self.runner;
        // The solver's loops are the lanes' (no board it solves has joined edges).
        let Some(d) = k.direct_at_choice(pc).filter(|d| !d.wraps) else {
            return Ok(None);
        };
        let empties = k.empties(s);
        let counted = d.counted_score.filter(|_| d.ends_when_blocked);
        let limit = if counted.is_some() {
            COUNTED_UNTABLED_EMPTIES
        } else {
            DIRECT_UNTABLED_EMPTIES
        };
        if empties > limit {
            return Ok(None);
        }
        let m = s.mover as usize;
        let boards = (s.pieces[m], s.pieces[1 - m]);
        if let Some(sign) = counted {
            // Taken out for the search, which borrows the tree, and put back after.
            let mut margins =
                (self.margins.0.take()).unwrap_or_else(|| Box::new(MarginTable::new()));
            let window = (alpha, beta);
            let v = self.counted_value(table, &mut margins, d, s, sign, boards, moves, window);
            self.margins.0 = Some(margins);
            return Ok(Some(v));
        }
        if empties <= DIRECT_PLAIN_EMPTIES {
            return self
                .direct_plain(table, d, s, 0, boards, moves, alpha, beta, ply)
                .map(Some);
        }
        self.direct_sorted(table, d, s, moves, alpha, beta, ply)
            .map(Some)
    }

    /// The value for the mover at `s` of the turn that leads to `t`, at `ply` below the root.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn after(
        &mut self,
        table: &mut Table,
        s: &RunState<B, P>,
        t: Node<B, P>,
        alpha: f64,
        beta: f64,
        ply: usize,
    ) -> Result<f64, Fault> {
        if let At::Over(winner) = t.1 {
            return Ok(self.runner.terminal_value(self.game, &t.0, winner, s.mover));
        }
        Ok(-negamax::value(
            self,
            table,
            &t,
            None,
            -beta,
            -alpha,
            ply + 1,
        )?)
    }

    /// The value of a [`Direct`] game a little before its end: alpha-beta over the boards, the
    /// moves in the order of `Searching::prospects`, no table.
    #[allow(clippy::too_many_arguments)]
    fn direct_sorted(
        &mut self,
        table: &mut Table,
        d: &Direct<B>,
        s: &RunState<B, P>,
        moves: B,
        mut alpha: f64,
        beta: f64,
        ply: usize,
    ) -> Result<f64, Fault> {
        let (k, game) = (self.runner, self.game);
        let m = s.mover as usize;
        let (children, n) = self.sorted_turns(d, s, (s.pieces[m], s.pieces[1 - m]), moves);
        let mut best = f64::NEG_INFINITY;
        for &(_, next, other, replies) in &children[..n] {
            let t = DirectTurns::after(s, next, other);
            let at = k.direct_at(game, d, &t, replies);
            let v = self.after(table, s, (t, at), alpha, beta, ply)?;
            if take_child(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        Ok(best)
    }

    /// The turns of a [`Direct`] game's mover, who has the cells `mover` against `opponent`
    /// and may place on `moves` (as at `s`, whose boards the order need not read), in the
    /// order of the stretch a little before the end: those that leave the opponent no
    /// placement first, then by `Searching::prospects`, fewest first. Each with its rank, the
    /// cells of the next mover and of its opponent, and the next mover's placements; the
    /// first of the array's entries are the turns, as many as the count says.
    #[allow(clippy::type_complexity)]
    #[inline(always)]
    fn sorted_turns(
        &self,
        d: &Direct<B>,
        s: &RunState<B, P>,
        boards: (B, B),
        moves: B,
    ) -> ([(u32, B, B, B); UNTABLED_PLACEMENTS], usize) {
        let (mut children, n) = self.ranked_turns(d, s, boards, moves);
        children[..n].sort_unstable_by_key(|c| c.0);
        (children, n)
    }

    /// [`RunnerTree::sorted_turns`] before the sort, in the order of the cells.
    #[allow(clippy::type_complexity)]
    #[inline(always)]
    pub(super) fn ranked_turns(
        &self,
        d: &Direct<B>,
        s: &RunState<B, P>,
        (mover, opponent): (B, B),
        moves: B,
    ) -> ([(u32, B, B, B); UNTABLED_PLACEMENTS], usize) {
        let k = self.runner;
        // Placements are on empty cells, so they fit.
        let mut children = [(0u32, B::EMPTY, B::EMPTY, B::EMPTY); UNTABLED_PLACEMENTS];
        let mut n = 0;
        for cell in moves.cells() {
            let (next, other, replies) = DirectTurns(k.0).turn::<false>(d, mover, opponent, cell);
            let order = if replies.is_empty() {
                // A pass or the end: either leaves the opponent nothing to choose from now.
                0
            } else {
                1 + k.prospects_on(self.game, s, replies, other, next)
            };
            children[n] = (order, next, other, replies);
            n += 1;
        }
        (children, n)
    }

    /// The value of a finished [`Direct`] game, reached `plies` turns after `s` by a turn
    /// of the mover that leaves the opponent `next` and the mover `other`, for the mover.
    #[inline]
    fn end_value(&self, s: &RunState<B, P>, plies: u32, next: B, other: B) -> f64 {
        // A game whose score counts pieces never comes here: see `counted`.
        let (here, t) = self.states_at(s, plies, next, other);
        self.runner.terminal_value(self.game, &t, None, here.mover)
    }

    /// The position `plies` turns after `s` as a state, and the one after its mover's turn
    /// that leaves the opponent `next` and the mover `other`.
    fn states_at(
        &self,
        s: &RunState<B, P>,
        plies: u32,
        next: B,
        other: B,
    ) -> (RunState<B, P>, RunState<B, P>) {
        let mut here = s.at_boundary(self.runner.counted());
        here.mover ^= (plies & 1) as u8;
        here.turn += plies;
        let t = DirectTurns::after(&here, next, other);
        (here, t)
    }

    /// The value of a [`Direct`] game near its end, `plies` turns after `s` (at `ply + plies`
    /// below the root), with the mover's and the opponent's cells in `boards`: plain
    /// alpha-beta over the boards, the mover's placements `moves` tried in the order of
    /// `Searching::last_stretch_order`. A whole state is made only where a mover is blocked
    /// and the general path decides between a pass and the end (copying one per position was
    /// a fifth of the time); in a game that ends exactly when neither side can place, only
    /// to score the end: the boards say which it is (a game that also counts pieces is
    /// searched by `counted` instead).
    #[allow(clippy::too_many_arguments)]
    fn direct_plain(
        &mut self,
        table: &mut Table,
        d: &Direct<B>,
        s: &RunState<B, P>,
        plies: u32,
        (mover, opponent): (B, B),
        moves: B,
        mut alpha: f64,
        beta: f64,
        ply: usize,
    ) -> Result<f64, Fault> {
        let (k, game) = (self.runner, self.game);
        let mut best = f64::NEG_INFINITY;
        for cell in k.last_stretch_order(moves, k.playable & !(mover | opponent)) {
            let (next, other) = DirectTurns(k.0).place::<false>(d, mover, opponent, cell);
            // A full board has no placement for either side: no need to look for them.
            let full = d.ends_when_blocked && (next | other) == k.playable;
            let replies = if full {
                B::EMPTY
            } else {
                DirectTurns(k.0).moves::<false>(d, next, other)
            };
            let v = if full {
                self.end_value(s, plies, next, other)
            } else if replies.is_empty() && d.ends_when_blocked {
                let again = DirectTurns(k.0).moves::<false>(d, other, next);
                if again.is_empty() {
                    self.end_value(s, plies, next, other)
                } else {
                    // The opponent passes and the mover places again.
                    table.nodes += 1;
                    let boards = (other, next);
                    self.direct_plain(table, d, s, plies + 2, boards, again, alpha, beta, ply)?
                }
            } else if replies.is_empty() {
                // The position this search stands at, as a state, then the turn played.
                let (here, t) = self.states_at(s, plies, next, other);
                let at = k.start_or_end(game, &t, None);
                self.after(table, &here, (t, at), alpha, beta, ply + plies as usize)?
            } else {
                table.nodes += 1;
                let boards = (next, other);
                -self.direct_plain(table, d, s, plies + 1, boards, replies, -beta, -alpha, ply)?
            };
            if take_child(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        Ok(best)
    }
}
