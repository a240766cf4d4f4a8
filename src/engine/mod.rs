//! The generic interpreter: runs a compiled [`Game`] step by step.
//!
//! A turn is the turn program run for the player to move. Every `choose` with at least one
//! legal option suspends the program: that is a step. The state remembers where it stopped,
//! so applying an option binds its value and runs on to the next suspension or the turn's end.

pub mod bits;
pub mod board;
mod draw;
pub mod eval;
pub mod explain;
pub mod geometry;
pub mod hash;
pub mod kernel;
pub mod rng;
pub mod state;
pub mod turns;

use crate::ir::{AltKind, Choose, Game, Instr, RegValue, Timing, NOBODY};
use bits::Bits;
use board::Board;
use eval::Ctx;
use geometry::DirSet;
use state::{Outcome, State, AT_FORCED_PASS, AT_GAME_OVER};
use std::fmt;

/// One choice at a step: an option of the suspended `choose` and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// A rules file did something the interpreter cannot do (placing on an occupied cell, a loop
/// that never ends). Reported with the place in the rules that caused it.
#[derive(Clone, Debug)]
pub struct RuleError {
    pub message: String,
    /// The statement that failed, when one did.
    pub at: Option<(
        std::sync::Arc<crate::source::SourceFile>,
        crate::syntax::ast::Span,
    )>,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleError {}

/// Why a step's run was stopped: no choice after a million jumps (straight-line code runs
/// off the program's end, so only a loop can run that long). Both runners count the same.
pub(crate) const LOOP_WITHOUT_END: &str =
    "the turn program took a million jumps without a choice; a while loop probably never ends";

/// A step that is not legal was played (the caller's mistake: steps come from the legal list).
pub(crate) const ILLEGAL_STEP: &str = "an illegal step was played";

impl RuleError {
    /// An error at a place in the rules (none when `loc` is).
    pub(crate) fn in_rules(game: &Game, message: String, loc: Option<&crate::ir::Loc>) -> Self {
        RuleError {
            message,
            at: loc.and_then(|l| game.files.get(l.file as usize).map(|f| (f.clone(), l.span))),
        }
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
}

enum Sole {
    None,
    One(u16, u16),
    Several,
}

enum Flow {
    Suspended(u32),
    TurnEnded,
    /// A `require` failed (where it is written).
    Illegal(crate::ir::Loc),
}

/// Instructions one step may run before it is judged to loop forever.
const STEP_BUDGET: u32 = 1_000_000;

/// A game ready to play.
pub struct Engine {
    pub game: Game,
    /// Some turn-boundary end condition asks `blocked`.
    ends_use_blocked: bool,
    /// The compiled kernel, for games of placement turns on boards that fit an integer.
    kernel: Option<kernel::AnyKernel>,
    /// The orthogonal steps as masks of the smallest set type the board fits, so that groups
    /// and regions are flooded for all their cells at once instead of cell by cell.
    flood_steps: FloodSteps,
}

/// See `Engine::flood_steps`.
pub(crate) enum FloodSteps {
    /// Up to 128 cells.
    Narrow(Vec<(u128, i32)>),
    /// Up to 384 cells (19 x 19 takes 361).
    Wide(Vec<(board::Wide<6>, i32)>),
    /// The largest boards the language allows.
    Full(Vec<(board::Wide<{ bits::WORDS }>, i32)>),
    /// The plain interpreter (the tests' oracle): cell by cell.
    CellByCell,
}

impl Engine {
    pub fn new(game: Game) -> Engine {
        let ends_use_blocked = game
            .ends
            .iter()
            .any(|e| e.timing == Timing::AfterTurn && eval::uses_blocked(&e.condition));
        let kernel = kernel::AnyKernel::new(&game);
        let g = &game.geometry;
        let orthogonal = DirSet::ORTHOGONAL.iter();
        let flood_steps = match g.cells() {
            ..=128 => FloodSteps::Narrow(
                orthogonal
                    .map(|d| (u128::from_bits(&g.step_from[d]), g.step_offset[d]))
                    .collect(),
            ),
            129..=384 => FloodSteps::Wide(
                orthogonal
                    .map(|d| (board::Wide::from_bits(&g.step_from[d]), g.step_offset[d]))
                    .collect(),
            ),
            _ => FloodSteps::Full(
                orthogonal
                    .map(|d| (board::Wide::from_bits(&g.step_from[d]), g.step_offset[d]))
                    .collect(),
            ),
        };
        Engine {
            game,
            ends_use_blocked,
            kernel,
            flood_steps,
        }
    }

