//! The JSON API of `outflank serve` (docs/API.md): games on offer, and game sessions played a
//! step at a time by people (`step`) or by the computer players (`agent`). Errors are JSON
//! objects with a one-line `error`, and a status that says whose fault it was.

use super::games::Catalogue;
use axum::extract::{Path, State as Shared};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use outflank::engine::state::State;
use outflank::engine::{Engine, Step};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Sessions kept at once; past this, the one left alone longest makes room.
const MAX_SESSIONS: usize = 2000;
/// Steps a session may hold (a game that long is taken to be endless, as the CLI does).
const MAX_STEPS: usize = outflank::agents::MAX_GAME_STEPS as usize;

pub(super) struct Server {
    catalogue: Catalogue,
    sessions: Mutex<Sessions>,
}

struct Sessions {
    next: u64,
    by_id: BTreeMap<u64, Arc<Mutex<Session>>>,
}

/// One game being played: the positions so far (the last is the current one) and the steps
/// between them.
struct Session {
    game: String,
    engine: Arc<Engine>,
    positions: Vec<State>,
    steps: Vec<String>,
    touched: Instant,
}

/// A failed request: its status and one line saying why.
pub(super) struct Failure(StatusCode, String);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

fn bad(message: impl Into<String>) -> Failure {
    Failure(StatusCode::UNPROCESSABLE_ENTITY, message.into())
}

fn missing(message: impl Into<String>) -> Failure {
    Failure(StatusCode::NOT_FOUND, message.into())
}

/// A request body: JSON of the expected shape, or a one-line error.
fn body<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Failure> {
    serde_json::from_str(text)
        .map_err(|e| Failure(StatusCode::BAD_REQUEST, format!("bad request body: {e}")))
}

impl Server {
    pub(super) fn new(catalogue: Catalogue) -> Server {
        Server {
            catalogue,
            sessions: Mutex::new(Sessions {
                next: 1,
                by_id: BTreeMap::new(),
            }),
        }
    }

    fn session(&self, id: &str) -> Result<Arc<Mutex<Session>>, Failure> {
        let sessions = self
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        id.parse::<u64>()
            .ok()
            .and_then(|id| sessions.by_id.get(&id).cloned())
            .ok_or_else(|| {
                missing(format!(
                    "no game session {id} (it ended, or the server restarted)"
                ))
            })
    }
}

