//! The games a server offers: rules files and folders given on the command line, or the games
//! bundled with outflank (built into the binary, so that `outflank serve` works anywhere).

use outflank::check::{check, CheckError, Checked};
use outflank::diagnostic::Diagnostic;
use outflank::source::{Loader, MemoryFiles, SourceFile};
use std::sync::{Arc, RwLock};

use crate::cli::game::{RulesLoader, BUNDLED};

/// One game on offer.
pub(super) struct Entry {
    /// The file's name without `.rules`: how the API names the game.
    pub(super) id: String,
    /// The rules as served, with their title and players: as loaded, or as last saved from
    /// the page (an edit played without saving does not change them). One lock for the three,
    /// so that the list of games never shows one save's title beside another's rules.
    served: RwLock<Served>,
    /// The file given on the command line, which the page may save an edit to; none for the
    /// bundled games.
    pub(super) path: Option<std::path::PathBuf>,
}

struct Served {
    source: Arc<SourceFile>,
    title: String,
    players: Vec<String>,
}

impl Served {
    fn new(source: Arc<SourceFile>, checked: &Checked) -> Served {
        Served {
            source,
            title: checked.game.title.clone(),
            players: checked
                .game
                .players
                .iter()
                .map(|p| p.name.clone())
                .collect(),
        }
    }
}

pub(super) struct Catalogue {
    pub(super) entries: Vec<Entry>,
    /// Where `extends` finds base files: the bundled games, or the file system.
    loader: Box<dyn Loader + Send + Sync>,
}

impl Entry {
    fn served(&self) -> std::sync::RwLockReadGuard<'_, Served> {
        self.served
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn source(&self) -> Arc<SourceFile> {
        self.served().source.clone()
    }

    /// An edit of these rules, named as the served file so that `extends` resolves the same.
    fn edit(&self, text: &str) -> Arc<SourceFile> {
        SourceFile::new(self.source().name.clone(), text.to_string())
    }
}

impl Catalogue {
    /// The games of `paths` (files, or folders whose `.rules` files are taken), or the bundled
    /// games when none is given. A file that does not check is refused with its diagnostics.
    pub(super) fn load(paths: &[String]) -> Result<Catalogue, String> {
        let (sources, loader): (Vec<Arc<SourceFile>>, Box<dyn Loader + Send + Sync>) =
            if paths.is_empty() {
                let files: Vec<(String, String)> = BUNDLED
                    .iter()
                    .map(|(n, t)| ((*n).to_string(), (*t).to_string()))
                    .collect();
                let sources = files
                    .iter()
                    .map(|(n, t)| SourceFile::new(n.clone(), t.clone()))
                    .collect();
                (sources, Box::new(MemoryFiles(files)))
            } else {
                let mut sources = Vec::new();
                for path in paths {
                    let p = std::path::Path::new(path);
                    if p.is_dir() {
                        let mut names: Vec<String> = std::fs::read_dir(p)
                            .map_err(|e| format!("cannot read {path}: {e}"))?
                            .filter_map(Result::ok)
                            .map(|e| e.path())
                            .filter(|f| f.extension().is_some_and(|x| x == "rules"))
                            .map(|f| f.to_string_lossy().into_owned())
                            .collect();
                        names.sort();
                        for n in names {
                            sources.push(outflank::source::read_source(&n)?);
                        }
                    } else {
                        sources.push(outflank::source::read_source(path)?);
                    }
                }
                // Base files as `check` finds them: beside the file, else bundled.
                (sources, Box::new(RulesLoader))
            };
        let on_disk = !paths.is_empty();
        let mut catalogue = Catalogue {
            entries: Vec::new(),
            loader,
        };
        for source in sources {
            let checked = catalogue.check(&source, &[]).map_err(|e| {
                format!(
                    "{}: the rules do not check ({e}); `outflank check` shows why",
                    source.name
                )
            })?;
            let name = std::path::Path::new(&source.name)
                .file_stem()
                .map_or_else(|| source.name.clone(), |s| s.to_string_lossy().into_owned());
            if catalogue.entries.iter().any(|e| e.id == name) {
                return Err(format!("two games are named {name}; serve one of them"));
            }
            catalogue.entries.push(Entry {
                id: name,
                path: on_disk.then(|| std::path::PathBuf::from(&source.name)),
                served: RwLock::new(Served::new(source, &checked)),
            });
        }
        if catalogue.entries.is_empty() {
            return Err("no rules files to serve".into());
        }
        Ok(catalogue)
    }

    fn check(&self, source: &Arc<SourceFile>, set: &[(String, String)]) -> Result<Checked, String> {
        match check(source.clone(), self.loader.as_ref(), set) {
            Ok(c) => Ok(c),
            Err(CheckError::Rules(d)) => Err(d.to_string()),
            Err(CheckError::Setting(m)) => Err(m),
        }
    }

    pub(super) fn entry(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// A game checked with parameter settings, ready to run: the served rules, or an edit of
    /// them (`text`), checked as if it were the game's file, so that `extends` finds the same
    /// base files.
    pub(super) fn game(
        &self,
        id: &str,
        text: Option<&str>,
        set: &[(String, String)],
    ) -> Result<Option<outflank::engine::Engine>, String> {
        let Some(entry) = self.entry(id) else {
            return Ok(None);
        };
        let source = match text {
            Some(t) => entry.edit(t),
            None => entry.source(),
        };
        let checked = self.check(&source, set)?;
        Ok(Some(outflank::engine::Engine::new(checked.game)))
    }

    /// Everything the checker says of an edit of game `id`'s rules (errors and warnings), or
    /// nothing when there is no such game.
    pub(super) fn diagnose(&self, id: &str, text: &str) -> Option<Vec<Diagnostic>> {
        let entry = self.entry(id)?;
        let source = entry.edit(text);
        Some(match check(source, self.loader.as_ref(), &[]) {
            Ok(checked) => checked.warnings.0,
            Err(CheckError::Rules(d)) => d.0,
            Err(CheckError::Setting(_)) => Vec::new(),
        })
    }

    /// Checks an edit of game `id`'s rules with an example's settings, for running it.
    pub(super) fn checked(
        &self,
        id: &str,
        text: &str,
        set: &[(String, String)],
    ) -> Option<Result<Checked, String>> {
        let entry = self.entry(id)?;
        let source = entry.edit(text);
        Some(self.check(&source, set))
    }

    /// Serves `text` as game `id`'s rules from now on, when it checks; `false` when it does
    /// not (the last rules that checked go on being served).
    pub(super) fn replace(&self, id: &str, text: &str) -> bool {
        let Some(entry) = self.entry(id) else {
            return false;
        };
        let source = entry.edit(text);
        let Ok(checked) = self.check(&source, &[]) else {
            return false;
        };
        *entry
            .served
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Served::new(source, &checked);
        true
    }
}

/// `GET /api/games`
pub(super) async fn list(
    axum::extract::State(catalogue): axum::extract::State<Arc<Catalogue>>,
) -> axum::Json<serde_json::Value> {
    let list: Vec<serde_json::Value> = catalogue
        .entries
        .iter()
        .map(|e| {
            let served = e.served();
            serde_json::json!({ "id": e.id, "title": served.title, "players": served.players })
        })
        .collect();
    axum::Json(serde_json::Value::Array(list))
}
