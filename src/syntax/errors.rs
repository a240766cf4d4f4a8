//! Syntax errors as diagnostics: what pest expected, said in the language's words; words that
//! are not items or statements, with what the language has instead; characters outside ASCII;
//! nesting deeper than the parser allows.

use super::grammar::{Rule, RulesParser};
use crate::diagnostic::Diagnostic;
use crate::source::{SourceFile, Span};
use pest::Parser as _;
use std::sync::Arc;

/// Deeper nesting than any real rules file needs; refusing it keeps the recursive parser and
/// checker far from the stack's limit.
pub(super) const MAX_NESTING: usize = 64;

pub(super) fn check_nesting(source: &Arc<SourceFile>) -> Result<(), Diagnostic> {
    let bytes = source.text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Diagnostic::error(source, Span::new(i, i + 1), "brackets are nested too deeply")
                        .with_label(format!("nesting level {depth}"))
                        .with_help(format!("at most {MAX_NESTING} levels of ( and {{ are allowed; split the rule with def")));
                }
            }
            b')' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

pub(super) fn syntax_error(source: &Arc<SourceFile>, e: pest::error::Error<Rule>) -> Diagnostic {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((s, e)) => (s, e),
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
            let mut names: Vec<String> = Vec::new();
            for r in positives {
                let n = rule_name(*r).to_string();
                if n != "more input" && !names.contains(&n) {
                    names.push(n);
                }
            }
            format!("syntax error: expected {}", join_or(&names))
        }
        _ => "syntax error".to_string(),
    };
    let message = if message.ends_with("expected ") {
        "syntax error".to_string()
    } else {
        message
    };
    if let Some(d) = non_ascii(source, start)
        .or_else(|| first_non_ascii_code(&source.text, start).and_then(|at| non_ascii(source, at)))
    {
        return d;
    }
    // A reserved word where a name was expected deserves its own explanation.
    let word: String = source.text[start.min(source.text.len())..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let expects_name = matches!(&e.variant, pest::error::ErrorVariant::ParsingError { positives, .. } if positives.contains(&Rule::ident));
    if expects_name && RulesParser::parse(Rule::keyword, &word).is_ok_and(|p| p.as_str() == word) {
        return Diagnostic::error(
            source,
            Span::new(start, start + word.len()),
            format!("`{word}` is a reserved word and cannot be used as a name"),
        )
        .with_label("reserved word")
        .with_help(
            "choose another name; the reserved words are listed in grammar/rules.pest (keyword)",
        );
    }
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &e.variant {
        let explained = beyond_the_item(source, positives, start, &word)
            .or_else(|| unknown_word(source, positives, start, &word));
        if let Some(d) = explained {
            return d;
        }
    }
    let at_end = start >= source.text.len();
    Diagnostic::error(source, Span::new(start, end.max(start)), message)
        .with_label(if at_end { "the file ends here" } else { "here" })
        .with_help(
            "docs/LANGUAGE.md lists every item and statement with its syntax; \
             check for a missing brace, keyword or operand just before this point",
        )
}

/// The words that open an item (an editor completes them). The grammar's `item_word`
/// lists the same item words (a line pattern stops before them).
pub const ITEM_WORDS: &[&str] = &[
    "extends",
    "title",
    "source",
    "credit",
    "param",
    "set",
    "board",
    "removed",
    "player",
    "piece",
    "first",
    "region",
    "setup",
    "line",
    "def",
    "token",
    "counter",
    "directions",
    "turn",
    "agreement",
    "end",
    "score",
    "tiebreak",
    "example",
];
/// The words that open a statement.
pub const STATEMENT_WORDS: &[&str] = &[
    "choose", "place", "flip", "remove", "swap", "move", "let", "if", "while", "repeat", "require",
    "stop", "take", "add",
];

/// The board shapes the language has, for every message about a shape it does not.
const BOARD_SHAPES: &str = "boards are rectangles (`board W x H`), rectangles whose edges are \
     joined (`board W x H cylinder` or `board W x H torus`), hexagons (`board hexagon SIDE`), \
     rhombi of hexagons (`board rhombus SIDE`) or triangles of hexagons (`board triangle SIDE`); \
     `removed CELLS` cuts other shapes out of one";

