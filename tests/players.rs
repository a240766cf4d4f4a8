//! Computer players: small, seeded versions of the strength measurements, and self-play that
//! does not depend on the number of threads.

mod common;
use common::engine;
use outflank::selfplay::{play_games, Match};

fn score(file: &str, set: &[(&str, &str)], a: &str, b: &str, games: u64) -> (u64, u64) {
    let e = engine(file, set);
    let start = e.start().unwrap();
    let m = Match {
        agents: [a.into(), b.into()],
        swap: true,
    };
    let results = play_games(&e, &start, &m, 5, games, 2, &|_| {}).unwrap();
    let wins_a = results
        .iter()
        .filter(|r| (r.outcome.winner as usize) < 2 && r.agents[r.outcome.winner as usize] == a)
        .count();
    (wins_a as u64, games)
}

#[test]
fn mcts_beats_random() {
    for (file, set) in [
        ("games/othello.rules", &[("size", "6")][..]),
        ("games/verto-8x8.rules", &[("size", "6")][..]),
        // Groups, trials and a score with komi: random playouts on the interpreter.
        ("games/reversi-go-9x9.rules", &[][..]),
    ] {
        let (wins, n) = score(file, set, "mcts:300", "random", 10);
        assert!(wins >= 9, "{file}: mcts won {wins} of {n}");
    }
}

#[test]
fn alphabeta_beats_greedy() {
    let (wins, n) = score(
        "games/othello.rules",
        &[("size", "6")],
        "alphabeta:3",
        "greedy",
        12,
    );
    assert!(wins >= 9, "alphabeta won {wins} of {n}");
}

#[test]
fn alphabeta_plays_for_the_tie_breaks_where_they_decide() {
    // Corner Lock has no corners, so the score is at most 1 and the tie-break (cells in the
    // centre area) decides most games: an evaluation without it plays nearly blind.
    let (wins, n) = score(
        "games/vect-reverse-corner-lock.rules",
        &[],
        "alphabeta:3",
        "greedy",
        16,
    );
    assert!(wins >= 14, "alphabeta won {wins} of {n}");
}

#[test]
fn alphabeta_puts_the_score_before_the_tie_breaks() {
    // In VECT-REVERSE the score (corners held, 0 to 4) is small beside the tie-breaks (cells
    // held) and the mobility: a search that adds them up gives corners away for cells, and
    // greedy, which looks at the score alone, wins a third of the games against it.
    let (wins, n) = score("games/vect-reverse.rules", &[], "alphabeta:3", "greedy", 24);
    assert!(wins >= 18, "alphabeta won {wins} of {n}");
}

#[test]
fn greedy_beats_random_at_scoring_games() {
    let (wins, n) = score("games/reversi-go-9x9.rules", &[], "greedy", "random", 10);
    assert!(wins >= 8, "greedy won {wins} of {n}");
}

#[test]
fn self_play_does_not_depend_on_the_number_of_threads() {
    let e = engine("games/vect-reverse.rules", &[]);
    let start = e.start().unwrap();
    let m = Match {
        agents: ["greedy".into(), "random".into()],
        swap: true,
    };
    let one = play_games(&e, &start, &m, 9, 8, 1, &|_| {}).unwrap();
    let two = play_games(&e, &start, &m, 9, 8, 2, &|_| {}).unwrap();
    let moves = |r: &Vec<outflank::selfplay::GameResult>| {
        r.iter().map(|g| g.moves.clone()).collect::<Vec<_>>()
    };
    assert_eq!(moves(&one), moves(&two));
    assert_ne!(one[0].moves, one[1].moves, "games differ from each other");
}

#[test]
fn every_agent_plays_every_game_to_the_end() {
    for file in common::game_files() {
        // Small budgets: this checks that they work everywhere, not how well.
        let set: &[(&str, &str)] = if file.contains("reversi-go") {
            &[("size", "9")]
        } else {
            &[]
        };
        let e = engine(&file, set);
        let start = e.start().unwrap();
        for pair in [["greedy", "mcts:8"], ["alphabeta:1", "random"]] {
            let m = Match {
                agents: [pair[0].into(), pair[1].into()],
                swap: false,
            };
            let r = play_games(&e, &start, &m, 1, 1, 1, &|_| {}).unwrap();
            assert!(r[0].final_state.is_over(), "{file} {pair:?}");
        }
    }
}
