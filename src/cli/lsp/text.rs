//! Positions in an editor's terms (line and column, the column counted in UTF-16 code units or
//! in bytes, as agreed at start-up) against the byte offsets the checker's spans use; edits
//! applied to a document's text; file addresses (`file:///...`) against the paths the checker
//! names files by.

use lsp_types::{Position, Range};
use outflank::source::Span;

/// How columns are counted: the protocol's default is UTF-16 code units; a client may offer
/// UTF-8 (bytes), which is then preferred as the checker's own measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Columns {
    Utf16,
    Utf8,
}

/// The start of every line of a text, to turn offsets into positions and back.
pub(super) struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
    columns: Columns,
}

impl<'t> Lines<'t> {
    /// Lines end at `\n`, at `\r\n` and at a lone `\r`, as the protocol says.
    pub(super) fn new(text: &'t str, columns: Columns) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        Lines {
            text,
            starts,
            columns,
        }
    }

    /// The position of a byte offset (an offset inside a character counts as its start).
    pub(super) fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let before = &self.text[self.starts[line]..offset];
        let column = match self.columns {
            Columns::Utf8 => before.len(),
            Columns::Utf16 => before.chars().map(char::len_utf16).sum(),
        };
        Position::new(line as u32, column as u32)
    }

    pub(super) fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of a position. A position past the end of its line means the line's end
    /// and one past the last line the text's end, as the protocol asks; a column inside a
    /// character (half a surrogate pair, a byte inside UTF-8) means that character's start.
    pub(super) fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = &self.text[start..end];
        let line = line.trim_end_matches(['\n', '\r']);
        let wanted = position.character as usize;
        let mut counted = 0;
        for (i, c) in line.char_indices() {
            let width = match self.columns {
                Columns::Utf8 => c.len_utf8(),
                Columns::Utf16 => c.len_utf16(),
            };
            if counted + width > wanted {
                return start + i;
            }
            counted += width;
        }
        start + line.len()
    }
}

/// Replaces `range` of `text` by `new` (a whole-text change when there is no range).
pub(super) fn apply_change(text: &mut String, range: Option<Range>, new: &str, columns: Columns) {
    let Some(range) = range else {
        new.clone_into(text);
        return;
    };
    let lines = Lines::new(text, columns);
    let start = lines.offset(range.start);
    let end = lines.offset(range.end).max(start);
    text.replace_range(start..end, new);
}

/// The path a `file:` address names, its escapes decoded; other addresses (an editor's unsaved
/// `untitled:` buffer) are kept whole, as a name with no directory.
pub(super) fn path_of(uri: &str) -> String {
    let Some(rest) = uri.strip_prefix("file://") else {
        return uri.to_string();
    };
    // `file://host/path`: the host (usually empty) is not part of the path.
    let path = match rest.find('/') {
        Some(i) => &rest[i..],
        None => rest,
    };
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let path = String::from_utf8_lossy(&out).into_owned();
    // `file:///c%3A/x` on Windows: the drive letter comes after the slash.
    match path.as_bytes() {
        [b'/', d, b':', ..] if d.is_ascii_alphabetic() => path[1..].to_string(),
        _ => path,
    }
}

/// The `file:` address of a path (escaping what an address cannot hold), or the name itself
/// when it is already an address.
pub(super) fn uri_of(path: &str) -> String {
    if path.contains("://") || path.starts_with("untitled:") {
        return path.to_string();
    }
    let mut out = String::from("file://");
    if !path.starts_with('/') {
        out.push('/');
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A path with `.` and `..` worked out by its text, so that one file reached by two routes
/// (`games/a.rules`, `games/../games/a.rules`) has one name.
pub(super) fn normal_path(path: &str) -> String {
    if path.contains("://") || path.starts_with("untitled:") {
        return path.to_string();
    }
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The characters of a name.
pub(super) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The span of the word at (or just before) `offset`.
pub(super) fn word_at(text: &str, offset: usize) -> Span {
    let offset = offset.min(text.len());
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_name_char(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .char_indices()
        .find(|(_, c)| !is_name_char(*c))
        .map_or(text.len(), |(i, _)| offset + i);
    Span::new(start, end)
}
