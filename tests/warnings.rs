//! Lints: files that are valid but suspicious. Each must check without errors and with at least
//! one warning; the rendered warnings are snapshotted.

use outflank::check::check;
use outflank::source::{read_source, FsLoader};

#[test]
fn lint_fixtures_warn() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).unwrap();
    insta::glob!("fixtures/warnings/*.rules", |path| {
        let name = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let checked = check(read_source(&name).unwrap(), &FsLoader, &[])
            .unwrap_or_else(|_| panic!("{name} must check without errors"));
        assert!(!checked.warnings.is_empty(), "{name} gave no warning");
        assert!(!checked.warnings.has_errors());
        insta::assert_snapshot!(checked.warnings.render(false, 100));
    });
}

#[test]
fn bundled_games_have_no_warnings_except_the_known_one() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).unwrap();
    for entry in std::fs::read_dir("games").unwrap() {
        let name = format!("games/{}", entry.unwrap().file_name().to_string_lossy());
        let checked = check(read_source(&name).unwrap(), &FsLoader, &[])
            .ok()
            .unwrap();
        let text = checked.warnings.render(false, 100);
        if name.ends_with("vect-reverse-corner-lock.rules") {
            // The rulebook's own point: with the corners gone, 4 points cannot be reached.
            assert_eq!(checked.warnings.0.len(), 1, "{text}");
        } else {
            assert!(checked.warnings.is_empty(), "{name}:\n{text}");
        }
    }
}

/// A step that may change nothing is warned of only while nothing covers the inner choice
/// having no candidate: a guard in the option's `where`, an `else`, a `pass` among the inner
/// options, or an effect of the option's own.
#[test]
fn a_step_without_effect_is_warned_of_only_when_nothing_covers_it() {
    let base = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/warnings/step-without-effect.rules"
    ))
    .unwrap();
    let unguarded =
        "e in opponent {\n      choose f in neighbours(e) & empty { place f flip e }\n    }";
    assert!(base.contains(unguarded));
    let warnings = |text: &str| {
        let source = outflank::source::SourceFile::new("variant.rules", text);
        check(source, &outflank::source::NoFiles, &[])
            .unwrap_or_else(|e| panic!("{e:?}"))
            .warnings
            .0
            .len()
    };
    assert_eq!(warnings(&base), 1);
    for covered in [
        "e in opponent where some(neighbours(e)&empty) {\n      choose f in neighbours(e) & empty { place f flip e }\n    }",
        "e in opponent {\n      choose f in neighbours(e) & empty { place f flip e } else { stop }\n    }",
        "e in opponent {\n      choose { f in neighbours(e) & empty { place f flip e } pass }\n    }",
        "e in opponent {\n      flip e\n      choose f in neighbours(e) & empty { place f }\n    }",
    ] {
        assert_eq!(warnings(&base.replace(unguarded, covered)), 0, "{covered}");
    }
}
