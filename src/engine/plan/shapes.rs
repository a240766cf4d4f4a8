//! The shapes of program the runner recognises when a game is loaded, and runs by a direct
//! path instead of instruction by instruction. Each type here is one shape, named for the
//! path `bench` reports it as: a whole turn of one outflanking placement ([`Direct`], the
//! direct path), a turn of enclosing placements run as a loop ([`Enclosing`], the enclosure
//! loop), a choice's recognised parts ([`ChoiceShape`]: the enclosure path and the cells a
//! line captures from); [`OnePlacementWalk`] finds whether every turn is one placement, and
//! after-step ends that read only a few cells are found here too. Each is a choice of the
//! lowering; a plain build takes none.

use crate::board::geometry::DirSet;
use crate::board::sets::Board;
use crate::board::CellClass;
use crate::ir::{AltKind, Cell, Cond, Game, Instr, Num, Player, Set, Timing};

/// The simplest shape of game, run as a tight loop over the two players' boards: the turn
/// program is a single choice, at its start, of an empty cell from which a run line captures,
/// whose body places there and flips that line's captures and ends the turn; no other option,
/// nothing to do when there is no such cell (a pass), no end checked after a step, and every
/// end condition needs the mover blocked. The turns of such a game differ only in the boards,
/// so playouts and perft keep no more than the boards between turns while the mover can move,
/// and hand back to the general path at a blocked mover.
///
/// The choice may also stand in the `else` of an opening phase, `if some(empty & R) { ... }
/// else { CHOICE }` (a region to fill first, as docs/LANGUAGE.md writes phases): with no
/// `move` in the program a taken cell stays taken, so once `R` is full the choice is the
/// whole turn for the rest of the game.
#[derive(Clone, Copy)]
pub(crate) struct Direct<B> {
    /// Where the choice stands in the program.
    pub(crate) pc: u32,
    /// Cells that must all be taken before the choice is the turn (none without a phase).
    pub(crate) gate: B,
    pub(crate) line: usize,
    /// The cells of the line's run and of its closing cell, as selections of the mover's,
    /// the opponent's and the empty cells.
    pub(crate) run: Pick<B>,
    pub(crate) end: Pick<B>,
    /// The board has joined edges: the line is walked (see `CompiledLine::walks`), not
    /// matched by lanes. The loop is compiled once for each (`W` in `DirectTurns::turn`),
    /// so that neither pays for a test of the other inside it.
    pub(crate) wraps: bool,
    /// The game ends exactly when neither player can place, and its winner is the better
    /// score: the end is known from the two boards alone.
    pub(crate) ends_when_blocked: bool,
    /// Each player's score is its count of pieces times this sign (1 or -1), with no
    /// tie-break: a finished game's value is then a matter of counting.
    pub(crate) counted_score: Option<f64>,
}

/// A cell class as a selection: all of a part's cells or none (no branch on the class). The
/// same mapping as `Ctx::class`; sharing one function between them made the compiled code
/// of the general path worse (3% more instructions in Verto playouts), so each has its own.
#[derive(Clone, Copy)]
pub(crate) struct Pick<B> {
    pub(crate) mover: B,
    pub(crate) opponent: B,
    pub(crate) empty: B,
}

impl<B: Board> Pick<B> {
    /// None for a kind of piece: the direct loop keeps the two players' boards alone.
    pub(crate) fn of(class: CellClass) -> Option<Pick<B>> {
        let all = |yes: bool| if yes { !B::EMPTY } else { B::EMPTY };
        let (m, o, e) = match class {
            CellClass::Friend => (true, false, false),
            CellClass::Opponent => (false, true, false),
            CellClass::Piece => (true, true, false),
            CellClass::Empty => (false, false, true),
            CellClass::Kind(_) => return None,
        };
        Some(Pick {
            mover: all(m),
            opponent: all(o),
            empty: all(e),
        })
    }

    #[inline(always)]
    pub(crate) fn cells(&self, mover: B, opponent: B, empty: B) -> B {
        (mover & self.mover) | (opponent & self.opponent) | (empty & self.empty)
    }
}

