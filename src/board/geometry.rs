//! The board's shape: cell numbering, names, and neighbour tables computed once per game.

use super::bits::Bits;

/// Directions in a fixed order; `DIRS[d]` is (column step, row step), rows growing downwards.
pub const DIRS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// A set of directions as a bit mask over `DIRS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirSet(pub u8);

impl DirSet {
    pub const ALL: DirSet = DirSet(0xff);
    pub const ORTHOGONAL: DirSet = DirSet(0b0101_0101);
    pub const DIAGONAL: DirSet = DirSet(0b1010_1010);

    /// The single directions by compass name, in the order of `DIRS`: north is towards row 1,
    /// the top of the printed board, and east towards the last column.
    pub const COMPASS: [&'static str; 8] = [
        "north",
        "northeast",
        "east",
        "southeast",
        "south",
        "southwest",
        "west",
        "northwest",
    ];

    /// What a rules file may write for a direction set, for help texts.
    pub const NAMES_HELP: &'static str = "the direction sets are all, orthogonal and diagonal, \
        and each single direction: north, northeast, east, southeast, south, southwest, west, \
        northwest (north is towards row 1)";

    pub fn by_name(name: &str) -> Option<DirSet> {
        match name {
            "all" => Some(DirSet::ALL),
            "orthogonal" => Some(DirSet::ORTHOGONAL),
            "diagonal" => Some(DirSet::DIAGONAL),
            _ => Self::COMPASS
                .iter()
                .position(|&c| c == name)
                .map(|d| DirSet(1 << d)),
        }
    }
    /// The opposite directions (direction `d + 4` is the opposite of `d`).
    pub fn reversed(self) -> DirSet {
        DirSet(self.0.rotate_left(4))
    }
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..8).filter(move |d| self.0 >> d & 1 != 0)
    }
}

/// A cell's 1-based row and column on a board `width` cells wide (row 1 at the top).
#[inline]
pub fn row_and_column(cell: usize, width: usize) -> (usize, usize) {
    (cell / width + 1, cell % width + 1)
}

/// Which edges of a rectangle are joined: with `across`, a row leaves its last column into its
/// first (a cylinder); with `down` too, a column leaves its last row into its first (a torus).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wrap {
    pub across: bool,
    pub down: bool,
}

impl Wrap {
    pub const NONE: Wrap = Wrap {
        across: false,
        down: false,
    };
    pub fn any(self) -> bool {
        self.across || self.down
    }
}

/// Marks "no cell" in neighbour tables: the edge of the board or a removed cell.
pub const NONE: u16 = u16::MAX;

#[derive(Clone, Debug)]
pub struct Geometry {
    pub width: usize,
    pub height: usize,
    /// Cells that take part in play (not removed).
    pub playable: Bits,
    /// `neighbours[cell][d]`: the playable cell one step in direction `d`, or `NONE`.
    pub neighbours: Vec<[u16; 8]>,
    /// `around[cell]`: the cell's neighbours as sets, in all directions, orthogonal only and
    /// diagonal only (the direction sets the language names), for `neighbours(c)`.
    pub around: Vec<[Bits; 3]>,
    /// For whole-set steps: the cells that have a neighbour in direction `d`, and the index
    /// offset of that neighbour.
    pub step_from: [Bits; 8],
    pub step_offset: [i32; 8],
    /// On a wrapping board, the steps across a joined edge: per direction, the cells whose
    /// neighbour lies across it and that neighbour's index offset (one entry per edge crossed,
    /// up to three for a diagonal on a torus). Empty on other boards.
    pub wrapped_steps: [Vec<(Bits, i32)>; 8],
    pub wrap: Wrap,
    /// A hexagonal board: cells in a square grid whose six neighbours are north, northeast,
    /// east, south, southwest and west (the grid's two other diagonals are not neighbours).
    pub hex: bool,
    /// The directions that join pieces into groups and empty cells into regions: the four
    /// orthogonal ones on a square board, all six on a hexagonal one.
    pub connect: DirSet,
}

impl Geometry {
    pub fn new(width: usize, height: usize, removed: &Bits) -> Geometry {
        Self::build(width, height, removed, false, Wrap::NONE)
    }

