//! Running the turn program: the instructions up to the next choice, a step played, the end
//! checks and the next turn. (A choice's candidates and their trials: `choices`.)

use super::positions::choose_at;
use super::*;
use crate::engine::runner::direct::DirectTurns;

impl<B: Board, const P: usize> Runner<B, P> {
    /// Whether a step played and a turn begun are each one function that the loops call
    /// (playouts, random games, perft, a step applied, the trials of a draw), or inlined into
    /// each. Inlined, the state stays in registers across a step: up to half again as many
    /// playouts on boards of one or two words (Rolit, VECT-REVERSE, Gravity Othello). On boards
    /// of several words every set operation is a run of instructions per word, and six inlined
    /// copies per width were nearly two thirds of those widths' machine code (a third of the
    /// release build's) and 60% of its build time, for no measured gain (Reversi Go 13x13 and
    /// 19x19 run as fast either way; docs/PERFORMANCE.md, "Build time").
    pub(crate) const STEPS_OUT_OF_LINE: bool = B::CELLS > 128;

    /// Runs the turn program from `pc` until a choice with a legal option or the turn's end.
    /// (One function of more than 150 lines: its arms, one per instruction and each short,
    /// share the loop's step budget, `spend`, and the candidates a test found for the next
    /// choice, `found`.) Never inlined: each width has one copy of it, which every loop
    /// (playouts, random games, perft, a step applied) calls once per step.
    #[inline(never)]
    pub(crate) fn run(
        &self,
        game: &Game,
        t: &mut RunState<B, P>,
        mut pc: u32,
    ) -> Result<Flow<B>, Fault> {
        // Counted at jumps only: a run that never ends must take jumps without end, since
        // straight-line code runs off the program's end.
        let mut budget = STEP_BUDGET;
        let mut watch: Option<Box<Watch<B, P>>> = None;
        let mut spend = |pc: u32, t: &RunState<B, P>| {
            budget -= 1;
            if budget > STEP_BUDGET - WATCH_AFTER {
                return Ok(());
            }
            if budget == 0 || watch.get_or_insert_with(Watch::new).repeats(pc, t) {
                return Err(fault(game, LOOP_WITHOUT_END, innermost_loop(game, pc)));
            }
            Ok(())
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
                        spend(pc, t)?;
                        pc = c.otherwise;
                    } else if c.auto && self.is_tried(pc) {
                        // A forced choice counts the candidates that pass their trials.
                        spend(pc, t)?;
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
                        spend(pc, t)?;
                        let (alt, value) = self.candidate(game, t, pc, moves, more, 0);
                        Self::bind(t, c, alt, value);
                        pc = c.alts[alt].body;
                    } else if self.is_tried(pc) && !self.any_legal(game, t, pc, moves, more)? {
                        // Every candidate fails its trial: as good as none.
                        spend(pc, t)?;
                        pc = c.otherwise;
                    } else {
                        return Ok(Flow::Suspended { pc, moves, more });
                    }
                }
                Instr::Place(c, loc) => {
                    let cell = self.ctx(game, t).cell(c);
                    if t.occupied().contains(cell) {
                        return Err(Box::new(RuleError::place_on_piece(game, cell, loc)));
                    }
                    let m = t.mover as usize;
                    t.pieces[m] = t.pieces[m] | B::single(cell);
                    pc += 1;
                }
                Instr::PlaceKind(c, slot, loc) => {
                    let cell = self.ctx(game, t).cell(c);
                    if t.occupied().contains(cell) {
                        return Err(Box::new(RuleError::place_on_piece(game, cell, loc)));
                    }
                    let k = *slot as usize;
                    t.pieces[k] = t.pieces[k] | B::single(cell);
                    pc += 1;
                }
                Instr::Flip(set) => {
                    let flipped = self.ctx(game, t).set(set);
                    t.take(t.mover as usize, flipped);
                    pc += 1;
                }
                Instr::FlipTo(..) | Instr::Remove(_) | Instr::Swap => {
                    super::owners::change_owners(self, game, t, instr);
                    pc += 1;
                }
                Instr::Move(a, b, loc) => {
                    let ctx = self.ctx(game, t);
                    let (from, to) = (ctx.cell(a), ctx.cell(b));
                    let Some(owner) = t.owner(from) else {
                        return Err(Box::new(RuleError::move_from_empty(game, from, loc)));
                    };
                    if t.occupied().contains(to) || !self.playable.contains(to) {
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
                    spend(pc, t)?;
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
                    spend(pc, t)?;
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
                Instr::Add(add) => {
                    self.add_to_counter(game, t, add)?;
                    pc += 1;
                }
            }
        }
    }

    /// A turn's opening run for `player` from `s`: where it suspends (and the state there),
    /// or None when the player has no step.
    pub(crate) fn opening(&self, game: &Game, s: &RunState<B, P>) -> Result<Opening<B, P>, Fault> {
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
    pub(crate) fn opening_choice(&self, game: &Game, s: &RunState<B, P>) -> Option<(B, B)> {
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

    pub(crate) fn can_start(&self, game: &Game, s: &RunState<B, P>, player: u8) -> bool {
        let empty = self.playable & !s.occupied();
        if let Some(d) = self.direct.as_ref().filter(|d| (empty & d.gate).is_empty()) {
            // The turn is that one choice, so its candidates are all there is to find.
            let p = player as usize;
            let (mover, opponent) = (s.pieces[p], s.pieces[1 - p]);
            let moves = if d.wraps {
                DirectTurns(self).moves::<true>(d, mover, opponent)
            } else {
                DirectTurns(self).moves::<false>(d, mover, opponent)
            };
            return !moves.is_empty();
        }
        let mut u = *s;
        u.mover = player;
        if self.single_step {
            return self.first_choice(game, &u, 0).is_some();
        }
        u.steps = 0;
        u.passing = false;
        self.clear_turn_variables(&mut u);
        if self.opening_choice(game, &u).is_some() {
            return true;
        }
        // A rule error counts as no step (`blocked` asks this of both players).
        matches!(self.opening(game, &u), Ok(Some(_)))
    }

    copies::steps_out_of_line!(
        /// Checks the turn-boundary end conditions and finds the mover's first choice.
        pub fn begin_turn, begin_turn_out_of_line, begin_turn_here,
        (&self, game: &Game, s: &mut RunState<B, P>) -> Result<At<B>, Fault>
    );

    #[inline(always)]
    fn begin_turn_here(&self, game: &Game, s: &mut RunState<B, P>) -> Result<At<B>, Fault> {
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
    pub(crate) fn start_or_end(
        &self,
        game: &Game,
        s: &RunState<B, P>,
        first: Option<At<B>>,
    ) -> At<B> {
        if let (Some(choice), true) = (first, self.ends.ends_need_blocked) {
            return choice;
        }
        let hint = self.ends.ends_use_blocked.then_some(first.is_some());
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
        t: &mut RunState<B, P>,
        pc: u32,
        alt: usize,
        value: usize,
    ) -> Result<At<B>, Fault> {
        // A legal step is never refused; a refused one here is the caller's mistake.
        self.try_play(game, t, pc, alt, value)?
            .ok_or_else(|| fault(game, ILLEGAL_STEP, None))
    }

    /// [`Runner::play`] through the step's one shared copy per width, for callers that play
    /// one step per call of their own (a step applied, a search's node): the call costs them
    /// nothing measurable, and each inlined copy was up to 0.13 MB of machine code.
    #[inline]
    pub(crate) fn play_out_of_line(
        &self,
        game: &Game,
        t: &mut RunState<B, P>,
        pc: u32,
        alt: usize,
        value: usize,
    ) -> Result<At<B>, Fault> {
        self.try_play_out_of_line(game, t, pc, alt, value)?
            .ok_or_else(|| fault(game, ILLEGAL_STEP, None))
    }

    /// Whether [`Runner::try_play`] decides a refusal of option `alt` at `pc` before it changes
    /// the state (an enclosure is judged on the cells as they are), so that a trial needs no
    /// copy.
    #[inline(always)]
    pub(crate) fn refuses_unchanged(&self, pc: u32, alt: usize) -> bool {
        alt == 0 && self.forms[pc as usize].place_surround.is_some()
    }

    copies::steps_out_of_line!(
        /// As [`Runner::play`], for a step that may fail its trial: None when a `require`
        /// refuses it (`t` is then left part-way through the step, except as
        /// [`Runner::refuses_unchanged`] says).
        pub(crate) fn try_play, try_play_out_of_line, try_play_here,
        (&self, game: &Game, t: &mut RunState<B, P>, pc: u32, alt: usize, value: usize)
            -> Result<Option<At<B>>, Fault>
    );

    #[inline(always)]
    fn try_play_here(
        &self,
        game: &Game,
        t: &mut RunState<B, P>,
        pc: u32,
        alt: usize,
        value: usize,
    ) -> Result<Option<At<B>>, Fault> {
        if let (Some(l), 0) = (self.forms[pc as usize].place_flip, alt) {
            let before = self.read_by_step_ends(t);
            let m = t.mover as usize;
            if t.occupied().contains(value) {
                return Err(self.placed_on_piece(game, pc, value));
            }
            let flipped = self.ctx(game, t).line_cells(l, value, false);
            t.pieces[m] = t.pieces[m] | B::single(value);
            t.take(m, flipped);
            self.note_changes(t, before);
            return self.end_step(game, t, Flow::TurnEnded).map(Some);
        }
        if let (Some((dirs, require)), 0) = (self.forms[pc as usize].place_surround, alt) {
            let Some(cells) = self.enclosure(game, t, pc, value, dirs, require)? else {
                return Ok(None);
            };
            self.write_enclosure(t, cells);
            return self.end_step(game, t, Flow::TurnEnded).map(Some);
        }
        let c = choose_at(game, pc);
        let before = self.read_by_step_ends(t);
        Self::bind(t, c, alt, value);
        t.steps += 1;
        if t.steps > crate::engine::step::MAX_TURN_STEPS {
            return Err(fault(
                game,
                &crate::engine::step::turn_without_end(),
                Some(&c.alts[alt].loc),
            ));
        }
        let flow = self
            .run(game, t, c.alts[alt].body)
            .map_err(|e| located(game, e, &c.alts[alt].loc))?;
        if let Flow::Refused(_) = flow {
            return Ok(None);
        }
        self.note_changes(t, before);
        self.end_step(game, t, flow).map(Some)
    }

    /// The body of [`ChoiceShape::place_surround`] at the choice at `pc`, on `cell` in `t`: see
    /// [`Runner::enclosed`]; an error when `cell` is taken.
    #[inline(always)]
    pub(crate) fn enclosure(
        &self,
        game: &Game,
        t: &RunState<B, P>,
        pc: u32,
        cell: usize,
        dirs: DirSet,
        require: bool,
    ) -> Result<Option<(B, B)>, Fault> {
        if t.occupied().contains(cell) {
            return Err(self.placed_on_piece(game, pc, cell));
        }
        let near = self.ctx(game, t).neighbours(cell, dirs);
        Ok(self.enclosed(t, cell, near, require))
    }

    /// The body of [`ChoiceShape::place_surround`] on the empty cell `cell` in `t`: the mover places
    /// there and takes every opponent group touching `near` that has no liberty left. The
    /// mover's and the opponent's cells after it; None when `require` asks the placed stone's
    /// group for a liberty and it has none.
    #[inline(always)]
    pub(crate) fn enclosed(
        &self,
        t: &RunState<B, P>,
        cell: usize,
        near: B,
        require: bool,
    ) -> Option<(B, B)> {
        let m = t.mover as usize;
        let mine = t.pieces[m] | B::single(cell);
        let theirs = t.pieces[1 - m];
        let empty = self.playable & !(mine | theirs);
        let steps = &self.near.orthogonal;
        let around = &self.near.orthogonal_around;
        let mut taken = B::EMPTY;
        // A word at a time: the few neighbours of a cell on a board of several words are not
        // worth a search for the lowest word per neighbour.
        (near & theirs).each_cell(|c| {
            if !taken.contains(c) {
                if let Some(group) = flood_cell(steps, around, c, theirs, empty) {
                    taken = taken | group;
                }
            }
        });
        let (mine, theirs) = (mine | taken, theirs ^ taken);
        if require && flood_cell(steps, around, cell, mine, empty).is_some() {
            return None;
        }
        Some((mine, theirs))
    }

    /// Writes into `t` the mover's and the opponent's cells after an enclosure's step (see
    /// [`Runner::enclosed`]).
    #[inline(always)]
    pub(crate) fn write_enclosure(&self, t: &mut RunState<B, P>, (mine, theirs): (B, B)) {
        let before = self.read_by_step_ends(t);
        let m = t.mover as usize;
        (t.pieces[m], t.pieces[1 - m]) = (mine, theirs);
        self.note_changes(t, before);
    }

    /// The error of a body that starts by placing on the chosen cell (see [`ChoiceShape::place_flip`]
    /// and [`ChoiceShape::place_surround`]) when that cell is taken.
    #[cold]
    pub(crate) fn placed_on_piece(&self, game: &Game, pc: u32, cell: usize) -> Fault {
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
    pub(crate) fn read_by_step_ends(&self, t: &RunState<B, P>) -> Option<[B; P]> {
        self.ends.step_ends_read.map(|m| t.pieces.map(|p| p & m))
    }

    /// Keeps the after-step end checks known false only if nothing they read has changed since
    /// `before`.
    #[inline(always)]
    pub(crate) fn note_changes(&self, t: &mut RunState<B, P>, before: Option<[B; P]>) {
        t.step_ends_clear &= before.is_some() && before == self.read_by_step_ends(t);
    }

    /// After a step's body: the end checks, then the next choice or the next turn.
    #[inline(always)]
    pub(crate) fn end_step(
        &self,
        game: &Game,
        t: &mut RunState<B, P>,
        flow: Flow<B>,
    ) -> Result<At<B>, Fault> {
        if self.ends.ends_after_step && !t.step_ends_clear {
            if let Some(o) = self.step_ends(game, t) {
                return Ok(At::Over(o));
            }
            t.step_ends_clear = self.ends.step_ends_read.is_some();
        }
        match flow {
            Flow::Suspended { pc, moves, more } => Ok(At::Choice { pc, moves, more }),
            Flow::TurnEnded => self.next_turn(game, t, t.passing),
            Flow::Refused(_) => Err(fault(game, ILLEGAL_STEP, None)),
        }
    }

    /// The mover passes: `t` becomes the next turn's position.
    #[inline]
    pub fn pass(&self, game: &Game, t: &mut RunState<B, P>) -> Result<At<B>, Fault> {
        self.next_turn(game, t, true)
    }

    /// [`Runner::pass`] through the one shared copy of a turn begun (as
    /// [`Runner::play_out_of_line`]).
    #[inline]
    pub(crate) fn pass_out_of_line(
        &self,
        game: &Game,
        t: &mut RunState<B, P>,
    ) -> Result<At<B>, Fault> {
        self.hand_over(game, t, true);
        self.begin_turn_out_of_line(game, t)
    }

    #[inline(always)]
    pub(crate) fn next_turn(
        &self,
        game: &Game,
        t: &mut RunState<B, P>,
        passing: bool,
    ) -> Result<At<B>, Fault> {
        self.hand_over(game, t, passing);
        self.begin_turn(game, t)
    }

    /// The turn ends (by a pass where `passing`): the next player's turn, not yet opened.
    #[inline(always)]
    pub(crate) fn hand_over(&self, game: &Game, t: &mut RunState<B, P>, passing: bool) {
        t.passes = if passing { t.passes + 1 } else { 0 };
        t.mover = if P == 2 {
            1 - t.mover
        } else {
            game.next_player(t.mover)
        };
        t.turn += 1;
        t.steps = 0;
        t.passing = false;
        self.clear_turn_variables(t);
    }

    /// Zeroes the turn's variables, keeping the counters.
    #[inline(always)]
    pub(crate) fn clear_turn_variables(&self, t: &mut RunState<B, P>) {
        if self.counted() {
            self.clear_uncounted(t);
        } else {
            t.regs = [0; MAX_REGISTERS];
        }
    }

    /// The turn's variables cleared, the counters above them kept. Apart: left beside the
    /// common case, the two were once merged into a call to `memset` of a varying length,
    /// which cost Verto 9x9 a tenth of its playouts.
    #[inline(never)]
    pub(crate) fn clear_uncounted(&self, t: &mut RunState<B, P>) {
        t.regs[..self.turn_registers].fill(0);
    }

    /// `add COUNTER AMOUNT to PLAYER`, kept out of [`Runner::run`]'s loop, which games
    /// without counters run just as fast without it.
    #[inline(never)]
    pub(crate) fn add_to_counter(
        &self,
        game: &Game,
        t: &mut RunState<B, P>,
        add: &crate::ir::AddToCounter,
    ) -> Result<(), Fault> {
        let crate::ir::AddToCounter {
            counter,
            player,
            amount,
            loc,
        } = add;
        let ctx = self.ctx(game, t);
        let (p, amount) = (ctx.player(player), ctx.num(amount));
        if p == NOBODY {
            return Ok(());
        }
        let slot = counter_slot(*counter, p, Self::players(game));
        let sum = f64::from(t.regs[slot]) + amount;
        if amount.fract() != 0.0 || sum.abs() >= 1e9 {
            let name = &game.counters[*counter as usize].0;
            return Err(Box::new(RuleError::counter_value(game, name, sum, loc)));
        }
        t.regs[slot] = sum as i32;
        Ok(())
    }

    /// The after-step end checks at `t`, from the table when there is one.
    #[inline(always)]
    pub(crate) fn step_ends(&self, game: &Game, t: &RunState<B, P>) -> Option<Option<u8>> {
        let Some(table) = &self.ends.step_end_table else {
            return self.check_ends(game, t, Timing::AfterStep, None);
        };
        let slot = table.slot(t.mover, &t.pieces);
        match slot.load(Ordering::Relaxed) {
            0 => {
                let answer = self.check_ends(game, t, Timing::AfterStep, None);
                // Threads that race here store the same answer.
                slot.store(
                    crate::engine::plan::tables::StepEndTable::encode(answer),
                    Ordering::Relaxed,
                );
                answer
            }
            code => crate::engine::plan::tables::StepEndTable::decode(code),
        }
    }

    #[inline]
    pub(crate) fn check_ends(
        &self,
        game: &Game,
        s: &RunState<B, P>,
        timing: Timing,
        mover_can_move: Option<bool>,
    ) -> Option<Option<u8>> {
        eval::ended(&game.ends, timing, s.mover, Self::players(game), |bound| {
            Ctx {
                bound,
                mover_can_move,
                ..self.ctx(game, s)
            }
        })
    }

    /// The result of a finished game; `winner` overrides the comparison of scores. The
    /// contexts that score it share each player's flood of reachable empty cells.
    pub fn outcome(&self, game: &Game, s: &RunState<B, P>, winner: Option<u8>) -> Outcome {
        let reached = Reached::new([None; P]);
        let players = Self::players(game);
        eval::outcome(&game.score, &game.tiebreaks, winner, players, |bound| Ctx {
            bound,
            reached: Some(&reached),
            ..self.ctx(game, s)
        })
    }

    /// The tie-break margins for `p`, each weighted half as much as the one before (the first
    /// by a half): what a position is worth beyond its score, for evaluations.
    pub fn margins(&self, game: &Game, s: &RunState<B, P>, p: u8) -> f64 {
        let reached = Reached::new([None; P]);
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
            let values: Vec<f64> = (0..game.player_count()).map(|q| value(t, q)).collect();
            total += weight * crate::engine::state::margin(&values, p);
        }
        total
    }

    /// The engine's state for a runner position.
    pub fn export(&self, game: &Game, s: &RunState<B, P>, at: &At<B>) -> State {
        // The players' slots, then the kinds' (a constant on two-player builds).
        let slots = if P == 2 {
            2
        } else {
            game.slot_count() as usize
        };
        let mut pieces = Pieces::new(slots, game.geometry.cells());
        for (p, set) in s.pieces.iter().take(slots).enumerate() {
            pieces.set(p, &set.to_bits());
        }
        let mut t = State::new(pieces, s.mover);
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
}

/// An error without a place in the rules (a loop that never ends) placed at the option whose
/// body was running: the jumps that made the loop carry no place of their own.
#[cold]
pub(crate) fn located(game: &Game, mut e: Fault, loc: &crate::ir::Loc) -> Fault {
    if e.at.is_none() {
        e.at = RuleError::in_rules(game, String::new(), Some(loc)).at;
    }
    e
}

/// Out of line: trials are on the hot path of every game whose options have them.
#[cold]
#[inline(never)]
pub(crate) fn trials_without_end(game: &Game, pc: u32) -> Fault {
    let c = super::positions::choose_at(game, pc);
    fault(game, TRIALS_WITHOUT_END, c.alts.first().map(|a| &a.loc))
}

/// The innermost `while` or `repeat` holding instruction `pc`: where a run that took too many
/// jumps was going round.
#[cold]
fn innermost_loop(game: &Game, pc: u32) -> Option<&crate::ir::Loc> {
    game.loops
        .iter()
        .filter(|l| (l.start..l.end).contains(&pc))
        .min_by_key(|l| l.end - l.start)
        .map(|l| &l.loc)
}

/// A run without a choice is deterministic: once it is back where it has been, with the same
/// state, it goes round for ever. A run past a few thousand jumps is watched for that (Brent's
/// cycle finding: a snapshot renewed at doubling intervals), so a loop whose rounds change
/// nothing is reported at once however costly its rounds; the jump budget still ends a loop
/// whose rounds change something for ever. Boxed: only such runs pay for it.
struct Watch<B, const P: usize> {
    seen: Option<(u32, RunState<B, P>)>,
    lap: u32,
    interval: u32,
}

impl<B: Board, const P: usize> Watch<B, P> {
    fn new() -> Box<Self> {
        Box::new(Watch {
            seen: None,
            lap: 0,
            interval: 1,
        })
    }

    #[cold]
    #[inline(never)]
    fn repeats(&mut self, pc: u32, t: &RunState<B, P>) -> bool {
        if self.seen.is_some_and(|(p, s)| p == pc && s == *t) {
            return true;
        }
        self.lap += 1;
        if self.seen.is_none() || self.lap == self.interval {
            self.seen = Some((pc, *t));
            self.lap = 0;
            self.interval = self.interval.saturating_mul(2);
        }
        false
    }
}
