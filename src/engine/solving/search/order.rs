//! The order of the placements in the solver's last stretch: an iterator over its parts and
//! classes, and for the last few cells their keys sorted.

use super::stable::Stability;
use super::Searching;
use crate::board::sets::Board;
use crate::engine::plan::shapes::Direct;
use crate::engine::runner::Runner;
use crate::ir::Game;

/// What the solver orders and bounds its search by: cells by exposure and by quarter of the
/// board, and the stable discs of a game of the direct shape.
pub struct SolverTables<B> {
    /// The playable cells in classes by their number of playable neighbours, fewest first:
    /// the solver tries those placements first (a cell with few neighbours has few ways to
    /// be outflanked, so taking it tends to be good, and good moves first cut the search).
    pub(crate) by_exposure: Vec<B>,
    /// The playable cells in four quarters, split at the board's middle row and column. In
    /// its last stretch the solver tries first the placements in quarters with an odd number
    /// of empty cells: a placement there leaves the quarter even, so that as the turns
    /// alternate the mover tends to have its last placement (on Othello 6x6, 6% fewer
    /// positions).
    pub(crate) quarters: [B; 4],
    /// Per cell, the index of its class in [`SolverTables::by_exposure`] (`u8::MAX` off the
    /// playable cells).
    pub(crate) exposure_class: Vec<u8>,
    /// The axes along which the margin search finds pieces that can no longer be captured
    /// (see `stable`), for a [`Direct`] game whose runs never end on the captured side.
    pub(crate) stability: Option<Stability<B>>,
}

impl<B: Board> SolverTables<B> {
    /// The solver's tables for `runner`'s game: the playable cells sorted into classes by
    /// exposure and into quarters, and the stable pieces' axes of a `Direct` game.
    pub fn new<const P: usize>(runner: &Runner<B, P>, game: &Game) -> Self {
        let g = &game.geometry;
        let playable = runner.playable;
        let mut by_exposure: Vec<(u32, B)> = Vec::new();
        for cell in playable.cells() {
            let n = (runner.near.around[cell][0] & playable).count();
            match by_exposure.iter_mut().find(|(k, _)| *k == n) {
                Some((_, class)) => *class = *class | B::single(cell),
                None => by_exposure.push((n, B::single(cell))),
            }
        }
        by_exposure.sort_by_key(|c| c.0);
        let by_exposure: Vec<B> = by_exposure.into_iter().map(|c| c.1).collect();
        let mut exposure_class = vec![u8::MAX; B::CELLS];
        for (i, class) in by_exposure.iter().enumerate() {
            for cell in class.cells() {
                exposure_class[cell] = i.min(usize::from(u8::MAX)) as u8;
            }
        }
        let mut quarters = [B::EMPTY; 4];
        for cell in playable.cells() {
            let (x, y) = (cell % g.width, cell / g.width);
            let quarter = usize::from(x >= g.width / 2) + 2 * usize::from(y >= g.height / 2);
            quarters[quarter] = quarters[quarter] | B::single(cell);
        }
        let stability = (runner.direct.as_ref())
            .filter(|d: &&Direct<B>| d.end.opponent.is_empty())
            .and_then(|d| Stability::new(g, &runner.lines[d.line].dirs, playable));
        SolverTables {
            by_exposure,
            quarters,
            exposure_class,
            stability,
        }
    }
}

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
            let (first, second) = if self.1.exposure_class[b] < self.1.exposure_class[a] {
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
            let class = u16::from(self.1.exposure_class[cell]);
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
        self.1.quarters.iter().fold(B::EMPTY, |odd, &quarter| {
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
            classes: &self.1.by_exposure,
            // No classes, no cells (and no placements).
            part: if self.1.by_exposure.is_empty() { 2 } else { 0 },
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
