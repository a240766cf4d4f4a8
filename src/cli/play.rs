//! `play`: an interactive game in the terminal, reading commands from standard input (so a
//! test can script a whole game).

use super::output::result_line;
use super::{load_game, start, Failure, GameArgs, StepLimit};
use clap::Args;
use outflank::agents::{agent, game_seed, Agent};
use outflank::apps::record::{
    params_of, resignation, result_of, rules_hash, Record, RecordResult, StartPosition,
};
use outflank::check::closest_names;
use outflank::engine::state::State;
use outflank::engine::turns::PlayError;
use outflank::engine::Engine;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, MutexGuard};

// The options of `play` (its help is the doc comment of `Command::Play`).
#[derive(Args)]
pub(super) struct PlayArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// Seed of the computer players' random choices.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    #[command(flatten)]
    pub(super) limit: StepLimit,
    /// Keep the game in this file as it is played: written at the start, at the end
    /// however the session ends (Ctrl-C and a closed terminal included), and readable by
    /// `replay`.
    #[arg(long, value_name = "FILE")]
    pub(super) record: Option<String>,
    /// Go on with a saved game: a record of one game (`save`'s file, or a page's download
    /// from `outflank serve`) made with these rules; its parameters and start are taken.
    #[arg(long, value_name = "RECORD")]
    pub(super) resume: Option<String>,
    /// --NAME PLAYER pairs, e.g. --black human --white alphabeta:4, or --seat NAME=PLAYER
    /// as `run` and `analyse` take it (--seat white=alphabeta:4).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "--PLAYER WHO"
    )]
    pub(super) seats: Vec<String>,
}

const HELP: &str =
    "commands: a move in notation (a whole turn, or its next steps), ? (legal moves), \
undo, resign, save FILE, help, quit";

/// The game as a record, kept current step by step and shared with the handler of Ctrl-C,
/// SIGTERM and SIGHUP, which saves it (or prints its moves) however the session ends.
struct Live {
    record: Record,
    /// The steps of the turn in progress.
    partial: String,
}

/// The handler only reads the record, so a poisoned lock still holds a sound one.
fn lock(live: &Mutex<Live>) -> MutexGuard<'_, Live> {
    live.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Live {
    fn snapshot(&self) -> Record {
        let mut record = self.record.clone();
        if !self.partial.is_empty() {
            record.moves.push(self.partial.clone());
        }
        record
    }
}

struct Game<'a> {
    engine: &'a Engine,
    /// The moves played so far, the result and the turn in progress.
    live: Arc<Mutex<Live>>,
    /// Turn starts a human can take back: the number of moves played before each, the
    /// position, and whether play had resumed after a declined agreement. Only a human's turns
    /// are kept, so that computers playing a long game do not hold a position per turn.
    undo_points: Vec<(usize, State, bool)>,
    /// The current position.
    now: State,
    /// Cells chosen in the last turn, marked on the board.
    marks: Vec<usize>,
    resigned: Option<u8>,
    /// Play resumed after a declined agreement, and no placement has been made since.
    resumed: bool,
    /// Steps played, undone ones included: what the step limit counts.
    steps: u64,
}

