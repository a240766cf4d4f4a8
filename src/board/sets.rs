//! Cell sets in as few machine words as a board needs ([`Board`]): the runner works on these
//! instead of the 704-bit [`Bits`] every board fits in. Below them, their [`Lanes`]: four sets
//! stepped together, one per direction of a line.

use super::bits::{Bits, WORDS};
use super::cpu::{nth, ones};
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of cells as the bits of one integer (bit i = cell i).
pub trait Board:
    Copy
    + Eq
    + std::hash::Hash
    + Default
    + Send
    + Sync
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + 'static
{
    /// Four sets stepped together (see `super::lanes`).
    type Lanes: Lanes<Self>;
    /// How many cells fit.
    const CELLS: usize;
    const EMPTY: Self;
    /// Bit i moved to i + k (k may be negative); bits moved out of range drop.
    fn shifted(self, k: i32) -> Self;
    /// A shift amount held in the board type, so that lanes of boards and their shift amounts
    /// have one element type (what vector units want).
    fn amount(n: u32) -> Self;
    /// Shifted towards higher cells by an amount made by [`Board::amount`].
    fn up(self, by: Self) -> Self;
    /// Shifted towards lower cells by an amount made by [`Board::amount`].
    fn down(self, by: Self) -> Self;
    /// The first `cells` cells (all of the set's) rotated towards higher cells by `by`
    /// (below `cells`): cell i moves to (i + by) mod `cells`.
    #[inline(always)]
    fn rotated(self, by: u32, cells: u32) -> Self {
        let full = if cells as usize >= Self::CELLS {
            !Self::EMPTY
        } else {
            Self::single(cells as usize).below()
        };
        (self.shifted(by as i32) | self.shifted(by as i32 - cells as i32)) & full
    }
    /// The lowest cell alone (empty for an empty set).
    fn lowest_bit(self) -> Self;
    /// The highest cell alone (empty for an empty set).
    fn highest_bit(self) -> Self;
    /// For a single cell: every cell below it (for an empty set: every cell).
    fn below(self) -> Self;
    fn count(self) -> u32;
    fn is_empty(self) -> bool;
    fn single(cell: usize) -> Self;
    /// The cells below 64 given as the bits of one word.
    fn low(word: u64) -> Self;
    fn contains(self, cell: usize) -> bool;
    /// The lowest cell (the set must not be empty).
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
    /// The cells in increasing order.
    #[inline(always)]
    fn cells(self) -> Cells<Self> {
        Cells(self)
    }
    /// Calls `f` with each cell in increasing order: for sets of several words, a word at a
    /// time, without [`Board::cells`]' search for the lowest word that holds a cell.
    #[inline(always)]
    fn each_cell(self, f: impl FnMut(usize)) {
        self.cells().for_each(f);
    }
    /// The k-th cell in increasing order (k < count).
    fn nth(self, k: usize) -> usize;
    /// The cells of a wide set (cells beyond `CELLS` must not be present).
    fn from_bits(b: &Bits) -> Self;
    fn to_bits(self) -> Bits;
    fn to_u128(self) -> u128;
}

/// The cells of a board, lowest first.
pub struct Cells<B>(B);

impl<B: Board> Iterator for Cells<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let cell = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(cell)
    }
}

