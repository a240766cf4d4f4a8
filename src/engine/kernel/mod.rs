//! The runner: executes a compiled turn program, for every rules file and board size.
//!
//! A position's cell sets are [`Board`] values as wide as the board needs (one or two machine
//! words, six words up to 384 cells, eleven for the largest board), so candidate sets come
//! from shift-and-mask line matching and groups from layered floods, and states are small
//! and changed in place. The program is run instruction by instruction; where a part of it
//! has a shape the runner knows, it takes a direct path instead, chosen when the game is
//! loaded ([`Form`]: a choice among the cells a line captures from, a place-and-flip body;
//! [`Direct`]: a whole turn of one outflanking placement run as a loop over the two boards;
//! [`StepEndTable`]: after-step ends answered from a table; turns of one placement, which
//! perft and the solver walk without the turn machinery). Nothing in it knows a game.
//!
//! `plain` builds take none of those paths: they are the reference the tests hold the fast
//! paths to (the same legal steps in the same order, the same random draws, the same end
//! checks and errors). A rule error (placing on a piece, a loop without end) is a [`Fault`]
//! with the place in the rules that caused it.

pub mod positions;
pub mod random_games;
pub mod search;

use super::bits::WORDS;
use super::board::{flood, reached, Board, Wide};
use super::draw::draw_tried;
use super::eval::{self, Evaluate};
use super::hash::PositionMap;
use super::rng::Rng;
use super::state::{Outcome, State, AT_FORCED_PASS, AT_GAME_OVER};
use super::{RuleError, Step, ILLEGAL_STEP, LOOP_WITHOUT_END};
use crate::engine::geometry::DirSet;
use crate::ir::{
    AltKind, Cell, Choose, Cond, Game, Instr, LinePattern, Num, Player, RegValue, Set, Timing,
    MAX_REGISTERS, MAX_TOKENS, NOBODY,
};
use crate::syntax::ast::CellClass;
use std::sync::atomic::{AtomicU8, Ordering};

/// A rule error met by the kernel (placing on a piece, a loop without end), with where the
/// rules cause it. Boxed: the kernel's results stay a word wide on the hot path, where errors
/// are rare.
pub type Fault = Box<RuleError>;

fn fault(game: &Game, message: &str, loc: Option<&crate::ir::Loc>) -> Fault {
    Box::new(RuleError::in_rules(game, message.into(), loc))
}

/// A position: at a turn boundary, or inside a turn of several steps.
#[derive(Clone, Copy, Debug)]
pub struct KState<B> {
    pub pieces: [B; 2],
    pub mover: u8,
    pub turn: u32,
    pub passes: u32,
    /// The after-step end conditions were found false with the cells they read as they are
    /// now (see `Kernel::step_ends_read`).
    pub step_ends_clear: bool,
    /// Inside a turn: the steps taken, whether the turn is a pass, the turn's variables.
    pub steps: u32,
    pub passing: bool,
    pub regs: [i32; MAX_REGISTERS],
    /// Who holds each token (NOBODY when no one does).
    pub tokens: [u8; MAX_TOKENS],
    /// Running the agreement program on a stopped game, not playing a turn.
    pub agreeing: bool,
}

/// Where a turn stands once it has begun.
#[derive(Clone, Copy, Debug)]
pub enum At<B> {
    /// The game is over; the winner an end condition named, if it named one (otherwise the
    /// scores decide, see [`Kernel::outcome`]). Kept small: this is copied every step.
    Over(Option<u8>),
    /// The mover has no step and must pass.
    Pass,
    /// The mover chooses at the choice at `pc`: a value of its first option (`moves`) or of
    /// a later one (`more`). With two options, `more` holds the second's values, a word or
    /// pass option as bit 0; with more options, bit i stands for option i + 1, and a cell
    /// option's values are found again when they are listed (see [`Kernel::later_nth`]).
    Choice { pc: u32, moves: B, more: B },
}

/// Where a turn's opening run suspends: the state there, the choice and its options.
type Opening<B> = Option<(KState<B>, u32, B, B)>;

/// How running a turn program stopped.
enum Flow<B> {
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
fn later(c: &Choose, v: usize) -> (usize, usize) {
    if c.alts.len() > 2 {
        (v + 1, 0)
    } else {
        (1, v)
    }
}

/// Jumps one step may take before its next choice: past them, the run is reported as a loop
/// that never ends.
const STEP_BUDGET: u32 = 1_000_000;

pub struct Kernel<B> {
    /// Every turn is one placement (see the module's documentation): the direct paths apply,
    /// and perft and the solver may run here.
    single_step: bool,
    step_from: [B; 8],
    step_offset: [i32; 8],
    /// The orthogonal steps (the cells that can take each, and its offset): groups, their
    /// liberties and territory are flooded along them, a layer at a time.
    orthogonal: Vec<(B, i32)>,
    /// A step in all eight directions equals a step east or west, then north, south or not
    /// at all (true on boards without holes): four shifts instead of eight.
    eight_by_parts: bool,
    /// Per cell, its neighbours in all directions, orthogonal only and diagonal only.
    around: Vec<[B; 3]>,
    /// The playable cells in classes by their number of playable neighbours, fewest first:
    /// the solver tries those placements first (a cell with few neighbours has few ways to
    /// be outflanked, so taking it tends to be good, and good moves first cut the search).
    by_exposure: Vec<B>,
    playable: B,
    ends_use_blocked: bool,
    /// Per line of the rules, its directions compiled.
    lines: Vec<CompiledLine<B>>,
    /// Per instruction, for choices of the most common shape, its parts as direct operations.
    forms: Vec<Form>,
    /// Per instruction: a choice with an option that must be tried (its body meets a
    /// `require`), so a candidate is legal only once its trial passes.
    tried: Vec<bool>,
    /// Some choice is `tried`: games without one skip the lookup.
    any_tried: bool,
    /// Per instruction: a choice of three or more options with a cell option after the
    /// first, whose `more` names options rather than values (see [`At::Choice`]).
    broad: Vec<bool>,
    /// Some end condition is checked after each step.
    ends_after_step: bool,
    /// The cells whose contents are all that the after-step end conditions read, when that is
    /// all they read: a step that changes none of them cannot make them hold.
    step_ends_read: Option<B>,
    /// The after-step end checks' answers by the contents of the cells they read, when those
    /// are few (see [`StepEndTable`]).
    step_end_table: Option<StepEndTable>,
    /// Every turn-boundary end condition needs `blocked`, so none can hold while the mover
    /// has a step: the common case skips the check.
    ends_need_blocked: bool,
    /// Set when the whole turn is one outflanking placement (see [`Direct`]).
    direct: Option<Direct<B>>,
}

/// Answers of after-step end checks that read only a few cells (a target on corners and a
/// centre, say): what they say depends on those cells' contents and the mover alone, so each
/// answer is worked out once, the first time it is asked, and then read from the table. The
/// checks run after every step that changes those cells, and their expressions cost far more
/// than the lookup.
struct StepEndTable {
    cells: Vec<usize>,
    /// By `index`: 0 not yet known, 1 no end, 2 an end with no winner named, 3 + p winner p.
    answers: Vec<AtomicU8>,
}

impl StepEndTable {
    /// Tables for up to this many cells (2 x 3^10 answers, 118 KB).
    const MAX_CELLS: usize = 10;

    fn new<B: Board>(read: B) -> Option<StepEndTable> {
        let cells: Vec<usize> = read.cells().collect();
        (cells.len() <= Self::MAX_CELLS).then(|| StepEndTable {
            answers: (0..2 * 3usize.pow(cells.len() as u32))
                .map(|_| AtomicU8::new(0))
                .collect(),
            cells,
        })
    }

    #[inline(always)]
    fn index<B: Board>(&self, s: &KState<B>) -> usize {
        let [a, b] = s.pieces;
        self.cells.iter().fold(s.mover as usize, |i, &c| {
            i * 3 + a.contains(c) as usize + 2 * b.contains(c) as usize
        })
    }

    fn encode(answer: Option<Option<u8>>) -> u8 {
        match answer {
            None => 1,
            Some(None) => 2,
            Some(Some(p)) => 3 + p,
        }
    }

    fn decode(code: u8) -> Option<Option<u8>> {
        match code {
            1 => None,
            2 => Some(None),
            c => Some(Some(c - 3)),
        }
    }
}

/// The simplest shape of game, run as a tight loop over the two players' boards: the turn
/// program is a single choice, at its start, of an empty cell from which a run line captures,
/// whose body places there and flips that line's captures and ends the turn; no other option,
/// nothing to do when there is no such cell (a pass), no end checked after a step, and every
/// end condition needs the mover blocked. The turns of such a game differ only in the boards,
/// so playouts and perft keep no more than the boards between turns while the mover can move,
/// and hand back to the general path at a blocked mover.
#[derive(Clone, Copy)]
struct Direct<B> {
    line: usize,
    /// The cells of the line's run and of its closing cell, as selections of the mover's,
    /// the opponent's and the empty cells.
    run: Pick<B>,
    end: Pick<B>,
}

/// A cell class as a selection: all of a part's cells or none (no branch on the class). The
/// same mapping as [`Ctx::class`]; sharing one function between them made the compiled code
/// of the general path worse (3% more instructions in Verto playouts), so each has its own.
#[derive(Clone, Copy)]
struct Pick<B> {
    mover: B,
    opponent: B,
    empty: B,
}

impl<B: Board> Pick<B> {
    fn of(class: CellClass) -> Pick<B> {
        let all = |yes: bool| if yes { !B::EMPTY } else { B::EMPTY };
        let (m, o, e) = match class {
            CellClass::Friend => (true, false, false),
            CellClass::Opponent => (false, true, false),
            CellClass::Piece => (true, true, false),
            CellClass::Empty => (false, false, true),
        };
        Pick {
            mover: all(m),
            opponent: all(o),
            empty: all(e),
        }
    }

