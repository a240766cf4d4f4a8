//! `outflank lsp` as an editor meets it: the tests start the real process and speak JSON-RPC
//! to it (tests/common/lsp.rs), then check each answer against the text they sent: ranges are
//! worked out here from the text, in UTF-16 or in bytes.

use crate::common::lsp::{position, position_of, uri, Client, Edits};
use serde_json::{json, Value};
use std::path::PathBuf;

/// A fresh folder for a test's files, under target/ like every test's files (in the system's
/// temporary folder, one was left behind per test and run).
fn folder(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lsp-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rules with a parameter, a region, a def, a line, a counter-free turn and an example: the
/// names every test below points at.
const BASE: &str = r#"// outflank
title "Base"
param size = 8 in 4 to 12 step 2
board size x size
player black 'B'
player white 'W'
first black
region inner = all - border
def mine(p) = count(p & inner)
setup {
  white on d4, e5
  black on e4, d5
}
line outflank = opponent+ friend
turn {
  choose c in empty where some(captured(outflank, c)) {
    place c
    flip captured(outflank, c)
  }
}
end when blocked
score p = count(p) + mine(p)
example "opening" {
  expect legal "d3 c4 f5 e6"
}
"#;

fn range_of(text: &str, needle: &str, n: usize, utf8: bool) -> Value {
    json!({
        "start": position_of(text, needle, n, 0, utf8),
        "end": position_of(text, needle, n, needle.len(), utf8),
    })
}

fn at(uri: &str, pos: Value) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": pos })
}

#[test]
fn three_errors_then_two_after_an_incremental_fix_at_utf16_and_utf8_columns() {
    // Each error sits after characters whose UTF-16, UTF-8 and char counts differ (é is one
    // unit and two bytes, 🙂 two units and four bytes), so a column counted wrongly shows.
    let text = BASE.replace("first black", "first blak").replace(
        "title \"Base\"",
        "title \"Base é🙂\" region q = cells(a1) | innr",
    ) + "region r = cells(a1) | mystery\n";
    for utf8 in [false, true] {
        let dir = folder(&format!("errors-{utf8}"));
        let path = dir.join("three.rules");
        std::fs::write(&path, &text).unwrap();
        let u = uri(&path);
        let mut c = Client::start(utf8);
        c.open(&u, &text);
        let diags = c.diagnostics(&u);
        let mut ranges: Vec<Value> = diags.iter().map(|d| d["range"].clone()).collect();
        let mut want = vec![
            range_of(&text, "blak", 0, utf8),
            range_of(&text, "innr", 0, utf8),
            range_of(&text, "mystery", 0, utf8),
        ];
        let key = |v: &Value| {
            (
                v["start"]["line"].as_u64(),
                v["start"]["character"].as_u64(),
            )
        };
        ranges.sort_by_key(key);
        want.sort_by_key(key);
        assert_eq!(ranges, want, "{diags:#?}");
        assert!(diags.iter().all(|d| d["severity"] == 1));
        // The messages are the checker's, with its label and help.
        let blak = diags
            .iter()
            .find(|d| d["message"].as_str().unwrap().contains("blak"))
            .unwrap();
        let message = blak["message"].as_str().unwrap();
        assert!(message.starts_with("unknown player `blak`"), "{message}");
        assert!(message.contains("help: did you mean `black`?"), "{message}");

        // Fix `innr` by replacing just that word.
        let innr = range_of(&text, "innr", 0, utf8);
        let r = [
            innr["start"]["line"].as_u64().unwrap() as u32,
            innr["start"]["character"].as_u64().unwrap() as u32,
            innr["end"]["line"].as_u64().unwrap() as u32,
            innr["end"]["character"].as_u64().unwrap() as u32,
        ];
        c.change(&u, 2, r, "inner");
        let diags = c.diagnostics(&u);
        let fixed = text.replacen("innr", "inner", 1);
        let mut ranges: Vec<Value> = diags.iter().map(|d| d["range"].clone()).collect();
        ranges.sort_by_key(key);
        assert_eq!(
            ranges,
            vec![
                range_of(&fixed, "blak", 0, utf8),
                range_of(&fixed, "mystery", 0, utf8)
            ]
        );
        assert!(c.shut_down().success());
    }
}

