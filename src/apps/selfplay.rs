//! Self-play: games between agents, in parallel, reproducible from one seed whatever the number
//! of threads (each game's seed depends only on the run's seed and the game's index).

use crate::agents::{agent, game_seed, Agent, MAX_GAME_STEPS};

use crate::engine::rng::Rng;
use crate::engine::state::{Outcome, State};
use crate::engine::{Engine, RuleError};
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};

/// Stack for each worker: a turn is followed step by step (see
/// [`crate::engine::MAX_TURN_STEPS`]), which the default 2 MB of a thread does not cover.
const WORKER_STACK: usize = 64 << 20;

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub index: u64,
    pub seed: u64,
    /// The agent of each player (by player index).
    pub agents: Vec<String>,
    /// Whole turns in notation (empty unless the match asks for them).
    pub moves: Vec<String>,
    /// Turns played.
    pub turns: u64,
    pub outcome: Outcome,
    pub final_state: State,
    pub steps: u64,
    /// Decisions with more than one option, and the options they had in all.
    pub decisions: u64,
    pub options: u64,
}

/// Why a series of games stopped short.
#[derive(Debug)]
pub enum SeriesError {
    /// A rule failed while a game was played, or a game did not end; the message names the
    /// game (counted from 1).
    Rule(RuleError),
    /// Anything else: a player that cannot be made, a thread that cannot be started.
    Other(String),
}

impl std::fmt::Display for SeriesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeriesError::Rule(e) => write!(f, "rule error: {e}"),
            SeriesError::Other(m) => f.write_str(m),
        }
    }
}

impl From<String> for SeriesError {
    fn from(m: String) -> Self {
        SeriesError::Other(m)
    }
}

/// A rule error in game `index` (counted from 0), named as the user counts games.
fn in_game(index: u64, mut e: RuleError) -> SeriesError {
    e.message = format!("game {}: {}", index + 1, e.message);
    SeriesError::Rule(e)
}

fn too_long(engine: &Engine, index: u64) -> SeriesError {
    SeriesError::Rule(RuleError::endless_game(
        &engine.game,
        format!(
            "game {} did not end within {MAX_GAME_STEPS} steps",
            index + 1
        ),
    ))
}

/// What to play: the agents by seat (one per player), whether they change seats from game to
/// game, and whether the moves are written down (notation costs more than a random player's
/// step).
#[derive(Clone, Debug)]
pub struct Match {
    pub agents: Vec<String>,
    pub swap: bool,
    pub notation: bool,
}

impl Match {
    /// The agent specs for game `index`, by player. With `swap`, the agents move one seat on
    /// each game (with two players: they swap every other game), so each sits in every seat
    /// equally often over a multiple of the number of players.
    pub fn seating(&self, index: u64) -> Vec<String> {
        let n = self.agents.len();
        let shift = if self.swap {
            (index % n as u64) as usize
        } else {
            0
        };
        (0..n)
            .map(|p| self.agents[(p + n - shift) % n].clone())
            .collect()
    }
}

/// Plays game `index` of a series to its end.
pub fn play_game(
    engine: &Engine,
    start: &State,
    m: &Match,
    seed: u64,
    index: u64,
    stop: &AtomicBool,
) -> Result<GameResult, SeriesError> {
    let game = game_seed(seed, index);
    let seating = m.seating(index);
    if !m.notation && seating.iter().all(|a| a == "random") {
        return random_game(engine, start, game, seating, index);
    }
    let mut agents: Vec<Box<dyn Agent>> = Vec::new();
    for (seat, spec) in seating.iter().enumerate() {
        agents.push(agent(spec, game_seed(game, seat as u64 + 1))?);
    }
    let rule = |e: RuleError| in_game(index, e);
    let mut s = *start;
    let mut moves: Vec<String> = Vec::new();
    let (mut steps, mut turns, mut decisions, mut options) = (0, 0, 0, 0);
    let mut buf = Vec::new();
    while !s.is_over() {
        engine.steps(&s, &mut buf).map_err(rule)?;
        if buf.len() > 1 {
            decisions += 1;
            options += buf.len() as u64;
        }
        let step = if buf.len() == 1 {
            buf[0]
        } else {
            let chosen = agents[s.mover as usize]
                .choose_unless_stopped(engine, &s, &buf, stop)
                .map_err(rule)?;
            let Some(step) = chosen else {
                return Err(SeriesError::Other("interrupted".into()));
            };
            step
        };
        turns += u64::from(s.steps == 0);
        if m.notation {
            let text = engine.step_notation(&s, step);
            if s.steps == 0 {
                moves.push(text);
            } else if let Some(last) = moves.last_mut() {
                last.push_str(&text);
            }
        }
        s = engine.apply(&s, step).map_err(rule)?;
        steps += 1;
        if steps == MAX_GAME_STEPS {
            return Err(too_long(engine, index));
        }
        if stop.load(Ordering::Relaxed) {
            return Err(SeriesError::Other("interrupted".into()));
        }
    }
    Ok(GameResult {
        index,
        seed: game,
        agents: seating,
        moves,
        turns,
        outcome: s.outcome.expect("the loop ends at a finished game"),
        final_state: s,
        steps,
        decisions,
        options,
    })
}

