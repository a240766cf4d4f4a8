//! Property tests, continued (tests/fuzz.rs has the rules and the command lines): tampered
//! records, the language server's frames, and the fuzz target's corpus of records, shards and
//! transcripts, replayed and mutated.

use crate::common;

use super::fuzz::*;
use proptest::prelude::*;
use std::sync::OnceLock;
use std::time::Duration;

/// Records of real games (6x6 Reversi), made once.
fn records() -> &'static Vec<serde_json::Value> {
    static RECORDS: OnceLock<Vec<serde_json::Value>> = OnceLock::new();
    RECORDS.get_or_init(|| {
        let path = temp("fuzz-records.jsonl");
        let _ = std::fs::remove_file(&path);
        let o = run_bounded(
            &[
                "run".into(),
                "games/reversi-6x6.rules".into(),
                "--games".into(),
                "6".into(),
                "--record".into(),
                path.clone(),
            ],
            "",
            Duration::from_secs(60),
        );
        assert!(o.status.success());
        std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    })
}

/// A change to a record, and whether the result it claims is then certainly false.
#[derive(Clone, Debug)]
enum Tamper {
    Score(f64),
    OtherWinner,
    Resign(String),
    Hash(String),
    Move(usize, String),
    DropMove(usize),
    Param(String),
    Start(String),
    Cut(usize),
}

fn tamper() -> impl Strategy<Value = Tamper> {
    prop_oneof![
        (-100i32..100).prop_map(|s| Tamper::Score(f64::from(s) + 0.5)),
        Just(Tamper::OtherWinner),
        word(&["black", "white", "martian", ""]).prop_map(Tamper::Resign),
        "[0-9a-z:]{0,24}".prop_map(Tamper::Hash),
        (0usize..40, "[a-h][1-8]|pass|[ -~]{0,4}").prop_map(|(i, m)| Tamper::Move(i, m)),
        (0usize..40).prop_map(Tamper::DropMove),
        value().prop_map(Tamper::Param),
        "[.BW#/]{0,40}".prop_map(Tamper::Start),
        (0usize..400).prop_map(Tamper::Cut),
    ]
}

proptest! {
    // 750 cases, not 1,500: `.ci/fuzz`'s `inputs` target covers these readers in CI too.
    #![proptest_config(config(750))]

    /// A tampered record never crashes `replay`, and one whose claimed result is false (a
    /// score, the winner, a resignation of a finished game, the rules' hash) never replays.
    #[test]
    fn tampered_records_are_caught(which in 0usize..6, change in tamper()) {
        let mut r = records()[which].clone();
        let mut must_fail = true;
        let mut text = None;
        match &change {
            Tamper::Score(s) => r["result"]["scores"]["black"] = (*s).into(),
            Tamper::OtherWinner => {
                let winner = r["result"]["winner"].clone();
                r["result"]["winner"] = if winner == "black" { "white".into() } else { "black".into() };
            }
            Tamper::Resign(who) => r["result"]["resigned"] = who.clone().into(),
            Tamper::Hash(h) => r["rules_hash"] = h.clone().into(),
            Tamper::Move(i, m) => {
                must_fail = false;
                let moves = r["moves"].as_array_mut().unwrap();
                let i = i % moves.len();
                moves[i] = m.clone().into();
            }
            Tamper::DropMove(i) => {
                must_fail = false;
                let moves = r["moves"].as_array_mut().unwrap();
                moves.remove(i % moves.len());
            }
            Tamper::Param(v) => {
                must_fail = false;
                r["params"]["size"] = v.clone().into();
            }
            Tamper::Start(rows) => {
                must_fail = false;
                r["start"] = serde_json::json!({"rows": rows, "to_move": "black"});
            }
            Tamper::Cut(n) => {
                let full = r.to_string();
                text = Some(full[..(*n).min(full.len() - 1)].to_string());
            }
        }
        let text = text.unwrap_or_else(|| r.to_string());
        let path = temp(&format!("tampered-{}.json", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let o = run_bounded(
            &["replay".into(), "games/reversi-6x6.rules".into(), path, "--quiet".into()],
            "",
            Duration::from_secs(60),
        );
        let err = String::from_utf8_lossy(&o.stderr);
        prop_assert!(!err.contains("panicked"), "{change:?}: {err}");
        prop_assert!(matches!(o.status.code(), Some(0 | 1)), "{change:?}: {err}");
        if must_fail {
            prop_assert_eq!(o.status.code(), Some(1), "{:?} replayed", change);
        }
    }
}

// ---- the language server's framing ---------------------------------------------------------

/// One piece of what a careless or hostile client writes to the language server.
fn frame_piece() -> impl Strategy<Value = Vec<u8>> {
    let framed = |body: &[u8]| {
        let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        bytes.extend_from_slice(body);
        bytes
    };
    let method = word(&[
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/documentSymbol",
        "textDocument/formatting",
        "textDocument/rename",
        "outflank/unknown",
    ]);
    let params = (0u32..40, 0u32..200, "[ -~]{0,12}").prop_map(|(line, character, name)| {
        serde_json::json!({
            "textDocument": { "uri": "file:///tmp/fuzz.rules" },
            "position": { "line": line, "character": character },
            "newName": name,
            "options": { "tabSize": 4, "insertSpaces": true },
        })
    });
    let text = "(board|player|turn|region|line|[a-z ]|\\{|\\}|\n){0,40}";
    prop_oneof![
        (method, params, -3i64..1000).prop_map(move |(m, p, id)| framed(
            serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": m, "params": p })
                .to_string()
                .as_bytes()
        )),
        (text, 1i32..5).prop_map(move |(t, version)| framed(
            serde_json::json!({
                "jsonrpc": "2.0",
                "method": if version == 1 { "textDocument/didOpen" } else { "textDocument/didChange" },
                "params": {
                    "textDocument": {
                        "uri": "file:///tmp/fuzz.rules", "languageId": "outflank",
                        "version": version, "text": t,
                    },
                    "contentChanges": [{ "text": t }],
                },
            })
            .to_string()
            .as_bytes()
        )),
        // A body whose length is told wrong.
        ("[ -~]{0,60}", -6i64..6).prop_map(|(body, off)| {
            let told = (body.len() as i64 + off).max(0);
            let mut bytes = format!("Content-Length: {told}\r\n\r\n").into_bytes();
            bytes.extend_from_slice(body.as_bytes());
            bytes
        }),
        proptest::collection::vec(any::<u8>(), 0..120),
        "[ -~]{0,80}\r?\n".prop_map(String::into_bytes),
        proptest::collection::vec(any::<u8>(), 0..60).prop_map(move |b| framed(&b)),
        prop_oneof![Just(17_000_000u64), Just(1u64 << 40), Just(u64::MAX)]
            .prop_map(|n| format!("Content-Length: {n}\r\n\r\n").into_bytes()),
    ]
}

proptest! {
    #![proptest_config(config(120))]

    /// Whatever a client writes, the language server neither panics nor hangs: it ends
    /// cleanly when its input does (issue 83, R3).
    #[test]
    fn the_language_server_survives_any_frames(
        pieces in proptest::collection::vec(frame_piece(), 1..10)
    ) {
        let mut client = common::lsp::Client::start(false);
        for piece in &pieces {
            client.send_raw(piece);
        }
        let (status, log) = client.close_and_read_log();
        prop_assert!(!log.contains("panicked"), "{log}");
        prop_assert!(status.success(), "{status:?}: {log}");
    }
}

// ---- records, shards and transcripts, as the fuzz target reads them ------------------------

#[path = "../fuzz/harness.rs"]
mod harness;

/// The fuzz target's committed corpus: each file's name and bytes.
fn corpus() -> &'static Vec<(String, Vec<u8>)> {
    static CORPUS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/corpus/inputs");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let path = e.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&path).unwrap())
            })
            .collect();
        files.sort();
        files
    })
}