#[test]
fn an_error_in_a_base_file_shows_in_the_base_and_at_the_variants_extends() {
    let dir = folder("base-error");
    let base = BASE.replace("first black", "first blak");
    std::fs::write(dir.join("base.rules"), &base).unwrap();
    let variant = "extends \"base.rules\"\ntitle \"Variant\"\nset size = 6\n";
    let vpath = dir.join("variant.rules");
    std::fs::write(&vpath, variant).unwrap();
    let (vu, bu) = (uri(&vpath), uri(&dir.join("base.rules")));
    let mut c = Client::start(false);
    c.open(&vu, variant);
    let in_base = c.diagnostics(&bu);
    assert_eq!(in_base.len(), 1, "{in_base:#?}");
    assert_eq!(in_base[0]["range"], range_of(&base, "blak", 0, false));
    let in_variant = c.diagnostics(&vu);
    assert_eq!(in_variant.len(), 1, "{in_variant:#?}");
    assert_eq!(
        in_variant[0]["range"],
        range_of(variant, "\"base.rules\"", 0, false)
    );
    let message = in_variant[0]["message"].as_str().unwrap();
    assert!(message.contains("base.rules") && message.contains("unknown player `blak`"));

    // The base opened and fixed in the editor, unsaved: the variant is checked against it.
    c.open(&bu, &base);
    let _ = c.diagnostics(&bu);
    let _ = c.diagnostics(&vu);
    let line = base.lines().position(|l| l == "first blak").unwrap() as u32;
    c.change(&bu, 2, [line, 6, line, 10], "black");
    assert_eq!(c.diagnostics(&bu), Vec::<Value>::new());
    assert_eq!(c.diagnostics(&vu), Vec::<Value>::new());
}

#[test]
fn a_variant_of_a_bundled_game_checks_as_on_the_command_line() {
    // No base file beside the variant: `extends "othello.rules"` names the bundled game, as
    // `outflank check` reads it; a name that is no bundled game is still an error there.
    let dir = folder("bundled-base");
    let variant = "extends \"othello.rules\"\ntitle \"Mine\"\nset size = 6\n";
    let vpath = dir.join("mine.rules");
    std::fs::write(&vpath, variant).unwrap();
    let vu = uri(&vpath);
    let mut c = Client::start(false);
    c.open(&vu, variant);
    assert_eq!(c.diagnostics(&vu), Vec::<Value>::new());
    // The bundled base has no file: no definition leads there, references stay in the
    // variant, and a name it declares is not renamed (its uses there could not change).
    let size = position_of(variant, "size", 0, 0, false);
    let def = c.request("textDocument/definition", at(&vu, size.clone()));
    assert_eq!(def, Value::Null);
    let file = c.request(
        "textDocument/definition",
        at(&vu, position_of(variant, "othello.rules", 0, 1, false)),
    );
    assert_eq!(file, Value::Null);
    let refs = c.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": vu }, "position": size,
                "context": { "includeDeclaration": true } }),
    );
    assert_eq!(
        refs,
        json!([{ "uri": vu, "range": range_of(variant, "size", 0, false) }])
    );
    let renamed = c.call(
        "textDocument/rename",
        json!({ "textDocument": { "uri": vu }, "position": size, "newName": "side" }),
    );
    let message = renamed["error"]["message"].as_str().unwrap();
    assert!(message.contains("bundled game"), "{message}");
    // A variant that breaks the bundled base (its setup needs an even size): the errors show
    // at the `extends`, and nothing is published for the base, which has no file.
    let broken = variant.replace("set size = 6", "param size = 3");
    c.change(&vu, 2, [0, 0, 999, 0], &broken);
    let errors = c.diagnostics(&vu);
    assert!(!errors.is_empty(), "{errors:#?}");
    for e in &errors {
        assert_eq!(e["range"], range_of(&broken, "\"othello.rules\"", 0, false));
        let message = e["message"].as_str().unwrap();
        assert!(message.contains("must be a whole number"), "{message}");
        assert!(e.get("relatedInformation").is_none(), "{e}");
    }
    let _ = c.request(
        "textDocument/definition",
        at(&vu, position_of(&broken, "size", 0, 0, false)),
    );
    let base = uri(&dir.join("othello.rules"));
    assert!(
        !c.published_for(&base),
        "diagnostics for a base with no file"
    );
    c.change(&vu, 3, [0, 0, 999, 0], variant);
    assert_eq!(c.diagnostics(&vu), Vec::<Value>::new());
    let unknown = variant.replace("othello.rules", "no-such-game.rules");
    c.change(
        &vu,
        2,
        [0, 0, 1, 0],
        &format!("{}\n", unknown.lines().next().unwrap()),
    );
    let errors = c.diagnostics(&vu);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(
        errors[0]["range"],
        range_of(&unknown, "\"no-such-game.rules\"", 0, false)
    );
}

