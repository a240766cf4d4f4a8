//! Game records in the formats players already keep: Othello move transcripts (`f5d6c3...`),
//! GGF (the Generic Game Format of the Generic Game Server, one game a line) and SGF (the Smart
//! Game Format of Go programs). Reading checks every move against the rules and gives a
//! [`Record`]; writing replays a record and spells it in the format. What a format cannot hold
//! (a word step, a third player, a removed cell) is an error that names it, and what a file
//! holds that a record cannot is listed back, never dropped without a word.

use super::record::{
    params_of, resignation, result_of, rules_hash, time_loss, Record, StartPosition,
};
use crate::engine::state::State;
use crate::engine::Engine;

mod ggf;
mod sgf;
mod transcript;
mod tree;

/// A format of game records other than outflank's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Moves written one after another, each a cell (`f5d6c3d3`); passes left out; from the
    /// rules' setup.
    Transcript,
    /// `(;GM[Othello]...BO[8 ... *]B[f5]W[d6]...;)`, one game a line.
    Ggf,
    /// `(;FF[4]GM[1]SZ[9];B[ee];W[dc]...)`: the main line of each game tree.
    Sgf,
}

impl Format {
    pub const NAMES: [&'static str; 3] = ["transcript", "ggf", "sgf"];

    pub fn named(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "transcript" | "txt" => Some(Format::Transcript),
            "ggf" => Some(Format::Ggf),
            "sgf" => Some(Format::Sgf),
            _ => None,
        }
    }
}

/// Games read from a file, and what in it no record holds (one line each, to tell the user).
pub struct Read {
    pub records: Vec<Record>,
    pub unused: Vec<String>,
}

/// Reads every game of `text`, written in `format`, played with `engine`'s rules (named `rules`
/// in the records).
pub fn read(engine: &Engine, format: Format, text: &str, rules: &str) -> Result<Read, String> {
    let mut out = Read {
        records: Vec::new(),
        unused: Vec::new(),
    };
    match format {
        Format::Transcript => {
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let r = transcript::read(engine, line, rules)
                    .map_err(|m| format!("line {}: {m}", i + 1))?;
                out.records.push(r);
            }
        }
        Format::Ggf => {
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let where_ = format!("line {}", i + 1);
                let trees = tree::parse(line).map_err(|m| format!("{where_}: {m}"))?;
                for tree in trees {
                    let r = ggf::read(engine, &tree.nodes, rules, &mut out.unused)
                        .map_err(|m| format!("{where_}: {m}"))?;
                    out.records.push(r);
                }
            }
        }
        Format::Sgf => {
            for (i, tree) in tree::parse(text)?.into_iter().enumerate() {
                let r = sgf::read(engine, &tree.nodes, rules, &mut out.unused)
                    .map_err(|m| format!("game {}: {m}", i + 1))?;
                if tree.skipped > 0 {
                    out.unused.push(format!(
                        "game {}: {} of other variations than the main line",
                        i + 1,
                        crate::diagnostic::count_of(tree.skipped as u64, "node")
                    ));
                }
                out.records.push(r);
            }
        }
    }
    if out.records.is_empty() {
        return Err("no games in it".into());
    }
    Ok(out)
}

/// `record` (checked by replaying it from `start`) written in `format`, ending in a newline.
pub fn write(
    engine: &Engine,
    format: Format,
    record: &Record,
    start: &State,
) -> Result<String, String> {
    if record.agreement.is_some() {
        return Err("the game ends by an agreement, which these formats do not hold".into());
    }
    let turns = replayed(engine, start, record)?;
    match format {
        Format::Transcript => transcript::write(engine, record, start, &turns),
        Format::Ggf => ggf::write(engine, record, start, &turns),
        Format::Sgf => sgf::write(engine, record, start, &turns),
    }
}

/// A turn of a record: the mover, and the cell placed (None for a pass).
pub(super) struct Turn {
    mover: u8,
    cell: Option<usize>,
    text: String,
}

/// The record's turns from `start`, each one placement or a pass: the formats hold no other.
fn replayed(engine: &Engine, start: &State, record: &Record) -> Result<Vec<Turn>, String> {
    let states = super::record::replay(engine, start, record).map_err(|m| m.to_string())?;
    let g = &engine.game.geometry;
    let mut turns = Vec::new();
    let mut before = *start;
    for (i, (text, after)) in record.moves.iter().zip(&states).enumerate() {
        let cell = match g.parse_prefix(text) {
            _ if text == "pass" => None,
            Some((cell, used)) if used == text.len() => Some(cell),
            _ => {
                return Err(format!(
                    "move {} (`{text}`) is not a placement on one cell or a pass, which is all these formats write",
                    i + 1
                ))
            }
        };
        turns.push(Turn {
            mover: before.mover,
            cell,
            text: text.clone(),
        });
        before = *after;
    }
    Ok(turns)
}

/// A board the formats can draw: two players, every cell in play, square cells.
pub(super) fn two_player_grid(engine: &Engine, format: &str) -> Result<(), String> {
    let g = &engine.game.geometry;
    if engine.game.player_count() != 2 {
        return Err(format!("{format} holds games of two players"));
    }
    if g.hex || g.playable.count() as usize != g.cells() {
        return Err(format!(
            "{format} holds boards of square cells, all in play"
        ));
    }
    Ok(())
}

