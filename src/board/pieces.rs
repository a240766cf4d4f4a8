//! Every player's pieces in one fixed block of words: each set takes only as many words as
//! the board needs. A game state holds one, so that a state of a two-player game on a small
//! board stays small (it is copied at every step a player or a search takes), while a state
//! of eight players keeps room for all of them. The sets are kept in slots: the players',
//! then those of the kinds of piece that belong to no player (see `ir::Game::kinds`).

use super::bits::{Bits, WORDS};

/// The words all players' sets share: two players on the largest board (2 x 11), four on
/// 19 x 19 (4 x 6), eight on 13 x 13 (8 x 3).
pub const PIECE_WORDS: usize = 24;

/// The pieces of `players` slots on a board of `cells` cells: slot `p`'s set is the `width`
/// words from word `p * width`. The words after the slots are always zero, so equality and
/// hashing read only the slots' words ([`Pieces::words`]): the search's table compares and
/// hashes a key at every position, and a small board's pieces are a few of the 24 words.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pieces {
    words: [u64; PIECE_WORDS],
    width: u8,
    players: u8,
}

impl PartialEq for Pieces {
    fn eq(&self, other: &Pieces) -> bool {
        (self.width, self.players) == (other.width, other.players) && self.words() == other.words()
    }
}

impl Eq for Pieces {}

impl std::hash::Hash for Pieces {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.width, self.players).hash(state);
        self.words().hash(state);
    }
}

impl Pieces {
    /// The words of the slots (those after them are zero).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words[..usize::from(self.width) * usize::from(self.players)]
    }

    /// The words one player's set of a board of `cells` cells takes.
    pub fn width(cells: usize) -> usize {
        cells.div_ceil(64).max(1)
    }

    /// Whether `players` players' sets of a board of `cells` cells fit.
    pub fn fits(players: usize, cells: usize) -> bool {
        players * Self::width(cells) <= PIECE_WORDS && cells <= WORDS * 64
    }

    /// The most cells a board may have for `players` players' pieces to fit.
    pub fn most_cells(players: usize) -> usize {
        (PIECE_WORDS / players.max(1)).min(WORDS) * 64
    }

    /// No pieces yet, in `players` slots. The checker refuses games whose pieces do not fit
    /// ([`Pieces::fits`]).
    pub fn new(players: usize, cells: usize) -> Pieces {
        assert!(
            Self::fits(players, cells),
            "{players} players' pieces on {cells} cells"
        );
        Pieces {
            words: [0; PIECE_WORDS],
            width: Self::width(cells) as u8,
            players: players as u8,
        }
    }

    /// These sets, one per player, on a board of `cells` cells.
    pub fn from_sets(sets: &[Bits], cells: usize) -> Pieces {
        let mut out = Pieces::new(sets.len(), cells);
        for (p, set) in sets.iter().enumerate() {
            out.set(p, set);
        }
        out
    }

    fn players(&self) -> usize {
        self.players as usize
    }

    /// Player `p`'s pieces.
    #[inline]
    pub fn of(&self, p: usize) -> Bits {
        let w = self.width as usize;
        let mut out = Bits::EMPTY;
        if p < self.players() {
            out.0[..w].copy_from_slice(&self.words[p * w..(p + 1) * w]);
        }
        out
    }

    /// Player `p`'s pieces become `cells` (which lie on the board).
    #[inline]
    pub fn set(&mut self, p: usize, cells: &Bits) {
        let w = self.width as usize;
        assert!(p < self.players(), "player {p} of {}", self.players);
        debug_assert!(
            cells.0[w..].iter().all(|&x| x == 0),
            "cells beyond the board"
        );
        self.words[p * w..(p + 1) * w].copy_from_slice(&cells.0[..w]);
    }

    /// The player whose piece is on `cell`, if any.
    pub fn owner(&self, cell: usize) -> Option<u8> {
        let w = self.width as usize;
        if cell >= w * 64 {
            return None;
        }
        (0..self.players()).find_map(|p| {
            let word = self.words[p * w + (cell >> 6)];
            (word >> (cell & 63) & 1 != 0).then_some(p as u8)
        })
    }

    /// Every player's pieces, in player order.
    pub fn iter(&self) -> impl Iterator<Item = Bits> + '_ {
        (0..self.players()).map(|p| self.of(p))
    }
}
