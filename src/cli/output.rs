//! Text and JSON presentation of positions and results.

use outflank::engine::state::State;
use outflank::engine::Engine;
use outflank::ir::NOBODY;
use serde::Serialize;
use serde_json::Value;

/// The version of the JSON documents the commands write (docs/JSON.md). It goes up when a
/// field changes its meaning or goes away; a new field comes without a new version.
pub(crate) const SCHEMA_VERSION: u64 = 2;

/// `body`, which serializes to an object, as one of the command line's JSON documents: its
/// fields after a first one, `schema_version`, numbers written as the values they stand for,
/// and a final newline. `pretty`: indented, else on one line.
pub(crate) fn json_document(body: &impl Serialize, pretty: bool) -> String {
    let mut doc = serde_json::Map::new();
    doc.insert("schema_version".into(), SCHEMA_VERSION.into());
    let Value::Object(fields) = serde_json::to_value(body).expect("plain data serializes") else {
        panic!("a JSON document is an object");
    };
    doc.extend(fields);
    let mut doc = Value::Object(doc);
    round_floats(&mut doc);
    let text = if pretty {
        serde_json::to_string_pretty(&doc)
    } else {
        serde_json::to_string(&doc)
    };
    text.expect("plain data serializes") + "\n"
}

/// Every floating-point number in `v` to twelve significant digits, and without a fraction
/// when whole: the sums and quotients behind a rate leave noise in the last bits
/// (0.9999999999999998 for 1), which says nothing and reads as a bug.
pub(crate) fn round_floats(v: &mut Value) {
    match v {
        Value::Number(n) if n.is_f64() => {
            let x = n.as_f64().expect("a float");
            let rounded: f64 = format!("{x:.11e}").parse().expect("a number reads back");
            // Whole values up to 2^53 are exact as integers.
            if rounded.fract() == 0.0 && rounded.abs() < 9.0e15 {
                *n = serde_json::Number::from(rounded as i64);
            } else if let Some(r) = serde_json::Number::from_f64(rounded) {
                *n = r;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(round_floats),
        Value::Object(fields) => fields.values_mut().for_each(round_floats),
        _ => {}
    }
}

/// Text for HTML and SVG: the characters markup gives meaning to, escaped.
pub(super) fn escape_markup(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A rate and its 95% interval, in percent: `48.0% (95% CI 44.7-51.2%)`.
pub(super) fn percent_ci(rate: f64, ci95: [f64; 2]) -> String {
    format!(
        "{:.1}% (95% CI {:.1}-{:.1}%)",
        rate * 100.0,
        ci95[0] * 100.0,
        ci95[1] * 100.0
    )
}

/// A score as a JSON number: whole scores print without a fraction.
pub(super) fn score_value(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        Value::from(v as i64)
    } else {
        Value::from(v)
    }
}

pub(super) fn rate(count: f64, seconds: f64) -> String {
    let r = if seconds > 0.0 {
        count / seconds
    } else {
        f64::INFINITY
    };
    if r >= 1e6 {
        format!("{:.2} M", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1} k", r / 1e3)
    } else {
        format!("{r:.1}")
    }
}

#[derive(Serialize)]
pub(super) struct ResultReport {
    pub winner: Option<String>,
    pub scores: serde_json::Map<String, Value>,
}

#[derive(Serialize)]
pub(super) struct MoveEntry {
    #[serde(rename = "move")]
    pub notation: String,
    pub board: Vec<String>,
    pub to_move: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Map<String, Value>>,
}

impl MoveEntry {
    pub(super) fn new(engine: &Engine, notation: String, after: &State) -> MoveEntry {
        MoveEntry {
            notation,
            board: engine.board_rows(after),
            to_move: engine.player_name(after.mover).to_string(),
            extra: extra(engine, after),
        }
    }
}

#[derive(Serialize)]
pub(super) struct PositionReport {
    pub to_move: String,
    pub board: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Map<String, Value>>,
    pub over: bool,
    pub result: Option<ResultReport>,
    pub moves: Vec<MoveEntry>,
    /// More whole turns exist than `moves` lists (`moves --limit`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub more: bool,
}

impl PositionReport {
    pub(super) fn new(engine: &Engine, s: &State, moves: Vec<MoveEntry>) -> PositionReport {
        PositionReport {
            to_move: engine.player_name(s.mover).to_string(),
            board: engine.board_rows(s),
            extra: extra(engine, s),
            over: s.is_over(),
            result: s.outcome.map(|o| ResultReport {
                winner: (o.winner != NOBODY).then(|| engine.player_name(o.winner).to_string()),
                scores: (0..engine.game.player_count())
                    .map(|p| {
                        (
                            engine.player_name(p).to_string(),
                            score_value(o.scores()[p as usize]),
                        )
                    })
                    .collect(),
            }),
            moves,
            more: false,
        }
    }
}

/// Tokens and their holders, counters and each player's value, when the game declares any.
fn extra(engine: &Engine, s: &State) -> Option<serde_json::Map<String, Value>> {
    outflank::apps::record::extra_json(engine, s)
}

#[derive(Serialize)]
pub(super) struct DivideEntry {
    pub r#move: String,
    pub leaves: u64,
}

#[derive(Serialize)]
pub(super) struct PerftReport {
    pub depth: u32,
    pub leaves: u64,
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<Vec<DivideEntry>>,
}

/// The board with column letters and row numbers. A hexagonal board's rows each sit half a
/// cell right of the one above, as in its picture, so that its six neighbours surround a cell.
pub(super) fn board_text(engine: &Engine, s: &State) -> String {
    let g = &engine.game.geometry;
    let mut out = String::from("   ");
    for x in 0..g.width {
        out.push((b'a' + x as u8) as char);
        out.push(' ');
    }
    out = out.trim_end().to_string();
    out.push('\n');
    for (y, row) in engine.board_rows(s).iter().enumerate() {
        out.push_str(&format!("{:>2} ", y + 1));
        if g.hex {
            out.push_str(&" ".repeat(y));
        }
        let cells: Vec<String> = row.chars().map(String::from).collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

fn format_score(v: f64) -> String {
    score_value(v).to_string()
}

/// Every player's score, in turn order: "black 40, white 24".
pub(super) fn score_list(engine: &Engine, o: &outflank::engine::state::Outcome) -> String {
    let scores: Vec<String> = o
        .scores()
        .iter()
        .enumerate()
        .map(|(p, &v)| format!("{} {}", engine.player_name(p as u8), format_score(v)))
        .collect();
    scores.join(", ")
}

/// "black 40, white 24: black wins" or "...: draw".
pub(super) fn result_line(engine: &Engine, s: &State) -> String {
    let Some(o) = s.outcome else {
        return "not finished".into();
    };
    let scores = score_list(engine, &o);
    if o.winner == NOBODY {
        format!("{scores}: draw")
    } else {
        format!("{scores}: {} wins", engine.player_name(o.winner))
    }
}

/// The board, then the state beyond it (each token's holder, each counter's values).
pub(super) fn position_text(engine: &Engine, s: &State) -> String {
    let mut text = board_text(engine, s);
    for (name, value) in engine.extra(s) {
        text.push_str(&format!("{name}: {value}\n"));
    }
    text
}

/// A readable summary of a position for the text output of `moves`.
pub(super) fn describe_position(engine: &Engine, s: &State) -> String {
    let mut out = position_text(engine, s);
    if s.is_over() {
        out.push_str(&format!("game over: {}\n", result_line(engine, s)));
    } else if s.steps > 0 {
        out.push_str(&format!(
            "{} to move, in the middle of a turn\n",
            engine.player_name(s.mover)
        ));
    } else {
        out.push_str(&format!("{} to move\n", engine.player_name(s.mover)));
    }
    out
}

/// Expected and actual rows side by side, the differing rows marked, as `test` prints them:
/// each line starts with a line break and `indent`.
pub(crate) fn board_diff(want: &[String], have: &[String], indent: &str) -> String {
    let width = want
        .iter()
        .chain(have)
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max(8);
    let mut out = format!("\n{indent}     {:<width$}   actual", "expected");
    for i in 0..want.len().max(have.len()) {
        let (w, h) = (
            want.get(i).map_or("", String::as_str),
            have.get(i).map_or("", String::as_str),
        );
        let mark = if w == h { ' ' } else { '*' };
        out.push_str(&format!("\n{indent}{mark}{:>3} {w:<width$}   {h}", i + 1));
    }
    out
}

/// One diagnostic placed by line and column (both from 1, start and end), and what it says:
/// what `check --format json` and the web page's editor give.
#[derive(Serialize)]
pub(super) struct PlacedDiagnostic {
    pub(super) severity: &'static str,
    /// The file the span is in: the checked file, or a file it extends.
    pub(super) file: String,
    pub(super) line: usize,
    pub(super) column: usize,
    pub(super) end_line: usize,
    pub(super) end_column: usize,
    pub(super) message: String,
    pub(super) label: String,
    pub(super) help: Option<String>,
}

pub(super) fn placed(d: &outflank::diagnostic::Diagnostic) -> PlacedDiagnostic {
    let text = &d.source.text;
    let (line, column) = outflank::check::line_col(text, d.span.start);
    let (end_line, end_column) = outflank::check::line_col(text, d.span.end);
    PlacedDiagnostic {
        severity: if d.is_error() { "error" } else { "warning" },
        file: d.source.name.clone(),
        line,
        column,
        end_line,
        end_column,
        message: d.message.clone(),
        label: d.label.clone(),
        help: d.help.clone(),
    }
}
