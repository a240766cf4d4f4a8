//! `outflank serve`: a local web application to play the rules in a browser. axum serves the
//! page (built into the binary) and a JSON API (docs/API.md); every answer comes from the same
//! engine and players as the command line, run off the async threads since they compute.

mod api;
mod games;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use axum::Router;
use clap::Args;
use std::io::Write;
use std::sync::Arc;

// The options of `serve` (its help is the doc comment of `Command::Serve`).
#[derive(Args)]
pub(crate) struct ServeArgs {
    /// Rules files, or folders of them, to offer (default: the bundled games).
    files: Vec<String>,
    /// The port to listen on (0: any free port, said at start).
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// The address to listen on. The default serves this machine only; another address lets
    /// others on the network play too.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
}

/// The largest request body: a step or a setting is a few bytes.
const MAX_BODY: usize = 64 << 10;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

pub(crate) fn cmd_serve(a: &ServeArgs) -> Result<String, super::Failure> {
    let catalogue = games::Catalogue::load(&a.files)?;
    let state = Arc::new(api::Server::new(catalogue));
    let app = Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/app.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], SCRIPT).into_response() }),
        )
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css")], STYLE).into_response() }),
        )
        .route("/api/games", get(api::games))
        .route("/api/sessions", post(api::new_session))
        .route(
            "/api/sessions/{id}",
            get(api::session).delete(api::end_session),
        )
        .route("/api/sessions/{id}/step", post(api::step))
        .route("/api/sessions/{id}/agent", post(api::agent_step))
        .route("/api/sessions/{id}/undo", post(api::undo))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("serve: cannot start: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((a.host.as_str(), a.port))
            .await
            .map_err(|e| format!("serve: cannot listen on {}:{}: {e}", a.host, a.port))?;
        let address = listener.local_addr().map_err(|e| format!("serve: {e}"))?;
        let reach = if address.ip().is_loopback() {
            "this machine only; --host 0.0.0.0 serves the network"
        } else {
            "open to the network"
        };
        // Said once, and never a reason to stop: whoever started the server may have stopped
        // reading its output.
        let mut out = std::io::stdout();
        let _ = writeln!(
            out,
            "outflank serve: http://{address}/ ({reach}; Ctrl-C stops)"
        );
        let _ = out.flush();
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| format!("serve: {e}"))
    })?;
    Ok(String::new())
}
