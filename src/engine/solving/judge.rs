//! A judge of positions learnt from the game itself, for the solver's move order far from the
//! end: a linear estimate of the final margin, fitted to exact values the solver finds for
//! positions a few cells from the end. It reads nothing but the board: what holds each cell,
//! what holds each pair of neighbouring cells, and how many placements each side has; cells
//! and pairs that a symmetry of the rules maps onto each other share their weights.

use crate::board::sets::Board;

/// The ridge penalty of the fit: keeps the weights of features the samples rarely show near
/// zero instead of letting them fit noise (10 did best of 1, 10 and 100 on 6x6 Othello).
const RIDGE: f64 = 10.0;

/// The features of a board and their learnt weights.
#[derive(Debug)]
pub struct Judge {
    /// Each playable cell and its class (cells a symmetry maps onto each other share one).
    cells: Vec<(usize, usize)>,
    /// Each pair of neighbouring cells as the features list it (either way round, or both),
    /// and its class.
    pairs: Vec<(usize, usize, usize)>,
    /// Where the pairs' weights and the placement counts' weights begin.
    pair_base: usize,
    count_base: usize,
    weights: Vec<f64>,
    /// The board's width: the cell below cell `c` is `c + width`.
    width: usize,
    /// The fitted weights laid out for judging, in [`FIXED_POINT`] units: per block of two
    /// by two cells (its first cell, and the first of its second row), the weights of the
    /// cells and pairs it holds, summed for each of its arrangements (see [`block_index`]).
    /// Every neighbour of a board without joined edges shares a block with its cell, so a
    /// judgement on 6x6 is 25 lookups instead of 36 cells' and 110 pairs' weights.
    blocks: Vec<(u8, u8, [i32; 256])>,
    /// The pairs no block holds (neighbours across a board's joined edges), once each.
    loose_pairs: Vec<(u8, u8, [i32; 9])>,
    /// Whether every cell the blocks and loose pairs read is one of the first 64: then a
    /// judgement reads the boards' low words, a shift an instruction instead of four.
    narrow: bool,
}

/// The laid-out weights count in these parts of a piece: whole numbers, so that the sum of a
/// judgement is a chain of integer additions (a chain of floating-point ones waits four
/// cycles an addition, and was most of the judge's time), and as fine as the order needs.
const FIXED_POINT: f64 = 256.0;

/// One position's features (index, value) and its exact margin for its mover.
pub type Sample = (Vec<(usize, f64)>, f64);

impl Judge {
    /// A judge with every weight zero over `cells` and neighbouring `pairs`, each given with
    /// the representative of its class under the board's symmetries.
    /// `width` is the board's: the cell below cell `c` is `c + width`.
    pub fn new(
        cells: &[(usize, usize)],
        pairs: &[(usize, usize, (usize, usize))],
        width: usize,
    ) -> Judge {
        let mut cell_classes = std::collections::BTreeMap::new();
        let cells: Vec<_> = cells
            .iter()
            .map(|&(c, class)| {
                let n = cell_classes.len();
                (c, *cell_classes.entry(class).or_insert(n))
            })
            .collect();
        let mut pair_classes = std::collections::BTreeMap::new();
        let pairs: Vec<_> = pairs
            .iter()
            .map(|&(a, b, class)| {
                let n = pair_classes.len();
                (a, b, *pair_classes.entry(class).or_insert(n))
            })
            .collect();
        let pair_base = cell_classes.len() * 3;
        let count_base = pair_base + pair_classes.len() * 9;
        Judge {
            cells,
            pairs,
            pair_base,
            count_base,
            // Both sides' placements, and a constant.
            weights: vec![0.0; count_base + 3],
            width,
            blocks: Vec::new(),
            loose_pairs: Vec::new(),
            narrow: false,
        }
    }

    /// What each playable cell holds, from the mover's side: 0 its own piece, 1 the other
    /// player's, 2 nothing.
    #[inline]
    fn states(&self, mine: u128, theirs: u128) -> [u8; 128] {
        let mut states = [2; 128];
        for &(c, _) in &self.cells {
            states[c] = state(mine >> c & 1 != 0, theirs >> c & 1 != 0) as u8;
        }
        states
    }

    /// Calls `each` with the index and the value of every feature of a position whose mover
    /// holds `mine` and may place `my_moves` times, and whose other player holds `theirs`
    /// and could place `their_moves` times. One walk for the fit and the hot judging alike.
    #[inline]
    fn each_feature(
        &self,
        mine: u128,
        theirs: u128,
        my_moves: u32,
        their_moves: u32,
        mut each: impl FnMut(usize, f64),
    ) {
        let states = self.states(mine, theirs);
        let state = |c: usize| usize::from(states[c]);
        for &(c, k) in &self.cells {
            each(k * 3 + state(c), 1.0);
        }
        for &(a, b, k) in &self.pairs {
            each(self.pair_base + k * 9 + state(a) * 3 + state(b), 1.0);
        }
        each(self.count_base, f64::from(my_moves));
        each(self.count_base + 1, f64::from(their_moves));
        each(self.count_base + 2, 1.0);
    }

