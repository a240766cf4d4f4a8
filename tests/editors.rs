//! The editor files in editors/: the VS Code extension's manifest, its TextMate grammar and
//! its recognition of outflank's `.rules` files (udev has the same extension). The language
//! server itself is tested in tests/lsp.rs.

use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

fn json(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// Every regular expression of a TextMate grammar (`match`, `begin`, `end`), anywhere in it.
fn expressions(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("match" | "begin" | "end", Value::String(s)) => out.push(s.clone()),
                    _ => expressions(v, out),
                }
            }
        }
        Value::Array(list) => list.iter().for_each(|v| expressions(v, out)),
        _ => {}
    }
}

/// The keywords of the language: every word the pest grammar spells out in quotes.
fn pest_keywords() -> BTreeSet<String> {
    let grammar = include_str!("../grammar/rules.pest");
    let mut words = BTreeSet::new();
    for line in grammar.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for (i, quoted) in code.split('"').enumerate() {
            if i % 2 == 1 && !quoted.is_empty() && quoted.chars().all(|c| c.is_ascii_alphabetic()) {
                words.insert(quoted.to_string());
            }
        }
    }
    words
}

#[test]
fn the_textmate_grammar_gives_every_keyword_of_the_pest_grammar_a_scope() {
    let grammar = json("editors/vscode/syntaxes/outflank.tmLanguage.json");
    assert_eq!(grammar["scopeName"], "source.outflank");
    let mut regexes = Vec::new();
    expressions(&grammar, &mut regexes);
    // A keyword has a scope when some expression lists it as a whole word.
    let listed: BTreeSet<&str> = regexes
        .iter()
        .flat_map(|r| r.split(|c: char| !c.is_ascii_alphanumeric()))
        .collect();
    let keywords = pest_keywords();
    assert!(
        keywords.len() > 80,
        "the grammar's keywords were not found: {keywords:?}"
    );
    let missing: Vec<&String> = keywords
        .iter()
        .filter(|k| !listed.contains(k.as_str()))
        .collect();
    assert!(missing.is_empty(), "keywords with no scope: {missing:?}");
    // Every `include` names a rule of the grammar's repository.
    let text = serde_json::to_string(&grammar).unwrap();
    for include in text.split("\"include\":\"#").skip(1) {
        let name = include.split('"').next().unwrap();
        assert!(grammar["repository"].get(name).is_some(), "no rule {name}");
    }
}

#[test]
fn the_extension_manifest_names_files_that_exist() {
    let manifest = json("editors/vscode/package.json");
    let language = &manifest["contributes"]["languages"][0];
    let grammar = &manifest["contributes"]["grammars"][0];
    assert_eq!(language["id"], grammar["language"]);
    assert_eq!(grammar["scopeName"], "source.outflank");
    // `.rules` is not claimed by extension: udev's files have it too (see detect.js).
    assert!(language.get("extensions").is_none());
    let dir = format!("{}/editors/vscode", env!("CARGO_MANIFEST_DIR"));
    for file in [
        &grammar["path"],
        &language["configuration"],
        &manifest["main"],
    ] {
        let path = format!("{dir}/{}", file.as_str().unwrap());
        assert!(std::path::Path::new(&path).exists(), "{path} is missing");
    }
    let config = json("editors/vscode/language-configuration.json");
    assert_eq!(config["comments"]["lineComment"], "//");
    // The extension asks for the same language id it declares.
    let extension = include_str!("../editors/vscode/extension.js");
    let id = language["id"].as_str().unwrap();
    assert!(extension.contains(&format!("\"{id}\"")));
}

/// Runs a script with Node.js (the extension's runtime) from editors/vscode.
fn node(script: &str) -> String {
    let out = Command::new("node")
        .args(["-e", script])
        .current_dir(format!("{}/editors/vscode", env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("Node.js runs the extension's scripts; .ci/run installs it");
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_extension_takes_outflank_files_and_leaves_udev_rules_alone() {
    let mut games: Vec<String> = std::fs::read_dir(format!("{}/games", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    games.sort();
    let udev = "# Give the serial adapter a stable name\n\
                ACTION==\"add\", SUBSYSTEM==\"tty\", ATTRS{idVendor}==\"0403\", SYMLINK+=\"ftdi\"\n";
    let header = "// outflank\n// my variant, items below\n";
    let script = format!(
        "const d = require('./detect.js'); const fs = require('fs');\n\
         for (const f of {games:?}) console.log(f, d.isOutflankRules(fs.readFileSync(f, 'utf8')));\n\
         console.log('udev', d.isOutflankRules({udev:?}));\n\
         console.log('header', d.isOutflankRules({header:?}));\n\
         console.log('empty', d.isOutflankRules(''));"
    );
    let out = node(&script);
    let verdicts: Vec<(&str, &str)> = out.lines().map(|l| l.rsplit_once(' ').unwrap()).collect();
    assert_eq!(verdicts.len(), games.len() + 3);
    for (name, verdict) in &verdicts[..games.len()] {
        assert_eq!(*verdict, "true", "{name} was not recognised");
    }
    assert_eq!(
        verdicts[games.len()..],
        [("udev", "false"), ("header", "true"), ("empty", "false")]
    );
    // The item words the extension knows are the language's.
    let words = node("console.log(require('./detect.js').ITEM_WORDS.join(' '))");
    let words: Vec<&str> = words.split_whitespace().collect();
    assert_eq!(words, outflank::syntax::ITEM_WORDS);
    // The extension's entry point is valid JavaScript, and every expression of the grammar
    // is a regular expression (TextMate's Oniguruma reads these as JavaScript does).
    node("require('child_process').execFileSync(process.execPath, ['--check', 'extension.js'])");
    let mut regexes = Vec::new();
    expressions(
        &json("editors/vscode/syntaxes/outflank.tmLanguage.json"),
        &mut regexes,
    );
    node(&format!("for (const r of {regexes:?}) new RegExp(r);"));
}
