//! The repository stands alone and keeps its shape: nothing points outside it, no source file
//! grows past what a reader can hold, and the layers import one way.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every file under `dir` (relative to the repository), recursively.
fn files_under(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(ROOT).join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT).unwrap().display().to_string()
}

#[test]
fn nothing_points_outside_the_repository() {
    // Built here, so that this file does not hold the path it looks for.
    let outside = ["..", "shared"].join("/");
    let mut files: Vec<PathBuf> = [
        "src", "tests", "docs", "games", "benches", "grammar", ".ci", "fuzz",
    ]
    .iter()
    .flat_map(|d| files_under(d))
    .collect();
    for f in ["README.md", "CONTRIBUTING.md", "Cargo.toml"] {
        files.push(Path::new(ROOT).join(f));
    }
    assert!(files.len() > 100, "found only {} files", files.len());
    let pointing: Vec<String> = files
        .iter()
        .filter(|f| std::fs::read(f).is_ok_and(|b| String::from_utf8_lossy(&b).contains(&outside)))
        .map(|f| relative(f))
        .collect();
    assert!(pointing.is_empty(), "{outside} is named in {pointing:?}");
}

#[test]
fn no_source_file_is_longer_than_a_reader_can_hold() {
    // The library's and the tests' Rust, and the page's JavaScript.
    let sources: Vec<PathBuf> = ["src", "tests"]
        .iter()
        .flat_map(|dir| files_under(dir))
        .filter(|f| f.extension().is_some_and(|e| e == "rs" || e == "js"))
        .collect();
    assert!(sources.len() > 100, "only {} files", sources.len());
    assert!(sources.iter().any(|f| relative(f).ends_with("page/app.js")));
    for f in sources {
        let lines = std::fs::read_to_string(&f).unwrap().lines().count();
        assert!(
            lines <= 800,
            "{} has {lines} lines (at most 800)",
            relative(&f)
        );
    }
}

/// The names of the crate's top modules that the Rust files under `place` use.
fn uses_of(place: &str) -> std::collections::BTreeSet<String> {
    let path = Path::new(ROOT).join("src").join(place);
    let files = if path.is_dir() {
        files_under(&format!("src/{place}"))
    } else {
        vec![path]
    };
    let mut used = std::collections::BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        // Comments may name any module (a doc link is no dependency).
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (i, _) in line.match_indices("crate::") {
                let name: String = line[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                used.insert(name);
            }
        }
    }
    used
}

#[test]
fn the_layers_import_one_way() {
    // Each place and the modules of the crate it may use: the pipeline's earlier stages and
    // the board model below them, never a later stage.
    let allowed: &[(&str, &[&str])] = &[
        ("board", &["board"]),
        ("source.rs", &[]),
        ("diagnostic.rs", &["source"]),
        ("syntax", &["syntax", "source", "diagnostic", "board", "ir"]),
        ("ir.rs", &["board", "source"]),
        (
            "check",
            &["check", "syntax", "ir", "board", "source", "diagnostic"],
        ),
        ("engine", &["engine", "ir", "board", "source", "diagnostic"]),
        ("agents", &["agents", "engine", "ir", "board"]),
        (
            "apps",
            &[
                "apps",
                "agents",
                "engine",
                "check",
                "syntax",
                "ir",
                "board",
                "source",
                "diagnostic",
            ],
        ),
    ];
    for (place, may) in allowed {
        let used = uses_of(place);
        let wrong: Vec<&String> = used.iter().filter(|u| !may.contains(&u.as_str())).collect();
        assert!(
            wrong.is_empty(),
            "src/{place} uses {wrong:?}; it may use only {may:?}"
        );
    }
}

/// The first names of the paths in `group`, the inside of a `use` list's braces.
fn first_names(group: &str) -> Vec<String> {
    let (mut depth, mut names, mut current) = (0, Vec::new(), String::new());
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => names.push(std::mem::take(&mut current)),
            _ if depth == 0 => current.push(c),
            _ => {}
        }
    }
    names.push(current);
    names
        .iter()
        .map(|n| n.trim().split("::").next().unwrap().trim().to_string())
        .filter(|n| !n.is_empty())
        .collect()
}