    /// The features of such a position (`Judge::each_feature`), as (index, value).
    pub fn features(
        &self,
        mine: u128,
        theirs: u128,
        my_moves: u32,
        their_moves: u32,
    ) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        self.each_feature(mine, theirs, my_moves, their_moves, |i, x| {
            out.push((i, x));
        });
        out
    }

    /// The fitted weights, by the features' indices ([`Judge::features`]).
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The estimated final margin for the mover of such a position: the sum of its
    /// features' weights, read from the layout [`Judge::fit`] made (the hot path of the
    /// solver's order: a class looked up per feature cost a fifth of a solve, and a weight
    /// per cell and pair, read through each cell's state, a third).
    ///
    /// Taken in a copy compiled for the processor's vector instructions where it has them
    /// (see `chosen_copies`): the blocks' sums are a solve's most frequent work after its
    /// placements.
    #[allow(unsafe_code, unused_unsafe)]
    pub fn margin(&self, mine: u128, theirs: u128, my_moves: u32, their_moves: u32) -> f64 {
        if crate::board::cpu::vectors() {
            // SAFETY: the processor has the copy's instructions (`vectors`).
            unsafe { self.margin_v3(mine, theirs, my_moves, their_moves) }
        } else {
            self.margin_on(mine, theirs, my_moves, their_moves)
        }
    }

    crate::engine::runner::copies::vector_features! {
        fn margin_v3(&self, mine: u128, theirs: u128, my_moves: u32, their_moves: u32) -> f64 {
            self.margin_on(mine, theirs, my_moves, their_moves)
        }
    }

    #[inline(always)]
    fn margin_on(&self, mine: u128, theirs: u128, my_moves: u32, their_moves: u32) -> f64 {
        let w = &self.weights[self.count_base..];
        let counts = w[0] * f64::from(my_moves) + w[1] * f64::from(their_moves) + w[2];
        // In 64 bits: a rules file may score in millions, and the weights' casts saturate.
        let mut sum = if self.narrow {
            self.blocks_sum(mine as u64, theirs as u64)
        } else {
            self.blocks_sum(mine, theirs)
        };
        if !self.loose_pairs.is_empty() {
            let at = |c: u8| state(mine >> c & 1 != 0, theirs >> c & 1 != 0);
            for &(a, b, weights) in &self.loose_pairs {
                sum += i64::from(weights[at(a) * 3 + at(b)]);
            }
        }
        counts + sum as f64 / FIXED_POINT
    }

    /// The blocks' weights for the arrangement of `mine` and `theirs`, in [`FIXED_POINT`]
    /// units.
    #[inline(always)]
    fn blocks_sum<B: Board>(&self, mine: B, theirs: B) -> i64 {
        (self.blocks.iter())
            .map(|(top, bottom, weights)| {
                i64::from(weights[block_index(mine, theirs, *top, *bottom)])
            })
            .sum()
    }

    /// Lays the weights out for [`Judge::margin`]: each cell's and each pair's weights (its
    /// classes' summed, once for a pair whichever ways round it is a feature) added into the
    /// block that holds it, for each arrangement of the block.
    fn lay_out(&mut self) {
        let w = &self.weights;
        let mut pairs: std::collections::BTreeMap<(usize, usize), [f64; 9]> = Default::default();
        for &(a, b, k) in &self.pairs {
            let base = self.pair_base + k * 9;
            let slot = pairs.entry((a.min(b), a.max(b))).or_default();
            for (sa, sb) in (0..3).flat_map(|x| (0..3).map(move |y| (x, y))) {
                // Stored as the lower cell's state, then the higher's.
                let i = if a < b { sa * 3 + sb } else { sb * 3 + sa };
                slot[i] += w[base + sa * 3 + sb];
            }
        }
        let width = self.width;
        let last_row = self
            .cells
            .iter()
            .map(|&(c, _)| c / width)
            .max()
            .unwrap_or(0);
        // The first cell of the block that holds all of `cells`: at their least column and
        // row, moved in from the last column and row so that the block lies on the board;
        // None for cells further apart (neighbours across joined edges).
        let block_of = |cells: &[usize]| {
            let x = cells.iter().map(|c| c % width).min()?;
            let y = cells.iter().map(|c| c / width).min()?;
            let x_span = cells.iter().map(|c| c % width).max()? - x;
            let y_span = cells.iter().map(|c| c / width).max()? - y;
            (width >= 2 && x_span <= 1 && y_span <= 1)
                .then(|| x.min(width - 2) + y.min(last_row.saturating_sub(1)) * width)
        };
        // Per block, by its first cell: its weights in floating point until all are added.
        let mut blocks: std::collections::BTreeMap<usize, [f64; 256]> = Default::default();
        let mut add = |top: usize, cells: &[usize], weight: &dyn Fn(&[usize]) -> f64| {
            let block = blocks.entry(top).or_insert([0.0; 256]);
            for (i, slot) in block.iter_mut().enumerate() {
                // Arrangements with a cell both players' never occur.
                if i & 15 & (i >> 4) != 0 {
                    continue;
                }
                let states: Vec<usize> = (cells.iter())
                    .map(|&c| {
                        let bit = block_bit(top, width, c);
                        state(i >> bit & 1 != 0, i >> (bit + 4) & 1 != 0)
                    })
                    .collect();
                *slot += weight(&states);
            }
        };
        for &(c, k) in &self.cells {
            let top = block_of(&[c]).unwrap_or(c);
            add(top, &[c], &|s| w[k * 3 + s[0]]);
        }
        let mut loose = Vec::new();
        for ((a, b), weights) in pairs {
            match block_of(&[a, b]) {
                Some(top) => add(top, &[a, b], &|s| weights[s[0] * 3 + s[1]]),
                None => loose.push((a, b, weights)),
            }
        }
        let fixed = |x: f64| (x * FIXED_POINT).round() as i32;
        // Cells are below 128 (the judge reads boards as 128-bit sets).
        self.blocks = (blocks.into_iter())
            .map(|(top, weights)| {
                // A block in the last row of a board of one row that ends at the 128th cell
                // has no second row: reading its first again gives bits no weight reads.
                let bottom = if top + width < 128 { top + width } else { top };
                (top as u8, bottom as u8, weights.map(fixed))
            })
            .collect();
        self.loose_pairs = (loose.into_iter())
            .map(|(a, b, w)| (a as u8, b as u8, w.map(fixed)))
            .collect();
        // A block reads its rows' first cells and the cells after them.
        self.narrow = self.blocks.iter().all(|&(_, bottom, _)| bottom < 63)
            && self.loose_pairs.iter().all(|&(a, b, _)| a.max(b) < 64);
    }

    /// Fits the weights to `samples` by ridge regression (least squares, each weight also
    /// pulled towards zero by `RIDGE`).
    pub fn fit(&mut self, samples: &[Sample]) {
        let n = self.weights.len();
        let mut a = vec![vec![0.0; n]; n];
        let mut b = vec![0.0; n];
        for (features, y) in samples {
            for &(i, x) in features {
                for &(j, z) in features {
                    a[i][j] += x * z;
                }
                b[i] += x * y;
            }
        }
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += RIDGE;
        }
        self.weights = solve_linear(a, b);
        self.lay_out();
    }
}

