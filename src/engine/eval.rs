//! Evaluating compiled expressions against a game state.

use super::bits::Bits;
use super::board::{flood, reached, FloodSet};
use super::geometry::{DirSet, NONE};
use super::state::Outcome;
use super::state::State;
use super::Engine;
use super::FloodSteps;
use crate::ir::{Cell, Cmp, Cond, EndCondition, LinePattern, Num, Player, Set, Timing, NOBODY};
use crate::syntax::ast::CellClass;

#[inline]
pub fn compare(cmp: Cmp, a: f64, b: f64) -> bool {
    match cmp {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    }
}

/// What the shared evaluation of numbers, players and conditions needs from a runner: the
/// interpreter's [`Ctx`] over wide sets and the kernel's over integer boards answer the same
/// questions, so the language's arithmetic and logic are written once.
pub trait Evaluate {
    type Cells: PartialEq;
    fn mover(&self) -> u8;
    /// The player bound by `score p`, `tiebreak p` or `for each p`.
    fn bound(&self) -> u8;
    fn holder(&self, token: u8) -> u8;
    fn cell(&self, c: &Cell) -> usize;
    fn register(&self, r: u8) -> f64;
    fn turn(&self) -> f64;
    fn passes(&self) -> f64;
    fn attribute(&self, index: usize, player: u8) -> f64;
    fn cells(&self, s: &Set) -> Self::Cells;
    fn count(cells: &Self::Cells) -> u32;
    fn contains(cells: &Self::Cells, cell: usize) -> bool;
    fn is_empty(cells: &Self::Cells) -> bool;
    fn any_line(&self, line: usize, from: usize) -> bool;
    fn breathes(&self, cell: usize) -> bool;
    fn blocked(&self) -> bool;
}

pub fn player<E: Evaluate>(e: &E, p: &Player) -> u8 {
    match p {
        Player::Const(x) => *x,
        Player::Mover => e.mover(),
        Player::Other => 1 - e.mover(),
        Player::Bound => e.bound(),
        Player::Opponent(inner) => match player(e, inner) {
            NOBODY => NOBODY,
            x => 1 - x,
        },
        Player::Holder(t) => e.holder(*t),
    }
}

pub fn num<E: Evaluate>(e: &E, n: &Num) -> f64 {
    match n {
        Num::Add(a, b) => operand(e, a) + operand(e, b),
        Num::Sub(a, b) => operand(e, a) - operand(e, b),
        Num::Mul(a, b) => operand(e, a) * operand(e, b),
        Num::Div(a, b) => {
            let d = operand(e, b);
            if d == 0.0 {
                0.0
            } else {
                operand(e, a) / d
            }
        }
        Num::Neg(a) => -operand(e, a),
        Num::If(c, a, b) => {
            if cond(e, c) {
                operand(e, a)
            } else {
                operand(e, b)
            }
        }
        Num::Attr(p, i) => match player(e, p) {
            NOBODY => 0.0,
            p => e.attribute(*i, p),
        },
        leaf => operand(e, leaf),
    }
}

/// An operand of arithmetic or a comparison: the leaves (constants, counters, counts) are
/// read here, without another call of [`num`], which costs more than they do; [`num`] reads
/// its leaves here too.
#[inline(always)]
fn operand<E: Evaluate>(e: &E, n: &Num) -> f64 {
    match n {
        Num::Const(v) => *v,
        Num::Count(s) => E::count(&e.cells(s)) as f64,
        Num::Reg(r) => e.register(*r),
        Num::Turn => e.turn(),
        Num::Passes => e.passes(),
        _ => num(e, n),
    }
}

pub fn cond<E: Evaluate>(e: &E, c: &Cond) -> bool {
    match c {
        Cond::Const(b) => *b,
        Cond::Not(a) => match &**a {
            // The usual `none(...)`, without another call.
            Cond::NonEmpty(s) => E::is_empty(&e.cells(s)),
            a => !cond(e, a),
        },
        Cond::And(a, b) => cond(e, a) && cond(e, b),
        Cond::Or(a, b) => cond(e, a) || cond(e, b),
        Cond::Num(cmp, a, b) => compare(*cmp, operand(e, a), operand(e, b)),
        Cond::Player(eq, a, b) => (player(e, a) == player(e, b)) == *eq,
        Cond::Cell(eq, a, b) => (e.cell(a) == e.cell(b)) == *eq,
        Cond::SetEq(eq, a, b) => (e.cells(a) == e.cells(b)) == *eq,
        Cond::In(c, s) => E::contains(&e.cells(s), e.cell(c)),
        Cond::NonEmpty(s) => !E::is_empty(&e.cells(s)),
        Cond::Breathes(c) => e.breathes(e.cell(c)),
        Cond::AnyLine(l, c) => e.any_line(*l, e.cell(c)),
        Cond::Blocked => e.blocked(),
    }
}

