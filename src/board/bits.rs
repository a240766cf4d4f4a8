//! A fixed-size set of cells. Fixed size keeps game states `Copy` and free of heap allocation;
//! 11 words cover the largest board the language allows (26 x 26).

use super::cpu::{nth, ones};

pub const WORDS: usize = 11;
pub const MAX_CELLS: usize = WORDS * 64;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bits(pub [u64; WORDS]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; WORDS]);

    #[inline]
    pub fn single(cell: usize) -> Bits {
        let mut b = Bits::EMPTY;
        b.insert(cell);
        b
    }
    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell >> 6] >> (cell & 63) & 1 != 0
    }
    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.0[cell >> 6] |= 1 << (cell & 63);
    }
    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.0[cell >> 6] &= !(1 << (cell & 63));
    }
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|&w| ones(w)).sum()
    }
    /// The k-th cell in increasing order (k < count).
    #[inline]
    pub fn nth(&self, mut k: usize) -> usize {
        for (i, &w) in self.0.iter().enumerate() {
            let n = ones(w) as usize;
            if k < n {
                return i * 64 + nth(w, k);
            }
            k -= n;
        }
        panic!("no cell {k} in the set")
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    pub fn union(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a |= b;
        }
        r
    }
    #[inline]
    pub fn inter(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= b;
        }
        r
    }
    #[inline]
    pub fn minus(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= !b;
        }
        r
    }
    /// Every cell moved by `k` (bit i goes to i + k); cells moved out of range are dropped.
    #[inline]
    pub fn shifted(&self, k: i32) -> Bits {
        Bits(shift_words(&self.0, k))
    }

    /// The cells in increasing order.
    #[inline]
    pub fn iter(&self) -> BitsIter {
        BitsIter {
            words: self.0,
            index: 0,
        }
    }
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

pub struct BitsIter {
    words: [u64; WORDS],
    index: usize,
}

impl Iterator for BitsIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.index < WORDS {
            let w = self.words[self.index];
            if w != 0 {
                self.words[self.index] = w & (w - 1);
                return Some(self.index * 64 + w.trailing_zeros() as usize);
            }
            self.index += 1;
        }
        None
    }
}

/// The bits of `w` (word 0 lowest) moved by `k` (bit i goes to i + k); bits moved out of the
/// words are dropped. Shared by the sets of every width.
#[inline(always)]
pub fn shift_words<const N: usize>(w: &[u64; N], k: i32) -> [u64; N] {
    let mut out = [0u64; N];
    let (q, r) = ((k.unsigned_abs() / 64) as usize, k.unsigned_abs() % 64);
    if q == 0 && r != 0 && N > 0 {
        // A step less than a word (a neighbour on any board up to 64 columns, the floods'
        // case): every word takes the bits crossing from the next, without a branch per word.
        if k > 0 {
            out[0] = w[0] << r;
            for i in 1..N {
                out[i] = (w[i] << r) | (w[i - 1] >> (64 - r));
            }
        } else {
            for i in 0..N - 1 {
                out[i] = (w[i] >> r) | (w[i + 1] << (64 - r));
            }
            out[N - 1] = w[N - 1] >> r;
        }
        return out;
    }
    if k >= 0 {
        for i in (q..N).rev() {
            let lo = w[i - q];
            let carry = if r > 0 && i > q {
                w[i - q - 1] >> (64 - r)
            } else {
                0
            };
            out[i] = (lo << r) | carry;
        }
    } else {
        for (i, o) in out.iter_mut().enumerate().take(N.saturating_sub(q)) {
            let hi = w[i + q];
            let carry = if r > 0 && i + q + 1 < N {
                w[i + q + 1] << (64 - r)
            } else {
                0
            };
            *o = (hi >> r) | carry;
        }
    }
    out
}
