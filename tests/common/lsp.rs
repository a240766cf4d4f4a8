//! An editor's side of the language server protocol, for the tests and the benchmark: starts
//! `outflank lsp` as a child process and speaks JSON-RPC to it over its stdin and stdout, with
//! the protocol's framing written here (not taken from the server's crate), so that the
//! server is judged by what it puts on the wire.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one answer may take before the test fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(60);

pub(crate) struct Client {
    child: Child,
    /// `None` once closed (`close_input`).
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else, oldest first.
    pub(crate) notes: Vec<Value>,
}

/// Reads framed messages until the stream ends.
fn read_messages(out: impl Read, sink: std::sync::mpsc::Sender<Value>) {
    let mut reader = BufReader::new(out);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse::<usize>().ok();
            }
        }
        let Some(length) = length else { return };
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let value: Value = serde_json::from_slice(&body).expect("the server writes JSON");
        if sink.send(value).is_err() {
            return;
        }
    }
}

impl Client {
    /// Starts the server and completes the handshake; `utf8` offers byte columns.
    pub(crate) fn start(utf8: bool) -> Client {
        Self::start_binary(env!("CARGO_BIN_EXE_outflank"), utf8)
    }

    /// The same with a given build of the binary.
    pub(crate) fn start_binary(binary: &str, utf8: bool) -> Client {
        let mut child = Command::new(binary)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("outflank lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sink, incoming) = channel();
        std::thread::spawn(move || read_messages(stdout, sink));
        let mut client = Client {
            child,
            stdin: Some(stdin),
            incoming,
            next_id: 1,
            notes: Vec::new(),
        };
        let encodings = if utf8 {
            json!(["utf-8", "utf-16"])
        } else {
            json!(["utf-16"])
        };
        let init = client.request(
            "initialize",
            json!({ "processId": null, "rootUri": null,
                    "capabilities": { "general": { "positionEncodings": encodings } } }),
        );
        assert!(init["capabilities"]["hoverProvider"].as_bool() == Some(true));
        client.notify("initialized", json!({}));
        client
    }

    pub(crate) fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// Writes bytes as they are, framed or not.
    pub(crate) fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next error response with this `id` (`Value::Null` for a frame the server could not
    /// read an id from).
    pub(crate) fn error_for(&mut self, id: &Value) -> Value {
        loop {
            let message = self.receive();
            if message.get("id") == Some(id) && message.get("error").is_some() {
                return message["error"].clone();
            }
            if message.get("method").is_some() && message.get("id").is_none() {
                self.notes.push(message);
            }
        }
    }

    /// The server's peak resident memory so far, in bytes (Linux).
    pub(crate) fn peak_memory(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status");
        kb * 1024
    }

    /// Closes the server's input, as a client that goes away does, and waits for it to exit.
    pub(crate) fn close_input(mut self) -> std::process::ExitStatus {
        self.stdin = None;
        self.wait_for_exit()
    }

    /// Closes the server's input, waits for it to end, and returns how it ended with what it
    /// wrote on stderr.
    pub(crate) fn close_and_read_log(mut self) -> (std::process::ExitStatus, String) {
        self.stdin = None;
        let status = self.wait_for_exit();
        let mut log = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut log);
        }
        (status, log)
    }

    pub(crate) fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn receive(&mut self) -> Value {
        match self.incoming.recv_timeout(PATIENCE) {
            Ok(v) => v,
            Err(RecvTimeoutError::Timeout) => panic!("the server said nothing for {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => {
                let mut err = String::new();
                if let Some(mut e) = self.child.stderr.take() {
                    let _ = e.read_to_string(&mut err);
                }
                panic!("the server has gone; its log:\n{err}")
            }
        }
    }

