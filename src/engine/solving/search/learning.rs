//! Learning a [`Judge`] for a solve: random games from the solve's position, their ends
//! solved exactly, the judge fitted to what those solves find (see [`learn`]).

use crate::engine::runner::direct::DirectTurns;
use std::sync::Arc;

use super::{Node, RunnerTree, Table, PASS};
use crate::board::sets::Board;
use crate::engine::negamax::{self, Tree};
use crate::engine::plan::shapes::Direct;
use crate::engine::runner::{At, Fault, RunState};
use crate::engine::solving::judge::{Judge, Sample};

/// A solve from this many empty cells up learns a [`Judge`] first ([`learn`]):
/// on Othello 6x6 from 26 empty cells (Feinstein's line) the learning costs 53 M positions
/// and saves 114 M; from 24 it would cost more than it saves.
const LEARNT_FROM_EMPTIES: u32 = 26;

/// The judge learns from this many positions of this many empty cells (10 was cheaper to
/// solve and ordered worse). The seed makes the samples, and so the solve, the same each run.
/// On Othello 6x6 1,500 samples took fewer positions than 3,000 at 26, 28 and 32 empty cells
/// (53.3 M, 471.2 M and 947.6 M against 79.9 M, 594.7 M and 1,080.6 M, the samples
/// counted), and than 1,000, 2,000 or 6,000 where those were tried (docs/SOLVED.md).
const LEARNT_SAMPLES: usize = 1500;
pub(super) const LEARNT_EMPTIES: u32 = 12;
const LEARNT_SEED: u64 = 777;
const LEARNT_TABLE_BYTES: usize = 16 << 20;

/// The judge's margin is counted in halves of a piece in the order (quarters and single
/// pieces ordered worse).
const JUDGED_UNITS: f64 = 2.0;

/// Takes up the judge that an earlier search of this solve learnt into `table`, if one
/// did: the questions of the best line are searched in the judge's order too. Whether
/// there was one.
pub(in crate::engine::solving) fn recall<B: Board, const P: usize>(
    tree: &mut RunnerTree<'_, B, P>,
    table: &Table,
) -> bool {
    tree.judge = table
        .learnt
        .clone()
        .and_then(|j| j.downcast::<Judge>().ok());
    tree.judge.is_some()
}

