//! [`Engine`], the runner's face for one position at a time: the legal steps, the position
//! after a step, whole turns, and the doors into the runner's playouts, perft and solver.

use super::playing::random_games::RandomGames;
use super::runner::positions::Positions;
use super::runner::{each_width, AnyRunner};
use super::state::{Outcome, State, AT_FORCED_PASS, AT_GAME_OVER};
use super::step::{RuleError, Step, FORCED_PASS};
use super::{negamax, rng};
use super::{playing, runner, solving};
use crate::board::bits::Bits;
use crate::board::pieces::Pieces;
use crate::ir::{AltKind, Choose, Game, Instr};

/// A game ready to play.
pub struct Engine {
    pub game: Game,
    /// The runner, sized for the board.
    pub(super) runner: AnyRunner,
}

impl Engine {
    pub fn new(game: Game) -> Engine {
        let runner = AnyRunner::new(&game, false);
        Engine { game, runner }
    }

    /// The same engine without any fast path: every `where` clause asked cell by cell as
    /// written and no shape of turn recognised. The reference the fast paths are tested
    /// against; it plays the same games, only slower.
    pub fn plain(mut self) -> Engine {
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
        self.runner = AnyRunner::new(&self.game, true);
        self
    }

    /// Per player, the cells of its pieces at `s` that no placement can ever capture again,
    /// as the solver counts them to cut its search short; None for games where it does not.
    pub fn stable_pieces(&self, s: &State) -> Option<Vec<Vec<usize>>> {
        self.runner.stable_pieces(&self.game, s)
    }

    /// The value of `s` for its mover with best play, searched on the runner a whole turn at
    /// a time, as `question` asks it (None when counters, tokens or an agreement outlast a
    /// turn, or the board is too large for the search's table).
    pub fn runner_value(
        &self,
        s: &State,
        table: &mut solving::search::Table,
        question: negamax::Question,
    ) -> Result<Option<f64>, RuleError> {
        self.runner
            .value(&self.game, s, table, question)
            .transpose()
    }

    /// The cells `s`'s mover may place on, each with its rank in the order the runner's solver
    /// tries them (lower first; see `AnyRunner::ranks`): the table's best move first where
    /// one thread filled `table`, then by the judge a solve learnt into it. None where that
    /// solver cannot take `s`.
    pub fn runner_ranks(
        &self,
        s: &State,
        table: &solving::search::Table,
    ) -> Result<Option<Vec<(u64, usize)>>, RuleError> {
        self.runner.ranks(&self.game, s, table).transpose()
    }

    /// How many cells the runner's sets hold: the board's cells rounded up to the width the
    /// runner was built for (64, 128, 192, 384, or the largest board's).
    pub fn runner_set_cells(&self) -> usize {
        self.runner.set_cells()
    }

    /// The bytes of the runner's own state: its playouts copy that, not the engine's
    /// [`State`].
    pub fn runner_state_bytes(&self) -> usize {
        self.runner.state_bytes()
    }

    /// Whether every turn is one placement and the game has two players and no kinds of
    /// piece, so that the runner's solver runs (it is negamax between two sides, on the
    /// builds of two slots).
    pub fn runner_searches(&self) -> bool {
        self.runner.single_step() && self.game.slot_count() == 2
    }

    /// Whether playouts and perft run as a loop over the boards alone (every turn one
    /// outflanking placement and nothing else; see `runner::Direct`).
    pub fn runner_is_direct(&self) -> bool {
        self.runner.direct()
    }

    /// Whether a placement that takes the opponent's groups left without a liberty (Go's
    /// capture, `place c  flip surrounded(...)`) runs as one step of the runner instead of its
    /// instructions.
    pub fn runner_encloses(&self) -> bool {
        self.runner.encloses()
    }

    /// Whether playouts run the turn's placements by enclosure as a loop that opens each next
    /// turn without running the program (a turn of a placement among words, as in Go).
    pub fn runner_loops_enclosures(&self) -> bool {
        self.runner.enclosing()
    }

