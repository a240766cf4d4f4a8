//! What the JSON API of `outflank serve` (docs/API.md) shares: the server's state, the games
//! on offer, and errors, which are JSON objects with a one-line `error` and a status that
//! says whose fault it was.

use super::analysis::Analyses;
use super::games::Catalogue;
use super::sessions::Sessions;
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

pub(super) struct Server {
    pub(super) catalogue: Catalogue,
    pub(super) sessions: Mutex<Sessions>,
    pub(super) analyses: Mutex<Analyses>,
}

/// A failed request: its status and one line saying why.
pub(super) struct Failure(pub(super) StatusCode, pub(super) String);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

pub(super) fn bad(message: impl Into<String>) -> Failure {
    Failure(StatusCode::UNPROCESSABLE_ENTITY, message.into())
}

pub(super) fn missing(message: impl Into<String>) -> Failure {
    Failure(StatusCode::NOT_FOUND, message.into())
}

/// A request body: JSON of the expected shape, or a one-line error.
pub(super) fn body<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Failure> {
    serde_json::from_str(text)
        .map_err(|e| Failure(StatusCode::BAD_REQUEST, format!("bad request body: {e}")))
}

impl Server {
    pub(super) fn new(catalogue: Catalogue) -> Server {
        Server {
            catalogue,
            sessions: Mutex::new(Sessions::new()),
            analyses: Mutex::new(Analyses::new()),
        }
    }
}

/// A task that failed without answering (it panicked): the server's fault.
pub(super) fn internal(e: impl std::fmt::Display) -> Failure {
    Failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// `GET /api/status`: what the server holds (a health check for whoever runs it).
pub(super) async fn status(Shared(server): Shared<Arc<Server>>) -> Json<Value> {
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "games": server.catalogue.entries.len(),
        "sessions": server.session_count(),
        "analyses_running": server.analyses_running(),
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

pub(super) async fn not_found() -> Failure {
    missing("no such page or API call; the API is described in docs/API.md")
}
