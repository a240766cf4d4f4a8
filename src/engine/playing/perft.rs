//! Perft on the runner's own state: turns of one placement, turns of several steps (with a
//! memo of sub-states a turn reaches twice), and the games of [`Direct`] shape.

use crate::board::sets::Board;
use crate::engine::hash::PositionMap;
use crate::engine::plan::shapes::Direct;
use crate::engine::runner::direct::DirectTurns;
use crate::engine::runner::positions::choose_at;
use crate::engine::runner::{copies, runner_view, At, Fault, RunState, StepKey};
use crate::ir::Game;

// Perft is built in a unit of its own (see `runner_view`).
runner_view!(pub(super) Counting);

impl<B: Board, const P: usize> Counting<'_, B, P> {
    /// Perft of a [`Direct`] game from a choice among `moves`, `depth` at least 2: the copy
    /// compiled for the processor's vector instructions where it has them.
    fn direct_perft<const W: bool>(
        self,
        game: &Game,
        d: &Direct<B>,
        s: &RunState<B, P>,
        moves: B,
        depth: u32,
    ) -> Result<u64, Fault> {
        if crate::board::cpu::vectors() {
            self.direct_perft_chosen::<W, true>(game, d, s, moves, depth)
        } else {
            self.direct_perft_chosen::<W, false>(game, d, s, moves, depth)
        }
    }

    copies::chosen_copies!(direct_perft_chosen, direct_perft_v3, direct_perft_base,
        direct_perft_on, <const W: bool> (self, game: &Game, d: &Direct<B>, s: &RunState<B, P>,
        moves: B, depth: u32) -> Result<u64, Fault>);

    #[inline(always)]
    fn direct_perft_on<const W: bool, const V3: bool>(
        self,
        game: &Game,
        d: &Direct<B>,
        s: &RunState<B, P>,
        moves: B,
        depth: u32,
    ) -> Result<u64, Fault> {
        let (mover, opponent) = (s.pieces[s.mover as usize], s.pieces[1 - s.mover as usize]);
        let mut total = 0;
        for cell in moves.cells() {
            let (next, other, replies) = DirectTurns(self.0).turn::<W>(d, mover, opponent, cell);
            total += if replies.is_empty() {
                let t = DirectTurns::after(s, next, other);
                let at = self.start_or_end(game, &t, None);
                self.perft(game, &t, &at, depth - 1)?
            } else if depth == 2 {
                u64::from(replies.count())
            } else {
                let t = DirectTurns::after(s, next, other);
                self.direct_perft_chosen::<W, V3>(game, d, &t, replies, depth - 1)?
            };
        }
        Ok(total)
    }

    /// Perft over whole turns of any number of steps, counted as `outflank perft` counts: a
    /// pass is a turn, a finished game a leaf, and the last step of the last turn counted without
    /// being played where it surely ends the turn. Sub-states reached twice inside a turn (a
    /// chain reaching one board by two routes) are counted once, through `memo`.
    pub(super) fn perft_steps(
        self,
        game: &Game,
        s: &RunState<B, P>,
        at: &At<B>,
        depth: u32,
        memo: &mut StepMemo<B, P>,
    ) -> Result<u64, Fault> {
        if depth == 0 {
            return Ok(1);
        }
        let (pc, moves, more) = match *at {
            At::Over(_) => return Ok(1),
            At::Pass if depth == 1 => return Ok(1),
            At::Pass => {
                let mut t = s.at_boundary(self.counted());
                let next = self.pass(game, &mut t)?;
                return self.perft_steps(game, &t, &next, depth - 1, memo);
            }
            At::Choice { pc, moves, more } => (pc, moves, more),
        };
        let key = (s.steps > 0).then(|| (StepKey::of(s, pc), depth));
        if let Some(n) = key.as_ref().and_then(|k| memo.get(k)) {
            return Ok(*n);
        }
        let c = choose_at(game, pc);
        let mut total = 0;
        let mut candidates = 0..self.candidate_count(game, s, pc, moves, more);
        if depth == 1 && (c.last_choice || c.alts.first().is_some_and(|a| a.ends_turn)) {
            // The first option's values are counted in bulk where they need no trial.
            total += u64::from(self.legal_first(game, s, pc, moves)?.count());
            candidates.start = moves.count() as usize;
        }
        for i in candidates {
            let (alt, value) = self.candidate(game, s, pc, moves, more, i);
            let option = &c.alts[alt];
            if depth == 1 && (c.last_choice || option.ends_turn) {
                total += u64::from(self.is_legal(game, s, pc, c, alt, value)?);
                continue;
            }
            let mut t = *s;
            let Some(next) = self.try_play(game, &mut t, pc, alt, value)? else {
                continue;
            };
            total += match next {
                At::Choice { .. } if t.turn == s.turn => {
                    self.perft_steps(game, &t, &next, depth, memo)?
                }
                At::Over(_) => 1,
                _ if depth == 1 => 1,
                _ => self.perft_steps(game, &t, &next, depth - 1, memo)?,
            };
        }
        if let Some(k) = key {
            if memo.len() >= StepKey::<B, P>::MEMO_ENTRIES {
                memo.clear();
            }
            memo.insert(k, total);
        }
        Ok(total)
    }

    /// Perft over whole turns of one placement, counted as [`Counting::perft_steps`] counts:
    /// a pass is a turn, a finished game a leaf, and the last turn counted without being played.
    pub(super) fn perft(
        self,
        game: &Game,
        s: &RunState<B, P>,
        at: &At<B>,
        depth: u32,
    ) -> Result<u64, Fault> {
        if depth == 0 {
            return Ok(1);
        }
        match *at {
            At::Over(_) => Ok(1),
            At::Pass if depth == 1 => Ok(1),
            At::Pass => {
                let mut t = s.at_boundary(self.counted());
                let next = self.pass(game, &mut t)?;
                self.perft(game, &t, &next, depth - 1)
            }
            At::Choice { moves, .. } if depth == 1 => Ok(u64::from(moves.count())),
            At::Choice { pc, moves, .. } => {
                if let Some(d) = self.direct_at_choice(pc) {
                    return if d.wraps {
                        self.direct_perft::<true>(game, d, s, moves, depth)
                    } else {
                        self.direct_perft::<false>(game, d, s, moves, depth)
                    };
                }
                let mut total = 0;
                for cell in moves.cells() {
                    let mut t = s.at_boundary(self.counted());
                    let next = self.play(game, &mut t, pc, 0, cell)?;
                    total += self.perft(game, &t, &next, depth - 1)?;
                }
                Ok(total)
            }
        }
    }
}

/// Counts below sub-states of a turn, by sub-state and depth.
pub(super) type StepMemo<B, const P: usize> = PositionMap<(StepKey<B, P>, u32), u64>;

/// The most memory a long count's memo takes, growing included; clearing it when full only
/// costs recomputation.
const MEMO_BYTES: usize = 512 << 20;

impl<B: Board, const P: usize> StepKey<B, P> {
    /// Entries the memo holds before it is cleared. Its map keeps an eighth of its buckets
    /// free and doubles them, so it holds this many (a power of two) in twice as many buckets,
    /// and while it grows to them it has the half before too: three times this many buckets
    /// of a key, a count and a control byte fit in [`MEMO_BYTES`]. A fixed count of entries
    /// took 0.75 GB on a board of 64 cells, and four times as much for eight players on the
    /// largest boards.
    pub(super) const MEMO_ENTRIES: usize = {
        let bucket = std::mem::size_of::<((StepKey<B, P>, u32), u64)>() + 1;
        1 << (MEMO_BYTES / bucket / 3).ilog2()
    };
}
