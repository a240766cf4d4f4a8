//! The requests an editor makes of a document: hover, definitions and references, completion,
//! the outline, renaming, formatting, quick fixes and the examples' code lenses.

use super::symbols::Index;
use super::text::{is_name_char, normal_path, path_of, uri_of, word_at, Lines};
use super::{docs, Overlay, Refusal, Server, MAX_DOCUMENT_BYTES, RUN_EXAMPLE};
use lsp_types::{
    CodeActionParams, CodeLensParams, DocumentFormattingParams, DocumentSymbolParams,
    ExecuteCommandParams, GotoDefinitionParams, HoverParams, ReferenceParams, RenameParams,
    SymbolKind, TextDocumentPositionParams,
};
use outflank::check::{check, CheckError};
use outflank::source::{SourceFile, Span};
use outflank::syntax::ast::ItemKind;
use outflank::syntax::ITEM_WORDS;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The most files of one folder read to find the variants of a base file.
const MAX_FOLDER_FILES: usize = 1000;

/// Where the index's text of the edited file and the editor's text agree: the index may come
/// from the last text that parsed, and the two then differ only between a common start and a
/// common end.
pub(super) struct Shift {
    prefix: usize,
    old_len: usize,
    new_len: usize,
    suffix: usize,
}

impl Shift {
    fn between(old: &str, new: &str) -> Shift {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
            prefix -= 1;
        }
        let most = a.len().min(b.len()) - prefix;
        let mut suffix = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take(most)
            .take_while(|(x, y)| x == y)
            .count();
        while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
            suffix -= 1;
        }
        Shift {
            prefix,
            old_len: a.len(),
            new_len: b.len(),
            suffix,
        }
    }

    /// An offset of the editor's text in the index's text (inside the changed part: its start).
    pub(super) fn to_old(&self, offset: usize) -> usize {
        if offset <= self.prefix {
            offset
        } else if offset >= self.new_len - self.suffix {
            offset + self.old_len - self.new_len
        } else {
            self.prefix
        }
    }

    fn to_new(&self, offset: usize) -> usize {
        if offset <= self.prefix {
            offset
        } else if offset >= self.old_len - self.suffix {
            offset + self.new_len - self.old_len
        } else {
            self.prefix
        }
    }
}

/// The index of an open document, and how its text lines up with the editor's.
pub(super) struct Analysis {
    pub(super) index: Index,
    shift: Shift,
    /// The editor's text.
    text: String,
}

/// A word of the language that is not a name: it may not be declared.
fn reserved(word: &str) -> bool {
    const GRAMMAR_KEYWORDS: &[&str] = &[
        "if", "then", "else", "and", "or", "not", "in", "where", "while", "repeat", "choose",
        "place", "flip", "move", "let", "require", "stop", "pass", "take", "true", "false",
        "winner", "when", "mark", "to", "end", "on", "auto",
    ];
    GRAMMAR_KEYWORDS.contains(&word) || ITEM_WORDS.contains(&word)
}

impl Server {
    /// The index of an open document: of its text if it parses, else of the last text that
    /// did.
    pub(super) fn index_of(&self, path: &str) -> Option<(Index, Shift)> {
        let doc = self
            .docs
            .get(path)
            .filter(|d| d.text.len() <= MAX_DOCUMENT_BYTES)?;
        let overlay = Overlay { docs: &self.docs };
        let source = SourceFile::new(path, doc.text.clone());
        if let Ok(ast) = outflank::syntax::parse(&source) {
            let shift = Shift::between(&source.text, &doc.text);
            return Some((Index::from_parsed(source, ast, &overlay), shift));
        }
        let (old, ast) = doc.parsed.as_ref()?;
        let shift = Shift::between(old, &doc.text);
        let source = SourceFile::new(path, old.clone());
        Some((Index::from_parsed(source, ast.clone(), &overlay), shift))
    }

    fn analysis(&self, uri: &lsp_types::Uri) -> Option<(String, Analysis)> {
        let path = normal_path(&path_of(uri.as_str()));
        let (index, shift) = self.index_of(&path)?;
        let text = self.docs.get(&path)?.text.clone();
        Some((path, Analysis { index, shift, text }))
    }

