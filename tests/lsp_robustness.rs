//! The language server, continued (tests/lsp.rs has the first part): formatting and symbols,
//! quick fixes and lenses, and a server that bad input, random edits, malformed frames and
//! edits during a check never stop.

use super::lsp::*;
use crate::common::lsp::{position_of, uri, Client, Edits};
use serde_json::{json, Value};
use std::path::PathBuf;

#[test]
fn formatting_is_fmt_and_symbols_outline_the_file() {
    let dir = folder("format");
    let u = uri(&dir.join("f.rules"));
    let messy = BASE
        .replace("    place c", "place c")
        .replace("  white on", "      white on");
    let mut c = Client::start(false);
    c.open(&u, &messy);
    let edits = c.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["newText"], outflank::format::format(&messy));
    assert_eq!(edits[0]["newText"], BASE);
    // The outline: every named item, in order.
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": u } }),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Base",
            "size",
            "board",
            "black",
            "white",
            "inner",
            "mine",
            "setup",
            "outflank",
            "turn",
            "end",
            "score",
            "example \"opening\""
        ]
    );
}

#[test]
fn a_suggestion_becomes_a_quick_fix_and_an_example_runs_from_its_lens() {
    let dir = folder("actions");
    let u = uri(&dir.join("a.rules"));
    let text = BASE.replace("first black", "first blak");
    let mut c = Client::start(false);
    c.open(&u, &text);
    let diags = c.diagnostics(&u);
    assert_eq!(diags[0]["data"]["suggestion"], "black");
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": u }, "range": diags[0]["range"], "context": { "diagnostics": diags } }),
    );
    let fix = &actions[0];
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["edit"]["changes"][&u][0]["newText"], "black");
    assert_eq!(
        fix["edit"]["changes"][&u][0]["range"],
        range_of(&text, "blak", 0, false)
    );

    // The example's lens runs it: a passing one, then one made to fail.
    c.change(&u, 2, [0, 0, 999, 0], BASE);
    let lenses = c.request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": u } }),
    );
    let lens = &lenses[0];
    assert_eq!(lens["range"], range_of(BASE, "\"opening\"", 0, false));
    let run = |c: &mut Client| {
        c.request(
            "workspace/executeCommand",
            json!({ "command": lens["command"]["command"], "arguments": lens["command"]["arguments"] }),
        )
    };
    let passed = run(&mut c);
    assert_eq!(passed["passed"], true, "{passed}");
    let failing = BASE.replace(
        "expect legal \"d3 c4 f5 e6\"",
        "play \"d3\"\n  expect board \"......../......../...B..../...BB.../...BB.../......../......../........\"",
    );
    c.change(&u, 3, [0, 0, 999, 0], &failing);
    let failed = run(&mut c);
    assert_eq!(failed["passed"], false);
    let message = failed["message"].as_str().unwrap();
    assert!(
        message.contains("expected") && message.contains("actual"),
        "{message}"
    );
    // The row that differs is marked.
    assert!(message.contains("*  5 ...BB...   ...BW..."), "{message}");
}

