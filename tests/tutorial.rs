//! docs/TUTORIAL.md: its examples parse, its first game runs, and the variant it ends with
//! behaves as the tutorial says.

mod common;
use common::engine;
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

fn blocks() -> Vec<String> {
    common::rules_blocks(include_str!("../docs/TUTORIAL.md"))
}
