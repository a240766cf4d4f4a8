//! The compiled, resolved form of a game: typed expression trees with every name resolved,
//! constants folded into bit sets, and the turn program flattened into instructions with jumps.
//! The engine runs only this form.

use crate::board::bits::Bits;
use crate::board::geometry::{DirSet, Geometry};
use crate::board::CellClass;
use crate::source::SourceFile;
use crate::source::Span;

/// When an end condition is asked: after every step, or at turn boundaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    AfterStep,
    AfterTurn,
}
use std::sync::Arc;

/// Upper bounds that keep a game state fixed-size.
pub const MAX_REGISTERS: usize = 16;
pub const MAX_TOKENS: usize = 4;
/// Players a game may have (the diagnostics say "eight"), and slots of pieces: its players'
/// and its kinds' together.
pub const MAX_PLAYERS: usize = 8;
/// Counters a game may declare; each player's value of each takes a slot at the top of the
/// state's registers, below which the turn variables live (see [`counter_slot`]).
pub const MAX_COUNTERS: usize = 4;

/// The register that holds player `player`'s value of counter `counter`: counted down from
/// the last, so that turn variables (counted up from 0) and counters never share one.
#[inline]
pub fn counter_slot(counter: u8, player: u8, players: u8) -> usize {
    MAX_REGISTERS - 1 - (players as usize * counter as usize + player as usize)
}
/// The player who moves after `p` among `players`, in the order they are declared.
#[inline]
pub fn next_player(p: u8, players: u8) -> u8 {
    if p + 1 >= players {
        0
    } else {
        p + 1
    }
}

/// Options one choice may offer: the runner keeps which are open in one 64-bit word.
pub const MAX_OPTIONS: usize = 64;

/// A player reference; `NOBODY` stands for "no player" (an unheld token).
pub const NOBODY: u8 = u8::MAX;

