//! The context an expression is evaluated in: a position, the player bound by `score p` or
//! `for each p`, and a candidate standing in for its variable; sets, lines and groups over
//! the runner's cell sets.

use super::*;

/// What an expression is evaluated against.
pub(crate) struct Ctx<'a, B: Board, const P: usize> {
    pub(crate) game: &'a Game,
    pub(crate) runner: &'a Runner<B, P>,
    pub(crate) state: &'a RunState<B, P>,
    /// A candidate being judged by a `where` clause: its variable and cell, which stand in for
    /// the variable's value in the state.
    pub(crate) probe: Option<(u8, usize)>,
    /// The player bound by `score p` or `for each p`.
    pub(crate) bound: u8,
    pub(crate) mover_can_move: Option<bool>,
    /// The last line whose sources were found in this context, and those sources: the
    /// options of one choice often ask the same (one the cells a line captures from, the
    /// other the cells it does not).
    pub(crate) sources_seen: std::cell::Cell<Option<(usize, B)>>,
    /// Shared by the contexts that score one position: each player's reachable empty cells,
    /// once flooded.
    pub(crate) reached: Option<&'a Reached<B, P>>,
}

/// Per player, the empty cells connected to their stones, once flooded.
pub(crate) type Reached<B, const P: usize> = std::cell::Cell<[Option<B>; P]>;

