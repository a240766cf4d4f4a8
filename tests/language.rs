//! Language features beyond Othello, on small positions whose answers are worked out by hand:
//! multi-step turns and chains, move-and-flip, require, tokens, repeat, groups and territory,
//! end conditions inside a turn, per-player targets, tie-breaks and draws.

use crate::common::{engine, engine_from};
use outflank::engine::state::State;
use outflank::engine::Engine;
use outflank::ir::NOBODY;

fn at(e: &Engine, history: &str) -> State {
    let s = e.start().unwrap();
    e.play_history(&s, history)
        .map_err(|e| e.to_string())
        .unwrap()
}

fn turns(e: &Engine, history: &str) -> Vec<String> {
    let s = at(e, history);
    e.whole_turns(&s, 10_000)
        .unwrap()
        .into_iter()
        .map(|t| t.notation)
        .collect()
}

fn steps(e: &Engine, history: &str) -> Vec<String> {
    let s = at(e, history);
    let mut buf = Vec::new();
    e.steps(&s, &mut buf).unwrap();
    buf.iter().map(|&st| e.step_notation(&s, st)).collect()
}

#[test]
fn a_capture_chain_is_one_turn_of_several_steps() {
    let e = engine("tests/fixtures/valid/jump-chain.rules", &[]);
    // Only c3 captures (b4 lies between it and a5). Every other empty cell is a plain entry.
    let all = turns(&e, "");
    let chains: Vec<&String> = all.iter().filter(|t| t.len() > 2).collect();
    assert_eq!(chains, ["c3xb4-a1", "c3xb4-e1", "c3xb4-e5"]);
    assert_eq!(all.len(), 3 + 19, "3 chains and 19 plain entries");
    assert_eq!(e.perft(&e.start().unwrap(), 1).unwrap(), 22);

    // Step by step: the entry, then the forced capture, then a choice of three jumps.
    assert_eq!(steps(&e, "").len(), 20);
    assert_eq!(steps(&e, "c3"), ["xb4"]);
    assert_eq!(steps(&e, "c3xb4"), ["-a1", "-e1", "-e5"]);
    let mid = at(&e, "c3xb4");
    assert_eq!(
        (mid.mover, mid.steps),
        (0, 2),
        "light is still choosing, two steps in"
    );

    let after = at(&e, "c3xb4-e5");
    assert_eq!(
        e.board_rows(&after),
        [".....", ".D.D.", "..L..", ".L.L.", "L...L"]
    );
    assert_eq!(e.player_name(after.mover), "dark");
}

#[test]
fn a_history_may_stop_mid_turn_only_at_its_end() {
    let e = engine("tests/fixtures/valid/jump-chain.rules", &[]);
    let s = e.start().unwrap();
    let err = e.play_history(&s, "c3xb4 a1").unwrap_err().to_string();
    assert!(
        err.contains("move 1 `c3xb4` stops in the middle of a turn"),
        "{err}"
    );
    let err = e.play_history(&s, "c3xb4-b1").unwrap_err().to_string();
    assert!(err.contains("legal here: -a1 -e1 -e5"), "{err}");
    let err = e.play_history(&s, "c3xb4-e5-a1").unwrap_err().to_string();
    assert!(err.contains("the turn is complete before `-a1`"), "{err}");
}

#[test]
fn a_moved_disc_flips_and_a_target_ends_the_game_mid_turn() {
    let e = engine(
        "tests/fixtures/valid/move-and-target.rules",
        &[("black_target", "1")],
    );
    // b1 outflanks b2 and b3 (closed by b4); neither flips by itself.
    assert_eq!(steps(&e, ""), ["b1"]);
    assert_eq!(
        e.board_rows(&at(&e, "b1")),
        [".B..", ".W..", ".W..", ".B.."]
    );
    assert_eq!(steps(&e, "b1"), ["-b2", "-b3"]);
    assert_eq!(
        steps(&e, "b1-b2"),
        [">a1", ">c1", ">a2", ">c2", ">a3", ">c3"]
    );
    // Moving b2 to c2 flips it there; no corner, so the turn simply ends.
    let s = at(&e, "b1-b2>c2");
    assert_eq!(e.board_rows(&s), [".B..", "..B.", ".W..", ".B.."]);
    assert!(!s.is_over());
    assert_eq!(e.player_name(s.mover), "white");
    // Moving it to the corner a1 reaches black's target of 1 corner: over at once.
    let s = at(&e, "b1-b2>a1");
    let o = s.outcome.expect("the target ends the game");
    assert_eq!(o.winner, 0);
    assert_eq!(o.scores(), [1.0, 0.0]);
    // With the default target of 2 the same move does not end the game.
    let e2 = engine("tests/fixtures/valid/move-and-target.rules", &[]);
    assert!(!at(&e2, "b1-b2>a1").is_over());
    assert_eq!(turns(&e2, "").len(), 12, "two discs, six destinations each");
}