    /// Every file, open or beside `declared_in` on disk, whose chain holds `declared_in`: the
    /// files in which a name declared there may be used. (A variant is usually kept beside its
    /// base; one elsewhere and not open is not found.)
    fn dependents(&self, declared_in: &str) -> Vec<Analysis> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let holds = |a: &Analysis| a.index.files.iter().any(|f| f.name == declared_in);
        for path in self.docs.keys() {
            seen.insert(path.clone());
            if let Some((index, shift)) = self.index_of(path) {
                let text = self.docs[path].text.clone();
                let a = Analysis { index, shift, text };
                if holds(&a) {
                    out.push(a);
                }
            }
        }
        let dir = std::path::Path::new(declared_in)
            .parent()
            .unwrap_or(std::path::Path::new("."));
        let Ok(entries) = std::fs::read_dir(dir) else {
            return out;
        };
        let overlay = Overlay { docs: &self.docs };
        // A folder of rules files holds dozens; a bound keeps a huge folder from stalling.
        for entry in entries.flatten().take(MAX_FOLDER_FILES) {
            let path = normal_path(&entry.path().to_string_lossy());
            let rules = entry.path().extension().is_some_and(|e| e == "rules");
            if !rules || !seen.insert(path.clone()) {
                continue;
            }
            let Ok(source) = outflank::source::read_source(&path) else {
                continue;
            };
            let Ok(ast) = outflank::syntax::parse(&source) else {
                continue;
            };
            let text = source.text.clone();
            let shift = Shift::between(&text, &text);
            let a = Analysis {
                index: Index::from_parsed(source, ast, &overlay),
                shift,
                text,
            };
            if holds(&a) {
                out.push(a);
            }
        }
        out
    }

    /// Every declaration and use of a symbol: in the file's chain, and for an item's name in
    /// every file that builds on the file declaring it. Each as (address, range, whether it
    /// declares), once.
    fn everywhere(&self, a: &Analysis, symbol: usize) -> Vec<(String, lsp_types::Range, bool)> {
        let mut out: Vec<(String, lsp_types::Range, bool)> = Vec::new();
        let mut add = |uri: String, range: lsp_types::Range, declaration: bool| {
            if !out.iter().any(|(u, r, _)| *u == uri && *r == range) {
                out.push((uri, range, declaration));
            }
        };
        // Not in a bundled base: it has no address (and `rename` refuses such names).
        let uris = self.file_uris(&a.index);
        for o in a.index.references(symbol) {
            if let Some(uri) = &uris[o.file] {
                add(uri.clone(), self.range(a, o.file, o.span), o.declaration);
            }
        }
        let s = &a.index.symbols[symbol];
        if s.visible.is_some() {
            return out;
        }
        let declared_in = &a.index.files[a.index.definition(symbol).file].name;
        for other in self.dependents(declared_in) {
            let same = |i: usize| {
                let t = &other.index.symbols[i];
                t.visible.is_none() && t.kind == s.kind && t.name == s.name
            };
            let uris = self.file_uris(&other.index);
            for o in &other.index.occurrences {
                if let (true, Some(uri)) = (o.symbol.is_some_and(same), &uris[o.file]) {
                    add(
                        uri.clone(),
                        self.range(&other, o.file, o.span),
                        o.declaration,
                    );
                }
            }
        }
        out
    }

    /// The byte offset of a request's position in the editor's text.
    fn offset(&self, a: &Analysis, position: lsp_types::Position) -> usize {
        Lines::new(&a.text, self.columns).offset(position)
    }

    /// The address of a file of the chain, the editor's own for an open one.
    pub(super) fn uri_for(&self, name: &str) -> String {
        self.docs
            .get(name)
            .map_or_else(|| uri_of(name), |d| d.uri.clone())
    }

    /// Whether a file of the chain has an address the editor can open: open in it, or on disk.
    /// A bundled game that a variant extends by name (see `cli::bundled_base`) has neither.
    pub(super) fn addressable(&self, name: &str) -> bool {
        self.docs.contains_key(name) || std::path::Path::new(name).exists()
    }

    /// The address of each file of an index's chain, None for one that has none (see
    /// [`Server::addressable`]): looked up once per file, not at each occurrence.
    fn file_uris(&self, index: &Index) -> Vec<Option<String>> {
        index
            .files
            .iter()
            .map(|f| self.addressable(&f.name).then(|| self.uri_for(&f.name)))
            .collect()
    }

    /// A span of a file of the chain as a protocol location, in the editor's text for the
    /// edited file.
    fn location(&self, a: &Analysis, file: usize, span: Span) -> Value {
        let name = &a.index.files[file].name;
        json!({ "uri": self.uri_for(name), "range": self.range(a, file, span) })
    }

    fn range(&self, a: &Analysis, file: usize, span: Span) -> lsp_types::Range {
        if file == a.index.main() {
            let (start, end) = (a.shift.to_new(span.start), a.shift.to_new(span.end));
            Lines::new(&a.text, self.columns).range(start, end)
        } else {
            Lines::new(&a.index.files[file].text, self.columns).range(span.start, span.end)
        }
    }

    /// The symbol named at a position, if any.
    fn symbol_at(&self, a: &Analysis, position: lsp_types::Position) -> Option<(usize, Span)> {
        let offset = a.shift.to_old(self.offset(a, position));
        let o = a.index.occurrence_at(a.index.main(), offset)?;
        Some((o.symbol?, o.span))
    }

    /// The `extends` string at a position, and the file it names.
    fn extends_at(&self, a: &Analysis, position: lsp_types::Position) -> Option<(Span, usize)> {
        let offset = a.shift.to_old(self.offset(a, position));
        let main = a.index.main();
        a.index
            .extends
            .iter()
            .find(|(f, s, _)| *f == main && s.start <= offset && offset <= s.end)
            .and_then(|&(_, s, target)| Some((s, target?)))
    }

    pub(super) fn hover(&self, p: HoverParams) -> Result<Value, Refusal> {
        let at = p.text_document_position_params;
        let Some((_, a)) = self.analysis(&at.text_document.uri) else {
            return Ok(self.word_hover(&at));
        };
        let markdown = |text: String, range: lsp_types::Range| json!({ "contents": { "kind": "markdown", "value": text }, "range": range });
        if let Some((symbol, span)) = self.symbol_at(&a, at.position) {
            let s = a.index.definition(symbol);
            let file = &a.index.files[s.file];
            let (line, _) = outflank::check::line_col(&file.text, s.item.start);
            let declared: String = file.text[s.item.start..s.item.end.min(file.text.len())]
                .lines()
                .take(6)
                .collect::<Vec<_>>()
                .join("\n");
            let text = format!(
                "{} `{}`: {}\n\n```rules\n{declared}\n```\n\ndeclared in {}:{line}",
                s.kind.noun(),
                s.name,
                s.detail,
                file.name
            );
            return Ok(markdown(text, self.range(&a, a.index.main(), span)));
        }
        if let Some((span, target)) = self.extends_at(&a, at.position) {
            let text = format!("extends `{}`", a.index.files[target].name);
            return Ok(markdown(text, self.range(&a, a.index.main(), span)));
        }
        let offset = self.offset(&a, at.position);
        let word = word_at(&a.text, offset);
        let lines = Lines::new(&a.text, self.columns);
        match docs::describe(&a.text[word.start..word.end]) {
            Some(text) => Ok(markdown(text, lines.range(word.start, word.end))),
            None => Ok(Value::Null),
        }
    }

    /// The hover of a built-in or keyword in a document that has never parsed.
    fn word_hover(&self, at: &TextDocumentPositionParams) -> Value {
        let path = normal_path(&path_of(at.text_document.uri.as_str()));
        let Some(doc) = self.docs.get(&path) else {
            return Value::Null;
        };
        let lines = Lines::new(&doc.text, self.columns);
        let word = word_at(&doc.text, lines.offset(at.position));
        match docs::describe(&doc.text[word.start..word.end]) {
            Some(text) => json!({
                "contents": { "kind": "markdown", "value": text },
                "range": lines.range(word.start, word.end),
            }),
            None => Value::Null,
        }
    }

    pub(super) fn definition(&self, p: GotoDefinitionParams) -> Result<Value, Refusal> {
        let at = p.text_document_position_params;
        let Some((_, a)) = self.analysis(&at.text_document.uri) else {
            return Ok(Value::Null);
        };
        // A bundled base has no file to go to.
        let at_file = |file: usize, span: Span| {
            let name = &a.index.files[file].name;
            if self.addressable(name) {
                self.location(&a, file, span)
            } else {
                Value::Null
            }
        };
        if let Some((symbol, _)) = self.symbol_at(&a, at.position) {
            let s = a.index.definition(symbol);
            return Ok(at_file(s.file, s.span));
        }
        if let Some((_, target)) = self.extends_at(&a, at.position) {
            return Ok(at_file(target, Span::new(0, 0)));
        }
        Ok(Value::Null)
    }

    pub(super) fn references(&self, p: ReferenceParams) -> Result<Value, Refusal> {
        let at = p.text_document_position;
        let Some((_, a)) = self.analysis(&at.text_document.uri) else {
            return Ok(Value::Null);
        };
        let Some((symbol, _)) = self.symbol_at(&a, at.position) else {
            return Ok(Value::Null);
        };
        let found: Vec<Value> = self
            .everywhere(&a, symbol)
            .into_iter()
            .filter(|(_, _, declaration)| p.context.include_declaration || !declaration)
            .map(|(uri, range, _)| json!({ "uri": uri, "range": range }))
            .collect();
        Ok(Value::Array(found))
    }

    pub(super) fn document_symbols(&self, p: DocumentSymbolParams) -> Result<Value, Refusal> {
        let Some((_, a)) = self.analysis(&p.text_document.uri) else {
            return Ok(Value::Null);
        };
        let main = a.index.main();
        let mut out = Vec::new();
        for item in &a.index.asts[main].items {
            let (name, kind, at) = match &item.kind {
                ItemKind::Title(t) => (t.node.clone(), SymbolKind::STRING, t.span),
                ItemKind::Param { name, .. } => {
                    (name.node.clone(), SymbolKind::CONSTANT, name.span)
                }
                ItemKind::SetParam { name, .. } => (
                    format!("set {}", name.node),
                    SymbolKind::PROPERTY,
                    name.span,
                ),
                ItemKind::Board { .. } => ("board".into(), SymbolKind::NAMESPACE, item.span),
                ItemKind::Player { name, .. } => (name.node.clone(), SymbolKind::OBJECT, name.span),
                ItemKind::PieceKind { name, .. } => {
                    (name.node.clone(), SymbolKind::OBJECT, name.span)
                }
                ItemKind::Region { name, .. } => (name.node.clone(), SymbolKind::ARRAY, name.span),
                ItemKind::Def { name, .. } => (name.node.clone(), SymbolKind::FUNCTION, name.span),
                ItemKind::Token(name) => (name.node.clone(), SymbolKind::KEY, name.span),
                ItemKind::Counter { name, .. } => {
                    (name.node.clone(), SymbolKind::NUMBER, name.span)
                }
                ItemKind::Directions { name, .. } => {
                    (name.node.clone(), SymbolKind::ENUM, name.span)
                }
                ItemKind::Line { name, .. } => (name.node.clone(), SymbolKind::STRUCT, name.span),
                ItemKind::Setup(_) => ("setup".into(), SymbolKind::NAMESPACE, item.span),
                ItemKind::Turn(_) => ("turn".into(), SymbolKind::METHOD, item.span),
                ItemKind::Agreement(_) => ("agreement".into(), SymbolKind::METHOD, item.span),
                ItemKind::End(_) => ("end".into(), SymbolKind::EVENT, item.span),
                ItemKind::Score { .. } => ("score".into(), SymbolKind::PROPERTY, item.span),
                ItemKind::Tiebreak { .. } => ("tiebreak".into(), SymbolKind::PROPERTY, item.span),
                ItemKind::Example(e) => (
                    format!("example \"{}\"", e.name.node),
                    SymbolKind::MODULE,
                    e.name.span,
                ),
                ItemKind::Source(_)
                | ItemKind::Credit(_)
                | ItemKind::Removed(_)
                | ItemKind::First(_) => continue,
            };
            let selection = if at.start >= item.span.start && at.end <= item.span.end {
                at
            } else {
                item.span
            };
            let first_line = a.index.files[main].text[item.span.start..item.span.end]
                .lines()
                .next()
                .unwrap_or_default()
                .trim()
                .to_string();
            out.push(json!({
                "name": name,
                "detail": first_line,
                "kind": kind,
                "range": self.range(&a, main, item.span),
                "selectionRange": self.range(&a, main, selection),
            }));
        }
        Ok(Value::Array(out))
    }

    /// The name that would be renamed at a position: a declared name of a file that parses
    /// as it stands (a half-typed file's names may have moved).
    fn renameable(
        &self,
        at: &TextDocumentPositionParams,
    ) -> Result<(Analysis, usize, Span), Refusal> {
        let Some((_, a)) = self.analysis(&at.text_document.uri) else {
            return Err(Refusal::invalid("the document is not open"));
        };
        let source = SourceFile::new("", a.text.clone());
        if let Err(d) = outflank::syntax::parse(&source) {
            return Err(Refusal::invalid(format!(
                "the file does not parse ({}); fix that first",
                d.message
            )));
        }
        match self.symbol_at(&a, at.position) {
            Some((symbol, span)) => Ok((a, symbol, span)),
            None => Err(Refusal::invalid(
                "only a name the rules declare can be renamed, not a built-in or a keyword",
            )),
        }
    }

    pub(super) fn prepare_rename(&self, p: TextDocumentPositionParams) -> Result<Value, Refusal> {
        let (a, symbol, span) = self.renameable(&p)?;
        let range = self.range(&a, a.index.main(), span);
        Ok(json!({ "range": range, "placeholder": a.index.symbols[symbol].name }))
    }

    pub(super) fn rename(&self, p: RenameParams) -> Result<Value, Refusal> {
        let (a, symbol, _) = self.renameable(&p.text_document_position)?;
        let new = p.new_name.trim();
        let valid = new.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && new.chars().all(is_name_char);
        if !valid || reserved(new) {
            return Err(Refusal::invalid(format!(
                "`{new}` cannot be a name: a name is a letter or _ then letters, digits or _, \
                 and not a word of the language"
            )));
        }
        // The language's own sets and functions: the renamed name would shadow them, or be
        // shadowed, and the file would mean something else or not check.
        if outflank::check::BUILTIN_SETS.contains(&new) || outflank::check::FUNCTIONS.contains(&new)
        {
            return Err(Refusal::invalid(format!(
                "`{new}` is a name the language has already (a built-in set or function); \
                 choose another"
            )));
        }
        let s = &a.index.symbols[symbol];
        if let Some(clash) = a
            .index
            .symbols
            .iter()
            .find(|o| o.name == new && o.visible.is_none() && s.visible.is_none())
        {
            return Err(Refusal::invalid(format!(
                "`{new}` already names a {} of these rules",
                clash.kind.noun()
            )));
        }
        let uris = self.file_uris(&a.index);
        if let Some(o) = a
            .index
            .references(symbol)
            .into_iter()
            .find(|o| uris[o.file].is_none())
        {
            return Err(Refusal::invalid(format!(
                "`{}` is used in the bundled game {}, which has no file here to change; copy \
                 it beside the variant to rename the name",
                s.name, a.index.files[o.file].name
            )));
        }
        let mut changes: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for (uri, range, _) in self.everywhere(&a, symbol) {
            changes
                .entry(uri)
                .or_default()
                .push(json!({ "range": range, "newText": new }));
        }
        Ok(json!({ "changes": changes }))
    }

    pub(super) fn formatting(&self, p: DocumentFormattingParams) -> Result<Value, Refusal> {
        let path = normal_path(&path_of(p.text_document.uri.as_str()));
        let Some(doc) = self.docs.get(&path) else {
            return Ok(Value::Null);
        };
        // As `fmt`: a file that does not parse is left as it is.
        if let Err(d) = outflank::syntax::parse(&SourceFile::new(path, doc.text.clone())) {
            return Err(Refusal::invalid(format!(
                "not formatted: the file does not parse ({})",
                d.message
            )));
        }
        let formatted = outflank::format::format(&doc.text);
        if formatted == doc.text {
            return Ok(json!([]));
        }
        let range = Lines::new(&doc.text, self.columns).range(0, doc.text.len());
        Ok(json!([{ "range": range, "newText": formatted }]))
    }

    /// A quick fix for each diagnostic that names what was likely meant.
    pub(super) fn code_actions(&self, p: CodeActionParams) -> Result<Value, Refusal> {
        let uri = p.text_document.uri.as_str().to_string();
        let actions: Vec<Value> = p
            .context
            .diagnostics
            .iter()
            .filter_map(|d| {
                let suggestion = d.data.as_ref()?.get("suggestion")?.as_str()?;
                Some(json!({
                    "title": format!("Replace with `{suggestion}`"),
                    "kind": "quickfix",
                    "diagnostics": [d],
                    "isPreferred": true,
                    "edit": { "changes": { uri.clone(): [{ "range": d.range, "newText": suggestion }] } },
                }))
            })
            .collect();
        Ok(Value::Array(actions))
    }

    /// A lens over each example of the edited file that runs it.
    pub(super) fn code_lenses(&self, p: CodeLensParams) -> Result<Value, Refusal> {
        let Some((_, a)) = self.analysis(&p.text_document.uri) else {
            return Ok(Value::Null);
        };
        let main = a.index.main();
        let uri = p.text_document.uri.as_str();
        let lenses: Vec<Value> = a.index.asts[main]
            .items
            .iter()
            .filter_map(|item| match &item.kind {
                ItemKind::Example(e) => Some(json!({
                    "range": self.range(&a, main, e.name.span),
                    "command": {
                        "title": "▶ run example",
                        "command": RUN_EXAMPLE,
                        "arguments": [uri, e.name.node],
                    },
                })),
                _ => None,
            })
            .collect();
        Ok(Value::Array(lenses))
    }

    /// Runs one example as `outflank test` does, and says how it went (also as a message to
    /// show): passed, or the failing step and the boards side by side.
    pub(super) fn execute_command(&self, p: ExecuteCommandParams) -> Result<Value, Refusal> {
        if p.command != RUN_EXAMPLE {
            return Err(Refusal::invalid(format!("no command {}", p.command)));
        }
        let (Some(uri), Some(name)) = (
            p.arguments.first().and_then(Value::as_str),
            p.arguments.get(1).and_then(Value::as_str),
        ) else {
            return Err(Refusal::invalid(
                "runExample takes a document and an example's name",
            ));
        };
        let path = normal_path(&path_of(uri));
        let overlay = Overlay { docs: &self.docs };
        let source = match self.docs.get(&path) {
            Some(doc) => SourceFile::new(path.clone(), doc.text.clone()),
            None => outflank::source::read_source(&path).map_err(Refusal::invalid)?,
        };
        let ast = outflank::syntax::parse(&source)
            .map_err(|d| Refusal::invalid(format!("the file does not parse: {}", d.message)))?;
        let Some(example) = ast.items.iter().find_map(|i| match &i.kind {
            ItemKind::Example(e) if e.name.node == name => Some(e),
            _ => None,
        }) else {
            return Err(Refusal::invalid(format!("no example named \"{name}\"")));
        };
        let settings = outflank::apps::examples::settings(example);
        let checked = match check(source.clone(), &overlay, &settings) {
            Ok(c) => c,
            Err(CheckError::Rules(d)) => {
                return Err(Refusal::invalid(format!(
                    "the rules do not check ({d}); see the diagnostics"
                )))
            }
            Err(CheckError::Setting(m)) => return Err(Refusal::invalid(m)),
        };
        let Some(example) = checked.examples.iter().find(|e| e.name.node == name) else {
            return Err(Refusal::invalid(format!("no example named \"{name}\"")));
        };
        let engine = outflank::engine::Engine::new(checked.game.clone());
        let (passed, message) = match outflank::apps::examples::run_example(&engine, example) {
            Ok(()) => (true, format!("example \"{name}\" passes")),
            Err(f) => {
                let (line, _) = outflank::check::line_col(&source.text, f.span.start);
                let mut m = format!("example \"{name}\" fails at line {line}: {}", f.message);
                if let Some((want, have)) = &f.boards {
                    m.push_str(&crate::cli::output::board_diff(want, have, ""));
                }
                (false, m)
            }
        };
        self.notify(
            "window/showMessage",
            json!({ "type": if passed { 3 } else { 1 }, "message": message }),
        );
        Ok(json!({ "passed": passed, "message": message }))
    }
}