/// A place in a rules file, for runtime errors.
#[derive(Clone, Copy, Debug, Default)]
pub struct Loc {
    pub file: u16,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Num {
    Const(f64),
    Count(Box<Set>),
    Reg(u8),
    Turn,
    Passes,
    Add(Box<Num>, Box<Num>),
    Sub(Box<Num>, Box<Num>),
    Mul(Box<Num>, Box<Num>),
    Div(Box<Num>, Box<Num>),
    Neg(Box<Num>),
    If(Box<Cond>, Box<Num>, Box<Num>),
    /// A per-player attribute: index into `Game::attributes`.
    Attr(Box<Player>, usize),
    /// A player's value of a counter: index into `Game::counters`.
    Counter(Box<Player>, u8),
    /// `row(c)` and `column(c)`: 1-based, row 1 at the top of the printed board.
    Row(Box<Cell>),
    Column(Box<Cell>),
    /// `distance(a, b)`: the king steps from one cell to the other, removed cells ignored.
    Distance(Box<Cell>, Box<Cell>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// Whether `a` stands in this relation to `b` (the checker folds constants with it too).
    #[inline]
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Cond {
    Const(bool),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Num(Cmp, Box<Num>, Box<Num>),
    Player(bool, Box<Player>, Box<Player>),
    Cell(bool, Box<Cell>, Box<Cell>),
    SetEq(bool, Box<Set>, Box<Set>),
    In(Box<Cell>, Box<Set>),
    NonEmpty(Box<Set>),
    /// `some(captured(L, c))`, answered without building the set.
    AnyLine(usize, Box<Cell>),
    /// `some(liberties(group(c)))`: stops at the first liberty found.
    Breathes(Box<Cell>),
    Blocked,
}

#[derive(Clone, Debug)]
pub enum Cell {
    Const(u16),
    Reg(u8),
    /// `if C then A else B` over cells.
    If(Box<Cond>, Box<Cell>, Box<Cell>),
}

#[derive(Clone, Debug)]
pub enum Set {
    Const(Bits),
    /// The empty cells (`empty`); no cells at all is `Const(Bits::EMPTY)`.
    Empty,
    Pieces(Box<Player>),
    AllPieces,
    Single(Box<Cell>),
    Union(Box<Set>, Box<Set>),
    Inter(Box<Set>, Box<Set>),
    Minus(Box<Set>, Box<Set>),
    Captured(usize, Box<Cell>),
    /// Every cell from which line `L` matches in some direction: `some(captured(L, c))` asked
    /// for all cells at once, with whole-set shifts.
    Sources(usize),
    Ends(usize, Box<Cell>),
    Neighbours(Box<Cell>, DirSet),
    Adjacent(Box<Set>, DirSet),
    /// The cells one leap from a cell of the set, by any vector of `Game::leaps[i]`.
    Leap(Box<Set>, usize),
    Between(Box<Cell>, Box<Cell>),
    /// `ring(c, n)`: the cells `n` king steps from `c` (see `Geometry::ring`).
    Ring(Box<Cell>, u16),
    Group(Box<Cell>),
    Liberties(Box<Set>),
    Surrounded(Box<Set>),
    Territory(Box<Player>),
    /// `if C then A else B` over sets.
    If(Box<Cond>, Box<Set>, Box<Set>),
    /// The cells of a set for which a condition holds with register `r` standing for each
    /// (`cells c in S where COND`): what of the condition could not be asked of all cells at
    /// once (the checker moves the rest into the set, as for a `choose`'s `where`).
    Filter(Box<Set>, u8, Box<Cond>),
}

#[derive(Clone, Debug)]
pub enum Player {
    Const(u8),
    Mover,
    Other,
    /// The player bound by `score p`, `tiebreak p` or `for each p`.
    Bound,
    Opponent(Box<Player>),
    /// The player who moves after this one (with two players, the opponent).
    Next(Box<Player>),
    Holder(u8),
    /// `if C then A else B` over players.
    If(Box<Cond>, Box<Player>, Box<Player>),
}

/// A compiled line pattern: captured elements, then the end cell's class.
#[derive(Clone, Debug)]
pub struct LinePattern {
    pub name: String,
    pub elements: Vec<(CellClass, u32, u32)>,
    pub end: CellClass,
    pub dirs: DirSet,
    /// `X+ Y` with different classes: matched by one scan, no backtracking.
    pub simple_run: Option<(CellClass, CellClass)>,
}

#[derive(Clone, Debug)]
pub enum RegValue {
    Cell(Cell),
    Num(Num),
}

#[derive(Clone, Debug)]
// An explicit tag: without it the variant is encoded in spare values of the fields' own tags,
// and telling the variants apart on every instruction the runners walk costs several compares.
#[repr(u8)]
pub enum Instr {
    Choose(Box<Choose>),
    Place(Cell, Loc),
    /// `place c as KIND`: a piece of the kind whose pieces are in slot `slot` (see
    /// [`Game::kinds`]).
    PlaceKind(Cell, u8, Loc),
    Flip(Set),
    /// `flip S to P`: the pieces on `S` become `P`'s (what is empty stays empty).
    FlipTo(Set, Player),
    /// `remove S`: every piece on `S` is taken off the board.
    Remove(Set),
    /// The two players exchange their pieces, counters and tokens (`swap`).
    Swap,
    Move(Cell, Cell, Loc),
    Let(u8, RegValue),
    JumpUnless(Cond, u32),
    Jump(u32),
    Require(Cond, Loc),
    Stop,
    Take(u8),
    MarkPass,
    /// `add COUNTER AMOUNT to PLAYER` (boxed: rare, and larger than the other instructions).
    Add(Box<AddToCounter>),
}

#[derive(Clone, Debug)]
pub struct AddToCounter {
    /// Index into `Game::counters`.
    pub counter: u8,
    pub player: Player,
    pub amount: Num,
    /// Where it is written, for a value the counter cannot hold.
    pub loc: Loc,
}

/// A `while` or `repeat` loop: its instructions `start..end` and where it is written, so a loop
/// that never reaches a choice can be pointed at.
#[derive(Clone, Debug)]
pub struct LoopSpan {
    pub start: u32,
    pub end: u32,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Choose {
    pub alts: Vec<Alt>,
    /// Where execution goes when no option is legal.
    pub otherwise: u32,
    /// No further choice can follow in the same turn: every option completes the turn.
    pub last_choice: bool,
    /// A single legal option is taken at once, without a step.
    pub auto: bool,
}

#[derive(Clone, Debug)]
pub struct Alt {
    pub kind: AltKind,
    pub condition: Option<Cond>,
    /// The candidate set and `where` clause as written, when the compiler moved parts of the
    /// clause into the set (for `explain`, which points at the text).
    pub written: Option<Box<(Set, Cond)>>,
    pub mark: Option<String>,
    pub body: u32,
    /// The body can meet a `require` before the next choice, so each option must be tried.
    pub needs_trial: bool,
    /// No choice can follow this option in the same turn.
    pub ends_turn: bool,
    /// Where the option, its candidate set and its `where` clause are written (for `explain`).
    pub loc: Loc,
    pub set_loc: Option<Loc>,
    pub condition_loc: Option<Loc>,
}

#[derive(Clone, Debug)]
pub enum AltKind {
    Cell { reg: u8, set: Set },
    Word(String),
    Pass,
}

#[derive(Clone, Debug)]
pub struct EndCondition {
    pub timing: Timing,
    pub for_each: bool,
    pub condition: Cond,
    pub winner: Option<Player>,
    /// The `end` item, for errors about the game's end.
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct PlayerInfo {
    pub name: String,
    pub symbol: char,
}

/// How line patterns see a kind of piece that belongs to no player: as a friend of whoever
/// the pattern is matched for, or as an opponent of everyone. Without a role a kind's piece is
/// neither, so it ends a run of either (it matches only `piece`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceRole {
    Friend,
    Opponent,
}

/// A kind of piece that belongs to no player (`piece NAME 'S'`).
#[derive(Clone, Debug)]
pub struct KindInfo {
    pub name: String,
    pub symbol: char,
    pub role: Option<PieceRole>,
}

/// A parameter of the rules as checked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ParamInfo {
    pub name: String,
    /// Its value, as text (`8`, `true`).
    pub value: String,
    /// The values it allows, as text (`4 to 16 step 2`, `true or false`).
    pub allowed: String,
}

/// A checked, compiled game, ready to run.
#[derive(Clone, Debug)]
pub struct Game {
    pub title: String,
    /// Who made the game and the rules text (`credit`), in file order, a base file's first.
    pub credits: Vec<String>,
    /// Where the rules are published (`source`), in the same order.
    pub sources: Vec<String>,
    /// The parameters, by name, with the values they were checked with.
    pub params: Vec<ParamInfo>,
    pub geometry: Geometry,
    /// In turn order: after the last, the first again.
    pub players: Vec<PlayerInfo>,
    /// The kinds of piece that belong to no player. The pieces of every player and kind are
    /// kept in slots: the players' first, in turn order, then the kinds' in this order.
    pub kinds: Vec<KindInfo>,
    pub first: u8,
    /// Per slot (the slots past the players and kinds are empty).
    pub setup: [Bits; MAX_PLAYERS],
    pub lines: Vec<LinePattern>,
    pub tokens: Vec<String>,
    pub attributes: Vec<(String, [f64; MAX_PLAYERS])>,
    pub program: Vec<Instr>,
    /// Every loop of `program`, outer loops before the loops they hold.
    pub loops: Vec<LoopSpan>,
    /// Where the agreement program starts in `program`, if the rules have one.
    pub agreement: Option<u32>,
    pub registers: usize,
    /// The distances the rules ask `ring(c, n)` for (the runner tabulates those rings).
    pub ring_distances: Vec<u16>,
    /// The leaps of each direction set that has some (`directions knight = (1, 2), ...`), by
    /// index: each a vector of columns and rows.
    pub leaps: Vec<Vec<(i32, i32)>>,
    /// Each counter's name and the value every player starts with.
    pub counters: Vec<(String, i32)>,
    pub ends: Vec<EndCondition>,
    pub score: Num,
    pub tiebreaks: Vec<Num>,
    pub files: Vec<Arc<SourceFile>>,
    /// Named regions, for diagrams.
    pub regions: Vec<(String, Bits)>,
    /// The turns and reflections of the board that the rules keep (the identity left out):
    /// positions one of them maps onto each other play the same.
    pub symmetries: Vec<Symmetry>,
}

/// A turn or reflection of the board that the rules keep (see `check::symmetry`).
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// What it is, in words ("a quarter turn").
    pub name: &'static str,
    /// Where it sends each cell of the board's rectangle.
    pub cells: Vec<u16>,
    /// Where it sends each direction of [`crate::board::geometry::DIRS`].
    pub dirs: [u8; 8],
}

impl Symmetry {
    /// The cells `b` is sent to.
    pub fn bits_image(&self, b: &Bits) -> Bits {
        let mut out = Bits::EMPTY;
        for c in b.iter() {
            out.insert(usize::from(self.cells[c]));
        }
        out
    }

    /// The directions `d` is sent to.
    pub fn dirs_image(&self, d: DirSet) -> DirSet {
        DirSet(d.iter().fold(0, |m, x| m | 1 << self.dirs[x]))
    }
}

impl Game {
    /// The number of players, 2 to [`MAX_PLAYERS`].
    #[inline]
    pub fn player_count(&self) -> u8 {
        self.players.len() as u8
    }

    /// The slots of pieces: the players, then the kinds (at most [`MAX_PLAYERS`] together).
    #[inline]
    pub fn slot_count(&self) -> u8 {
        (self.players.len() + self.kinds.len()) as u8
    }

    /// The symbol of the pieces in `slot`, a player's or a kind's.
    pub fn slot_symbol(&self, slot: usize) -> char {
        match self.players.get(slot) {
            Some(p) => p.symbol,
            None => self.kinds[slot - self.players.len()].symbol,
        }
    }

    /// The name of the player or kind whose pieces are in `slot`.
    pub fn slot_name(&self, slot: usize) -> &str {
        match self.players.get(slot) {
            Some(p) => &p.name,
            None => &self.kinds[slot - self.players.len()].name,
        }
    }

    /// The slot of the pieces shown by `symbol` in positions.
    pub fn slot_by_symbol(&self, symbol: char) -> Option<usize> {
        (0..self.slot_count() as usize).find(|&s| self.slot_symbol(s) == symbol)
    }

    /// The player who moves after `p`.
    #[inline]
    pub fn next_player(&self, p: u8) -> u8 {
        next_player(p, self.player_count())
    }

    /// Every player once, in turn order from `p`.
    pub fn turn_order(&self, p: u8) -> impl Iterator<Item = u8> {
        let players = self.player_count();
        (0..players).map(move |k| (p + k) % players)
    }

    /// The players' names for a message: "black and white", "red, green and blue".
    pub fn player_list(&self) -> String {
        let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        }
    }

    pub fn player_by_name(&self, name: &str) -> Option<u8> {
        self.players
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u8)
    }
}

