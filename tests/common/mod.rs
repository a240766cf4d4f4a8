//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub(crate) mod lsp;
pub(crate) mod run;
pub(crate) mod serve;

use outflank::check::{check, CheckError};
use outflank::engine::Engine;
use outflank::source::{read_source, FsLoader};

/// Loads a rules file (path relative to the crate) with parameter overrides.
pub(crate) fn engine(path: &str, set: &[(&str, &str)]) -> Engine {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let source = read_source(path).unwrap();
    let overrides: Vec<(String, String)> = set
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    match check(source, &FsLoader, &overrides) {
        Ok(c) => Engine::new(c.game),
        Err(CheckError::Rules(d)) => panic!("{path}:\n{}", d.render(false, 100)),
        Err(CheckError::Setting(m)) => panic!("{path}: {m}"),
    }
}

/// Checks rules written in a test (no `extends`); they must be valid.
pub(crate) fn engine_from(rules: &str) -> Engine {
    let checked = check(
        outflank::source::SourceFile::new("t.rules", rules),
        &outflank::source::NoFiles,
        &[],
    )
    .unwrap_or_else(|_| panic!("the test rules must check"));
    Engine::new(checked.game)
}

/// The game files shipped in games/.
pub(crate) fn game_files() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rules"))
        .map(|n| format!("games/{n}"))
        .collect();
    files.sort();
    files
}

/// A plain Othello / Reversi written from the rule texts, independent of the interpreter:
/// a mailbox board, and the rules spelled out in Rust. Used as an oracle.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Plain {
    pub size: usize,
    /// 0 empty, 1 black, 2 white, 3 a joker (it ends either player's line as their own
    /// disc would, and is never taken), 4 a stone (it ends every line, as the edge does);
    /// row-major from the top-left.
    pub cells: Vec<u8>,
    /// 1 or 2.
    pub to_move: u8,
    /// BrainKing: the centre four must be filled before outflanking starts.
    pub centre_opening: bool,
    /// Gravity Othello: a disc rests only on the bottom row or on a disc.
    pub gravity: bool,
    /// Joined edges: the columns (a row runs on from the last column into the first) and
    /// the rows (a column runs on from the bottom row into the top).
    pub wrap_columns: bool,
    pub wrap_rows: bool,
    /// Cells cut out of the board: they hold nothing and end every line, as the edge does.
    pub holes: Vec<usize>,
}

impl Plain {
    pub(crate) fn othello(size: usize) -> Plain {
        let mut p = Plain {
            size,
            cells: vec![0; size * size],
            to_move: 1,
            centre_opening: false,
            gravity: false,
            wrap_columns: false,
            wrap_rows: false,
            holes: Vec::new(),
        };
        let h = size / 2;
        // White on d4 and e5, black on e4 and d5 (for size 8).
        p.set(h - 1, h - 1, 2);
        p.set(h, h, 2);
        p.set(h, h - 1, 1);
        p.set(h - 1, h, 1);
        p
    }

    pub(crate) fn brainking(size: usize) -> Plain {
        Plain {
            size,
            cells: vec![0; size * size],
            to_move: 1,
            centre_opening: true,
            gravity: false,
            wrap_columns: false,
            wrap_rows: false,
            holes: Vec::new(),
        }
    }

    /// Octagon Othello: 10 x 10 less the corner cell and its two edge neighbours at each
    /// corner.
    pub(crate) fn octagon() -> Plain {
        let n = 10;
        let mut holes = Vec::new();
        for (x, y) in [(0, 0), (1, 0), (0, 1)] {
            for (fx, fy) in [
                (x, y),
                (n - 1 - x, y),
                (x, n - 1 - y),
                (n - 1 - x, n - 1 - y),
            ] {
                holes.push(fy * n + fx);
            }
        }
        Plain {
            holes,
            ..Plain::othello(n)
        }
    }

    /// Othello on a cylinder (the columns wrap) or, with `torus`, a torus (the rows too).
    pub(crate) fn wrapped(size: usize, torus: bool) -> Plain {
        Plain {
            wrap_columns: true,
            wrap_rows: torus,
            ..Plain::othello(size)
        }
    }