    /// The same engine without its compiled kernel and with every `where` clause asked cell
    /// by cell as written: the plain interpreter, the oracle the fast paths are tested against.
    pub fn interpreter_only(mut self) -> Engine {
        self.kernel = None;
        self.flood_steps = FloodSteps::CellByCell;
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
        self
    }

    /// The value of `s` for its mover with best play, searched on the compiled kernel: exact
    /// without a window, else exact inside it and a bound outside (None when the game or the
    /// position is not the kernel's).
    pub fn kernel_value(
        &self,
        s: &State,
        table: &mut kernel::search::Table,
        window: Option<(f64, f64)>,
    ) -> Option<f64> {
        self.kernel.as_ref()?.value(&self.game, s, table, window)
    }

    /// Whether the compiled kernel runs this game's random playouts.
    pub fn has_kernel(&self) -> bool {
        self.kernel.is_some()
    }

    /// The bytes of the kernel's own state, when the game has a kernel: its playouts copy
    /// that, not the interpreter's [`State`].
    pub fn kernel_state_bytes(&self) -> Option<usize> {
        self.kernel.as_ref().map(kernel::AnyKernel::state_bytes)
    }

    /// Whether the compiled kernel also runs perft and the solver (every turn one placement).
    pub fn kernel_searches(&self) -> bool {
        self.kernel.as_ref().is_some_and(|k| k.single_step())
    }

    /// Whether the kernel runs playouts and perft as a loop over the boards alone (every turn
    /// one outflanking placement and nothing else; see `kernel::Direct`).
    pub fn kernel_is_direct(&self) -> bool {
        self.kernel.as_ref().is_some_and(|k| k.direct())
    }

    /// Uniform random steps from `s` until the game ends or `limit` steps are played: the
    /// position reached and the number of steps. One draw from `rng` per step.
    pub fn random_playout(
        &self,
        s: &State,
        rng: &mut rng::Rng,
        limit: u64,
    ) -> Result<(State, u64), RuleError> {
        if let Some(k) = &self.kernel {
            let mut fast = rng.clone();
            match k.playout(&self.game, s, &mut fast, limit) {
                Some(Ok(done)) => {
                    *rng = fast;
                    return Ok(done);
                }
                Some(Err(e)) => return Err(e),
                // Too many refusals in one step: the interpreter plays it all again.
                None => {}
            }
        }
        let mut s = *s;
        let mut buf = Vec::with_capacity(64);
        let mut steps = 0;
        while steps < limit {
            let Some(t) = self.random_successor(&s, rng, &mut buf)? else {
                break;
            };
            s = t;
            steps += 1;
        }
        Ok((s, steps))
    }

    /// The position after a uniformly random legal step, drawn as [`Engine::random_step`]
    /// draws it; a tried option's trial is kept as its play rather than run a second time.
    fn random_successor(
        &self,
        s: &State,
        rng: &mut rng::Rng,
        buf: &mut Vec<Step>,
    ) -> Result<Option<State>, RuleError> {
        let tried = s.pc != AT_GAME_OVER
            && s.pc != AT_FORCED_PASS
            && self.choose_at(s.pc).alts.iter().any(|a| a.needs_trial);
        if !tried {
            return match self.random_step(s, rng, buf)? {
                Some(step) => Ok(Some(self.apply(s, step)?)),
                None => Ok(None),
            };
        }
        self.draw_tried(s, rng, |step| {
            let (t, flow) = self.run_step(s, step)?;
            if matches!(flow, Flow::Illegal(_)) {
                return Ok(None);
            }
            Ok(Some(self.conclude_step(t, flow)?))
        })
    }

