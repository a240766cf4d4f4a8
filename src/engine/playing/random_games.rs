//! Games between uniformly random players, played on the runner's own state: what `run`
//! plays when neither the moves' notation nor any other player is wanted. The players draw
//! exactly as [`crate::agents`]' random player does when it is handed the legal steps, so a
//! game played here and the same game played step by step through the engine are one game.

use crate::board::sets::Board;
use crate::engine::plan::shapes::Direct;
use crate::engine::rng::Rng;
use crate::engine::runner::direct::DirectTurns;
use crate::engine::runner::{copies, runner_view, At, Fault, RunState};
use crate::engine::state::State;
use crate::ir::Game;

/// What a game reports beside its final position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Steps played, a forced pass included.
    pub steps: u64,
    /// Turns begun (each is one move in notation).
    pub turns: u64,
    /// Steps with more than one legal choice, and the choices they had in all.
    pub decisions: u64,
    pub options: u64,
}

// Random games are built in a unit of their own (see `runner_view`).
runner_view!(pub(crate) RandomGames);

impl<B: Board, const P: usize> RandomGames<'_, B, P> {
    /// Plays from `s` until the game ends or `limit` steps are played. The player to move
    /// draws from its own generator (`rngs[p]`) an index below the number of legal steps, in
    /// the engine's order of steps, and only when there is more than one; `legal` is scratch
    /// space for the choices whose candidates must be tried.
    pub(crate) fn random_game(
        self,
        game: &Game,
        s: &State,
        rngs: &mut [Rng],
        limit: u64,
        legal: &mut Vec<(usize, usize)>,
    ) -> Result<(State, Tally), Fault> {
        let (mut k, mut at) = self.import(game, s);
        let mut tally = Tally::default();
        while tally.steps < limit {
            if let At::Choice { pc, moves, .. } = at {
                if let Some(d) = self.direct_at_choice(pc) {
                    at = if d.wraps {
                        self.direct_random_game::<true>(
                            game, d, &mut k, moves, rngs, &mut tally, limit,
                        )
                    } else {
                        self.direct_random_game::<false>(
                            game, d, &mut k, moves, rngs, &mut tally, limit,
                        )
                    };
                    continue;
                }
            }
            let (pc, moves, more) = match at {
                At::Over(_) => break,
                At::Pass => {
                    tally.turns += 1;
                    tally.steps += 1;
                    at = self.pass(game, &mut k)?;
                    continue;
                }
                At::Choice { pc, moves, more } => (pc, moves, more),
            };
            let n = self.candidate_count(game, &k, pc, moves, more);
            let (alt, value) = if self.is_tried(pc) {
                // Only the candidates that pass their trials are legal steps: the first
                // option's as a set (a Go board's are mostly found without a trial), then
                // the later options' in order.
                let first = self.legal_first(game, &k, pc, moves)?;
                legal.clear();
                self.each_legal_later(game, &k, pc, moves, more, |alt, value| {
                    legal.push((alt, value));
                    true
                })?;
                let in_first = first.count() as usize;
                let i = draw(
                    &mut rngs[k.mover as usize],
                    in_first + legal.len(),
                    &mut tally,
                );
                match i.checked_sub(in_first) {
                    None => (0, first.nth(i)),
                    Some(later) => legal[later],
                }
            } else {
                let i = draw(&mut rngs[k.mover as usize], n, &mut tally);
                self.candidate(game, &k, pc, moves, more, i)
            };
            tally.turns += u64::from(k.steps == 0);
            tally.steps += 1;
            at = self.play(game, &mut k, pc, alt, value)?;
        }
        Ok((self.export(game, &k, &at), tally))
    }

    // In the copy for the processor's vector instructions where it has them, as playouts.
    copies::chosen_entry!(direct_random_game, direct_random_game_v3, direct_random_game_on,
        (self, game: &Game, d: &Direct<B>, s: &mut RunState<B, P>, moves: B, rngs: &mut [Rng],
         tally: &mut Tally, limit: u64) -> At<B>);

    /// [`RandomGames::random_game`]'s turns in a [`Direct`] game, as a loop over the two boards
    /// (see [`DirectTurns::turns`]): until a mover is blocked (the general path then
    /// decides between a pass and the end) or `limit` steps are played.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn direct_random_game_on<const W: bool>(
        self,
        game: &Game,
        d: &Direct<B>,
        s: &mut RunState<B, P>,
        moves: B,
        rngs: &mut [Rng],
        tally: &mut Tally,
        limit: u64,
    ) -> At<B> {
        DirectTurns(self.0).turns::<W>(game, d, s, moves, |seat, moves| {
            (tally.steps < limit).then(|| {
                let i = draw(&mut rngs[seat], moves.count() as usize, tally);
                tally.turns += 1;
                tally.steps += 1;
                moves.nth(i)
            })
        })
    }
}

/// The index a random player draws among `n` legal steps (none drawn for a single one).
#[inline(always)]
fn draw(rng: &mut Rng, n: usize, tally: &mut Tally) -> usize {
    if n <= 1 {
        return 0;
    }
    tally.decisions += 1;
    tally.options += n as u64;
    rng.below(n)
}
