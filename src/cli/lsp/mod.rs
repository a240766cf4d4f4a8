//! `outflank lsp`: a language server for rules files over stdio. It answers with the checker
//! itself (the diagnostics of `check`, the layout of `fmt`, the examples of `test`) and with
//! an index of the file's names built from its syntax tree; nothing here judges the rules a
//! second way. rust-analyzer's `lsp-server` carries the messages; every request is answered
//! on this one thread, in order.
//!
//! Nothing a client sends stops the server: a request it cannot answer gets an error response,
//! a notification it cannot use is logged on stderr, and a panic inside a handler is caught,
//! logged and answered as an internal error.

mod completion;
mod docs;
mod features;
mod symbols;
mod text;
mod transport;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::{
    CodeActionProviderCapability, CodeLensOptions, CompletionOptions, DiagnosticSeverity,
    ExecuteCommandOptions, HoverProviderCapability, InitializeParams, OneOf, PositionEncodingKind,
    RenameOptions, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
};
use outflank::check::{check, CheckError};
use outflank::diagnostic::Diagnostic;
use outflank::source::{read_source, Loader, SourceFile};
use outflank::syntax::ast::File;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use text::{normal_path, path_of, uri_of, Columns, Lines};

/// The largest document checked, as `read_source` refuses a larger file.
pub(super) const MAX_DOCUMENT_BYTES: usize = 4 << 20;

/// The command `code lens` offers on each example.
const RUN_EXAMPLE: &str = "outflank.runExample";

/// Runs the server until the client says `exit` (or closes the connection).
pub(super) fn serve() -> Result<(), String> {
    let (sender, receiver, threads) = transport::stdio();
    let connection = Connection { sender, receiver };
    let (id, params) = match connection.initialize_start() {
        Ok(started) => started,
        // The client left before asking anything: nothing to answer, nothing failed.
        Err(e) if e.channel_is_disconnected() => {
            drop(connection);
            return threads.join();
        }
        Err(e) => return Err(format!("lsp: no initialize request: {e}")),
    };
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let offered = params
        .capabilities
        .general
        .and_then(|g| g.position_encodings)
        .unwrap_or_default();
    let columns = if offered.contains(&PositionEncodingKind::UTF8) {
        Columns::Utf8
    } else {
        Columns::Utf16
    };
    let result = json!({
        "capabilities": capabilities(columns),
        "serverInfo": { "name": "outflank", "version": env!("CARGO_PKG_VERSION") },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| format!("lsp: {e}"))?;
    let mut server = Server {
        connection,
        columns,
        docs: BTreeMap::new(),
        shown_for: BTreeMap::new(),
        unparsed: BTreeSet::new(),
        unchecked: BTreeSet::new(),
    };
    server.run();
    drop(server);
    threads.join()
}

fn capabilities(columns: Columns) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match columns {
            Columns::Utf8 => PositionEncodingKind::UTF8,
            Columns::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![RUN_EXAMPLE.into()],
            work_done_progress_options: Default::default(),
        }),
        ..ServerCapabilities::default()
    }
}

/// An open document: the editor's text, and the last text of it that parsed with its tree,
/// which answers for the names while the text is half-typed.
struct Doc {
    uri: String,
    text: String,
    parsed: Option<(String, File)>,
}

struct Server {
    connection: Connection,
    columns: Columns,
    /// Open documents by path.
    docs: BTreeMap<String, Doc>,
    /// Files that are not open but whose diagnostics were shown because an open file extends
    /// them: each with the open files that showed them.
    shown_for: BTreeMap<String, BTreeSet<String>>,
    /// Open documents changed since their text was last parsed, and since it was last checked.
    /// A change is applied at once; the parse waits for the next request, the check until no
    /// message waits (see `run`).
    unparsed: BTreeSet<String>,
    unchecked: BTreeSet<String>,
}

/// A request's failure, as the protocol's error response.
pub(super) struct Refusal {
    code: ErrorCode,
    message: String,
}

impl Refusal {
    pub(super) fn invalid(message: impl Into<String>) -> Self {
        Refusal {
            code: ErrorCode::InvalidParams,
            message: message.into(),
        }
    }
}

