//! The game a `play` session holds: the position, the record kept current step by step,
//! what undo goes back to, and the board as the session draws it.

use super::{lock, terminal, Live};
use crate::cli::game::{start, Failure, GameArgs};
use outflank::apps::record::{
    params_of, resignation, result_of, rules_hash, time_loss, Record, RecordResult, StartPosition,
};
use outflank::engine::state::State;
use outflank::engine::turns::PlayError;
use outflank::engine::Engine;
use std::sync::{Arc, Mutex};

pub(super) struct Game<'a> {
    pub(super) engine: &'a Engine,
    /// The moves played so far, the result and the turn in progress.
    pub(super) live: Arc<Mutex<Live>>,
    /// Turn starts a human can take back: the number of moves played before each, the
    /// position, and whether play had resumed after a declined agreement. Only a human's turns
    /// are kept, so that computers playing a long game do not hold a position per turn.
    pub(super) undo_points: Vec<(usize, State, bool)>,
    /// The steps of a human's turn in progress, to take back one at a time: the position
    /// before each, how many marks it had and how long the turn's notation was.
    pub(super) step_points: Vec<(State, usize, usize)>,
    /// The current position.
    pub(super) now: State,
    /// Cells chosen in the last turn, marked on the board.
    pub(super) marks: Vec<usize>,
    /// The position before the last turn: the pieces it changed are marked as flipped.
    pub(super) turn_start: Option<State>,
    pub(super) resigned: Option<u8>,
    /// `resigned` did not resign: their time ran out.
    pub(super) on_time: bool,
    /// With `--time`, each player's time left.
    pub(super) clocks: Option<Vec<std::time::Duration>>,
    /// Play resumed after a declined agreement, and no placement has been made since.
    pub(super) resumed: bool,
    /// Steps played, undone ones included: what the step limit counts.
    pub(super) steps: u64,
}

