//! The one search, on trees made up here and checked against a plain minimax written here:
//! every value exact inside its window and a bound outside it, with a table of any size,
//! positions reached along several lines, turns of several steps, and a horizon.

use outflank::engine::negamax::{self, Aim, Children, Table, TableKey, Tree, MAX_SEARCH_STEPS};

/// A few bits of `x` mixed well (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A position of a made-up game: the `index`-th of a few positions at distance `level` from
/// the start. Positions at one level are few, so many lines lead to each (a table's hits), and
/// a position is reached only at its level (a search to a depth meets it with the same steps
/// left on every line).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
struct Pos {
    level: u32,
    index: u32,
}

impl TableKey for Pos {
    fn hash(&self) -> u64 {
        mix(u64::from(self.level) << 32 | u64::from(self.index))
    }
}

/// A made-up game, all of it decided by `seed`.
struct Made {
    seed: u64,
    /// Positions at each level.
    width: u32,
    /// Levels before every position is over.
    levels: u32,
    /// Whether the game never ends (for the guard against endless lines).
    endless: bool,
    /// Whether a finished game is a win or a loss (worth a million and the margin, as the
    /// engine values them) where its result is a point or more either way, a draw below.
    decided: bool,
}

impl Made {
    /// One of the small games the exact values are checked on: 1 to 7 positions a level, 2 to
    /// 10 levels, by `seed`.
    fn small(seed: u64, decided: bool) -> Made {
        Made {
            seed,
            width: 1 + (seed % 7) as u32,
            levels: 2 + (seed % 9) as u32,
            endless: false,
            decided,
        }
    }

    fn bits(&self, p: Pos, what: u64) -> u64 {
        mix(self.seed ^ mix(u64::from(p.level) << 40 ^ u64::from(p.index) << 8 ^ what))
    }

    /// Who moves at `p`: 0 or 1. At about a third of the positions the mover of the one before
    /// moves again (a turn of several steps).
    fn mover(&self, p: Pos) -> u8 {
        (self.bits(p, 1) % 2) as u8
    }

    /// The moves at `p`, each to a position of the next level; none when the game is over.
    fn moves(&self, p: Pos) -> Vec<Pos> {
        if p.level >= self.levels && !self.endless {
            return Vec::new();
        }
        let count = if self.endless {
            1
        } else {
            // Some positions end early.
            (self.bits(p, 2) % 5) as u32
        };
        (0..count)
            .map(|j| Pos {
                level: p.level + 1,
                index: (self.bits(p, 3 + u64::from(j)) % u64::from(self.width)) as u32,
            })
            .collect()
    }

    /// A finished game's result for player 0: whole and half points, both signs.
    fn result(&self, p: Pos) -> f64 {
        let points = (self.bits(p, 9) % 41) as f64 / 2.0 - 10.0;
        match points {
            _ if !self.decided || points.abs() < 1.0 => points,
            _ => points + 1e6f64.copysign(points),
        }
    }

    /// The horizon's guess for player 0.
    fn guess(&self, p: Pos) -> f64 {
        (self.bits(p, 10) % 21) as f64 - 10.0
    }

    fn for_mover(&self, p: Pos, for_first: f64) -> f64 {
        if self.mover(p) == 0 {
            for_first
        } else {
            -for_first
        }
    }

    /// Plain minimax, no pruning and no table: the value of `p` for its mover, searched
    /// `depth` steps deep (None: to the end).
    fn minimax(&self, p: Pos, depth: Option<u32>) -> f64 {
        let moves = self.moves(p);
        if moves.is_empty() {
            return self.for_mover(p, self.result(p));
        }
        if depth == Some(0) {
            return self.for_mover(p, self.guess(p));
        }
        moves
            .iter()
            .map(|&t| {
                let v = self.minimax(t, depth.map(|d| d - 1));
                if self.mover(t) == self.mover(p) {
                    v
                } else {
                    -v
                }
            })
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// The made-up game as the search sees it, with or without empty-window probes. It also
/// counts what the search asked of it.
#[derive(Clone)]
struct Searched<'a, const PROBES: bool = true> {
    game: &'a Made,
    cuts: u64,
}

impl<const P: bool> Tree for Searched<'_, P> {
    type Node = Pos;
    type Key = Pos;
    type Move = u8;
    type Error = String;
    const PROBES: bool = P;

