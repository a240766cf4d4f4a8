//! The runner of each width: which one a game gets, and the few questions asked of whichever
//! it is.

use super::RunState;
use super::Runner;
use crate::board::bits::WORDS;
use crate::board::sets::{Board, Wide};
use crate::ir::{Game, MAX_PLAYERS};

/// The runner sized for a game's board: one word, two, three (up to 13 x 13 and a little more),
/// six (up to 19 x 19 and a little more) for two players; the largest board the language
/// allows, or more players (and kinds of piece) than two on a board past one word, share the
/// widest runner, whose states have room for every player. Each width is a build of the whole
/// runner, and costs build time; the narrower a state, the less every step copies and masks.
pub enum AnyRunner {
    Narrow(Runner<u64>),
    Wide(Runner<u128>),
    // Boxed: a runner holds sets of its width, and these are wide.
    Words3(Box<Runner<Wide<3>>>),
    Words6(Box<Runner<Wide<6>>>),
    /// Games of more than two players (or kinds of piece) on one word.
    SeveralNarrow(Box<Runner<u64, MAX_PLAYERS>>),
    /// Every other game: more than two players past one word, or a board past six words. Two
    /// players of a board that large use two of its slots; a runner of its own for them was
    /// the largest build of the runner (docs/PERFORMANCE.md, "Build time").
    Widest(Box<Runner<Wide<{ WORDS }>, MAX_PLAYERS>>),
}

/// Runs `$body` with `$k` bound to the runner of whatever width `$any` holds.
macro_rules! each_width {
    ($any:expr, $k:ident => $body:expr) => {
        match $any {
            $crate::engine::runner::AnyRunner::Narrow($k) => $body,
            $crate::engine::runner::AnyRunner::Wide($k) => $body,
            $crate::engine::runner::AnyRunner::Words3($k) => $body,
            $crate::engine::runner::AnyRunner::Words6($k) => $body,
            $crate::engine::runner::AnyRunner::SeveralNarrow($k) => $body,
            $crate::engine::runner::AnyRunner::Widest($k) => $body,
        }
    };
}
pub(crate) use each_width;

impl AnyRunner {
    /// How many cells this runner's sets hold (a multiple of 64).
    pub fn set_cells(&self) -> usize {
        fn of<B: Board, const P: usize>(_: &Runner<B, P>) -> usize {
            B::CELLS
        }
        each_width!(self, k => of(k))
    }

    /// The size of this runner's [`RunState`].
    pub fn state_bytes(&self) -> usize {
        fn of<B: Board, const P: usize>(_: &Runner<B, P>) -> usize {
            std::mem::size_of::<RunState<B, P>>()
        }
        each_width!(self, k => of(k))
    }

    /// The runner for `game`, on sets as wide as its board needs, with every fast path the
    /// rules allow (`plain`: none of them, the reference the fast paths are tested against).
    pub fn new(game: &Game, plain: bool) -> AnyRunner {
        crate::board::cpu::settle();
        // Kinds of piece take slots of their own, which only the builds of many slots have.
        if game.slot_count() > 2 {
            return match game.geometry.cells() {
                ..=64 => AnyRunner::SeveralNarrow(Box::new(Runner::new(game, plain))),
                _ => AnyRunner::Widest(Box::new(Runner::new(game, plain))),
            };
        }
        match game.geometry.cells() {
            ..=64 => AnyRunner::Narrow(Runner::new(game, plain)),
            65..=128 => AnyRunner::Wide(Runner::new(game, plain)),
            129..=192 => AnyRunner::Words3(Box::new(Runner::new(game, plain))),
            193..=384 => AnyRunner::Words6(Box::new(Runner::new(game, plain))),
            _ => AnyRunner::Widest(Box::new(Runner::new(game, plain))),
        }
    }

    /// Whether every turn is one placement, so that the solver runs (see `solving::search`).
    pub fn single_step(&self) -> bool {
        each_width!(self, k => k.single_step)
    }

    /// Whether the game has the shape of `Direct` (every turn one outflanking placement).
    pub fn direct(&self) -> bool {
        each_width!(self, k => k.direct.is_some())
    }

    /// Whether playouts run the turn's placements as a loop (see `Enclosing`).
    pub fn enclosing(&self) -> bool {
        each_width!(self, k => k.enclosing.is_some())
    }

    /// Whether some choice's cell option runs as a capture by enclosure (see
    /// `ChoiceShape::place_surround`).
    pub fn encloses(&self) -> bool {
        each_width!(self, k => k.forms.iter().any(|f| f.place_surround.is_some()))
    }
}
