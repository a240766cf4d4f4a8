//! `some`, `all`, `none`, `count` and `cells c in S where COND`: counts worked out by hand on
//! small boards, Othello's published perft counts through rules that say its placements with
//! a quantifier, and the same answers where the condition is asked cell by cell (a part the
//! checker cannot turn into set operations) as where it is not.

use crate::common::engine_from;
use outflank::engine::Engine;

fn perft(e: &Engine, depth: u32) -> u64 {
    e.perft(&e.start().unwrap(), depth).unwrap()
}

/// A 3x3 board where a cell may be taken when `CONDITION` holds of it (`c`).
fn three_by_three(condition: &str) -> Engine {
    engine_from(&format!(
        r#"
        board 3 x 3
        player black 'B'
        player white 'W'
        turn {{ choose c in empty where {condition} {{ place c }} }}
        end when blocked
        score p = count(p)
        "#
    ))
}

// After a1, the cells whose orthogonal neighbours are all empty are a3, b2, b3, c1, c2 and c3
// (a2 and b1 touch a1): six of the eight empty cells.
const ALL_EMPTY: &[&str] = &[
    "all x in neighbours(c, orthogonal) where x in empty",
    "none x in neighbours(c, orthogonal) where x in pieces",
    "(count x in neighbours(c, orthogonal) where x in pieces) == 0",
    // Asked cell by cell: `distance` of two variables is no set operation.
    "all x in neighbours(c, orthogonal) where x in empty and distance(x, c) == 1",
    "not (some x in neighbours(c, orthogonal) where x in pieces and distance(x, c) < 9)",
];

#[test]
fn quantifiers_over_a_chosen_cell_s_neighbours_count_by_hand() {
    for condition in ALL_EMPTY {
        for e in [three_by_three(condition), three_by_three(condition).plain()] {
            assert_eq!(perft(&e, 1), 9, "{condition}");
            let after = e.play_history(&e.start().unwrap(), "a1").unwrap();
            assert_eq!(e.perft(&after, 1).unwrap(), 6, "{condition}");
        }
    }
}

#[test]
fn cells_where_is_a_set_that_a_turn_flips() {
    // White places, then every black piece next to the placed cell turns white.
    let e = engine_from(
        r#"
        board 4 x 1
        player black 'B'
        player white 'W'
        first white
        setup { black on a1, c1, d1 }
        turn { choose c in empty { place c  flip cells x in opponent where distance(x, c) == 1 } }
        end when none(empty)
        score p = count(p)
        "#,
    );
    let s = e.play_history(&e.start().unwrap(), "b1").unwrap();
    assert_eq!(e.board_rows(&s), ["WWWB"]);
}

/// Othello's placements said with quantifiers, lifted into sets and asked cell by cell.
#[test]
fn othello_said_with_quantifiers_keeps_its_perft_counts() {
    let othello =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/othello.rules"))
            .unwrap();
    let written = "choose c in empty where some(captured(outflank, c))";
    assert!(othello.contains(written));
    for instead in [
        "choose c in empty where some x in opponent where x in captured(outflank, c)",
        "choose c in empty where (count x in all where x in captured(outflank, c)) > 0",
        "choose c in empty where some x in opponent where x in captured(outflank, c) and distance(x, c) < 30",
    ] {
        let e = engine_from(&othello.replacen(written, instead, 1));
        // Published: 4, 12, 56, 244, 1396.
        assert_eq!(perft(&e, 5), 1396, "{instead}");
        assert_eq!(perft(&e.plain(), 4), 244, "{instead}");
    }
}

#[test]
fn the_score_may_count_with_a_quantifier() {
    let e = three_by_three("true");
    let counted = engine_from(
        r#"
        board 3 x 3
        player black 'B'
        player white 'W'
        turn { choose c in empty { place c } }
        end when blocked
        score p = count x in all where x in p and distance(x, x) == 0
        "#,
    );
    let history = "a1 b2 c3 a2 b1";
    let (s, t) = (
        e.play_history(&e.start().unwrap(), history).unwrap(),
        counted
            .play_history(&counted.start().unwrap(), history)
            .unwrap(),
    );
    assert_eq!(e.board_rows(&s), counted.board_rows(&t));
    let (a, b) = (e.outcome(&s, None), counted.outcome(&t, None));
    assert_eq!(a.scores(), [3.0, 2.0]);
    assert_eq!(a.scores(), b.scores());
}

/// Quantifiers nest without brackets, so the bracket limit does not bound them. Nested past
/// the variables a turn may hold, they are refused once, not once per level (on 50,000 levels
/// that took all the memory there was, each level copying the levels inside it); nested
/// deeper than brackets may be, before the parser's tree is walked (2,000 levels overflowed a
/// test thread's stack).
#[test]
fn nested_quantifiers_are_refused_once_and_early() {
    use outflank::check::{check, CheckError};
    use outflank::source::{NoFiles, SourceFile};
    let errors = |levels: usize| -> Vec<String> {
        let nested: String = (0..levels)
            .map(|i| format!("some x{i} in all where "))
            .collect();
        let rules = format!(
            "board 4 x 4\nplayer black 'B'\nplayer white 'W'\n\
             turn {{ choose c in empty {{ place c }} }}\nend when blocked or {nested}true\n\
             score p = count(p)\n"
        );
        match check(SourceFile::new("deep.rules", rules), &NoFiles, &[]) {
            Err(CheckError::Rules(d)) => (d.0.iter())
                .filter(|e| e.is_error())
                .map(|e| e.message.clone())
                .collect(),
            _ => panic!("{levels} nested quantifiers were not refused"),
        }
    };
    let past_the_variables = errors(40);
    assert_eq!(past_the_variables.len(), 1, "{past_the_variables:?}");
    assert!(past_the_variables[0].starts_with("too many variables alive at once"));
    assert_eq!(errors(2_000), ["quantifiers are nested too deeply"]);
}