    fn over(&self, p: &Pos) -> Option<f64> {
        let g = self.game;
        g.moves(*p)
            .is_empty()
            .then(|| g.for_mover(*p, g.result(*p)))
    }

    fn key(&self, p: &Pos) -> (Pos, u8) {
        (*p, 0)
    }

    fn work(&self, p: &Pos, _: Option<u32>) -> u8 {
        (self.game.levels.saturating_sub(p.level)).min(200) as u8
    }

    fn horizon(&mut self, p: &Pos) -> Result<f64, String> {
        Ok(self.game.for_mover(*p, self.game.guess(*p)))
    }

    fn children(
        &mut self,
        p: &Pos,
        first: Option<u8>,
        _ply: usize,
        out: &mut Children<Self>,
    ) -> Result<(), String> {
        let moves = self.game.moves(*p);
        // The remembered move first. Every other position asks for its children to be made
        // when searched, the rest gives them made.
        for j in 0..moves.len() {
            out.moves.push((u64::from(first != Some(j as u8)), j as u8));
        }
        if p.index.is_multiple_of(2) {
            out.nodes = moves;
        }
        Ok(())
    }

    fn play(&mut self, p: &Pos, mv: u8) -> Result<Pos, String> {
        Ok(self.game.moves(*p)[usize::from(mv)])
    }

    fn same_side(&self, parent: &Pos, child: &Pos) -> bool {
        self.game.mover(*parent) == self.game.mover(*child)
    }

    fn cut(&mut self, _: u8, _: usize, _: Option<u32>) {
        self.cuts += 1;
    }

    fn endless(&self, message: String) -> String {
        message
    }

    fn looks_ahead(&self, p: &Pos) -> bool {
        // Far from the end: where threads that share a table spread over the moves.
        p.level + 3 <= self.game.levels
    }

    fn splits(&self, _: &Pos) -> bool {
        true
    }
}

const START: Pos = Pos { level: 0, index: 0 };

#[test]
fn exact_values_equal_plain_minimax() {
    let mut cuts = 0;
    for seed in 0..300 {
        let game = Made::small(seed, false);
        let expected = game.minimax(START, None);
        // A table of two slots forgets nearly everything; a large one keeps every position.
        for slots in [2, 1 << 12] {
            let mut tree: Searched = Searched {
                game: &game,
                cuts: 0,
            };
            let mut table = Table::new(slots);
            let v = negamax::exact_value(&mut tree, &mut table, &START, Aim::Value).unwrap();
            assert_eq!(v, expected, "seed {seed}, {slots} slots");
            // Asked again, with what the table learnt: the same.
            let again = negamax::exact_value(&mut tree, &mut table, &START, Aim::Value).unwrap();
            assert_eq!(again, expected, "seed {seed}, {slots} slots, again");
            cuts += tree.cuts;
            // Without the probes too.
            let mut plain: Searched<false> = Searched {
                game: &game,
                cuts: 0,
            };
            let mut table = Table::new(slots);
            let v = negamax::exact_value(&mut plain, &mut table, &START, Aim::Value).unwrap();
            assert_eq!(v, expected, "seed {seed}, {slots} slots, no probes");
        }
    }
    assert!(cuts > 1000, "the trees are too small to cut: {cuts} cuts");
}

