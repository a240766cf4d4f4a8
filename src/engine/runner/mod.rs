//! The runner: executes a compiled turn program, for every rules file and board size.
//!
//! A position's cell sets are [`Board`] values as wide as the board needs (one or two machine
//! words, six words up to 384 cells, eleven for the largest board), so candidate sets come
//! from shift-and-mask line matching and groups from layered floods, and states are small
//! and changed in place. The program is run instruction by instruction; where a part of it
//! has a shape the runner knows, it takes a direct path instead, chosen when the game is
//! loaded (`ChoiceShape`: a choice among the cells a line captures from, a place-and-flip body;
//! `Direct`: a whole turn of one outflanking placement run as a loop over the two boards;
//! `StepEndTable`: after-step ends answered from a table; turns of one placement, which
//! perft and the solver walk without the turn machinery). Nothing in it knows a game.
//!
//! `plain` builds take none of those paths: they are the reference the tests hold the fast
//! paths to (the same legal steps in the same order, the same random draws, the same end
//! checks and errors). A rule error (placing on a piece, a loop without end) is a [`Fault`]
//! with the place in the rules that caused it.

mod choices;
mod context;
pub(crate) mod copies;
pub(crate) mod direct;
mod eval;
mod owners;
pub mod positions;
mod run;
mod widths;

use super::plan::lines::{compile_line, CompiledLine};
use super::plan::shapes::{
    direct, enclosing, form, multi_step_reason, ChoiceShape, Direct, Enclosing,
};
use super::plan::tables::{EndChecks, Neighbours, Slots};
use context::{Ctx, Reached};
use positions::choose_at;
pub use positions::StepKey;
pub(crate) use widths::each_width;
pub use widths::AnyRunner;

use super::state::{Outcome, State, AT_FORCED_PASS, AT_GAME_OVER};
use super::step::{RuleError, ILLEGAL_STEP, LOOP_WITHOUT_END, MAX_TRIAL_DEPTH, TRIALS_WITHOUT_END};
use crate::board::geometry::DirSet;
use crate::board::pieces::Pieces;
use crate::board::sets::{flood_cell, reached, stepped, Board};
use crate::board::CellClass;
use crate::ir::{
    counter_slot, Alt, AltKind, Cell, Choose, Cond, Game, Instr, LinePattern, Num, Player,
    RegValue, Set, Timing, MAX_REGISTERS, MAX_TOKENS, NOBODY,
};
use std::sync::atomic::Ordering;

/// A rule error met by the runner (placing on a piece, a loop without end), with where the
/// rules cause it. Boxed: the runner's results stay a word wide on the hot path, where errors
/// are rare.
pub type Fault = Box<RuleError>;

pub(crate) fn fault(game: &Game, message: &str, loc: Option<&crate::ir::Loc>) -> Fault {
    Box::new(RuleError::in_rules(game, message.into(), loc))
}

/// A position: at a turn boundary, or inside a turn of several steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunState<B, const P: usize = 2> {
    pub pieces: [B; P],
    pub mover: u8,
    pub turn: u32,
    pub passes: u32,
    /// The after-step end conditions were found false with the cells they read as they are
    /// now (see `Runner::step_ends_read`).
    pub step_ends_clear: bool,
    /// Inside a turn: the steps taken, whether the turn is a pass, the turn's variables.
    pub steps: u32,
    pub passing: bool,
    pub regs: [i32; MAX_REGISTERS],
    /// Who holds each token (NOBODY when no one does).
    pub tokens: [u8; MAX_TOKENS],
    /// Running the agreement program on a stopped game, not playing a turn.
    pub agreeing: bool,
    /// Trials this copy is inside: a trial runs an option's body up to the next choice, and
    /// whether that choice has an option may take trials of its own.
    pub trials: u16,
}

/// Where a turn stands once it has begun.
#[derive(Clone, Copy, Debug)]
pub enum At<B> {
    /// The game is over; the winner an end condition named, if it named one (otherwise the
    /// scores decide, see [`Runner::outcome`]). Kept small: this is copied every step.
    Over(Option<u8>),
    /// The mover has no step and must pass.
    Pass,
    /// The mover chooses at the choice at `pc`: a value of its first option (`moves`) or of
    /// a later one (`more`). With two options, `more` holds the second's values, a word or
    /// pass option as bit 0; with more options, bit i stands for option i + 1, and a cell
    /// option's values are found again when they are listed (see `Runner::later_nth`).
    Choice { pc: u32, moves: B, more: B },
}