#[test]
fn hover_tells_of_built_ins_keywords_names_and_parameters() {
    let dir = folder("hover");
    let path = dir.join("h.rules");
    std::fs::write(&path, BASE).unwrap();
    let u = uri(&path);
    let mut c = Client::start(false);
    c.open(&u, BASE);
    let mut hover = |needle: &str, n: usize| -> String {
        let r = c.request(
            "textDocument/hover",
            at(&u, position_of(BASE, needle, n, 1, false)),
        );
        r["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    // A built-in: its row of docs/LANGUAGE.md and an example from there.
    let captured = hover("captured", 0);
    assert!(captured.contains("see line patterns"), "{captured}");
    assert!(captured.contains("```rules"), "{captured}");
    // A keyword of the turn program.
    let flip = hover("flip", 0);
    assert!(flip.contains("becomes the mover's"), "{flip}");
    // A parameter where it is used: its range and default.
    let size = hover("size", 1);
    assert!(size.contains("parameter `size`"), "{size}");
    assert!(
        size.contains("default `8`") && size.contains("4 to 12 step 2"),
        "{size}"
    );
    // A region and a def: what they are and their declaration.
    let inner = hover("inner", 1);
    assert!(
        inner.contains("region `inner`") && inner.contains("all - border"),
        "{inner}"
    );
    let mine = hover("mine", 1);
    assert!(mine.contains("def `mine`"), "{mine}");
    // A variable bound by choose.
    let var = hover("captured(outflank, c)", 0);
    assert!(!var.is_empty());
    let cell = c.request(
        "textDocument/hover",
        at(&u, position_of(BASE, "place c", 0, 6, false)),
    );
    let cell = cell["contents"]["value"].as_str().unwrap();
    assert!(
        cell.starts_with("variable `c`") && cell.contains("choose"),
        "{cell}"
    );
}

#[test]
fn every_built_in_and_keyword_has_a_hover_from_the_language_reference() {
    let words: Vec<&str> = outflank::check::FUNCTIONS
        .iter()
        .chain(outflank::check::STATE_NAMES)
        .chain(outflank::syntax::STATEMENT_WORDS)
        .chain(outflank::syntax::ITEM_WORDS)
        .copied()
        .collect();
    // Any text will do: a built-in's hover reads the word, not the rules.
    let text = words.join(" ");
    let dir = folder("words");
    let u = uri(&dir.join("w.rules"));
    let mut c = Client::start(false);
    c.open(&u, &text);
    let mut offset = 0;
    let mut missing = Vec::new();
    for w in &words {
        let r = c.request("textDocument/hover", at(&u, position(&text, offset, false)));
        let value = r["contents"]["value"].as_str().unwrap_or_default();
        if !value.contains(w) {
            missing.push(*w);
        }
        offset += w.len() + 1;
    }
    assert!(missing.is_empty(), "no hover for {missing:?}");
}

#[test]
fn definition_and_references_follow_names_across_extends() {
    let dir = folder("definition");
    std::fs::write(dir.join("base.rules"), BASE).unwrap();
    let variant = "extends \"base.rules\"\nregion edge = border - inner\nscore p = count(p & edge) + mine(p)\n";
    let vpath = dir.join("variant.rules");
    std::fs::write(&vpath, variant).unwrap();
    let (vu, bu) = (uri(&vpath), uri(&dir.join("base.rules")));
    let mut c = Client::start(false);
    c.open(&vu, variant);
    // `inner`, declared in the base.
    let def = c.request(
        "textDocument/definition",
        at(&vu, position_of(variant, "inner", 0, 2, false)),
    );
    assert_eq!(def["uri"], bu);
    assert_eq!(def["range"], range_of(BASE, "inner", 0, false));
    // The extends string: the base file itself.
    let file = c.request(
        "textDocument/definition",
        at(&vu, position_of(variant, "base.rules", 0, 1, false)),
    );
    assert_eq!(file["uri"], bu);
    // A region of the variant, used below its declaration.
    let edge = c.request(
        "textDocument/definition",
        at(&vu, position_of(variant, "edge", 1, 0, false)),
    );
    assert_eq!(edge["uri"], vu);
    assert_eq!(edge["range"], range_of(variant, "edge", 0, false));
    // References of `inner`: its declaration and both uses in the base, the variant's, and
    // the use in another variant beside them on disk, which is not open.
    let other = "extends \"base.rules\"\nscore p = count(p & inner)\n";
    std::fs::write(dir.join("other.rules"), other).unwrap();
    let ou = uri(&dir.join("other.rules"));
    let refs = c.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": vu }, "position": position_of(variant, "inner", 0, 0, false),
                "context": { "includeDeclaration": true } }),
    );
    let mut found: Vec<(String, Value)> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["uri"].as_str().unwrap().to_string(), l["range"].clone()))
        .collect();
    found.sort_by_key(|(u, r)| (u.clone(), r["start"]["line"].as_u64()));
    let mut want = vec![
        (bu.clone(), range_of(BASE, "inner", 0, false)),
        (bu.clone(), range_of(BASE, "inner", 1, false)),
        (ou.clone(), range_of(other, "inner", 0, false)),
        (vu.clone(), range_of(variant, "inner", 0, false)),
    ];
    want.sort_by_key(|(u, r)| (u.clone(), r["start"]["line"].as_u64()));
    assert_eq!(found, want);
    // Without the declaration: the uses alone.
    let uses = c.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": vu }, "position": position_of(variant, "inner", 0, 0, false),
                "context": { "includeDeclaration": false } }),
    );
    assert_eq!(uses.as_array().unwrap().len(), 3);
    // Renaming it from the variant edits all three files.
    let edit = c.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": vu }, "position": position_of(variant, "inner", 0, 0, false), "newName": "middle" }),
    );
    let files: Vec<&String> = edit["changes"].as_object().unwrap().keys().collect();
    assert_eq!(files.len(), 3, "{edit}");
    assert_eq!(edit["changes"][&bu].as_array().unwrap().len(), 2);
}