#[test]
fn a_disc_without_empty_neighbour_ends_the_turn_and_tiebreaks_decide() {
    let e = engine("tests/fixtures/valid/move-blocked.rules", &[]);
    assert_eq!(turns(&e, ""), ["d1-c2", "d1-b3"]);
    let s = at(&e, "d1-c2");
    // Nothing moved or flipped: only the placed disc is new.
    assert_eq!(e.board_rows(&s), ["WWWB", "WWWW", "WWWW", "BWWW"]);
    // The board is full: white passes, black passes, two passes end it.
    assert_eq!(steps(&e, "d1-c2"), ["pass"]);
    let end = at(&e, "d1-c2 pass pass");
    let o = end.outcome.expect("two passes end the game");
    // Corners 2-2; the tiebreak (all discs) gives it to white, 2 against 14.
    assert_eq!(o.scores(), [2.0, 2.0]);
    assert_eq!(o.winner, 1);
    let start = e.start().unwrap();
    assert_eq!(
        (1..=4)
            .map(|d| e.perft(&start, d).unwrap())
            .collect::<Vec<_>>(),
        [2, 2, 2, 2]
    );
}

#[test]
fn require_filters_suicide_and_tokens_are_not_passes() {
    let e = engine("tests/fixtures/valid/groups-and-button.rules", &[]);
    // Every corner would be a lone black stone without liberty: no placement is legal.
    assert_eq!(steps(&e, ""), ["button", "pass"]);
    let s = at(&e, "button");
    assert_eq!(
        e.extra(&s),
        [(
            "button".to_string(),
            outflank::engine::Extra::Holder(Some("black".to_string()))
        )]
    );
    assert_eq!(s.passes, 0, "taking the button is not a pass");
    // White may place on any corner (they join the white stones); the button is gone.
    assert_eq!(steps(&e, "button"), ["a1", "c1", "a3", "c3", "pass"]);
    assert_eq!(steps(&e, "button a1"), ["pass"]);
    let end = at(&e, "button a1 pass pass");
    let o = end.outcome.expect("two passes in succession end the game");
    // Black: one stone + the button's half point. White: five stones + three one-point
    // territories (c1, a3, c3), each bordered only by white.
    assert_eq!(o.scores(), [1.5, 8.0]);
    assert_eq!(o.winner, 1);
}

#[test]
fn a_choice_whose_every_placement_fails_its_require_leaves_a_forced_pass() {
    // Black has no stone, and a placement must touch one of the mover's stones: none of
    // Black's placements is legal, and no option without a trial is offered either.
    let e = engine_from(
        r#"
        board 3 x 1
        player black 'B'
        player white 'W'
        setup { white on b1 }
        turn {
          choose c in empty {
            place c
            require some(neighbours(c) & friend)
          }
        }
        end when passes >= 2
        score p = count(p)
        "#,
    );
    assert_eq!(steps(&e, ""), ["pass"]);
    assert_eq!(steps(&e, "pass"), ["a1", "c1"]);
}

#[test]
fn placing_flips_a_group_without_liberties() {
    let e = engine("tests/fixtures/valid/groups-empty.rules", &[]);
    // Black a1, white a2, black c1, white b1: a1 loses its last liberty and turns white.
    let s = at(&e, "a1 a2 c1 b1");
    assert_eq!(e.board_rows(&s), ["WWB", "W..", "..."]);
}

#[test]
fn repeat_gives_several_placements_in_one_turn() {
    let e = engine(
        "tests/fixtures/valid/groups-empty.rules",
        &[("handicap", "2")],
    );
    let first = turns(&e, "");
    assert_eq!(first.len(), 9 * 8, "two distinct cells in order");
    assert!(first.contains(&"a1-c3".to_string()));
    let s = at(&e, "a1-c3");
    assert_eq!(e.player_name(s.mover), "white");
    assert_eq!(e.board_rows(&s), ["B..", "...", "..B"]);
}

