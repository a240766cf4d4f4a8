//! Playing the rules fast on the runner's own state: random playouts, perft, and whole games
//! between random players. Each is a view of the runner built in a codegen unit of its own
//! (see `runner_view`); the runner knows nothing of them.

mod perft;
mod playout;
pub mod random_games;

use crate::board::sets::Board;
use crate::engine::rng::Rng;
use crate::engine::runner::positions::Positions;
use crate::engine::runner::{each_width, fault, AnyRunner, Fault, Runner};
use crate::engine::state::State;
use crate::engine::step::RuleError;
use crate::ir::Game;
use perft::{Counting, StepMemo};
use playout::Playouts;

impl AnyRunner {
    /// Uniform random steps from `s` (see `Playouts`) until the game ends or `limit`
    /// steps are played: the position reached and the number of steps.
    pub fn playout(
        &self,
        game: &Game,
        s: &State,
        rng: &mut Rng,
        limit: u64,
    ) -> Result<(State, u64), RuleError> {
        fn run<B: Board, const P: usize>(
            k: &Runner<B, P>,
            game: &Game,
            s: &State,
            rng: &mut Rng,
            limit: u64,
        ) -> Result<(State, u64), RuleError> {
            if s.is_over() {
                return Ok((*s, 0));
            }
            if s.agreeing {
                return Ok(by_steps(Positions(k), game, s, rng, limit)?);
            }
            let (ks, at) = k.import(game, s);
            let (t, at, n) = Playouts(k).playout(game, &ks, at, rng, limit)?;
            Ok((k.export(game, &t, &at), n))
        }
        each_width!(self, k => run(k, game, s, rng, limit))
    }

    /// Perft from `s`: sequences of `depth` whole turns (see `Counting`).
    pub fn perft(&self, game: &Game, s: &State, depth: u32) -> Result<u64, RuleError> {
        fn run<B: Board, const P: usize>(
            k: &Runner<B, P>,
            game: &Game,
            s: &State,
            depth: u32,
        ) -> Result<u64, Fault> {
            if depth == 0 || s.is_over() {
                return Ok(1);
            }
            if s.agreeing {
                let message = "perft counts turns of play, and this position is in the agreement after the game";
                return Err(fault(game, message, None));
            }
            let (ks, at) = k.import(game, s);
            if k.single_step && s.steps == 0 {
                Counting(k).perft(game, &ks, &at, depth)
            } else {
                Counting(k).perft_steps(game, &ks, &at, depth, &mut StepMemo::default())
            }
        }
        each_width!(self, k => run(k, game, s, depth)).map_err(|e| *e)
    }
}

/// Random steps from `s` by [`Positions::random_step`] and [`Positions::apply`], one at a time:
/// playouts of the agreement program, which [`Playouts`] leaves out.
fn by_steps<B: Board, const P: usize>(
    k: Positions<'_, B, P>,
    game: &Game,
    s: &State,
    rng: &mut Rng,
    limit: u64,
) -> Result<(State, u64), Fault> {
    let (mut s, mut n) = (*s, 0);
    while n < limit {
        let Some(step) = k.random_step(game, &s, rng)? else {
            break;
        };
        s = k.apply(game, &s, step)?;
        n += 1;
    }
    Ok((s, n))
}
