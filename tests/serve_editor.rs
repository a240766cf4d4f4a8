//! `outflank serve`'s editor and analyses over HTTP: the served text checked, its examples
//! run, edits played and saved, variants of bundled games, analyses against `outflank run`,
//! and rules that never end.

use crate::common::run::outflank;
use crate::common::serve::{api, finished, get, http, line_of, post, serve, serving_a_file};
use serde_json::{json, Value};
use std::time::Duration;

/// The editor's calls: the served text, diagnostics at the line of the error (lints as
/// warnings), examples run, an edit played, and size limits.
#[test]
fn the_editor_checks_runs_examples_and_plays_edits() {
    let s = serve(&[]);
    let a = &s.endpoint;
    let rules = get(a, "/api/games/othello/rules");
    let text = rules["text"].as_str().unwrap().to_string();
    assert_eq!(
        text,
        std::fs::read_to_string(format!(
            "{}/games/othello.rules",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    );
    assert_eq!(rules["saveable"], false);
    let clean = post(a, "/api/games/othello/check", json!({ "text": text }));
    assert_eq!(clean["errors"], 0, "{clean}");
    // An unknown name in the end condition: an error at its line.
    let first_end = text
        .lines()
        .find(|l| l.starts_with("end when"))
        .expect("othello has an end");
    let broken = text.replacen(first_end, "end when nonsense_name > 0", 1);
    let found = post(a, "/api/games/othello/check", json!({ "text": broken }));
    assert!(found["errors"].as_u64().unwrap() >= 1, "{found}");
    let d = &found["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["line"], line_of(&broken, "end when nonsense_name"), "{d}");
    assert!(
        d["message"].as_str().unwrap().contains("nonsense_name"),
        "{d}"
    );
    // An unused region is a lint: a warning, not an error.
    let linted = format!("{text}\nregion never_used = corners\n");
    let warned = post(a, "/api/games/othello/check", json!({ "text": linted }));
    assert_eq!(warned["errors"], 0, "{warned}");
    assert!(
        warned["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["severity"] == "warning"),
        "{warned}"
    );

    let examples = post(a, "/api/games/othello/examples", json!({ "text": text }));
    let list = examples["examples"].as_array().unwrap();
    assert!(!list.is_empty());
    assert!(list.iter().all(|e| e["passed"] == true), "{examples}");
    // An example made to fail says where.
    let failing = format!(
        "{text}\nexample \"wrong on purpose\" {{\n  play \"d3\"\n  expect to move black\n}}\n"
    );
    let examples = post(a, "/api/games/othello/examples", json!({ "text": failing }));
    let last = examples["examples"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["passed"], false);
    assert!(
        last["message"].as_str().unwrap().contains(&format!(
            "line {}",
            line_of(&failing, "expect to move black")
        )),
        "{last}"
    );

    // An edit played: a 6x6 board by default.
    let edit = text.replacen("param size = 8", "param size = 6", 1);
    assert_ne!(
        edit, text,
        "othello's size parameter is `param size = 8 ...`"
    );
    let view = post(
        a,
        "/api/sessions",
        json!({ "game": "othello", "rules": edit }),
    );
    assert_eq!(view["width"], 6);
    let (status, _) = api(
        a,
        "POST",
        "/api/sessions",
        json!({ "game": "othello", "rules": broken }),
    );
    assert_eq!(status, 422);
    // Limits: a text over a megabyte is refused whole; a bundled game is never written.
    let huge = json!({ "text": "x".repeat(2 << 20) }).to_string();
    let (status, _) = http(a, "POST", "/api/games/othello/check", Some(&huge));
    assert_eq!(status, 413);
    let (status, reply) = api(
        a,
        "POST",
        "/api/games/othello/save",
        json!({ "text": edit }),
    );
    assert_eq!(status, 403, "{reply}");
    let (status, _) = api(a, "GET", "/api/games/chess/rules", Value::Null);
    assert_eq!(status, 404);
}

/// Saving writes the served file only when asked, whole; an edit that checks is served from
/// then on, one that does not is kept on disk while the last good rules are still played.
#[test]
fn saving_an_edit_to_the_served_file() {
    let (file, text, s) = serving_a_file("save");
    let dir = file.parent().unwrap();
    let a = &s.endpoint;
    let rules = get(a, "/api/games/mine/rules");
    assert_eq!(rules["saveable"], true);
    // Checking, running examples and playing edits leave the file alone.
    let edit = text.replacen("param size = 8", "param size = 6", 1);
    post(a, "/api/games/mine/check", json!({ "text": edit }));
    post(a, "/api/games/mine/examples", json!({ "text": edit }));
    post(a, "/api/sessions", json!({ "game": "mine", "rules": edit }));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    let saved = post(a, "/api/games/mine/save", json!({ "text": edit }));
    assert_eq!(saved["served"], true);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edit);
    assert_eq!(
        post(a, "/api/sessions", json!({ "game": "mine" }))["width"],
        6
    );
    let broken = format!("{edit}\nthis is not a rule\n");
    let saved = post(a, "/api/games/mine/save", json!({ "text": broken }));
    assert_eq!(saved["served"], false);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);
    assert_eq!(
        post(a, "/api/sessions", json!({ "game": "mine" }))["width"],
        6
    );
    let names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "no file left beside it: {names:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A served variant of a bundled game, in a folder without the base file, finds the base as
/// `outflank check` does: bundled.
#[test]
fn a_served_variant_of_a_bundled_game() {
    let file = crate::common::run::temp("serve-variant", "mine.rules");
    std::fs::write(&file, "extends \"othello.rules\"\ntitle \"Mine\"\n").unwrap();
    let s = serve(&[&file]);
    let games = get(&s.endpoint, "/api/games");
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0]["id"], "mine");
    assert_eq!(games[0]["title"], "Mine");
    let session = post(&s.endpoint, "/api/sessions", json!({ "game": "mine" }));
    assert_eq!(session["width"], 8, "{session}");
}

/// An analysis plays the same games as `outflank run` with the same seed, and reports the same
/// wins, intervals, draws and lengths; the first game's scores end at its final scores.
#[test]
fn an_analysis_matches_run() {
    let s = serve(&[]);
    let a = &s.endpoint;
    let started = post(
        a,
        "/api/analyses",
        json!({ "game": "othello", "agents": ["random", "greedy"], "games": 60, "set": { "size": "6" }, "seed": 9 }),
    );
    let done = finished(a, started["id"].as_str().unwrap());
    assert_eq!(done["done"], 60);
    assert_eq!(done["error"], Value::Null);
    // The same games on the command line: `run`'s statistics, `analyse`'s metrics.
    let cli = |command: &str| -> Value {
        let o = outflank(&[
            command,
            "games/othello.rules",
            "--set",
            "size=6",
            "--games",
            "60",
            "--seed",
            "9",
            "--agents",
            "random,greedy",
            "--json",
        ]);
        assert!(o.status.success(), "{command}");
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let run = cli("run");
    for (i, player) in ["black", "white"].iter().enumerate() {
        assert_eq!(done["wins"][i]["player"], *player);
        assert_eq!(done["wins"][i]["share"], run["wins"][player], "{player}");
    }
    assert_eq!(done["draws"], run["draws"]);
    assert_eq!(done["length"], run["length"]);
    assert_eq!(done["branching"], run["branching"]);
    // The designer's metrics are `analyse`'s, to the last digit.
    let mut alone = cli("analyse");
    alone.as_object_mut().unwrap().remove("schema_version");
    assert_eq!(done["report"], alone);
    // With `analyse --plots`'s charts, each an SVG drawing.
    let charts = done["charts"].as_array().unwrap();
    let names: Vec<&str> = charts.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["lead", "lengths", "branching"]);
    for c in charts {
        roxmltree::Document::parse(c["svg"].as_str().unwrap()).unwrap();
    }
    let course = done["first_game"]["scores"].as_array().unwrap();
    assert_eq!(course[0], json!([2, 2]));
    let last: Vec<f64> = course
        .last()
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(
        last[0] + last[1] <= 36.0 && last[0] + last[1] > 4.0,
        "{last:?}"
    );
}

/// An analysis can be stopped; impossible ones are refused with the reason.
#[test]
fn analyses_stop_and_refuse() {
    let s = serve(&[]);
    let a = &s.endpoint;
    let started = post(
        a,
        "/api/analyses",
        json!({ "game": "othello", "agents": ["mcts:2000", "mcts:2000"], "games": 100000 }),
    );
    let id = started["id"].as_str().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = api(a, "DELETE", &format!("/api/analyses/{id}"), Value::Null);
    assert_eq!(status, 200);
    let done = finished(a, id);
    assert_eq!(done["stopped"], true);
    assert!(done["done"].as_u64().unwrap() < 100000);
    for (body, why) in [
        (
            json!({ "game": "othello", "agents": ["random"], "games": 10 }),
            "2 players",
        ),
        (
            json!({ "game": "othello", "agents": ["random", "random"], "games": 0 }),
            "from 1",
        ),
        (
            json!({ "game": "othello", "agents": ["random", "wizard"], "games": 10 }),
            "unknown player",
        ),
        (
            json!({ "game": "othello", "agents": ["random", "mcts:99999999"], "games": 10 }),
            "at most",
        ),
    ] {
        let (status, reply) = api(a, "POST", "/api/analyses", body);
        assert_eq!(status, 422, "{reply}");
        assert!(reply["error"].as_str().unwrap().contains(why), "{reply}");
    }
    let (status, _) = api(a, "GET", "/api/analyses/77", Value::Null);
    assert_eq!(status, 404);
}

/// Rules that never end, played as an edit: a turn that never ends is a rule error for the
/// step and the computer player alike, a game that never ends stops an analysis with the
/// reason; the server goes on serving.
#[test]
fn endless_rules_are_errors_and_the_server_goes_on() {
    let s = serve(&[]);
    let a = &s.endpoint;
    let rules = |turn: &str| {
        format!(
            "title \"endless\"\nboard 4 x 4\nplayer black 'B'\nplayer white 'W'\nfirst black\n\
             turn {{ {turn} }}\nend when none(empty)\nscore p = count(p)\n"
        )
    };
    let view = post(
        a,
        "/api/sessions",
        json!({ "game": "othello", "rules": rules("while true { choose c in all { } }") }),
    );
    let id = view["id"].as_str().unwrap().to_string();
    // Steps by a person and by the computer in turn, until the turn is too long.
    let mut last = view.clone();
    for i in 0..1100 {
        let (status, reply) = if i % 2 == 0 {
            let step = last["steps"][0]["text"].as_str().unwrap().to_string();
            api(
                a,
                "POST",
                &format!("/api/sessions/{id}/step"),
                json!({ "step": step }),
            )
        } else {
            api(
                a,
                "POST",
                &format!("/api/sessions/{id}/agent"),
                json!({ "agent": "random" }),
            )
        };
        if status != 200 {
            assert_eq!(status, 422, "{reply}");
            last = reply;
            break;
        }
        last = reply;
    }
    assert!(
        last["error"]
            .as_str()
            .unwrap_or("")
            .contains("more than 1024 steps"),
        "{last}"
    );
    let started = post(
        a,
        "/api/analyses",
        json!({ "game": "othello", "rules": rules("choose c in all { }"), "agents": ["random", "random"], "games": 4 }),
    );
    let done = finished(a, started["id"].as_str().unwrap());
    assert!(
        done["error"].as_str().unwrap().contains("did not end"),
        "{done}"
    );
    assert_eq!(get(a, "/api/status")["analyses_running"], 0);
}
