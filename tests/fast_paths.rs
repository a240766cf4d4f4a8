//! The fast, whole-set forms must agree with the simple per-cell ones they replace, on many
//! positions of every bundled game (the per-cell forms are the oracle).

mod common;
use common::{engine, game_files};
use outflank::agents::{game_seed, Rng};
use outflank::engine::bits::Bits;
use outflank::engine::eval::Ctx;
use outflank::ir::{Cell, Cond, NOBODY};

#[test]
fn line_sources_equal_the_per_cell_match() {
    let mut checked = 0;
    for file in game_files() {
        let e = engine(&file, &[]);
        for game in 0..12 {
            let mut rng = Rng::new(game_seed(77, game));
            let mut s = e.start().unwrap();
            let mut buf = Vec::new();
            while !s.is_over() {
                let ctx = Ctx {
                    engine: &e,
                    state: &s,
                    bound: NOBODY,
                    mover_can_move: None,
                };
                for (l, line) in e.game.lines.iter().enumerate() {
                    let fast = ctx.sources(line);
                    let mut slow = Bits::EMPTY;
                    for c in e.game.geometry.playable.iter() {
                        if ctx.cond(&Cond::AnyLine(l, Box::new(Cell::Const(c as u16)))) {
                            slow.insert(c);
                        }
                    }
                    assert_eq!(
                        fast, slow,
                        "{file}, line {}, game {game}, turn {}",
                        line.name, s.turn
                    );
                    checked += 1;
                }
                e.steps(&s, &mut buf).unwrap();
                s = e.apply(&s, buf[rng.below(buf.len())]).unwrap();
            }
        }
    }
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
    let checked = outflank::check::check(
        outflank::source::SourceFile::new("t.rules", rules),
        &outflank::source::NoFiles,
        &[],
    )
    .unwrap_or_else(|_| panic!("the test rules must check"));
    let e = outflank::engine::Engine::new(checked.game);
    for game in 0..40 {
        let mut rng = Rng::new(game_seed(5, game));
        let mut s = e.start().unwrap();
        let mut buf = Vec::new();
        while !s.is_over() {
            let ctx = Ctx {
                engine: &e,
                state: &s,
                bound: NOBODY,
                mover_can_move: None,
            };
            for (l, line) in e.game.lines.iter().enumerate() {
                let fast = ctx.sources(line);
                let slow: Vec<usize> = e
                    .game
                    .geometry
                    .playable
                    .iter()
                    .filter(|&c| ctx.cond(&Cond::AnyLine(l, Box::new(Cell::Const(c as u16)))))
                    .collect();
                assert_eq!(
                    fast.iter().collect::<Vec<_>>(),
                    slow,
                    "line {} game {game}",
                    line.name
                );
            }
            e.steps(&s, &mut buf).unwrap();
            s = e.apply(&s, buf[rng.below(buf.len())]).unwrap();
        }
    }
}
