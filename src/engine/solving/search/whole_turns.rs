//! Games whose turns take several steps (a capture that chains on, a choice of the stone to
//! take): the solver's moves are whole turns, each followed on the runner step by step to its
//! end. The table then holds positions between turns only, whose pieces, turn, passes and
//! mover are all of their future, and every level of the tree hands the move to the other
//! player, as in the games of one placement a turn.
//!
//! A turn is named by the cell of its first step, and turns that begin on one cell share the
//! name: the table's best move then puts first the turns that begin where the best one did,
//! and the board's symmetries map a name as they map cells.

use super::{take_child, Node, RunnerTree, Searching, Table, PASS};
use crate::board::sets::Board;
use crate::engine::hash::FoldHasher;
use crate::engine::negamax::{self, Children, Tree};
use crate::engine::runner::positions::choose_at;
use crate::engine::runner::{fault, At, Fault, StepKey};
use crate::ir::{AltKind, Game};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::atomic::Ordering;

/// The error of a turn too wide to be taken whole; never shown, as the solver then leaves
/// the game to the step-by-step search.
const TOO_WIDE: &str = "a turn has too many ways to go to be taken whole";

/// The name of a turn whose first step is not of a cell (a word, a pass option).
pub(super) const NOT_A_CELL: u8 = PASS - 1;

/// The most steps the solver tries to list a position's whole turns. Verto's take a few
/// dozen; a turn whose chains branch wider (VECT-REVERSE's moves of discs, some positions of
/// which have millions of ways through a turn) is left to the step-by-step search, whose
/// cut-offs inside the turn spare it most of them.
const WIDE_TURN_STEPS: u32 = 20_000;

/// Whether the solver may take `game`'s turns of several steps whole: nothing but the
/// pieces, the turn, the passes and the mover lasts from one turn to the next (no counters,
/// no tokens, no agreement after the end), so the table's keys tell positions apart.
pub(in crate::engine::solving) fn solves_whole_turns(game: &Game) -> bool {
    game.counters.is_empty() && game.tokens.is_empty() && game.agreement.is_none()
}

/// The children of `n` in a game of several steps a turn: every position its turn can
/// end in, once each, named by the turn's first cell and ranked as the solver tries them:
/// the turns that begin where `first` names, then those that end the game, then those
/// that leave the opponent a pass, then the fewest replies first. Where a symmetry of the
/// board maps a position between turns onto itself, the turns that begin on a cell it
/// maps to an earlier one are left out: they end in images of the others' ends.
pub(super) fn children<'t, B: Board, const P: usize>(
    tree: &mut RunnerTree<'t, B, P>,
    n: &Node<B, P>,
    first: Option<u8>,
    out: &mut Children<RunnerTree<'t, B, P>>,
) -> Result<(), Fault> {
    if !matches!(n.1, At::Choice { .. }) {
        out.nodes.push(tree.play(n, PASS)?);
        out.moves.push((0, PASS));
        return Ok(());
    }
    let (k, game) = (tree.runner, tree.game);
    let between_turns = n.0.steps == 0;
    let fixing = if between_turns && !tree.mirrors.is_empty() {
        let boards = (n.0.pieces[0].to_u128(), n.0.pieces[1].to_u128());
        tree.keyed.fixing(&tree.mirrors, boards.0, boards.1)
    } else {
        0
    };
    // A position between turns starts its turn as `play` starts one.
    let start = if between_turns {
        n.0.at_boundary(k.counted())
    } else {
        n.0
    };
    let mut ends = Vec::new();
    let mut seen = None;
    let mut tried = 0;
    let listed = turn_ends(
        tree,
        (start, n.1),
        None,
        fixing,
        &mut ends,
        &mut seen,
        &mut tried,
    );
    if listed.is_err() && tried > WIDE_TURN_STEPS {
        tree.too_wide.store(true, Ordering::Relaxed);
    }
    listed?;
    if ends.is_empty() {
        // The runner stops at a choice only where one of its steps is legal, so every
        // route came back to a position it had passed: the turn can go round for ever.
        let At::Choice { pc, .. } = n.1 else {
            unreachable!("a turn under way stands at a choice")
        };
        let c = choose_at(game, pc);
        let turn_without_end = crate::engine::step::turn_without_end();
        return Err(fault(
            game,
            &turn_without_end,
            c.alts.first().map(|a| &a.loc),
        ));
    }
    out.moves.reserve(ends.len());
    out.nodes.reserve(ends.len());
    for (name, t) in ends {
        let rank = match t.1 {
            _ if first == Some(name) => 0,
            At::Over(_) => 1,
            At::Pass => 2,
            At::Choice { pc, moves, more } => {
                let later = k.candidate_count(game, &t.0, pc, moves, more) - moves.count() as usize;
                3 + u64::from(k.prospects(game, &t.0, moves)) + later as u64
            }
        };
        out.moves.push((rank, name));
        out.nodes.push(t);
    }
    Ok(())
}

