//! A small table of its own for the margin search of a game's last empty cells (`counted`):
//! bounds on margins and a best placement, keyed by the two boards alone. The solver's main
//! table stops above these positions, where its keys (a symmetry's images each), its
//! general values and its slots cost more than most subtrees there; this one is a few words
//! a position, so that positions met again by another order of the same placements are not
//! searched again.

use crate::board::sets::Board;

/// Slots in a [`MarginTable`]: 2.6 MB, near the processor's caches. A position's subtree
/// here is small, so the table serves as a cache of the part of the tree the search is in,
/// not as a record of the whole solve: a slot always takes the latest position. On Othello
/// 6x6 from the start, 2^18 slots searched 972.2 M positions and 2^16 974.9 M, in about the
/// same time; at 26 empty cells 2^20 took more time than 2^16.
const MARGIN_SLOTS: usize = 1 << 16;

/// The table's slots: each the mover's board, then the opponent's (two words each, as
/// `Board::to_u128` gives them), then the bounds and the best placement
/// ([`MarginTable::put`]). Plain words, so that the slots start as zeroed pages that the
/// system hands over untouched (a slot of zeros is unused).
pub(super) struct MarginTable {
    slots: Vec<[u64; 5]>,
}

/// The mark of a used slot in its last word.
const USED: u64 = 1 << 63;

impl MarginTable {
    pub(super) fn new() -> MarginTable {
        MarginTable {
            slots: vec![[0; 5]; MARGIN_SLOTS],
        }
    }

    #[inline(always)]
    fn place(mover: u128, opponent: u128) -> usize {
        (super::boards_hash(mover, opponent) >> 40) as usize & (MARGIN_SLOTS - 1)
    }

    #[inline(always)]
    fn words(mover: u128, opponent: u128) -> [u64; 4] {
        [
            mover as u64,
            (mover >> 64) as u64,
            opponent as u64,
            (opponent >> 64) as u64,
        ]
    }

    /// What the table holds for the mover with the cells `mover` against `opponent`: the
    /// least and the most margin the search has proved, and the placement that was best.
    #[inline(always)]
    pub(super) fn get<B: Board>(&self, mover: B, opponent: B) -> Option<(i32, i32, usize)> {
        let (mover, opponent) = (mover.to_u128(), opponent.to_u128());
        let slot = &self.slots[Self::place(mover, opponent)];
        let meta = slot[4];
        if meta & USED == 0 || slot[..4] != Self::words(mover, opponent) {
            return None;
        }
        let low = i32::from((meta >> 24) as u16 as i16);
        let high = i32::from((meta >> 8) as u16 as i16);
        Some((low, high, (meta & 0xff) as usize))
    }

    /// Stores that the margin of the mover with `mover` against `opponent` lies in
    /// `low..=high` (each within an `i16`) and that the placement on `best` was the best
    /// found (the boards the table holds have at most 128 cells).
    #[inline(always)]
    pub(super) fn put<B: Board>(
        &mut self,
        mover: B,
        opponent: B,
        low: i32,
        high: i32,
        best: usize,
    ) {
        let (mover, opponent) = (mover.to_u128(), opponent.to_u128());
        let [a, b, c, d] = Self::words(mover, opponent);
        let meta = USED
            | u64::from(low as i16 as u16) << 24
            | u64::from(high as i16 as u16) << 8
            | (best as u64 & 0xff);
        self.slots[Self::place(mover, opponent)] = [a, b, c, d, meta];
    }
}

/// A tree's [`MarginTable`], made on its first use: a tree that never reaches the last
/// stretch makes none, and one that does takes only the pages it writes. A clone, such as
/// another thread's tree, starts with none: it is a cache.
#[derive(Default)]
pub(super) struct Margins(pub(super) Option<Box<MarginTable>>);

impl Clone for Margins {
    fn clone(&self) -> Margins {
        Margins(None)
    }
}