/// The first names of the paths that `code` writes after `prefix` (`crate::engine::` gives
/// `runner` for `crate::engine::runner::Runner`, every name of a braced list).
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (i, _) in code.match_indices(prefix) {
        let rest = &code[i + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            names.extend(first_names(
                &group[..group.find("};").unwrap_or(group.len())],
            ));
        } else {
            let path = rest.split([';', ' ', '(', ')', '<', '>', ',', '!']).next();
            names.extend(first_names(path.unwrap()));
        }
    }
    names
}

/// A Rust file's text without its comment lines (a doc link is no dependency).
fn code_of(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names that files under `folder` (e.g. "src/engine") take from its mod.rs rather than
/// from one of the modules it declares, through `crate::PATH::` or `super::`, as "file: name".
fn reaches_into_mod_rs(folder: &str) -> Vec<String> {
    let top = std::fs::read_to_string(format!("{ROOT}/{folder}/mod.rs")).unwrap();
    let modules: Vec<&str> = top
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or(l.strip_prefix("mod ")))
        .filter_map(|l| l.strip_suffix(';'))
        .collect();
    assert!(modules.len() > 3, "{folder}/mod.rs declares {modules:?}");
    let crate_path = format!("crate::{}::", folder.trim_start_matches("src/"));
    let mut wrong = Vec::new();
    for path in files_under(folder) {
        let place = relative(&path);
        if place == format!("{folder}/mod.rs") || !place.ends_with(".rs") {
            continue;
        }
        let code = code_of(&path);
        let mut names = names_after(&code, &crate_path);
        // Where `super` is the folder: its own files, and the mod.rs of its folders.
        let depth = place.matches('/').count() - folder.matches('/').count();
        let super_is_top = depth == 1 || (depth == 2 && place.ends_with("/mod.rs"));
        if super_is_top {
            names.extend(names_after(&code, "super::"));
        } else if depth == 2 {
            // A file of a folder within: its `super::super` is the folder.
            names.extend(names_after(&code, "super::super::"));
        }
        for name in names {
            if name != "super" && !modules.contains(&name.as_str()) {
                wrong.push(format!("{place}: {name}"));
            }
        }
    }
    wrong
}

/// The engine's modules that the files of its folder `stage` (e.g. "runner") use, by
/// `crate::engine::` or by as many `super::` as lead from the file up to the engine.
fn engine_modules_used_by(stage: &str) -> std::collections::BTreeSet<String> {
    let folder = format!("src/engine/{stage}");
    let mut used = std::collections::BTreeSet::new();
    for path in files_under(&folder) {
        let place = relative(&path);
        let code = code_of(&path);
        used.extend(names_after(&code, "crate::engine::"));
        // From the stage's mod.rs `super` is the engine; from a file beside it,
        // `super::super`; one folder further down, one more.
        let below = place.matches('/').count() - folder.matches('/').count();
        let ups = if place.ends_with("/mod.rs") {
            below
        } else {
            below + 1
        };
        used.extend(names_after(&code, &"super::".repeat(ups)));
    }
    used.remove(stage);
    used
}

#[test]
fn the_runner_s_stages_import_one_way() {
    // Issue 84: lowering at load time (`plan`), the runner that executes the turn program,
    // then what plays (`playing`) and what solves (`solving`) on it. Each stage may use the
    // stages before it and the engine's leaves, never a later stage, and the two consumers
    // not each other.
    let leaves = ["step", "state", "rng", "hash", "random_pick"];
    let stages: &[(&str, &[&str])] = &[
        ("plan", &[]),
        ("runner", &["plan"]),
        ("playing", &["plan", "runner"]),
        ("solving", &["plan", "runner", "negamax"]),
    ];
    for (stage, may) in stages {
        let used = engine_modules_used_by(stage);
        let wrong: Vec<&String> = used
            .iter()
            .filter(|u| !may.contains(&u.as_str()) && !leaves.contains(&u.as_str()))
            .collect();
        assert!(
            wrong.is_empty(),
            "src/engine/{stage} uses {wrong:?}; it may use only {may:?} and {leaves:?}"
        );
    }
    // The check sees imports at all: the runner reads the plan, and the solver the runner.
    assert!(engine_modules_used_by("runner").contains("plan"));
    assert!(engine_modules_used_by("solving").contains("runner"));
}