#[test]
fn threads_that_share_a_table_find_the_exact_values_of_plain_minimax() {
    // Small trees, and a few large enough that the threads meet in the table, with a table of
    // two pairs of slots (each entry soon lost to another) and one that keeps everything.
    let small = (0..200).map(|seed| (seed, 1 + (seed % 7) as u32, 2 + (seed % 9) as u32));
    let large = (0..6).map(|seed| (1000 + seed, 2000, 17 + (seed % 3) as u32));
    for (seed, width, levels) in small.chain(large) {
        let game = Made {
            seed,
            width,
            levels,
            endless: false,
            decided: false,
        };
        let expected = game.minimax(START, None);
        for (slots, jobs) in [(4, 2), (1 << 16, 2), (1 << 16, 4)] {
            let mut tree: Searched = Searched {
                game: &game,
                cuts: 0,
            };
            let bytes = slots * Table::<Pos, u8>::SLOT_BYTES;
            let mut table = Table::within_jobs(bytes, jobs);
            let what = format!("seed {seed}, {slots} slots, {jobs} jobs");
            let v =
                negamax::exact_value_parallel(&mut tree, &mut table, &START, Aim::Value).unwrap();
            assert_eq!(v, expected, "{what}");
            assert!(table.nodes > 0, "{what}");
            // Asked again, with what the shared table learnt; and one thread asked a window
            // of the same table afterwards, as the solver's best line does.
            let again =
                negamax::exact_value_parallel(&mut tree, &mut table, &START, Aim::Value).unwrap();
            assert_eq!(again, expected, "{what}, again");
            let (alpha, beta) = (expected - 1.0, expected + 1.0);
            let v = negamax::value(&mut tree, &mut table, &START, None, alpha, beta, 0).unwrap();
            assert_eq!(v, expected, "{what}, a window");
        }
    }
}

#[test]
fn a_new_search_keeps_its_own_entries_over_the_deeper_ones_of_earlier_searches() {
    // A table of one pair of slots. The whole game searched first leaves its start, the entry
    // of most work, in the slot kept for work. Then two positions near the end are searched,
    // and the first searched again: found in the table (one position counted) only when the
    // table was told that a new search began, so that the start gave way.
    let game = Made {
        seed: 11,
        width: 3,
        levels: 8,
        endless: false,
        decided: false,
    };
    let live: Vec<Pos> = (0..3)
        .map(|index| Pos { level: 6, index })
        .filter(|&p| !game.moves(p).is_empty())
        .collect();
    let (y, z) = (live[0], live[1]);
    let (low, high) = (f64::NEG_INFINITY, f64::INFINITY);
    for new_search in [false, true] {
        let mut tree: Searched = Searched {
            game: &game,
            cuts: 0,
        };
        let mut table = Table::new(2);
        negamax::value(&mut tree, &mut table, &START, None, low, high, 0).unwrap();
        if new_search {
            table.new_search();
        }
        for p in [y, z] {
            let v = negamax::value(&mut tree, &mut table, &p, None, low, high, 0).unwrap();
            assert_eq!(v, game.minimax(p, None));
        }
        let before = table.nodes;
        let v = negamax::value(&mut tree, &mut table, &y, None, low, high, 0).unwrap();
        assert_eq!(v, game.minimax(y, None));
        let searched = table.nodes - before;
        if new_search {
            assert_eq!(searched, 1, "the new search's entry was not kept");
        } else {
            assert!(
                searched > 1,
                "{y:?} is searched again without the table: {searched}"
            );
        }
    }
}

