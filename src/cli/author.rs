//! The commands a designer runs on rules files as text: `check`, `info`, `fmt` and `test`.

use super::game::*;
use super::output::*;
use clap::Args;
use outflank::check::{check, CheckError};
use outflank::engine::Engine;
use outflank::source::read_source;

// The options of `check` (its help is the doc comment of `Command::Check`).
#[derive(Args)]
pub(super) struct CheckArgs {
    /// Rules files to check: each one's every diagnostic, lints included.
    #[arg(required = true)]
    pub(super) files: Vec<String>,
    /// How to print the diagnostics: for people (with the lines they point at), as one JSON
    /// object, or as GitHub Actions annotations (one line each, on standard output).
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub(super) format: CheckFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum CheckFormat {
    Human,
    Json,
    Github,
}

/// What `check --format json` says of one file.
#[derive(serde::Serialize)]
struct CheckedFile {
    file: String,
    ok: bool,
    /// A problem with no place in a rules file (an unreadable file).
    error: Option<String>,
    diagnostics: Vec<PlacedDiagnostic>,
}

/// A GitHub Actions workflow command's message or property, escaped as the runner reads it.
fn github_escaped(text: &str, property: bool) -> String {
    let out = text
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    if property {
        out.replace(':', "%3A").replace(',', "%2C")
    } else {
        out
    }
}

/// One annotation line of `check --format github`.
fn github_line(d: &PlacedDiagnostic) -> String {
    let mut said = d.message.clone();
    if !d.label.is_empty() {
        said += &format!(": {}", d.label);
    }
    if let Some(help) = &d.help {
        said += &format!("\nhelp: {help}");
    }
    format!(
        "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        d.severity,
        github_escaped(&d.file, true),
        d.line,
        d.column,
        d.end_line,
        d.end_column,
        github_escaped(&d.message, true),
        github_escaped(&said, false)
    )
}

/// `check --format json` and `--format github`: every file's diagnostics, placed by line and
/// column; exit 1 when some file has an error.
fn check_for_machines(files: &[String], format: CheckFormat) -> Result<String, Failure> {
    let mut checked = Vec::new();
    for f in files {
        let mut file = CheckedFile {
            file: f.clone(),
            ok: false,
            error: None,
            diagnostics: Vec::new(),
        };
        match read_rules(f) {
            Err(e) => file.error = Some(e),
            Ok(source) => match check(source, &RulesLoader, &[]) {
                Ok(c) => {
                    file.ok = true;
                    file.diagnostics = c.warnings.0.iter().map(placed).collect();
                }
                Err(CheckError::Rules(d)) => file.diagnostics = d.0.iter().map(placed).collect(),
                Err(CheckError::Setting(m)) => file.error = Some(m),
            },
        }
        checked.push(file);
    }
    let mut out = String::new();
    if format == CheckFormat::Json {
        out = json_document(&serde_json::json!({ "files": checked }), true);
    } else {
        for file in &checked {
            if let Some(e) = &file.error {
                let e = github_escaped(e, false);
                outln!(
                    out,
                    "::error file={}::{e}",
                    github_escaped(&file.file, true)
                );
            }
            for d in &file.diagnostics {
                outln!(out, "{}", github_line(d));
            }
        }
    }
    if checked.iter().all(|f| f.ok) {
        Ok(out)
    } else {
        write_stdout(&out)?;
        Err(Failure::Printed)
    }
}

// The options of `fmt` (its help is the doc comment of `Command::Fmt`).
#[derive(Args)]
pub(super) struct FmtArgs {
    /// Rules files to lay out, rewritten in place.
    #[arg(required = true)]
    pub(super) files: Vec<String>,
    /// Rewrite nothing: name the files whose layout would change, and exit 1 if there are any.
    #[arg(long)]
    pub(super) check: bool,
}

// The options of `test` (its help is the doc comment of `Command::Test`).
#[derive(Args)]
pub(super) struct TestArgs {
    /// Rules files whose examples to run.
    #[arg(required = true)]
    pub(super) files: Vec<String>,
}

// The options of `info` (its help is the doc comment of `Command::Info`).
#[derive(Args)]
pub(super) struct InfoArgs {
    /// The rules file.
    pub(super) file: String,
    /// Set a parameter, e.g. --set size=10 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(super) set: Vec<String>,
    /// The same as one JSON object.
    #[arg(long)]
    pub(super) json: bool,
}

/// What `info` says of a game.
#[derive(serde::Serialize)]
struct Info {
    title: String,
    credits: Vec<String>,
    sources: Vec<String>,
    board: BoardInfo,
    /// In turn order, the first mover marked.
    players: Vec<SeatInfo>,
    kinds: Vec<SeatInfo>,
    parameters: Vec<outflank::ir::ParamInfo>,
    /// Each region and its number of cells.
    regions: Vec<(String, u32)>,
    lines: Vec<String>,
    tokens: Vec<String>,
    counters: Vec<String>,
    examples: usize,
    runner: RunnerInfo,
}

#[derive(serde::Serialize)]
struct BoardInfo {
    shape: &'static str,
    width: usize,
    height: usize,
    /// Cells in play.
    cells: u32,
    /// The turns and reflections of the board the rules keep (the solver merges the
    /// positions they map onto each other).
    symmetries: Vec<&'static str>,
}

#[derive(serde::Serialize)]
struct SeatInfo {
    name: String,
    symbol: char,
    /// A player: whether it moves first; a kind of piece: how line patterns see it.
    note: String,
}

#[derive(serde::Serialize)]
struct RunnerInfo {
    /// How many cells the runner's sets hold (the board's, rounded up to a built width).
    set_cells: usize,
    /// The bytes of a position in the runner, what a playout or a search copies.
    state_bytes: usize,
    /// How turns run: as a loop over the boards, as one step of a Go-like capture, or as the
    /// turn program's instructions.
    turns: &'static str,
}

/// What a rules file describes: its title and credits, board, players, parameters and what
/// they allow, regions, lines, and how the runner takes it.
pub(super) fn cmd_info(a: &InfoArgs) -> Result<String, Failure> {
    let mut args = GameArgs::plain(&a.file);
    args.set.clone_from(&a.set);
    let checked = load_checked(&args, !args.set.is_empty())?;
    let examples = checked.examples.len();
    let engine = Engine::new(checked.game);
    let g = &engine.game;
    let shape = match (g.geometry.hex, g.geometry.wrap.across, g.geometry.wrap.down) {
        (true, _, _) => "hexagon",
        (false, true, true) => "torus",
        (false, true, false) => "cylinder",
        _ => "grid",
    };
    let info = Info {
        title: g.title.clone(),
        credits: g.credits.clone(),
        sources: g.sources.clone(),
        board: BoardInfo {
            shape,
            width: g.geometry.width,
            height: g.geometry.height,
            cells: g.geometry.playable.count(),
            symmetries: g.symmetries.iter().map(|s| s.name).collect(),
        },
        players: g
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| SeatInfo {
                name: p.name.clone(),
                symbol: p.symbol,
                note: if i == usize::from(g.first) {
                    "moves first".into()
                } else {
                    String::new()
                },
            })
            .collect(),
        kinds: g
            .kinds
            .iter()
            .map(|k| SeatInfo {
                name: k.name.clone(),
                symbol: k.symbol,
                note: match k.role {
                    Some(outflank::ir::PieceRole::Friend) => "as friend".into(),
                    Some(outflank::ir::PieceRole::Opponent) => "as opponent".into(),
                    None => "a wall to lines".into(),
                },
            })
            .collect(),
        parameters: g.params.clone(),
        regions: g
            .regions
            .iter()
            .map(|(n, cells)| (n.clone(), cells.count()))
            .collect(),
        lines: g.lines.iter().map(|l| l.name.clone()).collect(),
        tokens: g.tokens.clone(),
        counters: g.counters.iter().map(|(n, _)| n.clone()).collect(),
        examples,
        runner: RunnerInfo {
            set_cells: engine.runner_set_cells(),
            state_bytes: engine.runner_state_bytes(),
            turns: engine.runner_path(),
        },
    };
    if a.json {
        return Ok(json_document(&info, true));
    }
    Ok(info_text(&info))
}

