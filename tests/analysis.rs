//! `outflank analyse`: the metrics of docs/ANALYSIS.md, checked on rules whose outcome is known
//! by construction (the values worked out by hand below), against `run` on the same seeds,
//! and on the word steps of a bundled game.

use crate::common::run::{outflank, stderr, stdout, temp};
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
    // Whole numbers are written without a fraction (docs/JSON.md).
    assert_eq!(r["length"]["ci95"], serde_json::json!([3, 3]));
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

/// Branching over a game's course, by tenth of its turns: in the three-cell game the first
/// turn (tenth 0) has 3 options, the second (turn 1 of 3: tenth 3) has 2, the last is forced.
#[test]
fn branching_is_followed_over_the_game() {
    let rules = row_game("first-wins-1", 3, "", "count(p)");
    let r = analyse(&[&rules, "--games", "20"]);
    let course = r["branching_course"].as_array().unwrap();
    assert_eq!(course.len(), 10);
    for (i, b) in course.iter().enumerate() {
        match i {
            0 => assert_eq!(b, 3.0),
            3 => assert_eq!(b, 2.0),
            _ => assert!(b.is_null(), "tenth {i}: {b}"),
        }
    }
}

/// The fair value of a parameter from points worked out by hand: the rate falls from 0.8 at 0
/// to 0.6 at 10 and 0.4 at 20, so it crosses one half at 15.
#[test]
fn the_crossing_of_one_half_is_interpolated() {
    use outflank::apps::analysis::{crossing, Proportion};
    let points = [
        (0.0, Proportion::new(800, 1000)),
        (10.0, Proportion::new(600, 1000)),
        (20.0, Proportion::new(400, 1000)),
    ];
    let c = crossing(&points).unwrap();
    assert!((c.value - 15.0).abs() < 1e-9, "{c:?}");
    // The band: the lower bound at 10 is above one half, at 20 below, so the fair values
    // start between 10 and 20, before 15; the upper bound at 20 is below too, so they end
    // between 15 and 20.
    let [lo, hi] = c.ci95;
    let (lo, hi) = (lo.unwrap(), hi.unwrap());
    assert!(lo > 10.0 && lo < 15.0 && hi > 15.0 && hi < 20.0, "{c:?}");
    // By hand, from the Wilson bounds: where the line from (10, lower(600)) to
    // (20, lower(400)) meets one half.
    let (l10, _) = outflank::apps::selfplay::wilson(600, 1000);
    let (l20, _) = outflank::apps::selfplay::wilson(400, 1000);
    let want = 10.0 + 10.0 * (l10 - 0.5) / (l10 - l20);
    assert!((lo - want).abs() < 1e-9);
    // A rate that stays above one half has no crossing.
    let above = [(0.0, Proportion::new(9, 10)), (1.0, Proportion::new(8, 10))];
    assert_eq!(crossing(&above), None);
}

