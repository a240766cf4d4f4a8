//! The examples in docs/LANGUAGE.md are real: every `rules` block parses, and the first one,
//! a complete game, checks and plays Othello.

use crate::common;
use outflank::check::check;
use outflank::engine::Engine;
use outflank::source::{NoFiles, SourceFile};
use outflank::syntax::parse;

#[test]
fn every_rules_block_in_the_language_reference_parses() {
    let blocks = blocks();
    assert!(blocks.len() >= 10, "found {} blocks", blocks.len());
    for (i, b) in blocks.iter().enumerate() {
        let src = SourceFile::new(format!("LANGUAGE.md block {}", i + 1), b.clone());
        if let Err(d) = parse(&src) {
            panic!("block {} does not parse: {}\n{b}", i + 1, d.message);
        }
    }
}

#[test]
fn the_first_example_is_a_working_othello() {
    let first = blocks().remove(0);
    let checked = check(SourceFile::new("example.rules", first), &NoFiles, &[])
        .unwrap_or_else(|_| panic!("the first example must check"));
    let e = Engine::new(checked.game);
    let s = e.start().unwrap();
    assert_eq!(e.perft(&s, 5).unwrap(), 1396);
}

#[test]
fn the_sketches_of_later_games_compile() {
    // The turn programs sketched for Verto, VECT-REVERSE and Reversi Go, with minimal headers.
    let sketches: Vec<String> = blocks()
        .into_iter()
        .filter(|b| b.contains("// Verto"))
        .collect();
    assert_eq!(sketches.len(), 1);
    let text = &sketches[0];
    let turn_blocks: Vec<&str> = text.split("\n// ").collect();
    let headers = [
        "board 8 x 8\nplayer light 'L'\nplayer dark 'D'\nregion corners = corners\nline single = opponent friend\nline jump = opponent empty\nend when none(empty)\nscore p = count(p)\n",
        "board 8 x 8\nparam chains = true\nplayer black 'B'\nplayer white 'W'\nline outflank = opponent+ friend\nend when passes >= 2\nscore p = count(p)\n",
        "board 9 x 9\nparam handicap = 0 in 0, 2 to 9\nplayer black 'B'\nplayer white 'W'\ntoken button\nend when passes >= 2\nscore p = count(p) + count(territory(p))\n",
    ];
    assert_eq!(turn_blocks.len(), 3);
    for (sketch, header) in turn_blocks.iter().zip(headers) {
        let body = sketch
            .split_once('\n')
            .map(|(_, rest)| rest)
            .unwrap_or(sketch);
        let src = format!("{header}{body}");
        let checked = check(SourceFile::new("sketch.rules", src.clone()), &NoFiles, &[]);
        let game = match checked {
            Ok(c) => c.game,
            Err(outflank::check::CheckError::Rules(d)) => panic!("{}\n{src}", d.render(false, 100)),
            Err(outflank::check::CheckError::Setting(m)) => panic!("{m}"),
        };
        let e = Engine::new(game);
        let mut rng = outflank::engine::rng::Rng::new(1);
        let (end, _) = outflank::agents::random_game(&e, &e.start().unwrap(), &mut rng).unwrap();
        assert!(end.is_over());
    }
}

fn blocks() -> Vec<String> {
    common::rules_blocks(include_str!("../docs/LANGUAGE.md"))
}
