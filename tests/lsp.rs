//! `outflank lsp` as an editor meets it: the tests start the real process and speak JSON-RPC
//! to it (tests/common/lsp.rs), then check each answer against the text they sent: ranges are
//! worked out here from the text, in UTF-16 or in bytes.

use crate::common::lsp::{position, position_of, uri, Client};
use serde_json::{json, Value};
use std::path::PathBuf;

/// A fresh folder for a test's files, under target/ like every test's files (in the system's
/// temporary folder, one was left behind per test and run).
pub(crate) fn folder(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lsp-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rules with a parameter, a region, a def, a line, a counter-free turn and an example: the
/// names every test below points at.
pub(crate) const BASE: &str = r#"// outflank
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

pub(crate) fn range_of(text: &str, needle: &str, n: usize, utf8: bool) -> Value {
    json!({
        "start": position_of(text, needle, n, 0, utf8),
        "end": position_of(text, needle, n, needle.len(), utf8),
    })
}

pub(crate) fn at(uri: &str, pos: Value) -> Value {
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
