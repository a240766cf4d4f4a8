//! Players that choose steps. Every decision is one step, so a long chain never has to be
//! enumerated as whole turns.

use crate::engine::state::State;
use crate::engine::{Engine, RuleError, Step};

/// SplitMix64: small, fast, and stable across versions, so a seed names the same games forever.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0), without modulo bias worth noticing for n < 2^32.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// Chooses uniformly among the legal steps.
pub fn random_step(
    engine: &Engine,
    s: &State,
    rng: &mut Rng,
    buf: &mut Vec<Step>,
) -> Result<Option<Step>, RuleError> {
    engine.steps(s, buf)?;
    Ok((!buf.is_empty()).then(|| buf[rng.below(buf.len())]))
}

/// A game longer than this is taken to be endless (rules without a reachable end).
pub const MAX_GAME_STEPS: u64 = 1_000_000;

/// The seed of game `index` of a series: independent of how games are spread over threads.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64()
}

/// Plays a whole game of uniform random steps; returns the final state and the number of steps.
pub fn random_game(
    engine: &Engine,
    start: &State,
    rng: &mut Rng,
) -> Result<(State, u64), RuleError> {
    let mut s = *start;
    let mut buf = Vec::with_capacity(64);
    let mut plies = 0;
    while let Some(step) = random_step(engine, &s, rng, &mut buf)? {
        s = engine.apply(&s, step)?;
        plies += 1;
        if plies == MAX_GAME_STEPS {
            return Err(RuleError {
                message: format!("the game did not end within {MAX_GAME_STEPS} steps; do the end conditions ever hold?"),
                at: None,
            });
        }
    }
    Ok((s, plies))
}