    /// Gravity Othello: the Othello cross on the two bottom rows (y grows downwards, as in
    /// the printed board).
    pub(crate) fn gravity(size: usize) -> Plain {
        let mut p = Plain {
            size,
            cells: vec![0; size * size],
            to_move: 1,
            centre_opening: false,
            gravity: true,
            wrap_columns: false,
            wrap_rows: false,
            holes: Vec::new(),
        };
        let h = size / 2;
        p.set(h - 1, size - 2, 2);
        p.set(h, size - 2, 1);
        p.set(h - 1, size - 1, 1);
        p.set(h, size - 1, 2);
        p
    }

    /// Whether a disc can come to rest on `cell` (always, without gravity).
    fn rests(&self, cell: usize) -> bool {
        let below = cell + self.size;
        !self.gravity || below >= self.cells.len() || self.cells[below] != 0
    }

    /// Othello with jokers and stones on these cells (`(x, y)` from the top-left).
    pub(crate) fn with_pieces(self, jokers: &[(usize, usize)], stones: &[(usize, usize)]) -> Plain {
        let mut p = self;
        for &(x, y) in jokers {
            p.set(x, y, 3);
        }
        for &(x, y) in stones {
            p.set(x, y, 4);
        }
        p
    }

    fn set(&mut self, x: usize, y: usize, v: u8) {
        self.cells[y * self.size + x] = v;
    }

    fn centre(&self) -> [usize; 4] {
        let h = self.size / 2;
        let s = self.size;
        [
            (h - 1) * s + h - 1,
            (h - 1) * s + h,
            h * s + h - 1,
            h * s + h,
        ]
    }

    fn in_opening(&self) -> bool {
        self.centre_opening && self.centre().iter().any(|&c| self.cells[c] == 0)
    }

    /// Discs flipped by `player` placing at `cell`.
    pub(crate) fn flips(&self, cell: usize, player: u8) -> Vec<usize> {
        let s = self.size as i32;
        let (x0, y0) = (cell as i32 % s, cell as i32 / s);
        let mut out = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                let mut run = Vec::new();
                let (mut x, mut y) = (x0, y0);
                loop {
                    (x, y) = (x + dx, y + dy);
                    if self.wrap_columns {
                        x = x.rem_euclid(s);
                    }
                    if self.wrap_rows {
                        y = y.rem_euclid(s);
                    }
                    // Off the board, or round a joined edge back to the start.
                    if x < 0 || y < 0 || x >= s || y >= s || (x, y) == (x0, y0) {
                        break;
                    }
                    let c = (y * s + x) as usize;
                    if self.holes.contains(&c) {
                        break;
                    }
                    match self.cells[c] {
                        0 | 4 => break,
                        v if v == player || v == 3 => {
                            out.extend(run.iter().copied());
                            break;
                        }
                        _ => run.push(c),
                    }
                }
            }
        }
        out
    }

    /// Legal placements for `player`, in increasing cell order.
    pub(crate) fn moves_for(&self, player: u8) -> Vec<usize> {
        if self.in_opening() {
            let mut c: Vec<usize> = self
                .centre()
                .into_iter()
                .filter(|&c| self.cells[c] == 0)
                .collect();
            c.sort();
            return c;
        }
        (0..self.cells.len())
            .filter(|&c| {
                self.cells[c] == 0
                    && !self.holes.contains(&c)
                    && self.rests(c)
                    && !self.flips(c, player).is_empty()
            })
            .collect()
    }

    pub(crate) fn over(&self) -> bool {
        self.moves_for(1).is_empty() && self.moves_for(2).is_empty()
    }

    /// Plays a placement, or a pass when `cell` is None.
    pub(crate) fn play(&mut self, cell: Option<usize>) {
        if let Some(c) = cell {
            for f in self.flips(c, self.to_move) {
                self.cells[f] = self.to_move;
            }
            self.cells[c] = self.to_move;
        }
        self.to_move = 3 - self.to_move;
    }

    pub(crate) fn perft(&self, depth: u32) -> u64 {
        perft_of(self, depth)
    }

    pub(crate) fn rows(&self) -> Vec<String> {
        let symbol = |c: usize| match self.cells[c] {
            _ if self.holes.contains(&c) => '#',
            v => ['.', 'B', 'W', 'J', 'X'][v as usize],
        };
        (0..self.cells.len())
            .collect::<Vec<_>>()
            .chunks(self.size)
            .map(|row| row.iter().map(|&c| symbol(c)).collect())
            .collect()
    }

    pub(crate) fn name(&self, cell: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (cell % self.size) as u8) as char,
            cell / self.size + 1
        )
    }
}

