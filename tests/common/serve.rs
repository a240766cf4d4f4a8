//! Starts `outflank serve` on a free port of 127.0.0.1 for the HTTP and browser tests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Where requests go: the server's address, and the secret token that its page carries and
/// that every request changing anything must send (docs/API.md, "Security").
#[derive(Clone)]
pub(crate) struct Endpoint {
    pub(crate) address: String,
    pub(crate) token: String,
}

/// The server, stopped when dropped.
pub(crate) struct Served {
    child: Child,
    pub(crate) endpoint: Endpoint,
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
    /// The most resident memory the server has held, in kB (`VmHWM`).
    pub(crate) fn peak_kb(&self) -> u64 {
        super::run::memory_kb(self.child.id(), "VmHWM")
    }

    /// Sends the server SIGINT (Ctrl-C) and waits for it to end, at most `limit`: its exit
    /// status, or None if it was still running then.
    pub(crate) fn interrupt(
        &mut self,
        limit: std::time::Duration,
    ) -> Option<std::process::ExitStatus> {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let started = std::time::Instant::now();
        while started.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        None
    }

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
    let token = token_of(&address);
    Served {
        child,
        endpoint: Endpoint { address, token },
        _output: output,
    }
}

/// The token, read from the page as the page's script reads it.
fn token_of(address: &str) -> String {
    let (status, page) = exchange(address, &format!("GET / HTTP/1.1\r\nHost: {address}"), "");
    assert_eq!(status, 200, "{page}");
    let meta = r#"<meta name="outflank-token" content=""#;
    let at = page
        .find(meta)
        .unwrap_or_else(|| panic!("no token in {page}"))
        + meta.len();
    let token = &page[at..at + page[at..].find('"').unwrap()];
    assert_eq!(token.len(), 32, "{token}");
    token.to_string()
}

/// Sends `head` (the request line and headers, without the blank line) and `body` as they are;
/// returns the status and the body.
pub(crate) fn exchange(address: &str, head: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    write!(
        stream,
        "{head}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status: u16 = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    // Bodies are sent whole (Content-Length) by the server; a chunked one would show here.
    (status, body.to_string())
}