#[test]
fn territory_touching_no_stone_is_nobodys_and_equal_scores_draw() {
    let e = engine("tests/fixtures/valid/groups-empty.rules", &[]);
    let o = at(&e, "pass pass").outcome.unwrap();
    assert_eq!(o.scores(), [0.0, 0.0]);
    assert_eq!(o.winner, NOBODY);
}

/// Rules whose one choice offers a placement on the 4 x 4 board and `words` word options.
fn many_options(words: usize) -> String {
    let names: Vec<String> = (0..words)
        .map(|i| {
            format!(
                "w{}{}",
                (b'a' + (i / 26) as u8) as char,
                (b'a' + (i % 26) as u8) as char
            )
        })
        .collect();
    let options: String = names
        .iter()
        .map(|n| format!("    \"{n}\" {{ }}\n"))
        .collect();
    format!(
        "title \"many\"\nboard 4 x 4\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
         turn {{\n  choose {{\n    c in empty {{ place c }}\n{options}  }}\n}}\n\
         end when count(empty) == 0\nscore p = count(p)\n"
    )
}

#[test]
fn a_choice_offers_every_one_of_its_options_up_to_the_limit() {
    // 63 words and a placement: 64 options. After a placement, 15 cells and the words; after
    // a word, the board is as it was.
    let e = engine_from(&many_options(63));
    let s = e.start().unwrap();
    assert_eq!(e.perft(&s, 1).unwrap(), 16 + 63);
    assert_eq!(e.perft(&s, 2).unwrap(), 16 * (15 + 63) + 63 * (16 + 63));
    let last = at(&e, "wck");
    assert_eq!(
        e.perft(&last, 1).unwrap(),
        16 + 63,
        "the last word is offered"
    );
}

#[test]
fn a_choice_of_more_options_than_the_limit_is_an_error_at_the_first_too_many() {
    let rules = many_options(64);
    let err = outflank::check::check(
        outflank::source::SourceFile::new("t.rules", &rules),
        &outflank::source::NoFiles,
        &[],
    )
    .err()
    .expect("65 options are refused");
    let outflank::check::CheckError::Rules(d) = err else {
        panic!("a diagnostic of the rules")
    };
    let text = d.render(false, 100);
    assert!(
        text.contains("a choice may offer at most 64 options; this one has 65"),
        "{text}"
    );
    // Pointed at the 65th option, the word "wcl".
    assert!(text.contains("\"wcl\""), "{text}");
}

/// `if C then A else B` chooses a set, a player, a cell or a condition.
const IF_OVER_EVERY_TYPE: &str = r#"
title "if over every type"
board 4 x 4
player black 'B'
player white 'W'
first black
region left = cols(1, 1)
region right = cols(4, 4)
turn {
  // A set: Black places on the left column, White on the right.
  choose c in (if mover == black then left else right) & empty {
    place c
    // A condition: on the first two turns anything goes; later the cell must touch a piece.
    require if turn <= 2 then true else some(neighbours(c) & pieces)
  }
  // A cell: the third turn also places on b2, the others on nothing more.
  if turn == 3 {
    place if some(black & a1) then b2 else b3
  }
}
end when count(pieces) >= 5
// A player: whoever takes b2 loses outright, whatever the scores say.
end when some(pieces & b2) winner if some(black & b2) then white else black
score p = count(p)
"#;

#[test]
fn if_chooses_sets_players_cells_and_conditions() {
    let e = engine_from(IF_OVER_EVERY_TYPE);
    // Black's first turn: the left column only; White's: the right column only.
    let mut black = steps(&e, "");
    black.sort();
    assert_eq!(black, ["a1", "a2", "a3", "a4"]);
    let mut white = steps(&e, "a1");
    white.sort();
    assert_eq!(white, ["d1", "d2", "d3", "d4"]);
    // Turn 3 (Black, a1 held): only left cells next to a piece, a2 (next to a1); a3 and a4
    // touch nothing. The cell `if` then adds b2, which ends the game: Black took b2, so White
    // wins although Black has more pieces.
    assert_eq!(steps(&e, "a1 d4"), ["a2"]);
    let end = at(&e, "a1 d4 a2");
    assert_eq!(
        e.board_rows(&end),
        ["B...", "BB..", "....", "...W"],
        "a2 placed, then b2 (row 1 first)"
    );
    let outcome = end.outcome.expect("b2 is held: the game is over");
    assert_eq!(outcome.winner, 1, "black took b2: white wins");
    assert_eq!(outcome.scores(), [3.0, 1.0]);
    // Had Black not held a1, the cell `if` would have placed on b3 instead.
    let e2 = engine_from(&IF_OVER_EVERY_TYPE.replace("some(black & a1)", "some(black & a3)"));
    let end2 = at(&e2, "a1 d4 a2");
    assert_eq!(e2.board_rows(&end2), ["B...", "B...", ".B..", "...W"]);
    assert!(!end2.is_over());
}