/// A game between random players without its notation, played on the runner's own
/// state: the same draws as the agents', so the same game as [`play_game`] would play.
fn random_game(
    engine: &Engine,
    start: &State,
    game: u64,
    seating: Vec<String>,
    index: u64,
) -> Result<GameResult, SeriesError> {
    let mut rngs: Vec<Rng> = (0..seating.len() as u64)
        .map(|seat| Rng::new(game_seed(game, seat + 1)))
        .collect();
    let (s, tally) = engine
        .random_game(start, &mut rngs, MAX_GAME_STEPS)
        .map_err(|e| in_game(index, e))?;
    if tally.steps == MAX_GAME_STEPS {
        return Err(too_long(engine, index));
    }
    Ok(GameResult {
        index,
        seed: game,
        agents: seating,
        moves: Vec::new(),
        turns: tally.turns,
        outcome: s.outcome.expect("the game ended"),
        final_state: s,
        steps: tally.steps,
        decisions: tally.decisions,
        options: tally.options,
    })
}

/// How a series of games ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesEnd {
    /// Every game was played.
    Complete,
    /// `stop` was raised: the games finished by then were handed over, the others dropped.
    Interrupted,
}

/// How far workers may run ahead of the oldest unfinished game: finished games wait to be
/// handed over in order, and this bounds how many wait (and so the memory they hold).
const AHEAD: u64 = 4096;

/// Plays the games whose indices are in `games` (a whole series is `0..n`; a shard of one is a
/// part of that range, and plays exactly the games the whole would) on `jobs` threads and hands
/// each finished game to `each`, in game order,
/// on the calling thread, as soon as the games before it are done: nothing accumulates, so a
/// series of any length runs in bounded memory. Raising `stop` (a signal handler does) ends
/// the series early: games in play are dropped, finished ones are still handed over. An error
/// from a game or from `each` ends the series too, after handing over what was finished.
#[allow(clippy::too_many_arguments)]
pub fn play_series(
    engine: &Engine,
    start: &State,
    m: &Match,
    seed: u64,
    games: Range<u64>,
    jobs: usize,
    stop: &AtomicBool,
    each: &mut dyn FnMut(GameResult) -> Result<(), String>,
) -> Result<SeriesEnd, SeriesError> {
    let next = AtomicU64::new(games.start);
    let handed = AtomicU64::new(games.start);
    let quit = AtomicBool::new(false);
    // The failure of the earliest game is reported, whatever the threads' timing; games in
    // play when one fails still end (they are bounded), so an earlier one can still fail.
    let failure: Mutex<Option<(u64, SeriesError)>> = Mutex::new(None);
    let fail = |index: u64, e: SeriesError| {
        if let Ok(mut f) = failure.lock() {
            if f.as_ref().is_none_or(|(first, _)| index < *first) {
                *f = Some((index, e));
            }
        }
        quit.store(true, Ordering::Relaxed);
    };
    let halted = || quit.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed);
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel::<GameResult>();
        for _ in 0..jobs.max(1) {
            let send = send.clone();
            let (next, handed) = (&next, &handed);
            // The players' search follows a turn step by step, up to MAX_TURN_STEPS deep.
            let worker = std::thread::Builder::new().stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, move || loop {
                if halted() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games.end {
                    break;
                }
                while i >= handed.load(Ordering::Relaxed) + AHEAD {
                    if halted() {
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                match play_game(engine, start, m, seed, i, stop) {
                    Ok(r) => {
                        if send.send(r).is_err() {
                            break;
                        }
                    }
                    // A game cut short by `stop` is no failure.
                    Err(_) if stop.load(Ordering::Relaxed) => break,
                    Err(e) => {
                        fail(i, e);
                        break;
                    }
                }
            });
            if let Err(e) = spawned {
                fail(
                    0,
                    SeriesError::Other(format!("cannot start a worker thread: {e}")),
                );
                break;
            }
        }
        drop(send);
        let mut waiting: BTreeMap<u64, GameResult> = BTreeMap::new();
        let mut hand = |r: GameResult| {
            if !quit.load(Ordering::Relaxed) {
                let index = r.index;
                if let Err(e) = each(r) {
                    fail(index, SeriesError::Other(e));
                }
            }
        };
        // Ends once every worker has stopped and dropped its sender.
        for r in receive {
            waiting.insert(r.index, r);
            let mut want = handed.load(Ordering::Relaxed);
            while let Some(r) = waiting.remove(&want) {
                want += 1;
                handed.store(want, Ordering::Relaxed);
                hand(r);
            }
        }
        // Games left unfinished before these: hand over the finished ones all the same.
        for (_, r) in waiting {
            hand(r);
        }
    });
    if let Some((_, e)) = failure.into_inner().unwrap_or(None) {
        return Err(e);
    }
    Ok(if handed.load(Ordering::Relaxed) == games.end {
        SeriesEnd::Complete
    } else {
        SeriesEnd::Interrupted
    })
}

/// Plays `games` games on `jobs` threads; `progress` is called after each finished game with
/// the number done. Results come back in game order.
pub fn play_games(
    engine: &Engine,
    start: &State,
    m: &Match,
    seed: u64,
    games: u64,
    jobs: usize,
    progress: &dyn Fn(u64),
) -> Result<Vec<GameResult>, SeriesError> {
    let mut all = Vec::new();
    let never = AtomicBool::new(false);
    play_series(engine, start, m, seed, 0..games, jobs, &never, &mut |r| {
        all.push(r);
        progress(all.len() as u64);
        Ok(())
    })?;
    Ok(all)
}

/// The 95% Wilson score interval of a proportion `k / n`.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (
        ((centre - spread) / denom).max(0.0),
        ((centre + spread) / denom).min(1.0),
    )
}
