//! Drawing a random legal step where candidates must be tried (an option whose body can fail a
//! `require`). Both runners draw through [`draw_tried`], so one seed gives one playout on
//! either.

use super::rng::Rng;
use super::Step;

/// Refused candidates noted in place, per step. Past them the interpreter notes more on the
/// heap and the kernel, which must not allocate, gives up.
const IN_PLACE: usize = 32;

/// Draws candidates `0..len` (the i-th is `nth(i)`) without replacement until `try_one`
/// accepts one, and returns what it gave (None when every candidate was refused).
///
/// The draws are those of a list of every candidate from which a refused one is swap-removed
/// (the last takes its place); but the list is never built: a large board has hundreds of
/// candidates and seldom refuses one, so only the swaps are noted. With `give_up` set, a step
/// that refuses more than [`IN_PLACE`] candidates stops with that error instead of noting
/// the rest on the heap.
#[inline(always)]
pub(crate) fn draw_tried<T, E>(
    len: usize,
    nth: impl Fn(usize) -> Step,
    rng: &mut Rng,
    give_up: Option<E>,
    mut try_one: impl FnMut(Step) -> Result<Option<T>, E>,
) -> Result<Option<T>, E> {
    // Candidates are cells and options, far fewer than an index can count.
    debug_assert!(len <= u16::MAX as usize);
    let mut swaps = Swaps {
        in_place: [(0, Step { alt: 0, value: 0 }); IN_PLACE],
        held: 0,
        spilled: Vec::new(),
    };
    let mut give_up = give_up;
    let mut len = len;
    while len > 0 {
        let i = rng.below(len);
        if let Some(found) = try_one(swaps.find(i).unwrap_or_else(|| nth(i)))? {
            return Ok(Some(found));
        }
        if swaps.held == IN_PLACE {
            if let Some(e) = give_up.take() {
                return Err(e);
            }
        }
        let last = swaps.find(len - 1).unwrap_or_else(|| nth(len - 1));
        swaps.push((i as u16, last));
        len -= 1;
    }
    Ok(None)
}

/// The swaps made so far: (index, candidate now there), latest last; the latest at an index
/// is the one that holds.
struct Swaps {
    in_place: [(u16, Step); IN_PLACE],
    held: usize,
    spilled: Vec<(u16, Step)>,
}

impl Swaps {
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
    fn find(&self, i: usize) -> Option<Step> {
        self.spilled
            .iter()
            .rev()
            .chain(self.in_place[..self.held].iter().rev())
            .find(|&&(j, _)| j as usize == i)
            .map(|&(_, step)| step)
    }
}