#[test]
fn if_branches_of_two_types_are_an_error() {
    let rules = IF_OVER_EVERY_TYPE.replace("then b2 else b3", "then b2 else black");
    let err = outflank::check::check(
        outflank::source::SourceFile::new("t.rules", &rules),
        &outflank::source::NoFiles,
        &[],
    )
    .err()
    .expect("a cell or a player is refused");
    let outflank::check::CheckError::Rules(d) = err else {
        panic!("a diagnostic of the rules")
    };
    let text = d.render(false, 100);
    assert!(
        text.contains("the branches of this if must be of one type"),
        "{text}"
    );
    assert!(
        text.contains("then gives a cell, else gives a player"),
        "{text}"
    );
}

#[test]
fn an_example_that_excludes_a_cell_off_the_board_fails_instead_of_passing() {
    let rules = |excluded: &str| {
        format!(
            "title \"t\"\nboard 4 x 4\nremoved b2\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
             turn {{ choose c in empty {{ place c }} }}\nend when none(empty)\nscore p = count(p)\n\
             example \"x\" {{\n  play \"a1\"\n  expect legal excludes \"{excluded}\"\n}}\n"
        )
    };
    let outcome = |excluded: &str| {
        let checked = outflank::check::check(
            outflank::source::SourceFile::new("t.rules", rules(excluded)),
            &outflank::source::NoFiles,
            &[],
        )
        .unwrap_or_else(|_| panic!("the test rules must check"));
        let example = &checked.examples[0];
        let e = outflank::engine::Engine::new(checked.game);
        outflank::apps::examples::run_example(&e, example).map_err(|f| f.message)
    };
    // a1 is taken: truly not legal, so the expectation holds.
    assert_eq!(outcome("a1"), Ok(()));
    // e1 and a5 are off the 4 x 4 board, b2 is removed: none could ever be legal.
    let off = outcome("a1 e1").unwrap_err();
    assert!(
        off.contains("`e1` in `e1` is not a cell of this board (a1 to d4)"),
        "{off}"
    );
    assert!(outcome("a5").unwrap_err().contains("`a5`"));
    let removed = outcome("b2").unwrap_err();
    assert!(
        removed.contains("`b2` in `b2` is removed from play"),
        "{removed}"
    );
}

/// Rules whose only option is the empty cells a condition keeps: the condition's cells are
/// the legal placements on an empty 6 x 5 board (six columns, five rows).
fn cells_where(condition: &str) -> Vec<String> {
    let rules = format!(
        "board 6 x 5\nplayer black 'B'\nplayer white 'W'\nturn {{\n  choose c in empty where {condition} {{ place c }}\n}}\nend when none(empty)\nscore p = count(p)\n"
    );
    let mut cells = steps(&engine_from(&rules), "");
    cells.sort();
    cells
}

#[test]
fn rows_columns_and_distances_count_from_the_top_left() {
    assert_eq!(cells_where("row(c) == 2 and column(c) == 3"), ["c2"]);
    // The last row and column: 5 rows of 6 columns.
    assert_eq!(cells_where("row(c) == 5 and column(c) == 6"), ["f5"]);
    // King steps: the ring of distance 2 around c3 is the 5 x 5 square less the 3 x 3 one;
    // on this board it is cut by nothing (c3 is two from the top, the bottom and column a).
    let ring: Vec<String> = cells_where("distance(c, c3) == 2");
    assert_eq!(ring.len(), 25 - 9);
    assert_eq!(cells_where("c in ring(c3, 2)"), ring);
    assert!(ring.contains(&"a1".to_string()) && ring.contains(&"e5".to_string()));
    // Near the corner the ring is cut by the board's edges: a1's ring of 2 is 5 cells.
    assert_eq!(
        cells_where("c in ring(a1, 2)"),
        ["a3", "b3", "c1", "c2", "c3"]
    );
    assert_eq!(cells_where("distance(c, a1) == 0"), ["a1"]);
}