/// A game written in the tests independently of the engine, as far as perft needs it.
pub(crate) trait Oracle: Clone {
    type Move: Copy;
    /// The player to move's moves; none for a pass (or at the end, see `over`).
    fn moves(&self) -> Vec<Self::Move>;
    fn over(&self) -> bool;
    /// Plays a move, or a pass when `m` is None.
    fn play_move(&mut self, m: Option<Self::Move>);
}

/// Perft with the engine's conventions: a forced pass is a ply, an ended game one leaf.
pub(crate) fn perft_of<O: Oracle>(o: &O, depth: u32) -> u64 {
    if depth == 0 || o.over() {
        return 1;
    }
    let moves = o.moves();
    if moves.is_empty() {
        let mut next = o.clone();
        next.play_move(None);
        return perft_of(&next, depth - 1);
    }
    moves
        .into_iter()
        .map(|m| {
            let mut next = o.clone();
            next.play_move(Some(m));
            perft_of(&next, depth - 1)
        })
        .sum()
}

/// Plays one game from the start on the engine and on `oracle` side by side, the oracle's
/// move drawn from `rng`: at every position the engine's whole turns (in notation, `name`)
/// must be the oracle's moves, a pass where it has none, and `same` must hold of the two.
/// Returns the positions compared.
pub(crate) fn play_alongside<O: Oracle>(
    e: &outflank::engine::Engine,
    mut oracle: O,
    rng: &mut outflank::engine::rng::Rng,
    what: &str,
    name: impl Fn(&O, O::Move) -> String,
    same: impl Fn(&outflank::engine::state::State, &O),
) -> usize {
    let mut s = e.start().unwrap();
    let mut positions = 0;
    while !oracle.over() {
        same(&s, &oracle);
        let moves = oracle.moves();
        let mut expected: Vec<String> = moves.iter().map(|&m| name(&oracle, m)).collect();
        expected.sort();
        let turns = e.whole_turns(&s, 10_000).unwrap();
        let mut got: Vec<String> = turns.into_iter().map(|t| t.notation).collect();
        got.sort();
        positions += 1;
        let chosen = if moves.is_empty() {
            assert_eq!(got, ["pass"], "{what}");
            None
        } else {
            assert_eq!(got, expected, "{what}");
            Some(moves[rng.below(moves.len())])
        };
        let text = chosen.map_or("pass".to_string(), |m| name(&oracle, m));
        s = play(e, &s, &text);
        oracle.play_move(chosen);
    }
    assert!(s.is_over(), "{what}: the game ended for both");
    same(&s, &oracle);
    positions
}

impl Oracle for Plain {
    type Move = usize;
    fn moves(&self) -> Vec<usize> {
        self.moves_for(self.to_move)
    }
    fn over(&self) -> bool {
        Plain::over(self)
    }
    fn play_move(&mut self, m: Option<usize>) {
        self.play(m)
    }
}