/// Where a turn's opening run suspends: the state there, the choice and its options.
type Opening<B, const P: usize> = Option<(RunState<B, P>, u32, B, B)>;

/// How running a turn program stopped.
pub(crate) enum Flow<B> {
    Suspended {
        pc: u32,
        moves: B,
        more: B,
    },
    TurnEnded,
    /// A `require` failed (where it is written): the step being tried is not legal.
    Refused(crate::ir::Loc),
}

/// The option and value that value `v` of a choice's `more` stands for (see [`At::Choice`]).
#[inline]
pub(crate) fn later(c: &Choose, v: usize) -> (usize, usize) {
    if c.alts.len() > 2 {
        (v + 1, 0)
    } else {
        (1, v)
    }
}

/// Declares `$name`, a view of a [`Runner`] whose methods the compiler builds in the codegen
/// unit of the module that declares it. A generic type's methods, in every file and for every
/// width, are built in the unit of the module that defines the type; the runner's entry points
/// (playouts, random games, perft, applying steps), each with the interpreter inlined, would
/// otherwise make one unit of all seven widths, which one core builds while the others wait
/// (in the test profile, eleven minutes after every other unit was done). A view changes
/// nothing at run time: it derefs to the runner, and a build of one codegen unit (the dist
/// profile) sees through it. The views are the entry points of their stage (perft, playouts,
/// random games, the search's questions), so `Runner`'s own impl stays the turn program's run.
macro_rules! runner_view {
    ($vis:vis $name:ident) => {
        #[derive(Clone, Copy)]
        $vis struct $name<'k, B: $crate::board::sets::Board, const P: usize>(
            $vis &'k $crate::engine::runner::Runner<B, P>,
        );

        impl<B: $crate::board::sets::Board, const P: usize> std::ops::Deref for $name<'_, B, P> {
            type Target = $crate::engine::runner::Runner<B, P>;

            #[inline(always)]
            fn deref(&self) -> &$crate::engine::runner::Runner<B, P> {
                self.0
            }
        }
    };
}
pub(crate) use runner_view;

/// Jumps one step may take before its next choice: past them, the run is reported as a loop
/// that never ends.
const STEP_BUDGET: u32 = 1_000_000;
/// Jumps after which a run starts watching for a state it has been in before.
const WATCH_AFTER: u32 = 4_096;

pub struct Runner<B: Board, const P: usize = 2> {
    /// Every turn is one placement (see the module's documentation): the direct paths apply,
    /// and perft and the solver may run here.
    pub(crate) single_step: bool,
    /// The registers of the turn's variables: the ones from here on hold the game's counters
    /// and last from turn to turn (see `ir::counter_slot`).
    pub(crate) turn_registers: usize,
    pub(crate) playable: B,
    /// Per line of the rules, its directions compiled.
    pub(crate) lines: Vec<CompiledLine<B>>,
    /// Per instruction, for choices of the most common shape, its parts as direct operations.
    pub(crate) forms: Vec<ChoiceShape>,
    /// Per instruction: a choice with an option that must be tried (its body meets a
    /// `require`), so a candidate is legal only once its trial passes.
    pub(crate) tried: Vec<bool>,
    /// Some choice is `tried`: games without one skip the lookup.
    pub(crate) any_tried: bool,
    /// Per instruction, for choices: which candidates need no trial (see [`Untried`]).
    pub(crate) untried: Vec<Untried<B>>,
    /// Per instruction: a choice of three or more options with a cell option after the
    /// first, whose `more` names options rather than values (see [`At::Choice`]).
    pub(crate) broad: Vec<bool>,
    /// Set when the whole turn is one outflanking placement (see [`Direct`]).
    pub(crate) direct: Option<Direct<B>>,
    /// Set when the turn opens with a capture by enclosure among words (see [`Enclosing`]).
    pub(crate) enclosing: Option<Enclosing>,
    /// The neighbours of each cell.
    pub(crate) near: Neighbours<B>,
    /// Which end checks a step and a turn need.
    pub(crate) ends: EndChecks<B>,
    /// Where the pieces of players and of kinds sit in a state.
    pub(crate) slots: Slots,
}

/// The candidates of a choice that need no trial, so that one of them makes a step legal
/// without trying anything: any of the first option's values when `first`, and the values in
/// `later` of its `more` (see [`At::Choice`]).
#[derive(Clone, Copy, Default)]
pub(crate) struct Untried<B> {
    pub(crate) first: bool,
    pub(crate) later: B,
}