impl Game<'_> {
    fn board(&self) -> String {
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
            for (x, ch) in row.chars().enumerate() {
                out.push(ch);
                // A star after the cells chosen in the last turn.
                out.push(if self.marks.contains(&(y * g.width + x)) {
                    '*'
                } else {
                    ' '
                });
            }
            out = out.trim_end().to_string() + "\n";
        }
        out
    }

    fn status(&self) -> String {
        let e = self.engine;
        let o = e.outcome(&self.now, None);
        let mut line = format!("score: {}", super::output::score_list(e, &o));
        for (name, value) in e.extra(&self.now) {
            line.push_str(&format!("; {name}: {value}"));
        }
        line
    }

    fn over(&self) -> bool {
        self.now.is_over() || self.resigned.is_some()
    }

    fn last_move(&self) -> String {
        lock(&self.live)
            .record
            .moves
            .last()
            .cloned()
            .unwrap_or_default()
    }

    /// The record with the game as it stands now.
    fn record(&self) -> Record {
        lock(&self.live).snapshot()
    }

    /// Brings the record's result up to date after the position or a resignation changed.
    fn update_result(&mut self) {
        let result = self.result();
        lock(&self.live).record.result = result;
    }

    fn result(&self) -> Option<RecordResult> {
        let e = self.engine;
        match self.resigned {
            Some(p) => Some(resignation(e, &self.now, p)),
            None => result_of(e, &self.now),
        }
    }

    fn new_record(engine: &Engine, args: &GameArgs, seats: &[String], first: &State) -> Record {
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

    /// Back to the start of the last turn a human can take back; false when there is none.
    fn undo(&mut self) -> bool {
        let Some((played, state, resumed)) = self.undo_points.pop() else {
            return false;
        };
        self.now = state;
        self.resigned = None;
        self.resumed = resumed;
        self.marks.clear();
        {
            let mut live = lock(&self.live);
            live.record.moves.truncate(played);
            live.partial.clear();
            // An agreement comes after the game stops, so every turn start is before it.
            live.record.agreement = None;
        }
        self.update_result();
        true
    }

    /// Plays steps written in `text` from the current position.
    fn play_text(&mut self, text: &str) -> Result<(), PlayError> {
        let played = self.engine.parse_turn(&self.now, text)?;
        for (i, (step, after)) in played.iter().enumerate() {
            let before = if i == 0 { self.now } else { played[i - 1].1 };
            self.advance(before, *step, *after, true);
        }
        Ok(())
    }

    fn advance(&mut self, before: State, step: outflank::engine::Step, after: State, human: bool) {
        let e = self.engine;
        let text = e.step_notation(&before, step);
        if before.steps == 0 {
            if human {
                let played = lock(&self.live).record.moves.len();
                self.undo_points.push((played, before, self.resumed));
            }
            self.marks.clear();
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
        }
        drop(live);
        if after.is_over() {
            self.update_result();
        }
    }
}

/// Who plays each seat, and the options written after the players.
struct Seating {
    /// Per player.
    seats: Vec<String>,
    seed: u64,
    limit: StepLimit,
    record: Option<String>,
}

/// Reads `--NAME PLAYER` pairs. The players are read by hand (their options are named by the
/// rules), so options written after them arrive here too: the ones that make sense are taken.
fn seating(
    engine: &Engine,
    seat_args: &[String],
    seed: u64,
    limit: StepLimit,
    record: Option<String>,
) -> Result<Seating, Failure> {
    let names: Vec<String> = engine.game.players.iter().map(|p| p.name.clone()).collect();
    // Default: a human in the first seat against the computer in every other.
    let mut out = Seating {
        seats: (0..names.len())
            .map(|p| if p == 0 { "human" } else { "mcts:1000" }.to_string())
            .collect(),
        seed,
        limit,
        record,
    };
    let mut i = 0;
    while i < seat_args.len() {
        let flag = seat_args[i].as_str();
        let value = seat_args.get(i + 1);
        if let ("--record", Some(path)) = (flag, value) {
            out.record = Some(path.clone());
            i += 2;
            continue;
        }
        if let ("--seed" | "--max-steps", Some(value)) = (flag, value) {
            let number = value.parse::<u64>().ok().filter(|&n| {
                flag == "--seed" || (1..=outflank::agents::MAX_GAME_STEPS).contains(&n)
            });
            let Some(n) = number else {
                return Err(Failure::Message(format!(
                    "{flag} {value}: give a whole number{}",
                    if flag == "--seed" {
                        String::new()
                    } else {
                        format!(" from 1 to {}", outflank::agents::MAX_GAME_STEPS)
                    }
                )));
            };
            if flag == "--seed" {
                out.seed = n;
            } else {
                out.limit.max_steps = n;
            }
            i += 2;
            continue;
        }
        if let ("--seat", Some(seat)) = (flag, value) {
            let (p, who) = super::seat_pair(engine, seat)?;
            if who != "human" {
                agent(who, 0)?;
            }
            out.seats[usize::from(p)] = who.to_string();
            i += 2;
            continue;
        }
        let name = flag.trim_start_matches("--");
        let Some(p) = names.iter().position(|n| n == name) else {
            let usage: Vec<String> = names.iter().map(|n| format!("--{n} PLAYER")).collect();
            return Err(Failure::Message(format!(
                "{flag}: unknown option; name the players as in the rules: {} (or --seat {}=PLAYER)",
                usage.join(" "),
                names[0]
            )));
        };
        let Some(who) = value else {
            return Err(Failure::Message(format!(
                "--{name} needs a player: human, random, greedy, mcts, alphabeta"
            )));
        };
        if who != "human" {
            agent(who, 0)?;
        }
        out.seats[p].clone_from(who);
        i += 2;
    }
    Ok(out)
}

