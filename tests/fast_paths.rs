//! The fast, whole-set forms must agree with the simple per-cell ones they replace, on many
//! positions of every bundled game (the per-cell forms are the oracle).

mod common;
use common::{engine, engine_from, game_files};
use outflank::agents::{game_seed, Rng};
use outflank::engine::bits::Bits;
use outflank::engine::eval::Ctx;
use outflank::engine::Engine;
use outflank::ir::{Cell, Cond, Set, NOBODY};

/// Plays `games` seeded random games and, at every position, compares each line's whole-set
/// sources with the per-cell match. Returns the number of comparisons.
fn compare_lines(e: &Engine, seed: u64, games: u64, what: &str) -> usize {
    let mut checked = 0;
    for game in 0..games {
        let mut rng = Rng::new(game_seed(seed, game));
        let mut s = e.start().unwrap();
        let mut buf = Vec::new();
        while !s.is_over() {
            let ctx = Ctx {
                engine: e,
                state: &s,
                bound: NOBODY,
                mover_can_move: None,
            };
            for (l, line) in e.game.lines.iter().enumerate() {
                let fast = ctx.sources(line);
                let mut slow = Bits::EMPTY;
                for c in e.game.geometry.playable.iter() {
                    // The meaning: placing at c captures something (a match that takes no
                    // cell does not count). The per-cell test must agree with it too.
                    let at = Box::new(Cell::Const(c as u16));
                    let captures = !ctx.set(&Set::Captured(l, at.clone())).is_empty();
                    assert_eq!(ctx.cond(&Cond::AnyLine(l, at)), captures, "{what}, {c}");
                    if captures {
                        slow.insert(c);
                    }
                }
                assert_eq!(
                    fast, slow,
                    "{what}, line {}, game {game}, turn {}",
                    line.name, s.turn
                );
                checked += 1;
            }
            e.steps(&s, &mut buf).unwrap();
            s = e.apply(&s, buf[rng.below(buf.len())]).unwrap();
        }
    }
    checked
}

#[test]
fn line_sources_equal_the_per_cell_match() {
    let checked: usize = game_files()
        .iter()
        .map(|file| compare_lines(&engine(file, &[]), 77, 12, file))
        .sum();
    assert!(checked > 5000, "only {checked} comparisons");
}

#[test]
fn line_sources_handle_every_kind_of_element() {
    // Patterns beyond the bundled games: optional and counted elements, overlapping classes,
    // orthogonal directions, and removed cells in the way.
    let rules = r#"
        board 7 x 6
        removed cells(d3)
        player black 'B'
        player white 'W'
        line a = opponent? friend
        line b = opponent{2} empty
        line c = piece+ friend along orthogonal
        line d = opponent empty? piece
        turn { choose x in empty { place x } }
        end when none(empty)
        score p = count(p)
    "#;
    let e = engine_from(rules);
    assert!(compare_lines(&e, 5, 40, "test rules") > 500);
}