#[test]
fn a_single_compass_direction_is_a_direction_set() {
    // North is towards row 1: the cell north of c3 is c2; on row 1 there is none.
    assert_eq!(
        cells_where("some(neighbours(c, north) & cells(c2))"),
        ["c3"]
    );
    assert_eq!(cells_where("none(neighbours(c, north))").len(), 6);
    assert_eq!(cells_where("none(neighbours(c, east))").len(), 5);
    assert_eq!(
        cells_where("some(neighbours(c, southwest) & cells(a5))"),
        ["b4"]
    );
    // A line along one direction looks that way only. Column b holds black b1, white b2 and
    // b3; b4 is empty. Looking north from b4 closes the run at b1; looking south from b4 finds
    // the edge, and nothing else is near a run.
    let rules = |dir: &str| {
        format!("board 4 x 4\nplayer black 'B'\nplayer white 'W'\nsetup {{\n  black on b1\n  white on b2, b3\n}}\nline flank = opponent+ friend along {dir}\nturn {{\n  choose c in empty where some(captured(flank, c)) {{\n    place c\n    flip captured(flank, c)\n  }}\n}}\nend when blocked\nscore p = count(p)\n")
    };
    let e = engine_from(&rules("north"));
    assert_eq!(steps(&e, ""), ["b4"]);
    assert_eq!(
        e.board_rows(&at(&e, "b4")),
        [".B..", ".B..", ".B..", ".B.."]
    );
    // Looking south nobody has a placement: the game is over before it starts.
    let e = engine_from(&rules("south"));
    assert!(e.start().unwrap().is_over());
}

/// A counter's values for both players, from the engine's extra state.
fn counter(e: &Engine, s: &State, name: &str) -> Vec<(String, i64)> {
    match e.extra(s).into_iter().find(|(n, _)| n == name) {
        Some((_, outflank::engine::Extra::PerPlayer(values))) => values,
        other => panic!("no counter {name}: {other:?}"),
    }
}

#[test]
fn counters_last_across_turns_and_gate_placements() {
    let e = engine("tests/fixtures/valid/supply.rules", &[]);
    let start = at(&e, "");
    let both = |b: i64, w: i64| vec![("black".to_string(), b), ("white".to_string(), w)];
    assert_eq!(counter(&e, &start, "supply"), both(4, 4));
    assert_eq!(counter(&e, &start, "taken"), both(0, 0));
    // c2 flips c3: black spends a disc and has taken one. White answers, flipping one.
    let s = at(&e, "c2");
    assert_eq!(counter(&e, &s, "supply"), both(3, 4));
    assert_eq!(counter(&e, &s, "taken"), both(1, 0));
    let s = at(&e, "c2 b2");
    assert_eq!(counter(&e, &s, "supply"), both(3, 3));
    assert_eq!(counter(&e, &s, "taken").last().unwrap().1, 1);
    // Played out: nobody ever places more than four discs, so the board keeps at most 12.
    let mut s = start;
    let mut rng = outflank::engine::rng::Rng::new(5);
    while !s.is_over() {
        let step = e.random_step(&s, &mut rng).unwrap().unwrap();
        s = e.apply(&s, step).unwrap();
        let supply = counter(&e, &s, "supply");
        assert!(
            supply.iter().all(|(_, n)| (0..=4).contains(n)),
            "{supply:?}"
        );
    }
    let discs = s.pieces.of(0).count() + s.pieces.of(1).count();
    let spent: i64 = counter(&e, &s, "supply").iter().map(|(_, n)| 4 - n).sum();
    assert_eq!(discs as i64, 4 + spent, "every placement spent one disc");
}

#[test]
fn a_counter_given_a_fraction_is_a_rule_error_at_the_add() {
    let rules = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/valid/supply.rules"
    ))
    .unwrap()
    .replace("add supply -1", "add supply 0.5");
    let e = engine_from(&rules);
    let s = e.start().unwrap();
    let err = e.play_history(&s, "c2").unwrap_err().to_string();
    assert!(err.contains("counter `supply` would become 4.5"), "{err}");
}

