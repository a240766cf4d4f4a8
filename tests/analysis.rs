//! `outflank analyse`: the metrics of docs/ANALYSIS.md, checked on rules whose outcome is known
//! by construction (the values worked out by hand below), against `run` on the same seeds,
//! and on the word steps of a bundled game.

use crate::common::run::{outflank, stderr, temp};
use serde_json::Value;

/// Two players, a row of `cells` cells, each turn fills one; `score` counts what the rules say.
fn row_game(name: &str, cells: u32, extra: &str, score: &str) -> String {
    let path = temp("analysis", &format!("{name}.rules"));
    std::fs::write(
        &path,
        format!(
            "title \"{name}\"\nboard {cells} x 1\nplayer black 'B'\nplayer white 'W'\nfirst black\n{extra}\
             turn {{ choose c in empty {{ place c }} }}\nend when none(empty)\nscore p = {score}\n"
        ),
    )
    .unwrap();
    path
}

fn analyse(args: &[&str]) -> Value {
    let mut all = vec!["analyse"];
    all.extend(args);
    all.push("--json");
    let o = outflank(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// Three cells: Black fills two and wins every game. After Black's first turn Black leads
/// 1-0, after White's it is 1-1, after Black's second 2-1: the lead is Black's for good only
/// at the end (decisiveness 1), it never changes hands, Black is never behind. Branching: 3
/// options, then 2, then a forced move (not a decision): 2.5.
#[test]
fn a_first_player_win_by_construction() {
    let rules = row_game("first-wins", 3, "", "count(p)");
    let r = analyse(&[&rules, "--games", "120"]);
    assert_eq!(r["games"], 120);
    assert_eq!(r["seats"][0]["wins"]["count"], 120);
    assert_eq!(r["seats"][1]["wins"]["count"], 0);
    assert_eq!(r["draws"]["count"], 0);
    assert_eq!(r["first_player"]["rate"], 1.0);
    assert!(
        f(&r["first_player"]["ci95"][0]) > 0.95,
        "{}",
        r["first_player"]
    );
    assert_eq!(r["decisiveness"]["mean"], 1.0);
    assert_eq!(r["lead_changes"]["mean"], 0.0);
    assert_eq!(r["comebacks"]["count"], 0);
    assert_eq!(r["length"]["mean"], 3.0);
    assert_eq!(r["length"]["ci95"], serde_json::json!([3.0, 3.0]));
    assert_eq!(r["steps_per_turn"], 1.0);
    assert_eq!(r["branching"], 2.5);
    // Every first move is one of the three cells, each won by Black.
    let openings = r["openings"].as_array().unwrap();
    assert_eq!(openings.len(), 3);
    let total: u64 = openings.iter().map(|o| o["games"].as_u64().unwrap()).sum();
    assert_eq!(total, 120);
    assert!(openings
        .iter()
        .all(|o| o["first_player_wins"]["rate"] == 1.0));
}

/// Two cells, and only the left one scores: whoever takes it wins, and Black's random first
/// move picks it half the time. No advantage shows: the first player's share of wins has 0.5
/// in its interval. When Black wins, Black led from the first turn (decisiveness 1/2); when
/// White wins, only at the end (1): the mean is that mixture, to the game.
#[test]
fn a_symmetric_game_shows_no_advantage() {
    let rules = row_game("coin", 2, "region left = at(1, 1)\n", "count(p & left)");
    let r = analyse(&[&rules, "--games", "400", "--seed", "3"]);
    let first = &r["first_player"];
    assert!(
        f(&first["ci95"][0]) < 0.5 && f(&first["ci95"][1]) > 0.5,
        "{first}"
    );
    assert!(
        f(&first["rate"]) > 0.4 && f(&first["rate"]) < 0.6,
        "{first}"
    );
    let black = r["seats"][0]["wins"]["count"].as_u64().unwrap() as f64;
    let white = r["seats"][1]["wins"]["count"].as_u64().unwrap() as f64;
    assert_eq!(black + white, 400.0);
    let want = (0.5 * black + 1.0 * white) / 400.0;
    assert!((f(&r["decisiveness"]["mean"]) - want).abs() < 1e-9);
    assert_eq!(r["lead_changes"]["mean"], 0.0);
    assert_eq!(r["comebacks"]["count"], 0);
}

/// The seats' wins are `run`'s on the same seed: the same series runner plays the games.
#[test]
fn the_wins_are_runs_own() {
    let common = [
        "games/othello.rules",
        "--set",
        "size=6",
        "--games",
        "40",
        "--seed",
        "8",
        "--agents",
        "random,greedy",
    ];
    let r = analyse(&common);
    let mut args = vec!["run"];
    args.extend(common);
    args.push("--json");
    let o = outflank(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let run: Value = serde_json::from_slice(&o.stdout).unwrap();
    for (i, p) in ["black", "white"].iter().enumerate() {
        assert_eq!(r["seats"][i]["player"], *p);
        assert_eq!(r["seats"][i]["wins"]["count"], run["wins"][p]["wins"]);
        assert_eq!(r["seats"][i]["wins"]["ci95"], run["wins"][p]["ci95"]);
    }
    assert_eq!(r["draws"]["count"], run["draws"]);
    assert_eq!(r["length"]["mean"], run["length"]["mean"]);
    assert_eq!(r["branching"], run["branching"]);
}

/// Reversi Go's words: a game ends after two passes in a row, so every game has at least two;
/// the button is taken at most once a game.
#[test]
fn word_steps_are_counted() {
    let r = analyse(&["games/reversi-go-9x9.rules", "--games", "12"]);
    let words = r["words"].as_object().unwrap();
    assert!(f(&words["pass"]) >= 2.0, "{words:?}");
    assert!(
        f(&words["button"]) <= 1.0 && f(&words["button"]) > 0.0,
        "{words:?}"
    );
    // With --swap, each seat was played by both agents.
    let r = analyse(&[
        "games/othello.rules",
        "--set",
        "size=4",
        "--games",
        "10",
        "--agents",
        "random,greedy",
        "--swap",
    ]);
    for seat in r["seats"].as_array().unwrap() {
        assert_eq!(seat["agents"]["random"], 5);
        assert_eq!(seat["agents"]["greedy"], 5);
    }
}

/// A mean's interval is the textbook one: values 1, 2, 3 have mean 2 and sample variance 1,
/// so the half-width is 1.96 * sqrt(1 / 3); one value has no interval.
#[test]
fn a_mean_has_the_textbook_interval() {
    use outflank::apps::analysis::{Mean, Proportion};
    let m = Mean::of(&[1.0, 2.0, 3.0]);
    assert_eq!(m.mean, 2.0);
    let half = 1.96 * (1.0f64 / 3.0).sqrt();
    let [lo, hi] = m.ci95.unwrap();
    assert!((lo - (2.0 - half)).abs() < 1e-12 && (hi - (2.0 + half)).abs() < 1e-12);
    assert_eq!(Mean::of(&[5.0]).ci95, None);
    assert_eq!(Mean::of(&[]).of, 0);
    // A proportion's interval is run's Wilson interval.
    let p = Proportion::new(3, 10);
    assert_eq!(p.rate, 0.3);
    assert_eq!(
        (p.ci95[0], p.ci95[1]),
        outflank::apps::selfplay::wilson(3, 10)
    );
}
