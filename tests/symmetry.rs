//! The board's symmetries the checker finds in the rules (src/check/symmetry.rs): which ones
//! each kind of rules keeps, and that each found really plays the same: a position and its
//! image have the images of each other's first steps and the same perft.

use crate::common::{engine, engine_from, game_files, plain_value};
use outflank::engine::rng::Rng;
use outflank::engine::Engine;
use outflank::ir::Symmetry;

fn names(e: &Engine) -> Vec<&'static str> {
    e.game.symmetries.iter().map(|s| s.name).collect()
}

/// Rules of a plain outflanking game on `board`, with `extra` items.
fn rules(board: &str, extra: &str) -> String {
    format!(
        "title \"t\"\n{board}\nplayer black 'B'\nplayer white 'W'\nfirst black\n{extra}\n\
         line outflank = opponent+ friend\n\
         turn {{ choose c in empty where some(captured(outflank, c)) {{ place c flip captured(outflank, c) }} }}\n\
         end when blocked\nscore p = count(p)\n"
    )
}

#[test]
fn the_symmetries_each_kind_of_rules_keeps() {
    let all = [
        "a quarter turn",
        "a half turn",
        "three quarter turns",
        "the mirror left to right",
        "the mirror top to bottom",
        "the mirror in the diagonal from a1",
        "the mirror in the other diagonal",
    ];
    // A square board with lines in every direction keeps all eight (the identity not listed),
    // and so does one with its corners cut alike.
    assert_eq!(names(&engine("games/othello.rules", &[])), all);
    assert_eq!(names(&engine("games/octagon-othello.rules", &[])), all);
    // A rectangle has no quarter turns and no diagonal mirrors.
    assert_eq!(
        names(&engine_from(&rules("board 6 x 4", ""))),
        [
            "a half turn",
            "the mirror left to right",
            "the mirror top to bottom"
        ]
    );
    // One corner removed: only the mirror through that corner.
    assert_eq!(
        names(&engine_from(&rules("board 6 x 6\nremoved cells(a1)", ""))),
        ["the mirror in the diagonal from a1"]
    );
    // Gravity names south alone: only the mirror that keeps south.
    assert_eq!(
        names(&engine("games/gravity-othello.rules", &[])),
        ["the mirror left to right"]
    );
    // A set of cells the rules name must map onto itself: a1 and f6 stay or swap places
    // under the half turn and the diagonal mirrors, not under the others. One cell alone
    // (`at(1, 1)`) must stay where it is.
    let named = rules("board 6 x 6", "def bonus(p) = count(p & cells(a1, f6))");
    let e = engine_from(&named.replace("score p = count(p)", "score p = count(p) + bonus(p)"));
    assert_eq!(
        names(&e),
        [
            "a half turn",
            "the mirror in the diagonal from a1",
            "the mirror in the other diagonal"
        ]
    );
    let one = rules("board 6 x 6", "def bonus(p) = count(p & cells(a1))");
    let e = engine_from(&one.replace("score p = count(p)", "score p = count(p) + bonus(p)"));
    assert_eq!(names(&e), ["the mirror in the diagonal from a1"]);
    // A cell's row or column changes under every map but the identity, so rules that ask
    // for one keep none (a named cell's row is a number the checker works out: no matter).
    let rows = rules("board 6 x 6", "").replace("where some(", "where row(c) > 0 and some(");
    assert!(names(&engine_from(&rows)).is_empty());
    let named =
        rules("board 6 x 6", "").replace("score p = count(p)", "score p = count(p) + row(a2)");
    assert_eq!(names(&engine_from(&named)), all);
    // A hexagon keeps its twelve: the rectangle's maps that keep its six directions, and the
    // turns by sixths and the mirrors the rectangle does not have.
    let hexagon = [
        "a half turn",
        "the mirror in the diagonal from a1",
        "the mirror in the other diagonal",
        "a sixth of a turn",
        "a third of a turn",
        "two thirds of a turn",
        "five sixths of a turn",
        "the mirror in the middle row",
        "the mirror in the middle column",
        "the mirror at right angles to the middle row",
        "the mirror at right angles to the middle column",
    ];
    assert_eq!(names(&engine("games/hex-reversi.rules", &[])), hexagon);
    assert_eq!(
        names(&engine("games/hex-reversi.rules", &[("side", "3")])),
        hexagon
    );
    // A rhombus, even one of odd side, has only the three of a rectangle.
    assert_eq!(
        names(&engine_from(&rules("board rhombus 5", ""))),
        [
            "a half turn",
            "the mirror in the diagonal from a1",
            "the mirror in the other diagonal"
        ]
    );
    // Three corners of the hexagon of side 3, a third of a turn apart (e3, a5 and c1 on its
    // grid of 5): a sixth of a turn sends them to the other three, so only the thirds and the
    // three mirrors through them keep the set.
    let corners = rules(
        "board hexagon 3",
        "def bonus(p) = count(p & cells(e3, a5, c1))",
    )
    .replace("score p = count(p)", "score p = count(p) + bonus(p)");
    assert_eq!(
        names(&engine_from(&corners)),
        [
            "the mirror in the other diagonal",
            "a third of a turn",
            "two thirds of a turn",
            "the mirror in the middle row",
            "the mirror in the middle column"
        ]
    );
}

