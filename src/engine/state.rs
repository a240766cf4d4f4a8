//! A game state: fixed-size and `Copy`, so cloning it is a plain memory copy.

use crate::board::pieces::Pieces;
use crate::ir::{Game, MAX_PLAYERS, MAX_REGISTERS, MAX_TOKENS, NOBODY};

/// Where the state is suspended.
pub const AT_FORCED_PASS: u32 = u32::MAX;
pub const AT_GAME_OVER: u32 = u32::MAX - 1;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The winning player, or `NOBODY` for a draw.
    pub winner: u8,
    /// The game's number of players.
    pub players: u8,
    /// Per player (the slots past the game's players are 0); see [`Outcome::scores`].
    pub by_player: [f64; MAX_PLAYERS],
}

/// What a win adds to the margin in [`Outcome::value_for`]: more than any score can differ by.
pub const WIN_VALUE: f64 = 1e6;

/// A value of [`Outcome::value_for`] read back: a win (`Greater`), a draw (`Equal`) or a
/// loss (`Less`) for the player it was worked out for, and that player's margin.
pub fn read_value(v: f64) -> (std::cmp::Ordering, f64) {
    use std::cmp::Ordering;
    if v >= WIN_VALUE / 2.0 {
        (Ordering::Greater, v - WIN_VALUE)
    } else if v <= -WIN_VALUE / 2.0 {
        (Ordering::Less, v + WIN_VALUE)
    } else {
        (Ordering::Equal, v)
    }
}

impl Outcome {
    /// What the result is worth to `p` in a search: a win or loss far beyond any score
    /// margin, so a win is always preferred, and the margin among equal results.
    pub fn value_for(&self, p: u8) -> f64 {
        let margin = self.margin(p);
        match self.winner {
            w if w == p => WIN_VALUE + margin,
            NOBODY => margin,
            _ => -WIN_VALUE + margin,
        }
    }

    /// The players' scores, in the order of the players.
    pub fn scores(&self) -> &[f64] {
        &self.by_player[..self.players as usize]
    }

    /// `p`'s score less the best of the others' (with two players, less the other's).
    pub fn margin(&self, p: u8) -> f64 {
        margin(self.scores(), p)
    }
}

/// `scores[p]` less the highest of the other scores.
pub fn margin(scores: &[f64], p: u8) -> f64 {
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(q, _)| q != p as usize)
        .map(|(_, &v)| v)
        .fold(f64::NEG_INFINITY, f64::max);
    scores[p as usize] - best_other
}

#[derive(Clone, Copy, Debug)]
pub struct State {
    /// Each player's pieces (see [`Pieces::of`]).
    pub pieces: Pieces,
    /// Turn variables (cells and whole numbers).
    pub regs: [i32; MAX_REGISTERS],
    pub tokens: [u8; MAX_TOKENS],
    /// The player whose turn it is.
    pub mover: u8,
    /// 1 for the first turn of the game.
    pub turn: u32,
    /// Passes in succession before this turn.
    pub passes: u32,
    /// The choice the mover is at (an instruction index), `AT_FORCED_PASS` or `AT_GAME_OVER`.
    pub pc: u32,
    /// Steps already taken in this turn.
    pub steps: u32,
    /// The turn so far is a pass.
    pub passing: bool,
    /// Running the agreement program on a stopped game, not playing a turn.
    pub agreeing: bool,
    pub outcome: Option<Outcome>,
}

impl State {
    pub fn new(pieces: Pieces, mover: u8) -> State {
        State {
            pieces,
            regs: [0; MAX_REGISTERS],
            tokens: [NOBODY; MAX_TOKENS],
            mover,
            turn: 1,
            passes: 0,
            pc: 0,
            steps: 0,
            passing: false,
            agreeing: false,
            outcome: None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Cell contents: the player whose piece is there, `None` for empty.
    #[inline]
    pub fn owner(&self, cell: usize) -> Option<u8> {
        self.pieces.owner(cell)
    }
}

/// Everything that decides a state's future, for memo tables: a state without its outcome and
/// step count (the step count only changes how the next step is written).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct StateKey {
    pieces: Pieces,
    regs: [i32; MAX_REGISTERS],
    standing: Standing,
}

/// A [`StateKey`] for the games whose states use few of its words: at most
/// [`SmallStateKey::WORDS`] words of pieces, [`SmallStateKey::REGISTERS`] turn variables and
/// no counters ([`SmallStateKey::fits`]). The same identity in a third of the bytes: the
/// step-by-step search's table, keyed by it, waits on memory for each of its slots.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SmallStateKey {
    words: [u64; SmallStateKey::WORDS],
    regs: [i32; SmallStateKey::REGISTERS],
    standing: Standing,
}

/// What a key holds besides the pieces and the registers: where the game and the turn stand.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
struct Standing {
    tokens: [u8; MAX_TOKENS],
    mover: u8,
    turn: u32,
    passes: u32,
    pc: u32,
    passing: bool,
    agreeing: bool,
}

impl SmallStateKey {
    pub const WORDS: usize = 4;
    pub const REGISTERS: usize = 8;

    /// Whether every state of `game` is told apart by its small key: the words of pieces
    /// past [`SmallStateKey::WORDS`] and the registers past [`SmallStateKey::REGISTERS`] stay
    /// zero (counters live at the top of the registers).
    pub fn fits(game: &Game) -> bool {
        let words = Pieces::width(game.geometry.cells()) * usize::from(game.slot_count());
        words <= Self::WORDS && game.registers <= Self::REGISTERS && game.counters.is_empty()
    }

    /// The small key of `s`, a state of a game that [`SmallStateKey::fits`].
    pub fn of(s: &State) -> SmallStateKey {
        let used = s.pieces.words();
        debug_assert!(used.len() <= Self::WORDS, "the pieces fit a small key");
        debug_assert!(
            s.regs[Self::REGISTERS..].iter().all(|&r| r == 0),
            "the registers fit a small key"
        );
        let mut words = [0; Self::WORDS];
        words[..used.len()].copy_from_slice(used);
        SmallStateKey {
            words,
            regs: std::array::from_fn(|i| s.regs[i]),
            standing: s.standing(),
        }
    }
}

impl State {
    pub fn key(&self) -> StateKey {
        StateKey {
            pieces: self.pieces,
            regs: self.regs,
            standing: self.standing(),
        }
    }

    fn standing(&self) -> Standing {
        Standing {
            tokens: self.tokens,
            mover: self.mover,
            turn: self.turn,
            passes: self.passes,
            pc: self.pc,
            passing: self.passing,
            agreeing: self.agreeing,
        }
    }
}