#[test]
fn completion_offers_what_fits_at_the_cursor() {
    let dir = folder("completion");
    let u = uri(&dir.join("c.rules"));
    // Half-typed: the turn's `flip` has no operand yet, and the file does not parse. The
    // names come from the last text that parsed.
    let mut c = Client::start(false);
    c.open(&u, BASE);
    let _ = c.diagnostics(&u);
    let line = BASE
        .lines()
        .position(|l| l.trim() == "flip captured(outflank, c)")
        .unwrap() as u32;
    c.change(&u, 2, [line, 4, line, 30], "fl");
    let text = BASE.replace("    flip captured(outflank, c)", "    fl");
    let labels = |c: &mut Client, pos: Value| -> Vec<String> {
        let r = c.request("textDocument/completion", at(&u, pos));
        r.as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // 1. At a statement's start inside the turn: statements, and the choice's variable `c`.
    let here = labels(&mut c, position_of(&text, "    fl", 0, 6, false));
    for want in [
        "flip", "place", "choose", "c", "inner", "mine", "captured", "size",
    ] {
        assert!(here.contains(&want.to_string()), "{want} not in {here:?}");
    }
    // A built-in comes with its description from the reference.
    let items = c.request(
        "textDocument/completion",
        at(&u, position_of(&text, "    fl", 0, 6, false)),
    );
    let flip = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "flip")
        .unwrap();
    let doc = flip["documentation"]["value"].as_str().unwrap();
    assert!(doc.contains("becomes the mover's"), "{doc}");
    // ... but not the `score` item's `p`, out of its scope.
    assert!(!here.contains(&"p".to_string()), "{here:?}");
    // 2. At the start of a line outside any block: the items.
    let top = labels(&mut c, position_of(&text, "end when", 0, 0, false));
    for want in ["region", "turn", "param", "example", "extends"] {
        assert!(top.contains(&want.to_string()), "{want} not in {top:?}");
    }
    assert!(!top.contains(&"flip".to_string()));
    // 3. After `along`: the direction sets, the file's own first.
    let mut c2 = Client::start(false);
    let base2 = format!("{BASE}directions forward = north, northeast\n");
    let text2 = base2.replace(
        "line outflank = opponent+ friend",
        "line outflank = opponent+ friend along ",
    );
    c2.open(&u, &base2);
    let _ = c2.diagnostics(&u);
    let line = base2
        .lines()
        .position(|l| l.starts_with("line outflank"))
        .unwrap() as u32;
    c2.change(&u, 2, [line, 32, line, 32], " along ");
    let along = labels(&mut c2, position_of(&text2, "along ", 0, 6, false));
    for want in ["forward", "orthogonal", "north"] {
        assert!(along.contains(&want.to_string()), "{want} not in {along:?}");
    }
    assert!(!along.contains(&"inner".to_string()), "{along:?}");
}