#[test]
fn the_solver_merging_a_hexagons_turned_positions_finds_the_plain_value() {
    // Hexagonal Reversi on the hexagon of side 3 (19 cells), from positions with nine empty
    // cells reached by seeded random play: the solver, which keys each position by the least
    // of its twelve images and searches one move of each set a symmetric position maps onto
    // each other, must end its line where a plain search says the mover can get.
    let e = engine("games/hex-reversi.rules", &[("side", "3")]);
    assert_eq!(e.game.symmetries.len(), 11);
    let g = &e.game.geometry;
    let playable = g.playable.iter().count();
    let solves_right = |s: &outflank::engine::state::State, what: &str| {
        let solution = outflank::apps::solve::solve(&e, s, 1 << 24).unwrap();
        let end = solution.end.outcome.unwrap();
        assert_eq!(end.value_for(s.mover), plain_value(&e, s), "{what}");
    };
    let mut solved = 0;
    for seed in 0..8 {
        let mut rng = Rng::new(seed);
        let mut s = e.start().unwrap();
        while !s.is_over() && playable - e.position_rows(&s).matches(['B', 'W']).count() > 9 {
            let step = e.random_step(&s, &mut rng).unwrap().unwrap();
            s = e.apply(&s, step).unwrap();
        }
        if !s.is_over() {
            solves_right(&s, &format!("seed {seed}"));
            solved += 1;
        }
    }
    assert!(solved >= 6, "{solved}");
    // The start with black on three corners (c1, e3, a5) and white on three cells beside them
    // (d1, d4, a4), each three a third of a turn apart: a position that is its own image, where
    // the solver searches one of each set of moves that map onto each other.
    let rows = "##BW./#.BW./.W.BB/WBWW#/B..##";
    let third = e
        .game
        .symmetries
        .iter()
        .find(|s| s.name == "a third of a turn")
        .unwrap();
    assert_eq!(image_rows(g.width, third, rows), rows);
    let s = e.position(rows, Some("black")).unwrap();
    solves_right(&s, rows);
}

/// The rows of a position (as `Engine::position_rows` writes them) after `sym`.
fn image_rows(width: usize, sym: &Symmetry, rows: &str) -> String {
    let cells: Vec<char> = rows.chars().filter(|&c| c != '/').collect();
    let mut out = vec!['.'; cells.len()];
    for (c, &ch) in cells.iter().enumerate() {
        out[usize::from(sym.cells[c])] = ch;
    }
    out.chunks(width)
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn every_symmetry_found_plays_the_same() {
    let mut checked = 0;
    for file in game_files() {
        let e = engine(&file, &[]);
        let g = &e.game.geometry;
        let depth = if g.cells() <= 100 { 2 } else { 1 };
        let mut rng = Rng::new(7);
        let mut s = e.start().unwrap();
        for _ in 0..24 {
            if s.is_over() {
                break;
            }
            if s.steps == 0 {
                let rows = e.position_rows(&s);
                let mover = e.player_name(s.mover).to_string();
                // The position as the diagram gives it (counters and tokens start afresh), and
                // each image of it built the same way.
                let Ok(here) = e.position(&rows, Some(&mover)) else {
                    break;
                };
                let mut steps = Vec::new();
                e.steps(&here, &mut steps).unwrap();
                let first: Vec<String> = steps.iter().map(|&t| e.step_notation(&here, t)).collect();
                let count = e.perft(&here, depth).unwrap();
                for sym in &e.game.symmetries {
                    let there = e
                        .position(&image_rows(g.width, sym, &rows), Some(&mover))
                        .unwrap();
                    let mut theirs = Vec::new();
                    e.steps(&there, &mut theirs).unwrap();
                    let mut mapped: Vec<String> = first
                        .iter()
                        .map(|n| match g.parse(n) {
                            Some(c) => g.name(usize::from(sym.cells[c])),
                            None => n.clone(),
                        })
                        .collect();
                    let mut written: Vec<String> =
                        theirs.iter().map(|&t| e.step_notation(&there, t)).collect();
                    mapped.sort();
                    written.sort();
                    assert_eq!(mapped, written, "{file}, {}, at {rows}", sym.name);
                    assert_eq!(
                        e.perft(&there, depth).unwrap(),
                        count,
                        "{file}, {}, at {rows}",
                        sym.name
                    );
                    checked += 1;
                }
            }
            let Some(step) = e.random_step(&s, &mut rng).unwrap() else {
                break;
            };
            s = e.apply(&s, step).unwrap();
        }
    }
    // Most bundled games have symmetries, and each was tried on many positions.
    assert!(checked > 500, "{checked}");
}
