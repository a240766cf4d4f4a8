//! The engine: runs a compiled [`Game`].
//!
//! A turn is the turn program run for the player to move. Every `choose` with at least one
//! legal option suspends the program: that is a step. The state remembers where it stopped,
//! so applying an option binds its value and runs on to the next suspension or the turn's end.
//!
//! One runner ([`kernel`]) executes the program, on cell sets as wide as the board needs;
//! [`Engine`] is its face for one position at a time (the legal steps, the position after a
//! step), and playouts, perft and the solver run on it directly.

pub mod eval;
pub mod explain;
pub mod hash;
pub mod kernel;
pub mod negamax;
mod notation;
mod random_pick;
pub mod rng;
pub mod state;
pub mod turns;

use crate::board::bits::Bits;
use crate::board::pieces::Pieces;
use crate::ir::{AltKind, Choose, Game, Instr};
use kernel::{each_width, AnyKernel};
pub use notation::Extra;
use state::{Outcome, State, AT_FORCED_PASS, AT_GAME_OVER};
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

/// A game ready to play.
pub struct Engine {
    pub game: Game,
    /// The runner, sized for the board.
    kernel: AnyKernel,
}

impl Engine {
    pub fn new(game: Game) -> Engine {
        let kernel = AnyKernel::new(&game, false);
        Engine { game, kernel }
    }

    /// The same engine without any fast path: every `where` clause asked cell by cell as
    /// written and no shape of turn recognised. The reference the fast paths are tested
    /// against; it plays the same games, only slower.
    pub fn plain(mut self) -> Engine {
        for instr in &mut self.game.program {
            let Instr::Choose(c) = instr else { continue };
            for alt in &mut c.alts {
                if let (Some(w), AltKind::Cell { set, .. }) = (alt.written.take(), &mut alt.kind) {
                    let (written, condition) = *w;
                    *set = written;
                    alt.condition = Some(condition);
                }
            }
        }
        self.kernel = AnyKernel::new(&self.game, true);
        self
    }

    /// Per player, the cells of its pieces at `s` that no placement can ever capture again,
    /// as the solver counts them to cut its search short; None for games where it does not.
    pub fn stable_pieces(&self, s: &State) -> Option<Vec<Vec<usize>>> {
        self.kernel.stable_pieces(s)
    }

    /// The value of `s` for its mover with best play, searched on the kernel a whole turn at
    /// a time, as `question` asks it (None when counters, tokens or an agreement outlast a
    /// turn, or the board is too large for the search's table).
    pub fn kernel_value(
        &self,
        s: &State,
        table: &mut kernel::search::Table,
        question: negamax::Question,
    ) -> Result<Option<f64>, RuleError> {
        self.kernel
            .value(&self.game, s, table, question)
            .transpose()
    }

    /// The cells `s`'s mover may place on, each with its rank in the order the runner's solver
    /// tries them (lower first; see `AnyKernel::ranks`): the table's best move first where
    /// one thread filled `table`, then by the judge a solve learnt into it. None where that
    /// solver cannot take `s`.
    pub fn kernel_ranks(
        &self,
        s: &State,
        table: &kernel::search::Table,
    ) -> Result<Option<Vec<(u64, usize)>>, RuleError> {
        self.kernel.ranks(&self.game, s, table).transpose()
    }

    /// How many cells the runner's sets hold: the board's cells rounded up to the width the
    /// runner was built for (64, 128, 192, 384, or the largest board's).
    pub fn runner_set_cells(&self) -> usize {
        self.kernel.set_cells()
    }

    /// The bytes of the runner's own state: its playouts copy that, not the engine's
    /// [`State`].
    pub fn kernel_state_bytes(&self) -> usize {
        self.kernel.state_bytes()
    }

    /// Whether every turn is one placement and the game has two players and no kinds of
    /// piece, so that the kernel's solver runs (it is negamax between two sides, on the
    /// builds of two slots).
    pub fn kernel_searches(&self) -> bool {
        self.kernel.single_step() && self.game.slot_count() == 2
    }