#[test]
fn a_file_can_name_its_own_direction_sets() {
    // Forward is towards row 1 and its two diagonals; a line along it looks only that way.
    let rules = "board 5 x 5\nplayer black 'B'\nplayer white 'W'\nsetup {\n  black on c1, a3\n  white on c2, b4\n}\ndirections forward = north, northeast, northwest\ndirections sideways = east, west\ndirections around = forward, sideways\nline flank = opponent+ friend along forward\nturn {\n  choose c in empty where some(captured(flank, c)) or count(neighbours(c, around) & pieces) >= 3 {\n    place c\n    flip captured(flank, c)\n  }\n}\nend when blocked\nscore p = count(p)\n";
    let e = engine_from(rules);
    let mut legal = steps(&e, "");
    legal.sort();
    // c3 closes c2 against c1 looking north; c5 closes b4 against a3 looking northwest.
    // Looking south from c1 or east from a3 would find nothing to close anyway, and no cell
    // has three pieces among its five forward-and-side neighbours.
    assert_eq!(legal, ["c3", "c5"]);
    // `around` is the union of the two, five directions: with two pieces among them, b2 (c1
    // and c2), d2 (c1 and c2), b3 (a3 and c2) and a4 (a3 and b4) qualify too.
    let two = rules.replace(">= 3", ">= 2");
    let mut more = steps(&engine_from(&two), "");
    more.sort();
    assert_eq!(more, ["a4", "b2", "b3", "c3", "c5", "d2"]);
}

#[test]
fn a_kinds_name_is_the_set_of_its_pieces() {
    // Two stones and a joker on 4 x 4. A cell may be taken only next to a stone; the score
    // adds the stones next to the player's pieces and subtracts the jokers on the board.
    let e = engine_from(
        "board 4 x 4
         player black 'B'
         player white 'W'
         piece stone 'X'
         piece joker 'J' as friend
         setup { stone on a1, d4  joker on b3 }
         turn { choose c in empty where some(neighbours(c) & stone) { place c } }
         end when count(empty) <= 10
         score p = count(adjacent(p) & stone) - count(joker) + count(pieces) / 100",
    );
    let s = e.start().unwrap();
    // Next to a1: a2, b1, b2; next to d4: c3, c4, d3.
    assert_eq!(steps(&e, ""), ["b1", "a2", "b2", "c3", "d3", "c4"]);
    assert_eq!(e.board_rows(&s)[2], ".J..");
    let end = at(&e, "b1 c3 a2");
    let o = end.outcome.expect("ten empty cells end the game");
    // Three turns leave ten empty cells (`empty` leaves the kinds' pieces out). Black: b1
    // and a2, next to the stone on a1; white: c3, next to the stone on d4. Each less the one
    // joker, plus 6 pieces (`pieces` holds the kinds' three) / 100.
    assert_eq!(o.scores(), [1.0 - 1.0 + 0.06, 1.0 - 1.0 + 0.06]);
    assert_eq!(o.winner, NOBODY);
}

