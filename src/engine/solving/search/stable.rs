//! Pieces that no placement can ever capture, for the margin search's cut-offs (`counted`):
//! a side's stable pieces are a floor under its final count, so a bound on every margin the
//! position can still end with.
//!
//! A piece is captured only inside a run that a placement on one side of it closes with an
//! end on the other, along one line of the rules. Along each axis (a direction of the line
//! and its opposite), a piece is safe when its line along that axis holds no empty cell
//! (nothing can be placed on it), when one of its two neighbours along it is off the board
//! (a run through it would need a cell there), or when one of them is a piece of its own side
//! already known to be stable: a run through the piece would hold that neighbour too, and
//! capture it. A piece safe along every axis is stable. The set grows from none, each piece
//! on the strength of pieces found before it, so the reasoning never goes round in a circle.
//!
//! This holds for a game whose pieces change only by the captures of its line (as the
//! margin search's own turns make them) and whose run never ends on a piece of the side it
//! captures: the closing cell is then never the neighbour that protects.

use crate::board::geometry::{Geometry, NONE};
use crate::board::sets::Board;

/// One axis of the board: a direction and its opposite, as steps.
struct Axis<B> {
    /// The cells with a neighbour each way, the steps that land on them, and the offsets.
    from: [B; 2],
    offset: [i32; 2],
    /// The cells with no neighbour one way or the other: always safe along the axis.
    edge: B,
    /// The board's lines along the axis, two cells long or more.
    lines: Vec<B>,
}

/// The axes of a line's directions, for [`Stability::stable`].
pub(crate) struct Stability<B> {
    axes: Vec<Axis<B>>,
}

impl<B: Board> Stability<B> {
    /// The axes of the directions `dirs` on `g`; None when some direction's opposite is not
    /// among them (a run could then cross a piece one way only, which the reasoning above
    /// does not cover) or the board joins its edges.
    pub(crate) fn new(g: &Geometry, dirs: &[usize], playable: B) -> Option<Stability<B>> {
        if g.wrap.any() {
            return None;
        }
        let mut axes = Vec::new();
        for &d in dirs {
            let back = (d + 4) % 8;
            if !dirs.contains(&back) {
                return None;
            }
            if d > back {
                continue;
            }
            let from = [d, back].map(|x| B::from_bits(&g.step_from[x]));
            let mut lines = Vec::new();
            for start in 0..g.cells() {
                // A line starts at a cell with no neighbour the back way.
                if g.neighbours[start][back] != NONE {
                    continue;
                }
                let (mut line, mut at) = (B::EMPTY, start as u16);
                while at != NONE {
                    line = line | B::single(usize::from(at));
                    at = g.neighbours[usize::from(at)][d];
                }
                if line.count() >= 2 {
                    lines.push(line & playable);
                }
            }
            axes.push(Axis {
                from,
                offset: [d, back].map(|x| g.step_offset[x]),
                edge: playable & !(from[0] & from[1]),
                lines,
            });
        }
        Some(Stability { axes })
    }

    /// The pieces of `side` that no placement can capture while `empty` are the empty cells.
    #[inline]
    pub(crate) fn stable(&self, side: B, empty: B) -> B {
        // Per axis, the cells safe whatever their neighbours: at an edge, or on a full line.
        let mut safe = [B::EMPTY; 4];
        let mut stable = side;
        for (axis, safe) in self.axes.iter().zip(&mut safe) {
            let mut full = axis.edge;
            for &line in &axis.lines {
                if (line & empty).is_empty() {
                    full = full | line;
                }
            }
            *safe = full;
            stable = stable & full;
        }
        loop {
            let mut grown = side;
            for (axis, &safe) in self.axes.iter().zip(&safe) {
                let held = (stable & axis.from[0]).shifted(axis.offset[0])
                    | (stable & axis.from[1]).shifted(axis.offset[1]);
                grown = grown & (safe | held);
            }
            if grown == stable {
                return stable;
            }
            stable = grown;
        }
    }
}
