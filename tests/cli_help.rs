//! What the command line says about itself, through the built binary: `info`, `--help`, shell
//! completions, manual pages, `check`'s diagnostic formats, and variants of bundled games.

use crate::common;
use crate::common::run::{json, outflank, stderr, stdout};
use serde_json::Value;

fn temp(name: &str) -> String {
    common::run::temp("cli", name)
}

/// The quoted string of each `KEYWORD "..."` line of a rules file, read here from the text.
fn quoted_items(text: &str, keyword: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(keyword)?.trim().strip_prefix('"'))
        .map(|rest| rest.trim_end().trim_end_matches('"').to_string())
        .collect()
}

#[test]
fn info_shows_what_the_rules_file_declares() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/othello.rules"))
        .unwrap();
    let o = outflank(&["info", "games/othello.rules"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], quoted_items(&text, "title")[0]);
    let credits = quoted_items(&text, "credit");
    let sources = quoted_items(&text, "source");
    assert!(!credits.is_empty() && !sources.is_empty());
    for c in &credits {
        assert!(lines.contains(&format!("credit: {c}").as_str()), "{out}");
    }
    for s in &sources {
        assert!(lines.contains(&format!("source: {s}").as_str()), "{out}");
    }
    // `param size = 8 in 4 to 26 step 2` in the file.
    assert!(text.contains("param size = 8 in 4 to 26 step 2"));
    assert!(
        lines.contains(&"parameter: size = 8 (4 to 26 step 2)"),
        "{out}"
    );
    assert!(
        lines.contains(&"board: grid 8 x 8, 64 cells in play"),
        "{out}"
    );
    assert!(
        lines.contains(&"players: black 'B', moves first; white 'W'"),
        "{out}"
    );

    // A setting is applied, and a bad one refused.
    let o = outflank(&["info", "games/othello.rules", "--set", "size=6"]);
    assert!(
        stdout(&o).contains("parameter: size = 6 (4 to 26 step 2)"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("board: grid 6 x 6, 36 cells in play"));
    // The symmetries the solver uses (tests/symmetry.rs checks that each plays the same).
    assert!(
        stdout(&o).contains("symmetries: a quarter turn, a half turn, three quarter turns,"),
        "{}",
        stdout(&o)
    );
    let o = outflank(&["info", "games/gravity-othello.rules"]);
    assert!(
        stdout(&o).contains("symmetries: the mirror left to right\n"),
        "{}",
        stdout(&o)
    );
    let o = outflank(&["info", "games/othello.rules", "--set", "size=7"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--set size=7"), "{}", stderr(&o));
}

#[test]
fn info_names_the_runner_width_and_how_turns_run() {
    let v = json(&outflank(&[
        "info",
        "games/reversi-go-19x19.rules",
        "--json",
    ]));
    assert_eq!(v["board"]["cells"], 361);
    // 361 cells take six words of 64.
    assert_eq!(v["runner"]["set_cells"], 384);
    assert_eq!(v["runner"]["turns"], "enclosure loop");
    let names: Vec<&str> = v["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["handicap", "komi", "size"]);
    assert_eq!(v["parameters"][0]["allowed"], "0, 2 to 9");
    assert_eq!(v["tokens"][0], "button");

    let v = json(&outflank(&["info", "games/othello.rules", "--json"]));
    assert_eq!(v["runner"]["set_cells"], 64);
    assert_eq!(v["runner"]["turns"], "direct");
    let v = json(&outflank(&["info", "games/hex-reversi.rules", "--json"]));
    assert_eq!(v["board"]["shape"], "hexagon");
    let v = json(&outflank(&[
        "info",
        "games/rolit-3-neutral.rules",
        "--json",
    ]));
    assert_eq!(v["kinds"][0]["note"], "as opponent");
    assert_eq!(v["players"].as_array().unwrap().len(), 3);
}

/// The commands `outflank --help` lists (`help` left out).
fn commands_in_help() -> Vec<String> {
    let top = stdout(&outflank(&["--help"]));
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect();
    assert!(
        commands.len() > 15,
        "commands read from the help: {commands:?}"
    );
    commands
}

#[test]
fn every_argument_and_option_of_every_command_says_what_it_is_for() {
    let commands = commands_in_help();
    let mut silent = Vec::new();
    for command in &commands {
        let help = stdout(&outflank(&[command.as_str(), "--help"]));
        for line in help.lines() {
            let entry = line.trim_start();
            if !line.starts_with("  ") || !(entry.starts_with('-') || entry.starts_with('<')) {
                continue;
            }
            // The name, then two spaces or more, then what it is for.
            let said = entry.split_once("  ").map_or("", |(_, rest)| rest.trim());
            if said.is_empty() || said.starts_with("[default:") {
                silent.push(format!("{command}: {entry}"));
            }
        }
    }
    assert!(silent.is_empty(), "without a help text: {silent:#?}");
}

/// What bash's completion offers for the words typed so far (the last one being completed),
/// with the script `outflank completions bash` prints loaded as a user would load it.
fn bash_completes(script: &str, words: &[&str]) -> Vec<String> {
    let path = temp("outflank.bash");
    std::fs::write(&path, script).unwrap();
    let typed = words.join(" ");
    let program = format!(
        "source {path}\nCOMP_WORDS=({typed})\nCOMP_CWORD={}\nCOMP_LINE='{typed}'\n\
         COMP_POINT=${{#COMP_LINE}}\n_outflank outflank '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words.len() - 1,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let o = std::process::Command::new("bash")
        .args(["-c", &program])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(str::to_string).collect()
}

#[test]
fn completions_offer_every_command_and_each_commands_options() {
    let o = outflank(&["completions", "bash"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = stdout(&o);
    // Every command after the program's name, and only the commands that begin as typed.
    let offered = bash_completes(&script, &["outflank", "''"]);
    for command in commands_in_help() {
        assert!(offered.contains(&command), "{command} not in {offered:?}");
    }
    assert_eq!(bash_completes(&script, &["outflank", "so"]), ["solve"]);
    // A command's own options, and the values an option takes.
    let solve = bash_completes(&script, &["outflank", "solve", "--me"]);
    assert_eq!(solve, ["--memory"]);
    let check = bash_completes(&script, &["outflank", "check", "--format", "''"]);
    assert_eq!(check, ["human", "json", "github"]);
    // The other shells get a script each; an unknown shell is refused with the known ones.
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = outflank(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        assert!(stdout(&o).contains("solve"), "{shell}");
    }
    let o = outflank(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("possible values: bash"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_manual_pages_render_and_cover_every_command() {
    let o = outflank(&["man"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH outflank 1"), "{page}");
    // groff reads the page without a warning (-ww: all of them), and the text it sets names
    // every command.
    let render = |roff: &str| {
        let mut groff = std::process::Command::new("groff")
            .args(["-man", "-Tutf8", "-ww"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("groff is installed (.ci/run installs groff-base)");
        use std::io::Write;
        groff
            .stdin
            .take()
            .unwrap()
            .write_all(roff.as_bytes())
            .unwrap();
        let o = groff.wait_with_output().unwrap();
        assert!(o.status.success() && o.stderr.is_empty(), "{}", stderr(&o));
        // Bold and underlined letters are overstruck: keep the letters.
        let text = stdout(&o);
        let mut plain = String::new();
        for c in text.chars() {
            if c == '\u{8}' {
                plain.pop();
            } else {
                plain.push(c);
            }
        }
        plain
    };
    let text = render(&page);
    let commands = commands_in_help();
    for command in &commands {
        assert!(
            text.contains(&format!("outflank-{command}(1)")),
            "{command}: {text}"
        );
    }
    // One page a command, each with its options.
    let dir = temp("man");
    let o = outflank(&["man", "--dir", &dir]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("wrote {} manual pages to {dir}\n", commands.len() + 1)
    );
    for command in &commands {
        let path = format!("{dir}/outflank-{command}.1");
        let roff = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        render(&roff);
    }
    let solve = render(&std::fs::read_to_string(format!("{dir}/outflank-solve.1")).unwrap());
    assert!(solve.contains("--memory"), "{solve}");
    // A directory that cannot be made is an error of one line.
    let o = outflank(&["man", "--dir", "/proc/no/such/place"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: man --dir /proc/no/such/place: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_places_each_diagnostic_by_line_and_column_for_json_and_github() {
    let path = temp("misspelt.rules");
    let rules = "board 3 x 3\nplayer a 'A'\nplayer b 'B'\nturn {\n  choose c in emptyy { place c }\n}\nscore p = count(p)\n";
    std::fs::write(&path, rules).unwrap();
    // Line 5, columns 15 to 21: `emptyy`, counted by hand from the text above.
    let o = outflank(&["check", &path, "--format", "github"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        format!(
            "::error file={path},line=5,col=15,endLine=5,endColumn=21,title=unknown name `emptyy`\
             ::unknown name `emptyy`: not defined%0Ahelp: did you mean `empty`?\n"
        )
    );
    let o = outflank(&["check", &path, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let file = &v["files"][0];
    assert_eq!(file["ok"], false);
    let d = &file["diagnostics"][0];
    assert_eq!(
        (&d["line"], &d["column"], &d["end_line"], &d["end_column"]),
        (
            &Value::from(5),
            &Value::from(15),
            &Value::from(5),
            &Value::from(21)
        )
    );
    assert_eq!(d["severity"], "error");
    assert_eq!(d["help"], "did you mean `empty`?");

    // A warning in a base file points into the base; the check passes. The place is checked
    // against the file's own text: the columns hold the condition that can never hold.
    let o = outflank(&[
        "check",
        "games/vect-reverse-corner-lock.rules",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    let d = &v["files"][0]["diagnostics"][0];
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["file"], "games/vect-reverse.rules");
    let base = std::fs::read_to_string("games/vect-reverse.rules").unwrap();
    let line: Vec<char> = base
        .lines()
        .nth(d["line"].as_u64().unwrap() as usize - 1)
        .unwrap()
        .chars()
        .collect();
    let (from, to) = (
        d["column"].as_u64().unwrap() as usize,
        d["end_column"].as_u64().unwrap() as usize,
    );
    let pointed: String = line[from - 1..to - 1].iter().collect();
    assert_eq!(pointed, "points(p) >= p.target");
    let o = outflank(&[
        "check",
        "games/vect-reverse-corner-lock.rules",
        "--format",
        "github",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("::warning file=games/vect-reverse.rules,line="));

    // A file that cannot be read, and properties escaped as the runner reads them.
    let o = outflank(&["check", "no, such: file.rules", "--format", "github"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("::error file=no%2C such%3A file.rules::"),
        "{}",
        stdout(&o)
    );
    let o = outflank(&["check", "games/othello.rules", "--format", "json"]);
    assert!(o.status.success());
    assert_eq!(json(&o)["files"][0]["diagnostics"], Value::Array(vec![]));
}

#[test]
fn a_variant_of_a_bundled_game_checks_from_any_folder() {
    // A designer's own folder, without the base file: `extends "othello.rules"` names the
    // bundled game, however the variant's path is spelt (it once depended on the folder the
    // command ran in).
    let variant = common::run::temp("cli-variant-of-bundled", "mine.rules");
    let dir = std::path::Path::new(&variant).parent().unwrap();
    // A base left beside it by an earlier run would be read instead of the bundled one.
    let _ = std::fs::remove_file(dir.join("othello.rules"));
    std::fs::write(&variant, "extends \"othello.rules\"\ntitle \"Mine\"\n").unwrap();
    let variant = variant.as_str();
    let o = outflank(&["check", variant]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("ok (Mine, 8 x 8"), "{}", stdout(&o));
    let o = outflank(&["run", variant, "--games", "2", "--set", "size=6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A base file beside the variant comes first.
    let othello = std::fs::read_to_string("games/othello.rules").unwrap();
    let small = othello.replacen("param size = 8", "param size = 4", 1);
    assert_ne!(small, othello, "the bundled Othello's size parameter moved");
    std::fs::write(dir.join("othello.rules"), small).unwrap();
    let o = outflank(&["check", variant]);
    assert!(stdout(&o).contains("ok (Mine, 4 x 4"), "{}", stdout(&o));
    // A path with a folder in it names a file only.
    std::fs::write(
        dir.join("mine.rules"),
        "extends \"elsewhere/othello.rules\"\ntitle \"Mine\"\n",
    )
    .unwrap();
    let o = outflank(&["check", variant]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot load base file"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(dir.join("othello.rules")).unwrap();
}