/// Whether an expression reads register `r` (a variable bound by `choose` or `let`): a part of
/// a `where` clause that does not is the same for every candidate, and is asked once.
pub trait ReadsRegister {
    fn reads(&self, r: u8) -> bool;
}

impl ReadsRegister for Cond {
    fn reads(&self, r: u8) -> bool {
        match self {
            Cond::Const(_) | Cond::Blocked => false,
            Cond::Not(a) => a.reads(r),
            Cond::And(a, b) | Cond::Or(a, b) => a.reads(r) || b.reads(r),
            Cond::Num(_, a, b) => a.reads(r) || b.reads(r),
            Cond::Player(_, a, b) => a.reads(r) || b.reads(r),
            Cond::Cell(_, a, b) => a.reads(r) || b.reads(r),
            Cond::SetEq(_, a, b) => a.reads(r) || b.reads(r),
            Cond::In(c, s) => c.reads(r) || s.reads(r),
            Cond::NonEmpty(s) => s.reads(r),
            Cond::AnyLine(_, c) | Cond::Breathes(c) => c.reads(r),
        }
    }
}

impl ReadsRegister for Num {
    fn reads(&self, r: u8) -> bool {
        match self {
            Num::Const(_) | Num::Turn | Num::Passes => false,
            Num::Reg(x) => *x == r,
            Num::Count(s) => s.reads(r),
            Num::Add(a, b) | Num::Sub(a, b) | Num::Mul(a, b) | Num::Div(a, b) => {
                a.reads(r) || b.reads(r)
            }
            Num::Neg(a) => a.reads(r),
            Num::If(c, a, b) => c.reads(r) || a.reads(r) || b.reads(r),
            Num::Attr(p, _) | Num::Counter(p, _) => p.reads(r),
            Num::Row(c) | Num::Column(c) => c.reads(r),
            Num::Distance(a, b) => a.reads(r) || b.reads(r),
        }
    }
}

