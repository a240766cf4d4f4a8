//! The order of the placements in the solver's last stretch, found without a sort.

use crate::board::sets::Board;
use crate::engine::kernel::Kernel;

impl<B: Board, const P: usize> Kernel<B, P> {
    /// The placements `moves` in the order of the solver's last stretch, where `empty` is
    /// empty: first those in the quarters of the board with an odd number of empty cells (see
    /// [`Kernel::quarters`]), and in each part those on the cells with fewest neighbours first
    /// (no sort, and a tenth fewer positions than in the order of the cells).
    #[inline(always)]
    pub(super) fn last_stretch_order(&self, moves: B, empty: B) -> StretchOrder<'_, B> {
        let odd = self.quarters.iter().fold(B::EMPTY, |odd, &quarter| {
            if (empty & quarter).count() % 2 == 1 {
                odd | quarter
            } else {
                odd
            }
        });
        StretchOrder {
            parts: [moves & odd, moves & !odd],
            classes: &self.by_exposure,
            // No classes, no cells (and no placements).
            part: if self.by_exposure.is_empty() { 2 } else { 0 },
            class: 0,
            cells: B::EMPTY,
        }
    }
}

/// [`Kernel::last_stretch_order`]'s placements, a part and a class of cells at a time. Written
/// out rather than as two nested `flat_map`s, which the compiler left as a call per cell
/// (a tenth of a solve's time near its end).
#[derive(Clone)]
pub(super) struct StretchOrder<'k, B> {
    /// The placements in the odd quarters, then in the others.
    parts: [B; 2],
    /// The cells by their count of neighbours, fewest first ([`Kernel::by_exposure`]).
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