/// Learns a [`Judge`] for the order far from the end, where the solve from `root` is long
/// enough for that to pay: `LEARNT_SAMPLES` random games from `root` to
/// `LEARNT_EMPTIES` empty cells, each position solved exactly, the judge fitted to
/// those values. The positions searched count in `table`'s; the judge stays in `table`
/// for its later searches (the rest of the best line), so it is learnt once a solve.
pub fn learn<B: Board, const P: usize>(
    tree: &mut RunnerTree<'_, B, P>,
    table: &mut Table,
    root: &Node<B, P>,
) -> Result<(), Fault> {
    if recall(tree, table) {
        return Ok(());
    }
    let k = tree.runner;
    let empties = |n: &Node<B, P>| k.empties(&n.0);
    // The root need not be at the game's outflanking placements: a game may open with
    // placements of another kind (the centre filled in turns), which the samples' random
    // games play through.
    let Some(d) = k.direct.filter(|d| !d.wraps) else {
        return Ok(());
    };
    if empties(root) < LEARNT_FROM_EMPTIES {
        return Ok(());
    }
    let mut judge = features(tree, root);
    let mut rng = crate::engine::rng::Rng::new(LEARNT_SEED);
    // The samples' solves share a table of their own: the solve's may be shared by
    // threads. Its watch hears of their positions, not of their bounds.
    let mut own = Table::within(LEARNT_TABLE_BYTES);
    table.lend_watch(&mut own);
    own.learning(Some((0, LEARNT_SAMPLES)));
    let mut solver = RunnerTree::new(k.0, k.1, tree.game);
    let mut samples: Vec<Sample> = Vec::new();
    // Games that end early give no sample; a game that ends early every time gives up.
    // The watch goes back whether or not the samples' solves fail.
    let mut sample = || -> Result<(), Fault> {
        for _ in 0..LEARNT_SAMPLES * 4 {
            if samples.len() == LEARNT_SAMPLES {
                break;
            }
            let mut n = *root;
            while empties(&n) > LEARNT_EMPTIES {
                n = match n.1 {
                    At::Over(_) => break,
                    At::Choice { moves, .. } => {
                        let i = rng.below(moves.count() as usize);
                        let cell = moves.cells().nth(i).expect("i is below the count");
                        tree.play(&n, cell as u8)?
                    }
                    At::Pass => tree.play(&n, PASS)?,
                };
            }
            let At::Choice { pc, moves, .. } = n.1 else {
                continue;
            };
            if k.direct_at_choice(pc).is_none() {
                continue;
            }
            if empties(&n) != LEARNT_EMPTIES {
                continue;
            }
            let value = negamax::exact_value(&mut solver, &mut own, &n, negamax::Aim::Value)?;
            let m = n.0.mover as usize;
            let (mine, theirs) = (n.0.pieces[m], n.0.pieces[1 - m]);
            let their_moves = DirectTurns(k.0).moves::<false>(&d, theirs, mine).count();
            let features =
                judge.features(mine.to_u128(), theirs.to_u128(), moves.count(), their_moves);
            samples.push((features, crate::engine::state::read_value(value).1));
            own.learning(Some((samples.len(), LEARNT_SAMPLES)));
        }
        Ok(())
    };
    let sampled = sample();
    own.learning(None);
    table.take_back_watch(&mut own);
    sampled?;
    table.nodes += own.nodes;
    if samples.len() < LEARNT_SAMPLES {
        return Ok(());
    }
    judge.fit(&samples);
    let judge = Arc::new(judge);
    table.learnt = Some(judge.clone());
    tree.judge = Some(judge);
    Ok(())
}

/// A judge with no weights yet, over the cells of `root`'s board and their neighbours.
fn features<B: Board, const P: usize>(tree: &RunnerTree<'_, B, P>, root: &Node<B, P>) -> Judge {
    let k = tree.runner;
    let images = |c: usize| {
        tree.mirrors
            .cells
            .iter()
            .map(move |map| usize::from(map[c]))
    };
    let cells: Vec<_> = k
        .playable
        .cells()
        .map(|c| (c, images(c).fold(c, usize::min)))
        .collect();
    let ctx = k.ctx(tree.game, &root.0);
    let mut pairs = Vec::new();
    for a in k.playable.cells() {
        // Each pair both ways round, so that pairs a symmetry maps onto each other with
        // their ends swapped share their weights too.
        for b in (ctx.adjacent(B::single(a), 0xff) & k.playable).cells() {
            let class = images(a).zip(images(b)).fold((a, b), std::cmp::min);
            pairs.push((a, b, class));
        }
    }
    Judge::new(&cells, &pairs, tree.game.geometry.width)
}

/// The judge's estimate of `t`'s final margin for its mover, who may place on `replies`,
/// in [`JUDGED_UNITS`] of a piece.
pub(super) fn judged<B: Board, const P: usize>(
    tree: &RunnerTree<'_, B, P>,
    judge: &Judge,
    d: &Direct<B>,
    t: &RunState<B, P>,
    replies: B,
) -> i32 {
    let m = t.mover as usize;
    let (mine, theirs) = (t.pieces[m], t.pieces[1 - m]);
    let their_moves = DirectTurns(tree.runner.0)
        .moves::<false>(d, theirs, mine)
        .count();
    let margin = judge.margin(
        mine.to_u128(),
        theirs.to_u128(),
        replies.count(),
        their_moves,
    );
    (margin * JUDGED_UNITS) as i32
}