/// What a cell holds, from the mover's side, as the features number it: 0 the mover's piece,
/// 1 the other player's, 2 nothing.
#[inline(always)]
fn state(mine: bool, theirs: bool) -> usize {
    if mine {
        0
    } else if theirs {
        1
    } else {
        2
    }
}

/// Where cell `c` stands in the block whose first cell is `top`: 0 and 1 in its first row,
/// 2 and 3 in its second.
fn block_bit(top: usize, width: usize, c: usize) -> usize {
    if c >= top + width {
        2 + c - top - width
    } else {
        c - top
    }
}

/// A block's arrangement: the mover's four cells as the low four bits (in the order of
/// [`block_bit`]), the other player's as the high four; `top` and `bottom` are the first
/// cells of its two rows.
#[inline(always)]
fn block_index<B: Board>(mine: B, theirs: B, top: u8, bottom: u8) -> usize {
    let two = |b: B, at: u8| b.down(B::amount(u32::from(at))).to_u128() as usize & 3;
    two(mine, top) | two(mine, bottom) << 2 | two(theirs, top) << 4 | two(theirs, bottom) << 6
}

/// The solution of `a x = b` for a symmetric positive definite `a` (the ridge term makes it
/// so), by Gaussian elimination.
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for i in 0..n {
        let pivot = a[i][i];
        for r in i + 1..n {
            let f = a[r][i] / pivot;
            if f == 0.0 {
                continue;
            }
            let (above, below) = a.split_at_mut(r);
            for (x, y) in below[0][i..].iter_mut().zip(&above[i][i..]) {
                *x -= f * y;
            }
            b[r] -= f * b[i];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let rest: f64 = (i + 1..n).map(|c| a[i][c] * x[c]).sum();
        x[i] = (b[i] - rest) / a[i][i];
    }
    x
}