#[test]
fn rename_changes_every_use_and_refuses_a_keyword_or_a_built_in() {
    let dir = folder("rename");
    let path = dir.join("r.rules");
    let u = uri(&path);
    let mut c = Client::start(false);
    c.open(&u, BASE);
    let pos = position_of(BASE, "inner", 1, 0, false);
    let prepared = c.request("textDocument/prepareRename", at(&u, pos.clone()));
    assert_eq!(prepared["placeholder"], "inner");
    let edit = c.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": u }, "position": pos, "newName": "middle" }),
    );
    let edits = edit["changes"][&u].as_array().unwrap();
    let mut ranges: Vec<Value> = edits.iter().map(|e| e["range"].clone()).collect();
    ranges.sort_by_key(|r| r["start"]["line"].as_u64());
    assert_eq!(
        ranges,
        vec![
            range_of(BASE, "inner", 0, false),
            range_of(BASE, "inner", 1, false)
        ]
    );
    assert!(edits.iter().all(|e| e["newText"] == "middle"));
    // The renamed file checks as the original did.
    let renamed = BASE.replace("inner", "middle");
    c.change(&u, 2, [0, 0, 999, 0], &renamed);
    let _ = c.diagnostics(&u);
    assert_eq!(c.diagnostics(&u), Vec::<Value>::new());
    // A keyword and a built-in are refused with an error, and the server goes on.
    let bad = c.call(
        "textDocument/rename",
        json!({ "textDocument": { "uri": u }, "position": position_of(&renamed, "middle", 0, 0, false), "newName": "turn" }),
    );
    assert!(bad["error"]["message"]
        .as_str()
        .unwrap()
        .contains("cannot be a name"));
    let builtin = c.call(
        "textDocument/prepareRename",
        at(&u, position_of(&renamed, "count", 0, 0, false)),
    );
    assert!(builtin.get("error").is_some(), "{builtin}");
    // So is a rename to one of the language's own sets or functions, which the file would then
    // shadow (`size` to `empty` once went through and broke the file).
    for taken in ["empty", "all", "count", "some"] {
        let clash = c.call(
            "textDocument/rename",
            json!({ "textDocument": { "uri": u }, "position": position_of(&renamed, "middle", 0, 0, false), "newName": taken }),
        );
        let message = clash["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("`{taken}` is a name the language has already")),
            "{clash}"
        );
    }
    // And the server goes on answering.
    let prepared = c.request(
        "textDocument/prepareRename",
        at(&u, position_of(&renamed, "middle", 0, 0, false)),
    );
    assert_eq!(prepared["placeholder"], "middle");
}

