//! Self-play analyses started from the page (docs/API.md): N games between computer players,
//! played in the background by the same series runner as `outflank run`, with the same
//! statistics; the page polls for progress, and may stop one early.

use super::super::analyse::charts::{self, Chart};
use super::games::Catalogue;
use super::reply::{bad, body, internal, json_reply, missing, Failure};
use axum::extract::{Path, State as Shared};
use axum::http::StatusCode;
use axum::Json;
use outflank::apps::analysis::{GameSummary, Report};
use outflank::apps::selfplay::{play_series, Match};
use outflank::engine::Engine;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Games one analysis may ask for: a page waits for it (the command line has no such limit).
const MAX_GAMES: u64 = 100_000;
/// Analyses running at once: each takes every core.
const MAX_RUNNING: usize = 2;
/// Analyses kept, finished or not; past this, the oldest finished one makes room.
const MAX_KEPT: usize = 50;

/// The analyses started, and the games they are played from.
pub(super) struct AnalysisStore {
    catalogue: Arc<Catalogue>,
    analyses: Mutex<Analyses>,
}

struct Analyses {
    next: u64,
    by_id: BTreeMap<u64, Arc<Analysis>>,
}

impl AnalysisStore {
    pub(super) fn new(catalogue: Arc<Catalogue>) -> AnalysisStore {
        AnalysisStore {
            catalogue,
            analyses: Mutex::new(Analyses {
                next: 1,
                by_id: BTreeMap::new(),
            }),
        }
    }
}

/// One analysis: its settings, and what its games have shown so far.
pub(super) struct Analysis {
    game: String,
    /// The players' names, in turn order.
    names: Vec<String>,
    agents: Vec<String>,
    games: u64,
    stop: AtomicBool,
    progress: Mutex<Progress>,
}

#[derive(Default)]
struct Progress {
    /// The games so far, for the designer's metrics (docs/ANALYSIS.md); once the analysis
    /// ends, only their report is kept.
    summaries: Vec<GameSummary>,
    report: Option<Report>,
    /// Each player's score after each turn of the first game, for the chart.
    first_game: Option<Vec<Vec<f64>>>,
    /// `analyse --plots`'s charts, drawn once the analysis ends.
    charts: Vec<Chart>,
    finished: bool,
    error: Option<String>,
    seconds: f64,
}

fn lock(p: &Mutex<Progress>) -> std::sync::MutexGuard<'_, Progress> {
    p.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisRequest {
    game: String,
    /// One player per seat, in turn order.
    agents: Vec<String>,
    games: u64,
    #[serde(default)]
    set: BTreeMap<String, String>,
    /// An edit of the game's rules to analyse instead of the served file.
    #[serde(default)]
    rules: Option<String>,
    #[serde(default = "first_seed")]
    seed: u64,
}

fn first_seed() -> u64 {
    1
}

/// The scores after each turn of a game, replayed from its moves.
fn score_course(engine: &Engine, moves: &[String]) -> Option<Vec<Vec<f64>>> {
    let mut s = engine.start().ok()?;
    let mut course = vec![engine.outcome(&s, None).scores().to_vec()];
    for m in moves {
        s = engine.play_history(&s, m).ok()?;
        course.push(engine.outcome(&s, None).scores().to_vec());
    }
    Some(course)
}

