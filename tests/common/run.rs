//! Running the built binary, as a user would.

use std::process::{Command, Output, Stdio};

/// Runs `outflank ARGS` in the crate's directory, without colours.
pub(crate) fn outflank(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_outflank"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Starts `outflank ARGS` in the crate's directory, its standard streams piped, for a test
/// that watches, signals or types into it while it runs.
pub(crate) fn spawn_piped(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_outflank"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `outflank ARGS` with `input` on its standard input.
pub(crate) fn outflank_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_outflank"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that stops reading early closes the pipe: that is its business.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

/// A process's memory figure `field` (`VmRSS`: resident now; `VmHWM`: the most resident so
/// far) in kB, as Linux counts it; None once the process has ended.
fn read_memory_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// [`read_memory_kb`] of a process that is running.
pub(crate) fn memory_kb(pid: u32, field: &str) -> u64 {
    read_memory_kb(pid, field).unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"))
}

/// Waits for `child`, reading its peak resident memory (`VmHWM`, kB) as it runs: the most it
/// held up to the last reading, a few milliseconds before it ended.
pub(crate) fn wait_with_peak_kb(mut child: std::process::Child) -> (Output, u64) {
    let mut peak = 0;
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(read_memory_kb(child.id(), "VmHWM").unwrap_or(0));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    (child.wait_with_output().unwrap(), peak)
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A path for a test's file under target/ (`cargo clean` takes it), in a folder per test file.
pub(crate) fn temp(folder: &str, name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

/// The JSON document a successful command wrote.
pub(crate) fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// `play` of Othello on 4x4 between two people at the terminal: the command line of the tests
/// that type a whole short game.
pub(crate) const TWO_PEOPLE_ON_4X4: [&str; 8] = [
    "play",
    "games/othello.rules",
    "--set",
    "size=4",
    "--black",
    "human",
    "--white",
    "human",
];
