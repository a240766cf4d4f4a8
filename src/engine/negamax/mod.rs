//! Negamax with alpha-beta, principal variation search and a transposition table, written
//! once for every tree the program searches: the runner's own states, one whole turn a level
//! (the solver), and the engine's states, one step a level (the alphabeta player, and the
//! solver of games whose counters or tokens outlast a turn). A [`Tree`] says
//! what a position is, how it ends, what follows it and in which order; this module searches.
//!
//! A value is always its position's mover's. A child's value keeps its sign when the tree
//! says its mover is on the parent's mover's side (the next step of the same turn, or in the
//! paranoid search of a game of more than two players, another of the others), and changes
//! sign otherwise.

use crate::engine::state::{read_value, WIN_VALUE};
use std::cmp::Ordering::{Equal, Greater, Less};
use std::sync::atomic::Ordering;

mod table;

use table::stored_depth;
pub use table::{Slot, Table, Watch};

/// Steps one line of a search may take below its root. Positions count their turn, so none
/// repeats and a search has no cycle to notice: a game that need not end (each turn changes
/// nothing, say) would otherwise recurse until the stack ran out.
pub const MAX_SEARCH_STEPS: usize = 10_000;

/// The stack a search thread needs to reach [`MAX_SEARCH_STEPS`] plies deep (the command line
/// runs its commands on a thread this deep too).
pub const SEARCH_STACK_BYTES: usize = 256 << 20;

/// A position's identity in the table.
pub trait TableKey: Copy + Eq + Default {
    fn hash(&self) -> u64;
}

/// A game tree as the search sees it.
pub trait Tree {
    /// A position, with whatever the tree knows of how it stands.
    type Node: Copy;
    type Key: TableKey;
    /// What leads from a position to one of its children (remembered as the best of a
    /// position, and tried first when it is met again).
    type Move: Copy + Eq + Default;
    type Error;

    /// Whether the search asks the moves after the first only whether they beat it (an empty
    /// window) before searching them in full: it pays where the order of [`Tree::children`]
    /// usually puts the best move first, and costs searches again where it does not.
    const PROBES: bool = true;
    /// What one of its moves is, in words, for the error of a line that never ends.
    const MOVES_ARE: &'static str = "steps";

    /// The value of a finished position for its mover, None while the game goes on.
    fn over(&self, n: &Self::Node) -> Option<f64>;

    /// The position's identity in the table, and the frame its moves are stored in there: a
    /// tree that merges positions a symmetry of the board maps onto each other keys each by
    /// one of them, and stores its moves as they are in that one (0: `n` itself).
    fn key(&self, n: &Self::Node) -> (Self::Key, u8);

    /// Move `m` of a position whose key has frame `frame`, as it is stored in the table
    /// (`to_table`), or back as it is played at the position.
    fn framed(&self, m: Self::Move, _frame: u8, _to_table: bool) -> Self::Move {
        m
    }

    /// How much searching the table's entry for `n`, searched `depth` steps deep (None: to the
    /// end), stands for: when two entries compete for a place, the one of more work stays.
    fn work(&self, n: &Self::Node, depth: Option<u32>) -> u8;

    /// The value of `n` for its mover where the search stops short of the end.
    fn horizon(&mut self, n: &Self::Node) -> Result<f64, Self::Error>;

    /// The moves at `n`, each with its rank (lower first), and, where ranking them made them,
    /// the positions they lead to. `first` is the move the table remembers as best here; `ply`
    /// is the distance from the search's root.
    fn children(
        &mut self,
        n: &Self::Node,
        first: Option<Self::Move>,
        ply: usize,
        out: &mut Children<Self>,
    ) -> Result<(), Self::Error>;

    /// The position `m` leads to from `n` (for the children listed without one).
    fn play(&mut self, n: &Self::Node, m: Self::Move) -> Result<Self::Node, Self::Error>;

    /// Whether the mover at `child` plays on the side of the mover at `parent`.
    fn same_side(&self, parent: &Self::Node, child: &Self::Node) -> bool;

