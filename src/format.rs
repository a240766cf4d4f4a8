//! Canonical layout of rules files. Only whitespace changes, and only where the grammar ignores
//! it, so a formatted file always parses to the same rules; comments stay as written.
//!
//! The layout: two spaces of indentation per open brace, two more for a line that continues an
//! expression, single spaces between tokens (strings and comments untouched), no trailing
//! spaces, at most one blank line in a row, and one newline at the end.

/// What a line contributes: its code with spaces collapsed, its comment, and brace counts.
struct Line {
    code: String,
    comment: Option<String>,
    /// Closing braces before any other code: the line itself is dedented by these.
    leading_closers: usize,
    opens: usize,
    closes: usize,
}

fn scan(raw: &str) -> Line {
    let mut code = String::new();
    let mut comment = None;
    let (mut opens, mut closes, mut leading_closers) = (0, 0, 0);
    let mut seen_code = false;
    let mut chars = raw.trim().chars().peekable();
    let mut pending_space = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                if pending_space && !code.is_empty() {
                    code.push(' ');
                }
                pending_space = false;
                seen_code = true;
                code.push('"');
                while let Some(d) = chars.next() {
                    code.push(d);
                    if d == '\\' {
                        if let Some(e) = chars.next() {
                            code.push(e);
                        }
                    } else if d == '"' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                comment = Some(
                    format!("/{}", chars.collect::<String>())
                        .trim_end()
                        .to_string(),
                );
                break;
            }
            ' ' | '\t' => pending_space = true,
            _ => {
                if pending_space && !code.is_empty() {
                    code.push(' ');
                }
                pending_space = false;
                match c {
                    '{' => opens += 1,
                    '}' => {
                        closes += 1;
                        if !seen_code {
                            leading_closers += 1;
                        }
                    }
                    _ => {}
                }
                if c != '}' {
                    seen_code = true;
                }
                code.push(c);
            }
        }
    }
    Line {
        code,
        comment,
        leading_closers,
        opens,
        closes,
    }
}

fn starts_continuation(code: &str) -> bool {
    let first = code.split_whitespace().next().unwrap_or("");
    matches!(first, "and" | "or")
        || code.starts_with(['+', '*', '/', '&', '|', '<', '>', '=', '!'])
        // A leading minus continues an expression unless it is a negative number on its own.
        || (code.starts_with('-') && !code[1..].starts_with(|c: char| c.is_ascii_digit()))
}

fn ends_open(code: &str) -> bool {
    let last = code.split_whitespace().last().unwrap_or("");
    matches!(
        last,
        "and"
            | "or"
            | "="
            | "+"
            | "-"
            | "*"
            | "/"
            | "&"
            | "|"
            | "=="
            | "!="
            | "<="
            | ">="
            | "<"
            | ">"
    ) || code.ends_with(['(', ','])
}

/// The file in canonical layout.
pub fn format(text: &str) -> String {
    // Each output line: indented code and its trailing comment (None for a blank line).
    let mut lines: Vec<Option<(String, Option<String>)>> = Vec::new();
    let mut depth: usize = 0;
    let mut blank = false;
    let mut continues = false;
    let mut parens: i64 = 0;
    for raw in text.lines() {
        let line = scan(raw);
        if line.code.is_empty() && line.comment.is_none() {
            blank = !lines.is_empty();
            continue;
        }
        // No blank line just inside braces.
        let after_open = matches!(lines.last(), Some(Some((code, _))) if code.ends_with('{'));
        if blank && line.leading_closers == 0 && !after_open {
            lines.push(None);
        }
        blank = false;
        let continuation =
            !line.code.is_empty() && (continues || parens > 0 || starts_continuation(&line.code));
        let level = depth.saturating_sub(line.leading_closers) + usize::from(continuation);
        let indent = "  ".repeat(level);
        match (line.code.is_empty(), &line.comment) {
            (true, Some(c)) => lines.push(Some((format!("{indent}{c}"), None))),
            _ => lines.push(Some((
                format!("{indent}{}", line.code),
                line.comment.clone(),
            ))),
        }
        depth = (depth + line.opens).saturating_sub(line.closes);
        if !line.code.is_empty() {
            parens += line.code.matches('(').count() as i64 - line.code.matches(')').count() as i64;
            parens = parens.max(0);
            continues = ends_open(&line.code);
        }
    }
    // Trailing comments of consecutive lines line up, one space after the longest code.
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let run_end = (i..lines.len())
            .find(|&j| !matches!(&lines[j], Some((_, Some(_)))))
            .unwrap_or(lines.len());
        if run_end > i {
            let width = lines[i..run_end]
                .iter()
                .flatten()
                .map(|(code, _)| code.chars().count())
                .max()
                .unwrap_or(0);
            for (code, comment) in lines[i..run_end].iter().flatten() {
                let pad = width - code.chars().count();
                out.push_str(&format!(
                    "{code}{} {}\n",
                    " ".repeat(pad),
                    comment.as_deref().unwrap_or("")
                ));
            }
            i = run_end;
            continue;
        }
        match &lines[i] {
            Some((code, _)) => {
                out.push_str(code);
                out.push('\n');
            }
            None => out.push('\n'),
        }
        i += 1;
    }
    out
}