fn write_record(path: &str, record: &Record) -> Result<(), String> {
    let text = serde_json::to_string_pretty(record).expect("records serialize") + "\n";
    std::fs::write(path, text).map_err(|e| format!("cannot write the game to {path}: {e}"))
}

/// On Ctrl-C, SIGTERM or SIGHUP (the terminal closed), the game so far is written to the
/// record file, or its moves are printed when there is none: a long game is never lost.
fn keep_on_interrupt(live: Arc<Mutex<Live>>, path: Option<String>) {
    // Fails only when a handler is already set (a second session in one process): keep it.
    let _ = ctrlc::set_handler(move || {
        let record = lock(&live).snapshot();
        let said = match &path {
            Some(path) => match write_record(path, &record) {
                Ok(()) => format!("interrupted: the game so far is saved to {path}"),
                Err(e) => format!("interrupted: {e}; moves so far: {}", record.moves.join(" ")),
            },
            None => format!(
                "interrupted after {} moves: {}",
                record.moves.len(),
                record.moves.join(" ")
            ),
        };
        eprintln!("\n{}", outflank::diagnostic::printable(&said));
        std::process::exit(130);
    });
}

pub(super) fn cmd_play(a: &PlayArgs) -> Result<String, Failure> {
    let PlayArgs {
        game: ref args,
        seed,
        limit,
        ref record,
        ref resume,
        seats: ref seat_args,
    } = *a;
    let (engine, first, saved) = match resume {
        Some(path) => resumed_game(args, path)?,
        None => {
            let engine = load_game(args)?;
            let first = start(&engine, args)?;
            (engine, first, None)
        }
    };
    let Seating {
        seats,
        seed,
        limit,
        record,
    } = seating(&engine, seat_args, seed, limit, record.clone())?;
    let mut agents: Vec<Option<Box<dyn Agent>>> = Vec::new();
    for (p, who) in seats.iter().enumerate() {
        agents.push(if who == "human" {
            None
        } else {
            Some(agent(who, game_seed(seed, p as u64 + 1))?)
        });
    }
    let mut new_record = Game::new_record(&engine, args, &seats, &first);
    if let Some(saved) = &saved {
        new_record.start.clone_from(&saved.start);
    }
    let live = Arc::new(Mutex::new(Live {
        record: new_record,
        partial: String::new(),
    }));
    // Written at once, so that a file that cannot be written is said before the game.
    if let Some(path) = &record {
        write_record(path, &lock(&live).snapshot())?;
    }
    keep_on_interrupt(live.clone(), record.clone());
    let mut g = Game {
        engine: &engine,
        live,
        undo_points: Vec::new(),
        now: first,
        marks: Vec::new(),
        resigned: None,
        resumed: false,
        steps: 0,
    };
    if let Some(saved) = &saved {
        // Played again as a person would have, so that undo reaches back into them.
        for m in &saved.moves {
            g.play_text(m).map_err(|e| {
                let why = match e {
                    PlayError::Illegal(w) => w,
                    PlayError::Rule(r) => format!("rule error: {}", r.message),
                };
                Failure::Message(format!("the saved move `{m}` does not replay: {why}"))
            })?;
        }
        eprintln!(
            "resumed after {}",
            outflank::diagnostic::count_of(saved.moves.len() as u64, "move")
        );
    }
    let played = session(&mut g, &mut agents, &seats, limit);
    // Saved however the session ended, a rule error included.
    if let Some(path) = &record {
        write_record(path, &g.record())?;
        eprintln!(
            "the game is saved to {}",
            outflank::diagnostic::printable(path)
        );
    }
    played
}

