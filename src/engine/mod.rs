//! The engine: runs a compiled `Game`.
//!
//! A turn is the turn program run for the player to move. Every `choose` with at least one
//! legal option suspends the program: that is a step. The state remembers where it stopped,
//! so applying an option binds its value and runs on to the next suspension or the turn's end.
//!
//! One runner ([`runner`]) executes the program, on cell sets as wide as the board needs,
//! from what `plan` lowered when the game was loaded; [`Engine`] is its face for one position
//! at a time (the legal steps, the position after a step). Playouts and perft ([`playing`])
//! and the solver ([`solving`]) run on it directly; the runner knows neither.

mod face;
pub mod hash;
pub mod negamax;
mod notation;
mod plan;
pub mod playing;
mod random_pick;
pub mod rng;
pub mod runner;
pub mod solving;
pub mod state;
pub mod step;
pub mod turns;

pub use face::Engine;
pub use notation::Extra;
pub use step::{RuleError, Step, FORCED_PASS, MAX_TURN_STEPS};
