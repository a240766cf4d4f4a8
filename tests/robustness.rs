//! Bad input never panics: arbitrary text and mutations of the bundled rules go through the
//! parser and checker, and whatever they accept can start a game.

use outflank::check::check;
use outflank::engine::Engine;
use outflank::source::{MemoryFiles, SourceFile};
use proptest::prelude::*;

fn bundled() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Checks `text` (as if it were `name`, with the bundled files available as bases) and, when it
/// is accepted, starts the game and plays a few steps.
fn exercise(name: &str, text: &str, bases: &[(String, String)]) {
    let loader = MemoryFiles(bases.to_vec());
    if let Ok(checked) = check(SourceFile::new(name, text), &loader, &[]) {
        let e = Engine::new(checked.game);
        if let Ok(mut s) = e.start() {
            let mut buf = Vec::new();
            for _ in 0..20 {
                if s.is_over() || e.steps(&s, &mut buf).is_err() || buf.is_empty() {
                    break;
                }
                match e.apply(&s, buf[0]) {
                    Ok(t) => s = t,
                    Err(_) => break,
                }
            }
        }
    } else if let Err(outflank::check::CheckError::Rules(d)) =
        check(SourceFile::new(name, text), &loader, &[])
    {
        // Rendering must not panic either, whatever the spans.
        let _ = d.render(false, 80);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        exercise("arbitrary.rules", &text, &[]);
    }

    #[test]
    fn text_made_of_rules_words_never_panics(words in proptest::collection::vec(prop_oneof![
        Just("board"), Just("8"), Just("x"), Just("player"), Just("black"), Just("white"), Just("'B'"),
        Just("turn"), Just("{"), Just("}"), Just("choose"), Just("c"), Just("in"), Just("empty"),
        Just("place"), Just("flip"), Just("where"), Just("some("), Just("captured(l,"), Just(")"),
        Just("line"), Just("l"), Just("="), Just("opponent+"), Just("friend"), Just("end"), Just("when"),
        Just("blocked"), Just("score"), Just("p"), Just("count(p)"), Just("while"), Just("let"),
        Just("if"), Just("else"), Just("repeat"), Just("require"), Just("stop"), Just("param"),
        Just("size"), Just("region"), Just("r"), Just("corners"), Just("-"), Just("+"), Just("&"),
        Just("|"), Just("not"), Just("and"), Just("1"), Just("0"), Just("example"), Just("\"e\""),
        Just("expect"), Just("legal"), Just("\"a1\""), Just("agreement"), Just("auto"), Just("pass"),
    ], 0..60)) {
        exercise("words.rules", &words.join(" "), &[]);
    }

    #[test]
    fn mutated_bundled_files_never_panic(
        file in 0usize..16,
        edits in proptest::collection::vec((0usize..10_000, 0usize..40, "\\PC{0,6}"), 1..6),
    ) {
        let files = bundled();
        let (name, text) = &files[file % files.len()];
        let mut text = text.clone();
        for (at, cut, insert) in edits {
            let mut start = at % (text.len() + 1);
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + cut).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(start..end, &insert);
        }
        exercise(name, &text, &files);
    }
}