/// The game saved in `path`, checked against these rules and replayed whole, to go on with.
fn resumed_game(args: &GameArgs, path: &str) -> Result<(Engine, State, Option<Record>), Failure> {
    let mut records = super::run::read_records(path)?;
    if records.len() != 1 {
        return Err(Failure::Message(format!(
            "{path} holds {} games; --resume takes a file of one (a saved game, or one line of a records file)",
            records.len()
        )));
    }
    let (_, record) = records.remove(0);
    let plain = load_game(&GameArgs::plain(&args.file))?;
    let (engine, begin) = super::run::game_of_record(args, &plain, &record, path)?;
    outflank::apps::record::replay(&engine, &begin, &record)
        .map_err(|m| Failure::Message(format!("{path}: {m}")))?;
    if record.result.is_some() {
        return Err(Failure::Message(format!(
            "{path}: this game is over; there is nothing to go on with (`outflank replay` shows it)"
        )));
    }
    Ok((engine, begin, Some(record)))
}

/// The computer to move plays its whole turn, step by step; returns its seat.
fn computer_turn(g: &mut Game, a: &mut dyn Agent, limit: StepLimit) -> Result<u8, Failure> {
    let engine = g.engine;
    // Computers playing each other a game that never ends would play for ever.
    if g.steps >= limit.max_steps {
        return Err(outflank::engine::RuleError::endless_game(
            &engine.game,
            format!("the game did not end within {} steps", limit.max_steps),
        )
        .into());
    }
    // The computer plays its whole turn, step by step.
    let mover = g.now.mover;
    loop {
        let before = g.now;
        let mut legal = Vec::new();
        engine.steps(&before, &mut legal)?;
        let step = a.choose(engine, &before, &legal)?;
        let after = engine.apply(&before, step)?;
        g.advance(before, step, after, false);
        if after.steps == 0 || after.is_over() || after.mover != mover {
            break;
        }
    }
    Ok(mover)
}

/// The legal moves nearest to a move that is not legal, as "; did you mean ...?" (or nothing).
/// A move that starts with a cell (in any case) is near the legal steps on the cells nearest
/// it on the board, up to three, the closest as the crow flies first; other text (a word) is
/// near the legal moves spelt most like it.
fn nearest_legal(engine: &Engine, now: &State, line: &str) -> Result<String, Failure> {
    let mut buf = Vec::new();
    engine.steps(now, &mut buf)?;
    let legal: Vec<String> = buf.iter().map(|&s| engine.step_notation(now, s)).collect();
    let g = &engine.game.geometry;
    let typed = g
        .parse_prefix(&line.trim().to_ascii_lowercase())
        .map(|(cell, _)| cell);
    let on_cells: Vec<(usize, String)> = buf
        .iter()
        .zip(&legal)
        .filter_map(|(&step, text)| Some((engine.step_cell(now, step)?, text.clone())))
        .collect();
    let near = match typed {
        Some(cell) if !on_cells.is_empty() => {
            let (width, row, col) = (g.width, cell / g.width, cell % g.width);
            let mut ranked: Vec<(usize, usize, usize, String)> = on_cells
                .into_iter()
                .map(|(c, text)| {
                    let (dr, dc) = ((c / width).abs_diff(row), (c % width).abs_diff(col));
                    (g.distance(cell, c), dr * dr + dc * dc, c, text)
                })
                .collect();
            ranked.sort();
            let least = ranked[0].0;
            let mut near: Vec<String> = Vec::new();
            for (_, _, _, text) in ranked.into_iter().take_while(|r| r.0 == least) {
                if !near.contains(&text) && near.len() < 3 {
                    near.push(text);
                }
            }
            near
        }
        _ => closest_names(line, &legal, 3),
    };
    Ok(if near.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", near.join(" or "))
    })
}

