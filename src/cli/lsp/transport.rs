//! The protocol's framing on stdin and stdout. lsp-server carries the messages once framed
//! (its `Connection`, the handshake, shutdown), but its own stdio reader allocates whatever a
//! frame's `Content-Length` says and stops at the first frame it cannot read, which ends the
//! server. This reader bounds a frame before reading it, answers a frame it cannot use with a
//! JSON-RPC error, and reads on.

use super::MAX_DOCUMENT_BYTES;
use crossbeam_channel::{bounded, Receiver, Sender};
use lsp_server::{ErrorCode, Message};
use serde_json::{json, Value};
use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

/// The largest frame read. A document at the limit fits escaped as JSON (at most two bytes for
/// most characters, six for a control character written `\u0000`, rare in rules); a larger
/// frame could only carry a document the server would refuse anyway.
const MAX_FRAME_BYTES: u64 = 4 * MAX_DOCUMENT_BYTES as u64;

/// The longest header line kept; a longer one is read to its end and refused.
const MAX_HEADER_LINE: usize = 1 << 10;

/// Messages read ahead of the one being handled. Edits that come while a check runs wait
/// here, so the server sees them all and checks once after the last (see `Server::run`);
/// each holds at most `MAX_FRAME_BYTES`.
const READ_AHEAD: usize = 16;

/// What one read of the input found.
#[derive(Debug)]
pub(super) enum Frame {
    Message(Message),
    /// A frame that carries no message: what to answer (with `id` null unless the frame had
    /// one).
    Refused {
        id: Option<Value>,
        code: ErrorCode,
        message: String,
    },
    /// The input ended.
    End,
}

/// Reads frames from a byte stream; a header glued to the junk before it (a frame whose length
/// was wrong) is found and read as the next frame's.
pub(super) struct FrameReader<R> {
    input: R,
    carried: Option<Vec<u8>>,
    /// The body of a refused oversize frame, still to be read past. It is skipped before the
    /// next frame, not before the refusal, so that the client hears at once even when the
    /// length it gave is far beyond what it will ever send.
    skip: u64,
}

impl<R: BufRead> FrameReader<R> {
    pub(super) fn new(input: R) -> Self {
        FrameReader {
            input,
            carried: None,
            skip: 0,
        }
    }

    pub(super) fn next_frame(&mut self) -> io::Result<Frame> {
        if self.skip > 0 {
            // Read past it without keeping it, so that the next frame is found where it starts.
            let skipped = io::copy(&mut (&mut self.input).take(self.skip), &mut io::sink())?;
            if skipped < std::mem::take(&mut self.skip) {
                return Ok(Frame::End);
            }
        }
        let mut length: Option<u64> = None;
        let mut problem: Option<String> = None;
        let mut seen_header = false;
        loop {
            let line = match self.carried.take() {
                Some(line) => line,
                None => match read_line(&mut self.input, MAX_HEADER_LINE)? {
                    Some(line) => line,
                    None if seen_header => {
                        return Ok(refused(None, "the input ended inside a frame's header"))
                    }
                    None => return Ok(Frame::End),
                },
            };
            let line = trim_line_end(&line);
            if line.is_empty() {
                if seen_header {
                    break;
                }
                // Blank lines between frames are harmless.
                continue;
            }
            seen_header = true;
            match header(line) {
                Header::Length(n) => length = Some(n),
                Header::Other => {}
                Header::BadLength(value) => {
                    problem.get_or_insert(format!(
                        "`Content-Length: {value}` is not a number of bytes"
                    ));
                }
                Header::Junk(restart) => {
                    let shown = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
                    let what = format!("`{shown}` is not a header line (`Name: value`)");
                    if let Some(at) = restart {
                        // A header begins inside the junk: what came before it is one bad
                        // frame, and the header starts the next.
                        self.carried = Some(line[at..].to_vec());
                        return Ok(refused(None, &what));
                    }
                    problem.get_or_insert(what);
                }
            }
        }
        let Some(length) = length else {
            return Ok(refused(
                None,
                &problem.unwrap_or_else(|| "a frame without `Content-Length`".into()),
            ));
        };
        if length > MAX_FRAME_BYTES {
            self.skip = length;
            return Ok(refused(
                None,
                &format!(
                    "a frame of {length} bytes is larger than the limit of {} MB; \
                     documents past {} MB are not checked",
                    MAX_FRAME_BYTES >> 20,
                    MAX_DOCUMENT_BYTES >> 20
                ),
            ));
        }
        let mut body = Vec::new();
        let read = (&mut self.input).take(length).read_to_end(&mut body)?;
        if (read as u64) < length {
            return Ok(refused(
                None,
                &format!("the input ended {read} bytes into a frame of {length}"),
            ));
        }
        if let Some(problem) = problem {
            return Ok(refused(None, &problem));
        }
        Ok(message_of(&body))
    }
}