    /// Sends a request and returns its whole response (`result` or `error`).
    pub(crate) fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.receive();
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return message;
            }
            if message.get("method").is_some() && message.get("id").is_none() {
                self.notes.push(message);
            }
        }
    }

    /// Sends a request that must succeed, and returns its result.
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.call(method, params);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// The next diagnostics published for `uri` (earlier ones already received count first).
    pub(crate) fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let start = Instant::now();
        loop {
            if let Some(i) = self.notes.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri
            }) {
                let note = self.notes.remove(i);
                return note["params"]["diagnostics"].as_array().unwrap().clone();
            }
            assert!(start.elapsed() < PATIENCE, "no diagnostics for {uri}");
            let message = self.receive();
            if message.get("method").is_some() && message.get("id").is_none() {
                self.notes.push(message);
            }
        }
    }

    /// Whether diagnostics for `uri` came among the notifications received so far.
    pub(crate) fn published_for(&self, uri: &str) -> bool {
        self.notes
            .iter()
            .any(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri)
    }

    pub(crate) fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "outflank-rules", "version": 1, "text": text } }),
        );
    }

    /// Replaces a range (line, column to line, column) by `text`.
    pub(crate) fn change(&mut self, uri: &str, version: i64, range: [u32; 4], text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{ "range": {
                    "start": { "line": range[0], "character": range[1] },
                    "end": { "line": range[2], "character": range[3] } }, "text": text }],
            }),
        );
    }

    /// Asks the server to stop as an editor does, and waits for it to exit.
    pub(crate) fn shut_down(mut self) -> std::process::ExitStatus {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.wait_for_exit()
    }

    fn wait_for_exit(&mut self) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(start.elapsed() < PATIENCE, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `file:` address of a path (the tests' paths need no escapes).
pub(crate) fn uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

/// The protocol position of a byte offset: the line, and the column in UTF-16 code units or
/// in bytes.
pub(crate) fn position(text: &str, offset: usize, utf8: bool) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = if utf8 {
        offset - line_start
    } else {
        before[line_start..].encode_utf16().count()
    };
    json!({ "line": line, "character": column })
}

/// The position of the `n`-th (from 0) occurrence of `needle` in `text`, plus `skip` bytes.
pub(crate) fn position_of(text: &str, needle: &str, n: usize, skip: usize, utf8: bool) -> Value {
    let offset = text
        .match_indices(needle)
        .nth(n)
        .unwrap_or_else(|| panic!("{needle} occurs {n} times"))
        .0;
    position(text, offset + skip, utf8)
}

/// Random edits of a text, as a user's typing and deleting: each replaces a short random range
/// (on character boundaries) by nothing or by a fragment of rules text, multi-byte characters
/// and unbalanced brackets included.
pub(crate) struct Edits(u64);

impl Edits {
    pub(crate) fn new(seed: u64) -> Edits {
        Edits(seed | 1)
    }

    /// A number below `n` (xorshift: the edits are the same on every run).
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    /// Edits `text` and returns the change as the protocol sends it: the replaced range (start
    /// line and UTF-16 column, end line and column, counted before the edit) and the new text.
    pub(crate) fn apply(&mut self, text: &mut String) -> ([u32; 4], &'static str) {
        const FRAGMENTS: [&str; 13] = [
            "{", "}", "(", "\"", "x", " ", "\n", "é", "🙂", "turn", ".", "//", "flip c",
        ];
        let floor = |t: &str, mut i: usize| {
            while !t.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let a = floor(text, self.below(text.len() + 1));
        let b = floor(text, (a + self.below(20)).min(text.len()));
        let insert = if self.below(2) == 0 {
            FRAGMENTS[self.below(FRAGMENTS.len())]
        } else {
            ""
        };
        let (pa, pb) = (position(text, a, false), position(text, b, false));
        let range = [&pa["line"], &pa["character"], &pb["line"], &pb["character"]]
            .map(|v| v.as_u64().unwrap() as u32);
        text.replace_range(a..b, insert);
        (range, insert)
    }

    /// A position somewhere in `text`.
    pub(crate) fn position(&mut self, text: &str) -> Value {
        let mut i = self.below(text.len() + 1);
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        position(text, i, false)
    }
}
