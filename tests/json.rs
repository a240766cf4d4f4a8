//! The JSON documents the commands write, held to their reference (docs/JSON.md): each
//! command's output has exactly the fields its table lists, in that order, of the types it
//! gives; and numbers are the values they stand for.

use crate::common::run::{outflank, stderr};
use serde_json::Value;

/// The tables of docs/JSON.md: per heading (the command as written there), each field and
/// its type.
fn documented() -> Vec<(String, Vec<(String, String)>)> {
    let text = include_str!("../docs/JSON.md");
    let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            out.push((heading.trim_matches('`').to_string(), Vec::new()));
        } else if let (Some(rest), Some((_, fields))) = (line.strip_prefix("| `"), out.last_mut()) {
            let cells: Vec<&str> = rest.split(" | ").collect();
            let field = cells[0].trim_end_matches('`').to_string();
            fields.push((field, cells[1].trim().to_string()));
        }
    }
    out
}

/// Whether `v` is of the documented type (`number` takes whole numbers too).
fn is_of(v: &Value, ty: &str) -> bool {
    ty.split(" or ").any(|t| match t {
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "null" => v.is_null(),
        other => panic!("docs/JSON.md names no such type: {other}"),
    })
}

/// Every number in `v` that has a fraction.
fn fractions(v: &Value, out: &mut Vec<f64>) {
    match v {
        Value::Number(n) if n.is_f64() => out.push(n.as_f64().unwrap()),
        Value::Array(items) => items.iter().for_each(|i| fractions(i, out)),
        Value::Object(fields) => fields.values().for_each(|i| fractions(i, out)),
        _ => {}
    }
}

#[test]
fn every_document_has_the_fields_its_reference_lists() {
    // A command for each heading of the reference, with small settings.
    let commands: &[(&str, &[&str])] = &[
        (
            "outflank check --format json FILE...",
            &["check", "--format", "json", "games/othello.rules"],
        ),
        (
            "outflank info --json FILE",
            &["info", "--json", "games/othello.rules"],
        ),
        (
            "outflank moves --json FILE",
            &["moves", "--json", "games/othello.rules"],
        ),
        (
            "outflank perft --json FILE --depth N",
            &["perft", "--json", "games/othello.rules", "--depth", "3"],
        ),
        (
            "outflank run --json FILE",
            &[
                "run",
                "--json",
                "games/othello.rules",
                "--set",
                "size=6",
                "--games",
                "30",
            ],
        ),
        (
            "outflank analyse --json FILE",
            &[
                "analyse",
                "--json",
                "games/othello.rules",
                "--set",
                "size=6",
                "--games",
                "30",
            ],
        ),
        (
            "outflank analyse --json FILE --sweep NAME=V1,V2,...",
            &[
                "analyse",
                "--json",
                "games/othello.rules",
                "--set",
                "size=6",
                "--games",
                "10",
                "--sweep",
                "agent=random,greedy",
            ],
        ),
        (
            "outflank compare --json A.rules B.rules ...",
            &[
                "compare",
                "--json",
                "games/othello.rules",
                "games/anti-othello.rules",
                "--games",
                "10",
            ],
        ),
        (
            "outflank solve --json FILE",
            &["solve", "--json", "games/othello.rules", "--set", "size=4"],
        ),
        (
            "outflank bench --json [FILE...]",
            &[
                "bench",
                "--json",
                "games/othello.rules",
                "--seconds",
                "0.05",
            ],
        ),
    ];
    let docs = documented();
    let headings: Vec<&str> = docs.iter().map(|(h, _)| h.as_str()).collect();
    let run: Vec<&str> = commands.iter().map(|(h, _)| *h).collect();
    assert_eq!(
        headings, run,
        "a document without a test, or a test without a document"
    );
    let mut all_fractions = Vec::new();
    for ((heading, fields), (_, args)) in docs.iter().zip(commands) {
        let o = outflank(args);
        assert!(o.status.success(), "{heading}: {}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        assert_eq!(
            text.matches('\n').count() == 1,
            heading.starts_with("outflank perft")
        );
        let v: Value = serde_json::from_str(&text).unwrap();
        let object = v.as_object().unwrap();
        let written: Vec<&str> = object.keys().map(String::as_str).collect();
        let listed: Vec<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(written, listed, "{heading}");
        for (field, ty) in fields {
            assert!(
                is_of(&object[field], ty),
                "{heading}: {field} is not {ty}: {}",
                object[field]
            );
        }
        assert_eq!(v["schema_version"], 2);
        fractions(&v, &mut all_fractions);
    }
    // Fractions to twelve significant digits: none is a whole number written with noise, and
    // none has more digits than that.
    assert!(all_fractions.len() > 50, "{}", all_fractions.len());
    for x in all_fractions {
        assert!(x.fract() != 0.0, "{x}");
        let digits = format!("{x:e}")
            .split('e')
            .next()
            .unwrap()
            .replace(['-', '.'], "");
        assert!(digits.len() <= 12, "{x}");
    }
}