/// The game itself: boards and prompts on standard output, commands from standard input.
fn session(
    g: &mut Game,
    agents: &mut [Option<Box<dyn Agent>>],
    seats: &[String],
    limit: StepLimit,
) -> Result<String, Failure> {
    let engine = g.engine;
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    // A write that fails ends the game: no one sees it any more (or the disk is full).
    let lost: std::cell::Cell<Option<std::io::Error>> = std::cell::Cell::new(None);
    let mut say = |text: &str| {
        // Moves echoed back are the player's own text: no terminal escapes from them.
        let text = outflank::diagnostic::printable(text);
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            lost.set(Some(e));
        }
    };
    say(&format!(
        "{}\n{HELP}\n",
        if engine.game.title.is_empty() {
            "untitled"
        } else {
            &engine.game.title
        }
    ));
    let mut shown = true;
    loop {
        if let Some(e) = lost.take() {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                break;
            }
            return Err(Failure::Message(format!("cannot write the output: {e}")));
        }
        if shown {
            say(&format!("\n{}{}\n", g.board(), g.status()));
            shown = false;
        }
        // After two passes the rules may offer an agreement; declined, play resumes, and two
        // passes in a row without a placement then end the game as it stands.
        if engine.game.agreement.is_some()
            && g.now.is_over()
            && g.resigned.is_none()
            && lock(&g.live).record.agreement.is_none()
            && !g.resumed
            && g.now.passes >= 2
        {
            offer_agreement(g, agents, seats, &mut input, &mut say)?;
            shown = true;
            continue;
        }
        if g.over() {
            let result = match g.resigned {
                Some(p) => format!(
                    "{} resigns: {} wins",
                    engine.player_name(p),
                    engine.player_name(1 - p)
                ),
                None => result_line(engine, &g.now),
            };
            say(&format!("game over: {result}\n"));
        } else if let Some(a) = agents[g.now.mover as usize].as_mut() {
            let mover = computer_turn(g, a.as_mut(), limit)?;
            say(&format!(
                "{} ({}) plays {}\n",
                engine.player_name(mover),
                seats[mover as usize],
                g.last_move()
            ));
            shown = true;
            continue;
        } else if g.now.steps > 0 {
            say(&format!(
                "{} continues {}; next: {}\n",
                engine.player_name(g.now.mover),
                lock(&g.live).partial,
                step_list(engine, &g.now)
            ));
        }
        let prompt = if g.over() {
            "> ".to_string()
        } else {
            format!("{}> ", engine.player_name(g.now.mover))
        };
        say(&prompt);
        let Some(Ok(line)) = input.next() else {
            say("\n");
            break;
        };
        let line = line.trim();
        match line.split_whitespace().next().unwrap_or("") {
            "" => {}
            "quit" | "exit" => break,
            "help" => say(&format!("{HELP}\n")),
            "?" => {
                if g.over() {
                    say("the game is over\n");
                } else {
                    say(&format!("{}\n", legal_list(engine, &g.now)));
                }
            }
            "undo" => {
                // Back to the human's previous turn start, taking back computer turns too.
                let undone = g.undo();
                say(if undone {
                    "undone\n"
                } else {
                    "nothing to undo\n"
                });
                shown = undone;
            }
            "resign" if !g.over() && engine.game.player_count() != 2 => {
                say("only a game of two players ends by resigning; play on, or quit\n");
            }
            "resign" if !g.over() => {
                g.resigned = Some(g.now.mover);
                g.update_result();
                shown = true;
            }
            "save" => match line.split_whitespace().nth(1) {
                None => say("save needs a file name: save FILE\n"),
                Some(path) => match write_record(path, &g.record()) {
                    Ok(()) => say(&format!("saved to {path}\n")),
                    Err(e) => say(&format!("{e}\n")),
                },
            },
            _ if g.over() => say(&format!("the game is over; {HELP}\n")),
            _ => match g.play_text(line) {
                Ok(()) => shown = true,
                Err(PlayError::Illegal(why)) => {
                    let hint = nearest_legal(engine, &g.now, line)?;
                    say(&format!("`{line}` is not legal here: {why}{hint}\n"));
                }
                Err(PlayError::Rule(e)) => return Err(e.into()),
            },
        }
    }
    Ok(String::new())
}

