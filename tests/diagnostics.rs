//! Every file in tests/fixtures/invalid is broken on purpose. Each must fail the check with at
//! least one error, and its rendered diagnostics (no colour, fixed width) are snapshotted.

use outflank::check::{check, CheckError};
use outflank::source::{read_source, FsLoader};

fn rendered(path: &std::path::Path) -> String {
    // A relative name keeps machine paths out of the snapshots.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let name = path
        .strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/");
    std::env::set_current_dir(root).unwrap();
    let source = read_source(&name).unwrap();
    match check(source, &FsLoader, &[]) {
        Ok(_) => panic!("{name} was accepted, but it is in the invalid corpus"),
        Err(CheckError::Setting(m)) => panic!("{name}: unexpected setting error {m}"),
        Err(CheckError::Rules(d)) => {
            assert!(d.has_errors(), "{name}: diagnostics without an error");
            d.render(false, 100)
        }
    }
}

#[test]
fn invalid_files_have_diagnostics() {
    insta::glob!("fixtures/invalid/*.rules", |path| {
        insta::assert_snapshot!(rendered(path));
    });
}

#[test]
fn corpus_is_large_enough() {
    let n = std::fs::read_dir(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/invalid"
    ))
    .unwrap()
    .filter(|e| {
        e.as_ref()
            .unwrap()
            .path()
            .extension()
            .is_some_and(|x| x == "rules")
    })
    .count();
    assert!(
        n >= 15,
        "the issue asks for at least 15 broken files, found {n}"
    );
}

#[test]
fn all_errors_of_a_file_are_collected() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/invalid/many-errors-at-once.rules"
    ));
    let text = rendered(path);
    for expected in [
        "unknown player `green`",
        "unknown name `d`",
        "unknown token `button`",
        "unknown name `blokced`",
        "expected a player",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in:\n{text}");
    }
}

/// The help under a misspelt name offers the nearest names, a swap of two neighbouring letters
/// counting as one edit (docs/TUTORIAL.md promises "did you mean `empty`?" for `emtpy`), and
/// offers nothing where no name is near.
#[test]
fn misspelt_names_get_the_nearest_name_as_help() {
    use outflank::check::{check, CheckError};
    use outflank::source::{NoFiles, SourceFile};
    let othello =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/othello.rules"))
            .unwrap();
    let helps = |from: &str, to: &str| -> Vec<String> {
        assert!(othello.contains(from));
        let text = othello.replacen(from, to, 1);
        match check(SourceFile::new("typo.rules", text), &NoFiles, &[]) {
            Err(CheckError::Rules(d)) => d.0.iter().filter_map(|d| d.help.clone()).collect(),
            _ => panic!("`{to}` must be an error"),
        }
    };
    assert_eq!(helps("c in empty", "c in emtpy"), ["did you mean `empty`?"]);
    assert_eq!(helps("c in empty", "c in empy"), ["did you mean `empty`?"]);
    let far = helps("c in empty", "c in vacant");
    assert!(far.iter().all(|h| !h.contains("did you mean")), "{far:?}");
    assert_eq!(
        outflank::check::closest_names("d3", &["d4".into(), "e6".into(), "d3x".into()], 3),
        ["d4", "d3x"]
    );
    assert!(outflank::check::closest_names("z9", &["d3".into(), "c4".into()], 3).is_empty());
}

/// A `let` refused for holding a set is reported once: the statements that read the variable
/// are not reported again as unknown names (they were, four times, in one file).
#[test]
fn a_refused_let_is_reported_once() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/invalid/let-holds-a-set.rules"
    ));
    let text = rendered(path);
    assert_eq!(text.matches('×').count(), 1, "{text}");
    assert!(
        text.contains("a variable holds a cell or a number"),
        "{text}"
    );
    assert!(!text.contains("unknown name"), "{text}");
}

/// An unknown board shape is pointed at where it stands, even when its name is also a part of
/// the word `board` (a search of the line for the name found the `b` of `board`).
#[test]
fn an_unknown_board_shape_is_pointed_at_where_it_stands() {
    use outflank::check::{check, CheckError};
    use outflank::source::{NoFiles, SourceFile};
    for (text, name) in [
        ("board   b 7\n", "b"),
        ("board oa 7\n", "oa"),
        ("board octagon 7\n", "octagon"),
    ] {
        let rules = format!("{text}player black 'B'\nplayer white 'W'\n");
        let Err(CheckError::Rules(d)) =
            check(SourceFile::new("t.rules", rules.clone()), &NoFiles, &[])
        else {
            panic!("{text} was accepted");
        };
        let e = &d.0[0];
        assert_eq!(
            e.message,
            format!("`{name}` is not a shape of board"),
            "{text}"
        );
        let at = text.rfind(&format!(" {name} ")).unwrap() + 1;
        assert_eq!((e.span.start, e.span.end), (at, at + name.len()), "{text}");
    }
}

/// Forms the language does not have are answered with what it has: the fixtures' first
/// errors, checked apart from their snapshots (a change to the wording is a change here too).
#[test]
fn forms_the_language_lacks_get_what_it_has_instead() {
    for (fixture, message, help) in [
        (
            "board-third-dimension",
            "a board has two dimensions",
            "board hexagon SIDE",
        ),
        (
            "directions-leap",
            "`north` cannot follow the direction before it",
            "directions knight = (1, 2), (2, 1)",
        ),
        (
            "leap-as-ray",
            "`knight` has leaps, which cannot be walked as rays",
            "`adjacent(S, knight)`",
        ),
        (
            "leap-lands-nowhere",
            "a leap of (4, 0) lands on no cell of this board",
            "on this board of 4 x 4 it must land on a cell",
        ),
        (
            "where-in-expression",
            "`where` cannot follow this expression",
            "some x in S where COND",
        ),
        (
            "quantifier-in-region",
            "a quantifier is asked during the game",
            "rows(a, b)",
        ),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/fixtures/invalid/{fixture}.rules"));
        let text = rendered(&path);
        assert_eq!(text.matches('×').count(), 1, "{fixture}: {text}");
        assert!(text.contains(message), "{fixture}: {text}");
        assert!(
            text.replace('\n', " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(help),
            "{fixture}: {text}"
        );
    }
}
