//! Lines on a board with joined edges, when the board fills one machine word: a step across
//! a joined edge is then a rotation of the board's cells, so every direction's step is at
//! most two rotations (with or without crossing the east-west edge; crossing north-south is
//! the same rotation as not crossing), and the line's eight directions step as eight lanes
//! at once, which vector units do in one go. Runs are bounded per direction, as the walks
//! are, so that a run never comes round to its own start. This finds where lines start, for
//! all cells at once; a placement's captures are found in a moved frame
//! ([`super::translations`]) or, where none straightens the walks, walked.

use crate::board::geometry::Geometry;
use crate::board::sets::Board;

/// A direction's step as eight lanes (one per direction of the line, unused ones empty): the
/// set rotates by each part's amount, and the part keeps the cells it lands on.
#[derive(Clone, Copy)]
struct Step<B> {
    lands: [[B; 8]; 2],
    by: [[u32; 8]; 2],
}

impl<B: Board> Step<B> {
    /// Every lane's cells one step along its direction, kept where `within` (a subset of
    /// `lands`) allows, on a board of `cells` cells. Masking after the rotation rather than
    /// before keeps a step to a rotation and a mask on the path from one step to the next.
    #[inline(always)]
    fn of(&self, s: [B; 8], within: &[[B; 8]; 2], cells: u32) -> [B; 8] {
        // Loops over the lanes rather than `array::from_fn`, which was left a call.
        let mut out = [B::EMPTY; 8];
        for i in 0..8 {
            out[i] = (s[i].rotated(self.by[0][i], cells) & within[0][i])
                | (s[i].rotated(self.by[1][i], cells) & within[1][i]);
        }
        out
    }

    /// `lands`, each lane kept to `keep`.
    #[inline(always)]
    fn within(&self, keep: [B; 8]) -> [[B; 8]; 2] {
        let mut out = self.lands;
        for part in &mut out {
            for i in 0..8 {
                part[i] = part[i] & keep[i];
            }
        }
        out
    }
}

pub(crate) struct Rotations<B> {
    cells: u32,
    back: Step<B>,
    /// `alive[k]`: full in the lanes whose runs may hold more than `k` cells, empty in the
    /// others (see `WalkBack`'s `longest`).
    alive: Vec<[B; 8]>,
}

impl<B: Board> Rotations<B> {
    /// For a wrapping board of one word whose every direction steps by at most two rotations;
    /// None otherwise. `longest[k]`: the most cells a run can hold along `dirs[k]`.
    pub(crate) fn new(g: &Geometry, dirs: &[usize], longest: &[u32]) -> Option<Rotations<B>> {
        let cells = g.cells();
        if cells > 64 || cells > B::CELLS || dirs.len() > 8 {
            return None;
        }
        let step = |dir_of: &dyn Fn(usize) -> usize| -> Option<Step<B>> {
            let mut step = Step {
                lands: [[B::EMPTY; 8]; 2],
                by: [[0; 8]; 2],
            };
            for (lane, &d) in dirs.iter().enumerate() {
                let mut used = 0;
                for (from, offset) in g.steps(dir_of(d)) {
                    let by = offset.rem_euclid(cells as i32) as u32;
                    let part = match (0..used).find(|&p| step.by[p][lane] == by) {
                        Some(p) => p,
                        None if used < 2 => {
                            used += 1;
                            used - 1
                        }
                        None => return None,
                    };
                    step.by[part][lane] = by;
                    step.lands[part][lane] =
                        step.lands[part][lane] | B::from_bits(&from).rotated(by, cells as u32);
                }
            }
            Some(step)
        };
        let back = step(&|d| (d + 4) % 8)?;
        let most = longest.iter().copied().max().unwrap_or(0);
        let alive = (0..most)
            .map(|k| {
                std::array::from_fn(|lane| match longest.get(lane) {
                    Some(&n) if n > k => !B::EMPTY,
                    _ => B::EMPTY,
                })
            })
            .collect();
        Some(Rotations {
            cells: cells as u32,
            back,
            alive,
        })
    }

    /// Every cell from which a run of `run` cells closed by an `end` cell starts, along any
    /// of the line's directions: runs grown backwards from the closing cells.
    #[inline(always)]
    pub(crate) fn sources(&self, run: B, end: B) -> B {
        // A board that fills its word rotates in one instruction: the constant lets the
        // compiler see it.
        if self.cells as usize == B::CELLS {
            self.sources_on(run, end, B::CELLS as u32)
        } else {
            self.sources_on(run, end, self.cells)
        }
    }

    #[inline(always)]
    fn sources_on(&self, run: B, end: B, cells: u32) -> B {
        let mut reach = [end; 8];
        let mut runs = [B::EMPTY; 8];
        // A fixed number of rounds: stopping once no run grows was slower (measured).
        for alive in &self.alive {
            let within = self.back.within(std::array::from_fn(|i| run & alive[i]));
            reach = self.back.of(reach, &within, cells);
            for i in 0..8 {
                runs[i] = runs[i] | reach[i];
            }
        }
        self.back
            .of(runs, &self.back.lands, cells)
            .into_iter()
            .fold(B::EMPTY, |out, s| out | s)
    }
}
