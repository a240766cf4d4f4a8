//! How the JSON API of `outflank serve` (docs/API.md) answers a failed request: a JSON object
//! with a one-line `error`, and a status that says whose fault it was.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

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

/// A task that failed without answering (it panicked): the server's fault.
pub(super) fn internal(e: impl std::fmt::Display) -> Failure {
    Failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

pub(super) async fn not_found() -> Failure {
    missing("no such page or API call; the API is described in docs/API.md")
}
