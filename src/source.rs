//! Source files and how they are found. The library never touches the file system itself: the
//! command line hands it a [`Loader`], tests may hand it an in-memory one.

use std::sync::Arc;

/// A byte range in one source file: what the syntax tree, diagnostics and the rules' runtime
/// locations point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// The text of one rules file and the name it is shown under in diagnostics.
#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

impl SourceFile {
    /// A file's text as the rules see it: a UTF-8 byte-order mark (an encoding mark, not text)
    /// dropped, and old Mac line endings (a carriage return alone) read as line breaks, so that
    /// lines are numbered as an editor shows them.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Arc<Self> {
        let mut text: String = text.into();
        if let Some(rest) = text.strip_prefix('\u{feff}') {
            text = rest.to_string();
        }
        if text.contains('\r') {
            text = lone_returns_as_newlines(&text);
        }
        Arc::new(SourceFile {
            name: name.into(),
            text,
        })
    }
}

fn lone_returns_as_newlines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// Finds the text of a file named by an `extends` item.
pub trait Loader {
    /// `base` is the name of the file that says `extends "path"`.
    fn load(&self, base: &str, path: &str) -> Result<Arc<SourceFile>, String>;
}

/// A loader that knows no files: every `extends` fails.
pub struct NoFiles;

impl Loader for NoFiles {
    fn load(&self, _base: &str, path: &str) -> Result<Arc<SourceFile>, String> {
        Err(format!("cannot read {path}: no files are available here"))
    }
}

/// A loader over a fixed list of (name, text) pairs, for tests and embedding.
pub struct MemoryFiles(pub Vec<(String, String)>);

impl Loader for MemoryFiles {
    fn load(&self, _base: &str, path: &str) -> Result<Arc<SourceFile>, String> {
        self.0
            .iter()
            .find(|(name, _)| name == path)
            .map(|(name, text)| SourceFile::new(name.clone(), text.clone()))
            .ok_or_else(|| format!("no file named {path}"))
    }
}

// ---- the file system ----------------------------------------------------------------------
// The one place the library reads files, behind the `fs` feature: for the command line, the
// tests and the benches. The pipeline itself (syntax, check, ir, engine, agents) is handed
// sources and a `Loader`; without the feature the library touches no file.

/// Finds base files relative to the file that extends them.
#[cfg(feature = "fs")]
pub struct FsLoader;

#[cfg(feature = "fs")]
impl Loader for FsLoader {
    fn load(&self, base: &str, path: &str) -> Result<Arc<SourceFile>, String> {
        let dir = std::path::Path::new(base)
            .parent()
            .unwrap_or(std::path::Path::new(""));
        let full = dir.join(path);
        let name = full.to_string_lossy().into_owned();
        read_source(&name)
    }
}

/// Reads a rules file, refusing one too large to be rules or not UTF-8, with a one-line reason.
#[cfg(feature = "fs")]
pub fn read_source(name: &str) -> Result<Arc<SourceFile>, String> {
    let text = read_text(
        name,
        MAX_SOURCE_BYTES,
        "a rules file is text of a few kilobytes",
    )?;
    Ok(SourceFile::new(name, text))
}

/// Reads the text file `name` (rules, records, shards, transcripts), refusing one of more than
/// `limit` bytes (`why` says what such a file holds) or not UTF-8, with a one-line reason. An
/// endless source (a device, a pipe) stops at the limit.
#[cfg(feature = "fs")]
pub fn read_text(name: &str, limit: u64, why: &str) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(name).map_err(|e| format!("cannot read {name}: {e}"))?;
    // One byte past the limit tells a file at the limit from a larger one.
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("{name} is larger than {} MB; {why}", limit >> 20));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read {name}: not UTF-8 text (byte {} is not valid)",
            e.utf8_error().valid_up_to() + 1
        )
    })
}

/// The largest record, shard or transcript file read, whole: hundreds of thousands of
/// recorded games of Othello. A larger series splits into files of whole lines.
#[cfg(feature = "fs")]
pub const MAX_RECORD_BYTES: u64 = 256 << 20;

/// The largest rules file read (far beyond any real one: Othello's is 2 KB).
#[cfg(feature = "fs")]
const MAX_SOURCE_BYTES: u64 = 4 << 20;
