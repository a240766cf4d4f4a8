//! One diagnostic type for every problem found in a rules file, and a collection of them.
//! Library code returns these; only the command line renders them.

use crate::source::SourceFile;
use crate::source::Span;
use miette::{LabeledSpan, MietteError, MietteSpanContents, Severity, SourceCode, SpanContents};
use std::fmt;
use std::sync::Arc;

#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub source: Arc<SourceFile>,
    pub span: Span,
    pub message: String,
    pub label: String,
    pub help: Option<String>,
    /// Text that would fix the problem if it replaced the span (a "did you mean" name), for
    /// tools that offer the fix (the language server's code actions).
    /// (Boxed text keeps a diagnostic small: parse results carry one by value.)
    pub suggestion: Option<Box<str>>,
    pub severity: Severity,
}

/// The file itself is the diagnostics' source code: every diagnostic shares it, so a file
/// with ten thousand warnings is held once, not ten thousand times.
impl SourceCode for SourceFile {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

impl Diagnostic {
    pub fn error(source: &Arc<SourceFile>, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            source: source.clone(),
            span,
            message: message.into(),
            label: "here".into(),
            help: None,
            suggestion: None,
            severity: Severity::Error,
        }
    }

    pub fn warning(source: &Arc<SourceFile>, span: Span, message: impl Into<String>) -> Self {
        let mut d = Self::error(source, span, message);
        d.severity = Severity::Warning;
        d
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Offers `replacement` for the span's text, with the help "did you mean `replacement`?"
    /// unless the diagnostic has help of its own.
    pub fn with_suggestion(mut self, replacement: impl Into<String>) -> Self {
        let replacement: String = replacement.into();
        if self.help.is_none() {
            self.help = Some(format!("did you mean `{replacement}`?"));
        }
        self.suggestion = Some(replacement.into_boxed_str());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn severity(&self) -> Option<Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&*self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.span.end.saturating_sub(self.span.start);
        Some(Box::new(std::iter::once(LabeledSpan::new(
            Some(self.label.clone()),
            self.span.start,
            len,
        ))))
    }
}

/// Diagnostics shown in full; a file with more gets a count of the rest (thousands of pages of
/// the same warning help no one, and each page reads the file).
pub const MAX_RENDERED: usize = 100;

/// Every diagnostic found in one check, errors and warnings, in source order per file.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
    pub fn errors(&self) -> usize {
        self.0.iter().filter(|d| d.is_error()).count()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Drops repeats: the same message at the same place, found twice because the checker
    /// looked at one expression twice (once per player, say).
    pub fn dedup(&mut self) {
        let mut seen = std::collections::HashSet::new();
        self.0.retain(|d| {
            seen.insert((
                d.source.name.clone(),
                d.span.start,
                d.span.end,
                d.message.clone(),
            ))
        });
    }

    /// Keeps the order stable for humans and snapshots: by file, then position.
    pub fn sort(&mut self) {
        self.0
            .sort_by(|a, b| (&a.source.name, a.span.start).cmp(&(&b.source.name, b.span.start)));
    }
    /// Renders every diagnostic as text; `color` adds ANSI colours.
    #[cfg(feature = "fancy")]
    pub fn render(&self, color: bool, width: usize) -> String {
        let theme = if color {
            miette::GraphicalTheme::unicode()
        } else {
            miette::GraphicalTheme::unicode_nocolor()
        };
        let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(width);
        let mut out = String::new();
        // In source order; past the cap, errors first, so that the ones unshown are warnings.
        let mut shown: Vec<&Diagnostic> = self.0.iter().collect();
        if shown.len() > MAX_RENDERED {
            shown.sort_by_key(|d| !d.is_error());
        }
        for d in shown.iter().take(MAX_RENDERED) {
            // Writing into a String cannot fail.
            let _ = handler.render_report(&mut out, *d);
        }
        if let Some(rest) = shown.get(MAX_RENDERED..).filter(|r| !r.is_empty()) {
            let errors = rest.iter().filter(|d| d.is_error()).count();
            let warnings = rest.len() - errors;
            let mut more = Vec::new();
            if errors > 0 {
                more.push(count_of(errors as u64, "more error"));
            }
            if warnings > 0 {
                more.push(count_of(warnings as u64, "more warning"));
            }
            out.push_str(&format!(
                "... and {}, not shown: fix these first\n",
                more.join(" and ")
            ));
        }
        out
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", count_of(self.errors() as u64, "error"))
    }
}

/// `n` and a noun, the noun in the plural unless `n` is one: "1 error", "3 errors". (Every noun
/// the program counts takes an s.)
pub fn count_of(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// Text a user gave, made safe to show on a terminal: control characters (an escape sequence
/// that would clear the screen or recolour it) are written as escapes, lines and tabs kept.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The candidate nearest to `name`, if it is near enough to be a likely typo (see
/// [`closest_names`]).
pub fn closest(name: &str, candidates: &[String]) -> Option<String> {
    closest_names(name, candidates, 1).pop()
}

/// Up to `n` candidates near enough to `name` to be what was meant, nearest first: at most one
/// edit in three characters (at least one edit), where swapping two neighbouring characters is
/// one edit, as in `emtpy` for `empty`. Ties keep the candidates' order.
pub fn closest_names(name: &str, candidates: &[String], n: usize) -> Vec<String> {
    let limit = (name.chars().count() / 3).max(1);
    let mut near: Vec<(usize, &String)> = candidates
        .iter()
        .map(|c| (strsim::osa_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .collect();
    near.sort_by_key(|&(d, _)| d);
    near.into_iter().take(n).map(|(_, c)| c.clone()).collect()
}