fn step_list(engine: &Engine, s: &State) -> String {
    let mut buf = Vec::new();
    let _ = engine.steps(s, &mut buf);
    let texts: Vec<String> = buf.iter().map(|&st| engine.step_notation(s, st)).collect();
    outflank::engine::turns::abbreviate(&texts)
}

/// Whole moves when there are few, otherwise the next step's choices.
fn legal_list(engine: &Engine, s: &State) -> String {
    match engine.whole_turns(s, 60) {
        Ok(turns) => {
            let names: Vec<String> = turns.into_iter().map(|t| t.notation).collect();
            format!("legal moves ({}): {}", names.len(), names.join(" "))
        }
        Err(_) => format!(
            "many moves; the next step is one of: {}",
            step_list(engine, s)
        ),
    }
}

/// Runs the agreement: each player proposes (a computer proposes nothing), both accept or play
/// resumes.
fn offer_agreement(
    g: &mut Game,
    agents: &mut [Option<Box<dyn Agent>>],
    seats: &[String],
    input: &mut impl Iterator<Item = std::io::Result<String>>,
    say: &mut impl FnMut(&str),
) -> Result<(), Failure> {
    let engine = g.engine;
    let stopped = g.now;
    say("play has stopped: the players may agree to flip dead groups before scoring\n");
    let mut proposals = Vec::new();
    let mut agreed = stopped;
    let players = engine.game.player_count();
    // Each player proposes once, in turn order from the one to move.
    for proposer in engine.game.turn_order(stopped.mover) {
        let name = engine.player_name(proposer).to_string();
        if agents[proposer as usize].is_some() {
            say(&format!(
                "{name} ({}) proposes nothing\n",
                seats[proposer as usize]
            ));
            proposals.push(String::new());
            continue;
        }
        let mut a = engine
            .begin_agreement(&agreed, proposer)?
            .expect("the rules have an agreement");
        let mut text = String::new();
        while !a.is_over() {
            say(&format!(
                "{name}, agreement: {}\n{name}> ",
                step_list(engine, &a)
            ));
            let Some(Ok(line)) = input.next() else { break };
            match engine.parse_turn(&a, line.trim()) {
                Ok(played) => {
                    text.push_str(line.trim());
                    a = played.last().map_or(a, |(_, st)| *st);
                }
                Err(e) => say(&format!("{e}\n")),
            }
        }
        if !a.is_over() {
            break;
        }
        agreed = a;
        proposals.push(text);
    }
    let mut accepted = proposals.len() == players as usize;
    if accepted {
        say(&format!(
            "\nproposed final position:\n{}",
            super::output::board_text(engine, &agreed)
        ));
    }
    for p in 0..players {
        if !accepted {
            break;
        }
        let name = engine.player_name(p);
        accepted = match agents[p as usize] {
            // A computer accepts what does not lower its own margin.
            Some(_) => {
                let margin = |s: &State| engine.outcome(s, None).margin(p);
                let yes = margin(&agreed) >= margin(&stopped);
                say(&format!(
                    "{name} ({}) {}\n",
                    seats[p as usize],
                    if yes { "accepts" } else { "declines" }
                ));
                yes
            }
            None => {
                say(&format!("{name}, accept? (yes/no) "));
                matches!(input.next(), Some(Ok(l)) if l.trim().starts_with('y'))
            }
        };
    }
    if accepted {
        g.now = agreed;
        lock(&g.live).record.agreement = Some(proposals);
        g.update_result();
        say("agreed\n");
    } else {
        g.now = engine.resume(&stopped, stopped.mover)?;
        g.resumed = true;
        g.update_result();
        say("no agreement: play resumes; two passes in a row now end the game as it stands\n");
    }
    Ok(())
}