    #[inline(always)]
    fn cells(&self, mover: B, opponent: B, empty: B) -> B {
        (mover & self.mover) | (opponent & self.opponent) | (empty & self.empty)
    }
}

/// The game's [`Direct`] shape, if it has it.
fn direct<B: Board>(
    game: &Game,
    forms: &[Form],
    single_step: bool,
    ends_after_step: bool,
    ends_need_blocked: bool,
) -> Option<Direct<B>> {
    if !single_step || ends_after_step || !ends_need_blocked {
        return None;
    }
    let Some(Instr::Choose(c)) = game.program.first() else {
        return None;
    };
    let form = forms[0];
    let line = form.sources_of?;
    let (run, end) = game.lines[line].simple_run?;
    let passes_at_once = matches!(
        game.program.get(c.otherwise as usize),
        None | Some(Instr::Stop)
    );
    (c.alts.len() == 1 && form.place_flip == Some(line) && passes_at_once).then(|| Direct {
        line,
        run: Pick::of(run),
        end: Pick::of(end),
    })
}

/// A choice whose parts the kernel runs directly instead of walking their expressions.
#[derive(Clone, Copy, Default)]
struct Form {
    /// The candidates are `empty & sources(L)` (what `where some(captured(L, c))` becomes).
    sources_of: Option<usize>,
    /// The body is `place c  flip captured(L, c)` and ends the turn.
    place_flip: Option<usize>,
    /// A test `some(captured(L, x))` or `some(ends(L, x))` (line, variable, whether ends) whose
    /// next instruction chooses among those very cells, as a chain's `while` loop does: the
    /// cells are found once for both.
    test_then_choose: Option<(usize, u8, bool)>,
}

fn form(game: &Game, pc: usize) -> Form {
    // `some(captured(L, x))` is asked as a line test; `some(ends(L, x))` as the set itself.
    let tested = match game.program.get(pc) {
        Some(Instr::JumpUnless(Cond::AnyLine(l, x), _)) => Some((*l, &**x, false)),
        Some(Instr::JumpUnless(Cond::NonEmpty(set), _)) => match &**set {
            Set::Ends(l, x) => Some((*l, &**x, true)),
            _ => None,
        },
        _ => None,
    };
    if let Some((l, x, ends)) = tested {
        let (Cell::Reg(r), Some(Instr::Choose(c))) = (x, game.program.get(pc + 1)) else {
            return Form::default();
        };
        let chooses_them = c.alts.first().is_some_and(|a| {
            let (l2, x2) = match &a.kind {
                AltKind::Cell {
                    set: Set::Captured(l2, x2),
                    ..
                } if !ends => (l2, x2),
                AltKind::Cell {
                    set: Set::Ends(l2, x2),
                    ..
                } if ends => (l2, x2),
                _ => return false,
            };
            a.condition.is_none() && *l2 == l && matches!(**x2, Cell::Reg(r2) if r2 == *r)
        });
        return Form {
            test_then_choose: chooses_them.then_some((l, *r, ends)),
            ..Form::default()
        };
    }
    let Instr::Choose(c) = &game.program[pc] else {
        return Form::default();
    };
    let alt = &c.alts[0];
    let AltKind::Cell { reg, set } = &alt.kind else {
        return Form::default();
    };
    let chosen = |cell: &Cell| matches!(cell, Cell::Reg(r) if r == reg);
    let sources_of = match (set, &alt.condition) {
        (Set::Inter(a, b), None) => match (&**a, &**b) {
            (Set::Empty, Set::Sources(l)) => Some(*l),
            _ => None,
        },
        _ => None,
    };
    let code = &game.program;
    let body = alt.body as usize;
    let place_flip = match (code.get(body), code.get(body + 1)) {
        (Some(Instr::Place(p, _)), Some(Instr::Flip(Set::Captured(l, f))))
            if chosen(p) && chosen(f) =>
        {
            // What follows must end the turn at once.
            let mut at = body + 2;
            loop {
                match code.get(at) {
                    None | Some(Instr::Stop) => break Some(*l),
                    Some(Instr::Jump(t)) if *t as usize > at => at = *t as usize,
                    _ => break None,
                }
            }
        }
        _ => None,
    };
    Form {
        sources_of,
        place_flip,
        test_then_choose: None,
    }
}

/// A line's directions in two groups of four lanes: those along which cell numbers grow
/// ("up", a left shift) and those along which they fall ("down", a right shift). Each of the
/// eight directions has a fixed group, so any set of directions fits; unused lanes have empty
/// masks. Every lane of a group shifts the same way, which keeps the work per step to a shift
/// and a mask, and lets compilers run the four lanes as one vector.
struct CompiledLine<B> {
    /// The directions the line runs along, for the general (backtracking) matcher.
    dirs: Vec<usize>,
    /// For whole-set matching, which walks each direction backwards.
    back: [Group<B>; 2],
    /// For matching from one cell, all directions at once.
    ahead: [Group<B>; 2],
    /// The most cells a straight run can hold along any used direction.
    longest_run: u32,
    /// Every element matches a set number of cells (`opponent empty`, `opponent{2} friend`).
    fixed_length: bool,
    /// For single-cell matching: `beyond[c][lane]`, the cells after `c` along the lane's
    /// direction up to the edge or a removed cell; lanes 0-3 go up, 4-7 go down.
    beyond: Vec<[B; 8]>,
}

/// Four lanes of one shift direction: how far each shifts and which cells may receive.
#[derive(Clone, Copy)]
struct Group<B> {
    amount: [B; 4],
    /// The cells a step in the lane's direction can land on (a step off the board or across
    /// its edge lands elsewhere and is masked away).
    lands: [B; 4],
}

impl<B: Board> Group<B> {
    /// One step of every lane, kept where `within` allows.
    #[inline(always)]
    fn shift(&self, s: [B; 4], up: bool, within: [B; 4]) -> [B; 4] {
        std::array::from_fn(|i| {
            let moved = if up {
                s[i].up(self.amount[i])
            } else {
                s[i].down(self.amount[i])
            };
            moved & within[i]
        })
    }

    #[inline(always)]
    fn step(&self, s: [B; 4], up: bool) -> [B; 4] {
        self.shift(s, up, self.lands)
    }
}

fn compile_line<B: Board>(game: &Game, line: &LinePattern) -> CompiledLine<B> {
    let g = &game.geometry;
    let dirs: Vec<usize> = line.dirs.iter().collect();
    let empty = Group {
        amount: [B::EMPTY; 4],
        lands: [B::EMPTY; 4],
    };
    let mut back = [empty, empty];
    let mut ahead = [empty, empty];
    let mut filled = [0usize; 2];
    let mut filled_ahead = [0usize; 2];
    let mut longest_run = 0;
    let mut beyond = vec![[B::EMPTY; 8]; g.cells()];
    let mut forward = [0usize; 2];
    for &d in &dirs {
        // Walking backwards: the step goes the opposite way and lands on cells that have a
        // neighbour in direction d.
        let offset = -g.step_offset[d];
        let group = usize::from(offset < 0);
        let lane = filled[group];
        filled[group] += 1;
        back[group].amount[lane] = B::amount(offset.unsigned_abs());
        back[group].lands[lane] = B::from_bits(&g.step_from[d]);
        // Walking forwards: lands on cells that have a neighbour the opposite way.
        let group = usize::from(g.step_offset[d] < 0);
        let lane = filled_ahead[group];
        filled_ahead[group] += 1;
        ahead[group].amount[lane] = B::amount(g.step_offset[d].unsigned_abs());
        ahead[group].lands[lane] = B::from_bits(&g.step_from[(d + 4) % 8]);
        let (dx, dy) = super::geometry::DIRS[d];
        let along = match (dx, dy) {
            (0, _) => g.height,
            (_, 0) => g.width,
            _ => g.width.min(g.height),
        };
        longest_run = longest_run.max(along.saturating_sub(2) as u32);
        let group = usize::from(g.step_offset[d] < 0);
        let lane = group * 4 + forward[group];
        forward[group] += 1;
        for (c, cell) in beyond.iter_mut().enumerate() {
            let mut at = g.neighbours[c][d];
            while at != super::geometry::NONE {
                cell[lane] = cell[lane] | B::single(at as usize);
                at = g.neighbours[at as usize][d];
            }
        }
    }
    CompiledLine {
        dirs,
        back,
        ahead,
        longest_run,
        fixed_length: line.elements.iter().all(|&(_, min, max)| min == max),
        beyond,
    }
}

impl<B: Board> CompiledLine<B> {
    /// For a line that is a run of `run` cells closed by an `end` cell: the cells it captures
    /// from `from` (with `ends`, the closing cells instead).
    #[inline(always)]
    fn run_captures(&self, from: usize, run: B, end: B, ends: bool) -> B {
        let mut out = B::EMPTY;
        for (lane, &cells) in self.beyond[from].iter().enumerate() {
            // The first cell along the lane that is not of the run's class closes it:
            // the nearest is the lowest going up, the highest going down.
            let stops = cells & !run;
            let (stop, taken) = if lane < 4 {
                let stop = stops.lowest_bit();
                (stop, cells & stop.below())
            } else {
                let stop = stops.highest_bit();
                (stop, cells & !stop.below() & !stop)
            };
            // A run of none is no match (`X+`): its closing cell is no end. (Captures need
            // no test, an empty run adds nothing.)
            if !(stop & end).is_empty() && (!ends || !taken.is_empty()) {
                out = out | if ends { stop } else { taken };
            }
        }
        out
    }

    /// For a line that is a run of `run` cells closed by an `end` cell: every cell from which
    /// it captures something, by whole-set shifts.
    #[inline(always)]
    fn run_sources(&self, run: B, end: B) -> B {
        let mut out = B::EMPTY;
        // Run cells whose next cell closes the line, then runs growing backwards; a fixed
        // number of rounds (no test per round) is quicker than stopping early.
        for (group, back) in self.back.iter().enumerate() {
            let up = group == 0;
            // Run cells a step can land on: one mask per step instead of two.
            let within = back.lands.map(|m| m & run);
            let mut reach = back.shift([end; 4], up, within);
            let mut runs = reach;
            for _ in 1..self.longest_run {
                reach = back.shift(reach, up, within);
                for (a, b) in runs.iter_mut().zip(reach) {
                    *a = *a | b;
                }
            }
            for r in back.step(runs, up) {
                out = out | r;
            }
        }
        out
    }
}

/// Why a game's turns are not all single placements (the kernel's best case), or None.
fn multi_step_reason(game: &Game) -> Option<String> {
    let mut checker = Shape::new(game);
    checker.control(0);
    checker.ends();
    checker.reason
}

/// Walks the program and expressions, noting the first thing that is not a turn of one
/// placement.
struct Shape<'a> {
    game: &'a Game,
    seen: Vec<bool>,
    reason: Option<String>,
}

