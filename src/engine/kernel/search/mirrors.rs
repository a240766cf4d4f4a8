//! The board's symmetries as the solver's table uses them: maps of its 128-bit sets, by
//! which each position is keyed by the least of its images.

use crate::ir::Game;

/// The board's symmetries ([`Game::symmetries`]) as maps of the table's 128-bit sets: a
/// position is keyed by the least of its images, so the table holds one entry for all of
/// them, and a position that is its own image offers each of its moves' images once.
#[derive(Clone)]
pub(super) struct Mirrors {
    /// Per symmetry, per byte of a set, the images of the byte's 256 values.
    pub(super) bytes: Vec<Vec<[u128; 256]>>,
    /// Per symmetry, where it sends each cell, and where its inverse does.
    pub(super) cells: Vec<[u8; 128]>,
    pub(super) back: Vec<[u8; 128]>,
}

impl Mirrors {
    pub(super) fn new(game: &Game) -> Mirrors {
        let cells = game.geometry.width * game.geometry.height;
        let mut m = Mirrors {
            bytes: Vec::new(),
            cells: Vec::new(),
            back: Vec::new(),
        };
        // The table's keys hold boards of at most 128 cells; no larger board is solved.
        if cells > 128 {
            return m;
        }
        for sym in &game.symmetries {
            let (mut to, mut back) = ([0u8; 128], [0u8; 128]);
            for (c, &image) in sym.cells.iter().enumerate() {
                to[c] = image as u8;
                back[usize::from(image)] = c as u8;
            }
            let bytes = (0..cells.div_ceil(8))
                .map(|k| {
                    let mut images = [0u128; 256];
                    for (v, image) in images.iter_mut().enumerate() {
                        for bit in (0..8).filter(|b| v >> b & 1 != 0 && 8 * k + b < cells) {
                            *image |= 1 << to[8 * k + bit];
                        }
                    }
                    images
                })
                .collect();
            m.bytes.push(bytes);
            m.cells.push(to);
            m.back.push(back);
        }
        m
    }

    /// The image of set `b` under symmetry `i`.
    #[inline]
    pub(super) fn image(&self, i: usize, b: u128) -> u128 {
        self.bytes[i]
            .iter()
            .enumerate()
            .fold(0, |out, (k, images)| {
                out | images[(b >> (8 * k)) as u8 as usize]
            })
    }

    /// The symmetries that map the boards `(a, b)` onto themselves, as a mask.
    pub(super) fn fixing(&self, a: u128, b: u128) -> u32 {
        (0..self.bytes.len())
            .filter(|&i| self.image(i, a) == a && self.image(i, b) == b)
            .fold(0, |mask, i| mask | 1 << i)
    }
}
