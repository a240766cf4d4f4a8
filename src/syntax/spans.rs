//! Spans of parsed constructs without the spaces and comments pest lets a pair end with, so
//! that a diagnostic's label covers the construct itself.

use super::grammar::Rule;
use crate::source::Span;
use pest::iterators::Pair;

pub(super) fn span(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    let input = s.get_input();
    let end = CODE_ENDS.with(|table| {
        let table = table.borrow();
        // The table is for the file being parsed; anything else is measured by scanning.
        if table.0 == (input.as_ptr() as usize, input.len()) {
            (table.1[s.end()] as usize).max(s.start())
        } else {
            s.start() + significant_len(s.as_str())
        }
    });
    Span::new(s.start(), end)
}

thread_local! {
    /// For the file being parsed (its address and length): at each byte offset, the end of
    /// the last byte of code before it. Nested pairs share their ends, so measuring each by
    /// scanning its text took time quadratic in the nesting (minutes for a 4 MB file).
    static CODE_ENDS: std::cell::RefCell<((usize, usize), Vec<u32>)> =
        const { std::cell::RefCell::new(((0, 0), Vec::new())) };
}

/// Fills [`CODE_ENDS`] for `text`: code is anything but spaces and comments (strings whole).
pub(super) fn measure_code(text: &str) {
    let bytes = text.as_bytes();
    let mut ends = Vec::with_capacity(bytes.len() + 1);
    ends.push(0u32);
    let (mut i, mut last) = (0, 0u32);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let from = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                // Inside a string, every byte is code up to itself.
                for k in from..i {
                    ends.push(k as u32 + 1);
                }
                last = i as u32;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    ends.push(last);
                    i += 1;
                }
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => last = i as u32 + 1,
        }
        ends.push(last);
        i += 1;
    }
    ends.truncate(bytes.len() + 1);
    CODE_ENDS.with(|t| *t.borrow_mut() = ((text.as_ptr() as usize, text.len()), ends));
}

fn significant_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut i, mut end) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                end = i.min(bytes.len());
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            _ => {
                i += 1;
                end = i;
            }
        }
    }
    end
}
