//! docs/TUTORIAL.md: its examples parse, its first game runs, and the variant it ends with
//! behaves as the tutorial says.

use crate::common;
use crate::common::engine;
use outflank::check::check;
use outflank::engine::Engine;
use outflank::source::{NoFiles, SourceFile};

#[test]
fn every_example_parses_and_the_first_game_runs() {
    let blocks = blocks();
    assert!(blocks.len() >= 6);
    for (i, b) in blocks.iter().enumerate() {
        outflank::syntax::parse(&SourceFile::new(
            format!("tutorial block {}", i + 1),
            b.clone(),
        ))
        .unwrap_or_else(|d| panic!("block {} does not parse: {}\n{b}", i + 1, d.message));
    }
    let first = check(
        SourceFile::new("mine.rules", blocks[0].clone()),
        &NoFiles,
        &[],
    )
    .unwrap_or_else(|_| panic!("the first example must check"));
    let e = Engine::new(first.game);
    // 16 cells, filled one by one in any order.
    assert_eq!(e.perft(&e.start().unwrap(), 2).unwrap(), 16 * 15);
}

#[test]
fn the_variant_captures_along_rows_and_columns_only() {
    let position = "......../......../..D...../...L..../......../.....L../......../........";
    let standard = engine("games/verto-8x8.rules", &[]);
    let variant = engine("games/verto-orthogonal.rules", &[]);
    let turns = |e: &Engine| -> Vec<String> {
        let s = e.position(position, Some("dark")).unwrap();
        e.whole_turns(&s, 10_000)
            .unwrap()
            .into_iter()
            .map(|t| t.notation)
            .collect()
    };
    assert!(
        turns(&standard).contains(&"e5-g7".to_string()),
        "a diagonal capture in Verto"
    );
    let v = turns(&variant);
    assert!(
        v.contains(&"e5".to_string()) && !v.iter().any(|t| t.starts_with("e5-")),
        "a plain entry here"
    );
    // Along a column it still captures: dark d2, light d3, dark enters d4.
    let s = variant
        .position(
            "......../...D..../...L..../......../......../......../......../........",
            Some("dark"),
        )
        .unwrap();
    let after = variant
        .play_history(&s, "d4")
        .map_err(|e| e.to_string())
        .unwrap();
    assert_eq!(variant.board_rows(&after)[2], "...D....");
    assert_eq!(variant.perft(&variant.start().unwrap(), 1).unwrap(), 60);
}

#[test]
fn the_upright_game_with_a_supply_behaves_as_the_second_walk_through_says() {
    let file = block_titled("Upright Othello with a supply");
    let rules = |discs: &str| {
        let overrides = [("discs".to_string(), discs.to_string())];
        let checked = check(
            SourceFile::new("upright.rules", file.clone()),
            &NoFiles,
            &overrides,
        )
        .unwrap_or_else(|_| panic!("the walk-through's file must check"));
        Engine::new(checked.game)
    };
    let e = rules("10");
    let start = e.start().unwrap();
    let mut first: Vec<String> = e
        .whole_turns(&start, 100)
        .unwrap()
        .into_iter()
        .map(|t| t.notation)
        .collect();
    first.sort();
    assert_eq!(first, ["c4", "e6"]);
    assert_eq!(e.perft(&start, 1).unwrap(), 2);
    let text = |s| {
        e.extra(s)
            .into_iter()
            .map(|(n, v)| format!("{n}: {v}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(text(&start), ["supply: black 10, white 10"]);
    let after = e
        .play_history(&start, "e6")
        .map_err(|x| x.to_string())
        .unwrap();
    assert_eq!(text(&after), ["supply: black 9, white 10"]);
    // With three discs each, no game ends with more than 4 + 2 x 3 discs on the board.
    let e = rules("3");
    for seed in 0..200 {
        let mut rng = outflank::engine::rng::Rng::new(seed);
        let (end, _) = e
            .random_playout(&e.start().unwrap(), &mut rng, u64::MAX)
            .unwrap();
        assert!(end.is_over());
        assert!(
            end.pieces.of(0).count() + end.pieces.of(1).count() <= 10,
            "seed {seed}"
        );
    }
}

fn blocks() -> Vec<String> {
    common::rules_blocks(include_str!("../docs/TUTORIAL.md"))
}

/// The tutorial's whole file with this title.
fn block_titled(title: &str) -> String {
    blocks()
        .into_iter()
        .find(|b| b.contains(&format!("title \"{title}\"")))
        .unwrap_or_else(|| panic!("the tutorial has a file titled {title}"))
}

#[test]
fn three_players_take_turns_and_capture_mixed_runs_as_the_third_walk_through_says() {
    let file = block_titled("Othello for three");
    let e = common::engine_from(&file);
    assert_eq!(e.game.player_count(), 3);
    let s = e.start().unwrap();
    // Black at g4 closes the row e4 (white), f4 (red) with d4: a run of two colours.
    let after = e.play_history(&s, "g4").map_err(|x| x.to_string()).unwrap();
    assert_eq!(e.board_rows(&after)[3], "...BBBB..");
    assert_eq!(e.player_name(after.mover), "white");
    let after = e
        .play_history(&after, &common::whole_turns(&e, &after)[0])
        .map_err(|x| x.to_string())
        .unwrap();
    assert_eq!(e.player_name(after.mover), "red");
    // Whole games end with the most discs winning.
    for seed in 0..50 {
        let mut rng = outflank::engine::rng::Rng::new(seed);
        let (end, _) = e.random_playout(&s, &mut rng, u64::MAX).unwrap();
        let o = end.outcome.unwrap();
        let counts: Vec<f64> = (0..3).map(|p| end.pieces.of(p).count() as f64).collect();
        assert_eq!(o.scores(), counts, "seed {seed}");
    }
}

#[test]
fn a_grey_disc_and_a_stone_change_the_openings_as_the_fourth_walk_through_says() {
    let file = block_titled("Othello with a grey disc");
    let e = common::engine_from(&file);
    let s = e.start().unwrap();
    assert_eq!(common::whole_turns(&e, &s), ["c3", "d3", "c4", "f5"]);
    // c3 takes d4 and e5, closed by the grey disc; the grey disc and the stone stay.
    let after = e.play_history(&s, "c3").map_err(|x| x.to_string()).unwrap();
    let rows = e.board_rows(&after);
    assert_eq!(
        &rows[2..6],
        ["..B.....", "...BB...", "...BB...", "....XG.."]
    );
    // Scores count the players' discs alone, and the grey disc never changes hands.
    for seed in 0..20 {
        let mut rng = outflank::engine::rng::Rng::new(seed);
        let (end, _) = e.random_playout(&s, &mut rng, u64::MAX).unwrap();
        let counts: Vec<f64> = (0..2).map(|p| end.pieces.of(p).count() as f64).collect();
        assert_eq!(end.outcome.unwrap().scores(), counts, "seed {seed}");
        assert_eq!(
            e.board_rows(&end)[5].chars().nth(5),
            Some('G'),
            "seed {seed}"
        );
    }
}
