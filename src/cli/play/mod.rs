//! `play`: an interactive game in the terminal, reading commands from standard input (so a
//! test can script a whole game; terminal.rs has what only a terminal gets).

mod game;
mod session;
mod terminal;

use super::game::{load_game, start, Failure, GameArgs, StepLimit};
use clap::Args;
use game::Game;
use outflank::agents::{agent, game_seed, Agent};
use outflank::apps::record::Record;
use outflank::engine::state::State;
use outflank::engine::turns::PlayError;
use outflank::engine::Engine;
use session::session;
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
    /// Each player's time for the whole game, e.g. 5m, 90s, 1h30m: a player whose time runs
    /// out loses. A human's time runs from the prompt to the line typed; a computer's over its
    /// turn, which keeps to its own budget (mcts:2000ms) whatever the clock says.
    #[arg(long, value_name = "TIME", value_parser = clock_time)]
    pub(super) time: Option<std::time::Duration>,
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
hint [PLAYER] (a computer's suggestion, alphabeta:4 unless named), undo (the last step of a \
turn in progress, else the last turn), resign, save FILE, load FILE, help, quit";

/// The commands, for Tab to complete beside the moves.
const COMMANDS: [&str; 9] = [
    "?", "hint", "undo", "resign", "save", "load", "help", "quit", "exit",
];

/// The player that `hint` asks unless one is named.
const HINT_PLAYER: &str = "alphabeta:4";

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
    // A seat named twice (by either form) is refused, as `run --seat` refuses it.
    let mut named: Vec<usize> = Vec::new();
    let mut seat = |p: usize, who: &str, given: String| -> Result<(), Failure> {
        if named.contains(&p) {
            return Err(Failure::Message(format!(
                "{given}: {} is seated twice; keep one",
                names[p]
            )));
        }
        named.push(p);
        out.seats[p] = who.to_string();
        Ok(())
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
        if let ("--seat", Some(given)) = (flag, value) {
            let (p, who) = super::game::seat_pair(engine, given)?;
            if who != "human" {
                agent(who, 0)?;
            }
            seat(usize::from(p), who, format!("--seat {given}"))?;
            i += 2;
            continue;
        }
        let name = flag.trim_start_matches("--");
        let Some(p) = names.iter().position(|n| n == name) else {
            if ["--set", "--position", "--to-move", "--time"].contains(&flag) {
                return Err(Failure::Message(format!(
                    "{flag}: write it before the players (`play RULES {flag} ... --{} PLAYER ...`)",
                    names[0]
                )));
            }
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
        seat(p, who, format!("--{name} {who}"))?;
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
    let _ = ctrlc::set_handler(move || interrupted(&live, path.as_deref()));
}

/// Saves the game so far (or prints its moves) and ends the process as Ctrl-C does.
fn interrupted(live: &Mutex<Live>, path: Option<&str>) -> ! {
    let record = lock(live).snapshot();
    let said = match path {
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
}

pub(super) fn cmd_play(a: &PlayArgs) -> Result<String, Failure> {
    let PlayArgs {
        game: ref args,
        seed,
        limit,
        ref record,
        ref resume,
        time,
        seats: ref seat_args,
    } = *a;
    // `--resume FILE` written after the players arrives among them: taken from there too.
    let mut seat_args = seat_args.clone();
    let mut resume = resume.clone();
    if let Some(i) = seat_args.iter().position(|w| w == "--resume") {
        let Some(path) = seat_args.get(i + 1).cloned() else {
            return Err(Failure::Message(
                "--resume needs a saved game: --resume FILE".into(),
            ));
        };
        if resume.is_some() {
            return Err(Failure::Message("--resume is given twice; keep one".into()));
        }
        resume = Some(path);
        seat_args.drain(i..i + 2);
    }
    let (engine, first, saved) = match &resume {
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
    } = seating(&engine, &seat_args, seed, limit, record.clone())?;
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
        step_points: Vec::new(),
        now: first,
        marks: Vec::new(),
        turn_start: None,
        resigned: None,
        on_time: false,
        clocks: time.map(|t| vec![t; engine.game.player_count() as usize]),
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
    let played = session(&mut g, &mut agents, &seats, limit, args, record.as_deref());
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

/// A time on the clock: numbers with units (`5m`, `90s`, `1h30m`, `1.5s`, `500ms`); a bare
/// number is seconds. From a tenth of a second to a day.
fn clock_time(text: &str) -> Result<std::time::Duration, String> {
    let bad = || {
        format!("`{text}` is not a time; write it as 5m, 90s, 1h30m or 500ms (a number alone is seconds)")
    };
    let mut seconds = 0.0;
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(bad());
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let number: f64 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = match &rest[..unit_end] {
            "h" => 3600.0,
            "m" | "min" => 60.0,
            "s" | "" => 1.0,
            "ms" => 0.001,
            _ => return Err(bad()),
        };
        seconds += number * unit;
        rest = &rest[unit_end..];
    }
    if !(0.1..=86_400.0).contains(&seconds) {
        return Err(format!("`{text}`: give a time from 0.1s to 24h"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}
