//! The pieces the solver counts as never to be captured again, which it cuts its search
//! short by (src/engine/solving/search/stable.rs), against every way each game can go on.

use std::collections::HashSet;

use crate::common::{engine, engine_from, near_the_end};
use outflank::engine::state::State;
use outflank::engine::Engine;

/// Per player, the cells of its pieces at `s` that some way the game can go on from there
/// takes from it: every order of turns to the end, each position searched once.
fn ever_taken(e: &Engine, s: &State) -> [HashSet<usize>; 2] {
    let owned: [Vec<usize>; 2] = [0, 1].map(|p| s.pieces.of(p).iter().collect());
    let mut taken = [HashSet::new(), HashSet::new()];
    let mut seen = HashSet::new();
    let mut stack = vec![*s];
    let mut steps = Vec::new();
    while let Some(t) = stack.pop() {
        if !seen.insert((e.position_rows(&t), t.mover)) {
            continue;
        }
        for p in 0..2 {
            let now = t.pieces.of(p);
            taken[p].extend(owned[p].iter().filter(|&&c| !now.contains(c)));
        }
        if t.is_over() {
            continue;
        }
        e.steps(&t, &mut steps).unwrap();
        for &step in &steps {
            stack.push(e.apply(&t, step).unwrap());
        }
    }
    taken
}

/// Checks, at positions of `e` with `empties` empty cells, that no piece the runner calls stable
/// is ever taken; returns how many it called stable, and how many were never taken.
fn stable_never_taken(e: &Engine, empties: usize, what: &str) -> (usize, usize) {
    let positions = near_the_end(e, empties, 12);
    assert!(
        positions.len() >= 8,
        "{what}: {} positions",
        positions.len()
    );
    let (mut called, mut kept) = (0, 0);
    for s in &positions {
        let stable = e.stable_pieces(s).expect("the runner counts stable pieces");
        let taken = ever_taken(e, s);
        for p in 0..2 {
            for c in &stable[p] {
                assert!(
                    s.pieces.of(p).contains(*c),
                    "{what}: {c} is not player {p}'s"
                );
                assert!(
                    !taken[p].contains(c),
                    "{what}: player {p}'s piece on {} is called stable but can be taken, in {}",
                    e.game.geometry.name(*c),
                    e.position_rows(s)
                );
            }
            called += stable[p].len();
            kept += s
                .pieces
                .of(p)
                .iter()
                .filter(|c| !taken[p].contains(c))
                .count();
        }
    }
    (called, kept)
}

#[test]
fn no_piece_called_stable_is_ever_taken() {
    for (file, set, empties, what) in [
        (
            "games/othello.rules",
            &[("size", "6")][..],
            8,
            "Othello 6x6",
        ),
        ("games/reversi-8x8.rules", &[][..], 8, "Reversi 8x8"),
        ("games/octagon-othello.rules", &[][..], 8, "Octagon Othello"),
        // Most games on this hexagon are blocked before eight cells are left empty.
        (
            "games/hex-reversi.rules",
            &[("side", "4")][..],
            10,
            "Hex Reversi",
        ),
    ] {
        let e = engine(file, set);
        let (called, kept) = stable_never_taken(&e, empties, what);
        // Not a vacuous pass: corners, edges and the pieces they hold are found, though
        // fewer than exhaustive search keeps (a piece may be safe only by how play goes).
        assert!(
            called * 3 >= kept,
            "{what}: {called} called stable of {kept} never taken"
        );
    }
}

#[test]
fn lines_that_cross_a_piece_one_way_or_round_joined_edges_have_no_stable_pieces() {
    // With a direction whose opposite is not in the line, a run passes a piece one way
    // only; on joined edges no cell is at an edge. The runner then counts none.
    let one_way = "title \"t\"\nboard 6 x 6\nplayer black 'B'\nplayer white 'W'\n\
         first black\nsetup {\n  white on at(3, 3), at(4, 4)\n  black on at(4, 3), at(3, 4)\n}\n\
         directions lines = orthogonal, northeast\nline outflank = opponent+ friend along lines\n\
         turn { choose c in empty where some(captured(outflank, c)) { place c flip captured(outflank, c) } }\n\
         end when blocked\nscore p = count(p)\n";
    let e = engine_from(one_way);
    assert_eq!(e.stable_pieces(&e.start().unwrap()), None, "one way");
    let e = engine("games/cylinder-othello.rules", &[]);
    assert_eq!(e.stable_pieces(&e.start().unwrap()), None, "cylinder");
    // Orthogonal lines both ways do count some.
    let both_ways = one_way.replace("orthogonal, northeast", "orthogonal");
    let e = engine_from(&both_ways);
    let (called, _) = stable_never_taken(&e, 8, "orthogonal");
    assert!(called > 0, "orthogonal lines: none called stable");
}