    /// A rectangle whose edges `wrap` joins.
    pub fn wrapping(width: usize, height: usize, removed: &Bits, wrap: Wrap) -> Geometry {
        Self::build(width, height, removed, false, wrap)
    }

    /// A rhombus (a parallelogram when the sides differ) of hexagonal cells: the square grid
    /// with the six neighbours of a hexagon (see [`Geometry::hex`]).
    pub fn rhombus(width: usize, height: usize, removed: &Bits) -> Geometry {
        Self::build(width, height, removed, true, Wrap::NONE)
    }

    /// A hexagon of `side` cells a side, on a square grid of 2 side - 1: the grid's cells
    /// nearest its top-left and bottom-right corners are not part of it (with `removed`).
    pub fn hexagon(side: usize, removed: &Bits) -> Geometry {
        let n = 2 * side - 1;
        let mut out = *removed;
        for c in 0..n * n {
            let (x, y) = (c % n, c / n);
            if x + y < side - 1 || x + y > 3 * (side - 1) {
                out.insert(c);
            }
        }
        Self::build(n, n, &out, true, Wrap::NONE)
    }

    /// A triangle of hexagons, `side` cells a side, on a rhombus of that side: the cells on or
    /// above the diagonal from the last cell of row 1 to the first of the last row. Its
    /// corners (a1, the end of row 1, the start of the last row) have two neighbours each.
    pub fn triangle(side: usize, removed: &Bits) -> Geometry {
        let mut out = *removed;
        for c in 0..side * side {
            if c % side + c / side >= side {
                out.insert(c);
            }
        }
        Self::build(side, side, &out, true, Wrap::NONE)
    }

    fn build(width: usize, height: usize, removed: &Bits, hex: bool, wrap: Wrap) -> Geometry {
        let cells = width * height;
        let mut playable = Bits::EMPTY;
        for c in 0..cells {
            if !removed.contains(c) {
                playable.insert(c);
            }
        }
        let neighbours: Vec<[u16; 8]> = (0..cells)
            .map(|c| {
                let (x, y) = ((c % width) as i32, (c / width) as i32);
                let mut n = [NONE; 8];
                for (d, (dx, dy)) in DIRS.iter().enumerate() {
                    // On a hexagonal grid, southeast and northwest are two steps away.
                    if hex && dx == dy {
                        continue;
                    }
                    let (mut nx, mut ny) = (x + dx, y + dy);
                    if wrap.across {
                        nx = nx.rem_euclid(width as i32);
                    }
                    if wrap.down {
                        ny = ny.rem_euclid(height as i32);
                    }
                    if nx >= 0 && ny >= 0 && (nx as usize) < width && (ny as usize) < height {
                        let nc = ny as usize * width + nx as usize;
                        // On a board one cell across, a row's wrap leads back to the cell itself.
                        if playable.contains(nc) && playable.contains(c) && nc != c {
                            n[d] = nc as u16;
                        }
                    }
                }
                n
            })
            .collect();
        let step_offset = DIRS.map(|(dx, dy)| dy * width as i32 + dx);
        let mut step_from = [Bits::EMPTY; 8];
        let mut wrapped_steps: [Vec<(Bits, i32)>; 8] = Default::default();
        for (c, n) in neighbours.iter().enumerate() {
            for d in 0..8 {
                if n[d] == NONE {
                    continue;
                }
                let offset = i32::from(n[d]) - c as i32;
                if offset == step_offset[d] {
                    step_from[d].insert(c);
                } else if let Some((from, _)) =
                    wrapped_steps[d].iter_mut().find(|(_, o)| *o == offset)
                {
                    from.insert(c);
                } else {
                    let mut from = Bits::EMPTY;
                    from.insert(c);
                    wrapped_steps[d].push((from, offset));
                }
            }
        }
        let around = neighbours
            .iter()
            .map(|n| {
                [DirSet::ALL, DirSet::ORTHOGONAL, DirSet::DIAGONAL].map(|dirs| {
                    let mut set = Bits::EMPTY;
                    for d in dirs.iter() {
                        if n[d] != NONE {
                            set.insert(n[d] as usize);
                        }
                    }
                    set
                })
            })
            .collect();
        Geometry {
            around,
            width,
            height,
            playable,
            neighbours,
            step_from,
            step_offset,
            wrapped_steps,
            wrap,
            hex,
            connect: if hex { DirSet::ALL } else { DirSet::ORTHOGONAL },
        }
    }