/// The first end condition of `timing` that holds at the position `at` evaluates (given the
/// player bound by `for each p`): Some(the winner it names, if it names one).
pub fn ended<E: Evaluate>(
    ends: &[EndCondition],
    timing: Timing,
    mover: u8,
    at: impl Fn(u8) -> E,
) -> Option<Option<u8>> {
    for end in ends.iter().filter(|e| e.timing == timing) {
        let players: &[u8] = if end.for_each {
            &[mover, 1 - mover]
        } else {
            &[NOBODY]
        };
        for &p in players {
            let e = at(p);
            if cond(&e, &end.condition) {
                return Some(end.winner.as_ref().map(|w| player(&e, w)));
            }
        }
    }
    None
}

/// The scores and the winner: `winner` when an end condition named one, otherwise the first
/// of score and tie-breaks that differs decides (equal throughout: a draw).
pub fn outcome<E: Evaluate>(
    score: &Num,
    tiebreaks: &[Num],
    winner: Option<u8>,
    at: impl Fn(u8) -> E,
) -> Outcome {
    let value = |expr: &Num, p: u8| num(&at(p), expr);
    let scores = [value(score, 0), value(score, 1)];
    let winner = winner.unwrap_or_else(|| {
        std::iter::once((scores[0], scores[1]))
            .chain(tiebreaks.iter().map(|t| (value(t, 0), value(t, 1))))
            .find(|(a, b)| a != b)
            .map(|(a, b)| if a > b { 0 } else { 1 })
            .unwrap_or(NOBODY)
    });
    Outcome { winner, scores }
}

impl Evaluate for Ctx<'_> {
    type Cells = Bits;
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
        self.engine.game.attributes[index].1[player as usize]
    }
    fn cells(&self, s: &Set) -> Bits {
        self.set(s)
    }
    fn count(cells: &Bits) -> u32 {
        cells.count()
    }
    fn contains(cells: &Bits, cell: usize) -> bool {
        cells.contains(cell)
    }
    fn is_empty(cells: &Bits) -> bool {
        cells.is_empty()
    }
    fn any_line(&self, l: usize, from: usize) -> bool {
        let line = &self.engine.game.lines[l];
        // A match that takes no cell (all of its elements optional) captures nothing.
        line.dirs
            .iter()
            .any(|d| self.match_line(line, from, d).is_some_and(|n| n > 0))
    }
    fn breathes(&self, cell: usize) -> bool {
        let st = self.state;
        let empty = self.empty();
        match st.owner(cell) {
            // An empty cell's "group" is its region; its liberties are empty neighbours.
            None => self
                .flood(cell, &empty, None)
                .is_some_and(|r| r.count() > 1),
            Some(p) => self
                .flood(cell, &st.pieces[p as usize], Some(&empty))
                .is_none(),
        }
    }
    fn blocked(&self) -> bool {
        let mover = self
            .mover_can_move
            .unwrap_or_else(|| self.engine.can_start_turn(self.state, self.state.mover));
        !mover && !self.engine.can_start_turn(self.state, 1 - self.state.mover)
    }
}

/// What an expression is evaluated against: the state and the player bound by
/// `score p` / `for each p` (or `NOBODY`).
pub struct Ctx<'a> {
    pub engine: &'a Engine,
    pub state: &'a State,
    pub bound: u8,
    /// Whether the player to move has a first step, when the caller already knows.
    pub mover_can_move: Option<bool>,
    /// Where contexts of one position share the empty cells each player's stones reach:
    /// scoring both players' territory would flood each player's stones twice.
    pub reached: Option<&'a Reached>,
}

/// Per player, the empty cells connected to their stones, once flooded.
pub type Reached = std::cell::Cell<[Option<Bits>; 2]>;

