//! What a placement captures along rays of cells ordered away from it: the walks of a flat
//! board and of a renumbered board with joined edges (see `translations`) both end here.

use crate::board::sets::Board;

/// For a run of `run` cells closed by an `end` cell: what it captures along each of `rays`
/// (with `ends`, the closing cells instead), where the cells of rays 0 - 3 grow in number
/// away from the start and those of rays 4 - 7 fall.
#[inline(always)]
pub(crate) fn nearest_captures<B: Board>(rays: &[B; 8], run: B, end: B, ends: bool) -> B {
    let mut out = B::EMPTY;
    for (lane, &cells) in rays.iter().enumerate() {
        // The first cell along the lane that is not of the run's class closes it: the
        // nearest is the lowest going up, the highest going down.
        let stops = cells & !run;
        let (stop, taken) = if lane < 4 {
            let stop = stops.lowest_bit();
            (stop, cells & stop.below())
        } else {
            let stop = stops.highest_bit();
            (stop, cells & !stop.below() & !stop)
        };
        // A run of none is no match (`X+`): its closing cell is no end. (Captures need no
        // test, an empty run adds nothing.)
        if !(stop & end).is_empty() && (!ends || !taken.is_empty()) {
            out = out | if ends { stop } else { taken };
        }
    }
    out
}