#[test]
fn formatting_is_fmt_and_symbols_outline_the_file() {
    let dir = folder("format");
    let u = uri(&dir.join("f.rules"));
    let messy = BASE
        .replace("    place c", "place c")
        .replace("  white on", "      white on");
    let mut c = Client::start(false);
    c.open(&u, &messy);
    let edits = c.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["newText"], outflank::format::format(&messy));
    assert_eq!(edits[0]["newText"], BASE);
    // The outline: every named item, in order.
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": u } }),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Base",
            "size",
            "board",
            "black",
            "white",
            "inner",
            "mine",
            "setup",
            "outflank",
            "turn",
            "end",
            "score",
            "example \"opening\""
        ]
    );
}

#[test]
fn a_suggestion_becomes_a_quick_fix_and_an_example_runs_from_its_lens() {
    let dir = folder("actions");
    let u = uri(&dir.join("a.rules"));
    let text = BASE.replace("first black", "first blak");
    let mut c = Client::start(false);
    c.open(&u, &text);
    let diags = c.diagnostics(&u);
    assert_eq!(diags[0]["data"]["suggestion"], "black");
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": u }, "range": diags[0]["range"], "context": { "diagnostics": diags } }),
    );
    let fix = &actions[0];
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["edit"]["changes"][&u][0]["newText"], "black");
    assert_eq!(
        fix["edit"]["changes"][&u][0]["range"],
        range_of(&text, "blak", 0, false)
    );

    // The example's lens runs it: a passing one, then one made to fail.
    c.change(&u, 2, [0, 0, 999, 0], BASE);
    let lenses = c.request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": u } }),
    );
    let lens = &lenses[0];
    assert_eq!(lens["range"], range_of(BASE, "\"opening\"", 0, false));
    let run = |c: &mut Client| {
        c.request(
            "workspace/executeCommand",
            json!({ "command": lens["command"]["command"], "arguments": lens["command"]["arguments"] }),
        )
    };
    let passed = run(&mut c);
    assert_eq!(passed["passed"], true, "{passed}");
    let failing = BASE.replace(
        "expect legal \"d3 c4 f5 e6\"",
        "play \"d3\"\n  expect board \"......../......../...B..../...BB.../...BB.../......../......../........\"",
    );
    c.change(&u, 3, [0, 0, 999, 0], &failing);
    let failed = run(&mut c);
    assert_eq!(failed["passed"], false);
    let message = failed["message"].as_str().unwrap();
    assert!(
        message.contains("expected") && message.contains("actual"),
        "{message}"
    );
    // The row that differs is marked.
    assert!(message.contains("*  5 ...BB...   ...BW..."), "{message}");
}

