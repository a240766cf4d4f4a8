//! Starts `outflank serve` on a free port of 127.0.0.1 for the HTTP and browser tests.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

/// One request; returns the status and the body.
pub(crate) fn http(to: &Endpoint, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let Endpoint { address, token } = to;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nX-Outflank-Token: {token}"
    );
    exchange(address, &head, body.unwrap_or(""))
}

pub(crate) fn api(to: &Endpoint, method: &str, path: &str, body: Value) -> (u16, Value) {
    let text = body.to_string();
    let (status, reply) = http(to, method, path, (!body.is_null()).then_some(text.as_str()));
    let value = serde_json::from_str(&reply).unwrap_or_else(|_| panic!("not JSON: {reply}"));
    (status, value)
}

pub(crate) fn post(to: &Endpoint, path: &str, body: Value) -> Value {
    let (status, reply) = api(to, "POST", path, body);
    assert_eq!(status, 200, "{path}: {reply}");
    reply
}

pub(crate) fn get(to: &Endpoint, path: &str) -> Value {
    let (status, reply) = api(to, "GET", path, Value::Null);
    assert_eq!(status, 200, "{path}: {reply}");
    reply
}

/// Plays a session to its end with the random player on both seats.
pub(crate) fn play_out(to: &Endpoint, id: &str, seed: u64) -> Value {
    let mut view = get(to, &format!("/api/sessions/{id}"));
    while !view["over"].as_bool().unwrap() {
        view = post(
            to,
            &format!("/api/sessions/{id}/agent"),
            json!({ "agent": "random", "seed": seed }),
        );
        assert!(view["history"].as_array().unwrap().len() < 2000);
    }
    view
}

pub(crate) fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The line of the last `needle` in `text`.
pub(crate) fn line_of(text: &str, needle: &str) -> usize {
    text[..text.rfind(needle).unwrap()].matches('\n').count() + 1
}

/// Waits (bounded) for an analysis to finish, and returns its last progress.
pub(crate) fn finished(to: &Endpoint, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let a = get(to, &format!("/api/analyses/{id}"));
        if a["finished"] == true {
            return a;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the analysis does not end"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A request as a browser on another site would send it (`head` as [`exchange`] takes it); the
/// status and the JSON body.
pub(crate) fn raw(address: &str, head: &str, body: &str) -> (u16, Value) {
    let (status, reply) = exchange(address, head, body);
    let value = serde_json::from_str(&reply).unwrap_or_else(|_| panic!("not JSON: {reply}"));
    (status, value)
}

/// A served rules file in a folder of its own, and the server serving it.
pub(crate) fn serving_a_file(
    test: &str,
) -> (std::path::PathBuf, String, crate::common::serve::Served) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("outflank-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.rules");
    let text = std::fs::read_to_string(format!(
        "{}/games/othello.rules",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    std::fs::write(&file, &text).unwrap();
    let s = serve(&[file.to_str().unwrap()]);
    (file, text, s)
}
