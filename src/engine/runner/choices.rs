//! A choice's candidates: the options' values in the order steps are listed, which of them are
//! legal (with a trial where an option's body can refuse), and the one-step shortcuts that
//! judge a Go-like placement from the groups around it.

use super::positions::choose_at;
use super::run::{located, trials_without_end};
use super::*;

impl<B: Board, const P: usize> Runner<B, P> {
    /// For turns of one placement: runs the turn's opening tests from `pc` to a choice with a
    /// candidate: its place and the candidates, or None when the turn has none (a pass).
    #[inline(always)]
    pub(crate) fn first_choice(
        &self,
        game: &Game,
        s: &RunState<B, P>,
        mut pc: u32,
    ) -> Option<(u32, B)> {
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

    /// The legal values of both options of the choice `c` at `pc` (see [`Runner::option`]),
    /// asked in one context, so that what both ask (a line's sources) is found once.
    #[inline(always)]
    pub(crate) fn options(&self, game: &Game, s: &RunState<B, P>, pc: u32, c: &Choose) -> (B, B) {
        let mut ctx = self.ctx(game, s);
        let moves = self.option(&mut ctx, pc, c, 0);
        let more = self.later_options(&mut ctx, pc, c);
        (moves, more)
    }

    #[inline(always)]
    pub(crate) fn is_tried(&self, pc: u32) -> bool {
        self.any_tried && self.tried[pc as usize]
    }

    /// The values of a choice's options after the first, as [`At::Choice`] holds them.
    #[inline(always)]
    pub(crate) fn later_options(&self, ctx: &mut Ctx<'_, B, P>, pc: u32, c: &Choose) -> B {
        if c.alts.len() <= 2 {
            return self.option(ctx, pc, c, 1);
        }
        self.word_options(ctx, pc, c)
    }

    /// See [`Runner::later_options`]: three options or more, kept out of line.
    #[inline(never)]
    pub(crate) fn word_options(&self, ctx: &mut Ctx<'_, B, P>, pc: u32, c: &Choose) -> B {
        // Gathered in one word (a choice has far fewer than 64 options): a set of several
        // words costs an operation per word for each option.
        let mut more = 0u64;
        for alt in 1..c.alts.len() {
            let allowed = match &c.alts[alt] {
                Alt {
                    kind: AltKind::Word(_) | AltKind::Pass,
                    condition,
                    ..
                } => condition.as_ref().is_none_or(|cond| ctx.cond(cond)),
                _ => !self.option(ctx, pc, c, alt).is_empty(),
            };
            more |= u64::from(allowed) << (alt - 1);
        }
        B::low(more)
    }

    /// Whether the choice at `pc`, with candidates `moves` and `more`, has a legal step: a
    /// candidate of an option without a trial settles it (a Go-like turn always has its
    /// pass, whatever its placements would do); otherwise each candidate is tried until one
    /// passes.
    #[inline(always)]
    pub(crate) fn any_legal(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        moves: B,
        more: B,
    ) -> Result<bool, Fault> {
        let untried = &self.untried[pc as usize];
        if (untried.first && !moves.is_empty()) || !(more & untried.later).is_empty() {
            return Ok(true);
        }
        self.any_passes_trial(game, t, pc, moves, more)
    }

    #[inline(never)]
    pub(crate) fn any_passes_trial(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        moves: B,
        more: B,
    ) -> Result<bool, Fault> {
        let t = &self.deeper(game, t, pc)?;
        let mut found = false;
        self.each_legal(game, t, pc, moves, more, |_, _| {
            found = true;
            false
        })?;
        Ok(found)
    }

    /// `t` one level deeper in trials: the run that reached the choice at `pc` tries its
    /// options before going on, and a loop that leads from an option back to its choice, with
    /// nothing changed, would try them inside one another for ever.
    #[inline]
    pub(crate) fn deeper(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
    ) -> Result<RunState<B, P>, Fault> {
        if t.trials >= MAX_TRIAL_DEPTH {
            return Err(trials_without_end(game, pc));
        }
        let mut u = *t;
        u.trials += 1;
        Ok(u)
    }

    /// For an `auto` choice whose options must be tried: its one candidate that passes its
    /// trial, None when none does, and `Some(None)` when several do (a decision after all).
    #[inline(never)]
    pub(crate) fn sole_legal(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        moves: B,
        more: B,
    ) -> Result<Option<Option<(usize, usize)>>, Fault> {
        let t = &self.deeper(game, t, pc)?;
        let (mut found, mut several) = (None, false);
        self.each_legal(game, t, pc, moves, more, |alt, value| {
            several = found.is_some();
            found = Some((alt, value));
            !several
        })?;
        Ok(if several { Some(None) } else { found.map(Some) })
    }

    /// Calls `f` with each legal step (option and value) of the choice at `pc` in `t`, in the
    /// order steps are listed, until `f` says stop: a candidate of an option that needs no
    /// trial as it is, the others once their trial passes.
    pub(crate) fn each_legal(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        moves: B,
        more: B,
        mut f: impl FnMut(usize, usize) -> bool,
    ) -> Result<(), Fault> {
        let c = super::positions::choose_at(game, pc);
        let sure = self.surely_legal_first(t, pc, moves);
        for value in moves.cells() {
            if (sure.contains(value) || self.is_legal(game, t, pc, c, 0, value)?) && !f(0, value) {
                return Ok(());
            }
        }
        self.each_legal_later(game, t, pc, moves, more, f)
    }

    /// The legal values of the first option of the choice at `pc` in `t`, among `moves`:
    /// [`Runner::each_legal`]'s first steps as one set, each tried only where it must be.
    /// (Kept out of line: inside perft's loop it made multi-step turns' perft slower.)
    #[inline(never)]
    pub(crate) fn legal_first(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        moves: B,
    ) -> Result<B, Fault> {
        let c = super::positions::choose_at(game, pc);
        let sure = self.surely_legal_first(t, pc, moves);
        if let Some((dirs, true)) = self.forms[pc as usize].place_surround {
            let rest = moves & !sure;
            if rest.is_empty() {
                return Ok(sure);
            }
            return Ok(sure | self.breathing_enclosures(game, t, pc, rest, dirs)?);
        }
        let mut legal = sure;
        for value in (moves & !sure).cells() {
            if self.is_legal(game, t, pc, c, 0, value)? {
                legal = legal | B::single(value);
            }
        }
        Ok(legal)
    }

    /// Which of `cells`, empty cells with no empty neighbour, are legal placements of an
    /// enclosure that asks the placed stone for a liberty, judged by the groups around each,
    /// every group measured once for all the cells: a cell next to one of the mover's groups
    /// with two liberties or more is legal (the other liberty stays); a cell next to no such
    /// group and to no enemy group down to its last liberty is not (nothing is taken, so
    /// the stone's group has no liberty). Only a cell that may take a group is tried.
    #[inline(never)]
    pub(crate) fn breathing_enclosures(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        cells: B,
        dirs: DirSet,
    ) -> Result<B, Fault> {
        let m = t.mover as usize;
        let (mine, theirs) = (t.pieces[m], t.pieces[1 - m]);
        let empty = self.playable & !(mine | theirs);
        let around = &self.near.orthogonal_around;
        // Stones whose group is known to have two liberties or more, or only one.
        let (mut breathing, mut short) = (B::EMPTY, B::EMPTY);
        let mut measure = |stone: usize, stones: B| {
            if !(breathing | short).contains(stone) {
                let group = flood_cell(&self.near.orthogonal, around, stone, stones, B::EMPTY)
                    .unwrap_or(B::EMPTY);
                if (stepped(&self.near.orthogonal, group) & empty).count() >= 2 {
                    breathing = breathing | group;
                } else {
                    short = short | group;
                }
            }
            breathing.contains(stone)
        };
        let mut legal = B::EMPTY;
        for cell in cells.cells() {
            let near = around[cell];
            if (near & mine).cells().any(|stone| measure(stone, mine)) {
                legal = legal | B::single(cell);
                continue;
            }
            let may_take = (near & theirs).cells().any(|stone| !measure(stone, theirs));
            if may_take && self.enclosure(game, t, pc, cell, dirs, true)?.is_some() {
                legal = legal | B::single(cell);
            }
        }
        Ok(legal)
    }

    /// [`Runner::each_legal`] past the first option: the later options' legal steps.
    pub(crate) fn each_legal_later(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        moves: B,
        more: B,
        mut f: impl FnMut(usize, usize) -> bool,
    ) -> Result<(), Fault> {
        let c = super::positions::choose_at(game, pc);
        let first = moves.count() as usize;
        for i in first..self.candidate_count(game, t, pc, moves, more) {
            let (alt, value) = self.candidate(game, t, pc, moves, more, i);
            if self.is_legal(game, t, pc, c, alt, value)? && !f(alt, value) {
                break;
            }
        }
        Ok(())
    }

    /// The values among `moves` of the first option of the choice at `pc` that are legal
    /// without a trial: all of them for an option without one; for an enclosure that asks
    /// the placed stone for a liberty, the empty cells next to another empty cell (that
    /// cell stays a liberty whatever the placement takes). The others must still be tried.
    #[inline(always)]
    pub(crate) fn surely_legal_first(&self, t: &RunState<B, P>, pc: u32, moves: B) -> B {
        if self.untried[pc as usize].first {
            return moves;
        }
        match self.forms[pc as usize].place_surround {
            Some((_, true)) => {
                let empty = self.playable & !t.occupied();
                // No cell is its own neighbour, even round a board one cell across.
                moves & empty & stepped(&self.near.orthogonal, empty)
            }
            _ => B::EMPTY,
        }
    }

    /// How many candidates the choice at `pc` has in `t`, given its `moves` and `more`.
    #[inline(always)]
    pub(crate) fn candidate_count(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        moves: B,
        more: B,
    ) -> usize {
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
    pub(crate) fn candidate(
        &self,
        game: &Game,
        t: &RunState<B, P>,
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
    pub(crate) fn later_nth(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        more: B,
        k: usize,
    ) -> (usize, usize) {
        let c = choose_at(game, pc);
        if !self.broad[pc as usize] {
            return later(c, more.nth(k));
        }
        self.broad_nth(game, t, pc, c, more, k)
    }

    /// A later cell option's values, found again (kept out of the common path).
    #[inline(never)]
    pub(crate) fn broad_values(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        c: &Choose,
        alt: usize,
    ) -> B {
        match c.alts[alt].kind {
            AltKind::Cell { .. } => self.option(&mut self.ctx(game, t), pc, c, alt),
            _ => B::single(0),
        }
    }

    #[inline(never)]
    pub(crate) fn broad_count(&self, game: &Game, t: &RunState<B, P>, pc: u32, more: B) -> usize {
        let c = choose_at(game, pc);
        more.cells()
            .map(|v| self.broad_values(game, t, pc, c, v + 1).count() as usize)
            .sum()
    }

    #[inline(never)]
    pub(crate) fn broad_nth(
        &self,
        game: &Game,
        t: &RunState<B, P>,
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

    /// Whether value `value` of option `alt` of the choice `c` at `pc` is a legal step: an
    /// option without a trial is; an enclosure is judged by [`Runner::enclosure`], any other
    /// by [`Runner::passes_trial`].
    #[inline(always)]
    pub(crate) fn is_legal(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        c: &Choose,
        alt: usize,
        value: usize,
    ) -> Result<bool, Fault> {
        if !c.alts[alt].needs_trial {
            return Ok(true);
        }
        match (alt, self.forms[pc as usize].place_surround) {
            (0, Some((dirs, require))) => {
                Ok(self.enclosure(game, t, pc, value, dirs, require)?.is_some())
            }
            _ => self.passes_trial(game, t, c, alt, value),
        }
    }

    /// Whether value `value` of option `alt` passes its trial: its body, run on a copy, meets
    /// no failing `require` before the next choice or the turn's end.
    #[inline]
    pub(crate) fn passes_trial(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        c: &Choose,
        alt: usize,
        value: usize,
    ) -> Result<bool, Fault> {
        let mut u = *t;
        Self::bind(&mut u, c, alt, value);
        let flow = self
            .run(game, &mut u, c.alts[alt].body)
            .map_err(|e| located(game, e, &c.alts[alt].loc))?;
        Ok(!matches!(flow, Flow::Refused(_)))
    }

    /// The legal values of option `alt` of the choice `c` at `pc`: its cells whose `where`
    /// holds, or bit 0 for a word or pass option that is allowed. (Not `#[inline]`: too large
    /// to be inlined, it was copied into every codegen unit that calls it, 0.36 MB in all.)
    pub(crate) fn option(&self, ctx: &mut Ctx<'_, B, P>, pc: u32, c: &Choose, alt: usize) -> B {
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
    pub(crate) fn bind(t: &mut RunState<B, P>, c: &Choose, alt: usize, value: usize) {
        match &c.alts[alt].kind {
            AltKind::Cell { reg, .. } => t.regs[*reg as usize] = value as i32,
            AltKind::Word(_) => {}
            AltKind::Pass => t.passing = true,
        }
    }
}