fn lock(session: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    session
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What the page shows of a session: the board, whose turn, the legal steps and the scores.
fn view(id: u64, s: &Session) -> Result<Value, Failure> {
    let engine = &s.engine;
    let at = s.positions.last().expect("a session has its start");
    let g = &engine.game;
    let mut legal = Vec::new();
    if at.outcome.is_none() {
        engine
            .steps(at, &mut legal)
            .map_err(|e| bad(format!("rule error: {}", e.message)))?;
    }
    let steps: Vec<Value> = legal
        .iter()
        .map(|&step| {
            json!({
                "text": engine.step_notation(at, step),
                "cell": engine.step_cell(at, step).map(|c| g.geometry.name(c)),
            })
        })
        .collect();
    let outcome = engine.outcome(at, None);
    let scores = outcome.scores();
    let players: Vec<Value> = (0..g.players.len())
        .map(|p| {
            json!({
                "name": engine.player_name(p as u8),
                "symbol": g.slot_symbol(p).to_string(),
                "score": scores[p],
            })
        })
        .collect();
    let winner = at.outcome.map(|o| {
        if o.winner == outflank::ir::NOBODY {
            Value::Null
        } else {
            json!(engine.player_name(o.winner))
        }
    });
    let rows = engine.board_rows(at);
    // The cells the last step changed, for the page to mark.
    let changed: Vec<String> = match s.positions.len() {
        0 | 1 => Vec::new(),
        n => {
            let before = engine.board_rows(&s.positions[n - 2]);
            let mut out = Vec::new();
            for (y, (a, b)) in before.iter().zip(&rows).enumerate() {
                for (x, (ca, cb)) in a.chars().zip(b.chars()).enumerate() {
                    if ca != cb {
                        out.push(g.geometry.name(y * g.geometry.width + x));
                    }
                }
            }
            out
        }
    };
    Ok(json!({
        "id": id.to_string(),
        "game": s.game,
        "title": g.title,
        "width": g.geometry.width,
        "height": g.geometry.height,
        "rows": rows,
        "players": players,
        "to_move": engine.player_name(at.mover),
        "steps": steps,
        "over": at.outcome.is_some(),
        "winner": winner,
        "history": s.steps,
        "changed": changed,
    }))
}

/// `GET /api/games`
pub(super) async fn games(Shared(server): Shared<Arc<Server>>) -> Json<Value> {
    let list: Vec<Value> = server
        .catalogue
        .entries
        .iter()
        .map(|e| json!({ "id": e.id, "title": e.title, "players": e.players }))
        .collect();
    Json(Value::Array(list))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewSession {
    game: String,
    #[serde(default)]
    set: BTreeMap<String, String>,
}

/// `POST /api/sessions {"game": ID, "set": {NAME: VALUE}}`: a new game from its start.
pub(super) async fn new_session(
    Shared(server): Shared<Arc<Server>>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: NewSession = body(&text)?;
    let set: Vec<(String, String)> = request.set.into_iter().collect();
    let game = request.game.clone();
    let checking = server.clone();
    // Checking the rules computes (regions, tables): off the async threads.
    let engine = tokio::task::spawn_blocking(move || checking.catalogue.game(&game, &set))
        .await
        .map_err(|e| Failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(bad)?
        .ok_or_else(|| missing(format!("no game named {}", request.game)))?;
    let start = engine
        .start()
        .map_err(|e| bad(format!("rule error: {}", e.message)))?;
    let session = Session {
        game: request.game,
        engine: Arc::new(engine),
        positions: vec![start],
        steps: Vec::new(),
        touched: Instant::now(),
    };
    let mut sessions = server
        .sessions
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if sessions.by_id.len() >= MAX_SESSIONS {
        let oldest = sessions
            .by_id
            .iter()
            .min_by_key(|(_, s)| lock(s).touched)
            .map(|(id, _)| *id);
        if let Some(id) = oldest {
            sessions.by_id.remove(&id);
        }
    }
    let id = sessions.next;
    sessions.next += 1;
    let v = view(id, &session)?;
    sessions.by_id.insert(id, Arc::new(Mutex::new(session)));
    Ok(Json(v))
}

/// `GET /api/sessions/ID`
pub(super) async fn session(
    Shared(server): Shared<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    let session = server.session(&id)?;
    let s = lock(&session);
    Ok(Json(view(id.parse().unwrap_or(0), &s)?))
}

/// `DELETE /api/sessions/ID`: the game is over for the page; its memory is freed.
pub(super) async fn end_session(
    Shared(server): Shared<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    server.session(&id)?;
    let mut sessions = server
        .sessions
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    sessions.by_id.remove(&id.parse().unwrap_or(0));
    Ok(Json(json!({ "ended": id })))
}

/// Plays `step` in the session: a new position, and the step in the history.
fn play(s: &mut Session, step: Step, text: String) -> Result<(), Failure> {
    if s.steps.len() >= MAX_STEPS {
        return Err(bad(
            "this game has gone on for a million steps: it is taken to be endless",
        ));
    }
    let at = s.positions.last().expect("a session has its start");
    let next = s
        .engine
        .apply(at, step)
        .map_err(|e| bad(format!("rule error: {}", e.message)))?;
    s.positions.push(next);
    s.steps.push(text);
    s.touched = Instant::now();
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepRequest {
    step: String,
}

/// `POST /api/sessions/ID/step {"step": TEXT}`: one step, written as the legal steps list it.
pub(super) async fn step(
    Shared(server): Shared<Arc<Server>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: StepRequest = body(&text)?;
    let session = server.session(&id)?;
    let mut s = lock(&session);
    let at = *s.positions.last().expect("a session has its start");
    if at.outcome.is_some() {
        return Err(bad("the game is over"));
    }
    let mut legal = Vec::new();
    s.engine
        .steps(&at, &mut legal)
        .map_err(|e| bad(format!("rule error: {}", e.message)))?;
    let texts: Vec<String> = legal
        .iter()
        .map(|&l| s.engine.step_notation(&at, l))
        .collect();
    let Some(i) = texts.iter().position(|t| *t == request.step) else {
        let shown: Vec<&str> = texts.iter().take(40).map(String::as_str).collect();
        return Err(bad(format!(
            "`{}` is not a legal step here; the legal steps are: {}",
            outflank::diagnostic::printable(&request.step),
            shown.join(" ")
        )));
    };
    play(&mut s, legal[i], texts[i].clone())?;
    Ok(Json(view(id.parse().unwrap_or(0), &s)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentRequest {
    agent: String,
    #[serde(default)]
    seed: u64,
}

/// `POST /api/sessions/ID/agent {"agent": SPEC}`: a computer player takes the next step.
pub(super) async fn agent_step(
    Shared(server): Shared<Arc<Server>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: AgentRequest = body(&text)?;
    let session = server.session(&id)?;
    let (engine, at, count) = {
        let s = lock(&session);
        let at = *s.positions.last().expect("a session has its start");
        (s.engine.clone(), at, s.steps.len())
    };
    if at.outcome.is_some() {
        return Err(bad("the game is over"));
    }
    let seed = outflank::agents::game_seed(request.seed, count as u64);
    let mut agent = outflank::agents::agent(&request.agent, seed).map_err(bad)?;
    // The agent thinks off the async threads, and without the session's lock: the page may
    // ask for the position meanwhile.
    let thinking = engine.clone();
    let (step, text) = tokio::task::spawn_blocking(move || {
        let mut legal = Vec::new();
        thinking.steps(&at, &mut legal)?;
        let step = agent.choose(&thinking, &at, &legal)?;
        Ok::<_, outflank::engine::RuleError>((step, thinking.step_notation(&at, step)))
    })
    .await
    .map_err(|e| Failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(|e| bad(format!("rule error: {}", e.message)))?;
    let mut s = lock(&session);
    if s.steps.len() != count {
        return Err(Failure(
            StatusCode::CONFLICT,
            "the game moved on while the player was thinking".into(),
        ));
    }
    play(&mut s, step, text)?;
    Ok(Json(view(id.parse().unwrap_or(0), &s)?))
}

/// `POST /api/sessions/ID/undo`: takes back the last step.
pub(super) async fn undo(
    Shared(server): Shared<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    let session = server.session(&id)?;
    let mut s = lock(&session);
    if s.steps.is_empty() {
        return Err(bad("nothing to undo: the game is at its start"));
    }
    s.positions.pop();
    s.steps.pop();
    s.touched = Instant::now();
    Ok(Json(view(id.parse().unwrap_or(0), &s)?))
}

pub(super) async fn not_found() -> Failure {
    missing("no such page or API call; the API is described in docs/API.md")
}
