//! The runner's answers about one position at a time, as the players, the command line and
//! the tests ask them: the legal steps, the position after a step, a random step, the start of
//! a turn, the agreement program. Each reads an [`Engine`](crate::engine::Engine) [`State`],
//! runs on the runner's own state, and writes the result back; playouts, perft and the solver
//! stay on the runner's state throughout.

use super::{runner_view, At, Fault, Flow, RunState, Runner};
use crate::board::sets::Board;
use crate::engine::random_pick::{draw_tried, Swaps};
use crate::engine::rng::Rng;
use crate::engine::state::{Outcome, State, AT_FORCED_PASS, AT_GAME_OVER};
use crate::engine::step::{RuleError, Step, FORCED_PASS, ILLEGAL_STEP};
use crate::ir::{Choose, Cond, Game, Instr, Loc, Set, MAX_REGISTERS, MAX_TOKENS};

// The questions, each with the interpreter inlined, are built in a unit of their own (see
// `runner_view`).
runner_view!(pub Positions);

impl<B: Board, const P: usize> Positions<'_, B, P> {
    /// The position before a turn, advanced to the mover's first step (or the game's end, or
    /// a forced pass).
    pub fn begin(self, game: &Game, s: &State) -> Result<State, Fault> {
        let mut k = self.load(s).at_boundary(self.counted());
        let at = self.begin_turn_out_of_line(game, &mut k)?;
        Ok(self.export(game, &k, &at))
    }

    /// The legal steps at `s`, in the order of the options and their values; a candidate whose
    /// option must be tried is listed once its trial passes.
    pub fn steps(self, game: &Game, s: &State, out: &mut Vec<Step>) -> Result<(), Fault> {
        out.clear();
        let pc = match s.pc {
            AT_GAME_OVER => return Ok(()),
            AT_FORCED_PASS => {
                out.push(Step::PASS);
                return Ok(());
            }
            pc => pc,
        };
        let k = self.load(s);
        let (moves, more) = self.options(game, &k, pc, choose_at(game, pc));
        self.legal_first(game, &k, pc, moves)?
            .each_cell(|value| out.push(step(0, value)));
        self.each_legal_later(game, &k, pc, moves, more, |alt, value| {
            out.push(step(alt, value));
            true
        })
    }

    /// The position after `step`, a legal step at `s`.
    pub fn apply(self, game: &Game, s: &State, step: Step) -> Result<State, Fault> {
        let mut k = self.load(s);
        let at = if s.agreeing {
            self.agreement_play(game, &mut k, s.pc, step)?
        } else if step.alt == FORCED_PASS {
            self.pass_out_of_line(game, &mut k)?
        } else {
            let (alt, value) = (step.alt as usize, step.value as usize);
            self.play_out_of_line(game, &mut k, s.pc, alt, value)?
        };
        Ok(self.export(game, &k, &at))
    }

    /// A uniformly random legal step at `s`, drawn from `rng` exactly as a playout draws it
    /// (None when the game is over).
    pub fn random_step(self, game: &Game, s: &State, rng: &mut Rng) -> Result<Option<Step>, Fault> {
        let (k, at) = self.import(game, s);
        Ok(match at {
            At::Over(_) => None,
            At::Pass => {
                rng.below(1);
                Some(Step::PASS)
            }
            At::Choice { pc, moves, more } if self.is_tried(pc) => {
                let c = choose_at(game, pc);
                let len = self.candidate_count(game, &k, pc, moves, more);
                let nth = |i| {
                    let (alt, value) = self.candidate(game, &k, pc, moves, more, i);
                    step(alt, value)
                };
                draw_tried(len, nth, rng, &mut Swaps::default(), |st| {
                    let passes =
                        self.is_legal(game, &k, pc, c, st.alt as usize, st.value as usize)?;
                    Ok::<_, Fault>(passes.then_some(st))
                })?
            }
            At::Choice { pc, moves, more } => {
                let i = rng.below(self.candidate_count(game, &k, pc, moves, more));
                let (alt, value) = self.candidate(game, &k, pc, moves, more, i);
                Some(step(alt, value))
            }
        })
    }

    /// How many first-step candidates `player` would have if it were their turn at `s`, their
    /// bodies not tried (a `require` may still refuse some): a cheap mobility for evaluations.
    pub fn first_candidates(self, game: &Game, s: &State, player: u8) -> Result<usize, Fault> {
        let mut k = self.load(s).at_boundary(self.counted());
        k.mover = player;
        Ok(match self.opening(game, &k)? {
            Some((u, pc, moves, more)) => self.candidate_count(game, &u, pc, moves, more),
            None => 0,
        })
    }

    /// Whether `player` would have a first step if it were their turn at `s`.
    pub fn can_start_turn(self, game: &Game, s: &State, player: u8) -> bool {
        self.can_start(game, &self.load(s).at_boundary(self.counted()), player)
    }

    /// The agreement program begun at `entry` on a stopped game, for `proposer`.
    pub fn begin_agreement(
        self,
        game: &Game,
        s: &State,
        proposer: u8,
        entry: u32,
    ) -> Result<State, Fault> {
        let mut k = self.load(s).at_boundary(self.counted());
        k.mover = proposer;
        k.agreeing = true;
        let flow = self.run(game, &mut k, entry)?;
        Ok(self.export(game, &k, &self.agreement_step(flow)))
    }

    /// Where an agreement stands after a step: at its next choice, or over, the position
    /// scored as it is.
    fn agreement_step(self, flow: Flow<B>) -> At<B> {
        match flow {
            Flow::Suspended { pc, moves, more } => At::Choice { pc, moves, more },
            _ => At::Over(None),
        }
    }

    /// A step of the agreement program: its body runs to the next choice or the program's
    /// end, with no end checks and no next turn. Kept apart from [`Runner::play`], whose
    /// every step of play would otherwise ask whether it is an agreement's.
    fn agreement_play(
        self,
        game: &Game,
        k: &mut RunState<B, P>,
        pc: u32,
        step: Step,
    ) -> Result<At<B>, Fault> {
        let c = choose_at(game, pc);
        let alt = step.alt as usize;
        Runner::<B, P>::bind(k, c, alt, step.value as usize);
        k.steps += 1;
        match self.run(game, k, c.alts[alt].body)? {
            Flow::Refused(_) => Err(Box::new(RuleError::in_rules(
                game,
                ILLEGAL_STEP.into(),
                None,
            ))),
            flow => Ok(self.agreement_step(flow)),
        }
    }

    /// Play resumes at `s` (the players did not agree): the same position, no passes counted,
    /// `mover` to move; no end is checked.
    pub fn resume(self, game: &Game, s: &State, mover: u8) -> Result<State, Fault> {
        let mut k = self.load(s).at_boundary(self.counted());
        k.mover = mover;
        k.passes = 0;
        let at = match self.opening(game, &k)? {
            Some((u, pc, moves, more)) => {
                k = u;
                At::Choice { pc, moves, more }
            }
            None => At::Pass,
        };
        Ok(self.export(game, &k, &at))
    }

    /// The result of the position at `s`; `winner` overrides the comparison of scores.
    pub fn outcome_at(self, game: &Game, s: &State, winner: Option<u8>) -> Outcome {
        self.outcome(game, &self.load(s), winner)
    }

    /// The tie-break margins for `p` at `s`, each weighted half as much as the one before.
    pub fn tiebreak_margin(self, game: &Game, s: &State, p: u8) -> f64 {
        self.margins(game, &self.load(s), p)
    }

    /// The cells of `set` at `s` (for `explain`, which shows a candidate set as written).
    pub fn set_at(self, game: &Game, s: &State, set: &Set) -> crate::board::bits::Bits {
        self.ctx(game, &self.load(s)).set(set).to_bits()
    }

    /// The first end condition (by its index in the rules) that holds at `s`, whatever its
    /// timing: for a finished game, the one that ended it.
    pub fn end_reached(self, game: &Game, s: &State) -> Option<usize> {
        let k = self.load(s);
        let players = Runner::<B, P>::players(game);
        game.ends.iter().position(|end| {
            super::eval::ended(
                std::slice::from_ref(end),
                end.timing,
                k.mover,
                players,
                |bound| super::context::Ctx {
                    bound,
                    ..self.ctx(game, &k)
                },
            )
            .is_some()
        })
    }

    /// Whether `cond` holds at `s`, with `probe` standing for a variable's value.
    pub fn cond_at(self, game: &Game, s: &State, cond: &Cond, probe: Option<(u8, usize)>) -> bool {
        let k = self.load(s);
        let mut ctx = self.ctx(game, &k);
        ctx.probe = probe;
        ctx.cond(cond)
    }

    /// The `require` that refuses value `value` of option `alt` at `s`, if one does.
    pub fn refusal(
        self,
        game: &Game,
        s: &State,
        alt: usize,
        value: usize,
    ) -> Result<Option<Loc>, Fault> {
        let mut k = self.load(s);
        let c = choose_at(game, s.pc);
        Runner::<B, P>::bind(&mut k, c, alt, value);
        Ok(match self.run(game, &mut k, c.alts[alt].body)? {
            Flow::Refused(loc) => Some(loc),
            _ => None,
        })
    }
}

fn step(alt: usize, value: usize) -> Step {
    Step {
        alt: alt as u16,
        value: value as u16,
    }
}

/// The choice at `pc`, where a suspended state's program counter always points.
#[inline]
pub(crate) fn choose_at(game: &Game, pc: u32) -> &Choose {
    match &game.program[pc as usize] {
        Instr::Choose(c) => c,
        _ => unreachable!("states are only suspended at choices"),
    }
}

impl From<Fault> for RuleError {
    fn from(f: Fault) -> Self {
        *f
    }
}

/// Everything that decides a position's future inside a turn, for perft's memo and the
/// solver's whole turns: the state without its step count and cached flags, and the choice
/// it stands at.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct StepKey<B, const P: usize = 2> {
    pieces: [B; P],
    regs: [i32; MAX_REGISTERS],
    tokens: [u8; MAX_TOKENS],
    mover: u8,
    turn: u32,
    passes: u32,
    passing: bool,
    pc: u32,
}

impl<B: Board, const P: usize> StepKey<B, P> {
    pub(crate) fn of(s: &RunState<B, P>, pc: u32) -> Self {
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
