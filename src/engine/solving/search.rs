//! The runner's states as a tree for the one search ([`negamax`]): exact game values for the
//! solver. Values are those of the players' search (`agents::terminal_value`): a win is worth
//! a million plus the score margin, so the best play also maximises the margin.
//!
//! Games whose every turn is one outflanking placement (`Direct`) are searched in three
//! stretches, by the empty cells left: far from the end with the table and the moves sorted
//! by what they leave the opponent; closer, sorted without the table; at the very end, plain
//! alpha-beta over the two boards. Other games use the first stretch throughout.

use crate::engine::runner::copies::chosen_copies;
use crate::engine::runner::direct::DirectTurns;
use std::sync::Arc;

use super::judge::Judge;
use crate::board::sets::Board;
use crate::engine::negamax::{self, Children, TableKey, Tree};
use crate::engine::plan::shapes::Direct;
use crate::engine::runner::{At, Fault, RunState, Runner};
use crate::ir::Game;

mod counted;
mod learning;
mod margins;
mod mirrors;
mod near_end;
mod order;
mod stable;
mod whole_turns;

pub use learning::learn;
pub(super) use learning::recall;
pub(super) use whole_turns::{inside_turn_value, turns_too_wide};

pub use order::SolverTables;
pub(super) use whole_turns::solves_whole_turns;

use mirrors::{Keyed, Mirrors};

/// A position as the table knows it: both players' cells, the turn, and the passes and the
/// mover together (a slot then fills 64 bytes, one cache line).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Key {
    pieces: [u64; 4],
    turn: u32,
    /// The passes counted, shifted left once, and the mover (0 or 1: the search runs with two
    /// players only).
    passes_mover: u32,
}

impl TableKey for Key {
    fn hash(&self) -> u64 {
        let words = [
            self.pieces[0],
            self.pieces[1],
            self.pieces[2],
            self.pieces[3],
            u64::from(self.turn) << 32 | u64::from(self.passes_mover),
        ];
        words.iter().fold(0u64, |h, &w| {
            (h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
    }
}

/// The solver's table: what it knows between the searches of one game. A move is the cell
/// placed on.
pub type Table = negamax::Table<Key, u8>;

// One cache line per slot.
const _: () = assert!(Table::SLOT_BYTES == 64);

/// A hash of a position's two boards, for the small tables of the last cells and of the
/// symmetry images lately found (`margins`, `mirrors::Keyed`): its high bits are the best
/// mixed.
#[inline(always)]
fn boards_hash(a: u128, b: u128) -> u64 {
    let fold = |x: u128| x as u64 ^ (x >> 64) as u64;
    let h = fold(a).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ fold(b);
    h.wrapping_mul(0xff51_afd7_ed55_8ccd)
}

/// One child's value `v` taken into an alpha-beta loop: the best value so far and the
/// window's lower edge raised to it. True when the window has closed, so the other children
/// cannot matter. (Written once for every loop of the searches below; inlined, it is the
/// code each loop had.)
#[inline(always)]
fn take_child<T: PartialOrd + Copy>(v: T, best: &mut T, alpha: &mut T, beta: T) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return *alpha >= beta;
        }
    }
    false
}

/// The move of a pass (cells are below 128: the table's keys hold no larger board).
const PASS: u8 = u8::MAX;

/// A position of the tree: the state and where it stands.
pub type Node<B, const P: usize> = (RunState<B, P>, At<B>);

/// The runner's states, one turn a level.
#[derive(Clone)]
pub struct RunnerTree<'a, B: Board, const P: usize> {
    runner: Searching<'a, B, P>,
    game: &'a Game,
    mirrors: Mirrors,
    /// A judge learnt for this game ([`learn`]), when the solve is long enough.
    judge: Option<Arc<Judge>>,
    /// What [`Tree::key`] found for the boards it keyed lately.
    keyed: Keyed,
    /// The margin search's table of the last empty cells (see `counted`).
    margins: margins::Margins,
    /// Set when a turn of several steps had too many ways to go to be taken whole (see
    /// `whole_turns`), shared by the threads' copies of the tree.
    too_wide: Arc<std::sync::atomic::AtomicBool>,
}