impl Shape<'_> {
    fn new(game: &Game) -> Shape<'_> {
        Shape {
            game,
            seen: vec![false; game.program.len()],
            reason: None,
        }
    }

    fn no(&mut self, why: &str) {
        if self.reason.is_none() {
            self.reason = Some(why.to_string());
        }
    }

    fn ends(&mut self) {
        let game = self.game;
        for end in &game.ends {
            self.cond(&end.condition);
            if let Some(w) = &end.winner {
                self.player(w);
            }
        }
        self.num(&game.score);
        for t in &game.tiebreaks {
            self.num(t);
        }
    }

    /// Code run at the start of a turn, up to a choice: only tests and forward jumps, so it
    /// always ends and touches nothing.
    fn control(&mut self, mut pc: usize) {
        loop {
            if pc >= self.game.program.len() {
                return;
            }
            if self.seen[pc] {
                return;
            }
            self.seen[pc] = true;
            match &self.game.program[pc] {
                Instr::JumpUnless(c, t) => {
                    self.cond(c);
                    if *t as usize <= pc {
                        return self.no("a loop before the first choice");
                    }
                    self.control(*t as usize);
                    pc += 1;
                }
                Instr::Jump(t) => {
                    if *t as usize <= pc {
                        return self.no("a loop before the first choice");
                    }
                    pc = *t as usize;
                }
                Instr::Stop => return,
                Instr::Choose(c) => {
                    if c.auto || c.alts.len() != 1 {
                        return self.no("a choice with several options or `auto`");
                    }
                    let alt = &c.alts[0];
                    let AltKind::Cell { reg, set } = &alt.kind else {
                        return self.no("a choice that is not of a cell");
                    };
                    if alt.needs_trial || !alt.ends_turn {
                        return self.no("a turn of several steps or with `require`");
                    }
                    self.set(set, Some(*reg));
                    if let Some(cond) = &alt.condition {
                        self.cond_with(cond, Some(*reg));
                    }
                    self.body(alt.body as usize, *reg);
                    // Threaded jumps can send a choice with no candidate straight back to
                    // itself (`while true { choose ... }`).
                    if c.otherwise as usize <= pc {
                        return self.no("a loop before the first choice");
                    }
                    pc = c.otherwise as usize;
                }
                _ => return self.no("a statement before the first choice"),
            }
        }
    }

    /// An option's body: places, flips and forward jumps to the end of the turn.
    fn body(&mut self, mut pc: usize, reg: u8) {
        let mut budget = self.game.program.len() + 1;
        while let Some(instr) = self.game.program.get(pc) {
            budget -= 1;
            if budget == 0 {
                return self.no("a loop in a turn");
            }
            match instr {
                Instr::Place(c, _) => {
                    self.cell(c, Some(reg));
                    pc += 1;
                }
                Instr::Flip(s) => {
                    self.set(s, Some(reg));
                    pc += 1;
                }
                Instr::Jump(t) if *t as usize > pc => pc = *t as usize,
                Instr::Stop => return,
                _ => return self.no("a statement other than place or flip in a turn"),
            }
        }
    }

    fn cell(&mut self, c: &Cell, reg: Option<u8>) {
        if let Cell::Reg(r) = c {
            if Some(*r) != reg {
                self.no("a turn variable");
            }
        }
    }

    fn player(&mut self, p: &Player) {
        match p {
            Player::Holder(_) => self.no("a token holder"),
            Player::Opponent(p) => self.player(p),
            _ => {}
        }
    }

    fn cond(&mut self, c: &Cond) {
        self.cond_with(c, None)
    }

    fn cond_with(&mut self, c: &Cond, reg: Option<u8>) {
        match c {
            Cond::Const(_) | Cond::Blocked => {}
            Cond::Not(a) => self.cond_with(a, reg),
            Cond::And(a, b) | Cond::Or(a, b) => {
                self.cond_with(a, reg);
                self.cond_with(b, reg);
            }
            Cond::Num(_, a, b) => {
                self.num_with(a, reg);
                self.num_with(b, reg);
            }
            Cond::Player(_, a, b) => {
                self.player(a);
                self.player(b);
            }
            Cond::Cell(_, a, b) => {
                self.cell(a, reg);
                self.cell(b, reg);
            }
            Cond::SetEq(_, a, b) => {
                self.set(a, reg);
                self.set(b, reg);
            }
            Cond::In(c, s) => {
                self.cell(c, reg);
                self.set(s, reg);
            }
            Cond::NonEmpty(s) => self.set(s, reg),
            Cond::AnyLine(_, c) => self.cell(c, reg),
            Cond::Breathes(_) => self.no("groups"),
        }
    }

    fn num(&mut self, n: &Num) {
        self.num_with(n, None)
    }

    fn num_with(&mut self, n: &Num, reg: Option<u8>) {
        match n {
            Num::Const(_) | Num::Turn | Num::Passes => {}
            Num::Count(s) => self.set(s, reg),
            Num::Reg(_) => self.no("a number variable"),
            Num::Add(a, b) | Num::Sub(a, b) | Num::Mul(a, b) | Num::Div(a, b) => {
                self.num_with(a, reg);
                self.num_with(b, reg);
            }
            Num::Neg(a) => self.num_with(a, reg),
            Num::If(c, a, b) => {
                self.cond_with(c, reg);
                self.num_with(a, reg);
                self.num_with(b, reg);
            }
            Num::Attr(p, _) => self.player(p),
        }
    }

    fn set(&mut self, s: &Set, reg: Option<u8>) {
        match s {
            Set::Const(_) | Set::Empty | Set::AllPieces | Set::Sources(_) => {}
            Set::Pieces(p) => self.player(p),
            Set::Single(c) | Set::Captured(_, c) | Set::Ends(_, c) | Set::Neighbours(c, _) => {
                self.cell(c, reg)
            }
            Set::Union(a, b) | Set::Inter(a, b) | Set::Minus(a, b) => {
                self.set(a, reg);
                self.set(b, reg);
            }
            Set::Adjacent(a, _) => self.set(a, reg),
            Set::Between(..)
            | Set::Group(_)
            | Set::Liberties(_)
            | Set::Surrounded(_)
            | Set::Territory(_) => self.no("groups, territory or `between`"),
        }
    }
}

/// The cells whose contents decide a condition, when nothing else does (no counters, no
/// variables, no player but the one bound by `for each p` and fixed ones): None otherwise.
fn reads_cond<B: Board>(c: &Cond) -> Option<B> {
    Some(match c {
        Cond::Const(_) => B::EMPTY,
        Cond::Not(a) => reads_cond(a)?,
        Cond::And(a, b) | Cond::Or(a, b) => reads_cond::<B>(a)? | reads_cond::<B>(b)?,
        Cond::Num(_, a, b) => reads_num::<B>(a)? | reads_num::<B>(b)?,
        Cond::NonEmpty(s) => reads_set(s)?,
        Cond::SetEq(_, a, b) => reads_set::<B>(a)? | reads_set::<B>(b)?,
        _ => return None,
    })
}

fn reads_num<B: Board>(n: &Num) -> Option<B> {
    Some(match n {
        Num::Const(_) => B::EMPTY,
        Num::Count(s) => reads_set(s)?,
        Num::Add(a, b) | Num::Sub(a, b) | Num::Mul(a, b) | Num::Div(a, b) => {
            reads_num::<B>(a)? | reads_num::<B>(b)?
        }
        Num::Neg(a) => reads_num(a)?,
        Num::If(c, a, b) => reads_cond::<B>(c)? | reads_num::<B>(a)? | reads_num::<B>(b)?,
        Num::Attr(p, _) if fixed_player(p) => B::EMPTY,
        _ => return None,
    })
}

/// A player that stays the same from step to step and turn to turn.
fn fixed_player(p: &Player) -> bool {
    match p {
        Player::Const(_) | Player::Bound => true,
        Player::Opponent(p) => fixed_player(p),
        _ => false,
    }
}

fn reads_set<B: Board>(s: &Set) -> Option<B> {
    let all = !B::EMPTY;
    Some(match s {
        Set::Const(_) => B::EMPTY,
        Set::Pieces(p) if fixed_player(p) => all,
        Set::AllPieces | Set::Empty => all,
        Set::Inter(a, b) => match (&**a, &**b) {
            (Set::Const(m), x) | (x, Set::Const(m)) => reads_set::<B>(x)? & B::from_bits(m),
            (a, b) => reads_set::<B>(a)? | reads_set::<B>(b)?,
        },
        Set::Union(a, b) | Set::Minus(a, b) => reads_set::<B>(a)? | reads_set::<B>(b)?,
        _ => return None,
    })
}

/// Whether a condition can only hold when `blocked` does (so never while the mover can move).
fn needs_blocked(c: &Cond) -> bool {
    match c {
        Cond::Blocked => true,
        Cond::And(a, b) => needs_blocked(a) || needs_blocked(b),
        _ => false,
    }
}

/// What an expression is evaluated against.
struct Ctx<'a, B> {
    game: &'a Game,
    kernel: &'a Kernel<B>,
    state: &'a KState<B>,
    /// A candidate being judged by a `where` clause: its variable and cell, which stand in for
    /// the variable's value in the state.
    probe: Option<(u8, usize)>,
    /// The player bound by `score p` or `for each p`.
    bound: u8,
    mover_can_move: Option<bool>,
    /// The last line whose sources were found in this context, and those sources: the
    /// options of one choice often ask the same (one the cells a line captures from, the
    /// other the cells it does not).
    sources_seen: std::cell::Cell<Option<(usize, B)>>,
    /// Shared by the contexts that score one position: each player's reachable empty cells,
    /// once flooded.
    reached: Option<&'a Reached<B>>,
}

/// Per player, the empty cells connected to their stones, once flooded.
type Reached<B> = std::cell::Cell<[Option<B>; 2]>;