    /// The steps from `a` to `b` across the board, whatever lies between: king steps on a
    /// square board (the larger of the row and column differences, each the shorter way round
    /// a joined edge), steps between hexagons on a hexagonal one.
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let (w, h) = (self.width as i64, self.height as i64);
        let (ax, ay) = (a as i64 % w, a as i64 / w);
        let (bx, by) = (b as i64 % w, b as i64 / w);
        let (mut dx, mut dy) = (bx - ax, by - ay);
        if self.hex {
            // Axial coordinates: the six neighbours are the steps whose two parts and their sum
            // all lie within one.
            return dx.abs().max(dy.abs()).max((dx + dy).abs()) as usize;
        }
        if self.wrap.across {
            dx = dx.abs().min(w - dx.abs());
        }
        if self.wrap.down {
            dy = dy.abs().min(h - dy.abs());
        }
        dx.abs().max(dy.abs()) as usize
    }

    /// The most steps between two playable cells (see [`Geometry::distance`]): on a torus
    /// half the board, on a hexagon of side n, 2 n - 2.
    pub fn farthest(&self) -> usize {
        let cells: Vec<usize> = self.playable.iter().collect();
        cells
            .iter()
            .flat_map(|&a| cells.iter().map(move |&b| (a, b)))
            .map(|(a, b)| self.distance(a, b))
            .max()
            .unwrap_or(0)
    }

    /// The playable cells exactly `distance` steps from `cell` (see [`Geometry::distance`];
    /// removed cells are not in the way, so a ring reaches across them).
    pub fn ring(&self, cell: usize, distance: u16) -> impl Iterator<Item = usize> + '_ {
        self.playable
            .iter()
            .filter(move |&c| self.distance(cell, c) == usize::from(distance))
    }

    /// The playable cells strictly between two cells on one row, column or diagonal (none
    /// when they share no line).
    pub fn between(&self, a: usize, b: usize) -> impl Iterator<Item = usize> + '_ {
        let w = self.width as i32;
        let (ax, ay) = (a as i32 % w, a as i32 / w);
        let (dx, dy) = (b as i32 % w - ax, b as i32 / w - ay);
        let aligned = (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && (dx, dy) != (0, 0);
        let n = if aligned { dx.abs().max(dy.abs()) } else { 1 };
        (1..n)
            .map(move |i| ((ay + dy / n * i) * w + ax + dx / n * i) as usize)
            .filter(|&c| self.playable.contains(c))
    }

    /// The neighbours of `cell` along `dirs`.
    pub fn neighbours_of(&self, cell: usize, dirs: DirSet) -> Bits {
        let which = match dirs {
            DirSet::ALL => 0,
            DirSet::ORTHOGONAL => 1,
            DirSet::DIAGONAL => 2,
            _ => {
                let mut set = Bits::EMPTY;
                for d in dirs.iter() {
                    if self.neighbours[cell][d] != NONE {
                        set.insert(self.neighbours[cell][d] as usize);
                    }
                }
                return set;
            }
        };
        self.around[cell][which]
    }

    /// Every cell of `s` moved one step in direction `d` (cells without a neighbour there drop).
    #[inline]
    pub fn step(&self, s: &Bits, d: usize) -> Bits {
        let mut out = s.inter(&self.step_from[d]).shifted(self.step_offset[d]);
        for (from, offset) in &self.wrapped_steps[d] {
            out = out.union(&s.inter(from).shifted(*offset));
        }
        out
    }

    /// Every shift that makes up a step in direction `d`: the cells that take it and its
    /// offset, the step within the edges first, then those across joined edges (none
    /// empty).
    pub fn steps(&self, d: usize) -> impl Iterator<Item = (Bits, i32)> + '_ {
        std::iter::once((self.step_from[d], self.step_offset[d]))
            .chain(self.wrapped_steps[d].iter().copied())
            .filter(|(from, _)| !from.is_empty())
    }

    /// Whether direction `d` has any step on this board (a diagonal on a board one cell wide
    /// has none).
    pub fn has_steps(&self, d: usize) -> bool {
        self.steps(d).next().is_some()
    }

    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Where a leap of `columns` and `rows` from `cell` lands: a playable cell other than
    /// `cell`, across joined edges where the board has them.
    pub fn leap(&self, cell: usize, (columns, rows): (i32, i32)) -> Option<usize> {
        if !self.playable.contains(cell) {
            return None;
        }
        let (w, h) = (self.width as i64, self.height as i64);
        let (mut x, mut y) = (
            (cell % self.width) as i64 + i64::from(columns),
            (cell / self.width) as i64 + i64::from(rows),
        );
        if self.wrap.across {
            x = x.rem_euclid(w);
        }
        if self.wrap.down {
            y = y.rem_euclid(h);
        }
        let to = (0..w).contains(&x) && (0..h).contains(&y);
        let to = to.then(|| (y * w + x) as usize)?;
        (to != cell && self.playable.contains(to)).then_some(to)
    }

    /// The leaps by `vectors` as parts a set can be shifted by: the cells a leap takes by
    /// each offset, for `sets::stepped`.
    pub fn leap_steps(&self, vectors: &[(i32, i32)]) -> Vec<(Bits, i32)> {
        let mut parts: Vec<(Bits, i32)> = Vec::new();
        for cell in 0..self.cells() {
            for &v in vectors {
                let Some(to) = self.leap(cell, v) else {
                    continue;
                };
                let offset = to as i32 - cell as i32;
                match parts.iter_mut().find(|(_, o)| *o == offset) {
                    Some((from, _)) => from.insert(cell),
                    None => {
                        let mut from = Bits::EMPTY;
                        from.insert(cell);
                        parts.push((from, offset));
                    }
                }
            }
        }
        parts
    }

    /// The cell at 1-based column and row, if on the board.
    pub fn at(&self, col: i64, row: i64) -> Option<usize> {
        if col >= 1 && row >= 1 && col as usize <= self.width && row as usize <= self.height {
            Some((row as usize - 1) * self.width + col as usize - 1)
        } else {
            None
        }
    }

    /// Othello-style name: column letter, then 1-based row from the top.
    pub fn name(&self, cell: usize) -> String {
        let col = (b'a' + (cell % self.width) as u8) as char;
        format!("{col}{}", cell / self.width + 1)
    }

    /// Parses a cell name at the start of `text`; returns the cell and the bytes used.
    /// The longest row number that is on the board wins, so `a10` is not read as `a1`.
    pub fn parse_prefix(&self, text: &str) -> Option<(usize, usize)> {
        let bytes = text.as_bytes();
        let first = *bytes.first()?;
        if !first.is_ascii_lowercase() {
            return None;
        }
        let col = i64::from(first - b'a') + 1;
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        for len in (1..=digits.min(3)).rev() {
            let row: i64 = text[1..=len].parse().ok()?;
            if let Some(cell) = self.at(col, row) {
                return Some((cell, 1 + len));
            }
        }
        None
    }

    /// Parses a whole cell name.
    pub fn parse(&self, text: &str) -> Option<usize> {
        match self.parse_prefix(text) {
            Some((cell, used)) if used == text.len() => Some(cell),
            _ => None,
        }
    }

    /// Cells on the outermost ring.
    pub fn border(&self) -> Bits {
        let mut b = Bits::EMPTY;
        for c in 0..self.cells() {
            let (x, y) = (c % self.width, c / self.width);
            if x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height {
                b.insert(c);
            }
        }
        b
    }

    pub fn corners(&self) -> Bits {
        let mut b = Bits::EMPTY;
        let (w, h) = (self.width, self.height);
        for c in [0, w - 1, (h - 1) * w, h * w - 1] {
            b.insert(c);
        }
        b
    }

    /// Rows `a..=b` (1-based) intersected with columns `c..=d`.
    pub fn rect(&self, cols: (i64, i64), rows: (i64, i64)) -> Bits {
        let mut b = Bits::EMPTY;
        for c in 0..self.cells() {
            let (x, y) = ((c % self.width) as i64 + 1, (c / self.width) as i64 + 1);
            if x >= cols.0 && x <= cols.1 && y >= rows.0 && y <= rows.1 {
                b.insert(c);
            }
        }
        b
    }
}
