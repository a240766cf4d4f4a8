//! The page's rules editor (docs/API.md): a game's rules text, what the checker says of an
//! edit of it (the same diagnostics as `outflank check`, lints as warnings), its examples run,
//! and an edit saved to the rules file given on the command line, when the user asks.

use super::games::Catalogue;
use super::reply::{bad, body, bounded, internal, missing, Failure};
use axum::extract::{Path, State as Shared};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The longest rules text the editor sends: far beyond any real rules file.
pub(super) const MAX_RULES: usize = 1 << 20;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Edit {
    text: String,
}

fn no_game(id: &str) -> Failure {
    missing(format!(
        "no game named {}",
        outflank::diagnostic::printable(id)
    ))
}

/// `GET /api/games/ID/rules`: the rules text as served, and whether an edit can be saved.
pub(super) async fn rules(
    Shared(catalogue): Shared<Arc<Catalogue>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    let entry = catalogue.entry(&id).ok_or_else(|| no_game(&id))?;
    Ok(Json(json!({
        "game": entry.id,
        "name": entry.source().name,
        "text": entry.source().text,
        "saveable": entry.path.is_some(),
    })))
}

/// `POST /api/games/ID/check {"text": RULES}`: the diagnostics of an edit, each with its line
/// and column (from 1) in its file.
pub(super) async fn check(
    Shared(catalogue): Shared<Arc<Catalogue>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let edit: Edit = body(&text)?;
    bounded(move || {
        let entry = catalogue.entry(&id).ok_or_else(|| no_game(&id))?;
        let name = entry.source().name.clone();
        let found = catalogue
            .diagnose(&id, &edit.text)
            .ok_or_else(|| no_game(&id))?;
        let list: Vec<Value> = found
            .iter()
            .map(|d| {
                let mut placed = json!(crate::cli::output::placed(d));
                // The edited text is the game's own file; a base file is named.
                if d.source.name == name {
                    placed["file"] = Value::Null;
                }
                placed
            })
            .collect();
        let errors = found.iter().filter(|d| d.is_error()).count();
        Ok(Json(json!({ "errors": errors, "diagnostics": list })))
    })
    .await
}

/// `POST /api/games/ID/examples {"text": RULES}`: each example of an edit run, as
/// `outflank test` runs it.
pub(super) async fn examples(
    Shared(catalogue): Shared<Arc<Catalogue>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let edit: Edit = body(&text)?;
    bounded(move || {
        let plain = catalogue
            .checked(&id, &edit.text, &[])
            .ok_or_else(|| no_game(&id))?
            .map_err(|e| bad(format!("the rules do not check: {e}")))?;
        let mut results = Vec::new();
        for example in &plain.examples {
            let name = &example.name.node;
            let (line, _) = outflank::check::line_col(&edit.text, example.name.span.start);
            let settings = outflank::apps::examples::settings(example);
            let outcome = catalogue
                .checked(&id, &edit.text, &settings)
                .ok_or_else(|| no_game(&id))?
                .map_err(|e| format!("its settings do not check: {e}"))
                .and_then(|checked| {
                    let engine = outflank::engine::Engine::new(checked.game);
                    outflank::apps::examples::run_example(&engine, example).map_err(|f| {
                        let (at, _) = outflank::check::line_col(&edit.text, f.span.start);
                        let mut m = format!("fails at line {at}: {}", f.message);
                        if let Some((want, have)) = &f.boards {
                            m.push_str(&crate::cli::output::board_diff(want, have, ""));
                        }
                        m
                    })
                });
            results.push(json!({
                "name": name,
                "line": line,
                "passed": outcome.is_ok(),
                "message": outcome.err(),
            }));
        }
        Ok(Json(json!({ "examples": results })))
    })
    .await
}

/// `POST /api/games/ID/save {"text": RULES}`: writes an edit over the rules file the server
/// was given (never a bundled game), whole ([`write_whole`]). A saved edit that checks is
/// served from then on; one that does not is saved all the same (it is the user's work), and
/// the last rules that checked go on being served.
pub(super) async fn save(
    Shared(catalogue): Shared<Arc<Catalogue>>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Failure> {
    let edit: Edit = body(&text)?;
    let entry = catalogue.entry(&id).ok_or_else(|| no_game(&id))?;
    let Some(path) = entry.path.clone() else {
        return Err(Failure(
            StatusCode::FORBIDDEN,
            "this is a bundled game: download the edit instead, or serve a rules file to save to it"
                .into(),
        ));
    };
    let catalogue = catalogue.clone();
    tokio::task::spawn_blocking(move || {
        // One save at a time, so that the rules served are those of the last file written.
        static SAVING: Mutex<()> = Mutex::new(());
        let _one = SAVING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        write_whole(&path, edit.text.as_bytes()).map_err(|e| {
            Failure(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot save {}: {e}", path.display()),
            )
        })?;
        let served = catalogue.replace(&id, &edit.text);
        Ok(Json(
            json!({ "saved": path.display().to_string(), "served": served }),
        ))
    })
    .await
    .map_err(internal)?
}

/// Writes `text` over the file at `path` so that a failure leaves the old file as it was: into
/// a new file beside it, then renamed over it. The new file's name ends in random digits and it
/// is made only where nothing stands, a link included, so that nobody can have laid a link
/// there that the text would be written through. It keeps the old file's permissions.
fn write_whole(path: &std::path::Path, text: &[u8]) -> std::io::Result<()> {
    let mut random = [0u8; 8];
    getrandom::fill(&mut random).map_err(std::io::Error::other)?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(
        ".outflank-saving-{:016x}",
        u64::from_le_bytes(random)
    ));
    let temporary = std::path::PathBuf::from(temporary);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)?;
    let written = std::fs::metadata(path)
        .and_then(|old| file.set_permissions(old.permissions()))
        .or_else(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Ok(()),
            _ => Err(e),
        })
        .and_then(|()| file.write_all(text))
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}
