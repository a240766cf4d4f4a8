//! Feeds arbitrary bytes to the parser and checker, and starts any game they accept.
//! CI runs it for a bounded time from the bundled games (`.ci/fuzz`). Long runs by hand on
//! nightly: `cargo install cargo-fuzz`, then `cargo +nightly fuzz run rules ../games` in fuzz/.
#![no_main]

use libfuzzer_sys::fuzz_target;
use outflank::check::check;
use outflank::engine::Engine;
use outflank::source::{NoFiles, SourceFile};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match check(SourceFile::new("fuzz.rules", text), &NoFiles, &[]) {
        Ok(checked) => {
            let engine = Engine::new(checked.game);
            if let Ok(s) = engine.start() {
                let mut buf = Vec::new();
                let _ = engine.steps(&s, &mut buf);
            }
        }
        Err(outflank::check::CheckError::Rules(d)) => {
            let _ = d.render(false, 80);
        }
        Err(_) => {}
    }
});