    /// A value the tree finds its own way, without the table or the listing (a pass, or the
    /// last few turns of a game that a plainer loop searches faster), or None.
    fn shortcut(
        &mut self,
        _table: &mut Table<Self::Key, Self::Move>,
        _n: &Self::Node,
        _alpha: f64,
        _beta: f64,
        _ply: usize,
    ) -> Result<Option<f64>, Self::Error> {
        Ok(None)
    }

    /// Whether, before searching `n`'s children, the search looks each up in the table for a
    /// bound that already cuts `n` off (an enhanced transposition cut-off): it pays where a
    /// child's search is long beside a look-up, far from the end of the game.
    fn looks_ahead(&self, _n: &Self::Node) -> bool {
        false
    }

    /// Whether searching `n` to the end is long enough to share among threads
    /// ([`exact_value_parallel`]): starting them and sharing the table costs time of its own.
    fn splits(&self, _n: &Self::Node) -> bool {
        false
    }

    /// `m` cut the search off at distance `ply`, `depth` steps from the horizon.
    fn cut(&mut self, _m: Self::Move, _ply: usize, _depth: Option<u32>) {}

    /// The error of a line that went [`MAX_SEARCH_STEPS`] without the game ending.
    fn endless(&self, message: String) -> Self::Error;

    /// The error that ends a thread's search of a question another thread of a parallel
    /// search has answered ([`exact_value_parallel`]). It never reaches the caller: the
    /// answer is the other thread's.
    fn stopped(&self) -> Self::Error {
        self.endless("stopped: another thread answered first".into())
    }
}

/// A tree that several threads search at once, each with its own copy
/// ([`exact_value_parallel`]).
pub trait SharedTree: Tree<Node: Send, Key: Send, Move: Send, Error: Send> + Clone + Send {}

impl<T> SharedTree for T where T: Tree<Node: Send, Key: Send, Move: Send, Error: Send> + Clone + Send
{}

/// The moves of a position, as [`Tree::children`] lists them: each with its rank, and either
/// no positions (each made by [`Tree::play`] when searched) or one per move, in their order.
/// Kept apart so that sorting moves no position (a state of the engine is hundreds of bytes).
pub struct Children<T: Tree + ?Sized> {
    pub moves: Vec<(u64, T::Move)>,
    pub nodes: Vec<T::Node>,
}