impl<'a, B: Board, const P: usize> RunnerTree<'a, B, P> {
    /// The tree of `game`'s positions, searched with `runner` and ordered by `tables`
    /// ([`SolverTables::new`]).
    pub fn new(runner: &'a Runner<B, P>, tables: &'a SolverTables<B>, game: &'a Game) -> Self {
        RunnerTree {
            runner: Searching(runner, tables),
            game,
            mirrors: Mirrors::new(game),
            judge: None,
            keyed: Default::default(),
            margins: margins::Margins::default(),
            too_wide: Arc::default(),
        }
    }

    /// Fills the table with the best moves of searches `1..=ORDERING_DEPTH` turns deep from
    /// `root`, which the solver then tries first (positions near the top of the tree are the
    /// ones whose order matters most).
    pub fn order_from(&mut self, table: &mut Table, root: &Node<B, P>) -> Result<(), Fault> {
        for depth in 1..=ORDERING_DEPTH {
            negamax::value(
                self,
                table,
                root,
                Some(depth),
                f64::NEG_INFINITY,
                f64::INFINITY,
                0,
            )?;
        }
        Ok(())
    }

    /// The moves of `n` with their ranks, as [`Tree::children`] orders them, the best move
    /// of `table` first where one thread filled it (see [`super::AnyRunner::ranks`]); a pass
    /// is none. Of turns of several steps, each first cell once, with the best rank of the
    /// turns that begin there (inside a turn, the cells of its next step).
    pub fn ranks(&mut self, table: &Table, n: &Node<B, P>) -> Result<Vec<(u64, usize)>, Fault> {
        let mut out = Children {
            moves: Vec::new(),
            nodes: Vec::new(),
        };
        // The table keys positions between turns only.
        let first = if n.0.steps == 0 {
            let (key, frame) = self.key(n);
            (table.single_thread_move(&key)).map(|m| self.framed(m, frame, false))
        } else {
            None
        };
        self.children(n, first, 0, &mut out)?;
        let mut ranks: Vec<(u64, usize)> = Vec::new();
        for (rank, m) in out.moves {
            if m == PASS || m == whole_turns::NOT_A_CELL {
                continue;
            }
            match ranks.iter_mut().find(|(_, cell)| *cell == usize::from(m)) {
                Some(seen) => seen.0 = seen.0.min(rank),
                None => ranks.push((rank, usize::from(m))),
            }
        }
        Ok(ranks)
    }

    /// A guess at what `t`, where its mover may place on `replies`, is worth to that mover,
    /// `depth` turns ahead: negamax over the turns of a [`Direct`] game with
    /// [`Searching::prospects`] at the leaves (depth 0 is the fastest-first order itself). A
    /// mover with no placement is as badly off as can be. With a judge, a leaf (or a mover
    /// with no placement) is worth the judge's margin plus the prospects, weighed more far
    /// from the judge's samples (see [`FAR_COUNT_EMPTIES`]).
    fn guess(&self, d: &Direct<B>, t: &RunState<B, P>, replies: B, depth: u32) -> i32 {
        let window = (-i32::MAX, i32::MAX);
        if crate::board::cpu::vectors() {
            self.guess_within::<true>(d, t, replies, depth, window)
        } else {
            self.guess_within::<false>(d, t, replies, depth, window)
        }
    }

    // The guesses order every position a solve searches with the table: in the copies of
    // `chosen_copies`, as the last empty cells' search is.
    chosen_copies!(guess_within, guess_within_v3, guess_within_base, guess_within_on,
        (&self, d: &Direct<B>, t: &RunState<B, P>, replies: B, depth: u32, window: (i32, i32))
        -> i32);