impl Ctx<'_> {
    #[inline]
    fn occupied(&self) -> Bits {
        self.state.pieces[0].union(&self.state.pieces[1])
    }

    #[inline]
    fn is(&self, class: CellClass, cell: usize) -> bool {
        let s = self.state;
        match class {
            CellClass::Friend => s.pieces[s.mover as usize].contains(cell),
            CellClass::Opponent => s.pieces[1 - s.mover as usize].contains(cell),
            CellClass::Piece => s.pieces[0].contains(cell) || s.pieces[1].contains(cell),
            CellClass::Empty => !(s.pieces[0].contains(cell) || s.pieces[1].contains(cell)),
        }
    }

    pub fn player(&self, p: &Player) -> u8 {
        player(self, p)
    }

    #[inline]
    pub fn cell(&self, c: &Cell) -> usize {
        match c {
            Cell::Const(c) => *c as usize,
            Cell::Reg(r) => self.state.regs[*r as usize] as usize,
        }
    }

    pub fn num(&self, n: &Num) -> f64 {
        num(self, n)
    }

    pub fn cond(&self, c: &Cond) -> bool {
        cond(self, c)
    }

    /// Matches `line` from `from` in direction `d`; returns the number of captured cells.
    #[inline]
    pub fn match_line(&self, line: &LinePattern, from: usize, d: usize) -> Option<usize> {
        let nb = &self.engine.game.geometry.neighbours;
        if let Some((run, end)) = line.simple_run {
            let mut cur = nb[from][d];
            let mut n = 0;
            while cur != NONE && self.is(run, cur as usize) {
                n += 1;
                cur = nb[cur as usize][d];
            }
            return (n > 0 && cur != NONE && self.is(end, cur as usize)).then_some(n);
        }
        if line.elements.iter().all(|&(_, min, max)| min == max) {
            // A pattern of fixed length has one way to match: walk it, no backtracking.
            let mut cur = nb[from][d];
            let mut n = 0;
            for &(class, count, _) in &line.elements {
                for _ in 0..count {
                    if cur == NONE || !self.is(class, cur as usize) {
                        return None;
                    }
                    cur = nb[cur as usize][d];
                    n += 1;
                }
            }
            return (cur != NONE && self.is(line.end, cur as usize)).then_some(n);
        }
        self.match_elements(line, 0, nb[from][d], d, 0)
    }

    /// Backtracking match of the elements from `index` on, starting at `cur`. Greedy first, so
    /// the longest match is found when several exist.
    fn match_elements(
        &self,
        line: &LinePattern,
        index: usize,
        cur: u16,
        d: usize,
        taken: usize,
    ) -> Option<usize> {
        let nb = &self.engine.game.geometry.neighbours;
        if index == line.elements.len() {
            return (cur != NONE && self.is(line.end, cur as usize)).then_some(taken);
        }
        let (class, min, max) = line.elements[index];
        // Cells after taking k = 0, 1, ... cells of this class.
        let mut after = [NONE; 32];
        after[0] = cur;
        let mut k = 0usize;
        let mut c = cur;
        while k < 31 && (k as u32) < max && c != NONE && self.is(class, c as usize) {
            c = nb[c as usize][d];
            k += 1;
            after[k] = c;
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

    fn line_cells(&self, line: &LinePattern, from: usize, ends: bool) -> Bits {
        let nb = &self.engine.game.geometry.neighbours;
        let mut out = Bits::EMPTY;
        for d in line.dirs.iter() {
            if let Some(n) = self.match_line(line, from, d) {
                let mut cur = nb[from][d] as usize;
                for _ in 0..n {
                    if !ends {
                        out.insert(cur);
                    }
                    cur = nb[cur][d] as usize;
                }
                if ends {
                    out.insert(cur);
                }
            }
        }
        out
    }

    fn class_set(&self, class: CellClass) -> Bits {
        let s = self.state;
        match class {
            CellClass::Friend => s.pieces[s.mover as usize],
            CellClass::Opponent => s.pieces[1 - s.mover as usize],
            CellClass::Piece => self.occupied(),
            CellClass::Empty => self.empty(),
        }
    }

    /// The cells from which `line` matches in some direction, computed for all cells at once:
    /// walking the pattern from its end backwards, each element keeps the cells of its class
    /// whose next cell (in the direction) starts a match of the rest.
    pub fn sources(&self, line: &LinePattern) -> Bits {
        let g = &self.engine.game.geometry;
        let end = self.class_set(line.end);
        let mut out = Bits::EMPTY;
        for d in line.dirs.iter() {
            let back = (d + 4) % 8;
            // `rest`: cells where the remaining suffix of the pattern matches, going along d;
            // `taking`: those where it matches taking at least one cell (a match that takes
            // none captures nothing, so its start is no source).
            let mut rest = end;
            let mut taking = Bits::EMPTY;
            for &(class, min, max) in line.elements.iter().rev() {
                let class = &self.class_set(class);
                let mut reach = rest;
                let mut runs = Bits::EMPTY;
                // After n cells of the class: the cells where a run of exactly n starts.
                for n in 1..=max.min(g.width.max(g.height) as u32) {
                    reach = g.step(&reach, back).inter(class);
                    if reach.is_empty() {
                        break;
                    }
                    if n >= min {
                        runs = runs.union(&reach);
                    }
                }
                (rest, taking) = if min == 0 {
                    (runs.union(&rest), runs.union(&taking))
                } else {
                    (runs, runs)
                };
            }
            out = out.union(&g.step(&taking, back));
        }
        out
    }

    fn adjacent(&self, s: &Bits, dirs: DirSet) -> Bits {
        let nb = &self.engine.game.geometry.neighbours;
        let mut out = Bits::EMPTY;
        for c in s.iter() {
            for d in dirs.iter() {
                let n = nb[c][d];
                if n != NONE {
                    out.insert(n as usize);
                }
            }
        }
        out
    }

    /// The orthogonally connected part of `within` that contains `start`, grown layer by
    /// layer without allocating. With `stop_at`, gives up (None) as soon as the part touches a
    /// cell of it: "does this group breathe" rarely needs the whole group.
    fn flood(&self, start: usize, within: &Bits, stop_at: Option<&Bits>) -> Option<Bits> {
        fn in_sets<F: FloodSet>(
            steps: &[(F, i32)],
            start: usize,
            within: &Bits,
            stop_at: Option<&Bits>,
        ) -> Option<Bits> {
            let stop_at = stop_at.map_or(F::NONE, F::of);
            flood(steps, F::of(&Bits::single(start)), F::of(within), stop_at).map(F::bits)
        }
        match &self.engine.flood_steps {
            FloodSteps::Narrow(steps) => return in_sets(steps, start, within, stop_at),
            FloodSteps::Wide(steps) => return in_sets(steps, start, within, stop_at),
            FloodSteps::Full(steps) => return in_sets(steps, start, within, stop_at),
            FloodSteps::CellByCell => {}
        }
        let nb = &self.engine.game.geometry.neighbours;
        let mut out = Bits::EMPTY;
        if !within.contains(start) {
            return Some(out);
        }
        out.insert(start);
        let mut frontier = out;
        loop {
            let mut next = Bits::EMPTY;
            for c in frontier.iter() {
                for d in DirSet::ORTHOGONAL.iter() {
                    let n = nb[c][d];
                    if n == NONE {
                        continue;
                    }
                    let n = n as usize;
                    if stop_at.is_some_and(|s| s.contains(n)) {
                        return None;
                    }
                    if within.contains(n) && !out.contains(n) {
                        next.insert(n);
                        out.insert(n);
                    }
                }
            }
            if next.is_empty() {
                return Some(out);
            }
            frontier = next;
        }
    }

    /// The stones of the group at `cell` (empty cells: the empty region).
    fn group_at(&self, cell: usize) -> Bits {
        let st = self.state;
        let within = match st.owner(cell) {
            Some(p) => st.pieces[p as usize],
            None => self.empty(),
        };
        self.flood(cell, &within, None).unwrap_or_default()
    }

    /// The empty cells connected to `p`'s stones, from the shared memo when there is one.
    /// None on the plain interpreter, which floods cell by cell.
    fn reached(&self, p: u8, empty: &Bits) -> Option<Bits> {
        if let Some(known) = self.reached.and_then(|m| m.get()[p as usize]) {
            return Some(known);
        }
        let stones = &self.state.pieces[p as usize];
        let found = match &self.engine.flood_steps {
            FloodSteps::Narrow(steps) => reached_in(steps, stones, empty),
            FloodSteps::Wide(steps) => reached_in(steps, stones, empty),
            FloodSteps::Full(steps) => reached_in(steps, stones, empty),
            FloodSteps::CellByCell => return None,
        };
        if let Some(memo) = self.reached {
            let mut both = memo.get();
            both[p as usize] = Some(found);
            memo.set(both);
        }
        Some(found)
    }

    fn empty(&self) -> Bits {
        self.engine.game.geometry.playable.minus(&self.occupied())
    }

    pub fn set(&self, s: &Set) -> Bits {
        let st = self.state;
        match s {
            Set::Const(b) => *b,
            Set::Empty => self.empty(),
            Set::Pieces(p) => match self.player(p) {
                NOBODY => Bits::EMPTY,
                p => st.pieces[p as usize],
            },
            Set::AllPieces => self.occupied(),
            Set::Single(c) => Bits::single(self.cell(c)),
            Set::Union(a, b) => self.set(a).union(&self.set(b)),
            Set::Inter(a, b) => self.set(a).inter(&self.set(b)),
            Set::Minus(a, b) => self.set(a).minus(&self.set(b)),
            Set::Captured(l, c) => {
                self.line_cells(&self.engine.game.lines[*l], self.cell(c), false)
            }
            Set::Ends(l, c) => self.line_cells(&self.engine.game.lines[*l], self.cell(c), true),
            Set::Sources(l) => self.sources(&self.engine.game.lines[*l]),
            Set::Neighbours(c, d) => self.engine.game.geometry.neighbours_of(self.cell(c), *d),
            Set::Adjacent(s, d) => self.adjacent(&self.set(s), *d),
            Set::Between(a, b) => {
                let mut out = Bits::EMPTY;
                for c in self
                    .engine
                    .game
                    .geometry
                    .between(self.cell(a), self.cell(b))
                {
                    out.insert(c);
                }
                out
            }
            Set::Group(c) => self.group_at(self.cell(c)),
            Set::Liberties(s) => self
                .adjacent(&self.set(s), DirSet::ORTHOGONAL)
                .inter(&self.empty()),
            Set::Surrounded(s) => {
                let cells = self.set(s);
                let mut out = Bits::EMPTY;
                let empty = self.empty();
                for c in cells.iter() {
                    if out.contains(c) {
                        continue;
                    }
                    let Some(owner) = st.owner(c) else { continue };
                    // None: the group reached a liberty, so it is not surrounded.
                    if let Some(group) = self.flood(c, &st.pieces[owner as usize], Some(&empty)) {
                        out = out.union(&group);
                    }
                }
                out
            }
            Set::Territory(p) => {
                let p = self.player(p);
                let mut out = Bits::EMPTY;
                if p == NOBODY {
                    return out;
                }
                let empty = self.empty();
                // Every region at once where floods are bit-parallel (all but the plain
                // interpreter): the empty cells reached from p's stones, less those reached
                // from the other player's (a region that touches both is nobody's).
                if let (Some(mine), Some(theirs)) =
                    (self.reached(p, &empty), self.reached(1 - p, &empty))
                {
                    return mine.minus(&theirs);
                }
                let mut seen = Bits::EMPTY;
                for c in empty.iter() {
                    if seen.contains(c) {
                        continue;
                    }
                    let region = self.flood(c, &empty, None).unwrap_or_default();
                    seen = seen.union(&region);
                    let border = self
                        .adjacent(&region, DirSet::ORTHOGONAL)
                        .inter(&self.occupied());
                    if !border.is_empty() && border.minus(&st.pieces[p as usize]).is_empty() {
                        out = out.union(&region);
                    }
                }
                out
            }
        }
    }
}

/// Whether a condition asks `blocked` (which costs move generation for both players).
pub fn uses_blocked(c: &Cond) -> bool {
    match c {
        Cond::Blocked => true,
        Cond::Not(a) => uses_blocked(a),
        Cond::And(a, b) | Cond::Or(a, b) => uses_blocked(a) || uses_blocked(b),
        Cond::Num(_, a, b) => num_uses_blocked(a) || num_uses_blocked(b),
        _ => false,
    }
}

fn num_uses_blocked(n: &Num) -> bool {
    match n {
        Num::If(c, a, b) => uses_blocked(c) || num_uses_blocked(a) || num_uses_blocked(b),
        Num::Add(a, b) | Num::Sub(a, b) | Num::Mul(a, b) | Num::Div(a, b) => {
            num_uses_blocked(a) || num_uses_blocked(b)
        }
        Num::Neg(a) => num_uses_blocked(a),
        _ => false,
    }
}

/// [`reached`] in the set type `F`, from and to the interpreter's sets.
fn reached_in<F: FloodSet>(steps: &[(F, i32)], stones: &Bits, empty: &Bits) -> Bits {
    reached(steps, F::of(stones), F::of(empty)).bits()
}