macro_rules! integer_board {
    ($t:ty, $lanes:ty) => {
        impl Board for $t {
            type Lanes = $lanes;
            const CELLS: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;
            #[inline(always)]
            fn shifted(self, k: i32) -> Self {
                if k >= 0 {
                    self << k
                } else {
                    self >> -k
                }
            }
            #[inline(always)]
            fn amount(n: u32) -> Self {
                n as $t
            }
            #[inline(always)]
            fn up(self, by: Self) -> Self {
                self << by
            }
            #[inline(always)]
            fn down(self, by: Self) -> Self {
                self >> by
            }
            #[inline(always)]
            fn nth(self, k: usize) -> usize {
                self.nth_set_bit(k)
            }
            #[inline(always)]
            fn rotated(self, by: u32, cells: u32) -> Self {
                // One instruction where the board fills the word (and `cells` is a constant
                // at the call, as the rotations' callers arrange).
                if cells == <$t>::BITS {
                    return self.rotate_left(by);
                }
                // A rotation by 0 shifts down by `cells`, which leaves nothing of a set of
                // the first `cells` cells.
                (self.wrapping_shl(by) | self.wrapping_shr(cells.wrapping_sub(by)))
                    & ((1 << cells) - 1)
            }
            #[inline(always)]
            fn lowest_bit(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn highest_bit(self) -> Self {
                if self == 0 {
                    0
                } else {
                    1 << (<$t>::BITS - 1 - self.leading_zeros())
                }
            }
            #[inline(always)]
            fn below(self) -> Self {
                self.wrapping_sub(1)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.ones()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn single(cell: usize) -> Self {
                1 << cell
            }
            #[inline(always)]
            fn low(word: u64) -> Self {
                word as $t
            }
            #[inline(always)]
            fn contains(self, cell: usize) -> bool {
                self >> cell & 1 != 0
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
            fn from_bits(b: &Bits) -> Self {
                let words = Self::CELLS / 64;
                debug_assert!(b.0[words..].iter().all(|&w| w == 0));
                b.0[..words]
                    .iter()
                    .enumerate()
                    .fold(0, |acc, (i, &w)| acc | (w as $t) << (64 * i))
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                u128::from(self)
            }
            fn to_bits(self) -> Bits {
                let mut out = [0u64; WORDS];
                for (i, w) in out.iter_mut().enumerate().take(Self::CELLS / 64) {
                    *w = (self >> (64 * i)) as u64;
                }
                Bits(out)
            }
        }
    };
}

integer_board!(u64, Four<u64>);
integer_board!(u128, Split);

/// What a flood needs of a set of cells: [`Board`] integers and [`Wide`] sets have it.
pub trait Floodable: Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> {
    const NONE: Self;
    /// Bit i moved to i + k (k may be negative); bits moved out of range drop.
    fn moved(self, k: i32) -> Self;
    fn none(self) -> bool;
}

impl<B: Board> Floodable for B {
    const NONE: Self = B::EMPTY;
    #[inline(always)]
    fn moved(self, k: i32) -> Self {
        self.shifted(k)
    }
    #[inline(always)]
    fn none(self) -> bool {
        self.is_empty()
    }
}

/// The cells one step away from `cells`, for each of `steps` (the cells a step may leave
/// from, and its offset): one layer of a flood, or a neighbourhood of a whole set.
#[inline(always)]
pub fn stepped<B: Floodable>(steps: &[(B, i32)], cells: B) -> B {
    // A loop rather than `fold`: the fold was not always inlined (Reversi Go 13x13 lost a
    // fifth of its playouts).
    let mut out = B::NONE;
    for &(from, offset) in steps {
        out = out | (cells & from).moved(offset);
    }
    out
}

/// The part of `within` connected to `start` by `steps` (a cell set that can take a step and
/// the step's offset, one per direction of connection), grown a layer at a time for all
/// cells at once. None as soon as the part has a neighbour in `stop_at`: "does this group
/// breathe" seldom needs the whole group.
#[inline]
pub fn flood<B: Floodable>(steps: &[(B, i32)], start: B, within: B, stop_at: B) -> Option<B> {
    let mut part = start & within;
    if part.none() {
        return Some(part);
    }
    loop {
        let around = stepped(steps, part);
        if !(around & stop_at).none() {
            return None;
        }
        let grown = part | (around & within);
        if grown == part {
            return Some(part);
        }
        part = grown;
    }
}

/// [`flood`] from one cell, growing only from the cells the last layer added: a layer of a
/// few cells reads their neighbours from `around` (per cell, its neighbours along `steps`),
/// which on a board of several words costs far less than shifting the whole set once per
/// step. Most groups a game asks about touch `stop_at` (a liberty) in the first layer, which
/// is checked here, inline; the rest is left to `flood_on`.
#[inline(always)]
pub fn flood_cell<B: Board>(
    steps: &[(B, i32)],
    around: &[B],
    start: usize,
    within: B,
    stop_at: B,
) -> Option<B> {
    if !within.contains(start) {
        return Some(B::EMPTY);
    }
    let next = around[start];
    if !(next & stop_at).is_empty() {
        return None;
    }
    let part = B::single(start);
    let fresh = next & within & !part;
    if fresh.is_empty() {
        return Some(part);
    }
    flood_on(steps, around, part | fresh, fresh, within, stop_at)
}

/// The layers of [`flood_cell`] after the first: `part` so far, `fresh` its last layer.
#[inline(never)]
fn flood_on<B: Board>(
    steps: &[(B, i32)],
    around: &[B],
    mut part: B,
    mut fresh: B,
    within: B,
    stop_at: B,
) -> Option<B> {
    // Up to this many new cells, one look-up each beats a shift per step of the whole set:
    // a shift costs a few operations per word, a look-up a load and an `or` per word.
    let by_table = match B::CELLS {
        0..=64 => 3,
        65..=128 => 4,
        _ => 10,
    };
    loop {
        let next = if fresh.count() <= by_table {
            let mut next = B::EMPTY;
            fresh.each_cell(|c| next = next | around[c]);
            next
        } else {
            stepped(steps, fresh)
        };
        if !(next & stop_at).is_empty() {
            return None;
        }
        fresh = next & within & !part;
        if fresh.is_empty() {
            return Some(part);
        }
        part = part | fresh;
    }
}

/// The cells of `empty` connected to a stone of `stones` through empty cells, by a flood
/// from the empty cells next to them: what scoring territory needs of each player.
#[inline]
pub fn reached<B: Floodable>(steps: &[(B, i32)], stones: B, empty: B) -> B {
    flood(steps, stepped(steps, stones), empty, B::NONE).unwrap_or(B::NONE)
}

/// A set of cells in `N` words, for boards too large for one integer (a 19 x 19 board takes
/// six): only the words the board needs, where [`Bits`] always carries the largest board's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    /// The first `N` words of a set (the board must fit them).
    pub fn from_bits(b: &Bits) -> Self {
        debug_assert!(b.0[N..].iter().all(|&w| w == 0));
        Wide(std::array::from_fn(|i| b.0[i]))
    }

    pub fn to_bits(self) -> Bits {
        let mut out = [0u64; WORDS];
        out[..N].copy_from_slice(&self.0);
        Bits(out)
    }
}

impl<const N: usize> BitAnd for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    /// Every cell not in the set (words past the board's last cell fill with ones too).
    #[inline(always)]
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

impl<const N: usize> BitOr for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl<const N: usize> BitXor for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

/// A shift of a set of more than six words, called rather than inlined. A shift of eleven
/// words is some sixty instructions, and inlined at every shift of the runner it made the
/// eleven-word runner (boards no bundled game has) 2.6 MB of machine code; called, 1.0 MB,
/// for 8 to 15% fewer playouts and perft leaves there (docs/PERFORMANCE.md, "Build time").
#[inline(never)]
fn shift_words_called<const N: usize>(w: &[u64; N], k: i32) -> [u64; N] {
    super::bits::shift_words(w, k)
}

/// Sets of several words run the same runner as the integers: a shift crosses words (see
/// [`super::bits::shift_words`]), a shift amount is held in the first word.
impl<const N: usize> Board for Wide<N> {
    type Lanes = Four<Self>;
    const CELLS: usize = 64 * N;
    const EMPTY: Self = Wide([0; N]);
    #[inline(always)]
    fn shifted(self, k: i32) -> Self {
        if N > 6 {
            Wide(shift_words_called(&self.0, k))
        } else {
            Wide(super::bits::shift_words(&self.0, k))
        }
    }
    #[inline(always)]
    fn amount(n: u32) -> Self {
        let mut w = [0; N];
        w[0] = u64::from(n);
        Wide(w)
    }
    #[inline(always)]
    fn up(self, by: Self) -> Self {
        self.shifted(by.0[0] as i32)
    }
    #[inline(always)]
    fn down(self, by: Self) -> Self {
        self.shifted(-(by.0[0] as i32))
    }
    #[inline(always)]
    fn lowest_bit(self) -> Self {
        let mut out = [0; N];
        if let Some(i) = self.0.iter().position(|&w| w != 0) {
            out[i] = self.0[i] & self.0[i].wrapping_neg();
        }
        Wide(out)
    }
    #[inline(always)]
    fn highest_bit(self) -> Self {
        let mut out = [0; N];
        if let Some(i) = self.0.iter().rposition(|&w| w != 0) {
            out[i] = 1 << self.0[i].ilog2();
        }
        Wide(out)
    }
    #[inline(always)]
    fn below(self) -> Self {
        // Every word below the cell's is full, the cell's word holds the bits under it.
        let at = self.0.iter().position(|&w| w != 0).unwrap_or(N);
        Wide(std::array::from_fn(|i| match i.cmp(&at) {
            std::cmp::Ordering::Less => u64::MAX,
            std::cmp::Ordering::Equal => self.0[i].wrapping_sub(1),
            std::cmp::Ordering::Greater => 0,
        }))
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|&w| ones(w)).sum()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn single(cell: usize) -> Self {
        // Each word by a comparison, not one word stored at a varying index: the set is read
        // back as a vector at once, which a single narrow store cannot forward to (a stall
        // on every placement of Go on 19 x 19).
        let (word, bit) = (cell >> 6, 1u64 << (cell & 63));
        Wide(std::array::from_fn(|i| if i == word { bit } else { 0 }))
    }
    #[inline(always)]
    fn low(word: u64) -> Self {
        let mut w = [0; N];
        w[0] = word;
        Wide(w)
    }
    #[inline(always)]
    fn contains(self, cell: usize) -> bool {
        self.0[cell >> 6] >> (cell & 63) & 1 != 0
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        let i = self.0.iter().position(|&w| w != 0).unwrap_or(0);
        i * 64 + self.0[i].trailing_zeros() as usize
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        let mut out = self.0;
        if let Some(i) = out.iter().position(|&w| w != 0) {
            out[i] &= out[i] - 1;
        }
        Wide(out)
    }
    #[inline(always)]
    fn each_cell(self, mut f: impl FnMut(usize)) {
        for (i, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                f(i * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }
    #[inline(always)]
    fn nth(self, k: usize) -> usize {
        // Which word holds it, without a branch per word: a random k (as playouts draw) made
        // that branch mispredict at almost every draw.
        let (mut word, mut skipped, mut before) = (0, 0, 0);
        for &w in &self.0 {
            let n = ones(w) as usize;
            let past = usize::from(before + n <= k);
            word += past;
            skipped += past * n;
            before += n;
        }
        assert!(k < before, "no cell {k} in the set");
        word * 64 + nth(self.0[word], k - skipped)
    }
    fn from_bits(b: &Bits) -> Self {
        Wide::from_bits(b)
    }
    fn to_bits(self) -> Bits {
        Wide::to_bits(self)
    }
    fn to_u128(self) -> u128 {
        debug_assert!(self.0.iter().skip(2).all(|&w| w == 0));
        self.0
            .iter()
            .take(2)
            .enumerate()
            .fold(0, |acc, (i, &w)| acc | u128::from(w) << (64 * i))
    }
}

/// What the one-word and two-word sets count and draw with the processor's instructions.
trait WordBits {
    fn ones(self) -> u32;
    fn nth_set_bit(self, k: usize) -> usize;
}

impl WordBits for u64 {
    #[inline(always)]
    fn ones(self) -> u32 {
        ones(self)
    }
    #[inline(always)]
    fn nth_set_bit(self, k: usize) -> usize {
        nth(self, k)
    }
}

impl WordBits for u128 {
    #[inline(always)]
    fn ones(self) -> u32 {
        ones(self as u64) + ones((self >> 64) as u64)
    }
    #[inline(always)]
    fn nth_set_bit(self, k: usize) -> usize {
        let low = self as u64;
        let below = ones(low) as usize;
        if k < below {
            nth(low, k)
        } else {
            64 + nth((self >> 64) as u64, k - below)
        }
    }
}

// Lanes: four cell sets stepped together, one per direction of a line, the unit of work of
// the runner's line matching. Each set type chooses how its four sets are laid out, so that
// a step of all four is a few vector instructions. (Here beside `Board`: each names the other.)

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
        std::array::from_fn(|i| u128::from(self.high[i]) << 64 | u128::from(self.low[i]))
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
        u128::from(or(self.high)) << 64 | u128::from(or(self.low))
    }
}