    /// The name of the runner's way through the turns, as `bench` and `info` print it: `direct`,
    /// `enclosure loop`, `enclosure` or `general` (the turn program run as written).
    pub fn runner_path(&self) -> &'static str {
        if self.runner_is_direct() {
            "direct"
        } else if self.runner_loops_enclosures() {
            "enclosure loop"
        } else if self.runner_encloses() {
            "enclosure"
        } else {
            "general"
        }
    }

    /// Uniform random steps from `s` until the game ends or `limit` steps are played: the
    /// position reached and the number of steps. Draws from `rng` as [`Engine::random_step`]
    /// does, one draw per step.
    pub fn random_playout(
        &self,
        s: &State,
        rng: &mut rng::Rng,
        limit: u64,
    ) -> Result<(State, u64), RuleError> {
        self.runner.playout(&self.game, s, rng, limit)
    }

    /// A game from `s` between random players, each drawing from its own generator (`rngs[p]`
    /// for player `p`) as
    /// `agents::Random` does, until it ends or `limit` steps are played: the final position
    /// and what was counted on the way.
    pub fn random_game(
        &self,
        s: &State,
        rngs: &mut [rng::Rng],
        limit: u64,
    ) -> Result<(State, playing::random_games::Tally), RuleError> {
        let mut legal = Vec::new();
        let game = &self.game;
        Ok(
            each_width!(&self.runner, k => RandomGames(k).random_game(game, s, rngs, limit, &mut legal))?,
        )
    }

    /// A uniformly random legal step (None when the game is over).
    ///
    /// Options that must be tried (their body can fail a `require`) are not all tried first:
    /// candidates are drawn without replacement until one passes. The first legal one drawn is
    /// uniform among the legal ones, and a turn where most candidates are legal (a Go-like
    /// placement) costs one trial instead of one per cell. Without such options: one draw
    /// from the full list.
    pub fn random_step(&self, s: &State, rng: &mut rng::Rng) -> Result<Option<Step>, RuleError> {
        Ok(each_width!(&self.runner, k => Positions(k).random_step(&self.game, s, rng))?)
    }

    /// The position before the first turn, advanced to the first step.
    pub fn start(&self) -> Result<State, RuleError> {
        let slots = self.game.slot_count() as usize;
        self.begin(&self.fresh(&self.game.setup[..slots], self.game.first))
    }

    /// A position before the first turn: these pieces (one set per slot), this mover,
    /// every counter at its starting value.
    pub(crate) fn fresh(&self, pieces: &[Bits], mover: u8) -> State {
        let pieces = Pieces::from_sets(pieces, self.game.geometry.cells());
        let mut s = State::new(pieces, mover);
        let players = self.game.player_count();
        for (i, (_, start)) in self.game.counters.iter().enumerate() {
            for p in 0..players {
                s.regs[crate::ir::counter_slot(i as u8, p, players)] = *start;
            }
        }
        s
    }

    /// A position before a turn, advanced to the mover's first step (or the game's end, or a
    /// forced pass).
    pub(super) fn begin(&self, s: &State) -> Result<State, RuleError> {
        Ok(each_width!(&self.runner, k => Positions(k).begin(&self.game, s))?)
    }

    pub(super) fn choose_at(&self, pc: u32) -> &Choose {
        runner::positions::choose_at(&self.game, pc)
    }

    /// The legal steps of the player to move, in a fixed order. Empty when the game is over.
    pub fn steps(&self, s: &State, out: &mut Vec<Step>) -> Result<(), RuleError> {
        Ok(each_width!(&self.runner, k => Positions(k).steps(&self.game, s, out))?)
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

    /// Plays one legal step. Steps not produced by [`Engine::steps`] for this state are a bug
    /// of the caller (the notation parser checks user input against the legal list).
    pub fn apply(&self, s: &State, step: Step) -> Result<State, RuleError> {
        Ok(each_width!(&self.runner, k => Positions(k).apply(&self.game, s, step))?)
    }

    /// How many first-step candidates `player` would have if it were their turn now, their
    /// bodies not tried (a `require` may still refuse some): a cheap mobility for evaluations.
    pub fn first_candidates(&self, s: &State, player: u8) -> Result<usize, RuleError> {
        Ok(each_width!(&self.runner, k => Positions(k).first_candidates(&self.game, s, player))?)
    }

    /// Starts the rules' agreement program on a stopped game, for `proposer`. None when the
    /// rules have no agreement. The result is finished (over) once the program ends.
    pub fn begin_agreement(&self, s: &State, proposer: u8) -> Result<Option<State>, RuleError> {
        let Some(entry) = self.game.agreement else {
            return Ok(None);
        };
        let t = each_width!(&self.runner, k => Positions(k).begin_agreement(&self.game, s, proposer, entry))?;
        Ok(Some(t))
    }

    /// Play resumes on a stopped game (the players did not agree): the same position, no
    /// passes counted, the same player to move.
    pub fn resume(&self, s: &State, mover: u8) -> Result<State, RuleError> {
        Ok(each_width!(&self.runner, k => Positions(k).resume(&self.game, s, mover))?)
    }

    /// Whether `player` would have a first step if it were their turn now.
    pub fn can_start_turn(&self, s: &State, player: u8) -> bool {
        each_width!(&self.runner, k => Positions(k).can_start_turn(&self.game, s, player))
    }

    /// The cells of `set` at `s`.
    pub fn set_value(&self, s: &State, set: &crate::ir::Set) -> Bits {
        each_width!(&self.runner, k => Positions(k).set_at(&self.game, s, set))
    }

    /// Whether `cond` holds at `s`, with `probe` (a variable and a cell) standing for the
    /// variable's value.
    pub fn cond_value(
        &self,
        s: &State,
        cond: &crate::ir::Cond,
        probe: Option<(u8, usize)>,
    ) -> bool {
        each_width!(&self.runner, k => Positions(k).cond_at(&self.game, s, cond, probe))
    }

    /// Which `end` rule a finished game `s` reached, as it is written (the first in the rules
    /// that holds in the final position); none for a position no end rule holds in (a game that
    /// ended by resignation or agreement, or one not finished).
    pub fn end_reached(&self, s: &State) -> Option<String> {
        let i = each_width!(&self.runner, k => Positions(k).end_reached(&self.game, s))?;
        let loc = &self.game.ends[i].loc;
        let text = self
            .game
            .files
            .get(loc.file as usize)
            .and_then(|f| f.text.get(loc.span.start..loc.span.end))
            .unwrap_or("end");
        Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// Scores the position; `winner` overrides the comparison of scores.
    pub fn outcome(&self, s: &State, winner: Option<u8>) -> Outcome {
        each_width!(&self.runner, k => Positions(k).outcome_at(&self.game, s, winner))
    }

    /// The tie-break margins for `p`, each weighted half as much as the one before (the first
    /// by a half): what a position is worth beyond its score, for evaluations.
    pub fn tiebreak_margin(&self, s: &State, p: u8) -> f64 {
        each_width!(&self.runner, k => Positions(k).tiebreak_margin(&self.game, s, p))
    }
}