/// Two proportions differ clearly by the textbook pooled z-test: 60/100 against 40/100 gives
/// z = 0.2 / sqrt(0.25 * 0.02) = 2.83; 55/100 against 45/100 gives 1.41.
#[test]
fn clear_differences_follow_the_z_test() {
    use outflank::apps::analysis::{Mean, Proportion};
    assert!(Proportion::new(60, 100).differs(&Proportion::new(40, 100)));
    assert!(!Proportion::new(55, 100).differs(&Proportion::new(45, 100)));
    // Means 0 and 1 of samples of standard deviation 1 (n = 100): se of the difference
    // sqrt(2) / 10 = 0.141, so a difference of 1 is clear and of 0.2 is not.
    let sample = |centre: f64| -> Vec<f64> {
        (0..100)
            .map(|i| centre + if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect()
    };
    assert!(Mean::of(&sample(0.0)).differs(&Mean::of(&sample(1.0))));
    assert!(!Mean::of(&sample(0.0)).differs(&Mean::of(&sample(0.2))));
}

/// Reversi Go 9x9 between random players, Black with a handicap of two stones: without komi
/// Black wins most games, with a komi of 40 White does; the sweep finds where the first
/// player's share crosses one half, with an interval around it inside the sweep, and each
/// value's report is `analyse --set komi=V`'s own.
#[test]
fn a_komi_sweep_finds_the_fair_komi() {
    let r = analyse(&[
        "games/reversi-go-9x9.rules",
        "--set",
        "handicap=2",
        "--games",
        "300",
        "--seed",
        "4",
        "--sweep",
        "komi=0..40:10",
    ]);
    assert_eq!(r["parameter"], "komi");
    let values = r["values"].as_array().unwrap();
    let komis: Vec<&str> = values
        .iter()
        .map(|v| v["value"].as_str().unwrap())
        .collect();
    assert_eq!(komis, ["0", "10", "20", "30", "40"]);
    let share = |i: usize| &values[i]["report"]["first_player"];
    assert!(f(&share(0)["ci95"][0]) > 0.5, "komi 0: {}", share(0));
    assert!(f(&share(4)["ci95"][1]) < 0.5, "komi 40: {}", share(4));
    let fair = &r["fair"];
    let value = f(&fair["value"]);
    // The crossing, worked out here from the reported rates.
    let xs = [0.0, 10.0, 20.0, 30.0, 40.0];
    let rates: Vec<f64> = (0..5).map(|i| f(&share(i)["rate"])).collect();
    let i = (0..4)
        .find(|&i| (rates[i] - 0.5) * (rates[i + 1] - 0.5) <= 0.0)
        .unwrap();
    let want = xs[i] + 10.0 * (rates[i] - 0.5) / (rates[i] - rates[i + 1]);
    assert!((value - want).abs() < 1e-9, "{fair} against {want}");
    let (lo, hi) = (f(&fair["ci95"][0]), f(&fair["ci95"][1]));
    assert!(lo < value && value < hi && lo > 0.0 && hi < 40.0, "{fair}");
    // The values at which no player is shown to be favoured: those whose interval holds 50%.
    let within: Vec<&str> = (0..5)
        .filter(|&i| f(&share(i)["ci95"][0]) <= 0.5 && f(&share(i)["ci95"][1]) >= 0.5)
        .map(|i| komis[i])
        .collect();
    assert_eq!(r["fair_within_interval"], serde_json::json!(within));
    // One value of the sweep is the series `analyse` plays with that setting.
    let alone = analyse(&[
        "games/reversi-go-9x9.rules",
        "--set",
        "handicap=2",
        "--games",
        "300",
        "--seed",
        "4",
        "--set",
        "komi=20",
    ]);
    let mut alone = alone;
    alone.as_object_mut().unwrap().remove("schema_version");
    assert_eq!(values[2]["report"], alone);
}

/// A bad sweep is one line and a failure, naming what to write.
#[test]
fn bad_sweeps_are_refused() {
    for (sweep, says) in [
        ("komi", "no `=`"),
        ("komi=5", "at least two values"),
        ("komi=9..3", "must go up"),
        ("komi=0..100000000", "more than 1000 values"),
        ("nosuch=1,2", "no parameter named `nosuch`"),
    ] {
        let o = outflank(&[
            "analyse",
            "games/reversi-go-9x9.rules",
            "--games",
            "2",
            "--sweep",
            sweep,
        ]);
        assert!(!o.status.success(), "{sweep}");
        assert!(stderr(&o).contains(says), "{sweep}: {}", stderr(&o));
    }
}

/// `compare` marks the differences that are clear: a game of three cells that the first
/// player always wins against the two-cell coin toss differs in the first player's share and
/// in length (3 turns against 2), not in draws or lead changes (none in either).
#[test]
fn compare_marks_clear_differences() {
    let first = row_game("first-wins-2", 3, "", "count(p)");
    let coin = row_game("coin-2", 2, "region left = at(1, 1)\n", "count(p & left)");
    let o = outflank(&["compare", &first, &coin, "--games", "200", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["variants"].as_array().unwrap().len(), 2);
    assert_eq!(r["variants"][0]["report"]["first_player"]["rate"], 1.0);
    let d = &r["clearly_different"];
    assert_eq!(
        d["first player (of won games)"],
        serde_json::json!([false, true])
    );
    assert_eq!(d["length in turns"], serde_json::json!([false, true]));
    assert_eq!(d["draws"], serde_json::json!([false, false]));
    assert_eq!(
        d["lead changes per game"],
        serde_json::json!([false, false])
    );
    // In text, the mark stands beside the value that differs.
    let o = outflank(&["compare", &first, &coin, "--games", "200"]);
    let text = stdout(&o);
    let line = text
        .lines()
        .find(|l| l.starts_with("first player"))
        .unwrap();
    assert!(line.trim_end().ends_with('*'), "{text}");
    let line = text.lines().find(|l| l.starts_with("draws")).unwrap();
    assert!(!line.contains('*'), "{text}");
}

/// `--plots` and `--html` draw what the report says: one bar per length (here every game has
/// three turns), the branching by tenth, and the first player's lead turn by turn (in the
/// three-cell game: 0, 1, 0, 1 in every game); the page holds the report and the charts.
#[test]
fn charts_draw_the_report() {
    let rules = row_game("first-wins-3", 3, "", "count(p)");
    let dir = temp("analysis", "plots");
    let _ = std::fs::remove_dir_all(&dir);
    let html = temp("analysis", "report.html");
    let o = outflank(&[
        "analyse", &rules, "--games", "30", "--plots", &dir, "--html", &html,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |name: &str| std::fs::read_to_string(format!("{dir}/{name}.svg")).unwrap();
    let lengths = read("lengths");
    let doc = roxmltree::Document::parse(&lengths).unwrap();
    let bars: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("bar"))
        .collect();
    assert_eq!(bars.len(), 1);
    assert_eq!(bars[0].attribute("data-count"), Some("30"));
    let points = |svg: &str, class: &str| -> Vec<(f64, f64)> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let line = doc
            .descendants()
            .find(|n| n.attribute("class") == Some(class))
            .unwrap();
        line.attribute("points")
            .unwrap()
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    };
    assert_eq!(points(&read("branching"), "rate").len(), 2);
    // The mean lead zigzags: up, down, up, with equal heights at turns 1 and 3.
    let lead = points(&read("lead"), "mean");
    assert_eq!(lead.len(), 4);
    assert!(lead[1].1 < lead[0].1 && lead[2].1 == lead[0].1 && lead[3].1 == lead[1].1);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches("<svg").count(), 3);
    assert!(page.contains("first player's share of won games"));
}

/// Which `end` rule ended each game, as written: VECT-REVERSE ends when a player reaches its
/// target, after two passes, or when the inner board is full; sixty random games see all
/// three. Every game is counted under exactly one rule, and the rules named are the rules
/// file's own `end` lines.
#[test]
fn the_end_rules_are_counted() {
    let r = analyse(&["games/vect-reverse.rules", "--games", "60"]);
    let endings = r["endings"].as_array().unwrap();
    let total: u64 = endings
        .iter()
        .map(|e| e["games"]["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 60);
    let rules = std::fs::read_to_string("games/vect-reverse.rules").unwrap();
    let mut ends: Vec<String> = rules
        .lines()
        .filter(|l| l.starts_with("end "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let mut named: Vec<String> = endings
        .iter()
        .map(|e| e["rule"].as_str().unwrap().to_string())
        .collect();
    ends.sort();
    named.sort();
    assert_eq!(named, ends);
    // A game that ends only one way: every game under that rule.
    let rules = row_game("first-wins-4", 3, "", "count(p)");
    let r = analyse(&[&rules, "--games", "10"]);
    assert_eq!(r["endings"][0]["rule"], "end when none(empty)");
    assert_eq!(r["endings"][0]["games"]["rate"], 1.0);
}

/// `--sweep agent=...` sweeps the first seat's agent against the others: each agent's wins are
/// `run`'s wins by agent for the same series, and the chart draws one point per agent.
#[test]
fn an_agent_sweep_measures_strength() {
    let dir = temp("analysis", "strength");
    let _ = std::fs::remove_dir_all(&dir);
    let common = [
        "games/othello.rules",
        "--set",
        "size=6",
        "--games",
        "40",
        "--seed",
        "6",
        "--swap",
    ];
    let mut args = common.to_vec();
    args.extend([
        "--agents",
        "random,random",
        "--sweep",
        "agent=greedy,mcts:30",
        "--plots",
        &dir,
    ]);
    let r = analyse(&args);
    let values = r["values"].as_array().unwrap();
    for v in values {
        let agent = v["value"].as_str().unwrap();
        let pair = format!("{agent},random");
        let mut args = vec!["run"];
        args.extend(common);
        args.extend(["--agents", &pair, "--json"]);
        let o = outflank(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let run: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            v["agent_wins"]["count"], run["agents"][agent]["wins"],
            "{agent}"
        );
    }
    // Thirty playouts a move beat a random player on 6x6.
    assert!(
        f(&values[1]["agent_wins"]["ci95"][0]) > 0.5,
        "{}",
        values[1]
    );
    let svg = std::fs::read_to_string(format!("{dir}/strength.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let points = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("rate"))
        .count();
    assert_eq!(points, 2);
    assert!(svg.contains(">mcts:30</text>"));
}

/// Drama, worked out by hand: three cells, the left one worth 3 points and every cell 1.
/// Black places twice, White once. When Black's first move is not the left cell and White
/// then takes it, White wins 4-2 after being behind 0-1 (a deficit of 1); otherwise Black
/// wins and was never behind (0). So the mean deficit is White's share of the wins, and every
/// White win is a comeback.
#[test]
fn drama_is_the_winners_worst_deficit() {
    let rules = row_game(
        "drama",
        3,
        "region left = at(1, 1)\n",
        "3 * count(p & left) + count(p)",
    );
    let r = analyse(&[&rules, "--games", "300", "--seed", "2"]);
    assert_eq!(r["draws"]["count"], 0);
    let white = r["seats"][1]["wins"]["count"].as_u64().unwrap();
    assert!(white > 50 && white < 150, "{white}: about a third of 300");
    assert!((f(&r["drama"]["mean"]) - white as f64 / 300.0).abs() < 1e-12);
    assert_eq!(r["comebacks"]["count"].as_u64().unwrap(), white);
}