    /// Whether playouts and perft run as a loop over the boards alone (every turn one
    /// outflanking placement and nothing else; see `kernel::Direct`).
    pub fn kernel_is_direct(&self) -> bool {
        self.kernel.direct()
    }

    /// Whether a placement that takes the opponent's groups left without a liberty (Go's
    /// capture, `place c  flip surrounded(...)`) runs as one step of the runner instead of its
    /// instructions.
    pub fn kernel_encloses(&self) -> bool {
        self.kernel.encloses()
    }

    /// Whether playouts run the turn's placements by enclosure as a loop that opens each next
    /// turn without running the program (a turn of a placement among words, as in Go).
    pub fn kernel_loops_enclosures(&self) -> bool {
        self.kernel.enclosing()
    }

    /// Uniform random steps from `s` until the game ends or `limit` steps are played: the
    /// position reached and the number of steps. Draws from `rng` as [`Engine::random_step`]
    /// does, one draw per step.
    pub fn random_playout(
        &self,
        s: &State,
        rng: &mut rng::Rng,
        limit: u64,
    ) -> Result<(State, u64), RuleError> {
        self.kernel.playout(&self.game, s, rng, limit)
    }

    /// A game from `s` between random players, each drawing from its own generator (`rngs[p]`
    /// for player `p`) as
    /// `agents::Random` does, until it ends or `limit` steps are played: the final position
    /// and what was counted on the way.
    pub fn random_game(
        &self,
        s: &State,
        rngs: &mut [rng::Rng],
        limit: u64,
    ) -> Result<(State, kernel::random_games::Tally), RuleError> {
        let mut legal = Vec::new();
        let game = &self.game;
        Ok(each_width!(&self.kernel, k => k.random_game(game, s, rngs, limit, &mut legal))?)
    }

    /// A uniformly random legal step (None when the game is over).
    ///
    /// Options that must be tried (their body can fail a `require`) are not all tried first:
    /// candidates are drawn without replacement until one passes. The first legal one drawn is
    /// uniform among the legal ones, and a turn where most candidates are legal (a Go-like
    /// placement) costs one trial instead of one per cell. Without such options: one draw
    /// from the full list.
    pub fn random_step(&self, s: &State, rng: &mut rng::Rng) -> Result<Option<Step>, RuleError> {
        Ok(each_width!(&self.kernel, k => k.random_step(&self.game, s, rng))?)
    }

    /// The position before the first turn, advanced to the first step.
    pub fn start(&self) -> Result<State, RuleError> {
        let slots = self.game.slot_count() as usize;
        self.begin(&self.fresh(&self.game.setup[..slots], self.game.first))
    }

    /// A position before the first turn: these pieces (one set per slot), this mover,
    /// every counter at its starting value.
    pub(crate) fn fresh(&self, pieces: &[Bits], mover: u8) -> State {
        let pieces = Pieces::from_sets(pieces, self.game.geometry.cells());
        let mut s = State::new(pieces, mover);
        let players = self.game.player_count();
        for (i, (_, start)) in self.game.counters.iter().enumerate() {
            for p in 0..players {
                s.regs[crate::ir::counter_slot(i as u8, p, players)] = *start;
            }
        }
        s
    }

    /// A position before a turn, advanced to the mover's first step (or the game's end, or a
    /// forced pass).
    fn begin(&self, s: &State) -> Result<State, RuleError> {
        Ok(each_width!(&self.kernel, k => k.begin(&self.game, s))?)
    }

    fn choose_at(&self, pc: u32) -> &Choose {
        kernel::positions::choose_at(&self.game, pc)
    }

    /// The legal steps of the player to move, in a fixed order. Empty when the game is over.
    pub fn steps(&self, s: &State, out: &mut Vec<Step>) -> Result<(), RuleError> {
        Ok(each_width!(&self.kernel, k => k.steps(&self.game, s, out))?)
    }

    /// Whether every legal step at `s` completes the turn (so counting steps counts turns).
    pub fn last_choice(&self, s: &State) -> bool {
        match s.pc {
            AT_GAME_OVER | AT_FORCED_PASS => true,
            pc => self.choose_at(pc).last_choice,
        }
    }

