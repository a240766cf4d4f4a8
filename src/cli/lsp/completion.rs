//! Completion: what may be written at the cursor, read from the text around it (the file is
//! half-typed while one completes) and from the names in scope there.

use super::symbols::Kind;
use super::text::{is_name_char, normal_path, path_of, word_at, Lines};
use super::{docs, Refusal, Server};
use lsp_types::{CompletionItemKind, CompletionParams};
use outflank::syntax::{ITEM_WORDS, STATEMENT_WORDS};
use serde_json::{json, Value};

/// Where a completion is asked for, read from the text alone (the file is half-typed).
struct Place<'t> {
    /// Inside a string or a comment: nothing to offer.
    quiet: bool,
    /// Braces open around the cursor.
    depth: usize,
    /// The item the cursor is in: the word that opens its first line.
    item: &'t str,
    /// Only spaces between the line's start (or a `{`, `}`, `;`) and the word being typed.
    starts_statement: bool,
    /// The word before the one being typed.
    previous: &'t str,
    /// The words before it are `to move`.
    to_move: bool,
    after_dot: bool,
}

fn place_of(text: &str, offset: usize) -> Place<'_> {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let (mut depth, mut in_string, mut in_comment) = (0usize, false, false);
    let mut item = "";
    let mut chars = before.char_indices().peekable();
    let mut line_start = true;
    while let Some((i, c)) = chars.next() {
        if in_comment {
            if c == '\n' {
                in_comment = false;
                line_start = true;
            }
            continue;
        }
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' | '\n' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '/' if chars.peek().is_some_and(|(_, n)| *n == '/') => in_comment = true,
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            '\n' => {
                line_start = true;
                continue;
            }
            c if line_start && depth == 0 && c.is_ascii_alphabetic() => {
                let end = text[i..]
                    .find(|c: char| !is_name_char(c))
                    .map_or(text.len(), |n| i + n);
                if ITEM_WORDS.contains(&&text[i..end]) {
                    item = &text[i..end];
                }
            }
            _ => {}
        }
        if !c.is_whitespace() {
            line_start = false;
        }
    }
    let typed = word_at(before, offset).start;
    let rest = before[..typed].trim_end_matches([' ', '\t']);
    let starts_statement = rest.is_empty() || rest.ends_with(['\n', '{', '}', ';']);
    let previous_span = word_at(rest, rest.len());
    Place {
        quiet: in_string || in_comment,
        depth,
        item,
        starts_statement,
        previous: &rest[previous_span.start..previous_span.end],
        to_move: rest.ends_with("move")
            && rest[..rest.len() - 4].trim_end().ends_with("to")
            && !rest[..rest.len() - 4].ends_with(is_name_char),
        after_dot: before[..typed].ends_with('.'),
    }
}

impl Server {
    pub(super) fn completion(&self, p: CompletionParams) -> Result<Value, Refusal> {
        let at = p.text_document_position;
        let path = normal_path(&path_of(at.text_document.uri.as_str()));
        let Some(doc) = self.docs.get(&path) else {
            return Ok(Value::Null);
        };
        let offset = Lines::new(&doc.text, self.columns).offset(at.position);
        let place = place_of(&doc.text, offset);
        if place.quiet {
            return Ok(json!([]));
        }
        let index = self.index_of(&path);
        let names = |kinds: &[Kind]| -> Vec<Value> {
            let Some((index, shift)) = &index else {
                return Vec::new();
            };
            index
                .in_scope(shift.to_old(offset))
                .into_iter()
                .filter(|s| kinds.contains(&s.kind))
                .map(|s| {
                    let kind = match s.kind {
                        Kind::Def => CompletionItemKind::FUNCTION,
                        Kind::Variable => CompletionItemKind::VARIABLE,
                        Kind::Parameter => CompletionItemKind::CONSTANT,
                        Kind::Player | Kind::Piece => CompletionItemKind::ENUM_MEMBER,
                        Kind::Attribute | Kind::Counter => CompletionItemKind::FIELD,
                        _ => CompletionItemKind::VALUE,
                    };
                    json!({ "label": s.name, "kind": kind, "detail": s.kind.noun() })
                })
                .collect()
        };
        let words = |list: &[&str], kind: CompletionItemKind, detail: &str| -> Vec<Value> {
            list.iter()
                .map(|w| {
                    let mut item = json!({ "label": w, "kind": kind, "detail": detail });
                    if let Some(text) = docs::describe_cached(w) {
                        item["documentation"] = json!({ "kind": "markdown", "value": text });
                    }
                    item
                })
                .collect()
        };
        let keyword = CompletionItemKind::KEYWORD;
        let directions: Vec<&str> = ["all", "orthogonal", "diagonal"]
            .into_iter()
            .chain(outflank::board::geometry::DirSet::COMPASS)
            .collect();
        let values = [
            Kind::Variable,
            Kind::Parameter,
            Kind::Region,
            Kind::Def,
            Kind::Player,
            Kind::Piece,
            Kind::Line,
            Kind::Token,
        ];
        let expression = || {
            let mut out = names(&values);
            out.extend(words(
                outflank::check::FUNCTIONS,
                CompletionItemKind::FUNCTION,
                "built-in function",
            ));
            let mut sets: Vec<&str> = outflank::check::BUILTIN_SETS.to_vec();
            sets.extend(outflank::check::STATE_NAMES);
            sets.sort_unstable();
            sets.dedup();
            out.extend(words(&sets, CompletionItemKind::CONSTANT, "built-in"));
            out.extend(words(
                &["if", "then", "else", "and", "or", "not", "in"],
                keyword,
                "keyword",
            ));
            out
        };
        let items: Vec<Value> = if place.after_dot {
            names(&[Kind::Attribute, Kind::Counter])
        } else {
            match place.previous {
                "along" => {
                    let mut out = names(&[Kind::Directions]);
                    out.extend(words(
                        &directions,
                        CompletionItemKind::ENUM_MEMBER,
                        "directions",
                    ));
                    out
                }
                "take" => names(&[Kind::Token]),
                "add" => names(&[Kind::Counter]),
                "as" => names(&[Kind::Piece]),
                "first" | "winner" => names(&[Kind::Player, Kind::Variable]),
                // `to move PLAYER` (in setup and examples), not the statement `move a to b`.
                "move" if place.to_move => names(&[Kind::Player]),
                "set" => names(&[Kind::Parameter]),
                "expect" => words(
                    &[
                        "legal", "steps", "board", "to", "over", "not", "winner", "draw",
                        "illegal", "scores",
                    ],
                    keyword,
                    "expectation",
                ),
                _ if place.depth == 0 && place.starts_statement => {
                    words(ITEM_WORDS, keyword, "item")
                }
                _ if place.item == "example" && place.starts_statement => words(
                    &["set", "position", "play", "expect"],
                    keyword,
                    "example step",
                ),
                _ if place.item == "setup" && place.starts_statement => {
                    let mut out = names(&[Kind::Player, Kind::Piece]);
                    out.extend(words(&["rows", "to"], keyword, "setup"));
                    out
                }
                _ if matches!(place.item, "turn" | "agreement") && place.starts_statement => {
                    let mut out = words(STATEMENT_WORDS, keyword, "statement");
                    out.extend(expression());
                    out
                }
                _ if place.item == "line" && place.depth == 0 => {
                    let mut out = words(
                        &["friend", "opponent", "empty", "piece", "along"],
                        keyword,
                        "cell class",
                    );
                    out.extend(names(&[Kind::Piece]));
                    out
                }
                _ => expression(),
            }
        };
        Ok(Value::Array(items))
    }
}