impl Game<'_> {
    /// The board: after each cell chosen in the last turn a star, after each piece that turn
    /// took from another player a plus; in colour, the pieces in their player's colour.
    pub(super) fn board(&self, colour: bool) -> String {
        let e = self.engine;
        let g = &e.game.geometry;
        let mut out = String::from("   ");
        for x in 0..g.width {
            out.push((b'a' + x as u8) as char);
            out.push(' ');
        }
        out = out.trim_end().to_string() + "\n";
        for (y, row) in e.board_rows(&self.now).iter().enumerate() {
            out.push_str(&format!("{:>2} ", y + 1));
            // What follows the label: each cell and its mark, spaces at the end left off.
            let mut parts: Vec<String> = Vec::new();
            let mut shown = 0;
            for (x, ch) in row.chars().enumerate() {
                let cell = y * g.width + x;
                let owner = (cell < g.cells()).then(|| self.now.owner(cell)).flatten();
                let taken = self.turn_start.is_some_and(|t| {
                    cell < g.cells()
                        && owner.is_some()
                        && t.owner(cell).is_some()
                        && t.owner(cell) != owner
                });
                let mark = if self.marks.contains(&cell) {
                    '*'
                } else if taken {
                    '+'
                } else {
                    ' '
                };
                parts.push(match owner {
                    Some(p) if colour => terminal::piece(ch, p),
                    _ => ch.to_string(),
                });
                parts.push(if colour && mark != ' ' {
                    terminal::mark(mark)
                } else {
                    mark.to_string()
                });
                // The end of what is shown: after the cell, or after its mark.
                for (end, c) in [(parts.len() - 1, ch), (parts.len(), mark)] {
                    if c != ' ' {
                        shown = end;
                    }
                }
            }
            out.push_str(&parts[..shown].concat());
            out.push('\n');
        }
        out
    }

    pub(super) fn status(&self) -> String {
        let e = self.engine;
        let o = e.outcome(&self.now, None);
        let mut line = format!("score: {}", crate::cli::output::score_list(e, &o));
        for (name, value) in e.extra(&self.now) {
            line.push_str(&format!("; {name}: {value}"));
        }
        if let Some(clocks) = &self.clocks {
            let left: Vec<String> = clocks
                .iter()
                .enumerate()
                .map(|(p, t)| format!("{} {}", e.player_name(p as u8), clock_text(*t)))
                .collect();
            line.push_str(&format!("; time left: {}", left.join(", ")));
        }
        line
    }

    /// How the game ended: a resignation, time run out, or the result the rules give.
    pub(super) fn end_line(&self) -> String {
        let e = self.engine;
        match self.resigned {
            Some(p) => format!(
                "{} {}: {} wins",
                e.player_name(p),
                if self.on_time {
                    "ran out of time"
                } else {
                    "resigns"
                },
                e.player_name(1 - p)
            ),
            None => crate::cli::output::result_line(e, &self.now),
        }
    }

    /// Takes `used` off player `p`'s time (with `--time`); a player whose time runs out loses
    /// the game as it stands. Returns whether that happened.
    pub(super) fn spend(&mut self, p: u8, used: std::time::Duration) -> bool {
        let Some(clocks) = &mut self.clocks else {
            return false;
        };
        let left = &mut clocks[usize::from(p)];
        *left = left.saturating_sub(used);
        if !left.is_zero() || self.over() {
            return false;
        }
        self.resigned = Some(p);
        self.on_time = true;
        self.update_result();
        true
    }

    pub(super) fn over(&self) -> bool {
        self.now.is_over() || self.resigned.is_some()
    }

    pub(super) fn last_move(&self) -> String {
        lock(&self.live)
            .record
            .moves
            .last()
            .cloned()
            .unwrap_or_default()
    }

    /// The record with the game as it stands now.
    pub(super) fn record(&self) -> Record {
        lock(&self.live).snapshot()
    }

    /// Brings the record's result up to date after the position or a resignation changed.
    pub(super) fn update_result(&mut self) {
        let result = self.result();
        lock(&self.live).record.result = result;
    }

    pub(super) fn result(&self) -> Option<RecordResult> {
        let e = self.engine;
        match self.resigned {
            Some(p) if self.on_time => Some(time_loss(e, &self.now, p)),
            Some(p) => Some(resignation(e, &self.now, p)),
            None => result_of(e, &self.now),
        }
    }

    pub(super) fn new_record(
        engine: &Engine,
        args: &GameArgs,
        seats: &[String],
        first: &State,
    ) -> Record {
        Record {
            rules: args.file.clone(),
            rules_hash: rules_hash(engine),
            params: params_of(engine),
            players: (0..engine.game.player_count())
                .map(|p| (engine.player_name(p).to_string(), seats[p as usize].clone()))
                .collect(),
            seed: None,
            start: args
                .position
                .is_some()
                .then(|| StartPosition::of(engine, first)),
            moves: Vec::new(),
            agreement: None,
            result: None,
        }
    }

    /// Takes back the last step of a human's turn in progress, else goes back to the start of
    /// the last turn a human can take back; says which, or None when there is nothing to undo.
    pub(super) fn undo(&mut self) -> Option<&'static str> {
        if self.now.steps > 0 && self.resigned.is_none() {
            if let Some((state, marks, written)) = self.step_points.pop() {
                self.now = state;
                self.marks.truncate(marks);
                lock(&self.live).partial.truncate(written);
                if state.steps == 0 {
                    // Back at the turn's start: the turn is gone, and so is its place to undo
                    // to, so that the next undo reaches the turn before.
                    self.undo_points.pop();
                }
                return Some("undone: the last step");
            }
        }
        let (played, state, resumed) = self.undo_points.pop()?;
        self.now = state;
        self.resigned = None;
        self.on_time = false;
        self.resumed = resumed;
        self.marks.clear();
        self.step_points.clear();
        self.turn_start = None;
        {
            let mut live = lock(&self.live);
            live.record.moves.truncate(played);
            live.partial.clear();
            // An agreement comes after the game stops, so every turn start is before it.
            live.record.agreement = None;
        }
        self.update_result();
        Some("undone")
    }

    /// Replaces the game with the one saved in `path` (as `--resume` reads it), which must have
    /// been played with these rules and parameters; returns the moves it replayed. The game
    /// in progress is left as it was when the file does not do.
    pub(super) fn load(&mut self, args: &GameArgs, path: &str) -> Result<usize, Failure> {
        let e = self.engine;
        let mut records = crate::cli::run::read_records(path)?;
        if records.len() != 1 {
            return Err(Failure::Message(format!(
                "{path} holds {} games; load takes a file of one",
                records.len()
            )));
        }
        let (_, saved) = records.remove(0);
        outflank::apps::record::same_rules(e, &saved)
            .map_err(|m| Failure::Message(format!("{path}: {m}")))?;
        if saved.params != params_of(e) {
            return Err(Failure::Message(format!(
                "{path} was played with other parameters; go on with it by `outflank play {} --resume {path}`",
                args.file
            )));
        }
        let begin = match &saved.start {
            None => e.start()?,
            Some(p) => {
                let mut at = args.clone();
                at.position = Some(p.rows.clone());
                at.to_move = Some(p.to_move.clone());
                at.extra = (p.extra.clone()).map(|m| serde_json::Value::Object(m).to_string());
                start(e, &at).map_err(|f| match f {
                    Failure::Message(m) => Failure::Message(format!("{path}: {m}")),
                    other => other,
                })?
            }
        };
        outflank::apps::record::replay(e, &begin, &saved)
            .map_err(|m| Failure::Message(format!("{path}: {m}")))?;
        if saved.result.is_some() {
            return Err(Failure::Message(format!(
                "{path}: this game is over; `outflank replay` shows it"
            )));
        }
        self.now = begin;
        self.undo_points.clear();
        self.step_points.clear();
        self.marks.clear();
        self.turn_start = None;
        self.resigned = None;
        self.on_time = false;
        self.resumed = false;
        {
            let mut live = lock(&self.live);
            live.record.start.clone_from(&saved.start);
            live.record.moves.clear();
            live.partial.clear();
            live.record.agreement = None;
        }
        for m in &saved.moves {
            self.play_text(m)
                .map_err(|_| Failure::Message(format!("{path}: the move `{m}` does not replay")))?;
        }
        self.update_result();
        Ok(saved.moves.len())
    }

    /// Plays steps written in `text` from the current position.
    pub(super) fn play_text(&mut self, text: &str) -> Result<(), PlayError> {
        let played = self.engine.parse_turn(&self.now, text)?;
        for (i, (step, after)) in played.iter().enumerate() {
            let before = if i == 0 { self.now } else { played[i - 1].1 };
            self.advance(before, *step, *after, true);
        }
        Ok(())
    }

    pub(super) fn advance(
        &mut self,
        before: State,
        step: outflank::engine::Step,
        after: State,
        human: bool,
    ) {
        let e = self.engine;
        let text = e.step_notation(&before, step);
        if before.steps == 0 {
            if human {
                let played = lock(&self.live).record.moves.len();
                self.undo_points.push((played, before, self.resumed));
            }
            self.marks.clear();
            self.step_points.clear();
            self.turn_start = Some(before);
        }
        if human {
            let written = lock(&self.live).partial.len();
            self.step_points.push((before, self.marks.len(), written));
        }
        self.steps += 1;
        if let Some(c) = e.step_cell(&before, step) {
            self.marks.push(c);
        }
        self.now = after;
        let mut live = lock(&self.live);
        live.partial.push_str(&text);
        if after.is_over() || after.steps == 0 {
            let turn = std::mem::take(&mut live.partial);
            if turn != "pass" {
                self.resumed = false;
            }
            live.record.moves.push(turn);
            // A finished turn is taken back whole.
            self.step_points.clear();
        }
        drop(live);
        if after.is_over() {
            self.update_result();
        }
    }
}

/// A clock's time as m:ss.s (h:mm:ss from an hour up).
fn clock_text(t: std::time::Duration) -> String {
    let tenths = t.as_millis() / 100;
    let (h, m, s, d) = (
        tenths / 36_000,
        tenths / 600 % 60,
        tenths / 10 % 60,
        tenths % 10,
    );
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}.{d}")
    }
}
