//! `outflank serve` under attack and load: other sites and DNS rebinding, links beside the
//! served file, concurrent saves, floods of replays, Ctrl-C, idle and half-sent connections,
//! analyses stopped at once, and the token of a server open to the network.

use crate::common::serve::{api, finished, get, http, post, raw, serve, serving_a_file, Endpoint};
use serde_json::{json, Value};
use std::process::Command;
use std::time::{Duration, Instant};

/// Another site's page, open in the user's browser, can send requests to the server: blind ones
/// of any kind (a `text/plain` POST needs no preflight), and, through DNS rebinding, ones whose
/// answers it reads. Each is refused with 403 and a JSON error, and the served file is left as
/// it was; the server's own page, which carries the token, is heard.
#[test]
fn other_sites_cannot_drive_the_server() {
    let (file, text, s) = serving_a_file("cross-site");
    let Endpoint { address, token } = &s.endpoint;
    let own = format!("http://{address}");
    let edit = json!({ "text": "pwned" }).to_string();
    let save = "POST /api/games/mine/save HTTP/1.1";
    // The token with its first digit changed (to another digit, whatever the first is).
    let wrong = format!(
        "{}{}",
        if token.starts_with('0') { '1' } else { '0' },
        &token[1..]
    );
    let refused = [
        // The attack as found: another origin, a body sent as text, no token.
        format!("{save}\r\nHost: {address}\r\nOrigin: http://evil.example\r\nContent-Type: text/plain"),
        // Each defence on its own: the token with another origin, or as text, or no token.
        format!("{save}\r\nHost: {address}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nX-Outflank-Token: {token}"),
        format!("{save}\r\nHost: {address}\r\nOrigin: {own}\r\nContent-Type: text/plain\r\nX-Outflank-Token: {token}"),
        format!("{save}\r\nHost: {address}\r\nOrigin: {own}\r\nContent-Type: application/json"),
        format!("{save}\r\nHost: {address}\r\nContent-Type: application/json\r\nX-Outflank-Token: {wrong}"),
        // A rebound name: the right token cannot make another host's request heard.
        format!("{save}\r\nHost: evil.example:80\r\nContent-Type: application/json\r\nX-Outflank-Token: {token}"),
        // No host at all.
        "POST /api/games/mine/save HTTP/1.0\r\nContent-Type: application/json".to_string(),
    ];
    for head in &refused {
        let (status, reply) = raw(address, head, &edit);
        assert_eq!(status, 403, "{head}: {reply}");
        assert!(reply["error"].is_string(), "{reply}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "{head}");
    }
    // Nothing else changes without the token either: no session, no analysis, no delete.
    let (_, view) = api(
        &s.endpoint,
        "POST",
        "/api/sessions",
        json!({ "game": "mine" }),
    );
    let id = view["id"].as_str().unwrap();
    for (head, body) in [
        (
            "POST /api/sessions HTTP/1.1".to_string(),
            r#"{"game":"mine"}"#,
        ),
        (
            "POST /api/analyses HTTP/1.1".to_string(),
            r#"{"game":"mine","games":1000000}"#,
        ),
        (
            format!("POST /api/sessions/{id}/step HTTP/1.1"),
            r#"{"step":"d3"}"#,
        ),
        (format!("DELETE /api/sessions/{id} HTTP/1.1"), ""),
    ] {
        let head = format!("{head}\r\nHost: {address}\r\nContent-Type: application/json");
        let (status, reply) = raw(address, &head, body);
        assert_eq!(status, 403, "{head}: {reply}");
    }
    let status = get(&s.endpoint, "/api/status");
    assert_eq!(status["sessions"], 1, "{status}");
    assert_eq!(status["analyses_running"], 0, "{status}");
    // A rebinding page reads nothing: not the page (and its token), not the rules.
    for path in ["/", "/api/games/mine/rules", "/api/games"] {
        let (status, reply) = raw(
            address,
            &format!(
                "GET {path} HTTP/1.1\r\nHost: evil.example:{}",
                &address[10..]
            ),
            "",
        );
        assert_eq!(status, 403, "{path}: {reply}");
        assert!(!reply.to_string().contains(token.as_str()));
    }
    // The server's own names are heard, the page's writes with them.
    for host in [address.clone(), address.replace("127.0.0.1", "localhost")] {
        let (status, reply) = raw(
            address,
            &format!("GET /api/games/mine/rules HTTP/1.1\r\nHost: {host}"),
            "",
        );
        assert_eq!(status, 200, "{host}: {reply}");
    }
    let head = format!(
        "{save}\r\nHost: {address}\r\nOrigin: {own}\r\nContent-Type: application/json; charset=utf-8\r\nX-Outflank-Token: {token}"
    );
    let edited = text.replacen("param size = 8", "param size = 6", 1);
    let (status, reply) = raw(address, &head, &json!({ "text": edited }).to_string());
    assert_eq!(status, 200, "{reply}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
    // Every server has a token of its own.
    let other = serve(&[]);
    assert_ne!(other.endpoint.token, *token);
    std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
}

/// A link laid where the server once wrote its temporary file does not redirect a save: the
/// file it points to is left as it was, and the served file is a file holding the edit.
#[test]
fn a_link_beside_the_served_file_does_not_redirect_a_save() {
    let (file, text, s) = serving_a_file("save-link");
    let dir = file.parent().unwrap();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("mine.rules.outflank-saving")).unwrap();
    let edit = text.replacen("param size = 8", "param size = 6", 1);
    let saved = post(&s.endpoint, "/api/games/mine/save", json!({ "text": edit }));
    assert_eq!(saved["served"], true, "{saved}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(&file).unwrap().is_file());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edit);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Saves that race each other all succeed, and the rules served afterwards are the file on disk
/// (concurrent saves gave 500s, and the served text and the file differed, before saves took
/// turns).
#[test]
fn concurrent_saves_leave_the_served_rules_and_the_file_alike() {
    let (file, text, s) = serving_a_file("save-race");
    let savers: Vec<_> = (0..12)
        .map(|i| {
            let to = s.endpoint.clone();
            let edit = format!("{text}\n// save {i}\n");
            std::thread::spawn(move || {
                let (status, reply) =
                    api(&to, "POST", "/api/games/mine/save", json!({ "text": edit }));
                assert_eq!(status, 200, "{reply}");
            })
        })
        .collect();
    for saver in savers {
        saver.join().unwrap();
    }
    let on_disk = std::fs::read_to_string(&file).unwrap();
    assert!(on_disk.contains("// save "), "{on_disk}");
    assert_eq!(get(&s.endpoint, "/api/games/mine/rules")["text"], on_disk);
    let names = std::fs::read_dir(file.parent().unwrap()).unwrap().count();
    assert_eq!(names, 1, "no temporary file left");
    std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
}

/// A saved edit changes what the list of games says of it: its title and players with its
/// rules, where the list once kept the title the server started with.
#[test]
fn the_list_of_games_follows_a_save() {
    let (file, text, s) = serving_a_file("title-after-save");
    let edited = text.replacen("title \"Othello\"", "title \"Othello, edited\"", 1);
    assert_ne!(edited, text);
    let (status, reply) = api(
        &s.endpoint,
        "POST",
        "/api/games/mine/save",
        json!({ "text": edited }),
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["served"], true, "{reply}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
    let (_, games) = api(&s.endpoint, "GET", "/api/games", Value::Null);
    let mine = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "mine")
        .unwrap();
    assert_eq!(mine["title"], "Othello, edited", "{games}");
    assert_eq!(mine["players"], json!(["black", "white"]), "{games}");
}

/// Sessions are bounded in memory, not only in number: a client flooding the server with
/// replays of long records leaves its peak within the sessions' bound (`--session-memory`,
/// here 32 MB) and the server's own, the sessions left alone longest making room; a record
/// longer than one session may hold (a quarter) is refused with 413. The count alone once let
/// twelve such requests take 705 MB in 6 s.
#[test]
fn replays_flooding_the_server_stay_within_its_memory() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("outflank-flood-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Turns that change nothing: a record of this game is as long as its writer likes.
    let file = dir.join("idle.rules");
    std::fs::write(
        &file,
        "title \"idle\"\nboard 4 x 4\nplayer black 'B'\nplayer white 'W'\n\
         turn { choose c in all { } }\nend when none(empty)\nscore p = count(p)\n",
    )
    .unwrap();
    let s = serve(&[file.to_str().unwrap(), "--session-memory", "32"]);
    let a = &s.endpoint;
    let before_mb = s.peak_kb() / 1024;
    // The record of one step, as the server writes it (the rules' hash, the notation).
    let id = post(a, "/api/sessions", json!({ "game": "idle" }))["id"]
        .as_str()
        .unwrap()
        .to_string();
    post(
        a,
        &format!("/api/sessions/{id}/step"),
        json!({ "step": "a1" }),
    );
    let mut record = get(a, &format!("/api/sessions/{id}/record"));
    let flood = |record: &Value| json!({ "game": "idle", "record": record }).to_string();
    // Longer than one session may hold (8 MB): refused whole.
    record["moves"] = json!(vec!["a1"; 100_000]);
    let (status, reply) = http(a, "POST", "/api/sessions", Some(&flood(&record)));
    assert_eq!(status, 413, "{reply}");
    assert!(reply.contains("--session-memory"), "{reply}");
    // Each of these holds about 6 MB of positions; twelve would take 72 MB.
    record["moves"] = json!(vec!["a1"; 12_000]);
    let body = flood(&record);
    let mut ids = Vec::new();
    for _ in 0..12 {
        let (status, reply) = http(a, "POST", "/api/sessions", Some(&body));
        assert_eq!(status, 200, "{reply}");
        let reply: Value = serde_json::from_str(&reply).unwrap();
        ids.push(reply["id"].as_str().unwrap().to_string());
    }
    let grown_mb = s.peak_kb() / 1024 - before_mb;
    assert!(grown_mb < 56, "the server's peak grew by {grown_mb} MB");
    // The newest session is there; the oldest made room.
    let (status, _) = http(a, "GET", &format!("/api/sessions/{}", ids[11]), None);
    assert_eq!(status, 200);
    let (status, _) = http(a, "GET", &format!("/api/sessions/{}", ids[0]), None);
    assert_eq!(status, 404);
}

/// Ctrl-C stops the server within a few seconds while a computer player thinks for half a minute:
/// requests under way get a second, not as long as they would take.
#[test]
fn ctrl_c_stops_the_server_while_a_player_thinks() {
    let mut s = serve(&[]);
    let id = post(&s.endpoint, "/api/sessions", json!({ "game": "othello" }))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let thinking = {
        let to = Endpoint {
            address: s.endpoint.address.clone(),
            token: s.endpoint.token.clone(),
        };
        std::thread::spawn(move || {
            http(
                &to,
                "POST",
                &format!("/api/sessions/{id}/agent"),
                Some(&json!({ "agent": "mcts:30000ms" }).to_string()),
            )
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    assert!(!thinking.is_finished(), "{:?}", thinking.join());
    let started = Instant::now();
    let status = s.interrupt(Duration::from_secs(10));
    assert!(status.is_some(), "still serving 10 s after Ctrl-C");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The thinking request ends unanswered with the server, not after its half minute.
    let _ = thinking.join();
}

/// Connections that send nothing, half a request's head, or half its body (issue 83, R6) are
/// closed within the server's read time (10 s), a kept-alive connection left idle too; while
/// they are open, others are answered at once. Before, each was held as long as its client
/// liked, and a thousand of them used up the server's files.
#[test]
fn idle_and_half_sent_connections_are_closed_in_time() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    let s = serve(&[]);
    let a = &s.endpoint;
    let address = &a.address;
    let connect = |sent: &str| {
        let mut stream = TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream.write_all(sent.as_bytes()).unwrap();
        stream
    };
    let started = Instant::now();
    let mut held = Vec::new();
    for _ in 0..30 {
        held.push(("nothing", connect("")));
        held.push((
            "half a head",
            connect(&format!("GET / HTTP/1.1\r\nHost: {address}\r\nX-")),
        ));
        held.push((
            "half a body",
            connect(&format!(
                "POST /api/sessions HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
                 X-Outflank-Token: {}\r\nContent-Length: 100\r\n\r\n{{\"game\":",
                a.token
            )),
        ));
    }
    // A whole request, then nothing: the connection is kept alive, then closed.
    let mut kept = connect(&format!(
        "GET /api/status HTTP/1.1\r\nHost: {address}\r\n\r\n"
    ));
    let mut answer = [0u8; 12];
    kept.read_exact(&mut answer).unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
    held.push(("kept alive", kept));
    // Others are not kept waiting by them.
    let asked = Instant::now();
    assert!(get(a, "/api/status")["version"].is_string());
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    for (what, mut stream) in held {
        let mut rest = Vec::new();
        // The server's close ends the read (a reset is an end too).
        let _ = stream.read_to_end(&mut rest);
        let after = started.elapsed();
        assert!(
            after < Duration::from_secs(16),
            "{what}: still open after {after:?}"
        );
        let rest = String::from_utf8_lossy(&rest);
        if what == "half a body" {
            assert!(rest.starts_with("HTTP/1.1 408"), "{what}: {rest}");
            assert!(
                rest.contains("did not arrive within 10 s"),
                "{what}: {rest}"
            );
        }
    }
    // Every connection the server closed is one it let go of: it still answers.
    assert!(get(a, "/api/status")["version"].is_string());
}

/// Stopping an analysis stops its players where they are thinking (issue 83): a search that
/// would take half a minute a move, or longer, ends within a few seconds of the stop, and the
/// server's cores are free again.
#[test]
fn stopping_an_analysis_stops_its_players_at_once() {
    let s = serve(&[]);
    let a = &s.endpoint;
    for (game, agents) in [
        ("othello", ["mcts:30000ms", "mcts:30000ms"]),
        ("reversi-go-19x19", ["alphabeta:10", "alphabeta:10"]),
    ] {
        let started = post(
            a,
            "/api/analyses",
            json!({ "game": game, "agents": agents, "games": 4 }),
        );
        let id = started["id"].as_str().unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(get(a, "/api/status")["analyses_running"], 1, "{game}");
        let asked = Instant::now();
        let (status, _) = api(a, "DELETE", &format!("/api/analyses/{id}"), Value::Null);
        assert_eq!(status, 200);
        while get(a, "/api/status")["analyses_running"] != 0 {
            assert!(
                asked.elapsed() < Duration::from_secs(5),
                "{game} {agents:?}: still thinking {:?} after the stop",
                asked.elapsed()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let done = finished(a, id);
        assert_eq!(done["stopped"], true);
        assert_eq!(done["done"], 0, "{done}");
    }
}

/// The client side of [`a_server_open_to_the_network_asks_every_request_for_its_token`], run
/// inside the network namespace: starts the server on `ADDRESS`, reads its address and token
/// from what it prints, and prints one JSON line per request: its name, status and body.
const NETWORK_CLIENT: &str = r#"
import http.client, json, subprocess, sys
binary, address = sys.argv[1], sys.argv[2]
server = subprocess.Popen([binary, "serve", "--host", address, "--port", "0"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
line = server.stdout.readline()
url = line.split("http://")[1].split(" ")[0]
host, rest = url.split("/", 1)
token = rest.split("token=")[1]
def ask(name, method, path, headers=None, body=None):
    c = http.client.HTTPConnection(host, timeout=30)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    print(json.dumps({"name": name, "status": r.status, "body": r.read().decode()[:300]}))
ask("page without token", "GET", "/")
ask("page with token", "GET", "/?token=" + token)
ask("script", "GET", "/app.js")
ask("games without token", "GET", "/api/games")
ask("games with token", "GET", "/api/games", {"X-Outflank-Token": token})
ask("games with a wrong token", "GET", "/api/games", {"X-Outflank-Token": "0" * 32})
ask("session with token, another host", "POST", "/api/sessions",
    {"X-Outflank-Token": token, "Content-Type": "application/json", "Host": "example.org"},
    json.dumps({"game": "othello"}))
ask("session without token", "POST", "/api/sessions",
    {"Content-Type": "application/json"}, json.dumps({"game": "othello"}))
server.terminate()
print(json.dumps({"name": "printed", "status": 0, "body": line + server.stderr.read()}))
"#;

/// `--host` on an address that is not a loopback one (issue 83, S1): the server warns, prints
/// its address with the token, and asks the token of every request but the script and the
/// style, reads included, whatever `Host` they name. Run in a network namespace of its own
/// (`unshare -n`), on an address that only that namespace has, so that nothing outside can
/// reach the server: the tests' servers listen on no real network.
#[test]
fn a_server_open_to_the_network_asks_every_request_for_its_token() {
    let setup = "ip link set lo up && ip addr add 10.99.0.1/32 dev lo";
    let probe = Command::new("unshare")
        .args(["-n", "sh", "-c", setup])
        .output();
    if !probe.as_ref().is_ok_and(|o| o.status.success()) {
        // A network namespace needs root, as CI and tests/run have; said on stderr, and by
        // .ci/run, so that a run where this test could not run does not pass unnoticed.
        eprintln!(
            "warning: skipped: `unshare -n` (root) is needed to give the server a network of \
             its own: {probe:?}"
        );
        return;
    }
    let o = Command::new("unshare")
        .args(["-n", "sh", "-c"])
        .arg(format!(
            "{setup} && exec python3 -c \"$0\" \"$1\" 10.99.0.1"
        ))
        .arg(NETWORK_CLIENT)
        .arg(env!("CARGO_BIN_EXE_outflank"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let answer = |name: &str| {
        let a = answers
            .iter()
            .find(|a| a["name"] == name)
            .unwrap_or_else(|| panic!("no answer for {name}: {out}"));
        (
            a["status"].as_u64().unwrap(),
            a["body"].as_str().unwrap().to_string(),
        )
    };
    for (name, status, says) in [
        ("page without token", 403, "open to the network"),
        ("page with token", 200, "outflank-token"),
        ("script", 200, ""),
        ("games without token", 403, "open to the network"),
        ("games with token", 200, "othello"),
        ("games with a wrong token", 403, "open to the network"),
        ("session with token, another host", 200, "\"id\""),
        ("session without token", 403, "token"),
    ] {
        let (got, body) = answer(name);
        assert_eq!(got, status, "{name}: {body}");
        assert!(body.contains(says), "{name}: {body}");
    }
    let (_, printed) = answer("printed");
    assert!(printed.contains("http://10.99.0.1:"), "{printed}");
    assert!(printed.contains("?token="), "{printed}");
    assert!(
        printed.contains("which others on the network can reach"),
        "{printed}"
    );
}
