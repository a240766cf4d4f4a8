//! A step, and what stops one: the errors a rules file can make at run time and the limits
//! that catch a turn or a loop without end. A leaf of the engine: the runner, the search and
//! the engine's face all import it, and it imports none of them.

use crate::ir::Game;
use std::fmt;

/// One choice at a step: an option of the suspended `choose` and its value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    /// Index of the option (`FORCED_PASS` for the pass of a player without a move).
    pub alt: u16,
    /// The chosen cell, for a cell option.
    pub value: u16,
}

pub const FORCED_PASS: u16 = u16::MAX;

impl Step {
    pub const PASS: Step = Step {
        alt: FORCED_PASS,
        value: 0,
    };
}

/// A rules file did something no game can do (placing on an occupied cell, a loop
/// that never ends). Reported with the place in the rules that caused it.
#[derive(Clone, Debug)]
pub struct RuleError {
    pub message: String,
    /// The statement that failed, when one did.
    pub at: Option<(
        std::sync::Arc<crate::source::SourceFile>,
        crate::source::Span,
    )>,
    /// How to fix the rules, when the error says more than "this statement failed".
    pub help: Option<&'static str>,
    /// What the place in the rules has to do with the error, when it is more than "this
    /// statement was running".
    pub label: Option<&'static str>,
}

/// The help for a run that never ends.
pub(crate) const ENDLESS_GAME_HELP: &str =
    "every game must end: each turn must bring an end condition closer (a turn that may change nothing never does)";

pub(crate) const ENDLESS_HELP: &str =
    "each round of a loop must change what its condition asks, or end the turn with `stop`";

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleError {}

/// Why a step's run was stopped: it came back to a state it had been in without a choice in
/// between (so it would go round for ever), or took a million jumps without one (straight-line
/// code runs off the program's end, so only a loop can run that long).
pub(crate) const LOOP_WITHOUT_END: &str =
    "the turn program went round without reaching a choice (its state repeated, or a million jumps passed); a while loop probably never ends";

/// Steps one turn may take. A longer turn is almost surely one that never ends (a loop
/// around a choice whose options change nothing); listing whole turns, perft and the search
/// follow a turn step by step, so a bound keeps them from running (and recursing) forever.
/// A board has at most 704 cells, so a turn that places or flips one piece a step fits.
/// Perft and the search recurse once per step of a turn: at this bound they need about 4 MB of
/// stack (the command line's threads have far more).
pub const MAX_TURN_STEPS: u32 = 1024;

/// Why a run was stopped when the options of choices were tried inside one another this deep
/// (each level is a choice reached without a step, whose options had to be tried).
pub(crate) const MAX_TRIAL_DEPTH: u16 = 256;

pub(crate) const TRIALS_WITHOUT_END: &str =
    "options were tried inside one another 256 deep without a step; a loop probably leads from this option back to its choice with nothing changed";

fn message_is_endless(message: &str) -> bool {
    message == LOOP_WITHOUT_END || message == TRIALS_WITHOUT_END || message == turn_without_end()
}

pub(crate) fn turn_without_end() -> String {
    format!(
        "a turn took more than {MAX_TURN_STEPS} steps; a loop around this choice probably never \
         ends (its options must change something that ends the loop)"
    )
}

/// A step that is not legal was played (the caller's mistake: steps come from the legal list).
pub(crate) const ILLEGAL_STEP: &str = "an illegal step was played";

impl RuleError {
    /// An error at a place in the rules (none when `loc` is).
    pub(crate) fn in_rules(game: &Game, message: String, loc: Option<&crate::ir::Loc>) -> Self {
        let endless = message_is_endless(&message);
        RuleError {
            help: endless.then_some(ENDLESS_HELP),
            label: match message.as_str() {
                LOOP_WITHOUT_END => Some("this loop went round without end"),
                TRIALS_WITHOUT_END => Some("this option leads back to its own choice"),
                _ => None,
            },
            message,
            at: loc.and_then(|l| game.files.get(l.file as usize).map(|f| (f.clone(), l.span))),
        }
    }

    /// A game that went on past a bound: pointed at the first end condition, which never came
    /// to hold.
    pub fn endless_game(game: &Game, message: String) -> Self {
        let mut e = Self::in_rules(game, message, game.ends.first().map(|e| &e.loc));
        e.label = Some("this never came to hold");
        e.help = Some(ENDLESS_GAME_HELP);
        e
    }

    pub(crate) fn place_on_piece(game: &Game, cell: usize, loc: &crate::ir::Loc) -> Self {
        let cell = game.geometry.name(cell);
        Self::in_rules(
            game,
            format!("place on {cell}, which is not empty"),
            Some(loc),
        )
    }

    pub(crate) fn move_from_empty(game: &Game, cell: usize, loc: &crate::ir::Loc) -> Self {
        let cell = game.geometry.name(cell);
        Self::in_rules(game, format!("move from {cell}, which is empty"), Some(loc))
    }

    pub(crate) fn move_to_taken(game: &Game, cell: usize, loc: &crate::ir::Loc) -> Self {
        let cell = game.geometry.name(cell);
        let message = format!("move to {cell}, which is not an empty playable cell");
        Self::in_rules(game, message, Some(loc))
    }

    pub(crate) fn counter_value(game: &Game, name: &str, value: f64, loc: &crate::ir::Loc) -> Self {
        let message = format!(
            "counter `{name}` would become {value}; counters hold whole numbers below a billion"
        );
        Self::in_rules(game, message, Some(loc))
    }
}