    /// The cell a step names, if it is a cell option (for marking the last move).
    pub fn step_cell(&self, s: &State, step: Step) -> Option<usize> {
        if step.alt == FORCED_PASS {
            return None;
        }
        match self.choose_at(s.pc).alts[step.alt as usize].kind {
            AltKind::Cell { .. } => Some(step.value as usize),
            _ => None,
        }
    }

    /// Whether playing `step` at `s` certainly completes the turn (no choice can follow).
    pub fn step_ends_turn(&self, s: &State, step: Step) -> bool {
        step.alt == FORCED_PASS || self.choose_at(s.pc).alts[step.alt as usize].ends_turn
    }

    /// Plays one legal step. Steps not produced by [`Engine::steps`] for this state are a bug
    /// of the caller (the notation parser checks user input against the legal list).
    pub fn apply(&self, s: &State, step: Step) -> Result<State, RuleError> {
        Ok(each_width!(&self.kernel, k => k.apply(&self.game, s, step))?)
    }

    /// How many first-step candidates `player` would have if it were their turn now, their
    /// bodies not tried (a `require` may still refuse some): a cheap mobility for evaluations.
    pub fn first_candidates(&self, s: &State, player: u8) -> Result<usize, RuleError> {
        Ok(each_width!(&self.kernel, k => k.first_candidates(&self.game, s, player))?)
    }

    /// Starts the rules' agreement program on a stopped game, for `proposer`. None when the
    /// rules have no agreement. The result is finished (over) once the program ends.
    pub fn begin_agreement(&self, s: &State, proposer: u8) -> Result<Option<State>, RuleError> {
        let Some(entry) = self.game.agreement else {
            return Ok(None);
        };
        let t = each_width!(&self.kernel, k => k.begin_agreement(&self.game, s, proposer, entry))?;
        Ok(Some(t))
    }

    /// Play resumes on a stopped game (the players did not agree): the same position, no
    /// passes counted, the same player to move.
    pub fn resume(&self, s: &State, mover: u8) -> Result<State, RuleError> {
        Ok(each_width!(&self.kernel, k => k.resume(&self.game, s, mover))?)
    }

    /// Whether `player` would have a first step if it were their turn now.
    pub fn can_start_turn(&self, s: &State, player: u8) -> bool {
        each_width!(&self.kernel, k => k.can_start_turn(&self.game, s, player))
    }

    /// The cells of `set` at `s`.
    pub fn set_value(&self, s: &State, set: &crate::ir::Set) -> Bits {
        each_width!(&self.kernel, k => k.set_at(&self.game, s, set))
    }

    /// Whether `cond` holds at `s`, with `probe` (a variable and a cell) standing for the
    /// variable's value.
    pub fn cond_value(
        &self,
        s: &State,
        cond: &crate::ir::Cond,
        probe: Option<(u8, usize)>,
    ) -> bool {
        each_width!(&self.kernel, k => k.cond_at(&self.game, s, cond, probe))
    }

    /// Which `end` rule a finished game `s` reached, as it is written (the first in the rules
    /// that holds in the final position); none for a position no end rule holds in (a game that
    /// ended by resignation or agreement, or one not finished).
    pub fn end_reached(&self, s: &State) -> Option<String> {
        let i = each_width!(&self.kernel, k => k.end_reached(&self.game, s))?;
        let loc = &self.game.ends[i].loc;
        let text = self
            .game
            .files
            .get(loc.file as usize)
            .and_then(|f| f.text.get(loc.span.start..loc.span.end))
            .unwrap_or("end");
        Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// Scores the position; `winner` overrides the comparison of scores.
    pub fn outcome(&self, s: &State, winner: Option<u8>) -> Outcome {
        each_width!(&self.kernel, k => k.outcome_at(&self.game, s, winner))
    }

    /// The tie-break margins for `p`, each weighted half as much as the one before (the first
    /// by a half): what a position is worth beyond its score, for evaluations.
    pub fn tiebreak_margin(&self, s: &State, p: u8) -> f64 {
        each_width!(&self.kernel, k => k.tiebreak_margin(&self.game, s, p))
    }
}
