//! Lints: files that are valid but suspicious. Each must check without errors and with at least
//! one warning; the rendered warnings are snapshotted.

use outflank::check::check;
use outflank::cli::{read_source, FsLoader};

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
