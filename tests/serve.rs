//! `outflank serve` over HTTP: the tests start the real server on 127.0.0.1 (a free port),
//! speak HTTP/1.1 to it with a client written here, and check its answers against the engine
//! run in the test. (The page in a real browser is left to a later step: docs/API.md says
//! what the page relies on.)

use crate::common::serve::serve;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// One request; returns the status and the body.
fn http(address: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status: u16 = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    // Bodies are sent whole (Content-Length) by the server; a chunked one would show here.
    (status, body.to_string())
}

fn api(address: &str, method: &str, path: &str, body: Value) -> (u16, Value) {
    let text = body.to_string();
    let (status, reply) = http(
        address,
        method,
        path,
        (!body.is_null()).then_some(text.as_str()),
    );
    let value = serde_json::from_str(&reply).unwrap_or_else(|_| panic!("not JSON: {reply}"));
    (status, value)
}

#[test]
fn the_page_and_the_bundled_games_are_served() {
    let s = serve(&[]);
    let (status, page) = http(&s.address, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\""));
    let (status, script) = http(&s.address, "GET", "/app.js", None);
    assert_eq!(status, 200);
    assert!(script.contains("/api/sessions"));
    let (status, games) = api(&s.address, "GET", "/api/games", Value::Null);
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
        &s.address,
        "POST",
        "/api/sessions",
        json!({ "game": "othello" }),
    );
    assert_eq!(status, 200, "{view}");
    let id = view["id"].as_str().unwrap().to_string();
    assert_eq!(view["rows"][3], "...WB...");
    let mut turns = 0;
    while !view["over"].as_bool().unwrap() {
        turns += 1;
        assert!(turns < 200, "the game does not end");
        let (status, next) = if view["to_move"] == "black" {
            let step = view["steps"][0]["text"].as_str().unwrap().to_string();
            api(
                &s.address,
                "POST",
                &format!("/api/sessions/{id}/step"),
                json!({ "step": step }),
            )
        } else {
            api(
                &s.address,
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
        &s.address,
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
    let a = &s.address;
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
    let (status, _) = http(a, "POST", &format!("/api/sessions/{id}/step"), Some(&huge));
    assert_eq!(status, 413);
    let (status, _) = http(a, "GET", "/nowhere", None);
    assert_eq!(status, 404);
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
#[test]
fn two_hundred_concurrent_games() {
    let s = serve(&[]);
    let address = s.address.clone();
    let started = Instant::now();
    let games: Vec<_> = (0..200)
        .map(|g| {
            let a = address.clone();
            std::thread::spawn(move || {
                let (status, mut view) = api(
                    &a,
                    "POST",
                    "/api/sessions",
                    json!({ "game": "othello", "set": { "size": "6" } }),
                );
                assert_eq!(status, 200, "{view}");
                let id = view["id"].as_str().unwrap().to_string();
                let mut steps = 0;
                while !view["over"].as_bool().unwrap() {
                    steps += 1;
                    assert!(steps <= 200);
                    let (status, next) = api(
                        &a,
                        "POST",
                        &format!("/api/sessions/{id}/agent"),
                        json!({ "agent": "random", "seed": g }),
                    );
                    assert_eq!(status, 200, "{next}");
                    view = next;
                }
                let (status, _) = api(&a, "DELETE", &format!("/api/sessions/{id}"), Value::Null);
                assert_eq!(status, 200);
                steps
            })
        })
        .collect();
    let steps: usize = games.into_iter().map(|g| g.join().unwrap()).sum();
    assert!(steps >= 200 * 20, "{steps}");
    assert!(started.elapsed() < Duration::from_secs(600));
}
