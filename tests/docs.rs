//! The examples in docs/LANGUAGE.md are real: every `rules` block parses, and the first one,
//! a complete game, checks and plays Othello.

use crate::common;
use outflank::check::check;
use outflank::engine::Engine;
use outflank::source::{NoFiles, SourceFile};
use outflank::syntax::parse;

#[test]
fn every_rules_block_in_the_language_reference_parses() {
    let blocks = blocks();
    assert!(blocks.len() >= 10, "found {} blocks", blocks.len());
    for (i, b) in blocks.iter().enumerate() {
        let src = SourceFile::new(format!("LANGUAGE.md block {}", i + 1), b.clone());
        if let Err(d) = parse(&src) {
            panic!("block {} does not parse: {}\n{b}", i + 1, d.message);
        }
    }
}

#[test]
fn the_first_example_is_a_working_othello() {
    let first = blocks().remove(0);
    let checked = check(SourceFile::new("example.rules", first), &NoFiles, &[])
        .unwrap_or_else(|_| panic!("the first example must check"));
    let e = Engine::new(checked.game);
    let s = e.start().unwrap();
    assert_eq!(e.perft(&s, 5).unwrap(), 1396);
}

#[test]
fn the_sketches_of_later_games_compile() {
    // The turn programs sketched for Verto, VECT-REVERSE and Reversi Go, with minimal headers.
    let sketches: Vec<String> = blocks()
        .into_iter()
        .filter(|b| b.contains("// Verto"))
        .collect();
    assert_eq!(sketches.len(), 1);
    let text = &sketches[0];
    let turn_blocks: Vec<&str> = text.split("\n// ").collect();
    let headers = [
        "board 8 x 8\nplayer light 'L'\nplayer dark 'D'\nregion corners = corners\nline single = opponent friend\nline jump = opponent empty\nend when none(empty)\nscore p = count(p)\n",
        "board 8 x 8\nparam chains = true\nplayer black 'B'\nplayer white 'W'\nline outflank = opponent+ friend\nend when passes >= 2\nscore p = count(p)\n",
        "board 9 x 9\nparam handicap = 0 in 0, 2 to 9\nplayer black 'B'\nplayer white 'W'\ntoken button\nend when passes >= 2\nscore p = count(p) + count(territory(p))\n",
    ];
    assert_eq!(turn_blocks.len(), 3);
    for (sketch, header) in turn_blocks.iter().zip(headers) {
        let body = sketch
            .split_once('\n')
            .map(|(_, rest)| rest)
            .unwrap_or(sketch);
        let src = format!("{header}{body}");
        let checked = check(SourceFile::new("sketch.rules", src.clone()), &NoFiles, &[]);
        let game = match checked {
            Ok(c) => c.game,
            Err(outflank::check::CheckError::Rules(d)) => panic!("{}\n{src}", d.render(false, 100)),
            Err(outflank::check::CheckError::Setting(m)) => panic!("{m}"),
        };
        let e = Engine::new(game);
        let mut rng = outflank::engine::rng::Rng::new(1);
        let (end, _) = outflank::agents::random_game(&e, &e.start().unwrap(), &mut rng).unwrap();
        assert!(end.is_over());
    }
}

fn blocks() -> Vec<String> {
    common::rules_blocks(include_str!("../docs/LANGUAGE.md"))
}

