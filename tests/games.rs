//! Every bundled game checks and plays to its end; the Othello-family files agree with the
//! independent generator move by move on many random positions; variants and parameters.

use crate::common::{engine, game_files, Plain};
use outflank::agents::{game_seed, random_game};
use outflank::engine::rng::Rng;
use outflank::engine::Step;
use outflank::ir::NOBODY;

#[test]
fn every_game_file_checks_and_a_seeded_random_game_ends() {
    let files = game_files();
    assert!(
        files.len() >= 4,
        "expected the bundled games, found {files:?}"
    );
    for file in files {
        let e = engine(&file, &[]);
        let start = e.start().unwrap();
        let mut rng = Rng::new(game_seed(7, 0));
        let (end, steps) = random_game(&e, &start, &mut rng).unwrap();
        let outcome = end
            .outcome
            .unwrap_or_else(|| panic!("{file}: the game did not end"));
        assert!(steps > 0, "{file}");
        let mut buf = Vec::new();
        e.steps(&end, &mut buf).unwrap();
        assert!(buf.is_empty(), "{file}: a finished game offers no steps");
        // Whoever scores most wins; a tie at the top is a draw unless a tiebreak decides.
        let scores = outcome.scores();
        assert_eq!(scores.len(), e.game.players.len(), "{file}");
        assert!(scores.iter().all(|v| v.is_finite()), "{file}");
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let leaders: Vec<usize> = (0..scores.len()).filter(|&p| scores[p] == best).collect();
        if leaders.len() == 1 {
            assert_eq!(outcome.winner as usize, leaders[0], "{file}");
        } else if e.game.tiebreaks.is_empty() {
            assert_eq!(outcome.winner, NOBODY, "{file}");
        }
        // The disc-count games: the score is the number of stones. (Reversi Go adds territory
        // and komi, VECT-REVERSE counts points; their own tests check those.)
        let disc_count = [
            "othello",
            "reversi-6x6",
            "reversi-8x8",
            "reversi-10x10",
            "verto-",
            "ataxx",
            "hex-reversi",
            "rolit",
        ];
        let counts: Vec<f64> = (0..scores.len())
            .map(|p| end.pieces.of(p).count() as f64)
            .collect();
        if file.contains("anti-othello") {
            // Fewer discs win: each scores the negation of their count.
            let negated: Vec<f64> = counts.iter().map(|n| -n).collect();
            assert_eq!(outcome.scores(), negated, "{file}");
        } else if disc_count.iter().any(|g| file.contains(g)) {
            assert_eq!(outcome.scores(), counts, "{file}");
        }
    }
}

/// Steps of the engine at a state as (notation, board after), sorted by notation.
fn engine_moves(
    e: &outflank::engine::Engine,
    s: &outflank::engine::state::State,
) -> Vec<(String, Vec<String>)> {
    let mut buf = Vec::new();
    e.steps(s, &mut buf).unwrap();
    let mut out: Vec<(String, Vec<String>)> = buf
        .iter()
        .map(|&st| {
            (
                e.step_notation(s, st),
                e.board_rows(&e.apply(s, st).unwrap()),
            )
        })
        .collect();
    out.sort();
    out
}