impl ReadsRegister for Cell {
    fn reads(&self, r: u8) -> bool {
        match self {
            Cell::Const(_) => false,
            Cell::Reg(x) => *x == r,
            Cell::If(c, a, b) => c.reads(r) || a.reads(r) || b.reads(r),
        }
    }
}

impl ReadsRegister for Player {
    fn reads(&self, r: u8) -> bool {
        match self {
            Player::Const(_)
            | Player::Mover
            | Player::Other
            | Player::Bound
            | Player::Holder(_) => false,
            Player::Opponent(p) | Player::Next(p) => p.reads(r),
            Player::If(c, a, b) => c.reads(r) || a.reads(r) || b.reads(r),
        }
    }
}

impl ReadsRegister for Set {
    fn reads(&self, r: u8) -> bool {
        match self {
            Set::Const(_) | Set::Empty | Set::AllPieces | Set::Sources(_) => false,
            Set::Pieces(p) | Set::Territory(p) => p.reads(r),
            Set::Single(c)
            | Set::Captured(_, c)
            | Set::Ends(_, c)
            | Set::Neighbours(c, _)
            | Set::Group(c) => c.reads(r),
            Set::Union(a, b) | Set::Inter(a, b) | Set::Minus(a, b) => a.reads(r) || b.reads(r),
            Set::Adjacent(a, _) | Set::Leap(a, _) | Set::Liberties(a) | Set::Surrounded(a) => {
                a.reads(r)
            }
            Set::Between(a, b) => a.reads(r) || b.reads(r),
            Set::Ring(c, _) => c.reads(r),
            Set::If(c, a, b) => c.reads(r) || a.reads(r) || b.reads(r),
            // Inside the filter its own register is each cell in turn, not the variable's.
            Set::Filter(s, own, c) => s.reads(r) || (r != *own && c.reads(r)),
        }
    }
}