    /// A uniformly random legal step (None when the game is over).
    ///
    /// Options that must be tried (their body can fail a `require`) are not all tried first:
    /// candidates are drawn without replacement until one passes. The first legal one drawn is
    /// uniform among the legal ones, and a turn where most candidates are legal (a Go-like
    /// placement) costs one trial instead of one per cell. Without such options: one draw
    /// from the full list.
    pub fn random_step(
        &self,
        s: &State,
        rng: &mut rng::Rng,
        buf: &mut Vec<Step>,
    ) -> Result<Option<Step>, RuleError> {
        let pc = match s.pc {
            AT_GAME_OVER => return Ok(None),
            AT_FORCED_PASS => {
                rng.below(1);
                return Ok(Some(Step::PASS));
            }
            pc => pc,
        };
        let c = self.choose_at(pc);
        if !c.alts.iter().any(|a| a.needs_trial) {
            self.steps(s, buf)?;
            return Ok((!buf.is_empty()).then(|| buf[rng.below(buf.len())]));
        }
        self.draw_tried(s, rng, |step| {
            Ok(self
                .passes_trial(s, c, step.alt, step.value)?
                .then_some(step))
        })
    }

    /// Draws candidates of the choice at `s` (each option's values in order) without
    /// replacement until `try_one` accepts one, by [`draw::draw_tried`]: the candidates stay
    /// one set per option, and the i-th is found by counting.
    fn draw_tried<T>(
        &self,
        s: &State,
        rng: &mut rng::Rng,
        try_one: impl FnMut(Step) -> Result<Option<T>, RuleError>,
    ) -> Result<Option<T>, RuleError> {
        let c = self.choose_at(s.pc);
        // On the stack for the usual few options (this runs every step of a playout).
        let (mut few, mut many) = ([(0u16, Bits::EMPTY, 0usize); 4], Vec::new());
        let parts: &mut [(u16, Bits, usize)] = if c.alts.len() <= few.len() {
            &mut few[..c.alts.len()]
        } else {
            many.resize(c.alts.len(), (0, Bits::EMPTY, 0));
            &mut many
        };
        for (i, alt) in c.alts.iter().enumerate() {
            let cells = match &alt.kind {
                AltKind::Cell { reg, set } => {
                    let mut cells = self.ctx(s).set(set);
                    if let Some(cond) = &alt.condition {
                        let mut probe = *s;
                        for cell in cells.iter() {
                            probe.regs[*reg as usize] = cell as i32;
                            if !self.ctx(&probe).cond(cond) {
                                cells.remove(cell);
                            }
                        }
                    }
                    cells
                }
                AltKind::Word(_) | AltKind::Pass => match &alt.condition {
                    Some(cond) if !self.ctx(s).cond(cond) => Bits::EMPTY,
                    _ => Bits::single(0),
                },
            };
            parts[i] = (i as u16, cells, cells.count() as usize);
        }
        let parts = &*parts;
        let nth = |mut i: usize| {
            for &(alt, cells, n) in parts {
                if i < n {
                    return Step {
                        alt,
                        value: cells.nth(i) as u16,
                    };
                }
                i -= n;
            }
            unreachable!("a draw below the number of candidates")
        };
        let len = parts.iter().map(|p| p.2).sum();
        draw::draw_tried(len, nth, rng, None, try_one)
    }

    fn ctx<'a>(&'a self, state: &'a State) -> Ctx<'a> {
        Ctx {
            engine: self,
            state,
            bound: NOBODY,
            mover_can_move: None,
            reached: None,
        }
    }

    /// The position before the first turn, advanced to the first step.
    pub fn start(&self) -> Result<State, RuleError> {
        let s = State::new(self.game.setup, self.game.first);
        self.begin_turn(s)
    }

