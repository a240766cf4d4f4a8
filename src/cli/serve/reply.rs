//! How the JSON API of `outflank serve` (docs/API.md) answers a failed request: a JSON object
//! with a one-line `error`, and a status that says whose fault it was.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use std::time::Duration;

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

/// A reply of `v` with its numbers written as the command line's JSON writes them (twelve
/// significant digits, whole numbers without a fraction: docs/JSON.md).
pub(super) fn json_reply(mut v: serde_json::Value) -> Json<serde_json::Value> {
    crate::cli::output::round_floats(&mut v);
    Json(v)
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

/// How long checking rules (an edit's, or with parameter settings) may take before the page
/// is told so.
const CHECK_TIME: Duration = Duration::from_secs(20);

/// Runs `work` on a worker thread, answering within [`CHECK_TIME`]. A check that takes longer
/// goes on in the background (the checker's own limits end it) while the page hears why.
pub(super) async fn bounded<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    match tokio::time::timeout(CHECK_TIME, tokio::task::spawn_blocking(work)).await {
        Ok(done) => done.map_err(internal)?,
        Err(_) => Err(Failure(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "checking these rules took more than {} seconds; simplify them and try again",
                CHECK_TIME.as_secs()
            ),
        )),
    }
}

pub(super) async fn not_found() -> Failure {
    missing("no such page or API call; the API is described in docs/API.md")
}

/// Every failed answer as JSON (docs/API.md): the answers axum writes itself as text (a body
/// past its limit, 413; a body that is not UTF-8 or not JSON, 400 or 415; a method a route
/// does not take, 405) get their text as the `error` of a JSON object, with their status.
pub(super) async fn errors_as_json(response: Response) -> Response {
    let (status, json) = (
        response.status(),
        response
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes().starts_with(b"application/json")),
    );
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    // axum's own answers are a line of text; anything longer is cut to its first line.
    let text = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .map(|b| {
            String::from_utf8_lossy(&b)
                .lines()
                .next()
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_default();
    let error = if text.trim().is_empty() {
        status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_string()
    } else {
        text
    };
    Failure(status, error).into_response()
}