#[test]
fn bad_input_never_stops_the_server() {
    let dir = folder("robust");
    let u = uri(&dir.join("x.rules"));
    let mut c = Client::start(false);
    // Requests about a document never opened, and a change before the open.
    let r = c.call(
        "textDocument/hover",
        at(&u, json!({ "line": 0, "character": 0 })),
    );
    assert!(r.get("error").is_none() || r["error"]["code"].is_number());
    c.change(&u, 1, [0, 0, 0, 0], "junk");
    // A method it does not know, and parameters of the wrong shape.
    let unknown = c.call("textDocument/teleport", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    let shapeless = c.call("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(shapeless["error"]["code"], -32602);
    // Random bytes as a document, and positions far past its end.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let junk: String = (0..3000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from_u32((state % 0x3000) as u32).unwrap_or('?')
        })
        .collect();
    c.open(&u, &junk);
    let _ = c.diagnostics(&u);
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/prepareRename",
    ] {
        let r = c.call(method, at(&u, json!({ "line": 9999, "character": 9999 })));
        assert!(r.get("result").is_some() || r.get("error").is_some());
    }
    let f = c.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    assert!(f["error"]["message"]
        .as_str()
        .unwrap()
        .contains("does not parse"));
    // A document too large to be rules is refused with one diagnostic, not checked.
    let huge = "region r = all\n".repeat(400_000);
    c.change(&u, 3, [0, 0, 99999, 0], &huge);
    let refused = c.diagnostics(&u);
    assert_eq!(refused.len(), 1);
    assert!(refused[0]["message"]
        .as_str()
        .unwrap()
        .contains("larger than 4 MB"));
    let _ = c.call(
        "textDocument/completion",
        at(&u, json!({ "line": 5, "character": 3 })),
    );
    c.change(&u, 3, [0, 0, 999_999, 0], &junk);
    let _ = c.diagnostics(&u);
    // A change whose range lies beyond the text.
    c.change(&u, 3, [500, 3, 400, 1], "x");
    let _ = c.diagnostics(&u);
    // Still answering.
    c.change(&u, 4, [0, 0, 99999, 0], BASE);
    assert_eq!(c.diagnostics(&u), Vec::<Value>::new());
    assert!(c.shut_down().success());
}

/// Random insertions and deletions in every bundled game, each sent as an incremental change:
/// the server answers every one with diagnostics and stays up. (How fast: benches/lsp.rs.)
#[test]
fn a_thousand_random_edits_never_crash_the_server() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut games: Vec<PathBuf> = std::fs::read_dir("games")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    games.sort();
    let mut c = Client::start(false);
    let mut random = Edits::new(0x9e37_79b9_7f4a_7c15);
    let mut edits = 0;
    for game in &games {
        let path = std::fs::canonicalize(game).unwrap();
        let u = uri(&path);
        let mut text = std::fs::read_to_string(&path).unwrap();
        c.open(&u, &text);
        let _ = c.diagnostics(&u);
        for version in 2..2 + 1000 / games.len() + 1 {
            let (range, insert) = random.apply(&mut text);
            c.change(&u, version as i64, range, insert);
            let _ = c.diagnostics(&u);
            edits += 1;
            if edits % 50 == 0 {
                // Other requests at the edited text, also answered.
                let pos = random.position(&text);
                let _ = c.call("textDocument/completion", at(&u, pos.clone()));
                let _ = c.call("textDocument/hover", at(&u, pos));
            }
        }
        // The server's text is the test's: formatting it changes only what fmt changes.
        let f = c.call(
            "textDocument/formatting",
            json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } }),
        );
        if let Some(edits) = f["result"].as_array() {
            if let Some(e) = edits.first() {
                assert_eq!(e["newText"], outflank::format::format(&text));
            }
        }
    }
    assert!(edits >= 1000);
    assert!(c.shut_down().success());
}

