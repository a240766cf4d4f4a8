//! `outflank fmt`: idempotent, and the formatted text parses to the same rules.

use crate::common;

use outflank::format::format;
use outflank::source::SourceFile;
use outflank::syntax::parse;
use proptest::prelude::*;

/// The syntax tree as text, with every span removed (spans move when whitespace changes).
fn tree(text: &str) -> Option<String> {
    let file = parse(&SourceFile::new("t.rules", text)).ok()?;
    let debug = format!("{file:?}");
    let mut out = String::new();
    let mut rest = debug.as_str();
    while let Some(i) = rest.find("Span { start: ") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let end = after.find('}').map(|j| j + 1).unwrap_or(after.len());
        rest = &after[end..];
    }
    out.push_str(rest);
    Some(out)
}

fn all_rules_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["games", "tests/fixtures/valid", "tests/fixtures/warnings"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for e in std::fs::read_dir(path).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "rules") {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn shipped_files_are_formatted() {
    for (name, text) in all_rules_files() {
        assert_eq!(
            format(&text),
            text,
            "{name} is not in canonical layout (run outflank fmt)"
        );
    }
}

#[test]
fn comments_are_kept() {
    let text = "// a\nboard 4 x 4 // b\n\n\n\n  player   black 'B'   \nplayer white 'W'\n  turn { choose c in empty { place c } } // c\nscore p = count(p)\n";
    let text = text.replace("\\\n", "\n");
    let out = format(&text);
    for c in ["// a", "// b", "// c"] {
        assert!(out.contains(c), "{out}");
    }
    assert!(!out.contains("\n\n\n"), "at most one blank line: {out}");
    assert!(out.contains("player black 'B'\n"), "{out}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn formatting_is_idempotent_and_keeps_the_rules(
        file in 0usize..64,
        noise in proptest::collection::vec((0usize..6, 0usize..4, proptest::bool::ANY), 200),
    ) {
        let files = all_rules_files();
        let (name, text) = &files[file % files.len()];
        // Disturb the layout: indentation, trailing spaces and blank lines.
        let mut messy = String::new();
        for (i, line) in text.lines().enumerate() {
            let (indent, trailing, blank) = noise[i % noise.len()];
            messy.push_str(&" ".repeat(indent));
            messy.push_str(line.trim_start());
            messy.push_str(&" ".repeat(trailing));
            messy.push('\n');
            if blank {
                messy.push('\n');
            }
        }
        let once = format(&messy);
        prop_assert_eq!(format(&once), once.clone(), "{} is not idempotent", name);
        prop_assert_eq!(tree(&once), tree(text), "{} parses differently after formatting", name);
        // Blank lines the disturbance put between statements stay (they are the author's to
        // choose); with none added, the shipped layout comes back exactly.
        if noise.iter().all(|n| !n.2) {
            prop_assert_eq!(&once, text, "{}: formatting restores the shipped layout", name);
        }
    }
}

/// A record names its rules by a hash of their tokens, so a new layout (such as `fmt`'s),
/// comments and examples leave it alone, while any changed token changes it, inside a
/// quoted string too.
#[test]
fn the_rules_hash_reads_the_tokens_alone() {
    use outflank::apps::record::rules_hash;
    let hash = |text: &str| rules_hash(&common::engine_from(text));
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/othello.rules"))
        .unwrap();
    let (rules, examples) = text.split_at(text.find("example ").unwrap());
    let original = hash(&text);

    let relaid = format!(
        "// a new first line\n\n{}",
        rules.replace(" = ", "   =\n  ")
    );
    assert_ne!(relaid, rules);
    assert_eq!(hash(&relaid), original, "layout, comments and examples");
    assert_eq!(hash(&format(&text)), original, "fmt's layout");
    let more_examples = format!(
        "{text}\n{}",
        examples.replace("example \"", "example \"2: ")
    );
    assert_eq!(hash(&more_examples), original, "examples");

    let retitled = text.replace("title \"Othello\"", "title \"Othello // 1\"");
    let retitled_again = text.replace("title \"Othello\"", "title \"Othello // 2\"");
    assert_ne!(hash(&retitled), hash(&retitled_again), "inside a string");
    assert_ne!(hash(&retitled), original);
    let smaller = text.replace("param size = 8 in", "param size = 6 in");
    assert_ne!(hash(&smaller), original, "a number");
}