/// The commands the README and the docs show: each line of a `sh` block, and each code span that
/// starts with `outflank` and gives more than a subcommand's name. (docs/PERFORMANCE-HISTORY.md
/// records past commands as they were and is left out.)
fn documented_commands() -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = vec!["README.md".to_string(), "CONTRIBUTING.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(format!("{root}/docs"))
        .unwrap()
        .map(|e| format!("docs/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|f| f.ends_with(".md") && !f.contains("HISTORY"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(format!("{root}/{f}")).unwrap();
        let mut prose = String::new();
        let mut in_sh = None;
        for line in text.lines() {
            let fence = line.trim_start().starts_with("```");
            match (&in_sh, fence) {
                (None, true) => in_sh = Some(line.trim_start().trim_start_matches('`') == "sh"),
                (Some(_), true) => in_sh = None,
                (Some(true), false) => {
                    let command = line.split(" #").next().unwrap().trim();
                    if !command.is_empty() {
                        out.push((f.clone(), command.to_string()));
                    }
                }
                (Some(false), false) => {}
                (None, false) => {
                    prose.push_str(line);
                    prose.push('\n');
                }
            }
        }
        for (i, span) in prose.split('`').enumerate() {
            let span = span.split_whitespace().collect::<Vec<_>>().join(" ");
            if i % 2 == 1 && span.starts_with("outflank ") && span.split(' ').count() > 2 {
                out.push((f.clone(), span));
            }
        }
    }
    out
}

/// Words of a command line, double quotes grouping; each word says whether it was quoted.
fn words_of(command: &str) -> Vec<(String, bool)> {
    let mut words = Vec::new();
    let (mut word, mut quoted, mut inside) = (String::new(), false, false);
    for c in command.chars() {
        match c {
            '"' => {
                inside = !inside;
                quoted = true;
            }
            ' ' if !inside => {
                if !word.is_empty() || quoted {
                    words.push((std::mem::take(&mut word), quoted));
                }
                quoted = false;
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() || quoted {
        words.push((word, quoted));
    }
    words
}

/// A word that stands for a value the reader chooses: FILE, N, `alphabeta:D`, `A,B`.
fn is_placeholder(word: &str) -> bool {
    word.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_uppercase()))
}

/// Every command the docs show runs as written. `cargo run --release --` stands for the
/// binary the tests built; the tutorial's `mine.rules` is its first game. Left out, each for its
/// reason: commands with placeholders (they stand for many), `cargo test` (this run is one) and
/// the scripts in benches/ (they build a release binary and measure for minutes). A command must
/// end with success within three seconds, or still be running then (a long self-play, a game
/// between computers) without having written an error; a human's game ends when its input does.
/// Three, not more: sixteen documented commands run for minutes, and each second they are given
/// is sixteen seconds of every test run.
#[test]
fn every_documented_command_runs() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mine = common::run::temp("docs", "mine.rules");
    std::fs::write(
        &mine,
        common::rules_blocks(include_str!("../docs/TUTORIAL.md")).remove(0),
    )
    .unwrap();
    let mut ran = 0;
    for (file, command) in documented_commands() {
        let mut words = words_of(&command);
        if words
            .iter()
            .take(3)
            .map(|(w, _)| w.as_str())
            .eq(["cargo", "run", "--release"])
        {
            words.drain(..4);
        } else if words[0].0 == "outflank" {
            words.remove(0);
        } else {
            continue;
        }
        if words.is_empty() || words.iter().any(|(w, quoted)| !quoted && is_placeholder(w)) {
            continue;
        }
        let args: Vec<String> = words
            .into_iter()
            .map(|(w, _)| if w == "mine.rules" { mine.clone() } else { w })
            .collect();
        let mut child = Command::new(env!("CARGO_BIN_EXE_outflank"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if started.elapsed() > std::time::Duration::from_secs(3) {
                child.kill().unwrap();
                child.wait().unwrap();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        match status {
            Some(s) => assert!(s.success(), "{file}: `{command}` failed: {err}"),
            None => assert!(!err.contains("error"), "{file}: `{command}` wrote: {err}"),
        }
        ran += 1;
    }
    // The README's main command, the tutorial's four and the players' guide's runs at least.
    assert!(ran >= 7, "only {ran} documented commands ran");
}

/// docs/ARCHITECTURE.md is a map that must match the house: every path it names exists
/// (written from the repository's top, or from `src/` where it leaves that out), and every
/// folder of `src/` is on it.
#[test]
fn the_architecture_map_names_only_what_exists_and_every_source_folder() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let tops = [
        "src/", "tests/", "docs/", "games/", "grammar/", "benches/", "fuzz/", "deploy/", "editors/",
    ];
    let mut named = 0;
    for piece in text.split('`').skip(1).step_by(2) {
        let looks_like_path = !piece.contains(' ')
            && piece.contains('/')
            && (piece.ends_with(".rs") || piece.ends_with('/') || piece.ends_with(".pest"));
        if !looks_like_path {
            continue;
        }
        let path = if tops.iter().any(|t| piece.starts_with(t)) {
            root.join(piece)
        } else {
            root.join("src").join(piece)
        };
        assert!(
            path.exists(),
            "docs/ARCHITECTURE.md names `{piece}`, which does not exist"
        );
        named += 1;
    }
    assert!(named > 50, "only {named} paths found");
    let mut folders = vec![root.join("src")];
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                let inside = path.strip_prefix(root.join("src")).unwrap();
                let shown = format!("{}/", inside.display());
                assert!(
                    text.contains(&shown),
                    "docs/ARCHITECTURE.md does not place src/{shown} on its map"
                );
                folders.push(path);
            }
        }
    }
}

/// One word for the thing that runs the rules: "runner", in the code, the documents and the
/// output. "kernel" was its old name; it may appear only where a document says so, and in
/// udev's `KERNEL==`, which the editors' file detection names.
#[test]
fn the_runner_has_one_name_everywhere() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    let mut dirs = vec![root.join("src"), root.join("docs"), root.join("benches")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let says_it_is_old = ["KERNEL==", "old name", "version 2"];
    let mut found = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            if line.to_lowercase().contains("kernel")
                && !says_it_is_old.iter().any(|s| line.contains(s))
            {
                found.push(format!("{}:{}: {line}", path.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "the runner by another name: {found:#?}");
    assert!(files.len() > 100, "only {} files read", files.len());
}