/// Frames no client should send (issue 83, R3): each gets a JSON-RPC error, the server reads
/// on and answers the next request, and no length a frame claims is allocated.
#[test]
fn malformed_frames_get_errors_and_the_server_keeps_answering() {
    let dir = folder("frames");
    let u = uri(&dir.join("x.rules"));
    let mut c = Client::start(false);
    c.open(&u, BASE);
    assert_eq!(c.diagnostics(&u), Vec::<Value>::new());
    let mut past_the_limit = b"Content-Length: 20000000\r\n\r\n".to_vec();
    past_the_limit.resize(past_the_limit.len() + 20_000_000, b'x');
    let framed = |body: &[u8]| {
        let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        f.extend_from_slice(body);
        f
    };
    let cases: Vec<(&str, Vec<u8>, Value, i64)> = vec![
        (
            "a frame past the limit",
            past_the_limit,
            Value::Null,
            -32700,
        ),
        (
            "a body that is not UTF-8",
            framed(b"\"\xff\xfe\""),
            Value::Null,
            -32700,
        ),
        (
            "a body that is not JSON",
            framed(b"{\"id\": 4,"),
            Value::Null,
            -32700,
        ),
        (
            "JSON that is no message",
            framed(br#"{"id":5,"method":7}"#),
            json!(5),
            -32600,
        ),
        (
            "a length that overflows",
            b"Content-Length: 18446744073709551616\r\n\r\n".to_vec(),
            Value::Null,
            -32700,
        ),
        (
            "no length",
            b"Content-Type: text/plain\r\n\r\n".to_vec(),
            Value::Null,
            -32700,
        ),
        (
            "a line that is no header",
            b"hello\r\n\r\n".to_vec(),
            Value::Null,
            -32700,
        ),
        // The body's last byte is left over, glued to the next frame's header: the header is
        // found after it.
        (
            "a length one short",
            b"Content-Length: 2\r\n\r\n[1]".to_vec(),
            Value::Null,
            -32700,
        ),
    ];
    for (what, bytes, id, code) in cases {
        c.send_raw(&bytes);
        let error = c.error_for(&id);
        assert_eq!(error["code"], code, "{what}: {error}");
        let hover = c.call(
            "textDocument/hover",
            at(&u, position_of(BASE, "captured", 0, 2, false)),
        );
        assert!(
            hover["result"]["contents"].is_object(),
            "{what}: the next request gets {hover}"
        );
    }
    // Lengths that once aborted the server or took gigabytes: refused as they are read. The
    // frame's body would be all that follows, so each is the last thing sent.
    for length in ["1000000000000", "18446744073709551615", "3000000000"] {
        let mut c = Client::start(false);
        c.send_raw(format!("Content-Length: {length}\r\n\r\n{{}}").as_bytes());
        let error = c.error_for(&Value::Null);
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("larger than the limit"),
            "{error}"
        );
        assert!(
            c.peak_memory() < 200 << 20,
            "{length}: {} bytes",
            c.peak_memory()
        );
        assert!(c.close_input().success(), "{length}");
    }
    assert!(c.shut_down().success());
}

/// Edits typed faster than a large file is checked (issue 83, R3): they are applied in order
/// and checked together, not once each, and the diagnostics that follow are the last text's.
#[test]
fn edits_that_come_during_a_check_are_checked_together() {
    let dir = folder("coalesce");
    let u = uri(&dir.join("x.rules"));
    // About 1.5 MB of rules: a chain of regions, each read by the next (only the last one is
    // unused, one warning), and a comment at the end, where the typing goes.
    let mut text = BASE.to_string();
    text.push_str("region r0 = inner - corners\n");
    for i in 1..40_000 {
        text.push_str(&format!("region r{i} = r{} - corners\n", i - 1));
    }
    text.push_str("// typed: ");
    let line = text.matches('\n').count() as u32;
    let mut column = text.len() - text.rfind('\n').unwrap() - 1;
    let mut c = Client::start(false);
    c.open(&u, &text);
    let before = c.diagnostics(&u);
    assert_eq!(before.len(), 1, "{before:?}");
    let keystrokes = 200;
    for version in 0..keystrokes {
        let at = column as u32;
        c.change(&u, 2 + version, [line, at, line, at], "x");
        column += 1;
    }
    // The last edit leaves a syntax error, which the last diagnostics must show.
    let at = column as u32;
    c.change(&u, 2 + keystrokes, [line, at, line, at], "\nregion = ");
    let mut published = 0;
    loop {
        let diagnostics = c.diagnostics(&u);
        published += 1;
        if diagnostics.iter().any(|d| d["severity"] == 1) {
            break;
        }
    }
    assert!(published <= 20, "{published} checks for {keystrokes} edits");
    assert!(c.shut_down().success());
}