#[test]
fn an_outcome_is_of_the_exact_values_kind_and_bounds_it() {
    use outflank::engine::state::read_value;
    use std::cmp::Ordering;
    // Games whose ends are wins, losses and draws (with margins of their own): the outcome's
    // one or two questions must tell which, on one thread and on threads sharing a table, and
    // leave in the table nothing that makes the exact value that follows wrong.
    let mut kinds = [0; 3];
    for seed in 0..300 {
        let game = Made::small(seed, true);
        let expected = game.minimax(START, None);
        let kind = read_value(expected).0;
        for (slots, jobs) in [(2, 1), (1 << 12, 1), (4, 2), (1 << 16, 2)] {
            let mut tree: Searched = Searched {
                game: &game,
                cuts: 0,
            };
            let bytes = slots * Table::<Pos, u8>::SLOT_BYTES;
            let mut table = Table::within_jobs(bytes, jobs);
            let what = format!("seed {seed}, {slots} slots, {jobs} jobs: {expected}");
            let v =
                negamax::exact_value_parallel(&mut tree, &mut table, &START, Aim::Outcome).unwrap();
            assert_eq!(read_value(v).0, kind, "{what}: {v}");
            if kind == Ordering::Less {
                assert!(v >= expected, "{what}: {v}");
            } else {
                assert!(v <= expected, "{what}: {v}");
            }
            let exact =
                negamax::exact_value_parallel(&mut tree, &mut table, &START, Aim::Value).unwrap();
            assert_eq!(exact, expected, "{what}, exact after");
        }
        kinds[(kind as i8 + 1) as usize] += 1;
    }
    // Losses, draws and wins each came often.
    assert!(kinds.iter().all(|&k| k >= 20), "{kinds:?}");
}

#[test]
fn a_window_gives_the_exact_value_inside_and_a_bound_outside() {
    let (mut inside, mut below, mut above) = (0, 0, 0);
    for seed in 0..200 {
        let game = Made {
            seed,
            width: 3,
            levels: 6,
            endless: false,
            decided: false,
        };
        for depth in [None, Some(0), Some(1), Some(3)] {
            let expected = game.minimax(START, depth);
            // The last: the empty window of an "at least 0?" question.
            let windows = [
                (-4.0, 4.0),
                (-0.5, 0.5),
                (2.0, 9.5),
                (-30.0, -1.0),
                (negamax::next_down(0.0), 0.0),
            ];
            for (alpha, beta) in windows {
                // A fresh table: one learnt with another window may answer within this one.
                let mut tree: Searched = Searched {
                    game: &game,
                    cuts: 0,
                };
                let mut table = Table::new(1 << 10);
                let v =
                    negamax::value(&mut tree, &mut table, &START, depth, alpha, beta, 0).unwrap();
                let mut plain: Searched<false> = Searched {
                    game: &game,
                    cuts: 0,
                };
                let mut table = Table::new(1 << 10);
                let w =
                    negamax::value(&mut plain, &mut table, &START, depth, alpha, beta, 0).unwrap();
                let what = format!("seed {seed}, depth {depth:?}, window ({alpha}, {beta})");
                // With the probes and without, each value exact inside the window and a bound
                // on the right side outside it.
                for (how, v) in [("probes", v), ("no probes", w)] {
                    if expected <= alpha {
                        assert!(
                            v <= alpha && v >= expected,
                            "{what}, {how}: {v} for {expected}"
                        );
                    } else if expected >= beta {
                        assert!(
                            v >= beta && v <= expected,
                            "{what}, {how}: {v} for {expected}"
                        );
                    } else {
                        assert_eq!(v, expected, "{what}, {how}");
                    }
                }
                if expected <= alpha {
                    below += 1;
                } else if expected >= beta {
                    above += 1;
                } else {
                    inside += 1;
                }
            }
        }
    }
    assert!(
        inside > 100 && below > 100 && above > 100,
        "{inside} {below} {above}"
    );
}

#[test]
fn a_game_that_never_ends_is_an_error_not_a_stack_overflow() {
    let search = || {
        let game = Made {
            seed: 1,
            width: 4,
            levels: 0,
            endless: true,
            decided: false,
        };
        let mut tree: Searched = Searched {
            game: &game,
            cuts: 0,
        };
        let mut table = Table::new(1 << 10);
        negamax::exact_value(&mut tree, &mut table, &START, Aim::Value)
    };
    // The command line searches on a thread of this stack.
    let result = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(search)
        .unwrap()
        .join()
        .unwrap();
    let message = result.unwrap_err();
    assert!(
        message.contains(&format!("{MAX_SEARCH_STEPS} steps without the game ending")),
        "{message}"
    );
}
