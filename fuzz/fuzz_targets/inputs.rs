//! Feeds arbitrary bytes to the readers of records, shards and transcripts (fuzz/harness.rs).
//! CI runs it for a bounded time (`.ci/fuzz`). Long runs by hand on nightly: `cargo install
//! cargo-fuzz`, then, in this folder, `cargo +nightly fuzz run inputs corpus/inputs`.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::inputs(data));
