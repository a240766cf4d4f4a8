//! Four cell sets stepped together, one per direction of a line: the unit of work of the
//! runner's line matching (see the kernel's compiled lines). Each set type chooses how its
//! four sets are laid out, so that a step of all four is a few vector instructions.

use super::sets::Board;
use std::ops::{BitAnd, BitOr};

/// The shift amounts of a board type's lanes.
pub type AmountsOf<B> = <<B as Board>::Lanes as Lanes<B>>::Amounts;

/// Four sets of cells of the board type `B`, each shifted by its own amount.
pub trait Lanes<B: Board>:
    Copy + Send + Sync + BitAnd<Output = Self> + BitOr<Output = Self> + 'static
{
    /// Whether this layout differs from four sets side by side, so that stepping it is worth
    /// its own code (see [`Split`]).
    const REPACKED: bool;
    /// The four shift amounts (cells), in the form the shift wants them.
    type Amounts: Copy + Send + Sync + 'static;
    /// None when this layout cannot shift by them. An amount of 0 marks an unused lane: what
    /// it holds after a shift is unspecified, and callers mask it away.
    fn amounts(cells: [u32; 4]) -> Option<Self::Amounts>;
    fn from_sets(sets: [B; 4]) -> Self;
    /// The same set in every lane. (Left to the compiler to inline: forced, it made
    /// hexagonal Reversi's playouts slower, measured.)
    fn splat(set: B) -> Self {
        Self::from_sets([set; 4])
    }
    fn sets(self) -> [B; 4];
    /// Every lane shifted towards higher cells (`up`) or lower ones by its amount, then kept
    /// where `within` allows.
    fn shift(self, by: &Self::Amounts, up: bool, within: Self) -> Self;
    /// The cells of any lane.
    #[inline(always)]
    fn union(self) -> B {
        let [a, b, c, d] = self.sets();
        a | b | c | d
    }
}

/// Four sets side by side, shifted one by one: for one-word sets (vector units take the four
/// words at once as they are) and for sets of several words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Four<B>(pub [B; 4]);

impl<B: Board> BitAnd for Four<B> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        Four(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl<B: Board> BitOr for Four<B> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, o: Self) -> Self {
        Four(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl<B: Board> Lanes<B> for Four<B> {
    const REPACKED: bool = false;
    type Amounts = [B; 4];
    fn amounts(cells: [u32; 4]) -> Option<[B; 4]> {
        Some(cells.map(B::amount))
    }
    #[inline(always)]
    fn from_sets(sets: [B; 4]) -> Self {
        Four(sets)
    }
    #[inline(always)]
    fn sets(self) -> [B; 4] {
        self.0
    }
    #[inline(always)]
    fn shift(self, by: &[B; 4], up: bool, within: Self) -> Self {
        Four(std::array::from_fn(|i| {
            (if up {
                self.0[i].up(by[i])
            } else {
                self.0[i].down(by[i])
            }) & within.0[i]
        }))
    }
}

/// Four two-word sets as their four low words and their four high words. A 128-bit shift by
/// a variable amount is several scalar instructions with a select; split this way, a step of
/// the four lanes is a few shifts of four words each, which vector units do at once
/// (hexagonal and 10 x 10 boards live here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    low: [u64; 4],
    high: [u64; 4],
}

/// Shift counts for [`Split`]: the amount, and what moves across the words' boundary the
/// other way (64 - amount).
#[derive(Clone, Copy, Debug)]
pub struct SplitAmounts {
    by: [u32; 4],
    across: [u32; 4],
}

impl BitAnd for Split {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        Split {
            low: std::array::from_fn(|i| self.low[i] & o.low[i]),
            high: std::array::from_fn(|i| self.high[i] & o.high[i]),
        }
    }
}

impl BitOr for Split {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, o: Self) -> Self {
        Split {
            low: std::array::from_fn(|i| self.low[i] | o.low[i]),
            high: std::array::from_fn(|i| self.high[i] | o.high[i]),
        }
    }
}

impl Lanes<u128> for Split {
    const REPACKED: bool = true;
    type Amounts = SplitAmounts;
    /// Amounts below a word only (a board of two words wider than 62 cells is two rows at
    /// most, and keeps to the plain steps).
    fn amounts(cells: [u32; 4]) -> Option<SplitAmounts> {
        cells.iter().all(|&k| k < 64).then(|| SplitAmounts {
            by: cells,
            across: cells.map(|k| 64 - k),
        })
    }
    #[inline(always)]
    fn from_sets(sets: [u128; 4]) -> Self {
        Split {
            low: sets.map(|s| s as u64),
            high: sets.map(|s| (s >> 64) as u64),
        }
    }
    #[inline(always)]
    fn sets(self) -> [u128; 4] {
        std::array::from_fn(|i| (self.high[i] as u128) << 64 | self.low[i] as u128)
    }
    #[inline(always)]
    fn shift(self, k: &SplitAmounts, up: bool, within: Self) -> Self {
        let (l, h) = (self.low, self.high);
        // Every amount is below 64 (see `amounts`); an unused lane's 0 moves a whole word
        // across by 64, which wraps to 0, and is masked away by the caller.
        let moved = if up {
            Split {
                low: std::array::from_fn(|i| l[i].wrapping_shl(k.by[i])),
                high: std::array::from_fn(|i| {
                    h[i].wrapping_shl(k.by[i]) | l[i].wrapping_shr(k.across[i])
                }),
            }
        } else {
            Split {
                low: std::array::from_fn(|i| {
                    l[i].wrapping_shr(k.by[i]) | h[i].wrapping_shl(k.across[i])
                }),
                high: std::array::from_fn(|i| h[i].wrapping_shr(k.by[i])),
            }
        };
        moved & within
    }
    #[inline(always)]
    fn union(self) -> u128 {
        let or = |w: [u64; 4]| w[0] | w[1] | w[2] | w[3];
        (or(self.high) as u128) << 64 | or(self.low) as u128
    }
}
