//! Game sessions of `outflank serve` (docs/API.md): a game played a step at a time by people
//! (`step`) or by the computer players (`agent`), started from the rules as served, from an
//! edit of them, or from a record to replay; any earlier position can be viewed, played on
//! from, and the game downloaded as a record that `outflank replay` accepts.

use super::games::Catalogue;
use super::reply::{bad, body, bounded, internal, json_reply, missing, Failure};
use axum::extract::{Path, Query, State as Shared};
use axum::http::StatusCode;
use axum::Json;
use outflank::apps::record::{params_of, replay, resignation, result_of, rules_hash, Record};
use outflank::apps::record::{same_rules, StartPosition};
use outflank::engine::state::State;
use outflank::engine::{Engine, Step};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Sessions kept at once; past this, the one left alone longest makes room.
pub(super) const MAX_SESSIONS: usize = 2000;
/// Steps a session may hold (a game that long is taken to be endless, as the CLI does).
const MAX_STEPS: usize = outflank::agents::MAX_GAME_STEPS as usize;
/// The share of the sessions' memory (`serve --session-memory`) one session may take: a record
/// too long for it is refused, and so is a step past it. (A replayed record of 120,000 turns
/// takes about 50 MB, and the session count alone let a client's replays reach 100 GB.)
const ONE_SESSION_SHARE: usize = 4;

/// The sessions being played, and the games they are played from.
pub(super) struct SessionStore {
    catalogue: Arc<Catalogue>,
    /// Memory all sessions' positions and steps may take together; past it, the sessions left
    /// alone longest make room for a new one.
    memory: usize,
    sessions: Mutex<Sessions>,
    /// Players thinking at once, one a core: a player holds a core while it thinks, and its
    /// tables or tree (up to a few hundred MB), so more at once would only share the cores
    /// and add up the memory (64 blocking threads of 320 MB each).
    thinking: Arc<tokio::sync::Semaphore>,
}

struct Sessions {
    next: u64,
    by_id: BTreeMap<u64, Arc<Mutex<Session>>>,
}

impl SessionStore {
    pub(super) fn new(catalogue: Arc<Catalogue>, memory: usize) -> SessionStore {
        SessionStore {
            catalogue,
            memory,
            sessions: Mutex::new(Sessions {
                next: 1,
                by_id: BTreeMap::new(),
            }),
            thinking: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            )),
        }
    }
}

/// One game being played: the positions so far (the last is the current one) and the steps
/// between them.
pub(super) struct Session {
    game: String,
    /// The rules file's name, as a record names it.
    rules: String,
    engine: Arc<Engine>,
    /// The start, when it is not the rules' own (a record's).
    start: Option<StartPosition>,
    positions: Vec<State>,
    steps: Vec<String>,
    /// The player who resigned, which ends the game where it stands.
    resigned: Option<u8>,
    /// Regions shaded on the board.
    shade: Vec<String>,
    touched: Instant,
    /// The memory the session's positions and steps may take.
    room: usize,
}