impl<B: Board> Untried<B> {
    fn of(c: &Choose) -> Self {
        let untried = |a: &Alt| !a.needs_trial;
        let later = if c.alts.len() > 2 {
            // Bit i stands for option i + 1.
            c.alts[1..]
                .iter()
                .enumerate()
                .filter(|(_, a)| untried(a))
                .fold(B::EMPTY, |m, (i, _)| m | B::single(i))
        } else if c.alts.get(1).is_some_and(untried) {
            !B::EMPTY
        } else {
            B::EMPTY
        };
        Untried {
            first: c.alts.first().is_some_and(untried),
            later,
        }
    }
}

impl<B: Board, const P: usize> Runner<B, P> {
    /// The game's number of players: a constant on two-player builds, so that turn order and
    /// `for each p` loops fold away there.
    #[inline(always)]
    pub(super) fn players(game: &Game) -> u8 {
        if P == 2 {
            2
        } else {
            game.player_count()
        }
    }

    /// A step in direction `d` within the board's edges (on a wrapping board, the part that
    /// crosses no joined edge).
    #[inline(always)]
    pub(super) fn flat_step(&self, s: B, d: usize) -> B {
        (s & self.near.step_from[d]).shifted(self.near.step_offset[d])
    }

    /// The cells next to `s` in all eight directions, in four steps (valid when
    /// `Runner::eight_by_parts` says so): east and west, then north and south of those
    /// and of `s` itself, which covers the diagonals.
    #[inline(always)]
    pub(super) fn eight_by_steps(s: B, step: impl Fn(B, usize) -> B) -> B {
        let row = step(s, 2) | step(s, 6);
        let wide = s | row;
        row | step(wide, 0) | step(wide, 4)
    }

    /// A step in direction `d` on a wrapping board: `flat`, the step within the board's
    /// edges, and the cells of `s` that cross a joined edge. Inlined: as a call, its mere
    /// presence cost Reversi Go 9x9 a tenth of its playouts.
    #[inline(always)]
    pub(super) fn wrapped_step(&self, s: B, d: usize, flat: B) -> B {
        flat | stepped(&self.near.wrapped_steps[d], s)
    }

    /// The game has counters, which outlast the turn.
    #[inline(always)]
    pub(super) fn counted(&self) -> bool {
        self.turn_registers < MAX_REGISTERS
    }
}

impl<B: Board, const P: usize> RunState<B, P> {
    /// Every piece on the board. With two players (the common case) a plain union, which the
    /// compiler sees through; with more, the slots past the game's players are empty.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        if P == 2 {
            self.pieces[0] | self.pieces[1]
        } else {
            self.pieces.iter().fold(B::EMPTY, |m, &p| m | p)
        }
    }

    /// The pieces of `cells` that are not `p`'s (other players' and kinds') become `p`'s.
    #[inline(always)]
    pub fn take(&mut self, p: usize, cells: B) {
        if P == 2 {
            let taken = cells & self.pieces[1 - p];
            self.pieces[1 - p] = self.pieces[1 - p] ^ taken;
            self.pieces[p] = self.pieces[p] | taken;
        } else {
            let taken = cells & self.occupied() & !self.pieces[p];
            for (q, pieces) in self.pieces.iter_mut().enumerate() {
                *pieces = if q == p {
                    *pieces | taken
                } else {
                    *pieces & !taken
                };
            }
        }
    }

    /// The player whose piece stands on `cell`.
    #[inline(always)]
    pub fn owner(&self, cell: usize) -> Option<usize> {
        (0..P).find(|&p| self.pieces[p].contains(cell))
    }

    /// A copy of a position at a turn boundary, for the searches that branch there: the turn's
    /// variables are zero at a boundary, so only the board and counters are read (a copy of
    /// the whole state is slower: the fields are reread at once from a wide store). The
    /// registers are copied only when `counted`: the game's counters live there.
    #[inline(always)]
    pub fn at_boundary(&self, counted: bool) -> RunState<B, P> {
        RunState {
            pieces: self.pieces,
            mover: self.mover,
            turn: self.turn,
            passes: self.passes,
            step_ends_clear: self.step_ends_clear,
            steps: 0,
            passing: false,
            regs: if counted {
                self.regs
            } else {
                [0; MAX_REGISTERS]
            },
            tokens: self.tokens,
            agreeing: false,
            trials: 0,
        }
    }
}

