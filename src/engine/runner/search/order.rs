//! The order of the placements in the solver's last stretch: an iterator over its parts and
//! classes, and for the last few cells their keys sorted.

use super::Searching;
use crate::board::sets::Board;

/// The most cells [`Searching::few_in_order`] orders.
pub(super) const FEW_CELLS: usize = 4;

impl<'k, B: Board, const P: usize> Searching<'k, B, P> {
    /// The cells of `empty`, at most [`FEW_CELLS`] of them and all empty, in the order of
    /// [`Searching::last_stretch_order`]`(empty, empty)`, as many as the count says: each
    /// cell's place in that order made a key, and the keys sorted by a network of
    /// comparisons with no branch. The iterator's loop over parts and classes mispredicted
    /// a third of the solver's branches at its very end (callgrind's branch simulation at 22
    /// empty cells of Othello 6x6).
    #[inline(always)]
    pub(super) fn few_in_order(self, empty: B) -> ([u8; FEW_CELLS], usize) {
        let rest = empty.without_lowest();
        if rest.without_lowest().is_empty() {
            // Two cells (or fewer) lie both in one quarter, which is even, or alone each in
            // one, both odd: every playable cell is in a quarter, so the part never tells
            // them apart and the class alone orders them, then the cell.
            let mut cells = [0; FEW_CELLS];
            if empty.is_empty() {
                return (cells, 0);
            }
            let (a, b) = (empty.lowest(), rest.lowest());
            if rest.is_empty() {
                cells[0] = a as u8;
                return (cells, 1);
            }
            let (first, second) = if self.solver.exposure_class[b] < self.solver.exposure_class[a] {
                (b, a)
            } else {
                (a, b)
            };
            (cells[0], cells[1]) = (first as u8, second as u8);
            return (cells, 2);
        }
        let odd = self.odd_quarters(empty);
        let mut keys = [u16::MAX; FEW_CELLS];
        let mut n = 0;
        for cell in empty.cells().take(FEW_CELLS) {
            // The part (odd quarters first), then the class, then the cell (the table's
            // boards have at most 128).
            let part = u16::from(!odd.contains(cell));
            let class = u16::from(self.solver.exposure_class[cell]);
            keys[n] = part << 15 | class << 7 | cell as u16;
            n += 1;
        }
        for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
            let (a, b) = (keys[i], keys[j]);
            (keys[i], keys[j]) = (a.min(b), a.max(b));
        }
        // The cell back from each key's low seven bits.
        (keys.map(|key| (key & 0x7f) as u8), n)
    }

    /// The quarters of the board ([`SolverTables::quarters`]) with an odd number of cells of
    /// `empty`.
    #[inline(always)]
    fn odd_quarters(self, empty: B) -> B {
        self.solver.quarters.iter().fold(B::EMPTY, |odd, &quarter| {
            if (empty & quarter).count() % 2 == 1 {
                odd | quarter
            } else {
                odd
            }
        })
    }

    /// The placements `moves` in the order of the solver's last stretch, where `empty` is
    /// empty: first those in the quarters of the board with an odd number of empty cells (see
    /// [`SolverTables::quarters`]), and in each part those on the cells with fewest neighbours first
    /// (no sort, and a tenth fewer positions than in the order of the cells).
    #[inline(always)]
    pub(super) fn last_stretch_order(self, moves: B, empty: B) -> StretchOrder<'k, B> {
        let odd = self.odd_quarters(empty);
        StretchOrder {
            parts: [moves & odd, moves & !odd],
            classes: &self.0.solver.by_exposure,
            // No classes, no cells (and no placements).
            part: if self.solver.by_exposure.is_empty() {
                2
            } else {
                0
            },
            class: 0,
            cells: B::EMPTY,
        }
    }
}

/// [`Searching::last_stretch_order`]'s placements, a part and a class of cells at a time. Written
/// out rather than as two nested `flat_map`s, which the compiler left as a call per cell
/// (a tenth of a solve's time near its end).
pub(super) struct StretchOrder<'k, B> {
    /// The placements in the odd quarters, then in the others.
    parts: [B; 2],
    /// The cells by their count of neighbours, fewest first ([`SolverTables::by_exposure`]).
    classes: &'k [B],
    part: usize,
    class: usize,
    /// What is left of the current part's class.
    cells: B,
}

impl<B: Board> Iterator for StretchOrder<'_, B> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.cells.is_empty() {
            if self.class == self.classes.len() {
                self.part += 1;
                self.class = 0;
            }
            let part = *self.parts.get(self.part)?;
            self.cells = part & self.classes[self.class];
            self.class += 1;
        }
        let cell = self.cells.lowest();
        self.cells = self.cells.without_lowest();
        Some(cell)
    }
}