    /// [`RunnerTree::guess`] within the window `(alpha, beta)`: exact inside it, a bound on
    /// the side it falls outside. Alpha-beta finds the same guess with the whole window as
    /// plain negamax does, from fewer leaves.
    #[inline(always)]
    fn guess_within_on<const V3: bool>(
        &self,
        d: &Direct<B>,
        t: &RunState<B, P>,
        replies: B,
        depth: u32,
        (mut alpha, beta): (i32, i32),
    ) -> i32 {
        let k = self.runner;
        if let Some(judge) = self
            .judge
            .as_deref()
            .filter(|_| depth == 0 || replies.is_empty())
        {
            let weight = if k.empties(t) >= FAR_COUNT_EMPTIES {
                FAR_COUNT_WEIGHT
            } else {
                1
            };
            return learning::judged(self, judge, d, t, replies)
                + weight * k.prospects(self.game, t, replies) as i32;
        }
        if replies.is_empty() {
            return -64;
        }
        if depth == 0 {
            return k.prospects(self.game, t, replies) as i32;
        }
        let m = t.mover as usize;
        let mut best = -i32::MAX;
        for cell in replies.cells() {
            let (next, other, r2) =
                DirectTurns(k.0).turn::<false>(d, t.pieces[m], t.pieces[1 - m], cell);
            let u = DirectTurns::after(t, next, other);
            let v = -self.guess_within::<V3>(d, &u, r2, depth - 1, (-beta, -alpha));
            if take_child(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }
}

/// Positions of [`Direct`] games with at most this many empty cells are searched by
/// [`RunnerTree::direct_plain`] alone: no table, no ordering. They are most of the tree, and each
/// is over in a few hundred instructions, where a table lookup and a sort would cost more
/// than they save.
const DIRECT_PLAIN_EMPTIES: u32 = 5;

/// Up to this many empty cells, [`RunnerTree::direct_sorted`]: moves ordered, still no table
/// (its lookups miss the cache: they were a quarter of the time when every position above
/// the plain ones used it).
const DIRECT_UNTABLED_EMPTIES: u32 = 9;

/// Up to this many empty cells, a game whose score counts pieces is searched by the margin
/// search over the boards (`counted`), which keeps its positions from 9 empty cells up in a
/// small table of its own (`margins`) rather than the solver's table, whose keys, values and
/// listing of children cost more there. From 10 rather than 9 (9 rather than none in the
/// small table): Othello 6x6 from the start searched 974.9 M positions instead of 986.4 M, in
/// 72.4 s instead of 76.8 s (test builds, both at once on the two cores, 2026-12-04); from
/// 11, 1.008 G positions.
const COUNTED_UNTABLED_EMPTIES: u32 = 10;

/// The most placements a position of the stretch without the solver's table has.
const UNTABLED_PLACEMENTS: usize = if COUNTED_UNTABLED_EMPTIES > DIRECT_UNTABLED_EMPTIES {
    COUNTED_UNTABLED_EMPTIES as usize
} else {
    DIRECT_UNTABLED_EMPTIES as usize
};

/// From this many empty cells up, a position's children are looked up in the table before
/// any is searched (see [`Tree::looks_ahead`]).
const LOOK_AHEAD_EMPTIES: u32 = 12;

/// From this many empty cells up, the moves of a [`Direct`] game are ordered by a guess
/// [`GUESS_DEPTH`] turns ahead rather than by what each leaves the opponent alone. From 17
/// rather than 16: Othello 6x6 from the start searches 4.1% more positions (986.4 M against
/// 947.6 M) in 7.6% less time (94.9 s against 102.7 s side by side); from 18, 11% more
/// positions (1.05 G) in 13% less time.
const GUESSED_EMPTIES: u32 = 17;
const GUESS_DEPTH: u32 = 2;

/// From this many empty cells up, a solve runs on every thread its table allows
/// ([`Tree::splits`]); below, one thread is done before sharing pays for making the shared
/// table (Othello 6x6 on two threads: 1.4 times faster from 24 empty cells; level from 22,
/// 1.8 s each, where making a table of a gigabyte takes half a second).
const SPLIT_EMPTIES: u32 = 24;

/// The depth of the searches that order the solver's first moves ([`RunnerTree::order_from`]).
/// Together with the guesses above and the look-ahead, 14% fewer positions on Othello 6x6
/// from 26 empty cells (Feinstein's line), and a sixth from 24.
const ORDERING_DEPTH: u32 = 6;

/// With a judge, the moves are ordered by guesses from this many empty cells up (one turn
/// ahead below [`GUESSED_EMPTIES`], the judge's margin plus the count of replies at the
/// leaves).
const JUDGED_EMPTIES: u32 = 12;

/// At a guess's leaves with this many empty cells or more, eight beyond the judge's samples,
/// the prospects weigh [`FAR_COUNT_WEIGHT`] times beside the judge's margin: so far from its
/// samples the judge orders worse than the count does. On Othello 6x6 the whole board
/// takes 32% fewer positions (weighed three times everywhere, 33%); on Anti-Othello 6x6 at 24
/// empty cells, 1% fewer (everywhere, 49% more). See docs/SOLVED.md.
const FAR_COUNT_EMPTIES: u32 = learning::LEARNT_EMPTIES + 8;
const FAR_COUNT_WEIGHT: i32 = 3;

/// What the search asks of the runner, built in the search's unit (see `runner_view`): the
/// runner, and the tables the solver orders and bounds its search by.
#[derive(Clone, Copy)]
pub(super) struct Searching<'k, B: Board, const P: usize>(
    pub(super) &'k Runner<B, P>,
    pub(super) &'k SolverTables<B>,
);

impl<B: Board, const P: usize> std::ops::Deref for Searching<'_, B, P> {
    type Target = Runner<B, P>;

