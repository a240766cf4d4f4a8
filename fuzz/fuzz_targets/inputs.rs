//! Feeds arbitrary bytes to the readers of records, shards and transcripts (fuzz/harness.rs).
//! Run by hand on nightly: `cargo install cargo-fuzz`, then, in this folder,
//! `cargo +nightly fuzz run inputs corpus/inputs`. CI replays the corpus on stable.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::inputs(data));