    fn choose_at(&self, pc: u32) -> &Choose {
        match &self.game.program[pc as usize] {
            Instr::Choose(c) => c,
            _ => unreachable!("states are only suspended at choices"),
        }
    }

    /// Runs the program from `pc` until a choice with a legal option, the end of the turn, or a
    /// failed `require`.
    fn run(&self, s: &mut State, mut pc: u32) -> Result<Flow, RuleError> {
        let program = &self.game.program;
        let mut budget = STEP_BUDGET;
        loop {
            let Some(instr) = program.get(pc as usize) else {
                return Ok(Flow::TurnEnded);
            };
            // Counted where the kernel counts: at jumps and at choices passed without a step.
            if matches!(
                instr,
                Instr::Choose(_) | Instr::Jump(_) | Instr::JumpUnless(..)
            ) {
                budget -= 1;
                if budget == 0 {
                    return Err(RuleError::in_rules(
                        &self.game,
                        LOOP_WITHOUT_END.into(),
                        None,
                    ));
                }
            }
            match instr {
                Instr::Choose(c) => {
                    if c.auto {
                        // A forced choice is no decision: take it without stopping.
                        match self.sole_option(s, c)? {
                            Sole::None => pc = c.otherwise,
                            Sole::One(alt, value) => {
                                self.bind(s, c, alt, value);
                                pc = c.alts[alt as usize].body;
                            }
                            Sole::Several => return Ok(Flow::Suspended(pc)),
                        }
                    } else if self.any_option(s, c)? {
                        return Ok(Flow::Suspended(pc));
                    } else {
                        pc = c.otherwise;
                    }
                }
                Instr::Place(c, loc) => {
                    let cell = self.ctx(s).cell(c);
                    if s.owner(cell).is_some() {
                        return Err(RuleError::place_on_piece(&self.game, cell, loc));
                    }
                    s.pieces[s.mover as usize].insert(cell);
                    pc += 1;
                }
                Instr::Flip(set) => {
                    let cells = self.ctx(s).set(set);
                    let (m, o) = (s.mover as usize, 1 - s.mover as usize);
                    let flipped = cells.inter(&s.pieces[o]);
                    s.pieces[o] = s.pieces[o].minus(&flipped);
                    s.pieces[m] = s.pieces[m].union(&flipped);
                    pc += 1;
                }
                Instr::Move(a, b, loc) => {
                    let (from, to) = (self.ctx(s).cell(a), self.ctx(s).cell(b));
                    let Some(owner) = s.owner(from) else {
                        return Err(RuleError::move_from_empty(&self.game, from, loc));
                    };
                    if s.owner(to).is_some() || !self.game.geometry.playable.contains(to) {
                        return Err(RuleError::move_to_taken(&self.game, to, loc));
                    }
                    s.pieces[owner as usize].remove(from);
                    s.pieces[owner as usize].insert(to);
                    pc += 1;
                }
                Instr::Let(r, v) => {
                    let value = match v {
                        RegValue::Cell(c) => self.ctx(s).cell(c) as i32,
                        RegValue::Num(n) => self.ctx(s).num(n) as i32,
                    };
                    s.regs[*r as usize] = value;
                    pc += 1;
                }
                Instr::JumpUnless(c, target) => {
                    pc = if self.ctx(s).cond(c) { pc + 1 } else { *target };
                }
                Instr::Jump(target) => pc = *target,
                Instr::Require(c, loc) => {
                    if !self.ctx(s).cond(c) {
                        return Ok(Flow::Illegal(*loc));
                    }
                    pc += 1;
                }
                Instr::Stop => return Ok(Flow::TurnEnded),
                Instr::Take(t) => {
                    s.tokens[*t as usize] = s.mover;
                    pc += 1;
                }
                Instr::MarkPass => {
                    s.passing = true;
                    pc += 1;
                }
            }
        }
    }