fn lock(session: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    session
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl SessionStore {
    /// The session called `id`, and its number.
    fn session(&self, id: &str) -> Result<(u64, Arc<Mutex<Session>>), Failure> {
        let sessions = self.sessions();
        id.parse::<u64>()
            .ok()
            .and_then(|n| Some((n, sessions.by_id.get(&n)?.clone())))
            .ok_or_else(|| {
                missing(format!(
                    "no game session {} (it ended, or the server restarted)",
                    outflank::diagnostic::printable(id)
                ))
            })
    }

    pub(super) fn count(&self) -> usize {
        self.sessions().by_id.len()
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, Sessions> {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `change` on session `id`, and answers with the view it leaves.
    fn change(
        &self,
        id: &str,
        change: impl FnOnce(&mut Session) -> Result<(), Failure>,
    ) -> Result<Json<Value>, Failure> {
        let (n, session) = self.session(id)?;
        let mut s = lock(&session);
        change(&mut s)?;
        s.touched = Instant::now();
        let last = s.positions.len() - 1;
        Ok(json_reply(view(n, &s, last)?))
    }
}

fn too_long(room: usize) -> Failure {
    Failure(
        axum::http::StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "this game is too long to keep in a session here (at most {} MB of positions; \
             serve --session-memory gives sessions more); `outflank replay` checks a record \
             of any length",
            room >> 20
        ),
    )
}

fn rule_error(e: &outflank::engine::RuleError) -> Failure {
    bad(format!("rule error: {}", e.message))
}

impl Session {
    fn now(&self) -> &State {
        self.positions.last().expect("a session has its start")
    }

    fn over(&self) -> bool {
        self.now().outcome.is_some() || self.resigned.is_some()
    }

    /// The memory of the session's positions and steps (its compiled rules aside).
    fn bytes(&self) -> usize {
        self.positions.capacity() * std::mem::size_of::<State>()
            + self.steps.capacity() * std::mem::size_of::<String>()
            + self.steps.iter().map(String::capacity).sum::<usize>()
    }

    /// Plays `step`: a new position, and the step in the history.
    fn play(&mut self, step: Step, text: String) -> Result<(), Failure> {
        if self.steps.len() >= MAX_STEPS {
            return Err(bad(
                "this game has gone on for a million steps: it is taken to be endless",
            ));
        }
        if self.bytes() >= self.room {
            return Err(too_long(self.room));
        }
        let next = self
            .engine
            .apply(self.now(), step)
            .map_err(|e| rule_error(&e))?;
        self.positions.push(next);
        self.steps.push(text);
        Ok(())
    }

    /// The legal steps now, with their notation.
    fn legal(&self) -> Result<Vec<(Step, String)>, Failure> {
        let at = self.now();
        let mut legal = Vec::new();
        if !self.over() {
            self.engine
                .steps(at, &mut legal)
                .map_err(|e| rule_error(&e))?;
        }
        Ok(legal
            .into_iter()
            .map(|l| (l, self.engine.step_notation(at, l)))
            .collect())
    }

    /// The game as a record: its whole turns (a turn begun and not finished is left out, as
    /// a record holds whole turns), and its result once over.
    fn record(&self, seats: &[String]) -> Record {
        let engine = &self.engine;
        let mut moves = Vec::new();
        let mut turn = String::new();
        let mut end = 0;
        for (i, text) in self.steps.iter().enumerate() {
            turn.push_str(text);
            let after = &self.positions[i + 1];
            if after.steps == 0 || after.is_over() {
                moves.push(std::mem::take(&mut turn));
                end = i + 1;
            }
        }
        let last = &self.positions[end];
        let result = match self.resigned {
            // Only a game of two players can be resigned (`resign` refuses others).
            Some(p) if end == self.steps.len() => Some(resignation(engine, last, p)),
            _ => result_of(engine, last),
        };
        Record {
            rules: self.rules.clone(),
            rules_hash: rules_hash(engine),
            params: params_of(engine),
            players: (0..engine.game.player_count())
                .map(|p| {
                    let seat = seats.get(p as usize).map_or("browser", String::as_str);
                    (engine.player_name(p).to_string(), seat.to_string())
                })
                .collect(),
            seed: None,
            start: self.start.clone(),
            moves,
            agreement: None,
            result,
        }
    }
}

/// What the page shows of position `at` of a session: the board drawn, whose turn, the legal
/// steps (at the last position), the scores and the history.
fn view(id: u64, s: &Session, at: usize) -> Result<Value, Failure> {
    let engine = &s.engine;
    let g = &engine.game;
    let last = at + 1 == s.positions.len();
    let here = &s.positions[at];
    let legal = if last { s.legal()? } else { Vec::new() };
    let steps: Vec<Value> = legal
        .iter()
        .map(|&(step, ref text)| {
            json!({ "text": text, "cell": engine.step_cell(here, step).map(|c| g.geometry.name(c)) })
        })
        .collect();
    let outcome = engine.outcome(here, None);
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
    let resigned = s.resigned.filter(|_| last);
    let winner = match (here.outcome, resigned) {
        (_, Some(p)) if g.player_count() == 2 => json!(engine.player_name(1 - p)),
        (Some(o), None) if o.winner != outflank::ir::NOBODY => json!(engine.player_name(o.winner)),
        _ => Value::Null,
    };
    // The cells the step into this position changed, for the page to mark.
    let rows = engine.board_rows(here);
    let mut changed = Vec::new();
    if at > 0 {
        let before = engine.board_rows(&s.positions[at - 1]);
        for (y, (a, b)) in before.iter().zip(&rows).enumerate() {
            for (x, (ca, cb)) in a.chars().zip(b.chars()).enumerate() {
                if ca != cb {
                    changed.push(y * g.geometry.width + x);
                }
            }
        }
    }
    let drawing = outflank::apps::render::Drawing {
        shade: s.shade.clone(),
        rings: changed.clone(),
        targets: true,
        ..Default::default()
    };
    let svg = outflank::apps::render::svg(engine, here, &drawing).map_err(bad)?;
    Ok(json!({
        "id": id.to_string(),
        "game": s.game,
        "title": g.title,
        "svg": svg,
        "width": g.geometry.width,
        "height": g.geometry.height,
        "rows": rows,
        "regions": g.regions.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "shade": s.shade,
        "players": players,
        "to_move": engine.player_name(here.mover),
        "mid_turn": here.steps > 0,
        "steps": steps,
        "over": here.outcome.is_some() || resigned.is_some(),
        "resigned": resigned.map(|p| engine.player_name(p)),
        "winner": winner,
        "history": s.steps,
        "at": at,
        "changed": changed.iter().map(|&c| g.geometry.name(c)).collect::<Vec<_>>(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewSession {
    game: String,
    #[serde(default)]
    set: BTreeMap<String, String>,
    /// An edit of the game's rules to play instead of the served file.
    #[serde(default)]
    rules: Option<String>,
    /// A record to replay: the session holds its steps, and can be played on from any of them.
    #[serde(default)]
    record: Option<Record>,
    #[serde(default)]
    shade: Vec<String>,
}

/// `POST /api/sessions`: a new game from its start, or a record's game.
pub(super) async fn new_session(
    Shared(server): Shared<Arc<SessionStore>>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: NewSession = body(&text)?;
    let checking = server.clone();
    // Checking the rules and replaying a record compute: off the async threads.
    // A session past its room was refused while its record replayed (`load_record`).
    let session = bounded(move || build(&checking, request)).await?;
    let incoming = session.bytes();
    let mut sessions = server.sessions();
    // The sessions left alone longest make room, in number and in memory.
    let mut by_age: Vec<(Instant, u64, usize)> = sessions
        .by_id
        .iter()
        .map(|(id, s)| {
            let s = lock(s);
            (s.touched, *id, s.bytes())
        })
        .collect();
    by_age.sort_unstable();
    let mut total: usize = by_age.iter().map(|&(_, _, bytes)| bytes).sum();
    for (_, id, bytes) in by_age {
        if sessions.by_id.len() < MAX_SESSIONS && total + incoming <= server.memory {
            break;
        }
        sessions.by_id.remove(&id);
        total -= bytes;
    }
    let id = sessions.next;
    sessions.next += 1;
    let v = view(id, &session, session.positions.len() - 1)?;
    sessions.by_id.insert(id, Arc::new(Mutex::new(session)));
    Ok(json_reply(v))
}

/// The session a request asks for, its record replayed when it brings one.
fn build(server: &SessionStore, request: NewSession) -> Result<Session, Failure> {
    let NewSession {
        game,
        mut set,
        rules,
        record,
        shade,
    } = request;
    let Some(entry) = server.catalogue.entry(&game) else {
        return Err(missing(format!(
            "no game named {}",
            outflank::diagnostic::printable(&game)
        )));
    };
    let compile = |set: &BTreeMap<String, String>| {
        let set: Vec<(String, String)> = set.clone().into_iter().collect();
        server
            .catalogue
            .game(&game, rules.as_deref(), &set)
            .map_err(bad)
            .map(|e| e.expect("the entry exists"))
    };
    let mut engine = compile(&set)?;
    let mut start = None;
    let mut begin = engine.start().map_err(|e| rule_error(&e))?;
    if let Some(record) = &record {
        // The rules' hash does not depend on parameters: a record of other rules is told
        // apart before its parameters are tried on these.
        same_rules(&engine, record).map_err(|m| bad(format!("the record does not fit: {m}")))?;
        for (k, v) in &record.params {
            set.entry(k.clone()).or_insert_with(|| v.clone());
        }
        engine = compile(&set)?;
        if let Some(p) = &record.start {
            begin = p
                .state(&engine)
                .map_err(|e| bad(format!("the record's start does not fit these rules: {e}")))?;
            start = Some(p.clone());
        }
    }
    let mut session = Session {
        game,
        rules: entry.source().name.clone(),
        engine: Arc::new(engine),
        start,
        positions: vec![begin],
        steps: Vec::new(),
        resigned: None,
        shade: Vec::new(),
        touched: Instant::now(),
        room: server.memory / ONE_SESSION_SHARE,
    };
    if let Some(record) = &record {
        load_record(&mut session, record)?;
    }
    set_shade(&mut session, shade)?;
    Ok(session)
}

/// Replays `record` into the session step by step, after checking that it replays whole (its
/// moves legal, its result the rules' own).
fn load_record(s: &mut Session, record: &Record) -> Result<(), Failure> {
    // Refused before anything is replayed: each move takes a position at least.
    if record
        .moves
        .len()
        .saturating_mul(std::mem::size_of::<State>())
        > s.room
    {
        return Err(too_long(s.room));
    }
    let engine = s.engine.clone();
    let begin = *s.now();
    replay(&engine, &begin, record).map_err(|m| bad(format!("the record does not replay: {m}")))?;
    if record.agreement.is_some() {
        return Err(bad(
            "this record ends by an agreement after two passes, which the page cannot show yet; `outflank replay` checks it",
        ));
    }
    let mut at = begin;
    for m in &record.moves {
        let played = engine
            .parse_turn(&at, m)
            .map_err(|_| bad(format!("the record's move `{m}` does not replay")))?;
        let mut before = at;
        for (step, after) in played {
            s.steps.push(engine.step_notation(&before, step));
            s.positions.push(after);
            before = after;
        }
        if s.bytes() > s.room {
            return Err(too_long(s.room));
        }
        at = before;
    }
    if let Some(who) = record.result.as_ref().and_then(|r| r.resigned.as_deref()) {
        s.resigned = engine.game.player_by_name(who);
    }
    Ok(())
}

fn set_shade(s: &mut Session, shade: Vec<String>) -> Result<(), Failure> {
    for name in &shade {
        if !s.engine.game.regions.iter().any(|(n, _)| n == name) {
            let known: Vec<&str> = s
                .engine
                .game
                .regions
                .iter()
                .map(|(n, _)| n.as_str())
                .collect();
            return Err(bad(format!(
                "no region named `{}`; the regions are: {}",
                outflank::diagnostic::printable(name),
                if known.is_empty() {
                    "none".into()
                } else {
                    known.join(", ")
                }
            )));
        }
    }
    s.shade = shade;
    Ok(())
}

#[derive(Deserialize)]
pub(super) struct At {
    at: Option<usize>,
}

/// `GET /api/sessions/ID[?at=K]`: the view now, or after the first K steps.
pub(super) async fn session(
    Shared(server): Shared<Arc<SessionStore>>,
    Path(id): Path<String>,
    Query(at): Query<At>,
) -> Result<Json<Value>, Failure> {
    let (n, session) = server.session(&id)?;
    let s = lock(&session);
    let at = match at.at {
        Some(k) if k >= s.positions.len() => {
            return Err(bad(format!(
                "the game has {} steps; ask for at=0 to at={}",
                s.steps.len(),
                s.steps.len()
            )))
        }
        Some(k) => k,
        None => s.positions.len() - 1,
    };
    Ok(json_reply(view(n, &s, at)?))
}

/// `DELETE /api/sessions/ID`: the game is over for the page; its memory is freed.
pub(super) async fn end_session(
    Shared(server): Shared<Arc<SessionStore>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    let (n, _) = server.session(&id)?;
    server.sessions().by_id.remove(&n);
    Ok(Json(json!({ "ended": id })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepRequest {
    step: String,
}

/// `POST /api/sessions/ID/step {"step": TEXT}`: one step, written as the legal steps list it.
pub(super) async fn step(
    Shared(server): Shared<Arc<SessionStore>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: StepRequest = body(&text)?;
    server.change(&id, |s| {
        if s.over() {
            return Err(bad("the game is over"));
        }
        let legal = s.legal()?;
        let Some((step, text)) = legal.iter().find(|(_, t)| *t == request.step).cloned() else {
            let shown: Vec<&str> = legal.iter().take(40).map(|(_, t)| t.as_str()).collect();
            return Err(bad(format!(
                "`{}` is not a legal step here; the legal steps are: {}",
                outflank::diagnostic::printable(&request.step),
                shown.join(" ")
            )));
        };
        s.play(step, text)
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentRequest {
    agent: String,
    #[serde(default)]
    seed: u64,
}

/// The strongest players the server runs for a page: stronger ones would hold a worker thread
/// for minutes (the command line has no such limit).
const MAX_PLAYOUTS: u64 = 200_000;
const MAX_MILLIS: u64 = 30_000;
const MAX_DEPTH: u64 = 10;
const MAX_EXACT: u64 = 16;

/// Refuses players that would think longer than a page should wait.
pub(super) fn within_limits(spec: &str) -> Result<(), Failure> {
    let limit = match spec.split_once(':') {
        Some(("mcts", n)) => match n.strip_suffix("ms") {
            Some(ms) => ms.parse::<u64>().ok().map(|v| (v, MAX_MILLIS, "ms")),
            None => n
                .parse::<u64>()
                .ok()
                .map(|v| (v, MAX_PLAYOUTS, " playouts")),
        },
        Some(("alphabeta", d)) => match d.split_once(':') {
            // Solving exactly from more empty cells could take the server hours.
            Some((_, e)) if e.parse::<u64>().is_ok_and(|e| e > MAX_EXACT) => Some((
                e.parse().unwrap_or(u64::MAX),
                MAX_EXACT,
                " empty cells solved exactly",
            )),
            Some((d, _)) => d.parse::<u64>().ok().map(|v| (v, MAX_DEPTH, " plies")),
            None => d.parse::<u64>().ok().map(|v| (v, MAX_DEPTH, " plies")),
        },
        _ => None,
    };
    match limit {
        Some((v, max, unit)) if v > max => Err(bad(format!(
            "`{}` would think too long for a page: the server runs at most {max}{unit}",
            outflank::diagnostic::printable(spec)
        ))),
        _ => Ok(()),
    }
}

/// `POST /api/sessions/ID/agent {"agent": SPEC}`: a computer player takes the next step.
pub(super) async fn agent_step(
    Shared(server): Shared<Arc<SessionStore>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: AgentRequest = body(&text)?;
    within_limits(&request.agent)?;
    let (_, session) = server.session(&id)?;
    let (engine, at, count) = {
        let s = lock(&session);
        if s.over() {
            return Err(bad("the game is over"));
        }
        (s.engine.clone(), *s.now(), s.steps.len())
    };
    let seed = outflank::agents::game_seed(request.seed, count as u64);
    let mut agent = outflank::agents::agent(&request.agent, seed).map_err(bad)?;
    // The agent thinks off the async threads, and without the session's lock: the page may
    // ask for the position meanwhile. It waits for a core first, and the thread holds the
    // core until it ends, even if the page has gone.
    let permit = server
        .thinking
        .clone()
        .acquire_owned()
        .await
        .map_err(internal)?;
    let (step, text) = tokio::task::spawn_blocking(move || {
        let _core = permit;
        let mut legal = Vec::new();
        engine.steps(&at, &mut legal)?;
        let step = agent.choose(&engine, &at, &legal)?;
        Ok::<_, outflank::engine::RuleError>((step, engine.step_notation(&at, step)))
    })
    .await
    .map_err(internal)?
    .map_err(|e| rule_error(&e))?;
    server.change(&id, |s| {
        if s.steps.len() != count || s.over() {
            return Err(Failure(
                StatusCode::CONFLICT,
                "the game moved on while the player was thinking".into(),
            ));
        }
        s.play(step, text)
    })
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    /// Back to the position after this many steps (default: one step back).
    to: Option<usize>,
}

/// `POST /api/sessions/ID/undo [{"to": K}]`: takes back the last step, or every step after
/// the first K (to play on from a replayed position).
pub(super) async fn undo(
    Shared(server): Shared<Arc<SessionStore>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: UndoRequest = if text.trim().is_empty() {
        UndoRequest::default()
    } else {
        body(&text)?
    };
    server.change(&id, |s| {
        let n = s.steps.len();
        let to = match request.to {
            None if n == 0 && s.resigned.is_none() => {
                return Err(bad("nothing to undo: the game is at its start"))
            }
            // Undoing a resignation takes back the resignation, not a step.
            None if s.resigned.is_some() => n,
            None => n - 1,
            Some(k) if k > n => {
                return Err(bad(format!(
                    "the game has only {n} steps; `to` is at most {n}"
                )))
            }
            Some(k) => k,
        };
        s.positions.truncate(to + 1);
        s.steps.truncate(to);
        s.resigned = None;
        Ok(())
    })
}

/// `POST /api/sessions/ID/resign`: the player to move gives up; the game ends as it stands.
pub(super) async fn resign(
    Shared(server): Shared<Arc<SessionStore>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    server.change(&id, |s| {
        if s.over() {
            return Err(bad("the game is over"));
        }
        if s.engine.game.player_count() != 2 {
            return Err(bad("only a game of two players ends by resigning"));
        }
        s.resigned = Some(s.now().mover);
        Ok(())
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShadeRequest {
    regions: Vec<String>,
}

/// `POST /api/sessions/ID/shade {"regions": [NAME...]}`: the regions shaded on the board.
pub(super) async fn shade(
    Shared(server): Shared<Arc<SessionStore>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let request: ShadeRequest = body(&text)?;
    server.change(&id, |s| set_shade(s, request.regions))
}

#[derive(Deserialize)]
pub(super) struct Seats {
    seats: Option<String>,
}

/// `GET /api/sessions/ID/record[?seats=A,B]`: the game as a record (`outflank replay` reads
/// it; `seats` names who played each seat).
pub(super) async fn record(
    Shared(server): Shared<Arc<SessionStore>>,
    Path(id): Path<String>,
    Query(seats): Query<Seats>,
) -> Result<Json<Record>, Failure> {
    let (_, session) = server.session(&id)?;
    let s = lock(&session);
    let seats: Vec<String> = seats
        .seats
        .map(|t| t.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    Ok(Json(s.record(&seats)))
}
