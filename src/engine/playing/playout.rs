//! Random playouts on the runner's own state, drawing as `Positions::random_step` draws; the
//! games of [`Direct`] shape as a loop over the two boards.

use crate::board::sets::Board;
use crate::engine::plan::shapes::{Direct, Enclosing};
use crate::engine::random_pick::{draw_tried, Swaps};
use crate::engine::rng::Rng;
use crate::engine::runner::direct::DirectTurns;
use crate::engine::runner::{copies, later, runner_view, At, Fault, RunState, Runner};
use crate::engine::step::Step;
use crate::ir::{Game, Instr};

// Playouts are built in a unit of their own (see `runner_view`).
runner_view!(pub(super) Playouts);

impl<B: Board, const P: usize> Playouts<'_, B, P> {
    /// Uniform random steps from `s` until the game ends or `limit` steps are played: the
    /// position reached and the number of steps. Draws from `rng` as `Positions::random_step`
    /// does (one draw per step, a forced pass included).
    pub(super) fn playout(
        self,
        game: &Game,
        s: &RunState<B, P>,
        at: At<B>,
        rng: &mut Rng,
        limit: u64,
    ) -> Result<(RunState<B, P>, At<B>, u64), Fault> {
        let (mut s, mut at) = (*s, at);
        let mut steps = 0;
        let mut swaps = Swaps::default();
        while steps < limit {
            if let At::Choice { pc, moves, more } = at {
                if let Some(d) = self.direct_at_choice(pc) {
                    at = if d.wraps {
                        self.direct_playout_chosen::<true>(
                            game, d, &mut s, moves, rng, &mut steps, limit,
                        )
                    } else {
                        self.direct_playout_chosen::<false>(
                            game, d, &mut s, moves, rng, &mut steps, limit,
                        )
                    };
                    continue;
                }
                if let (Some(e), 0) = (self.enclosing, pc) {
                    let drawn = self.enclosing_playout(
                        game, e, &mut s, moves, more, rng, &mut swaps, &mut steps, limit,
                    )?;
                    match drawn {
                        Some(next) => at = next,
                        // No candidate passed, so the playout stops here.
                        None => break,
                    }
                    continue;
                }
            }
            at = match at {
                At::Over(_) => break,
                At::Pass => {
                    rng.below(1);
                    self.pass(game, &mut s)?
                }
                At::Choice { pc, moves, more } if self.is_tried(pc) => {
                    match self.random_tried(game, &mut s, pc, moves, more, rng, &mut swaps)? {
                        Some(at) => at,
                        // No candidate passed, so the playout stops here.
                        None => break,
                    }
                }
                At::Choice { pc, moves, more } => {
                    // The steps' order: the first option's values, then the later ones'.
                    let i = rng.below(self.candidate_count(game, &s, pc, moves, more));
                    let (alt, value) = self.candidate(game, &s, pc, moves, more, i);
                    self.play(game, &mut s, pc, alt, value)?
                }
            };
            steps += 1;
        }
        Ok((s, at, steps))
    }

    // A playout's turns of a [`Direct`] game are its hot loop, and they run inside this one
    // call: [`DirectTurns::playout`] in the copy for the processor's vector instructions
    // where it has them.
    copies::chosen_entry!(direct_playout_chosen, direct_playout_v3, direct_playout,
        (self, game: &Game, d: &Direct<B>, s: &mut RunState<B, P>, moves: B, rng: &mut Rng,
         steps: &mut u64, limit: u64) -> At<B>);

    /// A uniformly random legal step at a choice whose options must be tried, drawn by
    /// [`draw_tried`]: the first candidate that passes its trial is
    /// played, and `s` becomes the position after it. None when every candidate is refused.
    /// (`swaps`: the draw's room for refused candidates, kept from step to step.)
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn random_tried(
        self,
        game: &Game,
        s: &mut RunState<B, P>,
        pc: u32,
        moves: B,
        more: B,
        rng: &mut Rng,
        swaps: &mut Swaps,
    ) -> Result<Option<At<B>>, Fault> {
        let at = *s;
        let nth = |i: usize| {
            let (alt, value) = self.candidate(game, &at, pc, moves, more, i);
            Step {
                alt: alt as u16,
                value: value as u16,
            }
        };
        let len = self.candidate_count(game, s, pc, moves, more);
        draw_tried(len, nth, rng, swaps, |step| {
            let (alt, value) = (step.alt as usize, step.value as usize);
            if Runner::<B, P>::STEPS_OUT_OF_LINE && self.refuses_unchanged(pc, alt) {
                // Judged before anything changes: a refused cell costs no copy of the state.
                // Only where the step is called: on narrow boards the copy is a few vector
                // moves, and a second inlined step here was 0.1 MB per width.
                return self.try_play(game, s, pc, alt, value);
            }
            let mut t = *s;
            let played = self.try_play(game, &mut t, pc, alt, value)?;
            if played.is_some() {
                *s = t;
            }
            Ok(played)
        })
    }

    /// Random steps of an [`Enclosing`] turn from its choice among `moves` and `more`, drawn
    /// and counted as [`Playouts::playout`] draws and counts them, while the draw falls on a
    /// placement: the state changes in place and the next turn's choice is found without
    /// running the program. Where the game goes after the last step (a word's step is played
    /// as the general path plays it, and what follows is left to it), or `limit` reached;
    /// None when every candidate of a choice is refused.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn enclosing_playout(
        self,
        game: &Game,
        e: Enclosing,
        s: &mut RunState<B, P>,
        mut moves: B,
        mut more: B,
        rng: &mut Rng,
        swaps: &mut Swaps,
        steps: &mut u64,
        limit: u64,
    ) -> Result<Option<At<B>>, Fault> {
        let Some(Instr::Choose(c)) = game.program.first() else {
            unreachable!("an enclosing turn opens with its choice")
        };
        let untried = &self.untried[0];
        // The turn-boundary ends were found false after a placement (see `settled_ends`).
        let mut ends_clear = false;
        let mut more_count = more.count() as usize;
        while *steps < limit {
            let first = moves.count() as usize;
            let nth = |i: usize| {
                let (alt, value) = if i < first {
                    (0, moves.nth(i))
                } else {
                    later(c, more.nth(i - first))
                };
                Step {
                    alt: alt as u16,
                    value: value as u16,
                }
            };
            let len = first + more_count;
            // A word's step is played as the general path plays it, and handed back; a
            // placement is written at once (the draw returns only whether it was one: the
            // cells, handed out, were copied on every step).
            let mut word = None;
            let placed = draw_tried(len, nth, rng, swaps, |step| -> Result<_, Fault> {
                let (alt, value) = (step.alt as usize, step.value as usize);
                if alt == 0 {
                    let taken = self.enclosure(game, s, 0, value, e.dirs, e.require)?;
                    let Some(cells) = taken else {
                        return Ok(None);
                    };
                    self.write_enclosure(s, cells);
                    return Ok(Some(true));
                }
                let mut t = *s;
                word = self.try_play(game, &mut t, 0, alt, value)?;
                if word.is_none() {
                    return Ok(None);
                }
                *s = t;
                Ok(Some(false))
            })?;
            match placed {
                None => return Ok(None),
                Some(false) => {
                    *steps += 1;
                    return Ok(word);
                }
                Some(true) => *steps += 1,
            }
            // The next turn's opening, as `next_turn` and `begin_turn` make it.
            self.hand_over(game, s, false);
            moves = if e.of_empty {
                self.playable & !s.occupied()
            } else {
                self.option(&mut self.ctx(game, s), 0, c, 0)
            };
            if !e.settled_words {
                more = self.later_options(&mut self.ctx(game, s), 0, c);
                more_count = more.count() as usize;
            }
            // A candidate that needs no trial makes the turn's choice a decision; without
            // one, the general opening finds out.
            if (!untried.first || moves.is_empty()) && (more & untried.later).is_empty() {
                return self.begin_turn(game, s).map(Some);
            }
            if !ends_clear {
                let choice = At::Choice { pc: 0, moves, more };
                let at = self.start_or_end(game, s, Some(choice));
                if !matches!(at, At::Choice { .. }) {
                    return Ok(Some(at));
                }
                ends_clear = e.settled_ends;
            }
        }
        Ok(Some(At::Choice { pc: 0, moves, more }))
    }

    /// Random turns of a [`Direct`] game from a choice among `moves`, until a mover is blocked
    /// (the general path then decides between a pass and the end) or `limit` steps are
    /// played; draws as [`Playouts::playout`] does.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn direct_playout<const W: bool>(
        self,
        game: &Game,
        d: &Direct<B>,
        s: &mut RunState<B, P>,
        moves: B,
        rng: &mut Rng,
        steps: &mut u64,
        limit: u64,
    ) -> At<B> {
        DirectTurns(self.0).turns::<W>(game, d, s, moves, |_, moves| {
            (*steps < limit).then(|| {
                *steps += 1;
                moves.nth(rng.below(moves.count() as usize))
            })
        })
    }
}
