//! A placement's captures on a board with joined edges, found as a flat board finds them.
//!
//! Moving every cell along the joined axes (a column rotation for a cylinder, a column and a
//! row rotation for a torus) so that the placed cell lands in the first column (and row) is
//! a renumbering of the cells: done to the run and end sets, it leaves each of the cell's
//! walks in an order where cell numbers only grow or only fall, on a square board at least.
//! The nearest cell that closes a run is then the lowest or highest of a set, for all
//! directions at once, instead of a walk a direction and a piece at a time. Built only where
//! every walk from every cell checks out that way.

use super::rays::nearest_captures;
use crate::board::geometry::{Geometry, NONE};
use crate::board::sets::Board;

/// How one cell's frame is entered and left, and its walks inside it.
#[derive(Clone, Copy)]
struct Frame<B> {
    /// Columns at or past the cell's, which enter the frame moving down by `left` cells;
    /// the others move up by `right` (the width less `left`) in their row.
    stays: B,
    left: B,
    right: B,
    /// In the frame, the columns that leave it moving up by `left` (the others move down by
    /// `right`).
    returns: B,
    /// Row rotations into the frame and out of it, in cells.
    rows_in: u32,
    rows_out: u32,
    /// The cell's walks in the frame, lanes 0 - 3 in growing cell order, 4 - 7 falling, as
    /// [`nearest_captures`] takes them.
    rays: [B; 8],
}

impl<B: Board> Frame<B> {
    #[inline(always)]
    fn enter(&self, s: B, cells: u32) -> B {
        ((s & self.stays).down(self.left) | (s & !self.stays).up(self.right))
            .rotated(self.rows_in, cells)
    }

    #[inline(always)]
    fn leave(&self, s: B, cells: u32) -> B {
        let s = s.rotated(self.rows_out, cells);
        (s & self.returns).up(self.left) | (s & !self.returns).down(self.right)
    }
}

pub(crate) struct Translations<B> {
    cells: u32,
    frames: Vec<Frame<B>>,
}

impl<B: Board> Translations<B> {
    /// For a rectangle with joined edges of at most two words whose line along `dirs`, from
    /// every cell, runs one way in cell order once moved; None otherwise (a torus whose
    /// sides differ, where a diagonal crosses both edges apart).
    pub(crate) fn new(g: &Geometry, dirs: &[usize]) -> Option<Translations<B>> {
        let (w, h) = (g.width, g.height);
        let cells = g.cells();
        if !g.wrap.any() || g.hex || cells > 128 || cells > B::CELLS || w * h != cells {
            return None;
        }
        let set =
            |cells: &mut dyn Iterator<Item = usize>| cells.fold(B::EMPTY, |s, c| s | B::single(c));
        let mut frames = Vec::with_capacity(cells);
        for from in 0..cells {
            let dx = if g.wrap.across { from % w } else { 0 };
            let dy = if g.wrap.down { from / w } else { 0 };
            let moved = |c: usize| ((c / w + h - dy) % h) * w + (c % w + w - dx) % w;
            let mut walks: Vec<Vec<usize>> = dirs
                .iter()
                .map(|&d| {
                    let mut walk = Vec::new();
                    let mut at = g.neighbours[from][d];
                    while at != NONE && usize::from(at) != from {
                        walk.push(moved(usize::from(at)));
                        at = g.neighbours[usize::from(at)][d];
                    }
                    walk
                })
                .collect();
            // A walk of one cell runs both ways: those take whichever lanes the others leave.
            walks.sort_by_key(|walk| walk.len() < 2);
            let mut rays = [B::EMPTY; 8];
            let mut filled = [0, 4];
            for walk in walks.into_iter().filter(|walk| !walk.is_empty()) {
                let rising = walk.windows(2).all(|p| p[0] < p[1]);
                let falling = walk.windows(2).all(|p| p[0] > p[1]);
                let half = if rising && (filled[0] < 4 || !falling) {
                    0
                } else if falling {
                    1
                } else {
                    return None;
                };
                if filled[half] == 4 * (half + 1) {
                    return None;
                }
                rays[filled[half]] = set(&mut walk.into_iter());
                filled[half] += 1;
            }
            let stays = set(&mut (0..cells).filter(|c| c % w >= dx));
            let returns = set(&mut (0..cells).filter(|c| c % w < w - dx));
            frames.push(Frame {
                stays,
                left: B::amount(dx as u32),
                right: B::amount((w - dx) as u32),
                returns,
                rows_in: ((h - dy) % h * w) as u32,
                rows_out: (dy * w) as u32,
                rays,
            });
        }
        Some(Translations {
            cells: cells as u32,
            frames,
        })
    }

    /// The cells a run of `run` cells closed by an `end` cell captures from `from` (with
    /// `ends`, the closing cells instead), along any of the line's directions.
    #[inline(always)]
    pub(crate) fn captures(&self, from: usize, run: B, end: B, ends: bool) -> B {
        let f = &self.frames[from];
        let found = nearest_captures(
            &f.rays,
            f.enter(run, self.cells),
            f.enter(end, self.cells),
            ends,
        );
        f.leave(found, self.cells)
    }
}
