//! `outflank serve` over HTTP: the tests start the real server on 127.0.0.1 (a free port),
//! speak HTTP/1.1 to it with a client written here, and check its answers against the engine
//! run in the test, or against the command line (`outflank replay` of a record the server
//! wrote). The page itself is driven in a real browser in tests/browser.rs.

use crate::common::run::outflank;
use crate::common::serve::{api, get, http, play_out, post, serve, strings};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[test]
fn the_page_and_the_bundled_games_are_served() {
    let s = serve(&[]);
    let (status, page) = http(&s.endpoint, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("id=\"board\""));
    let (status, script) = http(&s.endpoint, "GET", "/app.js", None);
    assert_eq!(status, 200);
    assert!(script.contains("/api/sessions"));
    let (status, games) = api(&s.endpoint, "GET", "/api/games", Value::Null);
    assert_eq!(status, 200);
    let mut ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    ids.sort();
    // Every bundled game, built into the binary.
    let mut want: Vec<String> = std::fs::read_dir(format!("{}/games", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    want.sort();
    assert_eq!(ids, want);
}

/// A whole Othello game through the API: the test plays Black (the first legal step each time),
/// the server's random player plays White; the moves, replayed by the engine in the test, give
/// the server's final board and result.
#[test]
fn a_whole_othello_game_against_the_random_player() {
    let s = serve(&[]);
    let (status, mut view) = api(
        &s.endpoint,
        "POST",
        "/api/sessions",
        json!({ "game": "othello" }),
    );
    assert_eq!(status, 200, "{view}");
    let id = view["id"].as_str().unwrap().to_string();
    assert_eq!(view["rows"][3], "...WB...");
    // Scores are written as the numbers they are (docs/API.md): 2, not 2.0.
    let (_, text) = http(&s.endpoint, "GET", &format!("/api/sessions/{id}"), None);
    assert!(text.contains(r#""score":2"#), "{text}");
    assert!(!text.contains(r#""score":2.0"#), "{text}");
    let mut turns = 0;
    while !view["over"].as_bool().unwrap() {
        turns += 1;
        assert!(turns < 200, "the game does not end");
        let (status, next) = if view["to_move"] == "black" {
            let step = view["steps"][0]["text"].as_str().unwrap().to_string();
            api(
                &s.endpoint,
                "POST",
                &format!("/api/sessions/{id}/step"),
                json!({ "step": step }),
            )
        } else {
            api(
                &s.endpoint,
                "POST",
                &format!("/api/sessions/{id}/agent"),
                json!({ "agent": "random", "seed": 7 }),
            )
        };
        assert_eq!(status, 200, "{next}");
        view = next;
    }
    let history: Vec<&str> = view["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let engine = crate::common::engine("games/othello.rules", &[]);
    let end = engine
        .play_history(&engine.start().unwrap(), &history.join(" "))
        .unwrap();
    let rows: Vec<String> = engine.board_rows(&end);
    assert_eq!(view["rows"], json!(rows));
    let outcome = end.outcome.expect("the replayed game is over too");
    let winner =
        (outcome.winner != outflank::ir::NOBODY).then(|| engine.player_name(outcome.winner));
    assert_eq!(view["winner"], json!(winner));
    // Undo takes the last step back.
    let (status, back) = api(
        &s.endpoint,
        "POST",
        &format!("/api/sessions/{id}/undo"),
        Value::Null,
    );
    assert_eq!(status, 200);
    assert_eq!(back["history"].as_array().unwrap().len(), history.len() - 1);
    assert_eq!(back["over"], false);
}

#[test]
fn bad_requests_get_a_clear_error_and_the_server_goes_on() {
    let s = serve(&[]);
    let a = &s.endpoint;
    let (status, reply) = http(a, "POST", "/api/sessions", Some("{not json"));
    assert_eq!(status, 400);
    assert!(serde_json::from_str::<Value>(&reply).unwrap()["error"].is_string());
    let (status, _) = api(a, "POST", "/api/sessions", json!({ "game": "chess" }));
    assert_eq!(status, 404);
    let (status, reply) = api(
        a,
        "POST",
        "/api/sessions",
        json!({ "game": "othello", "set": { "size": "7" } }),
    );
    assert_eq!(status, 422, "{reply}");
    let (_, view) = api(a, "POST", "/api/sessions", json!({ "game": "othello" }));
    let id = view["id"].as_str().unwrap();
    let (status, reply) = api(
        a,
        "POST",
        &format!("/api/sessions/{id}/step"),
        json!({ "step": "a1" }),
    );
    assert_eq!(status, 422);
    assert!(reply["error"].as_str().unwrap().contains("d3"), "{reply}");
    let (status, _) = api(
        a,
        "POST",
        &format!("/api/sessions/{id}/agent"),
        json!({ "agent": "wizard" }),
    );
    assert_eq!(status, 422);
    let (status, _) = api(
        a,
        "POST",
        "/api/sessions/999999/step",
        json!({ "step": "d3" }),
    );
    assert_eq!(status, 404);
    let (status, _) = api(a, "POST", &format!("/api/sessions/{id}/undo"), Value::Null);
    assert_eq!(status, 422);
    let huge = format!("{{\"step\": \"{}\"}}", "x".repeat(100_000));
    // Every failure is a JSON object with a one-line error, the ones axum itself answers
    // too: a body past its limit, a body that is not JSON, a method the route does not take.
    let step = format!("/api/sessions/{id}/step");
    for (method, path, body, expected) in [
        ("POST", step.as_str(), huge.as_str(), 413),
        ("POST", step.as_str(), "{\"step\": ", 400),
        ("DELETE", "/api/sessions", "", 405),
        ("GET", "/nowhere", "", 404),
    ] {
        let (status, reply) = http(a, method, path, Some(body));
        assert_eq!(status, expected, "{method} {path}: {reply}");
        let reply: Value =
            serde_json::from_str(&reply).unwrap_or_else(|_| panic!("not JSON: {reply}"));
        let error = reply["error"].as_str().unwrap_or_default();
        assert!(!error.is_empty() && !error.contains('\n'), "{reply}");
    }
    // Still serving, the session as it was.
    let (status, view) = api(a, "GET", &format!("/api/sessions/{id}"), Value::Null);
    assert_eq!(status, 200);
    assert_eq!(view["history"], json!([]));
    let (status, _) = api(a, "DELETE", &format!("/api/sessions/{id}"), Value::Null);
    assert_eq!(status, 200);
    let (status, _) = api(a, "GET", &format!("/api/sessions/{id}"), Value::Null);
    assert_eq!(status, 404);
}

/// 200 games at once, each played to its end by random players through the API, with no
/// error; bounded in time (each game has at most 200 steps of Othello 6x6), ending by itself.
/// Then the games are deleted and the server holds no session; three more rounds leave its
/// memory near where the first did (the allocator keeps what it was given, so memory measures
/// the steady state: sessions kept, threads piling up or buffers growing would show).
#[test]
fn two_hundred_concurrent_games() {
    let s = serve(&[]);
    let to = s.endpoint.clone();
    let round = |seed: u64| {
        let games: Vec<_> = (0..200)
            .map(|g| {
                let a = to.clone();
                std::thread::spawn(move || {
                    let view = post(
                        &a,
                        "/api/sessions",
                        json!({ "game": "othello", "set": { "size": "6" } }),
                    );
                    let id = view["id"].as_str().unwrap().to_string();
                    let end = play_out(&a, &id, seed + g);
                    let steps = end["history"].as_array().unwrap().len();
                    assert!(steps <= 200);
                    (id, steps)
                })
            })
            .collect();
        let played: Vec<(String, usize)> = games.into_iter().map(|g| g.join().unwrap()).collect();
        let steps: usize = played.iter().map(|(_, n)| n).sum();
        assert!(steps >= 200 * 20, "{steps}");
        assert_eq!(get(&to, "/api/status")["sessions"], 200);
        for (id, _) in &played {
            let (status, _) = api(&to, "DELETE", &format!("/api/sessions/{id}"), Value::Null);
            assert_eq!(status, 200);
        }
        assert_eq!(get(&to, "/api/status")["sessions"], 0);
    };
    let start = s.resident_kb();
    let started = Instant::now();
    // Two rounds before the baseline: the allocator's per-thread arenas are not all in use
    // after the first (a CI run measured 27.5 MB after one round where another measured 31.4
    // MB), and what they take on later is no leak.
    round(0);
    round(1000);
    let first = s.resident_kb();
    for r in 2..5 {
        round(1000 * r);
    }
    let fourth = s.resident_kb();
    assert!(started.elapsed() < Duration::from_secs(600));
    eprintln!("server memory: {start} kB at start, {first} kB after 400 games, {fourth} kB after 600 more");
    assert!(
        fourth < first + 12 * 1024,
        "{start} kB -> {first} kB -> {fourth} kB"
    );
    assert!(
        fourth < start + 64 * 1024,
        "{start} kB -> {first} kB -> {fourth} kB"
    );
}

/// A game played in the server downloads as a record that `outflank replay` accepts; the
/// record opened in a new session gives back every step, any position can be viewed (the
/// engine in the test agrees), and play goes on from an earlier one.
#[test]
fn records_download_replay_and_play_on() {
    let s = serve(&[]);
    let a = &s.endpoint;
    for (game, rules) in [
        ("othello", "games/othello.rules"),
        ("verto-8x8", "games/verto-8x8.rules"),
        ("vect-reverse", "games/vect-reverse.rules"),
    ] {
        let view = post(a, "/api/sessions", json!({ "game": game }));
        let id = view["id"].as_str().unwrap().to_string();
        let end = play_out(a, &id, 11);
        let steps = strings(&end["history"]);
        let record = get(a, &format!("/api/sessions/{id}/record?seats=random,random"));
        assert_eq!(record["players"].as_object().unwrap().len(), 2);
        let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("outflank-serve-{game}-{}.json", std::process::id()));
        std::fs::write(&file, record.to_string()).unwrap();
        let o = outflank(&["replay", rules, file.to_str().unwrap()]);
        std::fs::remove_file(&file).unwrap();
        assert!(
            o.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&o.stderr)
        );

        let replayed = post(
            a,
            "/api/sessions",
            json!({ "game": game, "record": record }),
        );
        assert_eq!(strings(&replayed["history"]), steps, "{game}");
        assert_eq!(replayed["rows"], end["rows"]);
        assert_eq!(replayed["over"], true);
        // Position K, as the engine in the test reaches it step by step.
        let rid = replayed["id"].as_str().unwrap().to_string();
        let engine = crate::common::engine(rules, &[]);
        let mut at = engine.start().unwrap();
        for (k, step) in steps.iter().enumerate().take(12) {
            let shown = get(a, &format!("/api/sessions/{rid}?at={k}"));
            assert_eq!(
                shown["rows"],
                json!(engine.board_rows(&at)),
                "{game} at {k}"
            );
            assert_eq!(shown["at"], k);
            assert_eq!(
                shown["steps"],
                json!([]),
                "a replayed position lists no steps"
            );
            let played = engine.parse_turn(&at, step).unwrap();
            assert_eq!(played.len(), 1, "one step: {step}");
            at = played[0].1;
        }
        let (status, reply) = api(
            a,
            "GET",
            &format!("/api/sessions/{rid}?at=100000"),
            Value::Null,
        );
        assert_eq!(status, 422, "{reply}");
        // Play goes on from step 5: the steps after it are gone, the legal steps are back.
        let back = post(a, &format!("/api/sessions/{rid}/undo"), json!({ "to": 5 }));
        assert_eq!(strings(&back["history"]), steps[..5].to_vec());
        assert!(!back["steps"].as_array().unwrap().is_empty());
        let on = play_out(a, &rid, 12);
        assert!(on["over"].as_bool().unwrap());
    }
}

/// A record of other rules, or one whose moves do not replay, is refused with the reason.
#[test]
fn records_that_do_not_fit_are_refused() {
    let s = serve(&[]);
    let a = &s.endpoint;
    let view = post(a, "/api/sessions", json!({ "game": "othello" }));
    let id = view["id"].as_str().unwrap();
    play_out(a, id, 3);
    let record = get(a, &format!("/api/sessions/{id}/record"));
    let (status, reply) = api(
        a,
        "POST",
        "/api/sessions",
        json!({ "game": "anti-othello", "record": record }),
    );
    assert_eq!(status, 422, "{reply}");
    assert!(
        reply["error"].as_str().unwrap().contains("does not fit"),
        "{reply}"
    );
    let mut broken = record.clone();
    broken["moves"][2] = json!("a1");
    let (status, reply) = api(
        a,
        "POST",
        "/api/sessions",
        json!({ "game": "othello", "record": broken }),
    );
    assert_eq!(status, 422);
    assert!(
        reply["error"].as_str().unwrap().contains("move 3"),
        "{reply}"
    );
    let (status, _) = api(
        a,
        "POST",
        "/api/sessions",
        json!({ "game": "othello", "record": { "moves": 3 } }),
    );
    assert_eq!(status, 400);
}

/// Resigning ends a game of two players where it stands; the record says who resigned, and
/// `outflank replay` accepts it; undo takes the resignation back.
#[test]
fn resigning() {
    let s = serve(&[]);
    let a = &s.endpoint;
    let view = post(a, "/api/sessions", json!({ "game": "othello" }));
    let id = view["id"].as_str().unwrap();
    post(
        a,
        &format!("/api/sessions/{id}/step"),
        json!({ "step": "d3" }),
    );
    let over = post(a, &format!("/api/sessions/{id}/resign"), Value::Null);
    assert_eq!(over["over"], true);
    assert_eq!(over["resigned"], "white");
    assert_eq!(over["winner"], "black");
    assert_eq!(over["steps"], json!([]));
    let (status, _) = api(
        a,
        "POST",
        &format!("/api/sessions/{id}/step"),
        json!({ "step": "c3" }),
    );
    assert_eq!(status, 422);
    let record = get(a, &format!("/api/sessions/{id}/record"));
    assert_eq!(record["result"]["resigned"], "white");
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("outflank-resigned-{}.json", std::process::id()));
    std::fs::write(&file, record.to_string()).unwrap();
    let o = outflank(&["replay", "games/othello.rules", file.to_str().unwrap()]);
    std::fs::remove_file(&file).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let back = post(a, &format!("/api/sessions/{id}/undo"), Value::Null);
    assert_eq!(back["over"], false);
    assert_eq!(strings(&back["history"]), ["d3"]);
}

/// The board is the server's drawing: every playable cell has a target named as the steps
/// name cells (hexagonal boards too), pieces carry their cell, the last step's cells are
/// ringed, and regions are shaded on request.
#[test]
fn the_board_drawing_names_its_cells() {
    let s = serve(&[]);
    let a = &s.endpoint;
    for game in [
        "othello",
        "hex-reversi",
        "octagon-othello",
        "reversi-go-9x9",
    ] {
        let view = post(a, "/api/sessions", json!({ "game": game }));
        let svg = view["svg"].as_str().unwrap();
        let engine = crate::common::engine(&format!("games/{game}.rules"), &[]);
        let g = &engine.game.geometry;
        let targets = svg.matches("class=\"target\"").count();
        assert_eq!(targets, g.playable.iter().count(), "{game}");
        for step in view["steps"].as_array().unwrap() {
            if let Some(cell) = step["cell"].as_str() {
                assert!(
                    svg.contains(&format!("class=\"target\" data-cell=\"{cell}\"")),
                    "{game}: {cell}"
                );
            }
        }
        let pieces = view["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_str()
                    .unwrap()
                    .chars()
                    .filter(|c| *c != '.' && *c != '#')
                    .count()
            })
            .sum::<usize>();
        assert_eq!(
            svg.matches("class=\"piece\" data-cell=").count(),
            pieces,
            "{game}"
        );
    }
    let view = post(a, "/api/sessions", json!({ "game": "othello" }));
    let id = view["id"].as_str().unwrap();
    let after = post(
        a,
        &format!("/api/sessions/{id}/step"),
        json!({ "step": "d3" }),
    );
    assert_eq!(after["changed"], json!(["d3", "d4"]));
    assert_eq!(after["regions"], json!([]), "othello names no region");
    let view = post(a, "/api/sessions", json!({ "game": "vect-reverse" }));
    let id = view["id"].as_str().unwrap();
    let regions = strings(&view["regions"]);
    assert_eq!(regions, ["centre", "corners", "inner", "outer"]);
    let shaded = post(
        a,
        &format!("/api/sessions/{id}/shade"),
        json!({ "regions": [regions[0]] }),
    );
    assert!(shaded["svg"]
        .as_str()
        .unwrap()
        .contains(&format!("data-region=\"{}\"", regions[0])));
    let (status, reply) = api(
        a,
        "POST",
        &format!("/api/sessions/{id}/shade"),
        json!({ "regions": ["nowhere"] }),
    );
    assert_eq!(status, 422);
    assert!(
        reply["error"].as_str().unwrap().contains(&regions[0]),
        "{reply}"
    );
}

/// Players that would hold a worker thread for minutes are refused before they start.
#[test]
fn players_too_strong_for_a_page_are_refused() {
    let s = serve(&[]);
    let a = &s.endpoint;
    let view = post(a, "/api/sessions", json!({ "game": "othello" }));
    let id = view["id"].as_str().unwrap();
    // Solving exactly from 40 empty cells would take hours; 40 plies deep likewise.
    for agent in [
        "mcts:100000000",
        "mcts:3600000ms",
        "alphabeta:40",
        "alphabeta:2:40",
        "alphabeta:40:12",
    ] {
        let (status, reply) = api(
            a,
            "POST",
            &format!("/api/sessions/{id}/agent"),
            json!({ "agent": agent }),
        );
        assert_eq!(status, 422, "{agent}");
        assert!(
            reply["error"].as_str().unwrap().contains("at most"),
            "{reply}"
        );
    }
    post(
        a,
        &format!("/api/sessions/{id}/agent"),
        json!({ "agent": "alphabeta:2" }),
    );
}

/// Players think one a core at a time: a page asking for more waits its turn, so the server's
/// memory is that of as many players as it has cores (64 threads could think at once before,
/// each with up to 320 MB of tables).
#[test]
fn players_think_one_a_core() {
    let s = serve(&[]);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let started = Instant::now();
    let thinkers: Vec<_> = (0..=cores)
        .map(|_| {
            let a = s.endpoint.clone();
            std::thread::spawn(move || {
                let view = post(&a, "/api/sessions", json!({ "game": "othello" }));
                let id = view["id"].as_str().unwrap().to_string();
                post(
                    &a,
                    &format!("/api/sessions/{id}/agent"),
                    json!({ "agent": "mcts:1500ms" }),
                )
            })
        })
        .collect();
    for t in thinkers {
        assert_eq!(t.join().unwrap()["history"].as_array().unwrap().len(), 1);
    }
    // One more player than cores: one of them thought after another had finished.
    assert!(
        started.elapsed() >= Duration::from_millis(3000),
        "{:?}",
        started.elapsed()
    );
}
