//! Self-play: games between agents, in parallel, reproducible from one seed whatever the number
//! of threads (each game's seed depends only on the run's seed and the game's index).

use crate::agents::{agent, game_seed, Agent, Rng, MAX_GAME_STEPS};
use crate::engine::state::{Outcome, State};
use crate::engine::{Engine, RuleError};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Stack for each worker: a turn is followed step by step (see
/// [`crate::engine::MAX_TURN_STEPS`]), which the default 2 MB of a thread does not cover.
const WORKER_STACK: usize = 64 << 20;

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub index: u64,
    pub seed: u64,
    /// The agent of each player (by player index).
    pub agents: [String; 2],
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

/// What to play: the agents by seat, whether they swap seats every other game, and whether
/// the moves are written down (notation costs more than a random player's step).
#[derive(Clone, Debug)]
pub struct Match {
    pub agents: [String; 2],
    pub swap: bool,
    pub notation: bool,
}

impl Match {
    /// The agent specs for game `index`, by player.
    pub fn seating(&self, index: u64) -> [String; 2] {
        if self.swap && index % 2 == 1 {
            [self.agents[1].clone(), self.agents[0].clone()]
        } else {
            self.agents.clone()
        }
    }
}

/// Plays game `index` of a series to its end.
pub fn play_game(
    engine: &Engine,
    start: &State,
    m: &Match,
    seed: u64,
    index: u64,
) -> Result<GameResult, String> {
    let game = game_seed(seed, index);
    let seating = m.seating(index);
    if !m.notation && seating.iter().all(|a| a == "random") {
        return random_game(engine, start, game, seating, index);
    }
    let mut agents: Vec<Box<dyn Agent>> = Vec::new();
    for (seat, spec) in seating.iter().enumerate() {
        agents.push(agent(spec, game_seed(game, seat as u64 + 1))?);
    }
    let rule = |e: RuleError| format!("rule error: {e}");
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
            agents[s.mover as usize]
                .choose(engine, &s, &buf)
                .map_err(rule)?
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
            return Err(too_long(index));
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

fn too_long(index: u64) -> String {
    format!("game {index} did not end within {MAX_GAME_STEPS} steps")
}

/// A game between two random players without its notation, played on the runner's own
/// state: the same draws as the agents', so the same game as [`play_game`] would play.
fn random_game(
    engine: &Engine,
    start: &State,
    game: u64,
    seating: [String; 2],
    index: u64,
) -> Result<GameResult, String> {
    let mut rngs = [1, 2].map(|seat| Rng::new(game_seed(game, seat)));
    let (s, tally) = engine
        .random_game(start, &mut rngs, MAX_GAME_STEPS)
        .map_err(|e| format!("rule error: {e}"))?;
    if tally.steps == MAX_GAME_STEPS {
        return Err(too_long(index));
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

/// Plays `games` games on `jobs` threads; `progress` is called after each finished game with
/// the number done. Results come back in game order.
pub fn play_games(
    engine: &Engine,
    start: &State,
    m: &Match,
    seed: u64,
    games: u64,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<GameResult>, String> {
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let results: Mutex<Vec<GameResult>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            // The players' search follows a turn step by step, up to MAX_TURN_STEPS deep.
            let worker = std::thread::Builder::new().stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                    break;
                }
                match play_game(engine, start, m, seed, i) {
                    Ok(r) => {
                        if let Ok(mut all) = results.lock() {
                            all.push(r);
                        }
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    Err(e) => {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                    }
                }
            });
            if let Err(e) = spawned {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(format!("cannot start a worker thread: {e}"));
                }
                break;
            }
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or(None) {
        return Err(e);
    }
    let mut all = results.into_inner().unwrap_or_default();
    all.sort_by_key(|r| r.index);
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