/// The value of `n` for its mover, exact when it lies inside (alpha, beta), otherwise a bound
/// on the side of the window it falls (`alpha` below `beta`). `depth`: steps left before the
/// horizon, or None to search to the end of the game; `ply`: the distance from the search's
/// root.
pub fn value<T: Tree>(
    tree: &mut T,
    table: &mut Table<T::Key, T::Move>,
    n: &T::Node,
    depth: Option<u32>,
    mut alpha: f64,
    mut beta: f64,
    ply: usize,
) -> Result<f64, T::Error> {
    table.nodes += 1;
    if table.nodes >= table.next_report {
        table.report();
    }
    if let Some(shared) = &table.shared {
        if shared.answered.load(Ordering::Relaxed) {
            return Err(tree.stopped());
        }
    }
    if let Some(v) = tree.over(n) {
        return Ok(v);
    }
    if ply > MAX_SEARCH_STEPS {
        return Err(tree.endless(format!(
            "a line of play went {MAX_SEARCH_STEPS} {} without the game ending; the search needs a game that always ends",
            T::MOVES_ARE
        )));
    }
    if let Some(v) = tree.shortcut(table, n, alpha, beta, ply)? {
        return Ok(v);
    }
    let (key, frame) = tree.key(n);
    let stored = stored_depth(depth);
    let mut first = None;
    if let Some(e) = table.get(&key) {
        if e.depth >= stored {
            if e.low == e.high || e.low >= beta {
                return Ok(e.low);
            }
            if e.high <= alpha {
                return Ok(e.high);
            }
            alpha = alpha.max(e.low);
            beta = beta.min(e.high);
        }
        first = Some(tree.framed(e.best, frame, false));
    }
    // At the horizon only after the table: listing a position's moves may cost far more than
    // evaluating it (each placement's `require` tried, hundreds on a Go board).
    if depth == Some(0) {
        return tree.horizon(n);
    }
    let mut children = Children {
        moves: Vec::new(),
        nodes: Vec::new(),
    };
    tree.children(n, first, ply, &mut children)?;
    let Children { moves, nodes } = children;
    let child_depth = depth.map(|d| d.saturating_sub(1));
    if !nodes.is_empty() && tree.looks_ahead(n) {
        let stored = stored_depth(child_depth);
        // Every child's slot is read before any is checked, so that the cache misses of a
        // large table overlap instead of each waiting behind the next key's computation:
        // 10% less time on a whole 6x6 Othello solve (86.8 s against 96.5 s, one thread).
        let keys: Vec<Option<T::Key>> = nodes
            .iter()
            .map(|t| tree.over(t).is_none().then(|| tree.key(t).0))
            .collect();
        for key in keys.iter().flatten() {
            table.touch(key);
        }
        for (t, key) in nodes.iter().zip(&keys) {
            let Some(e) = key
                .as_ref()
                .and_then(|key| table.get(key))
                .filter(|e| e.depth >= stored)
            else {
                continue;
            };
            // The least the child is known to be worth to `n`'s mover.
            let least = if tree.same_side(n, t) { e.low } else { -e.high };
            if least >= beta {
                return Ok(least);
            }
        }
    }
    // By rank, and among equals in the tree's order.
    let mut order: Vec<(u64, usize)> = moves.iter().enumerate().map(|(i, m)| (m.0, i)).collect();
    order.sort_unstable();
    let (alpha0, beta0) = (alpha, beta);
    let mut best = (f64::NEG_INFINITY, T::Move::default());
    // Threads that share the table leave a sibling another thread is searching for after the
    // rest, where the search is long enough for that to pay.
    let marks_busy = table.shared.is_some() && tree.looks_ahead(n);
    let mut pending = order;
    let mut deferred = Vec::new();
    let mut first_round = true;
    let mut searched = 0;
    'search: loop {
        for (_, j) in std::mem::take(&mut pending) {
            let mv = moves[j].1;
            let t = match nodes.get(j) {
                Some(&t) => t,
                None => tree.play(n, mv)?,
            };
            let busy = match table.shared.as_deref() {
                Some(shared) if marks_busy && tree.over(&t).is_none() => {
                    let hash = tree.key(&t).0.hash();
                    let place = shared.busy_place(hash);
                    if first_round && searched > 0 && place.load(Ordering::Relaxed) == hash {
                        deferred.push((0, j));
                        continue;
                    }
                    place.store(hash, Ordering::Relaxed);
                    Some(hash)
                }
                _ => None,
            };
            // Principal variation search: the first child with the whole window, the others
            // only asked whether they beat alpha (an empty window), searched again in full
            // only when they do. Good ordering makes the searches again rare.
            let v = if searched == 0 || !T::PROBES {
                child_value(tree, table, n, &t, child_depth, alpha, beta, ply)
            } else {
                match child_value(tree, table, n, &t, child_depth, alpha, next_up(alpha), ply) {
                    Ok(probe) if probe > alpha && probe < beta => {
                        child_value(tree, table, n, &t, child_depth, alpha, beta, ply)
                    }
                    probed => probed,
                }
            };
            // The place is looked up again rather than held across the child's search, which
            // borrows the table: holding it took a clone of the shared part's `Arc` at every
            // such position.
            if let (Some(hash), Some(shared)) = (busy, table.shared.as_deref()) {
                let place = shared.busy_place(hash);
                let _ = place.compare_exchange(hash, 0, Ordering::Relaxed, Ordering::Relaxed);
            }
            let v = v?;
            searched += 1;
            if v > best.0 {
                best = (v, mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                tree.cut(mv, ply, depth);
                break 'search;
            }
        }
        if !first_round || deferred.is_empty() {
            break;
        }
        first_round = false;
        pending = std::mem::take(&mut deferred);
    }
    let value = best.0;
    let (low, high) = if value <= alpha0 {
        (f64::NEG_INFINITY, value)
    } else if value >= beta0 {
        (value, f64::INFINITY)
    } else {
        (value, value)
    };
    table.put(Slot {
        key,
        low,
        high,
        best: tree.framed(best.1, frame, true),
        depth: stored,
        work: tree.work(n, depth).saturating_add(1),
        age: table.age,
    });
    Ok(value)
}