impl<B: Board, const P: usize> Runner<B, P> {
    /// The runner for `game`, whose board must fit `B`. With `plain`, it takes none of the
    /// shapes it recognises (see `ChoiceShape`, `Direct`, `StepEndTable`, turns of one
    /// placement): the reference its fast paths are tested against.
    pub fn new(game: &Game, plain: bool) -> Runner<B, P> {
        let g = &game.geometry;
        assert!(g.cells() <= B::CELLS, "the board fits the runner's sets");
        let lines = game.lines.iter().map(|l| compile_line(game, l)).collect();
        let single_step = !plain && multi_step_reason(game).is_none();
        let tried: Vec<bool> = game
            .program
            .iter()
            .map(|i| matches!(i, Instr::Choose(c) if c.alts.iter().any(|a| a.needs_trial)))
            .collect();
        let forms: Vec<ChoiceShape> = (0..game.program.len())
            .map(|pc| {
                if plain {
                    ChoiceShape::default()
                } else {
                    form(game, pc)
                }
            })
            .collect();
        let ends = EndChecks::new(game, plain);
        let mut runner = Runner {
            single_step,
            lines,
            direct: direct(
                game,
                &forms,
                single_step,
                ends.ends_after_step,
                ends.ends_need_blocked,
            ),
            enclosing: enclosing(game, &forms, single_step, ends.ends_after_step),
            forms,
            any_tried: tried.contains(&true),
            untried: game
                .program
                .iter()
                .map(|i| match i {
                    Instr::Choose(c) => Untried::of(c),
                    _ => Untried::default(),
                })
                .collect(),
            broad: game
                .program
                .iter()
                .map(|i| {
                    matches!(i, Instr::Choose(c) if c.alts.len() > 2
                        && c.alts[1..].iter().any(|a| matches!(a.kind, AltKind::Cell { .. })))
                })
                .collect(),
            tried,
            playable: B::from_bits(&g.playable),
            turn_registers: MAX_REGISTERS - game.players.len() * game.counters.len(),
            near: Neighbours::new(game),
            ends,
            slots: Slots::new(game),
        };
        // Steps are unions of shifts, so checking one cell at a time covers every set.
        let blank = RunState {
            pieces: [B::EMPTY; P],
            mover: 0,
            turn: 0,
            passes: 0,
            step_ends_clear: false,
            steps: 0,
            passing: false,
            regs: [0; MAX_REGISTERS],
            tokens: [NOBODY; MAX_TOKENS],
            agreeing: false,
            trials: 0,
        };
        let ctx = runner.ctx(game, &blank);
        let by_parts = (0..g.cells())
            .all(|c| ctx.eight_by_parts(B::single(c)) == ctx.adjacent(B::single(c), 0xff));
        runner.near.eight_by_parts = by_parts;
        runner
    }

    /// The [`Direct`] shape, when the choice at `pc` is its choice (reached only once its phase
    /// gate is passed for good).
    #[inline(always)]
    pub(crate) fn direct_at_choice(&self, pc: u32) -> Option<&Direct<B>> {
        self.direct.as_ref().filter(|d| d.pc == pc)
    }

    /// The runner's state for `s` (the choice it stands at is `s.pc`).
    pub(crate) fn load(&self, s: &State) -> RunState<B, P> {
        RunState {
            pieces: std::array::from_fn(|p| B::from_bits(&s.pieces.of(p))),
            mover: s.mover,
            turn: s.turn,
            passes: s.passes,
            step_ends_clear: false,
            steps: s.steps,
            passing: s.passing,
            regs: s.regs,
            tokens: s.tokens,
            agreeing: s.agreeing,
            trials: 0,
        }
    }

    /// Where `s` stands, with its choice's candidates found again.
    fn at_of(&self, game: &Game, k: &RunState<B, P>, s: &State) -> At<B> {
        match s.pc {
            AT_GAME_OVER => At::Over(s.outcome.map(|o| o.winner)),
            AT_FORCED_PASS => At::Pass,
            pc => {
                let (moves, more) = self.options(game, k, pc, choose_at(game, pc));
                At::Choice { pc, moves, more }
            }
        }
    }

    /// The runner's view of `s`: its state and where it stands.
    pub fn import(&self, game: &Game, s: &State) -> (RunState<B, P>, At<B>) {
        let k = self.load(s);
        let at = self.at_of(game, &k, s);
        (k, at)
    }

    pub(crate) fn ctx<'a>(&'a self, game: &'a Game, state: &'a RunState<B, P>) -> Ctx<'a, B, P> {
        Ctx {
            game,
            runner: self,
            state,
            probe: None,
            bound: NOBODY,
            mover_can_move: None,
            sources_seen: Default::default(),
            reached: None,
        }
    }
}