#[test]
fn line_patterns_name_kinds_of_piece() {
    // One row of eight cells, black to move. Each line is tried alone in the same turn; the
    // three shapes of line take the runner's three ways of matching (a run closed by another
    // class, fixed lengths, backtracking).
    let game = |line: &str, row: &str| {
        engine_from(&format!(
            "board 8 x 1
             player black 'B'
             player white 'W'
             piece stone 'X'
             piece ball 'N' as opponent
             setup {{ rows \"{row}\" to move black }}
             line l = {line}
             turn {{ choose c in empty where some(captured(l, c)) {{ place c  flip captured(l, c) }} }}
             end when blocked
             score p = count(p)"
        ))
    };
    let row_after = |e: &Engine, history: &str| e.board_rows(&at(e, history)).concat();

    // a1 sees two stones then black's d1; e1 sees one stone then black's g1.
    let e = game("stone+ friend", ".XXB.XB.");
    assert_eq!(steps(&e, ""), ["a1", "e1"]);
    assert_eq!(row_after(&e, "a1"), "BBBB.XB.");
    // Exactly two stones: e1's single stone is not enough.
    let e = game("stone{2} friend", ".XXB.XB.");
    assert_eq!(steps(&e, ""), ["a1"]);
    // An optional stone before the opponents: a1 takes the stone and white's c1, e1 only f1.
    let e = game("stone? opponent+ friend", ".XWB.WB.");
    assert_eq!(steps(&e, ""), ["a1", "e1"]);
    assert_eq!(row_after(&e, "a1"), "BBBB.WB.");
    assert_eq!(row_after(&e, "e1"), ".XWBBBB.");
    // A ball is an opponent to every line, so the run may pass over one and close on the
    // next: the longest match takes b1 to d1, the first ball with them. Closing on the
    // nearest cell that is no opponent (black's f1) would take nothing.
    let e = game("opponent+ ball", ".WNWNB..");
    assert_eq!(steps(&e, ""), ["a1"]);
    assert_eq!(row_after(&e, "a1"), "BBBBNB..");
    // A stone is nobody's: a run of white's discs closed by a stone is taken, and the stone
    // stays.
    let e = game("opponent+ stone", "..WWX...");
    assert_eq!(steps(&e, ""), ["b1"]);
    assert_eq!(row_after(&e, "b1"), ".BBBX...");
}

/// The grammar itself, read by a parser derived here from the same file, so that one rule can
/// be asked what it takes of a text.
mod grammar {
    use pest::Parser;

    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/rules.pest"]
    struct Grammar;

    /// What the `line` rule takes of `text`.
    fn line_part(text: &str) -> &str {
        let mut pairs = Grammar::parse(Rule::line, text).expect("a line");
        pairs.next().unwrap().as_str().trim_end()
    }

    /// The grammar's `item_word` must hold every word that opens an item: a pattern that ran
    /// on into the next item would make that item unreadable.
    #[test]
    fn a_line_pattern_stops_where_an_item_starts() {
        for word in outflank::syntax::ITEM_WORDS {
            let text = format!("line l = opponent+ friend {word} x");
            assert_eq!(line_part(&text), "line l = opponent+ friend", "{word}");
        }
        assert_eq!(
            line_part("line l = opponent+ friend along orthogonal"),
            "line l = opponent+ friend along orthogonal"
        );
        // Any other name is a kind's, and `piece` without a name after it is the class.
        assert_eq!(
            line_part("line l = opponent+ grey wall"),
            "line l = opponent+ grey wall"
        );
        assert_eq!(
            line_part("line l = opponent+ piece turn"),
            "line l = opponent+ piece"
        );
    }
}

/// `cells()`, a list of no cells, is the empty set: a region that starts empty and grows in
/// a file that extends it, or a set to compare with.
#[test]
fn cells_of_nothing_is_the_empty_set() {
    let e = engine_from(
        r#"
        board 4 x 4
        player black 'B'
        player white 'W'
        region nothing = cells()
        region first = nothing | cells(a1)
        turn { choose c in empty - nothing where c in first or count(nothing) > 0 { place c } }
        end when none(empty)
        score p = count(p)
        "#,
    );
    assert_eq!(turns(&e, ""), ["a1"]);
}

/// `flip S to P` gives the pieces on `S` to a named player (empty cells stay empty); `remove S`
/// takes the pieces on `S` off the board, whoever's they are.
#[test]
fn pieces_change_hands_to_a_named_player_or_leave_the_board() {
    let rules = |body: &str| {
        engine_from(&format!(
            r#"
            board 5 x 1
            player black 'B'
            player white 'W'
            setup {{ black on a1  white on e1 }}
            turn {{ choose c in empty {{ place c  {body} }} }}
            end when none(empty)
            score p = count(p)
            "#
        ))
    };
    let given = rules("flip neighbours(c, all) to opponent(mover)");
    // Black on b1: its neighbours a1 (black) and c1 (empty); a1 becomes white's.
    assert_eq!(given.board_rows(&at(&given, "b1")), ["WB..W"]);
    // White on d1 then: e1, white's own, goes to black, the mover's opponent; c1 is empty and
    // stays so.
    assert_eq!(given.board_rows(&at(&given, "b1 d1")), ["WB.WB"]);
    let removed = rules("remove neighbours(c, all) & pieces");
    assert_eq!(removed.board_rows(&at(&removed, "d1")), ["B..B."]);
    assert_eq!(removed.board_rows(&at(&removed, "d1 b1")), [".W.B."]);
    // Nothing is removed in the first: three empty cells fill one by one.
    let perft = |e: &Engine, depth| e.perft(&e.start().unwrap(), depth).unwrap();
    assert_eq!(perft(&given, 3), 3 * 2);
    for body in [
        "flip neighbours(c, all) to opponent(mover)",
        "remove neighbours(c, all) & pieces",
    ] {
        let e = rules(body);
        assert_eq!(perft(&e, 6), perft(&rules(body).plain(), 6), "{body}");
    }
}