/// Words a designer reaches for that name something the language does not have, each with
/// what it has instead.
const NOT_IN_THE_LANGUAGE: &[(&[&str], &str)] = &[
    (
        &[
            "wrap",
            "wraps",
            "wrapping",
            "torus",
            "cylinder",
            "hex",
            "hexagonal",
            "rhombus",
        ],
        BOARD_SHAPES,
    ),
    (
        &[
            "pieces", "kind", "kinds", "neutral", "joker", "disc", "stone", "blocker",
        ],
        "a kind of piece that belongs to no player is declared with `piece NAME 'S'`: line \
         patterns see it as neither friend nor opponent, or, with `as friend` or `as opponent`, \
         as that for every player; set it up with `NAME on CELLS`, place it with `place c as NAME`",
    ),
    (
        &[
            "counters",
            "var",
            "variable",
            "global",
            "supply",
            "state",
            "increment",
            "decrement",
        ],
        "a number that lasts across turns is a counter: `counter NAME = START` gives each player \
         one, `add NAME AMOUNT` changes the mover's (`to PLAYER` another's), `p.NAME` reads it; \
         turn variables (`let`) last one turn",
    ),
    (
        &[
            "lowest", "highest", "wins", "win", "loses", "lose", "misere",
        ],
        "the higher `score` wins; to make the lower win, score its negation, e.g. \
         `score p = -count(p)`",
    ),
    (
        &["direction", "dirs", "neighbourhood"],
        "directions are the sets `all`, `orthogonal` and `diagonal`, the single compass \
         directions `north` (towards row 1) to `northwest`, and the sets a file names with \
         `directions NAME = north, east`; they are given to a line pattern with `along` and to \
         `neighbours(c, DIRS)`",
    ),
    (
        &["for", "foreach", "loop", "do"],
        "loops are `while COND { ... }` and `repeat N { ... }`; `for each p` belongs to `end`",
    ),
    (
        &["capture", "captures", "outflank", "flank", "convert"],
        "captures are line patterns (`line NAME = opponent+ friend`) whose cells a turn flips: \
         `flip captured(NAME, c)`",
    ),
    (
        &["players", "order", "seat", "seats"],
        "a game has two to eight players, each declared with `player NAME 'S'` in turn order, \
         and `first NAME` says who starts",
    ),
];