#[test]
fn the_engine_s_and_the_command_line_s_files_import_nothing_from_their_mod_rs() {
    // Each folder's mod.rs sits above its files: the engine's only declares its modules and
    // re-exports their public names, the command line's dispatches to its subcommands. Each
    // file takes what it shares with the others from those modules (`face` for `Engine`,
    // `step`, `state`; the command line's `game` and `output`), never from mod.rs itself.
    let engine = std::fs::read_to_string(format!("{ROOT}/src/engine/mod.rs")).unwrap();
    assert!(
        !engine.contains("impl ") && !engine.contains("fn "),
        "the engine's mod.rs holds code"
    );
    for folder in ["src/engine", "src/cli"] {
        let wrong = reaches_into_mod_rs(folder);
        assert!(
            wrong.is_empty(),
            "files of {folder} reach into its mod.rs: {wrong:#?}"
        );
    }
}

/// `cargo install outflank` builds from the published package, which holds only what
/// Cargo.toml's `include` names: every source file, every bundled game, and every file the
/// build reads from elsewhere (`include_str!`, `include!`, the grammar) must be in it.
#[test]
fn the_published_package_holds_every_file_the_build_reads() {
    let o = std::process::Command::new(env!("CARGO"))
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let listed: std::collections::HashSet<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let mut needed: Vec<String> = Vec::new();
    for f in files_under("src").into_iter().chain(files_under("games")) {
        needed.push(relative(&f));
        if f.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        // include_str! and include! read paths from the including file's folder; pest's
        // `grammar` from src/.
        let here = f.parent().unwrap().to_path_buf();
        let src = Path::new(ROOT).join("src");
        for (opener, base) in [
            ("include_str!(\"", &here),
            ("include!(\"", &here),
            ("#[grammar = \"", &src),
        ] {
            for piece in text.split(opener).skip(1) {
                let target = piece.split('"').next().unwrap();
                let mut path = base.clone();
                for part in target.split('/') {
                    match part {
                        ".." => {
                            path.pop();
                        }
                        "." => {}
                        _ => path.push(part),
                    }
                }
                needed.push(relative(&path));
            }
        }
    }
    // The bundled games' list includes each game by a path relative to the repository.
    needed.push("bundled-games.rs".into());
    let missing: Vec<&String> = needed.iter().filter(|f| !listed.contains(*f)).collect();
    assert!(needed.len() > 100, "{}", needed.len());
    assert!(missing.is_empty(), "not in the package: {missing:?}");
}

#[test]
fn no_struct_of_the_runner_has_more_than_sixteen_fields() {
    // A struct that grows past this holds more than one stage's state (issue 84: the runner
    // held 32 fields, the solver's tables among them); group them by what reads them.
    let mut structs = 0;
    let stages = ["plan", "runner", "playing", "solving"];
    for path in stages
        .iter()
        .flat_map(|s| files_under(&format!("src/engine/{s}")))
    {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            // A struct of any visibility, at the file's top level.
            let opens = !line.starts_with(' ')
                && line.split_whitespace().any(|w| w == "struct")
                && line.ends_with('{');
            if !opens {
                continue;
            }
            structs += 1;
            let fields = lines
                .by_ref()
                .take_while(|l| *l != "}")
                .filter(|l| {
                    let l = l.trim_start();
                    // Past any visibility: `pub`, `pub(crate)`, `pub(in path)`.
                    let l = match l.strip_prefix("pub") {
                        Some(rest) if rest.starts_with('(') => {
                            rest.split_once(')').map_or(rest, |(_, r)| r).trim_start()
                        }
                        Some(rest) if rest.starts_with(' ') => rest.trim_start(),
                        _ => l,
                    };
                    !l.starts_with("//")
                        && l.split_once(':').is_some_and(|(name, _)| {
                            !name.is_empty()
                                && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                        })
                })
                .count();
            assert!(
                fields <= 16,
                "{}: `{line}` has {fields} fields (at most 16)",
                relative(&path)
            );
        }
    }
    assert!(structs > 10, "only {structs} structs found");
}