impl<B: Board, const P: usize> Ctx<'_, B, P> {
    #[inline]
    pub(crate) fn occupied(&self) -> B {
        self.state.occupied()
    }

    #[inline]
    pub(crate) fn class(&self, class: CellClass) -> B {
        let s = self.state;
        match class {
            CellClass::Friend => {
                self.kinds_as(&self.runner.slots.friend_kinds, s.pieces[s.mover as usize])
            }
            CellClass::Opponent => {
                self.kinds_as(&self.runner.slots.opponent_kinds, self.opponents())
            }
            CellClass::Piece => self.occupied(),
            CellClass::Empty => self.runner.playable & !self.occupied(),
            // Kinds run on the builds that keep a board per slot.
            CellClass::Kind(k) => s.pieces.get(k as usize).copied().unwrap_or(B::EMPTY),
        }
    }

    /// Every other player's pieces (not the kinds').
    #[inline(always)]
    pub(crate) fn opponents(&self) -> B {
        let s = self.state;
        if P == 2 {
            s.pieces[1 - s.mover as usize]
        } else {
            let players = &s.pieces[..self.runner.slots.players];
            let all = players.iter().fold(B::EMPTY, |m, &p| m | p);
            all & !s.pieces[s.mover as usize]
        }
    }

    /// `cells` with the pieces of the kinds in `slots`, which line patterns see as its class.
    #[inline(always)]
    fn kinds_as(&self, slots: &[usize], cells: B) -> B {
        if P == 2 {
            return cells;
        }
        slots.iter().fold(cells, |m, &k| m | self.state.pieces[k])
    }

    #[inline]
    pub(crate) fn player(&self, p: &Player) -> u8 {
        eval::player(self, p)
    }

    #[inline]
    pub(crate) fn cell(&self, c: &Cell) -> usize {
        match c {
            Cell::Const(c) => *c as usize,
            Cell::Reg(r) => match self.probe {
                Some((p, cell)) if p == *r => cell,
                _ => self.state.regs[*r as usize] as usize,
            },
            Cell::If(c, a, b) => self.chosen_cell(c, a, b),
        }
    }

    /// `if C then A else B` over cells, kept out of [`Ctx::cell`]'s common path.
    #[inline(never)]
    fn chosen_cell(&self, c: &Cond, a: &Cell, b: &Cell) -> usize {
        self.cell(if self.cond(c) { a } else { b })
    }

    #[inline]
    pub(crate) fn num(&self, n: &Num) -> f64 {
        eval::num(self, n)
    }

    #[inline]
    pub(crate) fn cond(&self, c: &Cond) -> bool {
        eval::cond(self, c)
    }

    #[inline]
    pub(crate) fn step(&self, s: B, d: usize) -> B {
        let flat = self.runner.flat_step(s, d);
        if self.runner.near.wraps {
            return self.runner.wrapped_step(s, d, flat);
        }
        flat
    }

    pub(crate) fn set(&self, s: &Set) -> B {
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
            Set::Leap(s, i) => stepped(&self.runner.near.leaps[*i], self.operand(s)),
            Set::Between(a, b) => {
                let g = &self.game.geometry;
                g.between(self.cell(a), self.cell(b))
                    .fold(B::EMPTY, |out, c| out | B::single(c))
            }
            Set::Ring(c, n) => self.ring(self.cell(c), *n),
            Set::Group(_) | Set::Liberties(_) | Set::Surrounded(_) | Set::Territory(_) => {
                self.flooded(s)
            }
            Set::If(c, a, b) => self.chosen_set(c, a, b),
            Set::Filter(s, reg, c) => self.filtered(s, *reg, c),
        }
    }

    /// `cells c in S where COND`, asked cell by cell (what the checker could not turn into set
    /// operations), kept out of [`Ctx::set`] as the groups are. The condition is asked of a
    /// copy of the state whose register `reg` holds each cell in turn; a `where` being judged
    /// around it has its candidate written into the copy too, since the copy's context has no
    /// probe of its own.
    #[inline(never)]
    fn filtered(&self, s: &Set, reg: u8, c: &Cond) -> B {
        let cells = self.set(s);
        let mut state = *self.state;
        if let Some((r, cell)) = self.probe {
            state.regs[r as usize] = cell as i32;
        }
        let mut out = B::EMPTY;
        for cell in cells.cells() {
            state.regs[reg as usize] = cell as i32;
            let each = Ctx {
                game: self.game,
                runner: self.runner,
                state: &state,
                probe: None,
                bound: self.bound,
                mover_can_move: self.mover_can_move,
                sources_seen: std::cell::Cell::new(None),
                reached: self.reached,
            };
            if each.cond(c) {
                out = out | B::single(cell);
            }
        }
        out
    }

    /// The ring of cells `n` steps from `cell`, from the runner's table (which holds every
    /// distance the checker recorded in `Game::ring_distances`).
    #[inline]
    fn ring(&self, cell: usize, n: u16) -> B {
        self.runner.near.rings[n as usize][cell]
    }

    /// `if C then A else B` over sets, kept out of [`Ctx::set`] as the group expressions are.
    #[inline(never)]
    fn chosen_set(&self, c: &Cond, a: &Set, b: &Set) -> B {
        self.set(if self.cond(c) { a } else { b })
    }

    /// The group expressions, apart: kept out of [`Ctx::set`], whose size decides how well
    /// the line and class arms that chain games live on are compiled.
    #[inline(never)]
    pub(crate) fn flooded(&self, s: &Set) -> B {
        match s {
            Set::Group(c) => self.group_at(self.cell(c)),
            Set::Liberties(a) => {
                let connect = self.game.geometry.connect;
                self.adjacent(self.operand(a), connect.0) & self.class(CellClass::Empty)
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
                    // other players': a region touching two players' is nobody's.
                    let others = (0..Runner::<B, P>::players(self.game) as usize)
                        .filter(|&q| q != p as usize)
                        .fold(B::EMPTY, |m, q| m | self.reached_by(q));
                    self.reached_by(p as usize) & !others
                }
            },
            _ => unreachable!("Ctx::set sends only group expressions here"),
        }
    }

    /// The empty cells connected to player `p`'s stones, from the shared cache if any.
    pub(crate) fn reached_by(&self, p: usize) -> B {
        let flood = || {
            let empty = self.class(CellClass::Empty);
            reached(&self.runner.near.orthogonal, self.state.pieces[p], empty)
        };
        let Some(cache) = self.reached else {
            return flood();
        };
        let mut known = cache.get();
        let cells = *known[p].get_or_insert_with(flood);
        cache.set(known);
        cells
    }

    #[inline]
    pub(crate) fn owner(&self, cell: usize) -> Option<usize> {
        self.state.owner(cell)
    }

    /// The part of `within` orthogonally connected to `start`; None once it touches `stop_at`.
    #[inline]
    pub(crate) fn flood(&self, start: usize, within: B, stop_at: B) -> Option<B> {
        flood_cell(
            &self.runner.near.orthogonal,
            &self.runner.near.orthogonal_around,
            start,
            within,
            stop_at,
        )
    }

    /// The stones of the group at `cell` (an empty cell: its empty region).
    pub(crate) fn group_at(&self, cell: usize) -> B {
        let within = match self.owner(cell) {
            Some(p) => self.state.pieces[p],
            None => self.class(CellClass::Empty),
        };
        self.flood(cell, within, B::EMPTY).unwrap_or(B::EMPTY)
    }

    /// An operand of a set operation: the plain sets (classes, regions) read here, without
    /// another call of [`Ctx::set`], which costs more than they do.
    #[inline(always)]
    pub(crate) fn operand(&self, s: &Set) -> B {
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
    pub(crate) fn pieces(&self, p: &Player) -> B {
        let st = self.state;
        let p = match p {
            Player::Mover => st.mover,
            // As a set, `opponent` is every other player's pieces.
            Player::Other => return self.opponents(),
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
    pub(crate) fn adjacent(&self, s: B, dirs: u8) -> B {
        if dirs == 0xff && self.runner.near.eight_by_parts {
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
    pub(crate) fn neighbours(&self, cell: usize, dirs: DirSet) -> B {
        let which = match dirs {
            DirSet::ALL => 0,
            DirSet::ORTHOGONAL => 1,
            DirSet::DIAGONAL => 2,
            _ => return self.adjacent(B::single(cell), dirs.0),
        };
        match self.runner.near.around.get(cell) {
            Some(around) => around[which],
            None => B::EMPTY,
        }
    }

    /// The cells next to `s` in all eight directions ([`Runner::eight_by_steps`]).
    #[inline(always)]
    pub(crate) fn eight_by_parts(&self, s: B) -> B {
        Runner::<B, P>::eight_by_steps(s, |s, d| self.step(s, d))
    }

    /// The cells a line captures from `from` (or, with `ends`, the cells closing each match).
    #[inline(always)]
    pub(crate) fn line_cells(&self, l: usize, from: usize, ends: bool) -> B {
        let line = &self.game.lines[l];
        let mut out = B::EMPTY;
        if let Some((run, end)) = line.simple_run {
            let (run, end) = (self.class(run), self.class(end));
            return self.runner.lines[l].captures(from, run, end, ends);
        }
        let compiled = &self.runner.lines[l];
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
            let start = B::single(from);
            if let Some(n) = self.match_elements(line, 0, (start, start), d, 0) {
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
    /// direction `d` is the next to match), for a match that began at `start` and may not meet
    /// it again (it can only on a wrapping board). Greedy first, so the longest match is found.
    pub(crate) fn match_elements(
        &self,
        line: &LinePattern,
        index: usize,
        (at, start): (B, B),
        d: usize,
        taken: usize,
    ) -> Option<usize> {
        if index == line.elements.len() {
            let next = self.step(at, d) & !start;
            return (!(next & self.class(line.end)).is_empty()).then_some(taken);
        }
        let (class, min, max) = line.elements[index];
        let class = self.class(class) & !start;
        // The cell reached after taking k = 0, 1, ... cells of this class: the first 32 kept,
        // any further (a run round a large wrapping board) found again by stepping back, as
        // neighbours are mutual.
        let mut after = [B::EMPTY; 32];
        after[0] = at;
        let mut k = 0usize;
        let mut cur = at;
        while (k as u32) < max {
            let next = self.step(cur, d);
            if (next & class).is_empty() {
                break;
            }
            cur = next;
            k += 1;
            if k < 32 {
                after[k] = cur;
            }
        }
        loop {
            if k as u32 >= min {
                let next = (cur, start);
                if let Some(r) = self.match_elements(line, index + 1, next, d, taken + k) {
                    return Some(r);
                }
            }
            if k == 0 {
                return None;
            }
            k -= 1;
            cur = if k < 32 {
                after[k]
            } else {
                self.step(cur, (d + 4) % 8)
            };
        }
    }

    /// Every cell from which `line` matches in some direction, by whole-set shifts.
    #[inline(always)]
    pub(crate) fn sources(&self, l: usize) -> B {
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
    pub(crate) fn find_sources(&self, l: usize) -> B {
        if let Some((run, end)) = self.game.lines[l].simple_run {
            let (run, end) = (self.class(run), self.class(end));
            return self.runner.lines[l].sources(run, end);
        }
        self.walked_sources(l)
    }

    /// [`Ctx::find_sources`] for a line of more than one run. Called, not inlined: its walks
    /// are many times the cost of a call, and inlined they were copied into several codegen
    /// units (0.29 MB).
    #[inline(never)]
    fn walked_sources(&self, l: usize) -> B {
        let line = &self.game.lines[l];
        let mut out = B::EMPTY;
        let compiled = &self.runner.lines[l];
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
        let g = &self.game.geometry;
        // On a wrapping board a run may go round a joined edge, up to the whole board.
        let size = if compiled.walks.is_some() {
            g.cells()
        } else {
            g.width.max(g.height)
        } as u32;
        for &d in &compiled.dirs {
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
        if compiled.walks.is_some() {
            // The shifts above may have come round to a match's own start, which a match
            // never meets again: keep the cells whose match holds when walked.
            return out
                .cells()
                .filter(|&c| !self.line_cells(l, c, false).is_empty())
                .fold(B::EMPTY, |kept, c| kept | B::single(c));
        }
        out
    }
}

/// What the evaluation of numbers, players and conditions (`eval`) reads of a position.
impl<B: Board, const P: usize> Ctx<'_, B, P> {
    pub(crate) fn mover(&self) -> u8 {
        self.state.mover
    }
    #[inline(always)]
    pub(crate) fn players(&self) -> u8 {
        Runner::<B, P>::players(self.game)
    }
    pub(crate) fn bound(&self) -> u8 {
        self.bound
    }
    pub(crate) fn holder(&self, token: u8) -> u8 {
        self.state.tokens[token as usize]
    }
    pub(crate) fn register(&self, r: u8) -> f64 {
        f64::from(self.state.regs[r as usize])
    }
    pub(crate) fn turn(&self) -> f64 {
        f64::from(self.state.turn)
    }
    pub(crate) fn passes(&self) -> f64 {
        f64::from(self.state.passes)
    }
    pub(crate) fn attribute(&self, index: usize, player: u8) -> f64 {
        self.game.attributes[index].1[player as usize]
    }
    pub(crate) fn any_line(&self, line: usize, from: usize) -> bool {
        !self.line_cells(line, from, false).is_empty()
    }
    pub(crate) fn breathes(&self, cell: usize) -> bool {
        let empty = self.class(CellClass::Empty);
        match self.owner(cell) {
            // An empty cell's "group" is its region; its liberties are empty neighbours.
            None => self
                .flood(cell, empty, B::EMPTY)
                .is_some_and(|r| r.count() > 1),
            Some(p) => self.flood(cell, self.state.pieces[p], empty).is_none(),
        }
    }
    pub(crate) fn blocked(&self) -> bool {
        let s = self.state;
        let mover = self
            .mover_can_move
            .unwrap_or_else(|| self.runner.can_start(self.game, s, s.mover));
        if P == 2 {
            return !mover && !self.runner.can_start(self.game, s, 1 - s.mover);
        }
        !mover
            && (0..self.game.player_count())
                .filter(|&p| p != s.mover)
                .all(|p| !self.runner.can_start(self.game, s, p))
    }
}