/// The game's [`Direct`] shape, if it has it.
pub(crate) fn direct<B: Board>(
    game: &Game,
    forms: &[ChoiceShape],
    single_step: bool,
    ends_after_step: bool,
    ends_need_blocked: bool,
) -> Option<Direct<B>> {
    // The loop keeps the boards alone between turns, so no counter may be kept. It keeps two
    // boards: the mover's and the one opponent's, and no kind of piece.
    if !single_step
        || game.slot_count() != 2
        || ends_after_step
        || !ends_need_blocked
        || !game.counters.is_empty()
    {
        return None;
    }
    let (pc, gate) = match game.program.first()? {
        Instr::Choose(_) => (0, B::EMPTY),
        Instr::JumpUnless(Cond::NonEmpty(set), target)
            if !game.program.iter().any(|i| matches!(i, Instr::Move(..))) =>
        {
            let region = match &**set {
                Set::Inter(a, b) => match (&**a, &**b) {
                    (Set::Empty, Set::Const(r)) | (Set::Const(r), Set::Empty) => r,
                    _ => return None,
                },
                _ => return None,
            };
            (*target as usize, B::from_bits(region))
        }
        _ => return None,
    };
    let Some(Instr::Choose(c)) = game.program.get(pc) else {
        return None;
    };
    let form = forms[pc];
    let line = form.sources_of?;
    let (run, end) = game.lines[line].simple_run?;
    let passes_at_once = matches!(
        game.program.get(c.otherwise as usize),
        None | Some(Instr::Stop)
    );
    let (run, end) = (Pick::of(run)?, Pick::of(end)?);
    (c.alts.len() == 1 && form.place_flip == Some(line) && passes_at_once).then(|| Direct {
        pc: pc as u32,
        gate,
        line,
        run,
        end,
        wraps: game.geometry.wrap.any(),
        ends_when_blocked: ends_when_blocked(game),
        counted_score: counted_score(game),
    })
}

/// Every end of `game` is a plain `end when blocked` checked after the turn, naming no
/// winner: see [`Direct::ends_when_blocked`].
fn ends_when_blocked(game: &Game) -> bool {
    !game.ends.is_empty()
        && game.ends.iter().all(|e| {
            e.timing == Timing::AfterTurn
                && !e.for_each
                && e.winner.is_none()
                && matches!(e.condition, Cond::Blocked)
        })
}

/// The sign of `game`'s score when each player's is its count of pieces, or minus that, with
/// no tie-break: see [`Direct::counted_score`].
fn counted_score(game: &Game) -> Option<f64> {
    let own = |n: &Num| match n {
        Num::Count(set) => matches!(&**set, Set::Pieces(p) if matches!(**p, Player::Bound)),
        _ => false,
    };
    if !game.tiebreaks.is_empty() {
        return None;
    }
    match &game.score {
        n if own(n) => Some(1.0),
        Num::Neg(n) if own(n) => Some(-1.0),
        _ => None,
    }
}

/// A turn that opens with a choice whose first option is a capture by enclosure (see
/// [`ChoiceShape::place_surround`]) and whose other options are words (a pass, a token to take), in
/// a game without counters or after-step ends: playouts run its placements as a loop that
/// changes the state in place and opens the next turn without running the program, as long
/// as the draw falls on a placement (see `Runner::enclosing_playout`).
#[derive(Clone, Copy)]
pub(crate) struct Enclosing {
    pub(crate) dirs: DirSet,
    /// The placed stone's group must breathe.
    pub(crate) require: bool,
    /// The first option is `c in empty` as it stands: its values are the empty cells.
    pub(crate) of_empty: bool,
    /// The words' conditions read nothing a placement changes (nor the mover or the turn),
    /// so which words a turn offers stays the same from placement to placement.
    pub(crate) settled_words: bool,
    /// The turn-boundary end conditions read nothing a placement changes but the passes,
    /// which every placement sets to zero: false once after a placement, false after the
    /// placements that follow it.
    pub(crate) settled_ends: bool,
}

/// The game's [`Enclosing`] turn, if it has one.
pub(crate) fn enclosing(
    game: &Game,
    forms: &[ChoiceShape],
    single_step: bool,
    ends_after_step: bool,
) -> Option<Enclosing> {
    if single_step || ends_after_step || !game.counters.is_empty() || game.slot_count() != 2 {
        return None;
    }
    let Some(Instr::Choose(c)) = game.program.first() else {
        return None;
    };
    let (dirs, require) = forms.first()?.place_surround?;
    let words = c.alts[1..]
        .iter()
        .all(|a| matches!(a.kind, AltKind::Word(_) | AltKind::Pass));
    if c.auto || !words {
        return None;
    }
    let first = &c.alts[0];
    let of_empty = matches!(
        first.kind,
        AltKind::Cell {
            set: Set::Empty,
            ..
        }
    ) && first.condition.is_none();
    let settled_words = c.alts[1..]
        .iter()
        .all(|a| a.condition.as_ref().is_none_or(|c| settled_cond(c, false)));
    let settled_ends = game
        .ends
        .iter()
        .filter(|e| e.timing == Timing::AfterTurn)
        .all(|e| settled_cond(&e.condition, true));
    Some(Enclosing {
        dirs,
        require,
        of_empty,
        settled_words,
        settled_ends,
    })
}