    #[inline(always)]
    fn deref(&self) -> &Runner<B, P> {
        self.0
    }
}

impl<B: Board, const P: usize> Searching<'_, B, P> {
    /// The cells of `s` still empty: how far it is from the end, which sets how it is searched.
    #[inline]
    fn empties(self, s: &RunState<B, P>) -> u32 {
        (self.playable & !(s.pieces[0] | s.pieces[1])).count()
    }

    fn key(s: &RunState<B, P>) -> Key {
        // The search runs only with two players (see `Runner::value`'s callers).
        let (a, b) = (s.pieces[0].to_u128(), s.pieces[1].to_u128());
        Key {
            pieces: [a as u64, (a >> 64) as u64, b as u64, (b >> 64) as u64],
            turn: s.turn,
            passes_mover: s.passes << 1 | u32::from(s.mover & 1),
        }
    }

    /// The value of a finished game for `player`.
    pub(super) fn terminal_value(
        self,
        game: &Game,
        s: &RunState<B, P>,
        winner: Option<u8>,
        player: u8,
    ) -> f64 {
        self.outcome(game, s, winner).value_for(player)
    }

    /// How much `t` offers its mover, who may place on `moves`: the placements, those on the
    /// cells with fewest neighbours counted three times, and the empty cells next to the
    /// other player's pieces (where placements may come later). The solver tries first the
    /// moves that leave the opponent least: a cut comes soonest from a move that constrains.
    /// The weights are the best of those tried on 6x6 Othello endgames (a third fewer
    /// positions than counting placements alone); any rules get the same order.
    fn prospects(self, game: &Game, t: &RunState<B, P>, moves: B) -> u32 {
        let other = t.pieces[1 - t.mover as usize];
        self.prospects_on(game, t, moves, other, t.pieces[t.mover as usize])
    }

    /// [`Searching::prospects`] of a mover with the cells `mine` against `other`, at any state
    /// `s` of the game (the count reads the boards alone).
    #[inline(always)]
    fn prospects_on(self, game: &Game, s: &RunState<B, P>, moves: B, other: B, mine: B) -> u32 {
        let empty = self.playable & !(mine | other);
        let near = if self.near.eight_by_parts && !self.near.wraps {
            // The board's steps without a context: called for every child a little before
            // the end, the general path's calls took a twelfth of the instructions.
            Runner::<B, P>::eight_by_steps(other, |s, d| self.flat_step(s, d))
        } else {
            self.ctx(game, s).adjacent(other, 0xff)
        };
        let fewest = self.1.by_exposure.first().copied().unwrap_or(B::EMPTY);
        moves.count() + 2 * (moves & fewest).count() + (near & empty).count()
    }

    /// The position after the mover of a [`Direct`] game places on `cell`, and where it
    /// stands.
    #[inline(always)]
    fn direct_child(
        self,
        game: &Game,
        d: &Direct<B>,
        s: &RunState<B, P>,
        cell: usize,
    ) -> (RunState<B, P>, At<B>) {
        let m = s.mover as usize;
        let (next, other, replies) =
            DirectTurns(self.0).turn::<false>(d, s.pieces[m], s.pieces[1 - m], cell);
        let t = DirectTurns::after(s, next, other);
        let at = self.direct_at(game, d, &t, replies);
        (t, at)
    }

    /// Where `t`, reached by a turn of a [`Direct`] game, stands: a choice among its mover's
    /// placements `replies`, or (with none) a pass or the end, as the general path decides.
    #[inline(always)]
    fn direct_at(self, game: &Game, d: &Direct<B>, t: &RunState<B, P>, replies: B) -> At<B> {
        if replies.is_empty() {
            self.start_or_end(game, t, None)
        } else {
            At::Choice {
                pc: d.pc,
                moves: replies,
                more: B::EMPTY,
            }
        }
    }
}

