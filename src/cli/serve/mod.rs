//! `outflank serve`: a local web application to play the rules in a browser. axum serves the
//! page (built into the binary) and a JSON API (docs/API.md); every answer comes from the same
//! engine and players as the command line, run off the async threads since they compute.

mod analysis;
mod editing;
mod games;
mod guard;
mod listen;
mod reply;
mod sessions;

use analysis::AnalysisStore;
use axum::extract::{DefaultBodyLimit, FromRef, State as Shared};
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use axum::Json;
use axum::Router;
use clap::Args;
use games::Catalogue;
use guard::Guard;
use serde_json::{json, Value};
use sessions::SessionStore;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

// The options of `serve` (its help is the doc comment of `Command::Serve`).
#[derive(Args)]
pub(crate) struct ServeArgs {
    /// Rules files, or folders of them, to offer (default: the bundled games).
    files: Vec<String>,
    /// The port to listen on (0: any free port, said at start).
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// The address to listen on. The default serves this machine only; another address lets
    /// others on the network play too, with the secret token the server prints.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    open: bool,
    /// Memory the game sessions' positions and steps may take together, in MB; past it, the
    /// sessions left alone longest make room. One session may take a quarter of it.
    #[arg(long, value_name = "MB", default_value_t = 512,
          value_parser = clap::value_parser!(u64).range(4..=1 << 20))]
    session_memory: u64,
}

/// The largest request body: a step or a setting is a few bytes. Requests that carry a rules
/// text or a record may be larger ([`rules_limit`]).
const MAX_BODY: usize = 64 << 10;

/// What the handlers share: the games on offer, the sessions and the analyses. Each handler
/// takes the part it needs.
#[derive(Clone)]
struct App {
    catalogue: Arc<Catalogue>,
    sessions: Arc<SessionStore>,
    analyses: Arc<AnalysisStore>,
}

impl FromRef<App> for Arc<Catalogue> {
    fn from_ref(app: &App) -> Self {
        app.catalogue.clone()
    }
}

impl FromRef<App> for Arc<SessionStore> {
    fn from_ref(app: &App) -> Self {
        app.sessions.clone()
    }
}

impl FromRef<App> for Arc<AnalysisStore> {
    fn from_ref(app: &App) -> Self {
        app.analyses.clone()
    }
}

/// `GET /api/status`: what the server holds (a health check for whoever runs it).
async fn status(Shared(app): Shared<App>) -> Json<Value> {
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "games": app.catalogue.entries.len(),
        "sessions": app.sessions.count(),
        "analyses_running": app.analyses.running(),
    }))
}

/// Stack of the server's threads: as deep as `run`'s game workers.
const WORKER_STACK: usize = 64 << 20;
/// Threads that compute for requests (players thinking, rules checked) at once.
const MAX_BLOCKING: usize = 64;

/// The largest body of any request: one that carries a rules text or a record.
const MAX_REQUEST: usize = editing::MAX_RULES + MAX_BODY;

fn rules_limit() -> DefaultBodyLimit {
    DefaultBodyLimit::max(MAX_REQUEST)
}

