//! What the `inputs` fuzz target does with its bytes, kept apart from the target so that the
//! suite runs the same code on the stable toolchain: tests/fuzz.rs replays the committed
//! corpus (fuzz/corpus/inputs/) through it and mutates that corpus with proptest; the target
//! runs it under libFuzzer, for a bounded time in CI (`.ci/fuzz`) and for as long as one likes
//! on nightly.
//!
//! The bytes are read as everything a user may hand outflank besides rules: records of its
//! own (a line each, replayed on Othello), a shard of an analysis (merged), and transcripts,
//! GGF and SGF (read on Othello). Nothing may panic, and every reader must return.

use outflank::apps::formats::{self, Format};
use outflank::apps::record::{replay, Record};
use outflank::apps::shards;
use outflank::check::check;
use outflank::engine::Engine;
use outflank::source::{NoFiles, SourceFile};
use std::sync::OnceLock;

/// Othello, the game the inputs are read for, checked once.
fn othello() -> &'static Engine {
    static OTHELLO: OnceLock<Engine> = OnceLock::new();
    OTHELLO.get_or_init(|| {
        let text = include_str!("../games/othello.rules");
        let checked = check(SourceFile::new("othello.rules", text), &NoFiles, &[])
            .unwrap_or_else(|_| panic!("the bundled Othello checks"));
        Engine::new(checked.game)
    })
}

/// Feeds `data` to every reader of records, shards and transcripts.
pub(crate) fn inputs(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let engine = othello();
    let start = engine.start().expect("Othello starts");
    for line in text.lines() {
        if let Ok(record) = serde_json::from_str::<Record>(line) {
            let _ = replay(engine, &start, &record);
        }
    }
    let _ = shards::merge(&[("input.jsonl".to_string(), text.to_string())], true);
    for format in [Format::Transcript, Format::Ggf, Format::Sgf] {
        let _ = formats::read(engine, format, text, "othello.rules");
    }
}