fn plain_moves(p: &Plain) -> Vec<(String, Vec<String>)> {
    if p.over() {
        return Vec::new();
    }
    let moves = p.moves_for(p.to_move);
    if moves.is_empty() {
        let mut n = p.clone();
        n.play(None);
        return vec![("pass".into(), n.rows())];
    }
    let mut out: Vec<(String, Vec<String>)> = moves
        .into_iter()
        .map(|m| {
            let mut n = p.clone();
            n.play(Some(m));
            (p.name(m), n.rows())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn random_positions_agree_with_independent_generator() {
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], Plain);
    let cases: [Case; 12] = [
        ("games/othello.rules", &[], Plain::othello(8)),
        ("games/octagon-othello.rules", &[], Plain::octagon()),
        (
            "games/cylinder-othello.rules",
            &[],
            Plain::wrapped(8, false),
        ),
        ("games/torus-othello.rules", &[], Plain::wrapped(8, true)),
        (
            "games/torus-othello.rules",
            &[("size", "6")],
            Plain::wrapped(6, true),
        ),
        // Anti-Othello has Othello's moves; only the winner differs.
        ("games/anti-othello.rules", &[], Plain::othello(8)),
        ("games/gravity-othello.rules", &[], Plain::gravity(8)),
        (
            "games/gravity-othello.rules",
            &[("size", "6")],
            Plain::gravity(6),
        ),
        ("games/othello.rules", &[("size", "6")], Plain::othello(6)),
        ("games/reversi-6x6.rules", &[], Plain::brainking(6)),
        ("games/reversi-8x8.rules", &[], Plain::brainking(8)),
        ("games/reversi-10x10.rules", &[], Plain::brainking(10)),
    ];
    for (file, set, plain_start) in cases {
        let e = engine(file, set);
        let mut positions = 0;
        // Gravity games are short (about 35 turns): 100 games give each case over 1000
        // positions.
        for game in 0..100 {
            let mut rng = Rng::new(game_seed(11, game));
            let mut s = e.start().unwrap();
            let mut p = plain_start.clone();
            loop {
                assert_eq!(e.board_rows(&s), p.rows(), "{file} game {game}");
                let ours = engine_moves(&e, &s);
                assert_eq!(
                    ours,
                    plain_moves(&p),
                    "{file} game {game} at {:?}",
                    p.rows()
                );
                positions += 1;
                if ours.is_empty() {
                    assert!(s.is_over() && p.over());
                    // The winner from the plain board's discs: more wins, fewer in
                    // Anti-Othello.
                    let discs = |v: u8| p.cells.iter().filter(|&&x| x == v).count();
                    let (black, white) = (discs(1), discs(2));
                    let fewer_wins = file.contains("anti-othello");
                    let expected = match black.cmp(&white) {
                        std::cmp::Ordering::Equal => NOBODY,
                        std::cmp::Ordering::Greater if !fewer_wins => 0,
                        std::cmp::Ordering::Less if fewer_wins => 0,
                        _ => 1,
                    };
                    assert_eq!(s.outcome.unwrap().winner, expected, "{file} game {game}");
                    break;
                }
                let mut buf: Vec<Step> = Vec::new();
                e.steps(&s, &mut buf).unwrap();
                let step = buf[rng.below(buf.len())];
                let text = e.step_notation(&s, step);
                s = e.apply(&s, step).unwrap();
                let cell = (text != "pass")
                    .then(|| (0..p.cells.len()).find(|&c| p.name(c) == text).unwrap());
                p.play(cell);
            }
        }
        assert!(
            positions > 1000,
            "{file}: only {positions} positions compared"
        );
    }
}

#[test]
fn forced_pass_is_a_move_and_the_game_ends_when_nobody_can_move() {
    // A 4x4 Othello game reaches positions where one side must pass.
    let e = engine("games/othello.rules", &[("size", "4")]);
    let mut seen_pass = false;
    for game in 0..50 {
        let mut rng = Rng::new(game_seed(3, game));
        let mut s = e.start().unwrap();
        let mut buf = Vec::new();
        while !s.is_over() {
            e.steps(&s, &mut buf).unwrap();
            let step = buf[rng.below(buf.len())];
            if e.step_notation(&s, step) == "pass" {
                assert_eq!(
                    buf.len(),
                    1,
                    "a pass is only offered when nothing else is legal"
                );
                seen_pass = true;
                let after = e.apply(&s, step).unwrap();
                assert_eq!(after.pieces, s.pieces, "a pass changes no disc");
                assert_ne!(after.mover, s.mover, "a pass hands the turn over");
            }
            s = e.apply(&s, step).unwrap();
        }
        // Over means neither side can move.
        assert!(!e.can_start_turn(&s, 0) && !e.can_start_turn(&s, 1));
    }
    assert!(seen_pass, "no forced pass occurred in 50 games on 4x4");
}

#[test]
fn variants_state_only_what_differs() {
    let ten = engine("games/reversi-10x10.rules", &[]);
    assert_eq!(
        (ten.game.geometry.width, ten.game.geometry.height),
        (10, 10)
    );
    assert_eq!(ten.game.title, "Reversi (BrainKing, 10x10)");
    let start = ten.start().unwrap();
    assert!(
        start.pieces.iter().all(|b| b.is_empty()),
        "BrainKing starts empty"
    );
    let mut buf = Vec::new();
    ten.steps(&start, &mut buf).unwrap();
    let names: Vec<String> = buf.iter().map(|&s| ten.step_notation(&start, s)).collect();
    assert_eq!(
        names,
        ["e5", "f5", "e6", "f6"],
        "the centre squares of a 10x10 board"
    );
    // The base's parameter can still be set from outside, within its range.
    let six = engine("games/reversi-10x10.rules", &[("size", "6")]);
    assert_eq!(six.game.geometry.width, 6);
}

#[test]
fn othello_start_follows_the_size_parameter() {
    let e = engine("games/othello.rules", &[("size", "10")]);
    let s = e.start().unwrap();
    let rows = e.board_rows(&s);
    assert_eq!(rows[4], "....WB....");
    assert_eq!(rows[5], "....BW....");
    let mut buf = Vec::new();
    e.steps(&s, &mut buf).unwrap();
    let names: Vec<String> = buf.iter().map(|&st| e.step_notation(&s, st)).collect();
    assert_eq!(names, ["e4", "d5", "g6", "f7"]);
}

#[test]
fn whole_turn_notation_round_trips() {
    let e = engine("games/reversi-8x8.rules", &[]);
    let mut rng = Rng::new(5);
    let mut s = e.start().unwrap();
    while !s.is_over() {
        let turns = e.whole_turns(&s, 1000).unwrap();
        for t in &turns {
            let played = e.parse_turn(&s, &t.notation).unwrap();
            let (_, after) = played.last().unwrap();
            assert_eq!(
                e.board_rows(after),
                e.board_rows(&t.after),
                "{}",
                t.notation
            );
        }
        s = turns[rng.below(turns.len())].after;
    }
}