/// The value for the mover at `n` of going to its child `t`, inside the window (alpha, beta)
/// of `n`'s mover: exact inside it, a bound on the side it falls outside.
#[allow(clippy::too_many_arguments)]
pub fn child_value<T: Tree>(
    tree: &mut T,
    table: &mut Table<T::Key, T::Move>,
    n: &T::Node,
    t: &T::Node,
    depth: Option<u32>,
    alpha: f64,
    beta: f64,
    ply: usize,
) -> Result<f64, T::Error> {
    let same = tree.same_side(n, t);
    // A finished child is not counted as a position searched.
    if let Some(v) = tree.over(t) {
        return Ok(if same { v } else { -v });
    }
    if same {
        value(tree, table, t, depth, alpha, beta, ply + 1)
    } else {
        Ok(-value(tree, table, t, depth, -beta, -alpha, ply + 1)?)
    }
}

/// How much of a position's value a search to the end of the game proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// The exact value: who wins, and by how much.
    Value,
    /// Who wins, or a draw, and not by how much: a value of the same kind as the exact one
    /// (a win, a draw or a loss, as [`read_value`] reads them) that bounds it. Two
    /// empty-window questions at most, at the edges between the kinds; the margin's questions
    /// near the value, which only the exact value needs, are the dear ones.
    Outcome,
}

/// What a search to the end of the game is asked of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Question {
    /// Its value, as much of it as the aim asks ([`exact_value`]).
    Whole(Aim),
    /// Its value in the window (alpha, beta): exact inside it, else a bound on the side it
    /// falls.
    Within(f64, f64),
}

/// The exact value of `n` for its mover, to the end of the game, found by a series of
/// empty-window searches that close in on it: each answers "at least this?" far faster than
/// one search with the whole window, and the table carries what each learnt to the next. The
/// first asks whether the mover at least draws; then the questions go out in doubling steps
/// until one side is bounded, and halve the gap after that. Asking one step at a time (MTD(f))
/// took eleven searches for a margin of ten, and those close to the value are the costly ones.
/// With [`Aim::Outcome`], only as far as the kind of the value (see there).
pub fn exact_value<T: Tree>(
    tree: &mut T,
    table: &mut Table<T::Key, T::Move>,
    n: &T::Node,
    aim: Aim,
) -> Result<f64, T::Error> {
    close_in(table, aim, |table, target| {
        value(tree, table, n, None, next_down(target), target, 0)
    })
}

/// [`exact_value`], each question asked of as many threads as share `table` (see
/// [`Table::within_jobs`]) and answered by the first to finish. The threads search the same
/// tree, each with its own copy of `tree`; what one stores in the table the others find,
/// and each leaves last the moves the others are searching, so they spread over the tree.
/// The value is the same whatever the threads; the positions searched are not.
pub fn exact_value_parallel<T: SharedTree>(
    tree: &mut T,
    table: &mut Table<T::Key, T::Move>,
    n: &T::Node,
    aim: Aim,
) -> Result<f64, T::Error> {
    if table.jobs <= 1 || !tree.splits(n) {
        return exact_value(tree, table, n, aim);
    }
    table.share();
    close_in(table, aim, |table, target| {
        answer_together(tree, table, n, next_down(target), target)
    })
}

