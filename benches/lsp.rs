//! How long the language server takes to answer an edit: 1,000 random insertions and deletions
//! in the largest bundled game, each sent as an incremental change to `outflank lsp`, each
//! timed from the change sent to its diagnostics received. Prints the distribution and fails
//! when the slowest is over the budget (100 ms a change). Run with `cargo bench --bench lsp`;
//! `OUTFLANK_BIN=path` measures another build of the binary side by side.

// The tests are held to clippy's default lints; the pedantic set is for the library.
#![allow(clippy::pedantic)]

#[path = "../tests/common/lsp.rs"]
#[allow(dead_code)]
mod lsp;

use std::time::{Duration, Instant};

const EDITS: usize = 1000;
const BUDGET: Duration = Duration::from_millis(100);

fn main() {
    // `cargo bench` passes `--bench`; anything else asked of a harness-less bench is ignored.
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("the crate's directory");
    let largest = std::fs::read_dir("games")
        .expect("run from the repository root")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .expect("bundled games");
    let path = std::fs::canonicalize(&largest).unwrap();
    let uri = lsp::uri(&path);
    let mut text = std::fs::read_to_string(&path).unwrap();
    let mut client = match std::env::var("OUTFLANK_BIN") {
        Ok(bin) => lsp::Client::start_binary(&bin, false),
        Err(_) => lsp::Client::start(false),
    };
    client.open(&uri, &text);
    let _ = client.diagnostics(&uri);
    let mut random = lsp::Edits::new(0x2545_f491_4f6c_dd1d);
    let mut times = Vec::with_capacity(EDITS);
    for version in 0..EDITS {
        let (range, insert) = random.apply(&mut text);
        let start = Instant::now();
        client.change(&uri, version as i64 + 2, range, insert);
        let _ = client.diagnostics(&uri);
        times.push(start.elapsed());
        // Drift back towards the real file now and then, so that most edits are of rules
        // that nearly check (the checker's longest path), not of text long since broken.
        if version % 100 == 99 {
            let original = std::fs::read_to_string(&path).unwrap();
            let end = lsp::position(&text, text.len(), false);
            let r = [
                0,
                0,
                end["line"].as_u64().unwrap() as u32,
                end["character"].as_u64().unwrap() as u32,
            ];
            client.change(&uri, version as i64 + 100_000, r, &original);
            let _ = client.diagnostics(&uri);
            text = original;
        }
    }
    assert!(client.shut_down().success());
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "lsp: {} edits of {} ({} bytes): median {:.2} ms, 99th percentile {:.2} ms, slowest {:.2} ms (budget {} ms)",
        EDITS,
        largest.display(),
        std::fs::metadata(&path).unwrap().len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
        BUDGET.as_millis()
    );
    assert!(
        *times.last().unwrap() <= BUDGET,
        "an edit took longer than {BUDGET:?}"
    );
}