/// Who played seat `p` of `record` (empty when it does not say), as the formats name players.
pub(super) fn seat_name(engine: &Engine, record: &Record, p: u8) -> String {
    record
        .players
        .get(engine.player_name(p))
        .cloned()
        .unwrap_or_default()
}

/// Whether `s` is the rules' own start.
pub(super) fn at_setup(engine: &Engine, s: &State) -> Result<bool, String> {
    let setup = engine.start().map_err(|e| e.message.clone())?;
    Ok(engine.position_rows(&setup) == engine.position_rows(s) && setup.mover == s.mover)
}

/// A record of `moves` from `start` under `engine`'s rules, with its result: the game's own
/// when it is over, else `resigned` (the player who gave up, and whether on time) when the file
/// says so.
fn record_of(
    engine: &Engine,
    rules: &str,
    start: &State,
    end: &State,
    moves: Vec<String>,
    players: [String; 2],
    resigned: Option<(u8, bool)>,
) -> Result<Record, String> {
    let result = match resigned {
        Some((p, false)) if !end.is_over() => Some(resignation(engine, end, p)),
        Some((p, true)) if !end.is_over() => Some(time_loss(engine, end, p)),
        _ => result_of(engine, end),
    };
    Ok(Record {
        rules: rules.to_string(),
        rules_hash: rules_hash(engine),
        params: params_of(engine),
        players: (0..2u8)
            .map(|p| {
                (
                    engine.player_name(p).to_string(),
                    players[p as usize].clone(),
                )
            })
            .collect(),
        seed: None,
        start: if at_setup(engine, start)? {
            None
        } else {
            Some(StartPosition::of(engine, start))
        },
        moves,
        agreement: None,
        result,
    })
}

/// Plays a game turn by turn as a file gives it, passing for a player who has only a pass
/// when the file's next move is the other player's.
pub(super) struct Game<'a> {
    pub(super) engine: &'a Engine,
    pub(super) now: State,
    pub(super) moves: Vec<String>,
}

impl Game<'_> {
    /// Plays `text` for `player` (None: whoever is to move), as the file's move `n`.
    pub(super) fn play(&mut self, text: &str, player: Option<u8>, n: usize) -> Result<(), String> {
        let e = self.engine;
        if let Some(p) = player {
            if self.now.mover != p && self.only_pass() {
                self.play("pass", None, n)?;
            }
            if self.now.mover != p {
                return Err(format!(
                    "move {n} (`{text}`) is {}'s, but {} is to move",
                    e.player_name(p),
                    e.player_name(self.now.mover)
                ));
            }
        }
        if self.now.is_over() {
            return Err(format!("move {n} (`{text}`) comes after the game is over"));
        }
        let played = e
            .parse_turn(&self.now, text)
            .map_err(|err| format!("move {n} (`{text}`) is not legal here: {err}"))?;
        let mut notation = String::new();
        let mut before = self.now;
        for (step, after) in &played {
            notation.push_str(&e.step_notation(&before, *step));
            before = *after;
        }
        if before.steps != 0 && !before.is_over() {
            return Err(format!("move {n} (`{text}`) is not a whole turn"));
        }
        self.now = before;
        self.moves.push(notation);
        Ok(())
    }

    /// Whether a record can say that `p` resigned here, as the file's `said` does: only the
    /// player to move resigns in a record. If not, the game is kept unfinished, and a note in
    /// `unused` says why.
    fn resigns(&self, p: u8, said: &str, unused: &mut Vec<String>) -> bool {
        let e = self.engine;
        let on_turn = self.now.mover == p;
        if !on_turn {
            unused.push(format!(
                "{said}: {} resigns after {}'s move, where a record has the player to move resign; the game is kept unfinished",
                e.player_name(p),
                e.player_name(p),
            ));
        }
        on_turn
    }

    /// Whether the player to move can only pass.
    pub(super) fn only_pass(&self) -> bool {
        let mut steps = Vec::new();
        self.engine.steps(&self.now, &mut steps).is_ok()
            && steps.len() == 1
            && self.engine.step_notation(&self.now, steps[0]) == "pass"
    }

    /// The game as read, as a record: `players` by seat, and `resigned`, the player the file
    /// says gave up, whether their time ran out, and the file's words for it, kept where a
    /// record can hold it. A game not given up gets the passes that end it where the file
    /// leaves them out.
    pub(super) fn into_record(
        mut self,
        rules: &str,
        start: &State,
        players: [String; 2],
        resigned: Option<(u8, bool, String)>,
        unused: &mut Vec<String>,
    ) -> Result<Record, String> {
        let resigned = resigned
            .filter(|(p, _, said)| !self.now.is_over() && self.resigns(*p, said, unused))
            .map(|(p, on_time, _)| (p, on_time));
        if resigned.is_none() {
            self.finish_passes();
        }
        record_of(
            self.engine,
            rules,
            start,
            &self.now,
            self.moves,
            players,
            resigned,
        )
    }

    /// Passes that end the game where the rules end it after two (a file may leave them out).
    fn finish_passes(&mut self) {
        for _ in 0..2 {
            if !self.now.is_over() && self.only_pass() {
                let n = self.moves.len() + 1;
                if self.play("pass", None, n).is_err() {
                    break;
                }
            }
        }
    }
}