/// [`value`] to the end of the game in the window (alpha, beta), searched by every thread of
/// the shared `table` at once: the answer of the first to finish, the others stopped by it.
fn answer_together<T: SharedTree>(
    tree: &mut T,
    table: &mut Table<T::Key, T::Move>,
    n: &T::Node,
    alpha: f64,
    beta: f64,
) -> Result<f64, T::Error> {
    let shared = table.shared.clone().expect("a shared table");
    // Each thread's result, and whether it was the first to finish: the others stop as soon
    // as they see that, with an error that is not the answer.
    let finish = |r| (!shared.answered.swap(true, Ordering::SeqCst), r);
    let (main, helpers) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..table.jobs)
            .map(|_| {
                let (mut tree, mut own, n) = (tree.clone(), table.helper(), *n);
                // As deep a stack as the thread that searches alone has: a line of
                // MAX_SEARCH_STEPS plies must reach its error, not overflow a helper's stack.
                std::thread::Builder::new()
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let r = finish(value(&mut tree, &mut own, &n, None, alpha, beta, 0));
                        own.report();
                        r
                    })
                    .expect("a search thread starts")
            })
            .collect();
        let main = finish(value(tree, table, n, None, alpha, beta, 0));
        let helpers: Vec<_> = helpers
            .into_iter()
            .map(|h| h.join().expect("a search thread panicked"))
            .collect();
        (main, helpers)
    });
    shared.answered.store(false, Ordering::SeqCst);
    table.nodes += shared.helper_nodes.swap(0, Ordering::Relaxed);
    std::iter::once(main)
        .chain(helpers)
        .find_map(|(first, r)| first.then_some(r))
        .expect("one thread finished first")
}

/// The questions of [`exact_value`] for `aim`, each asked of `ask` (is the value at least
/// `target`?), and the value they close in on: the exact value, or for [`Aim::Outcome`] the
/// bound that tells its kind.
fn close_in<K, M, E>(
    table: &mut Table<K, M>,
    aim: Aim,
    mut ask: impl FnMut(&mut Table<K, M>, f64) -> Result<f64, E>,
) -> Result<f64, E> {
    let (not_a_loss, a_win) = (least_of_kind(Equal), least_of_kind(Greater));
    let (mut low, mut high) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut step = 1.0;
    let mut target = match aim {
        Aim::Value => 0.0,
        Aim::Outcome => not_a_loss,
    };
    while low < high {
        let v = ask(table, target)?;
        if v >= target {
            low = v;
        } else {
            high = v;
        }
        if let Some(w) = table.watch.as_mut().filter(|_| !table.bounds_hidden) {
            w.bounded(low, high);
        }
        if aim == Aim::Outcome {
            if read_value(low).0 == read_value(high).0 {
                return Ok(if low.is_finite() { low } else { high });
            }
            // Not a loss, and not yet known to be a win.
            target = a_win;
            continue;
        }
        target = match (low.is_finite(), high.is_finite()) {
            (true, false) => low + step,
            (false, true) => high - step,
            (true, true) => low + (high - low) / 2.0,
            (false, false) => break,
        };
        step *= 2.0;
        // Each question must lie above what is known to be reached and no higher than what is
        // known to be the most, or the search would not close in.
        if target <= low {
            target = next_up(low);
        }
        if target > high {
            target = high;
        }
    }
    Ok(low)
}

/// The least value of a kind as [`read_value`] reads them: the least win, the least draw
/// (the least value that is no loss), and for a loss none above minus infinity.
pub fn least_of_kind(kind: std::cmp::Ordering) -> f64 {
    match kind {
        Greater => WIN_VALUE / 2.0,
        Equal => next_up(-WIN_VALUE / 2.0),
        Less => f64::NEG_INFINITY,
    }
}

/// The smallest value above `x`: the upper end of an empty window at `x`.
pub fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        x
    } else if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// The largest value below `x`.
pub fn next_down(x: f64) -> f64 {
    -next_up(-x)
}