#[test]
fn bad_input_never_stops_the_server() {
    let dir = folder("robust");
    let u = uri(&dir.join("x.rules"));
    let mut c = Client::start(false);
    // Requests about a document never opened, and a change before the open.
    let r = c.call(
        "textDocument/hover",
        at(&u, json!({ "line": 0, "character": 0 })),
    );
    assert!(r.get("error").is_none() || r["error"]["code"].is_number());
    c.change(&u, 1, [0, 0, 0, 0], "junk");
    // A method it does not know, and parameters of the wrong shape.
    let unknown = c.call("textDocument/teleport", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    let shapeless = c.call("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(shapeless["error"]["code"], -32602);
    // Random bytes as a document, and positions far past its end.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let junk: String = (0..3000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from_u32((state % 0x3000) as u32).unwrap_or('?')
        })
        .collect();
    c.open(&u, &junk);
    let _ = c.diagnostics(&u);
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/prepareRename",
    ] {
        let r = c.call(method, at(&u, json!({ "line": 9999, "character": 9999 })));
        assert!(r.get("result").is_some() || r.get("error").is_some());
    }
    let f = c.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    assert!(f["error"]["message"]
        .as_str()
        .unwrap()
        .contains("does not parse"));
    // A document too large to be rules is refused with one diagnostic, not checked.
    let huge = "region r = all\n".repeat(400_000);
    c.change(&u, 3, [0, 0, 99999, 0], &huge);
    let refused = c.diagnostics(&u);
    assert_eq!(refused.len(), 1);
    assert!(refused[0]["message"]
        .as_str()
        .unwrap()
        .contains("larger than 4 MB"));
    let _ = c.call(
        "textDocument/completion",
        at(&u, json!({ "line": 5, "character": 3 })),
    );
    c.change(&u, 3, [0, 0, 999_999, 0], &junk);
    let _ = c.diagnostics(&u);
    // A change whose range lies beyond the text.
    c.change(&u, 3, [500, 3, 400, 1], "x");
    let _ = c.diagnostics(&u);
    // Still answering.
    c.change(&u, 4, [0, 0, 99999, 0], BASE);
    assert_eq!(c.diagnostics(&u), Vec::<Value>::new());
    assert!(c.shut_down().success());
}

/// Random insertions and deletions in every bundled game, each sent as an incremental change:
/// the server answers every one with diagnostics and stays up. (How fast: benches/lsp.rs.)
#[test]
fn a_thousand_random_edits_never_crash_the_server() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut games: Vec<PathBuf> = std::fs::read_dir("games")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    games.sort();
    let mut c = Client::start(false);
    let mut random = Edits::new(0x9e37_79b9_7f4a_7c15);
    let mut edits = 0;
    for game in &games {
        let path = std::fs::canonicalize(game).unwrap();
        let u = uri(&path);
        let mut text = std::fs::read_to_string(&path).unwrap();
        c.open(&u, &text);
        let _ = c.diagnostics(&u);
        for version in 2..2 + 1000 / games.len() + 1 {
            let (range, insert) = random.apply(&mut text);
            c.change(&u, version as i64, range, insert);
            let _ = c.diagnostics(&u);
            edits += 1;
            if edits % 50 == 0 {
                // Other requests at the edited text, also answered.
                let pos = random.position(&text);
                let _ = c.call("textDocument/completion", at(&u, pos.clone()));
                let _ = c.call("textDocument/hover", at(&u, pos));
            }
        }
        // The server's text is the test's: formatting it changes only what fmt changes.
        let f = c.call(
            "textDocument/formatting",
            json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } }),
        );
        if let Some(edits) = f["result"].as_array() {
            if let Some(e) = edits.first() {
                assert_eq!(e["newText"], outflank::format::format(&text));
            }
        }
    }
    assert!(edits >= 1000);
    assert!(c.shut_down().success());
}