/// Every file of the corpus goes through the fuzz target's readers without a panic, and each
/// kind of input it holds is read as what it is.
#[test]
fn the_fuzz_corpus_reads_cleanly() {
    let names: Vec<&str> = corpus().iter().map(|(n, _)| n.as_str()).collect();
    for kind in [
        "records.jsonl",
        "shard.jsonl",
        "transcript.txt",
        "server.ggf",
        "game.sgf",
    ] {
        assert!(names.contains(&kind), "{kind} is missing from {names:?}");
    }
    for (_, bytes) in corpus() {
        harness::inputs(bytes);
    }
    // The seeds are sound inputs, so that mutations start from what the readers accept.
    let shard = String::from_utf8(corpus_file("shard.jsonl")).unwrap();
    assert!(outflank::apps::shards::merge(&[("shard".into(), shard)], false).is_ok());
}

fn corpus_file(name: &str) -> Vec<u8> {
    corpus().iter().find(|(n, _)| n == name).unwrap().1.clone()
}

/// Byte edits: (where, what, how): 0 replaces a byte, 1 inserts one, 2 removes one.
fn edits() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    proptest::collection::vec((0usize..1 << 16, any::<u8>(), 0u8..3), 1..8)
}

fn edited(bytes: &[u8], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for &(at, byte, how) in edits {
        let at = at % (bytes.len() + 1);
        match how {
            0 if at < bytes.len() => bytes[at] = byte,
            2 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, byte),
        }
    }
    bytes
}

proptest! {
    #![proptest_config(config(400))]

    /// The corpus, edited a few bytes at a time, never makes a reader panic.
    #[test]
    fn edited_inputs_never_panic(which in 0usize..64, changes in edits()) {
        let (_, bytes) = &corpus()[which % corpus().len()];
        harness::inputs(&edited(bytes, &changes));
    }

    /// A shard edited anywhere either merges into exactly the games it held, or is refused
    /// (issue 83, R4): no edit changes what a merge reports.
    #[test]
    fn an_edited_shard_never_changes_a_merge(changes in edits()) {
        use outflank::apps::shards::merge;
        let games = |text: String| {
            merge(&[("shard".into(), text)], true)
                .map(|m| serde_json::to_string(&m.games).unwrap())
        };
        let original = games(String::from_utf8(corpus_file("shard.jsonl")).unwrap()).unwrap();
        let changed = edited(&corpus_file("shard.jsonl"), &changes);
        if let Ok(text) = String::from_utf8(changed) {
            if let Ok(merged) = games(text) {
                prop_assert_eq!(merged, original);
            }
        }
    }
}