/// Whether a condition reads only constants, tokens' holders, fixed players' attributes and
/// (where `passes`) the passes in a row: nothing a placement changes but the passes, and
/// neither the mover nor the turn.
fn settled_cond(c: &Cond, passes: bool) -> bool {
    match c {
        Cond::Const(_) => true,
        Cond::Not(a) => settled_cond(a, passes),
        Cond::And(a, b) | Cond::Or(a, b) => settled_cond(a, passes) && settled_cond(b, passes),
        Cond::Num(_, a, b) => settled_num(a, passes) && settled_num(b, passes),
        Cond::Player(_, a, b) => settled_player(a) && settled_player(b),
        _ => false,
    }
}

fn settled_num(n: &Num, passes: bool) -> bool {
    match n {
        Num::Const(_) => true,
        Num::Passes => passes,
        Num::Add(a, b) | Num::Sub(a, b) | Num::Mul(a, b) | Num::Div(a, b) => {
            settled_num(a, passes) && settled_num(b, passes)
        }
        Num::Neg(a) => settled_num(a, passes),
        Num::If(c, a, b) => {
            settled_cond(c, passes) && settled_num(a, passes) && settled_num(b, passes)
        }
        Num::Attr(p, _) => settled_player(p),
        _ => false,
    }
}

fn settled_player(p: &Player) -> bool {
    match p {
        Player::Const(_) | Player::Bound | Player::Holder(_) => true,
        Player::Opponent(p) | Player::Next(p) => settled_player(p),
        Player::If(c, a, b) => settled_cond(c, false) && settled_player(a) && settled_player(b),
        Player::Mover | Player::Other => false,
    }
}

/// A choice whose parts the runner runs directly instead of walking their expressions.
#[derive(Clone, Copy, Default)]
pub(crate) struct ChoiceShape {
    /// The candidates are `empty & sources(L)` (what `where some(captured(L, c))` becomes).
    pub(crate) sources_of: Option<usize>,
    /// The body is `place c  flip captured(L, c)` and ends the turn.
    pub(crate) place_flip: Option<usize>,
    /// The body is `place c  flip surrounded(opponent & neighbours(c, D))`, then optionally
    /// `require some(liberties(group(c)))`, and ends the turn: capture by enclosure, run
    /// without walking the expressions (the directions D, whether the require is there).
    pub(crate) place_surround: Option<(DirSet, bool)>,
    /// A test `some(captured(L, x))` or `some(ends(L, x))` (line, variable, whether ends) whose
    /// next instruction chooses among those very cells, as a chain's `while` loop does: the
    /// cells are found once for both.
    pub(crate) test_then_choose: Option<(usize, u8, bool)>,
}

pub(crate) fn form(game: &Game, pc: usize) -> ChoiceShape {
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
            return ChoiceShape::default();
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
        return ChoiceShape {
            test_then_choose: chooses_them.then_some((l, *r, ends)),
            ..ChoiceShape::default()
        };
    }
    let Instr::Choose(c) = &game.program[pc] else {
        return ChoiceShape::default();
    };
    let alt = &c.alts[0];
    let AltKind::Cell { reg, set } = &alt.kind else {
        return ChoiceShape::default();
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
    // What follows `at` must end the turn at once.
    let ends_at = |mut at: usize| loop {
        match code.get(at) {
            None | Some(Instr::Stop) => break true,
            Some(Instr::Jump(t)) if *t as usize > at => at = *t as usize,
            _ => break false,
        }
    };
    let place_flip = match (code.get(body), code.get(body + 1)) {
        (Some(Instr::Place(p, _)), Some(Instr::Flip(Set::Captured(l, f))))
            if chosen(p) && chosen(f) && ends_at(body + 2) =>
        {
            Some(*l)
        }
        _ => None,
    };
    // The direct enclosure knows two players, the mover and the one other, and no kinds.
    let two_players = game.slot_count() == 2;
    let place_surround = match (code.get(body), code.get(body + 1)) {
        (Some(Instr::Place(p, _)), Some(Instr::Flip(Set::Surrounded(around))))
            if chosen(p) && two_players =>
        {
            let dirs = match &**around {
                Set::Inter(a, b) => match (&**a, &**b) {
                    (Set::Pieces(p), Set::Neighbours(c, d))
                    | (Set::Neighbours(c, d), Set::Pieces(p))
                        if matches!(**p, Player::Other) && chosen(c) =>
                    {
                        Some(*d)
                    }
                    _ => None,
                },
                _ => None,
            };
            match code.get(body + 2) {
                Some(Instr::Require(Cond::Breathes(c), _)) if chosen(c) && ends_at(body + 3) => {
                    dirs.map(|d| (d, true))
                }
                _ if ends_at(body + 2) => dirs.map(|d| (d, false)),
                _ => None,
            }
        }
        _ => None,
    };
    ChoiceShape {
        sources_of,
        place_flip,
        place_surround,
        test_then_choose: None,
    }
}