impl<B: Board> Ctx<'_, B> {
    #[inline]
    fn occupied(&self) -> B {
        self.state.pieces[0] | self.state.pieces[1]
    }

    #[inline]
    fn class(&self, class: CellClass) -> B {
        let s = self.state;
        match class {
            CellClass::Friend => s.pieces[s.mover as usize],
            CellClass::Opponent => s.pieces[1 - s.mover as usize],
            CellClass::Piece => self.occupied(),
            CellClass::Empty => self.kernel.playable & !self.occupied(),
        }
    }

    fn player(&self, p: &Player) -> u8 {
        eval::player(self, p)
    }

    #[inline]
    fn cell(&self, c: &Cell) -> usize {
        match c {
            Cell::Const(c) => *c as usize,
            Cell::Reg(r) => match self.probe {
                Some((p, cell)) if p == *r => cell,
                _ => self.state.regs[*r as usize] as usize,
            },
        }
    }

    fn num(&self, n: &Num) -> f64 {
        eval::num(self, n)
    }

    fn cond(&self, c: &Cond) -> bool {
        eval::cond(self, c)
    }

    #[inline]
    fn step(&self, s: B, d: usize) -> B {
        (s & self.kernel.step_from[d]).shifted(self.kernel.step_offset[d])
    }

    fn set(&self, s: &Set) -> B {
        // The plain arms repeat `operand`'s: sending them there instead cost 1.7% more
        // instructions in Verto playouts.
        match s {
            Set::Const(b) => B::from_bits(b),
            Set::Empty => self.class(CellClass::Empty),
            Set::Pieces(p) => self.pieces(p),
            Set::AllPieces => self.occupied(),
            Set::Single(c) => B::single(self.cell(c)),
            Set::Union(a, b) => self.operand(a) | self.operand(b),
            Set::Inter(a, b) => self.operand(a) & self.operand(b),
            Set::Minus(a, b) => self.operand(a) & !self.operand(b),
            Set::Captured(l, c) => self.line_cells(*l, self.cell(c), false),
            Set::Ends(l, c) => self.line_cells(*l, self.cell(c), true),
            Set::Sources(l) => self.sources(*l),
            Set::Neighbours(c, d) => self.neighbours(self.cell(c), *d),
            Set::Adjacent(s, d) => self.adjacent(self.operand(s), d.0),
            Set::Between(a, b) => {
                let g = &self.game.geometry;
                g.between(self.cell(a), self.cell(b))
                    .fold(B::EMPTY, |out, c| out | B::single(c))
            }
            Set::Group(_) | Set::Liberties(_) | Set::Surrounded(_) | Set::Territory(_) => {
                self.flooded(s)
            }
        }
    }

    /// The group expressions, apart: kept out of [`Ctx::set`], whose size decides how well
    /// the line and class arms that chain games live on are compiled.
    #[inline(never)]
    fn flooded(&self, s: &Set) -> B {
        match s {
            Set::Group(c) => self.group_at(self.cell(c)),
            Set::Liberties(a) => {
                self.adjacent(self.operand(a), DirSet::ORTHOGONAL.0) & self.class(CellClass::Empty)
            }
            Set::Surrounded(a) => {
                let empty = self.class(CellClass::Empty);
                let mut out = B::EMPTY;
                for c in self.operand(a).cells() {
                    if out.contains(c) {
                        continue;
                    }
                    let Some(owner) = self.owner(c) else { continue };
                    // None: the group reached a liberty.
                    if let Some(group) = self.flood(c, self.state.pieces[owner], empty) {
                        out = out | group;
                    }
                }
                out
            }
            Set::Territory(p) => match self.player(p) {
                NOBODY => B::EMPTY,
                p => {
                    // The empty cells reached from p's stones, less those reached from the
                    // other player's: a region touching both is nobody's.
                    self.reached_by(p as usize) & !self.reached_by(1 - p as usize)
                }
            },
            _ => unreachable!("Ctx::set sends only group expressions here"),
        }
    }

    /// The empty cells connected to player `p`'s stones, from the shared cache if any.
    fn reached_by(&self, p: usize) -> B {
        let flood = || {
            let empty = self.class(CellClass::Empty);
            reached(&self.kernel.orthogonal, self.state.pieces[p], empty)
        };
        let Some(cache) = self.reached else {
            return flood();
        };
        let mut known = cache.get();
        let cells = *known[p].get_or_insert_with(flood);
        cache.set(known);
        cells
    }

    fn owner(&self, cell: usize) -> Option<usize> {
        (0..2).find(|&p| self.state.pieces[p].contains(cell))
    }

    /// The part of `within` orthogonally connected to `start`; None once it touches `stop_at`.
    #[inline]
    fn flood(&self, start: usize, within: B, stop_at: B) -> Option<B> {
        flood(&self.kernel.orthogonal, B::single(start), within, stop_at)
    }

    /// The stones of the group at `cell` (an empty cell: its empty region).
    fn group_at(&self, cell: usize) -> B {
        let within = match self.owner(cell) {
            Some(p) => self.state.pieces[p],
            None => self.class(CellClass::Empty),
        };
        self.flood(cell, within, B::EMPTY).unwrap_or(B::EMPTY)
    }

    /// An operand of a set operation: the plain sets (classes, regions) read here, without
    /// another call of [`Ctx::set`], which costs more than they do.
    #[inline(always)]
    fn operand(&self, s: &Set) -> B {
        match s {
            Set::Const(b) => B::from_bits(b),
            Set::Empty => self.class(CellClass::Empty),
            Set::AllPieces => self.occupied(),
            Set::Pieces(p) => self.pieces(p),
            _ => self.set(s),
        }
    }

    /// A player's pieces (none for nobody).
    #[inline(always)]
    fn pieces(&self, p: &Player) -> B {
        let st = self.state;
        let p = match p {
            Player::Mover => st.mover,
            Player::Other => 1 - st.mover,
            Player::Bound => self.bound,
            Player::Const(p) => *p,
            _ => self.player(p),
        };
        match p {
            NOBODY => B::EMPTY,
            p => st.pieces[p as usize],
        }
    }

    #[inline]
    fn adjacent(&self, s: B, dirs: u8) -> B {
        if dirs == 0xff && self.kernel.eight_by_parts {
            return self.eight_by_parts(s);
        }
        let mut out = B::EMPTY;
        for d in 0..8 {
            if dirs >> d & 1 != 0 {
                out = out | self.step(s, d);
            }
        }
        out
    }

    /// The neighbours of one cell: read from a table for the direction sets the language
    /// names.
    #[inline(always)]
    fn neighbours(&self, cell: usize, dirs: DirSet) -> B {
        let which = match dirs {
            DirSet::ALL => 0,
            DirSet::ORTHOGONAL => 1,
            DirSet::DIAGONAL => 2,
            _ => return self.adjacent(B::single(cell), dirs.0),
        };
        match self.kernel.around.get(cell) {
            Some(around) => around[which],
            None => B::EMPTY,
        }
    }

    /// The cells next to `s` in all eight directions, in four shifts (valid when
    /// [`Kernel::eight_by_parts`] says so): east and west, then north and south of those
    /// and of `s` itself, which covers the diagonals.
    #[inline(always)]
    fn eight_by_parts(&self, s: B) -> B {
        let row = self.step(s, 2) | self.step(s, 6);
        let wide = s | row;
        row | self.step(wide, 0) | self.step(wide, 4)
    }

    /// The cells a line captures from `from` (or, with `ends`, the cells closing each match).
    #[inline(always)]
    fn line_cells(&self, l: usize, from: usize, ends: bool) -> B {
        let line = &self.game.lines[l];
        let mut out = B::EMPTY;
        if let Some((run, end)) = line.simple_run {
            let (run, end) = (self.class(run), self.class(end));
            return self.kernel.lines[l].run_captures(from, run, end, ends);
        }
        let compiled = &self.kernel.lines[l];
        if compiled.fixed_length {
            // Every element takes a set number of cells, at least one (the checker refuses a
            // repetition of zero), so a closed match always takes some: one walk in all
            // directions at once, four lanes per group, nothing to back out of.
            let end = self.class(line.end);
            for (group, ahead) in compiled.ahead.iter().enumerate() {
                let up = group == 0;
                let mut at = [B::single(from); 4];
                let mut taken = [B::EMPTY; 4];
                for &(class, count, _) in &line.elements {
                    let class = self.class(class);
                    let within = ahead.lands.map(|m| m & class);
                    for _ in 0..count {
                        at = ahead.shift(at, up, within);
                        for (t, a) in taken.iter_mut().zip(at) {
                            *t = *t | a;
                        }
                    }
                }
                let close = ahead.step(at, up);
                for (close, taken) in close.into_iter().zip(taken) {
                    let close = close & end;
                    if !close.is_empty() {
                        out = out | if ends { close } else { taken };
                    }
                }
            }
            return out;
        }
        for &d in &compiled.dirs {
            if let Some(n) = self.match_elements(line, 0, B::single(from), d, 0) {
                let mut x = B::single(from);
                for _ in 0..n {
                    x = self.step(x, d);
                    if !ends {
                        out = out | x;
                    }
                }
                if ends {
                    out = out | self.step(x, d);
                }
            }
        }
        out
    }

    /// Backtracking match of a general line from the cell `at` (one bit; its successor in
    /// direction `d` is the next to match). Greedy first, so the longest match is
    /// found.
    fn match_elements(
        &self,
        line: &LinePattern,
        index: usize,
        at: B,
        d: usize,
        taken: usize,
    ) -> Option<usize> {
        if index == line.elements.len() {
            let next = self.step(at, d);
            return (!(next & self.class(line.end)).is_empty()).then_some(taken);
        }
        let (class, min, max) = line.elements[index];
        let class = self.class(class);
        // The cell reached after taking k = 0, 1, ... cells of this class.
        let mut after = [B::EMPTY; 32];
        after[0] = at;
        let mut k = 0usize;
        let mut cur = at;
        while k < 31 && (k as u32) < max {
            let next = self.step(cur, d);
            if (next & class).is_empty() {
                break;
            }
            cur = next;
            k += 1;
            after[k] = cur;
        }
        let mut n = k;
        loop {
            if n as u32 >= min {
                if let Some(r) = self.match_elements(line, index + 1, after[n], d, taken + n) {
                    return Some(r);
                }
            }
            if n == 0 {
                return None;
            }
            n -= 1;
        }
    }

    /// Every cell from which `line` matches in some direction, by whole-set shifts.
    #[inline(always)]
    fn sources(&self, l: usize) -> B {
        if let Some((seen, cells)) = self.sources_seen.get() {
            if seen == l {
                return cells;
            }
        }
        let cells = self.find_sources(l);
        self.sources_seen.set(Some((l, cells)));
        cells
    }

    #[inline(always)]
    fn find_sources(&self, l: usize) -> B {
        let line = &self.game.lines[l];
        let mut out = B::EMPTY;
        if let Some((run, end)) = line.simple_run {
            let (run, end) = (self.class(run), self.class(end));
            return self.kernel.lines[l].run_sources(run, end);
        }
        let compiled = &self.kernel.lines[l];
        if compiled.fixed_length {
            // Every element takes a set number of cells: walk back that many steps from the
            // closing cells, four directions at a time.
            for (group, back) in compiled.back.iter().enumerate() {
                let up = group == 0;
                let mut reach = [self.class(line.end); 4];
                for &(class, count, _) in line.elements.iter().rev() {
                    let class = self.class(class);
                    let within = back.lands.map(|m| m & class);
                    for _ in 0..count {
                        reach = back.shift(reach, up, within);
                    }
                }
                for r in back.step(reach, up) {
                    out = out | r;
                }
            }
            return out;
        }
        let size = self.game.geometry.width.max(self.game.geometry.height) as u32;
        for &d in &self.kernel.lines[l].dirs {
            let back = (d + 4) % 8;
            // `taking` keeps the matches that take at least one cell.
            let mut rest = self.class(line.end);
            let mut taking = B::EMPTY;
            for &(class, min, max) in line.elements.iter().rev() {
                let class = self.class(class);
                let mut reach = rest;
                let mut runs = B::EMPTY;
                for n in 1..=max.min(size) {
                    reach = self.step(reach, back) & class;
                    if reach.is_empty() {
                        break;
                    }
                    if n >= min {
                        runs = runs | reach;
                    }
                }
                (rest, taking) = if min == 0 {
                    (runs | rest, runs | taking)
                } else {
                    (runs, runs)
                };
            }
            out = out | self.step(taking, back);
        }
        out
    }
}

impl<B: Board> Evaluate for Ctx<'_, B> {
    type Cells = B;
    fn mover(&self) -> u8 {
        self.state.mover
    }
    fn bound(&self) -> u8 {
        self.bound
    }
    fn holder(&self, token: u8) -> u8 {
        self.state.tokens[token as usize]
    }
    #[inline]
    fn cell(&self, c: &Cell) -> usize {
        Ctx::cell(self, c)
    }
    fn register(&self, r: u8) -> f64 {
        self.state.regs[r as usize] as f64
    }
    fn turn(&self) -> f64 {
        self.state.turn as f64
    }
    fn passes(&self) -> f64 {
        self.state.passes as f64
    }
    fn attribute(&self, index: usize, player: u8) -> f64 {
        self.game.attributes[index].1[player as usize]
    }
    #[inline]
    fn cells(&self, s: &Set) -> B {
        self.set(s)
    }
    fn count(cells: &B) -> u32 {
        cells.count()
    }
    fn contains(cells: &B, cell: usize) -> bool {
        cells.contains(cell)
    }
    fn is_empty(cells: &B) -> bool {
        cells.is_empty()
    }
    fn any_line(&self, line: usize, from: usize) -> bool {
        !self.line_cells(line, from, false).is_empty()
    }
    fn breathes(&self, cell: usize) -> bool {
        let empty = self.class(CellClass::Empty);
        match self.owner(cell) {
            // An empty cell's "group" is its region; its liberties are empty neighbours.
            None => self
                .flood(cell, empty, B::EMPTY)
                .is_some_and(|r| r.count() > 1),
            Some(p) => self.flood(cell, self.state.pieces[p], empty).is_none(),
        }
    }
    fn blocked(&self) -> bool {
        let s = self.state;
        let mover = self
            .mover_can_move
            .unwrap_or_else(|| self.kernel.can_start(self.game, s, s.mover));
        !mover && !self.kernel.can_start(self.game, s, 1 - s.mover)
    }
}

impl<B: Board> KState<B> {
    /// A copy of a position at a turn boundary, for the searches that branch there: the turn's
    /// variables are zero at a boundary, so only the board and counters are read (a copy of
    /// the whole state is slower: the fields are reread at once from a wide store).
    #[inline(always)]
    pub fn at_boundary(&self) -> KState<B> {
        KState {
            pieces: self.pieces,
            mover: self.mover,
            turn: self.turn,
            passes: self.passes,
            step_ends_clear: self.step_ends_clear,
            steps: 0,
            passing: false,
            regs: [0; MAX_REGISTERS],
            tokens: self.tokens,
            agreeing: false,
        }
    }
}