/// Reads base files from the open documents first (their unsaved text is what the user sees),
/// then from disk.
pub(super) struct Overlay<'d> {
    docs: &'d BTreeMap<String, Doc>,
}

impl Loader for Overlay<'_> {
    fn load(&self, base: &str, path: &str) -> Result<Arc<SourceFile>, String> {
        let dir = std::path::Path::new(base)
            .parent()
            .unwrap_or(std::path::Path::new(""));
        let full = normal_path(&dir.join(path).to_string_lossy());
        match self.docs.get(&full) {
            Some(doc) => Ok(SourceFile::new(full, doc.text.clone())),
            // As `check` finds it: from disk, else the bundled game of that name.
            None => read_source(&full).or_else(|e| {
                crate::cli::game::bundled_base(&full, path)
                    .map(|text| SourceFile::new(full.clone(), text))
                    .ok_or(e)
            }),
        }
    }
}

impl Server {
    fn run(&mut self) {
        loop {
            // Edits typed while a check ran wait in the queue: they are applied one after
            // another and the text is checked once, after the last, not once for each.
            if self.connection.receiver.is_empty() {
                if let Err(panic) = catch(|| self.check_changed()) {
                    eprintln!("lsp: a check failed: {panic}");
                }
            }
            let Ok(message) = self.connection.receiver.recv() else {
                return;
            };
            match message {
                Message::Request(request) => {
                    match self.connection.handle_shutdown(&request) {
                        Ok(true) => return,
                        Ok(false) => {}
                        Err(e) => {
                            eprintln!("lsp: {e}");
                            return;
                        }
                    }
                    let id = request.id.clone();
                    let response = match catch(|| {
                        self.parse_changed();
                        self.request(&request)
                    }) {
                        Ok(Ok(value)) => Response::new_ok(id, value),
                        Ok(Err(r)) => Response::new_err(id, r.code as i32, r.message),
                        Err(panic) => {
                            eprintln!("lsp: {} failed: {panic}", request.method);
                            Response::new_err(
                                id,
                                ErrorCode::InternalError as i32,
                                format!("internal error: {panic}"),
                            )
                        }
                    };
                    self.send(Message::Response(response));
                }
                Message::Notification(note) => {
                    if note.method == lsp_types::notification::Exit::METHOD {
                        return;
                    }
                    if let Err(panic) = catch(|| self.notification(&note)) {
                        eprintln!("lsp: {} failed: {panic}", note.method);
                    }
                }
                Message::Response(_) => {}
            }
        }
    }

