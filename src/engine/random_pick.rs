//! Drawing a random legal step where candidates must be tried (an option whose body can fail a
//! `require`). Playouts and single random steps draw through [`draw_tried`], so one seed
//! gives one game either way.

use super::rng::Rng;
use super::step::Step;

/// Refused candidates noted in place, per step; past them, more are noted on the heap (rare:
/// a step that refuses that many candidates).
const IN_PLACE: usize = 32;

/// Draws candidates `0..len` (the i-th is `nth(i)`) without replacement until `try_one`
/// accepts one, and returns what it gave (None when every candidate was refused).
///
/// The draws are those of a list of every candidate from which a refused one is swap-removed
/// (the last takes its place); but the list is never built: a large board has hundreds of
/// candidates and seldom refuses one, so only the swaps are noted.
#[inline(always)]
pub(crate) fn draw_tried<T, E>(
    len: usize,
    nth: impl Fn(usize) -> Step,
    rng: &mut Rng,
    swaps: &mut Swaps,
    mut try_one: impl FnMut(Step) -> Result<Option<T>, E>,
) -> Result<Option<T>, E> {
    // Candidates are cells and options, far fewer than an index can count.
    debug_assert!(u16::try_from(len).is_ok());
    swaps.clear();
    let mut len = len;
    while len > 0 {
        let i = rng.below(len);
        if let Some(found) = try_one(swaps.find(i).unwrap_or_else(|| nth(i)))? {
            return Ok(Some(found));
        }
        let last = swaps.find(len - 1).unwrap_or_else(|| nth(len - 1));
        swaps.push((i as u16, last));
        len -= 1;
    }
    Ok(None)
}

/// The swaps made so far: (index, candidate now there), latest last; the latest at an index
/// is the one that holds. A playout keeps one for all its steps: making the room in place
/// afresh for every step was a twentieth of a Go playout's time.
pub(crate) struct Swaps {
    in_place: [(u16, Step); IN_PLACE],
    held: usize,
    spilled: Vec<(u16, Step)>,
}

impl Default for Swaps {
    fn default() -> Swaps {
        Swaps {
            in_place: [(0, Step { alt: 0, value: 0 }); IN_PLACE],
            held: 0,
            spilled: Vec::new(),
        }
    }
}

impl Swaps {
    /// Forgets every swap (a new step's draw).
    #[inline(always)]
    fn clear(&mut self) {
        self.held = 0;
        self.spilled.clear();
    }

    #[inline(always)]
    fn push(&mut self, swap: (u16, Step)) {
        match self.in_place.get_mut(self.held) {
            Some(slot) => {
                *slot = swap;
                self.held += 1;
            }
            None => self.spilled.push(swap),
        }
    }

    /// The candidate the latest swap at `i` put there, if any did.
    #[inline(always)]
    fn find(&self, i: usize) -> Option<Step> {
        let latest = |swaps: &[(u16, Step)]| {
            swaps
                .iter()
                .rev()
                .find(|&&(j, _)| j as usize == i)
                .map(|&(_, step)| step)
        };
        // The heap holds swaps only past the ones in place (seldom): ask it only then.
        if self.held == IN_PLACE {
            if let Some(step) = latest(&self.spilled) {
                return Some(step);
            }
        }
        latest(&self.in_place[..self.held])
    }
}
