//! What the language's own words mean, read from docs/LANGUAGE.md (built into the binary), so
//! that the editor's hover says what the reference says and cannot drift from it: a word's row
//! of a table there, or the comment of an example line that opens with it, and an example line
//! from its code blocks.

use std::collections::BTreeMap;

const LANGUAGE: &str = include_str!("../../../docs/LANGUAGE.md");

/// [`describe`], worked out once per word: completion lists the same words at every keystroke.
pub(super) fn describe_cached(word: &str) -> Option<String> {
    static SEEN: std::sync::Mutex<BTreeMap<String, Option<String>>> =
        std::sync::Mutex::new(BTreeMap::new());
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    seen.entry(word.to_string())
        .or_insert_with(|| describe(word))
        .clone()
}

/// Markdown for a built-in or keyword: a description and an example, or None for a word the
/// reference does not describe.
pub(super) fn describe(word: &str) -> Option<String> {
    let (description, example) = (table_row(word), example_line(word));
    let description = description.or_else(|| paragraph(word)).or_else(|| {
        // An item word with no table row: the comment of the example line that opens with it,
        // and the section it is in.
        let (section, line) = example.as_ref()?;
        let comment = line.split_once("//").map(|(_, c)| c.trim().to_string());
        Some(match comment {
            Some(c) if !c.is_empty() => format!("`{word}`: {c} (see \"{section}\")"),
            _ => format!("`{word}`: see \"{section}\" in docs/LANGUAGE.md"),
        })
    })?;
    let mut out = description;
    if let Some((_, line)) = example {
        out.push_str(&format!("\n\n```rules\n{}\n```", line.trim()));
    }
    Some(out)
}

/// The cells of a Markdown table row (`\|` is a bar inside a cell).
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().expect("one cell at least").push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            _ => out.last_mut().expect("one cell at least").push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// The words a table row's first cell is about: the leading word of each piece of code in it.
fn row_words(first: &str) -> Vec<&str> {
    first
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|code| {
            let end = code
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(code.len());
            (end > 0).then(|| &code[..end])
        })
        .collect()
}

/// The row of a reference table (statements, built-ins, operators) about `word`. The table of
/// what a variant replaces lists items for another purpose and is left out.
fn table_row(word: &str) -> Option<String> {
    let mut header = String::new();
    let mut rows = Vec::new();
    for line in LANGUAGE.lines() {
        if !line.trim_start().starts_with('|') {
            header.clear();
            continue;
        }
        let row = cells(line);
        if header.is_empty() {
            header.clone_from(&row[0]);
        } else if !line.contains("---") && header != "item" {
            rows.push(row);
        }
    }
    rows.into_iter()
        .find(|row| row.len() >= 2 && row_words(&row[0]).contains(&word))
        .map(|row| format!("{} — {}", row[0], row[1..].join(" ")))
}

/// The section of the reference that describes each item.
const ITEM_SECTIONS: &[(&str, &[&str])] = &[
    ("Files and variants", &["extends"]),
    ("A first example", &["title", "credit", "source"]),
    ("Parameters", &["param", "set"]),
    (
        "Board and regions",
        &["board", "removed", "region", "directions"],
    ),
    ("Players", &["player", "first"]),
    ("Kinds of piece", &["piece"]),
    ("Setup", &["setup"]),
    ("Line patterns", &["line"]),
    ("Turns, steps and choices", &["turn", "token", "counter"]),
    ("Expressions", &["def"]),
    ("Ending and scoring", &["end", "score", "tiebreak"]),
    ("Examples: rules that test themselves", &["example"]),
    ("Agreement on dead groups", &["agreement"]),
];

/// The reference's prose as (section, paragraph) pairs, each paragraph's lines joined.
fn paragraphs() -> Vec<(String, String)> {
    let (mut out, mut section, mut current) = (Vec::new(), String::new(), String::new());
    let mut in_code = false;
    for line in LANGUAGE.lines().chain(std::iter::once("")) {
        let t = line.trim();
        if t.starts_with("```") {
            in_code = !in_code;
        }
        let prose = !in_code && !t.starts_with("```") && !t.starts_with('|');
        if prose && !t.is_empty() && !t.starts_with('#') {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(t);
            continue;
        }
        if !current.is_empty() {
            out.push((section.clone(), std::mem::take(&mut current)));
        }
        if let Some(h) = t.strip_prefix("## ") {
            h.clone_into(&mut section);
        }
    }
    out
}

/// Whether `text` shows code that starts with `word` (a backtick, the word, then not a
/// letter); `whole` asks for code that goes on after it (`def NAME = EXPR`, not `def`).
fn shows(text: &str, word: &str, whole: bool) -> bool {
    text.match_indices('`').any(|(i, _)| {
        text[i + 1..].strip_prefix(word).is_some_and(|rest| {
            if whole {
                rest.starts_with(' ')
            } else {
                !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            }
        })
    })
}

/// A sentence of the reference's prose about `word`: for an item, from the section on it (the
/// one that shows it, else the section's first); otherwise the first anywhere that shows it.
fn paragraph(word: &str) -> Option<String> {
    let paragraphs = paragraphs();
    let sentences = |p: &str| -> Vec<String> {
        p.split_inclusive(". ")
            .map(|s| s.trim().to_string())
            .collect()
    };
    let section = ITEM_SECTIONS
        .iter()
        .find(|(_, words)| words.contains(&word))
        .map(|(s, _)| *s);
    if let Some(section) = section {
        let here: Vec<String> = paragraphs
            .iter()
            .filter(|(s, _)| s.starts_with(section))
            .flat_map(|(_, p)| sentences(p))
            .collect();
        let found = (here.iter().find(|s| shows(s, word, true)))
            .or_else(|| here.iter().find(|s| shows(s, word, false)))
            .or(here.first())?;
        return Some(format!("{found} (see \"{section}\" in docs/LANGUAGE.md)"));
    }
    paragraphs
        .iter()
        .flat_map(|(_, p)| sentences(p))
        .find(|s| shows(s, word, false))
}

/// A line of the reference's `rules` code blocks that shows `word`, and the section it is in: one
/// that opens with it if any (an item or a statement), else one that calls it, else any.
fn example_line(word: &str) -> Option<(String, String)> {
    let mut section = String::new();
    let mut in_rules = false;
    let mut lines = Vec::new();
    for line in LANGUAGE.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            section = heading.trim().to_string();
        } else if line.trim_start().starts_with("```") {
            in_rules = !in_rules && line.trim_start() == "```rules";
        } else if in_rules {
            lines.push((section.clone(), line.to_string()));
        }
    }
    let has_word = |l: &str| {
        l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == word)
    };
    let opens = |l: &str| {
        let t = l.trim_start();
        t.starts_with(word)
            && !t[word.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    };
    let calls = |l: &str| l.contains(&format!("{word}(")) && has_word(l);
    let code = |l: &String| l.split("//").next().unwrap_or_default().to_string();
    lines
        .iter()
        .find(|(_, l)| opens(l))
        .or_else(|| lines.iter().find(|(_, l)| calls(&code(l))))
        .or_else(|| lines.iter().find(|(_, l)| has_word(&code(l))))
        .cloned()
}