/// Something written as the language cannot say it, which the parser sees as a word after a
/// complete item or a missing token: a `board` with a third dimension or a shape it has no
/// name for, a `directions` item of several steps at once, a `where` inside a call (a
/// quantifier written as one). Says what the language has instead.
fn beyond_the_item(
    source: &Arc<SourceFile>,
    positives: &[Rule],
    start: usize,
    word: &str,
) -> Option<Diagnostic> {
    let text = &source.text;
    let line_start = text[..start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let before = text[line_start..start].trim_start();
    let span = Span::new(start, start + word.len().max(1));
    let error = |message: String, label: &str, help: String| {
        Some(
            Diagnostic::error(source, span, message)
                .with_label(label)
                .with_help(help),
        )
    };
    if let Some(size) = before.strip_prefix("board ") {
        // `Rule::board` among the rules that could come next: the board item is complete.
        if matches!(word, "x" | "by") && positives.contains(&Rule::board) {
            return error(
                "a board has two dimensions".into(),
                "a third dimension",
                format!("solid boards are not in the language yet; {BOARD_SHAPES}"),
            );
        }
        let shape = size.trim();
        let named = !shape.is_empty()
            && shape.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && shape.starts_with(|c: char| c.is_ascii_alphabetic());
        let alphabetic = word.starts_with(|c: char| c.is_ascii_alphabetic());
        if named && positives.contains(&Rule::board_sep) && !alphabetic {
            // The shape's name starts after `board` and its spaces (a search for the name in
            // the line could find it inside `board` itself: `board b 7`).
            let at = start - before.len() + "board ".len() + (size.len() - size.trim_start().len());
            return Some(
                Diagnostic::error(
                    source,
                    Span::new(at, at + shape.len()),
                    format!("`{shape}` is not a shape of board"),
                )
                .with_label("not a board shape")
                .with_help(format!(
                    "{BOARD_SHAPES} (a rectangle needs `x` between its width and height)"
                )),
            );
        }
    }
    if word == "where" && positives.contains(&Rule::op_or) {
        return error(
            "`where` cannot follow this expression".into(),
            "an operator or `)` was expected",
            "a condition on each cell of a set is a quantifier, written without brackets around \
             it: `some x in S where COND` (or `all`, `none`, `count`, and `cells` for the set); \
             the condition runs to the end of the expression, so bracket the whole quantifier to \
             go on after it: `(some x in S where COND) and ...`"
                .into(),
        );
    }
    if before.starts_with("directions ") && !word.is_empty() && positives.contains(&Rule::board) {
        return error(
            format!("`{word}` cannot follow the direction before it"),
            "a comma was expected",
            "a direction set lists its directions and sets with commas, `directions NAME = north, \
             east`, and means each of them as a ray; a leap of several cells at once is a vector \
             of columns and rows, `directions knight = (1, 2), (2, 1), (-1, 2)`, which \
             `adjacent` and `neighbours` take one step of"
                .into(),
        );
    }
    None
}

/// A word where an item or a statement must start that is not one: said plainly, with the
/// construct the language has instead or the word it is a likely typo of.
fn unknown_word(
    source: &Arc<SourceFile>,
    positives: &[Rule],
    start: usize,
    word: &str,
) -> Option<Diagnostic> {
    let starts_item = positives.iter().any(|r| {
        matches!(
            r,
            Rule::item | Rule::title | Rule::param | Rule::board | Rule::player | Rule::turn
        )
    });
    let starts_statement = positives.iter().any(|r| {
        matches!(
            r,
            Rule::statement | Rule::choose_one | Rule::choose_many | Rule::place | Rule::flip
        )
    });
    let (what, known) = match (starts_item, starts_statement) {
        (true, _) => ("an item", ITEM_WORDS),
        (_, true) => ("a statement", STATEMENT_WORDS),
        _ => return None,
    };
    if word.is_empty() || !word.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    if known.contains(&word) {
        return None;
    }
    let label = if starts_item {
        "not an item"
    } else {
        "not a statement"
    };
    if starts_statement && ITEM_WORDS.contains(&word) {
        // An item inside a turn's block: almost always a block left open above it.
        return Some(
            Diagnostic::error(
                source,
                Span::new(start, start + word.len()),
                format!("`{word}` starts an item, but a block is still open here"),
            )
            .with_label("a statement or `}` was expected")
            .with_help("close the blocks above with `}` before this item"),
        );
    }
    if starts_item && STATEMENT_WORDS.contains(&word) {
        return Some(
            Diagnostic::error(
                source,
                Span::new(start, start + word.len()),
                format!("`{word}` is a statement, and statements belong in a block"),
            )
            .with_label(label)
            .with_help("write it inside `turn { ... }` (or `agreement { ... }`); a `}` above may close the turn early"),
        );
    }
    if matches!(word, "cylinder" | "torus") {
        // Part of the language, out of its place: after a hexagon's side, or on a line alone.
        return Some(
            Diagnostic::error(
                source,
                Span::new(start, start + word.len()),
                format!("`{word}` belongs at the end of a rectangle's `board` item"),
            )
            .with_label(label)
            .with_help(format!(
                "write `board W x H {word}`; hexagonal boards (`hexagon`, `rhombus`) do not wrap"
            )),
        );
    }
    let lower = word.to_ascii_lowercase();
    let missing = NOT_IN_THE_LANGUAGE
        .iter()
        .find(|(words, _)| words.contains(&lower.as_str()))
        .map(|(_, instead)| *instead);
    let known: Vec<String> = known.iter().map(std::string::ToString::to_string).collect();
    let typo = crate::diagnostic::closest(&lower, &known);
    let suggestion = typo
        .clone()
        .filter(|_| missing.is_none() || typo.as_deref() == Some(&lower));
    let (message, help) = match (typo, missing) {
        (Some(t), _) if t == lower => (
            format!("`{word}` is not {what}; keywords are lower case: `{t}`"),
            format!("write `{t}`"),
        ),
        (Some(t), None) => (
            format!("`{word}` is not {what}; did you mean `{t}`?"),
            format!("{what} starts with one of: {}", known.join(", ")),
        ),
        (_, Some(instead)) => (
            format!("`{word}` is not part of the rules language"),
            instead.to_string(),
        ),
        (None, None) => (
            format!("`{word}` is not {what} of the rules language"),
            format!(
                "{what} starts with one of: {}; docs/LANGUAGE.md describes each",
                known.join(", ")
            ),
        ),
    };
    let diagnostic = Diagnostic::error(source, Span::new(start, start + word.len()), message)
        .with_label(label)
        .with_help(help);
    Some(match suggestion {
        Some(s) => diagnostic.with_suggestion(s),
        None => diagnostic,
    })
}

fn join_or(names: &[String]) -> String {
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::board_sep => "`x` between the board's width and height",
        Rule::block_end => "`}` to close the block",
        Rule::item | Rule::title | Rule::param | Rule::board | Rule::player | Rule::turn => {
            "an item (title, param, board, player, region, line, setup, turn, end, score, ...)"
        }
        Rule::expr | Rule::primary => "an expression",
        Rule::ident => "a name",
        Rule::piece_role => "`friend` or `opponent` (how line patterns see the piece)",
        Rule::string | Rule::string_inner => "a string in double quotes",
        Rule::literal | Rule::signed_int | Rule::int => "a whole number",
        Rule::number => "a number",
        Rule::boolean => "true or false",
        Rule::block => "a block in braces { ... }",
        Rule::statement
        | Rule::choose_one
        | Rule::choose_many
        | Rule::place
        | Rule::flip
        | Rule::move_piece
        | Rule::let_stmt
        | Rule::if_stmt
        | Rule::while_stmt
        | Rule::repeat
        | Rule::require
        | Rule::stop
        | Rule::take => "a statement (choose, place, flip, move, let, if, while, ...)",
        Rule::element | Rule::cell_class | Rule::kind_class => {
            "a cell class (friend, opponent, empty, piece, or a kind of piece's name)"
        }
        Rule::quantifier => "a repetition (+, ?, {n})",
        Rule::infix
        | Rule::op_or
        | Rule::op_and
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_lt
        | Rule::op_le
        | Rule::op_gt
        | Rule::op_ge
        | Rule::op_in
        | Rule::op_union
        | Rule::op_inter
        | Rule::op_add
        | Rule::op_sub
        | Rule::op_mul
        | Rule::op_div => "an operator",
        Rule::symbol | Rule::symbol_char => "a one-character symbol in single quotes",
        Rule::allowed | Rule::allowed_part => "allowed values (such as 4 to 26)",
        Rule::setup_place | Rule::setup_rows | Rule::setup_to_move => {
            "a setup entry (PLAYER on CELLS, rows \"...\", to move PLAYER)"
        }
        Rule::option | Rule::cell_option | Rule::word_option | Rule::pass_option => {
            "a choice option (x in SET { ... }, \"word\" { ... }, pass)"
        }
        Rule::timing | Rule::timing_step | Rule::timing_turn => "after step or after turn",
        _ => "more input",
    }
}