/// `POST /api/analyses {"game", "agents": [A, B], "games": N}`: starts N games in the
/// background; answers with the analysis' id at once.
pub(super) async fn start(
    Shared(server): Shared<Arc<AnalysisStore>>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: AnalysisRequest = body(&text)?;
    if request.games == 0 || request.games > MAX_GAMES {
        return Err(bad(format!(
            "games must be from 1 to {MAX_GAMES} (the command line's `run` has no limit)"
        )));
    }
    for a in &request.agents {
        super::sessions::within_limits(a)?;
        outflank::agents::agent(a, 1).map_err(bad)?;
    }
    let set: Vec<(String, String)> = request.set.clone().into_iter().collect();
    let checking = server.clone();
    let (game, rules) = (request.game.clone(), request.rules.clone());
    let engine =
        tokio::task::spawn_blocking(move || checking.catalogue.game(&game, rules.as_deref(), &set))
            .await
            .map_err(internal)?
            .map_err(bad)?
            .ok_or_else(|| {
                missing(format!(
                    "no game named {}",
                    outflank::diagnostic::printable(&request.game)
                ))
            })?;
    let players = engine.game.player_count() as usize;
    if request.agents.len() != players {
        return Err(bad(format!(
            "these rules have {players} players; give one agent for each, in turn order"
        )));
    }
    let begin = engine
        .start()
        .map_err(|e| bad(format!("rule error: {}", e.message)))?;
    let analysis = Arc::new(Analysis {
        game: request.game.clone(),
        names: (0..players)
            .map(|p| engine.player_name(p as u8).to_string())
            .collect(),
        agents: request.agents.clone(),
        games: request.games,
        stop: AtomicBool::new(false),
        progress: Mutex::new(Progress::default()),
    });
    let id = {
        let running = server.running();
        let mut all = server.analyses();
        if running >= MAX_RUNNING {
            return Err(Failure(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("{running} analyses are running, which take every core; stop one or wait"),
            ));
        }
        if all.by_id.len() >= MAX_KEPT {
            let oldest = all
                .by_id
                .iter()
                .find(|(_, a)| lock(&a.progress).finished)
                .map(|(id, _)| *id);
            if let Some(id) = oldest {
                all.by_id.remove(&id);
            }
        }
        let id = all.next;
        all.next += 1;
        all.by_id.insert(id, analysis.clone());
        id
    };
    let m = Match {
        agents: request.agents,
        swap: false,
        // The moves are kept for the chart of the first game.
        notation: true,
    };
    let jobs = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let seed = request.seed;
    let spawned = std::thread::Builder::new().spawn(move || {
        let started = Instant::now();
        let ended = play_series(
            &engine,
            &begin,
            &m,
            seed,
            0..analysis.games,
            jobs,
            &analysis.stop,
            &mut |r| {
                let summary = GameSummary::of(&engine, &begin, &r)?;
                let course = (r.index == 0)
                    .then(|| score_course(&engine, &r.moves))
                    .flatten();
                let mut p = lock(&analysis.progress);
                if course.is_some() {
                    p.first_game = course;
                }
                p.summaries.push(summary);
                p.seconds = started.elapsed().as_secs_f64();
                Ok(())
            },
        );
        let mut p = lock(&analysis.progress);
        let report = Report::of(&analysis.names, &p.summaries);
        p.charts = charts::of_series(&analysis.names, &report, &p.summaries);
        p.report = Some(report);
        p.summaries = Vec::new();
        p.finished = true;
        p.seconds = started.elapsed().as_secs_f64();
        if let Err(e) = ended {
            p.error = Some(e.to_string());
        }
    });
    if let Err(e) = spawned {
        server.analyses().by_id.remove(&id);
        return Err(internal(format!("cannot start the analysis: {e}")));
    }
    Ok(Json(json!({ "id": id.to_string() })))
}

impl AnalysisStore {
    fn analyses(&self) -> std::sync::MutexGuard<'_, Analyses> {
        self.analyses
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn running(&self) -> usize {
        self.analyses()
            .by_id
            .values()
            .filter(|a| !lock(&a.progress).finished)
            .count()
    }

    fn analysis(&self, id: &str) -> Result<Arc<Analysis>, Failure> {
        id.parse::<u64>()
            .ok()
            .and_then(|n| self.analyses().by_id.get(&n).cloned())
            .ok_or_else(|| {
                missing(format!(
                    "no analysis {} (it was forgotten, or the server restarted)",
                    outflank::diagnostic::printable(id)
                ))
            })
    }
}

/// `GET /api/analyses/ID`: how far it is, and the statistics of the games played so far.
pub(super) async fn progress(
    Shared(server): Shared<Arc<AnalysisStore>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    let analysis = server.analysis(&id)?;
    let p = lock(&analysis.progress);
    let r = p
        .report
        .clone()
        .unwrap_or_else(|| Report::of(&analysis.names, &p.summaries));
    // `run`'s statistics, in `run --json`'s shapes, read off the report.
    let wins: Vec<Value> = r
        .seats
        .iter()
        .zip(&analysis.agents)
        .map(|(seat, agent)| {
            let w = &seat.wins;
            json!({
                "player": seat.player,
                "agent": agent,
                "share": { "wins": w.count, "rate": w.rate, "ci95": w.ci95 },
            })
        })
        .collect();
    let status = json!({
        "id": id,
        "game": analysis.game,
        "agents": analysis.agents,
        "games": analysis.games,
        "done": r.games,
        "finished": p.finished,
        "stopped": analysis.stop.load(Ordering::Relaxed),
        "error": p.error,
        "wins": wins,
        "draws": r.draws.count,
        "length": { "mean": r.length.mean, "min": r.shortest, "max": r.longest },
        "branching": r.branching,
        "seconds": p.seconds,
        "first_game": p.first_game.as_ref().map(|course| json!({
            "players": analysis.names,
            "scores": course,
        })),
        "report": r,
        "charts": p.charts,
    });
    // The same numbers as `run --json` and `analyse --json` write.
    Ok(json_reply(status))
}

/// `DELETE /api/analyses/ID`: stops it; the games finished so far stay counted.
pub(super) async fn stop(
    Shared(server): Shared<Arc<AnalysisStore>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    let analysis = server.analysis(&id)?;
    analysis.stop.store(true, Ordering::Relaxed);
    Ok(Json(json!({ "stopping": id })))
}