/// Adds to `ends` every position the turn under way at `n` ends in that `ends` does not
/// hold yet, each with the name of the turn's first step (`name` once it is taken).
/// `seen` holds the positions inside the turn already followed, made at the turn's second
/// step: a chain that reaches one position by two routes (captures taken in another
/// order) is followed once, as perft's memo counts it once.
fn turn_ends<B: Board, const P: usize>(
    tree: &RunnerTree<'_, B, P>,
    n: Node<B, P>,
    name: Option<u8>,
    fixing: u32,
    ends: &mut Vec<(u8, Node<B, P>)>,
    seen: &mut Option<HashSet<StepKey<B, P>, BuildHasherDefault<FoldHasher>>>,
    tried: &mut u32,
) -> Result<(), Fault> {
    let (k, game) = (tree.runner, tree.game);
    let (s, At::Choice { pc, moves, more }) = n else {
        unreachable!("a turn under way stands at a choice")
    };
    if name.is_some() {
        let seen = seen.get_or_insert_with(HashSet::default);
        if !seen.insert(StepKey::of(&s, pc)) {
            return Ok(());
        }
    }
    let c = choose_at(game, pc);
    for i in 0..k.candidate_count(game, &s, pc, moves, more) {
        let (alt, value) = k.candidate(game, &s, pc, moves, more, i);
        let name = name.unwrap_or_else(|| match c.alts[alt].kind {
            // Cells are below 128 on the boards the table's keys hold.
            AltKind::Cell { .. } => value as u8,
            _ => NOT_A_CELL,
        });
        if fixing != 0 && name != NOT_A_CELL && repeats(tree, fixing, usize::from(name)) {
            continue;
        }
        *tried += 1;
        if *tried > WIDE_TURN_STEPS {
            return Err(fault(game, TOO_WIDE, None));
        }
        let mut t = s;
        let Some(next) = k.try_play_out_of_line(game, &mut t, pc, alt, value)? else {
            continue;
        };
        match next {
            At::Choice { .. } if t.turn == s.turn => {
                turn_ends(tree, (t, next), Some(name), 0, ends, seen, tried)?;
            }
            _ => {
                let key = Searching::key(&t);
                if !ends.iter().any(|(_, e)| Searching::key(&e.0) == key) {
                    ends.push((name, (t, next)));
                }
            }
        }
    }
    Ok(())
}

/// Whether a turn had too many ways to go to be taken whole: the search's answer, an
/// error, then says nothing of the position, and the step-by-step search takes the game.
pub(in crate::engine::solving) fn turns_too_wide<B: Board, const P: usize>(
    tree: &RunnerTree<'_, B, P>,
) -> bool {
    tree.too_wide.load(Ordering::Relaxed)
}

/// Whether one of the symmetries in `fixing` (bits by the mirrors' order) maps `cell` to
/// an earlier cell.
pub(super) fn repeats<B: Board, const P: usize>(
    tree: &RunnerTree<'_, B, P>,
    fixing: u32,
    cell: usize,
) -> bool {
    let mirrors = &tree.mirrors;
    (0..mirrors.len()).any(|i| fixing >> i & 1 != 0 && usize::from(mirrors.cells[i][cell]) < cell)
}

/// The value for its mover of `n`, a position inside a turn, in the window
/// `(alpha, beta)` (exact inside it, a bound on the side it falls outside): the best of
/// the positions the turn can end in, each searched with the table. `n` itself is not
/// stored, since the table's keys tell apart positions between turns only.
pub(in crate::engine::solving) fn inside_turn_value<B: Board, const P: usize>(
    tree: &mut RunnerTree<'_, B, P>,
    table: &mut Table,
    n: &Node<B, P>,
    mut alpha: f64,
    beta: f64,
) -> Result<f64, Fault> {
    table.nodes += 1;
    let mut ends = Children {
        moves: Vec::new(),
        nodes: Vec::new(),
    };
    children(tree, n, None, &mut ends)?;
    let mut best = f64::NEG_INFINITY;
    for t in &ends.nodes {
        let v = negamax::child_value(tree, table, n, t, None, alpha, beta, 0)?;
        if take_child(v, &mut best, &mut alpha, beta) {
            break;
        }
    }
    Ok(best)
}
