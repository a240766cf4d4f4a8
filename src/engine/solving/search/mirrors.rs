//! The board's symmetries as the solver's table uses them: maps of its 128-bit sets, by
//! which each position is keyed by the least of its images.

use std::cell::Cell;

use crate::board::sets::Board;
use crate::ir::Game;

/// The board's symmetries ([`Game::symmetries`]) as maps of the table's 128-bit sets: a
/// position is keyed by the least of its images, so the table holds one entry for all of
/// them, and a position that is its own image offers each of its moves' images once.
#[derive(Clone)]
pub(super) struct Mirrors {
    /// Per symmetry, per byte of a set, the images of the byte's 256 values: in 64 bits
    /// where the board has at most 64 cells (`narrow`), else in 128 (`wide`); the other is
    /// empty. Half the bytes keep a 6x6 board's seven symmetries' tables (70 KB) nearer to
    /// the first-level cache, and an image is a chain of single-word ORs.
    narrow: Vec<Vec<[u64; 256]>>,
    wide: Vec<Vec<[u128; 256]>>,
    /// Per symmetry, where it sends each cell, and where its inverse does.
    pub(super) cells: Vec<[u8; 128]>,
    pub(super) back: Vec<[u8; 128]>,
}

impl Mirrors {
    pub(super) fn new(game: &Game) -> Mirrors {
        let cells = game.geometry.width * game.geometry.height;
        let mut m = Mirrors {
            narrow: Vec::new(),
            wide: Vec::new(),
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
            let bytes: Vec<[u128; 256]> = (0..cells.div_ceil(8))
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
            if cells <= 64 {
                // Every image of a board of 64 cells lies in the low word.
                m.narrow
                    .push(bytes.iter().map(|b| b.map(|x| x as u64)).collect());
            } else {
                m.wide.push(bytes);
            }
            m.cells.push(to);
            m.back.push(back);
        }
        m
    }

    /// How many symmetries there are (none for a board beyond the table's keys).
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.cells.len()
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The image of set `b` under symmetry `i`.
    #[inline]
    pub(super) fn image(&self, i: usize, b: u128) -> u128 {
        match self.narrow.get(i) {
            Some(bytes) => u128::from(image_in(bytes, b as u64)),
            None => image_in(&self.wide[i], b),
        }
    }

    /// The symmetries that map the boards `(a, b)` onto themselves, as a mask.
    fn fixing(&self, a: u128, b: u128) -> u32 {
        (0..self.len())
            .filter(|&i| self.image(i, a) == a && self.image(i, b) == b)
            .fold(0, |mask, i| mask | 1 << i)
    }
}

/// The image of `b` by the images of its bytes, `bytes` (for sets of one or two words).
#[inline(always)]
fn image_in<B: Board>(bytes: &[[B; 256]], b: B) -> B {
    (bytes.iter().zip(0..)).fold(B::EMPTY, |out, (images, k)| {
        out | images[b.down(B::amount(8 * k)).to_u128() as u8 as usize]
    })
}

/// What keying pairs of boards found lately ([`Keyed::least`]), by a hash of the boards. The
/// search keys a position's children to look them up before it searches any
/// ([`Tree::looks_ahead`](crate::engine::negamax::Tree::looks_ahead)), keys the one it
/// searches again on entering it, and lists that one's children right after, which asks
/// which symmetries map it onto itself: each of those made every image again (a table lookup
/// per byte of each board, per symmetry). A clone starts with what the original knew.
#[derive(Clone, Default)]
pub(super) struct Keyed([Cell<KeyedBoards>; KEYED_PLACES]);

/// Places in a [`Keyed`].
const KEYED_PLACES: usize = 16;

/// The boards of one keying, the least of their images and the frame that image is in
/// (0: the boards themselves; `i + 1`: symmetry `i`), and the symmetries that map the boards
/// onto themselves, as a mask.
#[derive(Clone, Copy)]
struct KeyedBoards {
    boards: (u128, u128),
    least: (u128, u128),
    frame: u8,
    fixing: u32,
}

impl Default for KeyedBoards {
    /// A place that no position's boards match: no cell is both players'.
    fn default() -> KeyedBoards {
        KeyedBoards {
            boards: (u128::MAX, u128::MAX),
            least: (0, 0),
            frame: 0,
            fixing: 0,
        }
    }
}

impl Keyed {
    fn place(&self, (a, b): (u128, u128)) -> &Cell<KeyedBoards> {
        &self.0[(super::boards_hash(a, b) >> 60) as usize % KEYED_PLACES]
    }

    /// The least of the boards `(a, b)` and their images by `mirrors`' symmetries, compared
    /// by the first board and then the second, with its frame.
    pub(super) fn least(&self, mirrors: &Mirrors, a: u128, b: u128) -> (u128, u128, u8) {
        let known = self.keyed(mirrors, (a, b));
        (known.least.0, known.least.1, known.frame)
    }

    /// [`Mirrors::fixing`] of the boards `(a, b)`, found with their key where they were
    /// keyed lately.
    pub(super) fn fixing(&self, mirrors: &Mirrors, a: u128, b: u128) -> u32 {
        let known = self.place((a, b)).get();
        if known.boards == (a, b) {
            known.fixing
        } else {
            mirrors.fixing(a, b)
        }
    }

    fn keyed(&self, mirrors: &Mirrors, (a, b): (u128, u128)) -> KeyedBoards {
        let place = self.place((a, b));
        let known = place.get();
        if known.boards == (a, b) {
            return known;
        }
        let mut least = (a, b, 0);
        let mut fixing = 0;
        for i in 0..mirrors.len() {
            // An image whose first set is larger loses whatever its second is.
            let image_a = mirrors.image(i, a);
            if image_a == a && mirrors.image(i, b) == b {
                fixing |= 1 << i;
            }
            if image_a > least.0 {
                continue;
            }
            let image = (image_a, mirrors.image(i, b));
            if image < (least.0, least.1) {
                least = (image.0, image.1, i as u8 + 1);
            }
        }
        let keyed = KeyedBoards {
            boards: (a, b),
            least: (least.0, least.1),
            frame: least.2,
            fixing,
        };
        place.set(keyed);
        keyed
    }
}