/// Frames no client should send (issue 83, R3): each gets a JSON-RPC error, the server reads
/// on and answers the next request, and no length a frame claims is allocated.
#[test]
fn malformed_frames_get_errors_and_the_server_keeps_answering() {
    let dir = folder("frames");
    let u = uri(&dir.join("x.rules"));
    let mut c = Client::start(false);
    c.open(&u, BASE);
    assert_eq!(c.diagnostics(&u), Vec::<Value>::new());
    let mut past_the_limit = b"Content-Length: 20000000\r\n\r\n".to_vec();
    past_the_limit.resize(past_the_limit.len() + 20_000_000, b'x');
    let framed = |body: &[u8]| {
        let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        f.extend_from_slice(body);
        f
    };
    let cases: Vec<(&str, Vec<u8>, Value, i64)> = vec![
        (
            "a frame past the limit",
            past_the_limit,
            Value::Null,
            -32700,
        ),
        (
            "a body that is not UTF-8",
            framed(b"\"\xff\xfe\""),
            Value::Null,
            -32700,
        ),
        (
            "a body that is not JSON",
            framed(b"{\"id\": 4,"),
            Value::Null,
            -32700,
        ),
        (
            "JSON that is no message",
            framed(br#"{"id":5,"method":7}"#),
            json!(5),
            -32600,
        ),
        (
            "a length that overflows",
            b"Content-Length: 18446744073709551616\r\n\r\n".to_vec(),
            Value::Null,
            -32700,
        ),
        (
            "no length",
            b"Content-Type: text/plain\r\n\r\n".to_vec(),
            Value::Null,
            -32700,
        ),
        (
            "a line that is no header",
            b"hello\r\n\r\n".to_vec(),
            Value::Null,
            -32700,
        ),
        // The body's last byte is left over, glued to the next frame's header: the header is
        // found after it.
        (
            "a length one short",
            b"Content-Length: 2\r\n\r\n[1]".to_vec(),
            Value::Null,
            -32700,
        ),
    ];
    for (what, bytes, id, code) in cases {
        c.send_raw(&bytes);
        let error = c.error_for(&id);
        assert_eq!(error["code"], code, "{what}: {error}");
        let hover = c.call(
            "textDocument/hover",
            at(&u, position_of(BASE, "captured", 0, 2, false)),
        );
        assert!(
            hover["result"]["contents"].is_object(),
            "{what}: the next request gets {hover}"
        );
    }
    // Lengths that once aborted the server or took gigabytes: refused as they are read. The
    // frame's body would be all that follows, so each is the last thing sent.
    for length in ["1000000000000", "18446744073709551615", "3000000000"] {
        let mut c = Client::start(false);
        c.send_raw(format!("Content-Length: {length}\r\n\r\n{{}}").as_bytes());
        let error = c.error_for(&Value::Null);
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("larger than the limit"),
            "{error}"
        );
        assert!(
            c.peak_memory() < 200 << 20,
            "{length}: {} bytes",
            c.peak_memory()
        );
        assert!(c.close_input().success(), "{length}");
    }
    assert!(c.shut_down().success());
}

/// Edits typed faster than a large file is checked (issue 83, R3): they are applied in order
/// and checked together, not once each, and the diagnostics that follow are the last text's.
#[test]
fn edits_that_come_during_a_check_are_checked_together() {
    let dir = folder("coalesce");
    let u = uri(&dir.join("x.rules"));
    // About 1.5 MB of rules: a chain of regions, each read by the next (only the last one is
    // unused, one warning), and a comment at the end, where the typing goes.
    let mut text = BASE.to_string();
    text.push_str("region r0 = inner - corners\n");
    for i in 1..40_000 {
        text.push_str(&format!("region r{i} = r{} - corners\n", i - 1));
    }
    text.push_str("// typed: ");
    let line = text.matches('\n').count() as u32;
    let mut column = text.len() - text.rfind('\n').unwrap() - 1;
    let mut c = Client::start(false);
    c.open(&u, &text);
    let before = c.diagnostics(&u);
    assert_eq!(before.len(), 1, "{before:?}");
    let keystrokes = 200;
    for version in 0..keystrokes {
        let at = column as u32;
        c.change(&u, 2 + version, [line, at, line, at], "x");
        column += 1;
    }
    // The last edit leaves a syntax error, which the last diagnostics must show.
    let at = column as u32;
    c.change(&u, 2 + keystrokes, [line, at, line, at], "\nregion = ");
    let mut published = 0;
    loop {
        let diagnostics = c.diagnostics(&u);
        published += 1;
        if diagnostics.iter().any(|d| d["severity"] == 1) {
            break;
        }
    }
    assert!(published <= 20, "{published} checks for {keystrokes} edits");
    assert!(c.shut_down().success());
}