impl<B: Board, const P: usize> Tree for RunnerTree<'_, B, P> {
    type Node = Node<B, P>;
    type Key = Key;
    type Move = u8;
    type Error = Fault;
    const MOVES_ARE: &'static str = "turns";

    fn over(&self, (s, at): &Self::Node) -> Option<f64> {
        match *at {
            At::Over(winner) => Some(self.runner.terminal_value(self.game, s, winner, s.mover)),
            _ => None,
        }
    }

    fn key(&self, (s, _): &Self::Node) -> (Key, u8) {
        let key = Searching::key(s);
        if self.mirrors.is_empty() {
            return (key, 0);
        }
        let (a, b) = (s.pieces[0].to_u128(), s.pieces[1].to_u128());
        let (a, b, frame) = self.keyed.least(&self.mirrors, a, b);
        let pieces = [a as u64, (a >> 64) as u64, b as u64, (b >> 64) as u64];
        (Key { pieces, ..key }, frame)
    }

    fn framed(&self, m: u8, frame: u8, to_table: bool) -> u8 {
        if frame == 0 || m == PASS || m == whole_turns::NOT_A_CELL {
            return m;
        }
        let i = usize::from(frame - 1);
        let map = if to_table {
            &self.mirrors.cells[i]
        } else {
            &self.mirrors.back[i]
        };
        map[usize::from(m)]
    }

    fn work(&self, (s, _): &Self::Node, depth: Option<u32>) -> u8 {
        // To the end, the empty cells say how much is left below; a search that orders the
        // solver's moves stops sooner.
        let empties = self.runner.empties(s);
        empties.min(depth.unwrap_or(u32::MAX)).min(254) as u8
    }

    fn looks_ahead(&self, (s, _): &Self::Node) -> bool {
        self.runner.empties(s) >= LOOK_AHEAD_EMPTIES
    }

    fn splits(&self, (s, _): &Self::Node) -> bool {
        self.runner.empties(s) >= SPLIT_EMPTIES
    }

    fn horizon(&mut self, (s, at): &Self::Node) -> Result<f64, Fault> {
        let k = self.runner;
        let margin = k.outcome(self.game, s, None).margin(s.mover);
        let At::Choice { pc, moves, .. } = *at else {
            return Ok(margin);
        };
        let Some(d) = k.direct_at_choice(pc).filter(|d| !d.wraps) else {
            return Ok(margin);
        };
        let m = s.mover as usize;
        let theirs = DirectTurns(k.0).moves::<false>(d, s.pieces[1 - m], s.pieces[m]);
        let mut swapped = *s;
        swapped.mover = 1 - s.mover;
        let mine = f64::from(k.prospects(self.game, s, moves));
        let theirs = f64::from(k.prospects(self.game, &swapped, theirs));
        Ok(mine - theirs + margin / 64.0)
    }

    fn same_side(&self, (parent, _): &Self::Node, (child, _): &Self::Node) -> bool {
        // A turn hands the move to the other player, but a game may end inside a turn (an
        // end checked after every step) with its mover still to move: a finished position is
        // valued for its mover.
        parent.mover == child.mover
    }

    fn shortcut(
        &mut self,
        table: &mut Table,
        (s, at): &Self::Node,
        alpha: f64,
        beta: f64,
        ply: usize,
    ) -> Result<Option<f64>, Fault> {
        let (pc, moves) = match *at {
            At::Over(_) => return Ok(None),
            At::Pass => {
                let n = (*s, *at);
                let t = self.play(&n, PASS)?;
                return self.after(table, s, t, alpha, beta, ply).map(Some);
            }
            At::Choice { pc, moves, .. } => (pc, moves),
        };
        self.untabled(table, s, pc, moves, alpha, beta, ply)
    }

    fn children(
        &mut self,
        n: &Self::Node,
        first: Option<u8>,
        _ply: usize,
        out: &mut Children<Self>,
    ) -> Result<(), Fault> {
        let (k, game) = (self.runner, self.game);
        if !k.single_step {
            return whole_turns::children(self, n, first, out);
        }
        let moves = match n.1 {
            At::Choice { moves, .. } => moves,
            // A pass is the one way on (the search takes it as a shortcut, without the table).
            _ => B::EMPTY,
        };
        if moves.is_empty() {
            out.nodes.push(self.play(n, PASS)?);
            out.moves.push((0, PASS));
            return Ok(());
        }
        out.moves.reserve(moves.count() as usize);
        out.nodes.reserve(moves.count() as usize);
        // A position that a symmetry maps onto itself: of moves that one maps onto the other,
        // the positions they lead to are images of each other, so only the first is searched.
        let mirrors = &self.mirrors;
        let boards = (n.0.pieces[0].to_u128(), n.0.pieces[1].to_u128());
        let fixing = if mirrors.is_empty() {
            0
        } else {
            self.keyed.fixing(mirrors, boards.0, boards.1)
        };
        let mut moves = moves;
        if fixing != 0 {
            for cell in moves.cells() {
                if whole_turns::repeats(self, fixing, cell) {
                    moves = moves & !B::single(cell);
                }
            }
        }
        // The table's best first, then those that leave the opponent the fewest replies (a cut
        // comes soonest from a move that constrains).
        let empties = k.empties(&n.0);
        let guessed_from = if self.judge.is_some() {
            JUDGED_EMPTIES
        } else {
            GUESSED_EMPTIES
        };
        let shallow = match n.1 {
            At::Choice { pc, .. } if empties >= guessed_from => {
                k.direct_at_choice(pc).filter(|d| !d.wraps)
            }
            _ => None,
        };
        let depth = if empties >= GUESSED_EMPTIES {
            GUESS_DEPTH
        } else {
            0
        };
        for cell in moves.cells() {
            let (t, next) = self.play(n, cell as u8)?;
            let rank = match next {
                _ if first == Some(cell as u8) => 0,
                At::Over(_) => 1,
                At::Pass => 2,
                At::Choice { moves, .. } => match shallow {
                    Some(d) => (3 + 10_000 + self.guess(d, &t, moves, depth)).max(3) as u32,
                    None => 3 + k.prospects(game, &t, moves),
                },
            };
            out.moves.push((u64::from(rank), cell as u8));
            out.nodes.push((t, next));
        }
        Ok(())
    }

    // Called, not inlined, and calling the step's one shared copy (`play_out_of_line`): the
    // four callers (the children, the value, the table's learning, a turn's end) each had an
    // inlined copy of the step, 0.7 MB in all, and one inlined here was still 0.2 MB over the
    // widths, for no measured speed (docs/PERFORMANCE.md, "Build time").
    #[inline(never)]
    fn play(&mut self, (s, at): &Self::Node, cell: u8) -> Result<Self::Node, Fault> {
        let (k, game) = (self.runner, self.game);
        let mut t = s.at_boundary(k.counted());
        match *at {
            At::Choice { pc, .. } if cell != PASS => {
                if let Some(d) = k.direct_at_choice(pc).filter(|d| !d.wraps) {
                    return Ok(k.direct_child(game, d, s, usize::from(cell)));
                }
                let next = k.play_out_of_line(game, &mut t, pc, 0, usize::from(cell))?;
                Ok((t, next))
            }
            _ => {
                let next = k.pass_out_of_line(game, &mut t)?;
                Ok((t, next))
            }
        }
    }

    fn endless(&self, message: String) -> Fault {
        Box::new(crate::engine::step::RuleError::endless_game(
            self.game, message,
        ))
    }
}