impl<B: Board> Kernel<B> {
    /// The runner for `game`, whose board must fit `B`. With `plain`, it takes none of the
    /// shapes it recognises (see [`Form`], [`Direct`], [`StepEndTable`], turns of one
    /// placement): the reference its fast paths are tested against.
    pub fn new(game: &Game, plain: bool) -> Kernel<B> {
        let g = &game.geometry;
        assert!(g.cells() <= B::CELLS, "the board fits the runner's sets");
        let lines = game.lines.iter().map(|l| compile_line(game, l)).collect();
        let single_step = !plain && multi_step_reason(game).is_none();
        let tried: Vec<bool> = game
            .program
            .iter()
            .map(|i| matches!(i, Instr::Choose(c) if c.alts.iter().any(|a| a.needs_trial)))
            .collect();
        let forms: Vec<Form> = (0..game.program.len())
            .map(|pc| {
                if plain {
                    Form::default()
                } else {
                    form(game, pc)
                }
            })
            .collect();
        let ends_after_step = game.ends.iter().any(|e| e.timing == Timing::AfterStep);
        let ends_need_blocked = !plain
            && game
                .ends
                .iter()
                .filter(|e| e.timing == Timing::AfterTurn)
                .all(|e| needs_blocked(&e.condition));
        let step_ends_read = game
            .ends
            .iter()
            .filter(|e| e.timing == Timing::AfterStep)
            .try_fold(B::EMPTY, |m, e| Some(m | reads_cond::<B>(&e.condition)?))
            .filter(|_| !plain);
        let mut kernel = Kernel {
            single_step,
            lines,
            direct: direct(
                game,
                &forms,
                single_step,
                ends_after_step,
                ends_need_blocked,
            ),
            forms,
            any_tried: tried.contains(&true),
            broad: game
                .program
                .iter()
                .map(|i| {
                    matches!(i, Instr::Choose(c) if c.alts.len() > 2
                        && c.alts[1..].iter().any(|a| matches!(a.kind, AltKind::Cell { .. })))
                })
                .collect(),
            tried,
            ends_after_step,
            step_ends_read,
            step_end_table: step_ends_read.and_then(StepEndTable::new),
            ends_need_blocked,
            step_from: g.step_from.map(|b| B::from_bits(&b)),
            step_offset: g.step_offset,
            orthogonal: DirSet::ORTHOGONAL
                .iter()
                .map(|d| (B::from_bits(&g.step_from[d]), g.step_offset[d]))
                .collect(),
            playable: B::from_bits(&g.playable),
            ends_use_blocked: game
                .ends
                .iter()
                .any(|e| e.timing == Timing::AfterTurn && super::eval::uses_blocked(&e.condition)),
            eight_by_parts: false,
            by_exposure: Vec::new(),
            around: g
                .around
                .iter()
                .map(|a| a.each_ref().map(B::from_bits))
                .collect(),
        };
        let mut by_exposure: Vec<(u32, B)> = Vec::new();
        for cell in kernel.playable.cells() {
            let n = (kernel.around[cell][0] & kernel.playable).count();
            match by_exposure.iter_mut().find(|(k, _)| *k == n) {
                Some((_, class)) => *class = *class | B::single(cell),
                None => by_exposure.push((n, B::single(cell))),
            }
        }
        by_exposure.sort_by_key(|c| c.0);
        kernel.by_exposure = by_exposure.into_iter().map(|c| c.1).collect();
        // Steps are unions of shifts, so checking one cell at a time covers every set.
        let blank = KState {
            pieces: [B::EMPTY; 2],
            mover: 0,
            turn: 0,
            passes: 0,
            step_ends_clear: false,
            steps: 0,
            passing: false,
            regs: [0; MAX_REGISTERS],
            tokens: [NOBODY; MAX_TOKENS],
            agreeing: false,
        };
        let ctx = kernel.ctx(game, &blank);
        let by_parts = (0..g.cells())
            .all(|c| ctx.eight_by_parts(B::single(c)) == ctx.adjacent(B::single(c), 0xff));
        kernel.eight_by_parts = by_parts;
        kernel
    }