fn refused(id: Option<Value>, message: &str) -> Frame {
    Frame::Refused {
        id,
        code: ErrorCode::ParseError,
        message: message.to_string(),
    }
}

/// The message a frame's body holds, or why it holds none.
fn message_of(body: &[u8]) -> Frame {
    let Ok(text) = std::str::from_utf8(body) else {
        return refused(None, "the frame is not UTF-8 text");
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return refused(None, &format!("the frame is not JSON: {e}")),
    };
    // A request's id is answered back even when the rest of it is unusable.
    let id = value
        .get("id")
        .filter(|id| id.is_i64() || id.is_string())
        .cloned();
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Frame::Message(message),
        Err(e) => Frame::Refused {
            id,
            code: ErrorCode::InvalidRequest,
            message: format!("the frame is not a JSON-RPC message: {e}"),
        },
    }
}

enum Header {
    Length(u64),
    BadLength(String),
    Other,
    /// Not a header; `Some(at)` where a `Content-Length` header begins inside it.
    Junk(Option<usize>),
}

const LENGTH_NAME: &[u8] = b"content-length:";

fn header(line: &[u8]) -> Header {
    let restart = line
        .windows(LENGTH_NAME.len())
        .skip(1)
        .position(|w| w.eq_ignore_ascii_case(LENGTH_NAME))
        .map(|at| at + 1);
    let Some(colon) = line.iter().position(|&b| b == b':') else {
        return Header::Junk(restart);
    };
    let (name, value) = (&line[..colon], &line[colon + 1..]);
    let is_token = !name.is_empty()
        && name
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_".contains(b));
    if !is_token {
        return Header::Junk(restart);
    }
    if !name.eq_ignore_ascii_case(b"content-length") {
        return Header::Other;
    }
    let value = String::from_utf8_lossy(value).trim().to_string();
    match value.parse::<u64>() {
        Ok(n) => Header::Length(n),
        Err(_) => Header::BadLength(value.chars().take(40).collect()),
    }
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// One line, at most `limit` bytes of it kept (the rest read and dropped); `None` at the end.
fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let (taken, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        let room = limit.saturating_sub(line.len());
        line.extend_from_slice(&buffer[..taken.min(room)]);
        input.consume(taken);
        if done {
            return Ok(Some(line));
        }
    }
}

/// Writes one frame; the lock keeps frames from the two threads that write whole.
fn write_frame(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    out.flush()
}

/// The server's ends of the connection over stdin and stdout, and the threads that carry it.
pub(super) fn stdio() -> (Sender<Message>, Receiver<Message>, Threads) {
    let (to_server, from_client) = bounded::<Message>(READ_AHEAD);
    let (to_client, from_server) = bounded::<Message>(0);
    let reader = std::thread::spawn(move || {
        let mut frames = FrameReader::new(io::stdin().lock());
        loop {
            match frames.next_frame()? {
                Frame::End => return Ok(()),
                Frame::Message(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if to_server.send(message).is_err() || exit {
                        return Ok(());
                    }
                }
                Frame::Refused { id, code, message } => {
                    eprintln!("lsp: {message}");
                    let answer = json!({
                        "jsonrpc": "2.0",
                        "id": id,
                        "error": { "code": code as i32, "message": message },
                    });
                    write_frame(&answer.to_string())?;
                }
            }
        }
    });
    let writer = std::thread::spawn(move || {
        for message in from_server {
            let mut out = io::stdout().lock();
            message.write(&mut out)?;
        }
        Ok(())
    });
    (to_client, from_client, Threads { reader, writer })
}

pub(super) struct Threads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Waits for the writer to send what is left; the reader is left to the process's end when
    /// the server stopped before the input did (after `exit`, stdin may stay open).
    pub(super) fn join(self) -> Result<(), String> {
        let written = self
            .writer
            .join()
            .map_err(|_| "lsp: the writer failed".to_string())?;
        written.map_err(|e| format!("lsp: {e}"))?;
        if self.reader.is_finished() {
            if let Ok(Err(e)) = self.reader.join() {
                return Err(format!("lsp: {e}"));
            }
        }
        Ok(())
    }
}
