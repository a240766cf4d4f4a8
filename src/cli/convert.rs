//! `convert`: game records between outflank's own (JSON) and the formats players already keep
//! them in (Othello transcripts, GGF, SGF), every move checked against the rules on the way.

use super::game::{load_game, Failure, GameArgs};
use clap::Args;
use outflank::apps::formats::{self, Format};
use outflank::apps::record::Record;
use std::io::IsTerminal;

// The options of `convert` (its help is the doc comment of `Command::Convert`).
#[derive(Args)]
pub(super) struct ConvertArgs {
    /// The rules the games were played by.
    rules: String,
    /// The games: a records file (`.json`, `.jsonl`), a transcript (`.txt`, one game a
    /// line), GGF (`.ggf`, one game a line) or SGF (`.sgf`).
    input: String,
    /// The format to write.
    #[arg(long, value_name = "FORMAT", value_parser = ["record", "transcript", "ggf", "sgf"])]
    to: String,
    /// The format of INPUT, where its extension does not say.
    #[arg(long, value_name = "FORMAT", value_parser = ["record", "transcript", "ggf", "sgf"])]
    from: Option<String>,
    /// Set a parameter of the rules for games whose file does not say it, e.g. --set size=6.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<String>,
}

/// The format a file's name says, None for outflank's records.
fn format_of(path: &str, named: Option<&str>) -> Result<Option<Format>, Failure> {
    let name = match named {
        Some(n) => n.to_string(),
        None => {
            let ext = std::path::Path::new(path)
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            match ext.as_str() {
                "json" | "jsonl" => "record".into(),
                "txt" => "transcript".into(),
                "ggf" | "sgf" => ext,
                _ => {
                    return Err(Failure::Message(format!(
                        "{path}: the extension does not say its format; name it with --from (record, {})",
                        Format::NAMES.join(", ")
                    )))
                }
            }
        }
    };
    Ok(Format::named(&name))
}

pub(super) fn cmd_convert(a: &ConvertArgs) -> Result<String, Failure> {
    let from = format_of(&a.input, a.from.as_deref())?;
    let to = Format::named(&a.to);
    if let Some(out) = &a.output {
        // The same file by any path (`sub/../in.sgf`, a link): compared where both resolve.
        let resolved = |p: &str| std::fs::canonicalize(p).ok();
        if std::path::Path::new(out) == std::path::Path::new(&a.input)
            || resolved(out).is_some_and(|o| Some(o) == resolved(&a.input))
        {
            return Err(Failure::Message(format!(
                "--output {out} is the input: write the converted games to another file"
            )));
        }
    }
    let mut args = GameArgs::plain(&a.rules);
    args.set.clone_from(&a.set);
    let plain = load_game(&GameArgs::plain(&a.rules))?;
    let records: Vec<Record> = match from {
        None => super::run::read_records(&a.input)?
            .into_iter()
            .map(|(_, r)| r)
            .collect(),
        Some(format) => {
            let engine = load_game(&args)?;
            let text = outflank::source::read_text(
                &a.input,
                outflank::source::MAX_RECORD_BYTES,
                "split a longer collection of games into several files",
            )?;
            let read = formats::read(&engine, format, &text, &a.rules)
                .map_err(|m| format!("{}: {m}", a.input))?;
            for unused in &read.unused {
                eprintln!(
                    "note: not kept (a record has no place for it): {}",
                    outflank::diagnostic::printable(unused)
                );
            }
            read.records
        }
    };
    let mut out = String::new();
    for (i, record) in records.iter().enumerate() {
        let where_ = format!("{}, game {}", a.input, i + 1);
        let (engine, begin) = super::run::game_of_record(&args, &plain, record, &where_)?;
        match to {
            None if records.len() == 1 => {
                out = serde_json::to_string_pretty(record).expect("records serialize") + "\n";
            }
            None => {
                out += &(serde_json::to_string(record).expect("records serialize") + "\n");
            }
            Some(format) => {
                out += &formats::write(&engine, format, record, &begin)
                    .map_err(|m| format!("{where_}: {m}"))?;
            }
        }
    }
    match &a.output {
        // A name or comment from the input may hold control characters: on a terminal they
        // are shown as escapes, never obeyed; a pipe or a file gets the text as it is.
        None if std::io::stdout().is_terminal() => {
            Ok(outflank::diagnostic::printable(&out).into_owned())
        }
        None => Ok(out),
        Some(path) => {
            std::fs::write(path, out).map_err(|e| format!("cannot write {path}: {e}"))?;
            Ok(String::new())
        }
    }
}