    fn ctx<'a>(&'a self, game: &'a Game, state: &'a KState<B>) -> Ctx<'a, B> {
        Ctx {
            game,
            kernel: self,
            state,
            probe: None,
            bound: NOBODY,
            mover_can_move: None,
            sources_seen: Default::default(),
            reached: None,
        }
    }

    /// For turns of one placement: runs the turn's opening tests from `pc` to a choice with a
    /// candidate: its place and the candidates, or None when the turn has none (a pass).
    #[inline(always)]
    fn first_choice(&self, game: &Game, s: &KState<B>, mut pc: u32) -> Option<(u32, B)> {
        let mut ctx = self.ctx(game, s);
        loop {
            match game.program.get(pc as usize)? {
                Instr::JumpUnless(c, t) => pc = if ctx.cond(c) { pc + 1 } else { *t },
                Instr::Jump(t) => pc = *t,
                Instr::Choose(c) => {
                    // The common case inline: the hot path of playouts and perft.
                    let moves = match self.forms[pc as usize].sources_of {
                        Some(l) => ctx.class(CellClass::Empty) & ctx.sources(l),
                        None => self.option(&mut ctx, pc, c, 0),
                    };
                    if !moves.is_empty() {
                        return Some((pc, moves));
                    }
                    pc = c.otherwise;
                }
                // Stop, and anything the shape check ruled out.
                _ => return None,
            }
        }
    }

    /// The legal values of both options of the choice `c` at `pc` (see [`Kernel::option`]),
    /// asked in one context, so that what both ask (a line's sources) is found once.
    #[inline(always)]
    fn options(&self, game: &Game, s: &KState<B>, pc: u32, c: &Choose) -> (B, B) {
        let mut ctx = self.ctx(game, s);
        let moves = self.option(&mut ctx, pc, c, 0);
        let more = self.later_options(&mut ctx, pc, c);
        (moves, more)
    }

    #[inline(always)]
    fn is_tried(&self, pc: u32) -> bool {
        self.any_tried && self.tried[pc as usize]
    }

    /// The values of a choice's options after the first, as [`At::Choice`] holds them.
    #[inline(always)]
    fn later_options(&self, ctx: &mut Ctx<'_, B>, pc: u32, c: &Choose) -> B {
        if c.alts.len() <= 2 {
            return self.option(ctx, pc, c, 1);
        }
        self.word_options(ctx, pc, c)
    }

    /// See [`Kernel::later_options`]: three options or more, kept out of line.
    #[inline(never)]
    fn word_options(&self, ctx: &mut Ctx<'_, B>, pc: u32, c: &Choose) -> B {
        (1..c.alts.len()).fold(B::EMPTY, |more, alt| {
            if self.option(ctx, pc, c, alt).is_empty() {
                more
            } else {
                more | B::single(alt - 1)
            }
        })
    }

    /// Whether the choice `c` at `pc`, with candidates `moves` and `more`, has a legal step:
    /// a candidate of an option without a trial settles it (a Go-like turn always has its
    /// pass, whatever its placements would do); otherwise
    /// each candidate is tried until one passes.
    #[inline(never)]
    fn any_legal(
        &self,
        game: &Game,
        t: &KState<B>,
        pc: u32,
        moves: B,
        more: B,
    ) -> Result<bool, Fault> {
        let Instr::Choose(c) = &game.program[pc as usize] else {
            unreachable!("states are only suspended at choices")
        };
        let untried = |alt: usize| !c.alts[alt].needs_trial;
        if (untried(0) && !moves.is_empty()) || more.cells().any(|v| untried(later(c, v).0)) {
            return Ok(true);
        }
        let n = self.candidate_count(game, t, pc, moves, more);
        for i in 0..n {
            let (alt, value) = self.candidate(game, t, pc, moves, more, i);
            if self.passes_trial(game, t, c, alt, value)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// For an `auto` choice whose options must be tried: its one candidate that passes its
    /// trial, None when none does, and `Some(None)` when several do (a decision after all).
    #[inline(never)]
    fn sole_legal(
        &self,
        game: &Game,
        t: &KState<B>,
        pc: u32,
        moves: B,
        more: B,
    ) -> Result<Option<Option<(usize, usize)>>, Fault> {
        let Instr::Choose(c) = &game.program[pc as usize] else {
            unreachable!("states are only suspended at choices")
        };
        let mut found = None;
        for i in 0..self.candidate_count(game, t, pc, moves, more) {
            let (alt, value) = self.candidate(game, t, pc, moves, more, i);
            if !c.alts[alt].needs_trial || self.passes_trial(game, t, c, alt, value)? {
                if found.is_some() {
                    return Ok(Some(None));
                }
                found = Some((alt, value));
            }
        }
        Ok(found.map(Some))
    }

    /// How many candidates the choice at `pc` has in `t`, given its `moves` and `more`.
    #[inline(always)]
    fn candidate_count(&self, game: &Game, t: &KState<B>, pc: u32, moves: B, more: B) -> usize {
        moves.count() as usize
            + if self.broad[pc as usize] {
                self.broad_count(game, t, pc, more)
            } else {
                more.count() as usize
            }
    }

    /// The i-th candidate (option and value) of the choice at `pc` in `t`, in the order the
    /// steps are listed: the first option's values, then each later option's.
    #[inline(always)]
    fn candidate(
        &self,
        game: &Game,
        t: &KState<B>,
        pc: u32,
        moves: B,
        more: B,
        i: usize,
    ) -> (usize, usize) {
        let first = moves.count() as usize;
        if i < first {
            return (0, moves.nth(i));
        }
        self.later_nth(game, t, pc, more, i - first)
    }

    /// The k-th value of a choice's later options (see [`At::Choice`]).
    #[inline(always)]
    fn later_nth(&self, game: &Game, t: &KState<B>, pc: u32, more: B, k: usize) -> (usize, usize) {
        let Instr::Choose(c) = &game.program[pc as usize] else {
            unreachable!("states are only suspended at choices")
        };
        if !self.broad[pc as usize] {
            return later(c, more.nth(k));
        }
        self.broad_nth(game, t, pc, c, more, k)
    }

    /// A later cell option's values, found again (kept out of the common path).
    #[inline(never)]
    fn broad_values(&self, game: &Game, t: &KState<B>, pc: u32, c: &Choose, alt: usize) -> B {
        match c.alts[alt].kind {
            AltKind::Cell { .. } => self.option(&mut self.ctx(game, t), pc, c, alt),
            _ => B::single(0),
        }
    }

    #[inline(never)]
    fn broad_count(&self, game: &Game, t: &KState<B>, pc: u32, more: B) -> usize {
        let Instr::Choose(c) = &game.program[pc as usize] else {
            unreachable!("states are only suspended at choices")
        };
        more.cells()
            .map(|v| self.broad_values(game, t, pc, c, v + 1).count() as usize)
            .sum()
    }

    #[inline(never)]
    fn broad_nth(
        &self,
        game: &Game,
        t: &KState<B>,
        pc: u32,
        c: &Choose,
        more: B,
        mut k: usize,
    ) -> (usize, usize) {
        for v in more.cells() {
            let values = self.broad_values(game, t, pc, c, v + 1);
            let n = values.count() as usize;
            if k < n {
                return (v + 1, values.nth(k));
            }
            k -= n;
        }
        unreachable!("a candidate below the number of candidates")
    }

    /// Whether value `value` of option `alt` passes its trial: its body, run on a copy, meets
    /// no failing `require` before the next choice or the turn's end.
    fn passes_trial(
        &self,
        game: &Game,
        t: &KState<B>,
        c: &Choose,
        alt: usize,
        value: usize,
    ) -> Result<bool, Fault> {
        let mut u = *t;
        Self::bind(&mut u, c, alt, value);
        Ok(!matches!(
            self.run(game, &mut u, c.alts[alt].body)?,
            Flow::Refused(_)
        ))
    }

    /// The legal values of option `alt` of the choice `c` at `pc`: its cells whose `where`
    /// holds, or bit 0 for a word or pass option that is allowed.
    #[inline]
    fn option(&self, ctx: &mut Ctx<'_, B>, pc: u32, c: &Choose, alt: usize) -> B {
        let Some(a) = c.alts.get(alt) else {
            return B::EMPTY;
        };
        match &a.kind {
            AltKind::Cell { reg, set } => {
                if alt == 0 {
                    if let Some(l) = self.forms[pc as usize].sources_of {
                        return ctx.class(CellClass::Empty) & ctx.sources(l);
                    }
                }
                let cells = ctx.set(set);
                let Some(cond) = &a.condition else {
                    return cells;
                };
                let mut kept = B::EMPTY;
                for cell in cells.cells() {
                    ctx.probe = Some((*reg, cell));
                    if ctx.cond(cond) {
                        kept = kept | B::single(cell);
                    }
                }
                ctx.probe = None;
                kept
            }
            AltKind::Word(_) | AltKind::Pass => match &a.condition {
                Some(cond) if !ctx.cond(cond) => B::EMPTY,
                _ => B::single(0),
            },
        }
    }

    /// Binds option `alt`'s value: a cell to its variable, a pass option marks the turn a pass.
    #[inline]
    fn bind(t: &mut KState<B>, c: &Choose, alt: usize, value: usize) {
        match &c.alts[alt].kind {
            AltKind::Cell { reg, .. } => t.regs[*reg as usize] = value as i32,
            AltKind::Word(_) => {}
            AltKind::Pass => t.passing = true,
        }
    }

    /// Runs the turn program from `pc` until a choice with a legal option or the turn's end.
    fn run(&self, game: &Game, t: &mut KState<B>, mut pc: u32) -> Result<Flow<B>, Fault> {
        // Counted at jumps only: a run that never ends must take jumps without end, since
        // straight-line code runs off the program's end.
        let mut budget = STEP_BUDGET;
        let mut spend = || {
            budget -= 1;
            if budget == 0 {
                Err(fault(game, LOOP_WITHOUT_END, None))
            } else {
                Ok(())
            }
        };
        // The first option's candidates, found by the test just before the choice.
        let mut found: Option<B> = None;
        loop {
            let Some(instr) = game.program.get(pc as usize) else {
                return Ok(Flow::TurnEnded);
            };
            match instr {
                Instr::Choose(c) => {
                    let (moves, more) = match found.take() {
                        Some(moves) => (moves, self.later_options(&mut self.ctx(game, t), pc, c)),
                        None => self.options(game, t, pc, c),
                    };
                    let n = moves.count() + more.count();
                    if n == 0 {
                        spend()?;
                        pc = c.otherwise;
                    } else if c.auto && self.is_tried(pc) {
                        // A forced choice counts the candidates that pass their trials.
                        spend()?;
                        match self.sole_legal(game, t, pc, moves, more)? {
                            None => pc = c.otherwise,
                            Some(Some((alt, value))) => {
                                Self::bind(t, c, alt, value);
                                pc = c.alts[alt].body;
                            }
                            Some(None) => return Ok(Flow::Suspended { pc, moves, more }),
                        }
                    } else if c.auto && self.candidate_count(game, t, pc, moves, more) == 1 {
                        // A forced choice is no decision: taken without stopping. Its body
                        // may lead straight back to it (an empty body in `while true`).
                        spend()?;
                        let (alt, value) = self.candidate(game, t, pc, moves, more, 0);
                        Self::bind(t, c, alt, value);
                        pc = c.alts[alt].body;
                    } else if self.is_tried(pc) && !self.any_legal(game, t, pc, moves, more)? {
                        // Every candidate fails its trial: as good as none.
                        spend()?;
                        pc = c.otherwise;
                    } else {
                        return Ok(Flow::Suspended { pc, moves, more });
                    }
                }
                Instr::Place(c, loc) => {
                    let cell = self.ctx(game, t).cell(c);
                    if (t.pieces[0] | t.pieces[1]).contains(cell) {
                        return Err(Box::new(RuleError::place_on_piece(game, cell, loc)));
                    }
                    let m = t.mover as usize;
                    t.pieces[m] = t.pieces[m] | B::single(cell);
                    pc += 1;
                }
                Instr::Flip(set) => {
                    let m = t.mover as usize;
                    let flipped = self.ctx(game, t).set(set) & t.pieces[1 - m];
                    t.pieces[1 - m] = t.pieces[1 - m] ^ flipped;
                    t.pieces[m] = t.pieces[m] | flipped;
                    pc += 1;
                }
                Instr::Move(a, b, loc) => {
                    let ctx = self.ctx(game, t);
                    let (from, to) = (ctx.cell(a), ctx.cell(b));
                    let owner = match (t.pieces[0].contains(from), t.pieces[1].contains(from)) {
                        (true, _) => 0,
                        (_, true) => 1,
                        _ => return Err(Box::new(RuleError::move_from_empty(game, from, loc))),
                    };
                    if (t.pieces[0] | t.pieces[1]).contains(to) || !self.playable.contains(to) {
                        return Err(Box::new(RuleError::move_to_taken(game, to, loc)));
                    }
                    t.pieces[owner] = t.pieces[owner] ^ B::single(from) ^ B::single(to);
                    pc += 1;
                }
                Instr::Let(r, v) => {
                    let ctx = self.ctx(game, t);
                    let value = match v {
                        RegValue::Cell(c) => ctx.cell(c) as i32,
                        RegValue::Num(n) => ctx.num(n) as i32,
                    };
                    t.regs[*r as usize] = value;
                    pc += 1;
                }
                Instr::JumpUnless(c, target) => {
                    spend()?;
                    if let Some((l, r, ends)) = self.forms[pc as usize].test_then_choose {
                        let from = t.regs[r as usize] as usize;
                        let ctx = self.ctx(game, t);
                        // Two calls, so that each is compiled for its own kind of line.
                        let cells = if ends {
                            ctx.line_cells(l, from, true)
                        } else {
                            ctx.line_cells(l, from, false)
                        };
                        (pc, found) = if cells.is_empty() {
                            (*target, None)
                        } else {
                            (pc + 1, Some(cells))
                        };
                        continue;
                    }
                    pc = if self.ctx(game, t).cond(c) {
                        pc + 1
                    } else {
                        *target
                    };
                }
                Instr::Jump(target) => {
                    spend()?;
                    pc = *target;
                }
                Instr::Stop => return Ok(Flow::TurnEnded),
                Instr::MarkPass => {
                    t.passing = true;
                    pc += 1;
                }
                Instr::Require(c, loc) => {
                    if !self.ctx(game, t).cond(c) {
                        return Ok(Flow::Refused(*loc));
                    }
                    pc += 1;
                }
                Instr::Take(token) => {
                    t.tokens[*token as usize] = t.mover;
                    pc += 1;
                }
            }
        }
    }

    /// A turn's opening run for `player` from `s`: where it suspends (and the state there),
    /// or None when the player has no step.
    fn opening(&self, game: &Game, s: &KState<B>) -> Result<Opening<B>, Fault> {
        let mut u = *s;
        Ok(match self.run(game, &mut u, 0)? {
            Flow::Suspended { pc, moves, more } => Some((u, pc, moves, more)),
            // A `require` outside any option refuses the whole turn: no step.
            Flow::TurnEnded | Flow::Refused(_) => None,
        })
    }

    /// When the turn opens with a choice that is not taken on its own: its options at `s`,
    /// unless none is legal. Nothing runs before such a choice, so the state needs no copy.
    #[inline(always)]
    fn opening_choice(&self, game: &Game, s: &KState<B>) -> Option<(B, B)> {
        let Some(Instr::Choose(c)) = game.program.first() else {
            return None;
        };
        if c.auto {
            return None;
        }
        let (moves, more) = self.options(game, s, 0, c);
        if (moves | more).is_empty() {
            return None;
        }
        // Where candidates must be tried and none passes, the general path goes on past the
        // choice (and a rule error there is left to it too).
        if self.is_tried(0) && !self.any_legal(game, s, 0, moves, more).unwrap_or(false) {
            return None;
        }
        Some((moves, more))
    }

    fn can_start(&self, game: &Game, s: &KState<B>, player: u8) -> bool {
        if let Some(d) = &self.direct {
            // The turn is that one choice, so its candidates are all there is to find.
            let p = player as usize;
            return !self
                .direct_moves(d, s.pieces[p], s.pieces[1 - p])
                .is_empty();
        }
        let mut u = *s;
        u.mover = player;
        if self.single_step {
            return self.first_choice(game, &u, 0).is_some();
        }
        u.steps = 0;
        u.passing = false;
        u.regs = [0; MAX_REGISTERS];
        if self.opening_choice(game, &u).is_some() {
            return true;
        }
        // A rule error counts as no step (`blocked` asks this of both players).
        matches!(self.opening(game, &u), Ok(Some(_)))
    }

    /// Checks the turn-boundary end conditions and finds the mover's first choice.
    #[inline(always)]
    pub fn begin_turn(&self, game: &Game, s: &mut KState<B>) -> Result<At<B>, Fault> {
        if self.single_step {
            // The opening tests change nothing, so no copy of the state is needed.
            let first = self.first_choice(game, s, 0).map(|(pc, moves)| At::Choice {
                pc,
                moves,
                more: B::EMPTY,
            });
            return Ok(self.start_or_end(game, s, first));
        }
        if let Some((moves, more)) = self.opening_choice(game, s) {
            let first = At::Choice { pc: 0, moves, more };
            return Ok(self.start_or_end(game, s, Some(first)));
        }
        let before = self.read_by_step_ends(s);
        let first = self.opening(game, s)?;
        let choice = first.map(|(_, pc, moves, more)| At::Choice { pc, moves, more });
        let at = self.start_or_end(game, s, choice);
        if let (At::Choice { .. }, Some((mut u, ..))) = (at, first) {
            // The turn's opening may have changed cells before its first choice.
            self.note_changes(&mut u, before);
            *s = u;
        }
        Ok(at)
    }

    /// The turn-boundary end checks at `s`, given the mover's first choice (None: no step):
    /// the game's end, that choice, or a forced pass.
    #[inline(always)]
    fn start_or_end(&self, game: &Game, s: &KState<B>, first: Option<At<B>>) -> At<B> {
        if let (Some(choice), true) = (first, self.ends_need_blocked) {
            return choice;
        }
        let hint = self.ends_use_blocked.then_some(first.is_some());
        if let Some(o) = self.check_ends(game, s, Timing::AfterTurn, hint) {
            return At::Over(o);
        }
        first.unwrap_or(At::Pass)
    }

    /// Plays value `value` of option `alt` at the choice at `pc`: `t` becomes the position
    /// after the step; returns where the game stands. (In place: states stay in registers.)
    #[inline(always)]
    pub fn play(
        &self,
        game: &Game,
        t: &mut KState<B>,
        pc: u32,
        alt: usize,
        value: usize,
    ) -> Result<At<B>, Fault> {
        // A legal step is never refused; a refused one here is the caller's mistake.
        self.try_play(game, t, pc, alt, value)?
            .ok_or_else(|| fault(game, ILLEGAL_STEP, None))
    }

    /// As [`Kernel::play`], for a step that may fail its trial: None when a `require` refuses
    /// it (`t` is then left part-way through the step).
    #[inline(always)]
    fn try_play(
        &self,
        game: &Game,
        t: &mut KState<B>,
        pc: u32,
        alt: usize,
        value: usize,
    ) -> Result<Option<At<B>>, Fault> {
        if let (Some(l), 0) = (self.forms[pc as usize].place_flip, alt) {
            let before = self.read_by_step_ends(t);
            let m = t.mover as usize;
            if (t.pieces[0] | t.pieces[1]).contains(value) {
                return Err(self.placed_on_piece(game, pc, value));
            }
            let ctx = self.ctx(game, t);
            let flipped = ctx.line_cells(l, value, false) & t.pieces[1 - m];
            t.pieces[1 - m] = t.pieces[1 - m] ^ flipped;
            t.pieces[m] = t.pieces[m] | flipped | B::single(value);
            self.note_changes(t, before);
            return self.end_step(game, t, Flow::TurnEnded).map(Some);
        }
        let Instr::Choose(c) = &game.program[pc as usize] else {
            unreachable!("states are only suspended at choices")
        };
        let before = self.read_by_step_ends(t);
        Self::bind(t, c, alt, value);
        t.steps += 1;
        let flow = self.run(game, t, c.alts[alt].body)?;
        if let Flow::Refused(_) = flow {
            return Ok(None);
        }
        self.note_changes(t, before);
        self.end_step(game, t, flow).map(Some)
    }

    /// The error of a place-and-flip body (see [`Form::place_flip`]) whose cell is taken.
    #[cold]
    fn placed_on_piece(&self, game: &Game, pc: u32, cell: usize) -> Fault {
        let loc = match &game.program[pc as usize] {
            Instr::Choose(c) => match game.program.get(c.alts[0].body as usize) {
                Some(Instr::Place(_, loc)) => Some(*loc),
                _ => None,
            },
            _ => None,
        };
        let error = RuleError::place_on_piece(game, cell, &loc.unwrap_or_default());
        Box::new(error)
    }

    /// What the after-step end checks read in `t` (None when they read more than cells).
    #[inline(always)]
    fn read_by_step_ends(&self, t: &KState<B>) -> Option<[B; 2]> {
        self.step_ends_read
            .map(|m| [t.pieces[0] & m, t.pieces[1] & m])
    }

    /// Keeps the after-step end checks known false only if nothing they read has changed since
    /// `before`.
    #[inline(always)]
    fn note_changes(&self, t: &mut KState<B>, before: Option<[B; 2]>) {
        t.step_ends_clear &= before.is_some() && before == self.read_by_step_ends(t);
    }

    /// After a step's body: the end checks, then the next choice or the next turn.
    #[inline(always)]
    fn end_step(&self, game: &Game, t: &mut KState<B>, flow: Flow<B>) -> Result<At<B>, Fault> {
        if self.ends_after_step && !t.step_ends_clear {
            if let Some(o) = self.step_ends(game, t) {
                return Ok(At::Over(o));
            }
            t.step_ends_clear = self.step_ends_read.is_some();
        }
        match flow {
            Flow::Suspended { pc, moves, more } => Ok(At::Choice { pc, moves, more }),
            Flow::TurnEnded => self.next_turn(game, t, t.passing),
            Flow::Refused(_) => Err(fault(game, ILLEGAL_STEP, None)),
        }
    }

    /// The mover passes: `t` becomes the next turn's position.
    pub fn pass(&self, game: &Game, t: &mut KState<B>) -> Result<At<B>, Fault> {
        self.next_turn(game, t, true)
    }

    #[inline(always)]
    fn next_turn(&self, game: &Game, t: &mut KState<B>, passing: bool) -> Result<At<B>, Fault> {
        t.passes = if passing { t.passes + 1 } else { 0 };
        t.mover = 1 - t.mover;
        t.turn += 1;
        t.steps = 0;
        t.passing = false;
        t.regs = [0; MAX_REGISTERS];
        self.begin_turn(game, t)
    }

    /// The after-step end checks at `t`, from the table when there is one.
    #[inline(always)]
    fn step_ends(&self, game: &Game, t: &KState<B>) -> Option<Option<u8>> {
        let Some(table) = &self.step_end_table else {
            return self.check_ends(game, t, Timing::AfterStep, None);
        };
        let slot = &table.answers[table.index(t)];
        match slot.load(Ordering::Relaxed) {
            0 => {
                let answer = self.check_ends(game, t, Timing::AfterStep, None);
                // Threads that race here store the same answer.
                slot.store(StepEndTable::encode(answer), Ordering::Relaxed);
                answer
            }
            code => StepEndTable::decode(code),
        }
    }

    fn check_ends(
        &self,
        game: &Game,
        s: &KState<B>,
        timing: Timing,
        mover_can_move: Option<bool>,
    ) -> Option<Option<u8>> {
        eval::ended(&game.ends, timing, s.mover, |bound| Ctx {
            bound,
            mover_can_move,
            ..self.ctx(game, s)
        })
    }

    /// The result of a finished game; `winner` overrides the comparison of scores. The
    /// contexts that score it share each player's flood of reachable empty cells.
    pub fn outcome(&self, game: &Game, s: &KState<B>, winner: Option<u8>) -> Outcome {
        let reached = Reached::default();
        eval::outcome(&game.score, &game.tiebreaks, winner, |bound| Ctx {
            bound,
            reached: Some(&reached),
            ..self.ctx(game, s)
        })
    }

    /// The tie-break margins for `p`, each weighted half as much as the one before (the first
    /// by a half): what a position is worth beyond its score, for evaluations.
    pub fn margins(&self, game: &Game, s: &KState<B>, p: u8) -> f64 {
        let reached = Reached::default();
        let value = |expr: &Num, q: u8| {
            Ctx {
                bound: q,
                reached: Some(&reached),
                ..self.ctx(game, s)
            }
            .num(expr)
        };
        let mut weight = 1.0;
        let mut total = 0.0;
        for t in &game.tiebreaks {
            weight /= 2.0;
            total += weight * (value(t, p) - value(t, 1 - p));
        }
        total
    }

    /// The engine's state for a kernel position.
    pub fn export(&self, game: &Game, s: &KState<B>, at: &At<B>) -> State {
        let mut t = State::new(s.pieces.map(|p| p.to_bits()), s.mover);
        t.agreeing = s.agreeing;
        t.turn = s.turn;
        t.passes = s.passes;
        t.steps = s.steps;
        t.passing = s.passing;
        t.regs = s.regs;
        t.tokens = s.tokens;
        match at {
            At::Over(winner) => {
                t.pc = AT_GAME_OVER;
                t.outcome = Some(self.outcome(game, s, *winner));
            }
            At::Pass => t.pc = AT_FORCED_PASS,
            At::Choice { pc, .. } => t.pc = *pc,
        }
        t
    }

    /// Uniform random steps from `s` until the game ends or `limit` steps are played: the
    /// position reached and the number of steps. Draws from `rng` as [`Kernel::random_step`]
    /// does (one draw per step, a forced pass included).
    pub fn playout(
        &self,
        game: &Game,
        s: &KState<B>,
        at: At<B>,
        rng: &mut Rng,
        limit: u64,
    ) -> Result<(KState<B>, At<B>, u64), Fault> {
        let (mut s, mut at) = (*s, at);
        let mut steps = 0;
        while steps < limit {
            if let (Some(d), At::Choice { moves, .. }) = (&self.direct, at) {
                at = self.direct_playout(game, d, &mut s, moves, rng, &mut steps, limit);
                continue;
            }
            at = match at {
                At::Over(_) => break,
                At::Pass => {
                    rng.below(1);
                    self.pass(game, &mut s)?
                }
                At::Choice { pc, moves, more } if self.is_tried(pc) => {
                    match self.random_tried(game, &mut s, pc, moves, more, rng)? {
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

    /// A uniformly random legal step at a choice whose options must be tried, drawn by
    /// [`draw_tried`]: the first candidate that passes its trial is
    /// played, and `s` becomes the position after it. None when every candidate is refused.
    /// (Past 32 refusals in one step the draw keeps its swaps on the heap.)
    fn random_tried(
        &self,
        game: &Game,
        s: &mut KState<B>,
        pc: u32,
        moves: B,
        more: B,
        rng: &mut Rng,
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
        draw_tried(len, nth, rng, |step| {
            let mut t = *s;
            let played = self.try_play(game, &mut t, pc, step.alt as usize, step.value as usize)?;
            if played.is_some() {
                *s = t;
            }
            Ok(played)
        })
    }

    /// The position after a turn of a [`Direct`] game from `s`, given the new mover's and
    /// the new opponent's cells.
    #[inline(always)]
    fn after_direct(s: &KState<B>, mover: B, opponent: B) -> KState<B> {
        let mut t = s.at_boundary();
        t.mover = 1 - s.mover;
        t.pieces[t.mover as usize] = mover;
        t.pieces[s.mover as usize] = opponent;
        t.turn += 1;
        t.passes = 0;
        t
    }

    /// One turn of a [`Direct`] game: the mover places on `cell`; returns the cells of the
    /// next mover, of its opponent, and the next mover's placements.
    #[inline(always)]
    fn direct_turn(&self, d: &Direct<B>, mover: B, opponent: B, cell: usize) -> (B, B, B) {
        let line = &self.lines[d.line];
        let empty = self.playable & !(mover | opponent);
        let (run, end) = (
            d.run.cells(mover, opponent, empty),
            d.end.cells(mover, opponent, empty),
        );
        let captured = line.run_captures(cell, run, end, false) & opponent;
        let (next, other) = (opponent ^ captured, mover | captured | B::single(cell));
        (next, other, self.direct_moves(d, next, other))
    }

    /// The placements of a [`Direct`] game's mover, who has the cells `mover`.
    #[inline(always)]
    fn direct_moves(&self, d: &Direct<B>, mover: B, opponent: B) -> B {
        let empty = self.playable & !(mover | opponent);
        let (run, end) = (
            d.run.cells(mover, opponent, empty),
            d.end.cells(mover, opponent, empty),
        );
        empty & self.lines[d.line].run_sources(run, end)
    }

    /// Random turns of a [`Direct`] game from a choice among `moves`, until a mover is blocked
    /// (the general path then decides between a pass and the end) or `limit` steps are
    /// played; draws as [`Kernel::playout`] does.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn direct_playout(
        &self,
        game: &Game,
        d: &Direct<B>,
        s: &mut KState<B>,
        mut moves: B,
        rng: &mut Rng,
        steps: &mut u64,
        limit: u64,
    ) -> At<B> {
        let (mut mover, mut opponent) =
            (s.pieces[s.mover as usize], s.pieces[1 - s.mover as usize]);
        let mut turns = 0;
        let blocked = loop {
            let cell = moves.nth(rng.below(moves.count() as usize));
            (mover, opponent, moves) = self.direct_turn(d, mover, opponent, cell);
            turns += 1;
            *steps += 1;
            if moves.is_empty() {
                break true;
            }
            if *steps >= limit {
                break false;
            }
        };
        s.mover ^= (turns & 1) as u8;
        s.pieces[s.mover as usize] = mover;
        s.pieces[1 - s.mover as usize] = opponent;
        s.turn += turns;
        s.passes = 0;
        if blocked {
            self.start_or_end(game, s, None)
        } else {
            At::Choice {
                pc: 0,
                moves,
                more: B::EMPTY,
            }
        }
    }

    /// Perft of a [`Direct`] game from a choice among `moves`, `depth` at least 2.
    fn direct_perft(
        &self,
        game: &Game,
        d: &Direct<B>,
        s: &KState<B>,
        moves: B,
        depth: u32,
    ) -> Result<u64, Fault> {
        let (mover, opponent) = (s.pieces[s.mover as usize], s.pieces[1 - s.mover as usize]);
        let mut total = 0;
        for cell in moves.cells() {
            let (next, other, replies) = self.direct_turn(d, mover, opponent, cell);
            total += if replies.is_empty() {
                let t = Self::after_direct(s, next, other);
                let at = self.start_or_end(game, &t, None);
                self.perft(game, &t, &at, depth - 1)?
            } else if depth == 2 {
                replies.count() as u64
            } else {
                let t = Self::after_direct(s, next, other);
                self.direct_perft(game, d, &t, replies, depth - 1)?
            };
        }
        Ok(total)
    }

    /// Perft over whole turns of any number of steps, counted as `outflank perft` counts: a
    /// pass is a turn, a finished game a leaf, and the last step of the last turn counted without
    /// being played where it surely ends the turn. Sub-states reached twice inside a turn (a
    /// chain reaching one board by two routes) are counted once, through `memo`.
    pub fn perft_steps(
        &self,
        game: &Game,
        s: &KState<B>,
        at: &At<B>,
        depth: u32,
        memo: &mut StepMemo<B>,
    ) -> Result<u64, Fault> {
        if depth == 0 {
            return Ok(1);
        }
        let (pc, moves, more) = match *at {
            At::Over(_) => return Ok(1),
            At::Pass if depth == 1 => return Ok(1),
            At::Pass => {
                let mut t = s.at_boundary();
                let next = self.pass(game, &mut t)?;
                return self.perft_steps(game, &t, &next, depth - 1, memo);
            }
            At::Choice { pc, moves, more } => (pc, moves, more),
        };
        let key = (s.steps > 0).then(|| (StepKey::of(s, pc), depth));
        if let Some(n) = key.as_ref().and_then(|k| memo.get(k)) {
            return Ok(*n);
        }
        let Instr::Choose(c) = &game.program[pc as usize] else {
            unreachable!("states are only suspended at choices")
        };
        let mut total = 0;
        for i in 0..self.candidate_count(game, s, pc, moves, more) {
            let (alt, value) = self.candidate(game, s, pc, moves, more, i);
            let option = &c.alts[alt];
            if depth == 1 && (c.last_choice || option.ends_turn) {
                let legal = !option.needs_trial || self.passes_trial(game, s, c, alt, value)?;
                total += u64::from(legal);
                continue;
            }
            let mut t = *s;
            let Some(next) = self.try_play(game, &mut t, pc, alt, value)? else {
                continue;
            };
            total += match next {
                At::Choice { .. } if t.turn == s.turn => {
                    self.perft_steps(game, &t, &next, depth, memo)?
                }
                At::Over(_) => 1,
                _ if depth == 1 => 1,
                _ => self.perft_steps(game, &t, &next, depth - 1, memo)?,
            };
        }
        if let Some(k) = key {
            if memo.len() >= MEMO_ENTRIES {
                memo.clear();
            }
            memo.insert(k, total);
        }
        Ok(total)
    }

    /// Perft over whole turns of one placement, counted as [`Kernel::perft_steps`]
    /// counts: a pass is a turn, a finished game a leaf, and the last turn counted without being played.
    pub fn perft(&self, game: &Game, s: &KState<B>, at: &At<B>, depth: u32) -> Result<u64, Fault> {
        if depth == 0 {
            return Ok(1);
        }
        match *at {
            At::Over(_) => Ok(1),
            At::Pass if depth == 1 => Ok(1),
            At::Pass => {
                let mut t = s.at_boundary();
                let next = self.pass(game, &mut t)?;
                self.perft(game, &t, &next, depth - 1)
            }
            At::Choice { moves, .. } if depth == 1 => Ok(moves.count() as u64),
            At::Choice { pc, moves, .. } => {
                if let Some(d) = &self.direct {
                    return self.direct_perft(game, d, s, moves, depth);
                }
                let mut total = 0;
                for cell in moves.cells() {
                    let mut t = s.at_boundary();
                    let next = self.play(game, &mut t, pc, 0, cell)?;
                    total += self.perft(game, &t, &next, depth - 1)?;
                }
                Ok(total)
            }
        }
    }
}

/// Everything that decides a position's future inside a turn, for [`Kernel::perft_steps`]'s
/// memo: the state without its step count and cached flags, and the choice it stands at.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct StepKey<B> {
    pieces: [B; 2],
    regs: [i32; MAX_REGISTERS],
    tokens: [u8; MAX_TOKENS],
    mover: u8,
    turn: u32,
    passes: u32,
    passing: bool,
    pc: u32,
}

impl<B: Board> StepKey<B> {
    fn of(s: &KState<B>, pc: u32) -> Self {
        StepKey {
            pieces: s.pieces,
            regs: s.regs,
            tokens: s.tokens,
            mover: s.mover,
            turn: s.turn,
            passes: s.passes,
            passing: s.passing,
            pc,
        }
    }
}

/// Counts below sub-states of a turn, by sub-state and depth.
pub type StepMemo<B> = PositionMap<(StepKey<B>, u32), u64>;

/// Bounds the memory of a long count; clearing only costs recomputation.
const MEMO_ENTRIES: usize = 1 << 21;

/// The kernel sized for a game's board: one word, two, six (up to 19 x 19 and a little more)
/// or the largest board the language allows.
pub enum AnyKernel {
    Narrow(Kernel<u64>),
    Wide(Kernel<u128>),
    // Boxed: a kernel holds sets of its width, and these are wide.
    Words6(Box<Kernel<Wide<6>>>),
    Full(Box<Kernel<Wide<{ WORDS }>>>),
}

/// Runs `$body` with `$k` bound to the kernel of whatever width `$any` holds.
macro_rules! each_width {
    ($any:expr, $k:ident => $body:expr) => {
        match $any {
            $crate::engine::kernel::AnyKernel::Narrow($k) => $body,
            $crate::engine::kernel::AnyKernel::Wide($k) => $body,
            $crate::engine::kernel::AnyKernel::Words6($k) => $body,
            $crate::engine::kernel::AnyKernel::Full($k) => $body,
        }
    };
}
pub(crate) use each_width;

impl AnyKernel {
    /// The size of this kernel's [`KState`].
    pub fn state_bytes(&self) -> usize {
        fn of<B: Board>(_: &Kernel<B>) -> usize {
            std::mem::size_of::<KState<B>>()
        }
        each_width!(self, k => of(k))
    }

    /// The runner for `game`, on sets as wide as its board needs, with every fast path the
    /// rules allow (`plain`: none of them, the reference the fast paths are tested against).
    pub fn new(game: &Game, plain: bool) -> AnyKernel {
        match game.geometry.cells() {
            ..=64 => AnyKernel::Narrow(Kernel::new(game, plain)),
            65..=128 => AnyKernel::Wide(Kernel::new(game, plain)),
            129..=384 => AnyKernel::Words6(Box::new(Kernel::new(game, plain))),
            _ => AnyKernel::Full(Box::new(Kernel::new(game, plain))),
        }
    }

    /// Whether every turn is one placement, so that the solver runs (see [`search`]).
    pub fn single_step(&self) -> bool {
        each_width!(self, k => k.single_step)
    }

    /// Whether the game has the shape of `Direct` (every turn one outflanking placement).
    pub fn direct(&self) -> bool {
        each_width!(self, k => k.direct.is_some())
    }

    /// Uniform random steps from `s` (see [`Kernel::playout`]) until the game ends or `limit`
    /// steps are played: the position reached and the number of steps.
    pub fn playout(
        &self,
        game: &Game,
        s: &State,
        rng: &mut Rng,
        limit: u64,
    ) -> Result<(State, u64), RuleError> {
        fn run<B: Board>(
            k: &Kernel<B>,
            game: &Game,
            s: &State,
            rng: &mut Rng,
            limit: u64,
        ) -> Result<(State, u64), RuleError> {
            if s.is_over() {
                return Ok((*s, 0));
            }
            if s.agreeing {
                return Ok(k.playout_by_steps(game, s, rng, limit)?);
            }
            let (ks, at) = k.import(game, s);
            let (t, at, n) = k.playout(game, &ks, at, rng, limit)?;
            Ok((k.export(game, &t, &at), n))
        }
        each_width!(self, k => run(k, game, s, rng, limit))
    }

    /// The value of `s` for its mover with best play (see [`search`]): exact with no
    /// `window`; with one, exact inside it and otherwise a bound on the side it falls. None
    /// when some turn has several steps, `s` is inside a turn, or the board is beyond the
    /// search table's keys (128 cells: no board that large is solved).
    pub fn value(
        &self,
        game: &Game,
        s: &State,
        table: &mut search::Table,
        window: Option<(f64, f64)>,
    ) -> Option<Result<f64, RuleError>> {
        fn run<B: Board>(
            k: &Kernel<B>,
            game: &Game,
            s: &State,
            table: &mut search::Table,
            window: Option<(f64, f64)>,
        ) -> Option<Result<f64, RuleError>> {
            if !k.single_step || s.agreeing || s.is_over() {
                return None;
            }
            let (ks, at) = k.import(game, s);
            Some(match window {
                None => k.exact_value(game, table, &ks, &at).map_err(|e| *e),
                Some((alpha, beta)) => k.value(game, table, &ks, &at, alpha, beta).map_err(|e| *e),
            })
        }
        match self {
            AnyKernel::Narrow(k) => run(k, game, s, table, window),
            AnyKernel::Wide(k) => run(k, game, s, table, window),
            AnyKernel::Words6(_) | AnyKernel::Full(_) => None,
        }
    }

    /// Perft from `s`: sequences of `depth` whole turns (see [`Kernel::perft`] and
    /// [`Kernel::perft_steps`]).
    pub fn perft(&self, game: &Game, s: &State, depth: u32) -> Result<u64, RuleError> {
        fn run<B: Board>(k: &Kernel<B>, game: &Game, s: &State, depth: u32) -> Result<u64, Fault> {
            if depth == 0 || s.is_over() {
                return Ok(1);
            }
            if s.agreeing {
                let message = "perft counts turns of play, and this position is in the agreement after the game";
                return Err(fault(game, message, None));
            }
            let (ks, at) = k.import(game, s);
            if k.single_step && s.steps == 0 {
                k.perft(game, &ks, &at, depth)
            } else {
                k.perft_steps(game, &ks, &at, depth, &mut StepMemo::default())
            }
        }
        each_width!(self, k => run(k, game, s, depth)).map_err(|e| *e)
    }
}