/// The type an inherent `impl` line names (`impl<B: Bits> Runner<B, P> {` gives `Runner`), or
/// `None` for a trait's impl or a line that opens no impl.
fn inherent_impl_of(line: &str) -> Option<String> {
    let rest = line.strip_prefix("impl")?;
    let opens = rest.starts_with('<') || rest.starts_with(' ');
    if !opens || !line.ends_with('{') || rest.contains(" for ") {
        return None;
    }
    // Skip the impl's own generics, which may nest (`impl<T: Into<u8>>`).
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 && !c.is_whitespace() => {
                start = i;
                break;
            }
            _ => {}
        }
    }
    let name: String = rest[start..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[test]
fn no_type_s_methods_are_spread_over_more_than_three_files() {
    // A type whose methods live in many files through `use super::*` has no inside: every
    // helper of every stage is on it (issue 84: the runner's impl was in 9 files, the
    // checker's in 11). A stage's helpers go on a view of the type, in the stage's file.
    // Trait impls are left out: `Display` beside its type's user is where a reader looks.
    let mut files_of: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for path in files_under("src") {
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            if let Some(name) = inherent_impl_of(line.trim_start()) {
                files_of.entry(name).or_default().insert(relative(&path));
            }
        }
    }
    assert!(files_of.len() > 50, "only {} types found", files_of.len());
    assert!(files_of.contains_key("Runner") && files_of.contains_key("Checker"));
    let spread: Vec<String> = files_of
        .iter()
        .filter(|(_, files)| files.len() > 3)
        .map(|(name, files)| format!("{name}: {files:?}"))
        .collect();
    assert!(
        spread.is_empty(),
        "methods in more than three files:\n{}",
        spread.join("\n")
    );
}

#[test]
fn an_impl_line_names_its_type() {
    assert_eq!(
        inherent_impl_of("impl<B: Bits, P: Pieces> Runner<B, P> {").as_deref(),
        Some("Runner")
    );
    assert_eq!(
        inherent_impl_of("impl<T: Into<u8>> Wrap<T> {").as_deref(),
        Some("Wrap")
    );
    assert_eq!(
        inherent_impl_of("impl Checker {").as_deref(),
        Some("Checker")
    );
    assert_eq!(inherent_impl_of("impl fmt::Display for Step {"), None);
    assert_eq!(inherent_impl_of("implied {"), None);
}

#[test]
fn the_baseline_pass_names_modules_that_exist_and_every_runner_module() {
    // .ci/run runs the runner's tests again on the processor's baseline instructions, by
    // module name: a renamed module would silently drop out of that pass.
    let ci = std::fs::read_to_string(Path::new(ROOT).join(".ci/run")).unwrap();
    let start = ci
        .find("OUTFLANK_CPU=baseline")
        .expect("the baseline pass in .ci/run");
    let mut listed = Vec::new();
    for line in ci[start..].lines() {
        listed.extend(
            line.split_whitespace()
                .filter_map(|w| w.strip_suffix("::"))
                .map(String::from),
        );
        if !line.ends_with('\\') {
            break;
        }
    }
    let suite = std::fs::read_to_string(Path::new(ROOT).join("tests/suite.rs")).unwrap();
    let modules: Vec<&str> = suite
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    assert!(listed.len() > 10, "{listed:?}");
    for m in &listed {
        assert!(
            modules.contains(&m.as_str()),
            "the baseline pass names `{m}::`, which is no module"
        );
    }
    for m in modules.iter().filter(|m| m.starts_with("runner")) {
        assert!(
            listed.iter().any(|l| l == m),
            "`{m}` is not in the baseline pass"
        );
    }
}
