//! Whole turns of a game of the [`Direct`] shape (every turn one outflanking placement), run
//! as loops over the two boards: what perft, random games and the solver walk instead of the
//! turn program.

use super::{runner_view, At, RunState};
use crate::board::sets::Board;
use crate::engine::plan::shapes::Direct;
use crate::ir::Game;

// Built in the unit of each stage that calls it (every function here is inlined into its
// caller); the view keeps the loops off `Runner`'s own impl.
runner_view!(pub(crate) DirectTurns);

impl<B: Board, const P: usize> DirectTurns<'_, B, P> {
    /// The position after a turn of a [`Direct`] game from `s`, given the new mover's and
    /// the new opponent's cells.
    #[inline(always)]
    pub(crate) fn after(s: &RunState<B, P>, mover: B, opponent: B) -> RunState<B, P> {
        // A game of this shape has no counters (see `shapes::direct`).
        let mut t = s.at_boundary(false);
        t.mover = 1 - s.mover;
        t.pieces[t.mover as usize] = mover;
        t.pieces[s.mover as usize] = opponent;
        t.turn += 1;
        t.passes = 0;
        t
    }

    /// One turn of a [`Direct`] game: the mover places on `cell`; returns the cells of the
    /// next mover, of its opponent, and the next mover's placements. `W`: the board has joined
    /// edges (`d.wraps`).
    #[inline(always)]
    pub(crate) fn turn<const W: bool>(
        self,
        d: &Direct<B>,
        mover: B,
        opponent: B,
        cell: usize,
    ) -> (B, B, B) {
        let (next, other) = self.place::<W>(d, mover, opponent, cell);
        (next, other, self.moves::<W>(d, next, other))
    }

    /// As [`DirectTurns::turn`], without the next mover's placements.
    #[inline(always)]
    pub(crate) fn place<const W: bool>(
        self,
        d: &Direct<B>,
        mover: B,
        opponent: B,
        cell: usize,
    ) -> (B, B) {
        let runs = self.runs::<W>(d, mover, opponent, cell);
        Self::after_capture(mover, opponent, cell, runs)
    }

    /// As [`DirectTurns::place`] where the mover may not know whether `cell` is one of its
    /// placements: None when no run is closed from it. One cell's rays instead of the whole
    /// board's placements, for the solver's last empty cell.
    #[inline(always)]
    pub(crate) fn try_place(
        self,
        d: &Direct<B>,
        mover: B,
        opponent: B,
        cell: usize,
    ) -> Option<(B, B)> {
        // The cell is a placement exactly when some end closes a run from it, captured or not
        // (as `run_sources` finds them for every cell at once).
        let runs = self.runs::<false>(d, mover, opponent, cell);
        (!runs.is_empty()).then(|| Self::after_capture(mover, opponent, cell, runs))
    }

    /// The runs that a placement of the mover's on `cell` closes, whether it captures them or
    /// not (a run may hold cells that are not the opponent's).
    #[inline(always)]
    fn runs<const W: bool>(self, d: &Direct<B>, mover: B, opponent: B, cell: usize) -> B {
        let line = &self.lines[d.line];
        let empty = self.playable & !(mover | opponent);
        let (run, end) = (
            d.run.cells(mover, opponent, empty),
            d.end.cells(mover, opponent, empty),
        );
        if W {
            line.wrapped_captures(cell, run, end)
        } else {
            line.run_captures(cell, run, end, false)
        }
    }

    /// The next mover's cells and the placer's after the placer takes `cell` and captures
    /// the opponent's cells among `runs`.
    #[inline(always)]
    fn after_capture(mover: B, opponent: B, cell: usize, runs: B) -> (B, B) {
        let captured = runs & opponent;
        (opponent ^ captured, mover | captured | B::single(cell))
    }

    /// The placements of a [`Direct`] game's mover, who has the cells `mover`.
    #[inline(always)]
    pub(crate) fn moves<const W: bool>(self, d: &Direct<B>, mover: B, opponent: B) -> B {
        let empty = self.playable & !(mover | opponent);
        let (run, end) = (
            d.run.cells(mover, opponent, empty),
            d.end.cells(mover, opponent, empty),
        );
        let line = &self.lines[d.line];
        empty
            & if W {
                line.wrapped_sources(run, end)
            } else {
                line.run_sources(run, end)
            }
    }

    /// Turns of a [`Direct`] game from a choice among `moves`, as a loop over the two boards:
    /// before each, `pick(seat, moves)` gives the mover's cell, or None to stop there; until a
    /// mover is blocked. What comes next, as [`DirectTurns::after_turns`] says.
    #[inline(always)]
    pub(crate) fn turns<const W: bool>(
        self,
        game: &Game,
        d: &Direct<B>,
        s: &mut RunState<B, P>,
        mut moves: B,
        mut pick: impl FnMut(usize, B) -> Option<usize>,
    ) -> At<B> {
        let (mut mover, mut opponent) =
            (s.pieces[s.mover as usize], s.pieces[1 - s.mover as usize]);
        let mut seat = s.mover as usize;
        let mut turns = 0;
        let blocked = loop {
            let Some(cell) = pick(seat, moves) else {
                break false;
            };
            (mover, opponent, moves) = self.turn::<W>(d, mover, opponent, cell);
            seat = 1 - seat;
            turns += 1;
            if moves.is_empty() {
                break true;
            }
        };
        self.after_turns(game, d, s, (mover, opponent), turns, moves, blocked)
    }

    /// Writes back into `s` the boards (`mover`'s, then its opponent's) reached `turns` turns
    /// after it by a loop of a [`Direct`] game, and says what comes next: the general path's
    /// pass or end where the mover is `blocked`, else the choice among `moves`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn after_turns(
        self,
        game: &Game,
        d: &Direct<B>,
        s: &mut RunState<B, P>,
        (mover, opponent): (B, B),
        turns: u32,
        moves: B,
        blocked: bool,
    ) -> At<B> {
        s.mover ^= (turns & 1) as u8;
        s.pieces[s.mover as usize] = mover;
        s.pieces[1 - s.mover as usize] = opponent;
        s.turn += turns;
        s.passes = 0;
        if blocked {
            self.start_or_end(game, s, None)
        } else {
            At::Choice {
                pc: d.pc,
                moves,
                more: B::EMPTY,
            }
        }
    }
}