/// The contents of the ```rules blocks of a Markdown text.
pub(crate) fn rules_blocks(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```rules") => current = Some(String::new()),
            (Some(block), "```") => {
                out.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// Plays a seeded game of random steps; returns its whole turns in notation and the end. The
/// written turns are replayed from the start, so the notation is known to be complete.
pub(crate) fn seeded_game(
    e: &outflank::engine::Engine,
    seed: u64,
) -> (Vec<String>, outflank::engine::state::State) {
    use outflank::agents::game_seed;
    use outflank::engine::rng::Rng;
    let mut rng = Rng::new(game_seed(seed, 0));
    let mut s = e.start().unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut buf = Vec::new();
    while !s.is_over() {
        e.steps(&s, &mut buf).unwrap();
        let step = buf[rng.below(buf.len())];
        let text = e.step_notation(&s, step);
        if s.steps == 0 {
            moves.push(text);
        } else {
            moves.last_mut().unwrap().push_str(&text);
        }
        s = e.apply(&s, step).unwrap();
    }
    let replayed = e
        .play_history(&e.start().unwrap(), &moves.join(" "))
        .map_err(|x| x.to_string())
        .unwrap();
    assert_eq!(e.board_rows(&replayed), e.board_rows(&s));
    (moves, s)
}

/// Every whole turn at `s`, in notation.
pub(crate) fn whole_turns(
    e: &outflank::engine::Engine,
    s: &outflank::engine::state::State,
) -> Vec<String> {
    e.whole_turns(s, 100_000)
        .unwrap()
        .into_iter()
        .map(|t| t.notation)
        .collect()
}

/// The next step's choices at `s`, in notation.
pub(crate) fn step_names(
    e: &outflank::engine::Engine,
    s: &outflank::engine::state::State,
) -> Vec<String> {
    let mut buf = Vec::new();
    e.steps(s, &mut buf).unwrap();
    buf.iter().map(|&st| e.step_notation(s, st)).collect()
}

/// Plays `moves` from `s`, panicking with the reason if they are not legal.
pub(crate) fn play(
    e: &outflank::engine::Engine,
    s: &outflank::engine::state::State,
    moves: &str,
) -> outflank::engine::state::State {
    e.play_history(s, moves).map_err(|x| x.to_string()).unwrap()
}

/// Positions with `empties` empty cells, one per seed that reaches one, from seeded random play.
pub(crate) fn near_the_end(
    e: &Engine,
    empties: usize,
    seeds: u64,
) -> Vec<outflank::engine::state::State> {
    let playable = e.game.geometry.playable.iter().count();
    let taken = |s: &outflank::engine::state::State| e.position_rows(s).matches(['B', 'W']).count();
    (0..seeds)
        .filter_map(|seed| {
            let mut rng = outflank::engine::rng::Rng::new(seed);
            let mut s = e.start().unwrap();
            while !s.is_over() && playable - taken(&s) > empties {
                let step = e.random_step(&s, &mut rng).unwrap().unwrap();
                s = e.apply(&s, step).unwrap();
            }
            (!s.is_over()).then_some(s)
        })
        .collect()
}

/// The value for the player to move at `s` with best play, by alpha-beta over the engine's
/// steps with the whole window: no table, no symmetry, no ordering but the engine's.
pub(crate) fn plain_value(e: &Engine, s: &outflank::engine::state::State) -> f64 {
    alpha_beta(e, s, f64::NEG_INFINITY, f64::INFINITY)
}

/// The value of `s` for its mover by alpha-beta over the engine's steps, in the order the
/// engine lists them, with no table: exact inside `(alpha, beta)`, a bound outside.
fn alpha_beta(e: &Engine, s: &outflank::engine::state::State, mut alpha: f64, beta: f64) -> f64 {
    if let Some(o) = s.outcome {
        return o.value_for(s.mover);
    }
    let mut steps = Vec::new();
    e.steps(s, &mut steps).unwrap();
    let mut best = f64::NEG_INFINITY;
    for step in steps {
        let t = e.apply(s, step).unwrap();
        let v = if t.mover == s.mover {
            alpha_beta(e, &t, alpha, beta)
        } else {
            -alpha_beta(e, &t, -beta, -alpha)
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Asserts that `got`, a search's answer within the window `(alpha, beta)` for a position
/// whose value is `v`, is what such an answer must be: `v` itself inside the window, else a
/// bound between `v` and the window's side it falls beyond.
pub(crate) fn assert_within_window(v: f64, got: f64, (alpha, beta): (f64, f64), what: &str) {
    let what = format!("{what}, value {v}, window ({alpha}, {beta})");
    if v <= alpha {
        assert!(v <= got && got <= alpha, "{what}: {got}");
    } else if v >= beta {
        assert!(beta <= got && got <= v, "{what}: {got}");
    } else {
        assert_eq!(got, v, "{what}");
    }
}