/// Where on the line from `at` a character outside ASCII stands in code (not in a string or a
/// comment): an item with such a name fails where it starts (`param größe = 3` at `param`),
/// and the character, not the item, is what to point at.
fn first_non_ascii_code(text: &str, at: usize) -> Option<usize> {
    let line = text.get(at..)?.lines().next()?;
    let mut in_string = false;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => in_string = !in_string,
            '/' if !in_string && chars.peek().is_some_and(|&(_, n)| n == '/') => return None,
            c if !c.is_ascii() && !in_string => return Some(at + i),
            _ => {}
        }
    }
    None
}

/// A syntax error at a character outside ASCII: a letter in a name, or a typographic mark
/// (curly quotes, a non-breaking space) pasted from elsewhere.
fn non_ascii(source: &Arc<SourceFile>, at: usize) -> Option<Diagnostic> {
    let text = &source.text;
    let c = text.get(at..)?.chars().next().filter(|c| !c.is_ascii())?;
    if c.is_alphanumeric() {
        // The whole word it sits in.
        let word = |ch: char| ch.is_alphanumeric() || ch == '_';
        let start = text[..at]
            .char_indices()
            .rev()
            .take_while(|&(_, ch)| word(ch))
            .last()
            .map_or(at, |(i, _)| i);
        let end = text[at..]
            .char_indices()
            .find(|&(_, ch)| !word(ch))
            .map_or(text.len(), |(i, _)| at + i);
        return Some(
            Diagnostic::error(
                source,
                Span::new(start, end),
                format!("`{}` is not a name the rules can use", &text[start..end]),
            )
            .with_label(format!("`{c}` is not an ASCII letter"))
            .with_help("names are written with ASCII letters, digits and _; other letters may go in strings and comments"),
        );
    }
    Some(
        Diagnostic::error(
            source,
            Span::new(at, at + c.len_utf8()),
            format!("`{c}` (U+{:04X}) is not part of the rules language", c as u32),
        )
        .with_label(format!("`{c}` here"))
        .with_help("outside strings and comments the rules are written in ASCII; a typographic quote or space pasted from elsewhere often causes this"),
    )
}
