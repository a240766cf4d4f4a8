//! Starts `outflank serve` on a free port of 127.0.0.1 for the HTTP and browser tests.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The server, stopped when dropped.
pub(crate) struct Served {
    child: Child,
    pub(crate) address: String,
    /// The server's output, kept open while it runs.
    _output: BufReader<std::process::ChildStdout>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// The server's resident memory in kB, as Linux counts it.
    pub(crate) fn resident_kb(&self) -> u64 {
        super::run::memory_kb(self.child.id(), "VmRSS")
    }
}

pub(crate) fn serve(args: &[&str]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_outflank"))
        .arg("serve")
        .args(["--port", "0"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    output.read_line(&mut line).unwrap();
    // "outflank serve: http://127.0.0.1:PORT/ (...)"
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    Served {
        child,
        address,
        _output: output,
    }
}
