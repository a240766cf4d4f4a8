//! Othello transcripts: the cells one after another (`f5d6c3`), passes left out.

use super::{at_setup, Game, Turn};
use crate::apps::record::Record;
use crate::engine::state::State;
use crate::engine::Engine;

pub(super) fn read(engine: &Engine, line: &str, rules: &str) -> Result<Record, String> {
    let g = &engine.game.geometry;
    let start = engine.start().map_err(|e| e.message.clone())?;
    let mut game = Game {
        engine,
        now: start,
        moves: Vec::new(),
    };
    let text: String = line
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let mut rest = text.as_str();
    let mut n = 0;
    while !rest.is_empty() {
        n += 1;
        let Some((_, used)) = g.parse_prefix(rest) else {
            return Err(format!(
                "move {n}: `{}` does not start with a cell of this board",
                rest.chars().take(4).collect::<String>()
            ));
        };
        // A transcript leaves passes out: whoever moves plays the next cell.
        if game.only_pass() {
            game.play("pass", None, n)?;
        }
        game.play(&rest[..used], None, n)?;
        rest = &rest[used..];
    }
    let unknown = || "unknown".to_string();
    game.into_record(rules, &start, [unknown(), unknown()], None, &mut Vec::new())
}

pub(super) fn write(
    engine: &Engine,
    record: &Record,
    start: &State,
    turns: &[Turn],
) -> Result<String, String> {
    if !at_setup(engine, start)? || record.start.is_some() {
        return Err("a transcript starts from the rules' setup, and this game does not".into());
    }
    let cells: String = turns
        .iter()
        .filter(|t| t.cell.is_some())
        .map(|t| t.text.as_str())
        .collect();
    Ok(cells + "\n")
}