/// Why a game's turns are not all single placements (the runner's best case), or None.
pub(crate) fn multi_step_reason(game: &Game) -> Option<String> {
    let mut checker = OnePlacementWalk::new(game);
    checker.control(0);
    checker.ends();
    checker.reason
}

/// Walks the program and expressions, noting the first thing that is not a turn of one
/// placement.
pub(crate) struct OnePlacementWalk<'a> {
    pub(crate) game: &'a Game,
    pub(crate) seen: Vec<bool>,
    pub(crate) reason: Option<String>,
}

impl OnePlacementWalk<'_> {
    pub(crate) fn new(game: &Game) -> OnePlacementWalk<'_> {
        OnePlacementWalk {
            game,
            seen: vec![false; game.program.len()],
            reason: None,
        }
    }

    pub(crate) fn no(&mut self, why: &str) {
        if self.reason.is_none() {
            self.reason = Some(why.to_string());
        }
    }

    pub(crate) fn ends(&mut self) {
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
    pub(crate) fn control(&mut self, mut pc: usize) {
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
    pub(crate) fn body(&mut self, mut pc: usize, reg: u8) {
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

    pub(crate) fn cell(&mut self, c: &Cell, reg: Option<u8>) {
        match c {
            Cell::Const(_) => {}
            Cell::Reg(r) => {
                if Some(*r) != reg {
                    self.no("a turn variable");
                }
            }
            Cell::If(c, a, b) => {
                self.cond_with(c, reg);
                self.cell(a, reg);
                self.cell(b, reg);
            }
        }
    }

    pub(crate) fn player(&mut self, p: &Player) {
        match p {
            Player::Holder(_) => self.no("a token holder"),
            Player::Opponent(p) => self.player(p),
            Player::If(c, a, b) => {
                self.cond(c);
                self.player(a);
                self.player(b);
            }
            _ => {}
        }
    }

    pub(crate) fn cond(&mut self, c: &Cond) {
        self.cond_with(c, None);
    }

    pub(crate) fn cond_with(&mut self, c: &Cond, reg: Option<u8>) {
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

    pub(crate) fn num(&mut self, n: &Num) {
        self.num_with(n, None);
    }

    pub(crate) fn num_with(&mut self, n: &Num, reg: Option<u8>) {
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
            Num::Counter(..) => self.no("a counter"),
            Num::Row(c) | Num::Column(c) => self.cell(c, reg),
            Num::Distance(a, b) => {
                self.cell(a, reg);
                self.cell(b, reg);
            }
        }
    }

    pub(crate) fn set(&mut self, s: &Set, reg: Option<u8>) {
        match s {
            Set::Const(_) | Set::Empty | Set::AllPieces | Set::Sources(_) => {}
            Set::Pieces(p) => self.player(p),
            Set::Single(c) | Set::Captured(_, c) | Set::Ends(_, c) | Set::Neighbours(c, _) => {
                self.cell(c, reg);
            }
            Set::Union(a, b) | Set::Inter(a, b) | Set::Minus(a, b) => {
                self.set(a, reg);
                self.set(b, reg);
            }
            Set::Adjacent(a, _) | Set::Leap(a, _) => self.set(a, reg),
            Set::If(c, a, b) => {
                self.cond_with(c, reg);
                self.set(a, reg);
                self.set(b, reg);
            }
            Set::Ring(c, _) => self.cell(c, reg),
            Set::Between(..)
            | Set::Group(_)
            | Set::Liberties(_)
            | Set::Surrounded(_)
            | Set::Territory(_) => self.no("groups, territory or `between`"),
            Set::Filter(..) => self.no("a quantifier asked cell by cell"),
        }
    }
}

/// The cells whose contents decide a condition, when nothing else does (no counters, no
/// variables, no player but the one bound by `for each p` and fixed ones): None otherwise.
pub(crate) fn reads_cond<B: Board>(c: &Cond) -> Option<B> {
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

pub(crate) fn reads_num<B: Board>(n: &Num) -> Option<B> {
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
pub(crate) fn fixed_player(p: &Player) -> bool {
    match p {
        Player::Const(_) | Player::Bound => true,
        Player::Opponent(p) => fixed_player(p),
        _ => false,
    }
}

pub(crate) fn reads_set<B: Board>(s: &Set) -> Option<B> {
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
pub(crate) fn needs_blocked(c: &Cond) -> bool {
    match c {
        Cond::Blocked => true,
        Cond::And(a, b) => needs_blocked(a) || needs_blocked(b),
        _ => false,
    }
}