    fn send(&self, message: Message) {
        if self.connection.sender.send(message).is_err() {
            eprintln!("lsp: the client has gone");
        }
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(
            method.to_string(),
            params,
        )));
    }

    fn request(&mut self, request: &Request) -> Result<Value, Refusal> {
        let params = request.params.clone();
        match request.method.as_str() {
            "textDocument/hover" => self.hover(parse(params)?),
            "textDocument/definition" => self.definition(parse(params)?),
            "textDocument/references" => self.references(parse(params)?),
            "textDocument/completion" => self.completion(parse(params)?),
            "textDocument/documentSymbol" => self.document_symbols(parse(params)?),
            "textDocument/prepareRename" => self.prepare_rename(parse(params)?),
            "textDocument/rename" => self.rename(parse(params)?),
            "textDocument/formatting" => self.formatting(parse(params)?),
            "textDocument/codeAction" => self.code_actions(parse(params)?),
            "textDocument/codeLens" => self.code_lenses(parse(params)?),
            "workspace/executeCommand" => self.execute_command(parse(params)?),
            other => Err(Refusal {
                code: ErrorCode::MethodNotFound,
                message: format!("outflank's language server does not answer {other}"),
            }),
        }
    }

    fn notification(&mut self, note: &Notification) {
        let params = note.params.clone();
        match note.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = parse::<lsp_types::DidOpenTextDocumentParams>(params) else {
                    return eprintln!("lsp: didOpen without a document");
                };
                let uri = p.text_document.uri.as_str().to_string();
                let doc = Doc {
                    uri: uri.clone(),
                    text: p.text_document.text,
                    parsed: None,
                };
                let path = normal_path(&path_of(&uri));
                self.docs.insert(path.clone(), doc);
                self.changed(path);
            }
            "textDocument/didChange" => {
                let Ok(p) = parse::<lsp_types::DidChangeTextDocumentParams>(params) else {
                    return eprintln!("lsp: didChange without changes");
                };
                let path = normal_path(&path_of(p.text_document.uri.as_str()));
                let columns = self.columns;
                let Some(doc) = self.docs.get_mut(&path) else {
                    return eprintln!("lsp: a change to {path}, which is not open");
                };
                for change in &p.content_changes {
                    text::apply_change(&mut doc.text, change.range, &change.text, columns);
                }
                self.changed(path);
            }
            "textDocument/didClose" => {
                let Ok(p) = parse::<lsp_types::DidCloseTextDocumentParams>(params) else {
                    return eprintln!("lsp: didClose without a document");
                };
                let path = normal_path(&path_of(p.text_document.uri.as_str()));
                if let Some(doc) = self.docs.remove(&path) {
                    self.publish(&doc.uri, Vec::new());
                }
                self.unparsed.remove(&path);
                self.unchecked.remove(&path);
                self.forget_shown(&path, &BTreeSet::new());
                // Files that extend the closed one now read it from disk.
                self.recheck_dependents(&path);
            }
            // Saving changes nothing the server holds: it has the text already.
            "textDocument/didSave" | "initialized" | "$/cancelRequest" | "$/setTrace" => {}
            other => eprintln!("lsp: ignored notification {other}"),
        }
    }

    /// A document's text changed: it is parsed before the next request and checked, with every
    /// open file that extends it, once no message waits.
    fn changed(&mut self, path: String) {
        self.unparsed.insert(path.clone());
        self.unchecked.insert(path);
    }

    /// Keeps the tree of each changed document whose text parses, which answers for its names
    /// while a later text is half-typed.
    fn parse_changed(&mut self) {
        for path in std::mem::take(&mut self.unparsed) {
            if let Some(doc) = self
                .docs
                .get_mut(&path)
                .filter(|d| d.text.len() <= MAX_DOCUMENT_BYTES)
            {
                let source = SourceFile::new(path, doc.text.clone());
                if let Ok(ast) = outflank::syntax::parse(&source) {
                    doc.parsed = Some((source.text.clone(), ast));
                }
            }
        }
    }

    fn check_changed(&mut self) {
        self.parse_changed();
        for path in std::mem::take(&mut self.unchecked) {
            self.check_and_publish(&path);
            self.recheck_dependents(&path);
        }
    }

    fn recheck_dependents(&mut self, path: &str) {
        let others: Vec<String> = self
            .docs
            .keys()
            .filter(|p| p.as_str() != path)
            .cloned()
            .collect();
        for other in others {
            let extends_it = self
                .index_of(&other)
                .is_some_and(|(index, _)| index.files.iter().any(|f| f.name == path));
            if extends_it {
                self.check_and_publish(&other);
            }
        }
    }

    /// Checks an open document and publishes what the checker says of it, and of the files it
    /// extends: an error in a base file shows in the base (when it is not open itself) and at
    /// the `extends` of this one.
    fn check_and_publish(&mut self, path: &str) {
        let Some(doc) = self.docs.get(path) else {
            return;
        };
        if doc.text.len() > MAX_DOCUMENT_BYTES {
            let uri = doc.uri.clone();
            let too_large = json!({
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } },
                "severity": DiagnosticSeverity::ERROR,
                "source": "outflank",
                "message": format!(
                    "this file is larger than {} MB, and is not checked; a rules file is text of a few kilobytes",
                    MAX_DOCUMENT_BYTES >> 20
                ),
            });
            return self.publish(&uri, vec![too_large]);
        }
        let source = SourceFile::new(path, doc.text.clone());
        let found = match check(source.clone(), &Overlay { docs: &self.docs }, &[]) {
            Ok(checked) => checked.warnings.0,
            Err(CheckError::Rules(d)) => d.0,
            Err(CheckError::Setting(m)) => {
                eprintln!("lsp: {m}");
                Vec::new()
            }
        };
        let mut by_file: BTreeMap<String, Vec<&Diagnostic>> = BTreeMap::new();
        for d in &found {
            by_file.entry(d.source.name.clone()).or_default().push(d);
        }
        let mut own: Vec<Value> = by_file
            .get(path)
            .map(|list| list.iter().map(|d| self.lsp_diagnostic(d)).collect())
            .unwrap_or_default();
        // The `extends` string that leads to the base files.
        let extends = outflank::syntax::parse(&source)
            .ok()
            .and_then(|f| f.extends)
            .map(|e| e.span);
        let mut shown = BTreeSet::new();
        for (file, list) in &by_file {
            if file == path {
                continue;
            }
            // A bundled base (see `cli::bundled_base`) has no file to show anything in: its
            // errors show at the `extends` alone.
            let addressable = self.addressable(file);
            if let Some(span) = extends {
                for d in list.iter().filter(|d| d.is_error()) {
                    let (line, column) = outflank::check::line_col(&d.source.text, d.span.start);
                    let lines = Lines::new(&source.text, self.columns);
                    let mut shown_here = json!({
                        "range": lines.range(span.start, span.end),
                        "severity": DiagnosticSeverity::ERROR,
                        "source": "outflank",
                        "message": format!("in the base file {file} ({line}:{column}): {}", d.message),
                    });
                    if addressable {
                        shown_here["relatedInformation"] = json!([{
                            "location": { "uri": self.uri_for(file), "range": Lines::new(&d.source.text, self.columns).range(d.span.start, d.span.end) },
                            "message": d.label.clone(),
                        }]);
                    }
                    own.push(shown_here);
                }
            }
            if !self.docs.contains_key(file) && addressable {
                let theirs: Vec<Value> = list.iter().map(|d| self.lsp_diagnostic(d)).collect();
                self.publish(&uri_of(file), theirs);
                shown.insert(file.clone());
                self.shown_for
                    .entry(file.clone())
                    .or_default()
                    .insert(path.to_string());
            }
        }
        let uri = doc.uri.clone();
        self.publish(&uri, own);
        self.forget_shown(path, &shown);
    }

    /// Clears the diagnostics shown for closed base files on behalf of `path`, except those in
    /// `keep`, once no open file shows them.
    fn forget_shown(&mut self, path: &str, keep: &BTreeSet<String>) {
        let mut cleared = Vec::new();
        for (file, by) in &mut self.shown_for {
            if !keep.contains(file) && by.remove(path) && by.is_empty() {
                cleared.push(file.clone());
            }
        }
        for file in cleared {
            self.shown_for.remove(&file);
            if !self.docs.contains_key(&file) {
                self.publish(&uri_of(&file), Vec::new());
            }
        }
    }

    fn publish(&self, uri: &str, diagnostics: Vec<Value>) {
        self.notify(
            "textDocument/publishDiagnostics",
            json!({ "uri": uri, "diagnostics": diagnostics }),
        );
    }

    /// A checker's diagnostic in the protocol's terms: the message, then the label and the
    /// help as `check` prints them, and the suggested name for a code action.
    fn lsp_diagnostic(&self, d: &Diagnostic) -> Value {
        let lines = Lines::new(&d.source.text, self.columns);
        let mut message = d.message.clone();
        if !d.label.is_empty() && d.label != "here" {
            message.push_str(&format!("\n{}", d.label));
        }
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let severity = match d.severity {
            miette::Severity::Error => DiagnosticSeverity::ERROR,
            miette::Severity::Warning => DiagnosticSeverity::WARNING,
            miette::Severity::Advice => DiagnosticSeverity::INFORMATION,
        };
        let mut out = json!({
            "range": lines.range(d.span.start, d.span.end),
            "severity": severity,
            "source": "outflank",
            "message": message,
        });
        if let Some(s) = &d.suggestion {
            out["data"] = json!({ "suggestion": s });
        }
        out
    }
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, Refusal> {
    serde_json::from_value(params).map_err(|e| Refusal::invalid(format!("bad parameters: {e}")))
}

/// Runs `f`, turning a panic into its message.
fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into())
    })
}