    /// Calls `f` for every candidate of `choose` whose `where` holds, until `f` says stop; only
    /// options that `include` accepts.
    #[inline]
    fn candidates(
        &self,
        s: &State,
        c: &Choose,
        include: impl Fn(&crate::ir::Alt) -> bool,
        mut f: impl FnMut(u16, u16) -> Result<bool, RuleError>,
    ) -> Result<(), RuleError> {
        let mut probe = *s;
        for (i, alt) in c.alts.iter().enumerate() {
            if !include(alt) {
                continue;
            }
            match &alt.kind {
                AltKind::Cell { reg, set } => {
                    let cells = self.ctx(s).set(set);
                    for cell in cells.iter() {
                        if let Some(cond) = &alt.condition {
                            probe.regs[*reg as usize] = cell as i32;
                            if !self.ctx(&probe).cond(cond) {
                                continue;
                            }
                        }
                        if !f(i as u16, cell as u16)? {
                            return Ok(());
                        }
                    }
                }
                AltKind::Word(_) | AltKind::Pass => {
                    if let Some(cond) = &alt.condition {
                        if !self.ctx(s).cond(cond) {
                            continue;
                        }
                    }
                    if !f(i as u16, 0)? {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether an option passes its trial (its `require`s up to the next choice).
    fn passes_trial(&self, s: &State, c: &Choose, alt: u16, value: u16) -> Result<bool, RuleError> {
        let a = &c.alts[alt as usize];
        if !a.needs_trial {
            return Ok(true);
        }
        let mut t = *s;
        self.bind(&mut t, c, alt, value);
        Ok(!matches!(self.run(&mut t, a.body)?, Flow::Illegal(_)))
    }

    fn any_option(&self, s: &State, c: &Choose) -> Result<bool, RuleError> {
        // Options without a trial first: a candidate there settles the question without running
        // any body (a Go-like turn always has its pass, whatever the placements would do).
        let mut found = false;
        self.candidates(
            s,
            c,
            |a| !a.needs_trial,
            |_, _| {
                found = true;
                Ok(false)
            },
        )?;
        if found {
            return Ok(true);
        }
        self.candidates(
            s,
            c,
            |a| a.needs_trial,
            |alt, value| {
                found = self.passes_trial(s, c, alt, value)?;
                Ok(!found)
            },
        )?;
        Ok(found)
    }

    /// Whether `c` has no legal option, exactly one (which), or more.
    fn sole_option(&self, s: &State, c: &Choose) -> Result<Sole, RuleError> {
        let mut found = Sole::None;
        self.candidates(
            s,
            c,
            |_| true,
            |alt, value| {
                if !self.passes_trial(s, c, alt, value)? {
                    return Ok(true);
                }
                found = match found {
                    Sole::None => Sole::One(alt, value),
                    _ => Sole::Several,
                };
                Ok(matches!(found, Sole::One(..)))
            },
        )?;
        Ok(found)
    }

    fn bind(&self, s: &mut State, c: &Choose, alt: u16, value: u16) {
        match &c.alts[alt as usize].kind {
            AltKind::Cell { reg, .. } => s.regs[*reg as usize] = value as i32,
            AltKind::Word(_) => {}
            AltKind::Pass => s.passing = true,
        }
    }

    /// The legal steps of the player to move, in a fixed order. Empty when the game is over.
    pub fn steps(&self, s: &State, out: &mut Vec<Step>) -> Result<(), RuleError> {
        out.clear();
        match s.pc {
            AT_GAME_OVER => Ok(()),
            AT_FORCED_PASS => {
                out.push(Step::PASS);
                Ok(())
            }
            pc => {
                let c = self.choose_at(pc);
                self.candidates(
                    s,
                    c,
                    |_| true,
                    |alt, value| {
                        if self.passes_trial(s, c, alt, value)? {
                            out.push(Step { alt, value });
                        }
                        Ok(true)
                    },
                )
            }
        }
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

    /// Sets up a position: rows of symbols (`.` empty, `#` or `.` on removed cells), row 1
    /// first, separated by `/`; `to_move` names the player to move (default: the first mover).
    pub fn position(&self, rows: &str, to_move: Option<&str>) -> Result<State, String> {
        let g = &self.game.geometry;
        let rows: Vec<&str> = rows.split('/').map(str::trim).collect();
        if rows.len() != g.height {
            return Err(format!(
                "the position has {} rows, the board has {}",
                rows.len(),
                g.height
            ));
        }
        let mut pieces = [bits::Bits::EMPTY; 2];
        for (y, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != g.width {
                return Err(format!(
                    "row {} has {} cells, the board is {} wide",
                    y + 1,
                    cells.len(),
                    g.width
                ));
            }
            for (x, ch) in cells.into_iter().enumerate() {
                let cell = y * g.width + x;
                let removed = !g.playable.contains(cell);
                match ch {
                    '.' | '#' if removed => {}
                    '.' => {}
                    _ if removed => {
                        return Err(format!(
                            "{} is removed from play, so it must be '#'",
                            g.name(cell)
                        ))
                    }
                    _ => match self.game.players.iter().position(|p| p.symbol == ch) {
                        Some(p) => pieces[p].insert(cell),
                        None => {
                            let symbols: Vec<String> = self
                                .game
                                .players
                                .iter()
                                .map(|p| format!("'{}'", p.symbol))
                                .collect();
                            return Err(format!(
                                "'{ch}' at {} is not a piece; use '.' or {}",
                                g.name(cell),
                                symbols.join(" or ")
                            ));
                        }
                    },
                }
            }
        }
        let mover = match to_move {
            None => self.game.first,
            Some(name) => self.game.player_by_name(name).ok_or_else(|| {
                format!(
                    "no player named `{name}`; the players are {} and {}",
                    self.game.players[0].name, self.game.players[1].name
                )
            })?,
        };
        self.begin_turn(State::new(pieces, mover))
            .map_err(|e| format!("rule error: {e}"))
    }

    /// Plays one legal step. Steps not produced by [`Engine::steps`] for this state are a bug
    /// of the caller (the notation parser checks user input against the legal list).
    pub fn apply(&self, s: &State, step: Step) -> Result<State, RuleError> {
        if step.alt == FORCED_PASS {
            let mut t = *s;
            t.passing = true;
            t.steps += 1;
            return self.finish_turn(t);
        }
        let (t, flow) = self.run_step(s, step)?;
        self.conclude_step(t, flow)
    }

    /// Binds a step's value and runs its option's body to the next choice or the turn's end.
    fn run_step(&self, s: &State, step: Step) -> Result<(State, Flow), RuleError> {
        let mut t = *s;
        let c = self.choose_at(t.pc);
        self.bind(&mut t, c, step.alt, step.value);
        t.steps += 1;
        let flow = self.run(&mut t, c.alts[step.alt as usize].body)?;
        Ok((t, flow))
    }

    /// After a step's body: end checks, then the next choice or the next turn.
    fn conclude_step(&self, mut t: State, flow: Flow) -> Result<State, RuleError> {
        if t.agreeing {
            // An agreement changes the final position only: no end checks, no next turn.
            match flow {
                Flow::Suspended(pc) => t.pc = pc,
                _ => self.close_agreement(&mut t),
            }
            return Ok(t);
        }
        if let Some(outcome) = self.check_ends(&t, Timing::AfterStep, None) {
            t.outcome = Some(outcome);
            t.pc = AT_GAME_OVER;
            return Ok(t);
        }
        match flow {
            Flow::Suspended(pc) => {
                t.pc = pc;
                Ok(t)
            }
            Flow::TurnEnded => self.finish_turn(t),
            Flow::Illegal(_) => Err(RuleError::in_rules(&self.game, ILLEGAL_STEP.into(), None)),
        }
    }

    fn finish_turn(&self, mut t: State) -> Result<State, RuleError> {
        t.passes = if t.passing { t.passes + 1 } else { 0 };
        t.mover = 1 - t.mover;
        t.turn += 1;
        t.steps = 0;
        t.passing = false;
        t.regs = [0; crate::ir::MAX_REGISTERS];
        self.begin_turn(t)
    }

    /// Checks the turn-boundary end conditions, then runs the mover's program to its first
    /// choice; with no choice at all the mover must pass.
    fn begin_turn(&self, mut t: State) -> Result<State, RuleError> {
        // `blocked` needs to know whether the mover can start; find the first step once and
        // share it, rather than searching for it again after the end check.
        let mut first = None;
        if self.ends_use_blocked {
            let mut u = t;
            let flow = self.run(&mut u, 0)?;
            first = Some((flow, u));
        }
        let hint = first.as_ref().map(|(f, _)| matches!(f, Flow::Suspended(_)));
        if let Some(outcome) = self.check_ends(&t, Timing::AfterTurn, hint) {
            t.outcome = Some(outcome);
            t.pc = AT_GAME_OVER;
            return Ok(t);
        }
        let (flow, mut u) = match first {
            Some(found) => found,
            None => {
                let mut u = t;
                (self.run(&mut u, 0)?, u)
            }
        };
        match flow {
            Flow::Suspended(pc) => {
                u.pc = pc;
                Ok(u)
            }
            Flow::TurnEnded | Flow::Illegal(_) => {
                t.pc = AT_FORCED_PASS;
                Ok(t)
            }
        }
    }

    /// How many first-step candidates `player` would have if it were their turn now, their
    /// bodies not tried (a `require` may still refuse some): a cheap mobility for evaluations.
    pub fn first_candidates(&self, s: &State, player: u8) -> Result<usize, RuleError> {
        let mut u = *s;
        u.mover = player;
        u.steps = 0;
        u.passing = false;
        u.regs = [0; crate::ir::MAX_REGISTERS];
        match self.run(&mut u, 0)? {
            Flow::Suspended(pc) => {
                let c = self.choose_at(pc);
                // A cell option without a `where` counts its set at once (evaluations call
                // this at every horizon, and a Go board has hundreds of candidates); the
                // other options are counted one candidate at a time.
                let mut n: usize = c
                    .alts
                    .iter()
                    .filter_map(whole_set)
                    .map(|set| self.ctx(&u).set(set).count() as usize)
                    .sum();
                self.candidates(
                    &u,
                    c,
                    |alt| whole_set(alt).is_none(),
                    |_, _| {
                        n += 1;
                        Ok(true)
                    },
                )?;
                Ok(n)
            }
            _ => Ok(0),
        }
    }

    /// Starts the rules' agreement program on a stopped game, for `proposer`. None when the
    /// rules have no agreement. The result is finished (over) once the program ends.
    pub fn begin_agreement(&self, s: &State, proposer: u8) -> Result<Option<State>, RuleError> {
        let Some(entry) = self.game.agreement else {
            return Ok(None);
        };
        let mut t = *s;
        t.mover = proposer;
        t.agreeing = true;
        t.outcome = None;
        t.steps = 0;
        t.passing = false;
        t.regs = [0; crate::ir::MAX_REGISTERS];
        match self.run(&mut t, entry)? {
            Flow::Suspended(pc) => t.pc = pc,
            _ => self.close_agreement(&mut t),
        }
        Ok(Some(t))
    }

    fn close_agreement(&self, t: &mut State) {
        t.pc = AT_GAME_OVER;
        t.outcome = Some(self.outcome(t, None));
    }

    /// Play resumes on a stopped game (the players did not agree): the same position, no
    /// passes counted, the same player to move.
    pub fn resume(&self, s: &State, mover: u8) -> Result<State, RuleError> {
        let mut t = *s;
        t.outcome = None;
        t.agreeing = false;
        t.passes = 0;
        t.mover = mover;
        t.steps = 0;
        t.passing = false;
        t.regs = [0; crate::ir::MAX_REGISTERS];
        let mut u = t;
        match self.run(&mut u, 0)? {
            Flow::Suspended(pc) => {
                u.pc = pc;
                Ok(u)
            }
            _ => {
                t.pc = AT_FORCED_PASS;
                Ok(t)
            }
        }
    }

    /// Whether `player` would have a first step if it were their turn now.
    pub fn can_start_turn(&self, s: &State, player: u8) -> bool {
        let mut u = *s;
        u.mover = player;
        u.steps = 0;
        u.passing = false;
        u.regs = [0; crate::ir::MAX_REGISTERS];
        matches!(self.run(&mut u, 0), Ok(Flow::Suspended(_)))
    }

    fn check_ends(
        &self,
        s: &State,
        timing: Timing,
        mover_can_move: Option<bool>,
    ) -> Option<Outcome> {
        let winner = eval::ended(&self.game.ends, timing, s.mover, |bound| Ctx {
            engine: self,
            state: s,
            bound,
            mover_can_move,
            reached: None,
        })?;
        Some(self.outcome(s, winner))
    }

    /// Scores the position; `winner` overrides the comparison of scores.
    pub fn outcome(&self, s: &State, winner: Option<u8>) -> Outcome {
        let reached = eval::Reached::default();
        eval::outcome(&self.game.score, &self.game.tiebreaks, winner, |bound| {
            Ctx {
                engine: self,
                state: s,
                bound,
                mover_can_move: None,
                reached: Some(&reached),
            }
        })
    }

    /// The tie-break margins for `p`, each weighted half as much as the one before (the first
    /// by a half): what a position is worth beyond its score, for evaluations.
    pub fn tiebreak_margin(&self, s: &State, p: u8) -> f64 {
        let reached = eval::Reached::default();
        let value = |expr: &crate::ir::Num, q: u8| {
            Ctx {
                engine: self,
                state: s,
                bound: q,
                mover_can_move: None,
                reached: Some(&reached),
            }
            .num(expr)
        };
        let mut weight = 1.0;
        let mut total = 0.0;
        for t in &self.game.tiebreaks {
            weight /= 2.0;
            total += weight * (value(t, p) - value(t, 1 - p));
        }
        total
    }

    /// How a step is written: its mark (or `-` after the first step) and its value.
    pub fn step_notation(&self, s: &State, step: Step) -> String {
        if step.alt == FORCED_PASS {
            return "pass".into();
        }
        let alt = &self.choose_at(s.pc).alts[step.alt as usize];
        let value = match &alt.kind {
            AltKind::Cell { .. } => self.game.geometry.name(step.value as usize),
            AltKind::Word(w) => w.clone(),
            AltKind::Pass => "pass".into(),
        };
        match (&alt.mark, s.steps) {
            (Some(m), _) => format!("{m}{value}"),
            (None, 0) => value,
            (None, _) => format!("-{value}"),
        }
    }

    /// The board as rows of symbols, row 1 first.
    pub fn board_rows(&self, s: &State) -> Vec<String> {
        let g = &self.game.geometry;
        (0..g.height)
            .map(|y| {
                (0..g.width)
                    .map(|x| {
                        let c = y * g.width + x;
                        if !g.playable.contains(c) {
                            '#'
                        } else {
                            match s.owner(c) {
                                Some(p) => self.game.players[p as usize].symbol,
                                None => '.',
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }

    pub fn player_name(&self, p: u8) -> &str {
        if p == NOBODY {
            "nobody"
        } else {
            &self.game.players[p as usize].name
        }
    }

    /// Extra state beyond the board: each token and its holder.
    pub fn extra(&self, s: &State) -> Vec<(String, Option<String>)> {
        self.game
            .tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let h = s.tokens[i];
                (
                    t.clone(),
                    (h != NOBODY).then(|| self.player_name(h).to_string()),
                )
            })
            .collect()
    }
}

/// The cell set of an option whose every cell is a candidate (a cell option without a
/// `where`), for counting candidates without listing them.
fn whole_set(alt: &crate::ir::Alt) -> Option<&crate::ir::Set> {
    match (&alt.kind, &alt.condition) {
        (AltKind::Cell { set, .. }, None) => Some(set),
        _ => None,
    }
}