/// `info` as text: one line per item, lists joined with commas.
fn info_text(i: &Info) -> String {
    let mut out = String::new();
    outln!(
        out,
        "{}",
        if i.title.is_empty() {
            "untitled"
        } else {
            &i.title
        }
    );
    for c in &i.credits {
        outln!(out, "credit: {c}");
    }
    for s in &i.sources {
        outln!(out, "source: {s}");
    }
    let b = &i.board;
    outln!(
        out,
        "board: {} {} x {}, {} cells in play",
        b.shape,
        b.width,
        b.height,
        b.cells
    );
    if b.symmetries.is_empty() {
        outln!(out, "symmetries: none but the identity");
    } else {
        outln!(out, "symmetries: {}", b.symmetries.join(", "));
    }
    let seats = |list: &[SeatInfo]| -> String {
        list.iter()
            .map(|s| {
                let note = if s.note.is_empty() {
                    String::new()
                } else {
                    format!(", {}", s.note)
                };
                format!("{} '{}'{note}", s.name, s.symbol)
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    outln!(out, "players: {}", seats(&i.players));
    if !i.kinds.is_empty() {
        outln!(out, "pieces: {}", seats(&i.kinds));
    }
    for p in &i.parameters {
        outln!(out, "parameter: {} = {} ({})", p.name, p.value, p.allowed);
    }
    if !i.regions.is_empty() {
        let regions: Vec<String> = i
            .regions
            .iter()
            .map(|(n, c)| format!("{n} ({c} {})", if *c == 1 { "cell" } else { "cells" }))
            .collect();
        outln!(out, "regions: {}", regions.join(", "));
    }
    for (what, list) in [
        ("lines", &i.lines),
        ("tokens", &i.tokens),
        ("counters", &i.counters),
    ] {
        if !list.is_empty() {
            outln!(out, "{what}: {}", list.join(", "));
        }
    }
    outln!(out, "examples: {}", i.examples);
    let r = &i.runner;
    let turns = match r.turns {
        "direct" => "each turn a loop over the two boards",
        "enclosure" => "a Go-like capture as one step",
        "enclosure loop" => "a Go-like capture as one step, placements among words as a loop",
        _ => "the turn program, step by step",
    };
    outln!(
        out,
        "runner: sets of {} cells, {} bytes a position; {turns}",
        r.set_cells,
        r.state_bytes
    );
    out
}

pub(super) fn cmd_check(a: &CheckArgs) -> Result<String, Failure> {
    let files = &a.files;
    if a.format != CheckFormat::Human {
        return check_for_machines(files, a.format);
    }
    let mut out = String::new();
    let mut failed = false;
    for f in files {
        let source = match read_rules(f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}", outflank::diagnostic::printable(&e));
                failed = true;
                continue;
            }
        };
        match check(source, &RulesLoader, &[]) {
            Ok(checked) => {
                if !checked.warnings.is_empty() {
                    eprint!("{}", checked.warnings.render(color(), render_width()));
                }
                let g = &checked.game;
                outln!(
                    out,
                    "{f}: ok ({}, {} x {}, {}{})",
                    if g.title.is_empty() {
                        "untitled"
                    } else {
                        &g.title
                    },
                    g.geometry.width,
                    g.geometry.height,
                    g.player_list(),
                    g.kinds
                        .iter()
                        .map(|k| format!("; piece {}", k.name))
                        .collect::<Vec<_>>()
                        .concat()
                );
            }
            Err(CheckError::Rules(d)) => {
                eprint!("{}", d.render(color(), render_width()));
                failed = true;
            }
            Err(CheckError::Setting(m)) => {
                eprintln!("error: {}", outflank::diagnostic::printable(&m));
                failed = true;
            }
        }
    }
    if failed {
        write_stdout(&out)?;
        Err(Failure::Printed)
    } else {
        Ok(out)
    }
}

pub(super) fn cmd_fmt(a: &FmtArgs) -> Result<String, Failure> {
    let FmtArgs { ref files, check } = *a;
    let mut out = String::new();
    let mut unformatted = Vec::new();
    for file in files {
        let source = read_source(file)?;
        // Refuse to lay out a file that does not parse: whitespace is all that may change.
        if let Err(d) = outflank::syntax::parse(&source) {
            let mut all = outflank::diagnostic::Diagnostics::default();
            all.push(d);
            eprint!("{}", all.render(color(), render_width()));
            return Err(Failure::Printed);
        }
        let formatted = outflank::format::format(&source.text);
        if formatted == source.text {
            continue;
        }
        if check {
            unformatted.push(file.clone());
        } else {
            std::fs::write(file, formatted).map_err(|e| format!("cannot write {file}: {e}"))?;
            outln!(out, "formatted {file}");
        }
    }
    if !unformatted.is_empty() {
        for f in &unformatted {
            outln!(out, "{f} is not formatted");
        }
        write_stdout(&out)?;
        return Err(Failure::Printed);
    }
    Ok(out)
}

pub(super) fn cmd_test(a: &TestArgs) -> Result<String, Failure> {
    let files = &a.files;
    let (mut passed, mut failed) = (0, 0);
    let mut out = String::new();
    for file in files {
        // A designer testing the examples wants the warnings too.
        let checked = load_checked(&GameArgs::plain(file), true)?;
        let (engine, examples) = (Engine::new(checked.game), checked.examples);
        outln!(out, "{file}");
        if examples.is_empty() {
            outln!(out, "  (no examples)");
        }
        let source = engine
            .game
            .files
            .last()
            .expect("a checked game has its file")
            .clone();
        for (i, example) in examples.iter().enumerate() {
            let settings = outflank::apps::examples::settings(example);
            // An example that sets parameters runs on the rules checked with them (the same
            // file, so its examples come in the same order).
            let with_settings;
            let (runner, example) = if settings.is_empty() {
                (&engine, example)
            } else {
                let mut args = GameArgs::plain(file);
                args.set = settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let checked = load_checked(&args, false)?;
                with_settings = (Engine::new(checked.game), checked.examples);
                (&with_settings.0, &with_settings.1[i])
            };
            match outflank::apps::examples::run_example(runner, example) {
                Ok(()) => {
                    passed += 1;
                    outln!(out, "  ok    {}", example.name.node);
                }
                Err(f) => {
                    failed += 1;
                    outln!(out, "  FAIL  {}: {}", example.name.node, f.message);
                    if let Some((want, have)) = &f.boards {
                        // The diff's lines each start with a line break; outln ends the last.
                        let diff = super::output::board_diff(want, have, "     ");
                        outln!(out, "{}", &diff[1..]);
                    }
                    let mut d = outflank::diagnostic::Diagnostics::default();
                    d.push(
                        outflank::diagnostic::Diagnostic::error(
                            &source,
                            f.span,
                            format!("example `{}` failed", example.name.node),
                        )
                        .with_label(f.message.clone())
                        .with_help(
                            "the example's steps run in order; the labelled one did not hold",
                        ),
                    );
                    eprint!("{}", d.render(color(), render_width()));
                }
            }
        }
    }
    outln!(out, "{passed} passed, {failed} failed");
    if failed > 0 {
        write_stdout(&out)?;
        return Err(Failure::Printed);
    }
    Ok(out)
}