const PAGE: &str = include_str!("page/index.html");
/// Where the page carries the server's token (guard.rs): in its `<meta name="outflank-token">`.
const TOKEN_SLOT: &str = "OUTFLANK-TOKEN";
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// The page, its script and style, and the API, behind the guard.
fn routes(state: App, guard: Arc<Guard>) -> Router {
    let page = PAGE.replace(TOKEN_SLOT, &guard.token);
    Router::new()
        .route(
            "/",
            get(move || {
                let page = page.clone();
                async move { Html(page) }
            }),
        )
        .route(
            "/app.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], SCRIPT).into_response() }),
        )
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css")], STYLE).into_response() }),
        )
        .route("/api/status", get(status))
        .route("/api/games", get(games::list))
        .route("/api/games/{id}/rules", get(editing::rules))
        .route(
            "/api/games/{id}/check",
            post(editing::check).layer(rules_limit()),
        )
        .route(
            "/api/games/{id}/examples",
            post(editing::examples).layer(rules_limit()),
        )
        .route(
            "/api/games/{id}/save",
            post(editing::save).layer(rules_limit()),
        )
        .route(
            "/api/sessions",
            post(sessions::new_session).layer(rules_limit()),
        )
        .route(
            "/api/sessions/{id}",
            get(sessions::session).delete(sessions::end_session),
        )
        .route("/api/sessions/{id}/step", post(sessions::step))
        .route("/api/sessions/{id}/agent", post(sessions::agent_step))
        .route("/api/sessions/{id}/undo", post(sessions::undo))
        .route("/api/sessions/{id}/resign", post(sessions::resign))
        .route("/api/sessions/{id}/shade", post(sessions::shade))
        .route("/api/sessions/{id}/record", get(sessions::record))
        .route("/api/analyses", post(analysis::start).layer(rules_limit()))
        .route(
            "/api/analyses/{id}",
            get(analysis::progress).delete(analysis::stop),
        )
        .fallback(reply::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::map_response(reply::errors_as_json))
        // Outermost: a refused request is answered before anything reads its body.
        .layer(axum::middleware::from_fn_with_state(guard, guard::admit))
        .with_state(state)
}

pub(crate) fn cmd_serve(a: &ServeArgs) -> Result<String, super::game::Failure> {
    let catalogue = Arc::new(Catalogue::load(&a.files)?);
    let state = App {
        sessions: Arc::new(SessionStore::new(
            catalogue.clone(),
            (a.session_memory as usize) << 20,
        )),
        analyses: Arc::new(AnalysisStore::new(catalogue.clone())),
        catalogue,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The players' search follows a turn step by step (as in `run`'s workers), deeper
        // than a thread's default 2 MB allows. Hundreds of requests at once queue for the
        // blocking threads rather than start hundreds of them.
        .thread_stack_size(WORKER_STACK)
        .max_blocking_threads(MAX_BLOCKING)
        .build()
        .map_err(|e| format!("serve: cannot start: {e}"))?;
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((a.host.as_str(), a.port))
            .await
            .map_err(|e| format!("serve: cannot listen on {}:{}: {e}", a.host, a.port))?;
        let address = listener.local_addr().map_err(|e| format!("serve: {e}"))?;
        let guard = Arc::new(Guard::new(address, &a.host)?);
        let (url, reach) = if guard.open_to_network() {
            let url = format!("http://{address}/?token={}", guard.token);
            (url, "open to the network, to whoever has the token")
        } else {
            let url = format!("http://{address}/");
            (url, "this machine only; --host 0.0.0.0 serves the network")
        };
        if guard.open_to_network() {
            eprintln!(
                "serve: warning: listening on {address}, which others on the network can reach; \
                 whoever has the token can play, run analyses and save over the rules files \
                 served; keep the address with its token to yourself"
            );
        }
        let app = routes(state, guard);
        // Said once, and never a reason to stop: whoever started the server may have stopped
        // reading its output.
        let mut out = std::io::stdout();
        let _ = writeln!(out, "outflank serve: {url} ({reach}; Ctrl-C stops)");
        let _ = out.flush();
        if a.open {
            if let Err(e) = open::that_detached(&url) {
                eprintln!("serve: cannot open a browser ({e}); open {url} yourself");
            }
        }
        // Ctrl-C lets requests under way finish for a moment, not for as long as a player
        // thinks or an analysis runs: past STOP_GRACE the server stops with them unanswered.
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        listen::serve(listener, app, stop, STOP_GRACE).await;
        Ok::<(), String>(())
    });
    // The workers still thinking are left to end with the process.
    runtime.shutdown_timeout(Duration::from_millis(100));
    served?;
    Ok(String::new())
}

/// How long requests under way may go on after Ctrl-C.
const STOP_GRACE: Duration = Duration::from_secs(1);
