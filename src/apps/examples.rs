//! Running the examples written inside rules files.

use crate::engine::state::State;
use crate::engine::turns::PlayError;
use crate::engine::Engine;
use crate::ir::NOBODY;
use crate::syntax::ast::{Example, ExampleStep, Expectation, Span};

/// Why an example failed: the step at fault, what went wrong, and the boards when they differ.
#[derive(Debug)]
pub struct ExampleFailure {
    pub span: Span,
    pub message: String,
    /// Expected and actual rows, when a board expectation failed.
    pub boards: Option<(Vec<String>, Vec<String>)>,
}

fn fail(span: Span, message: impl Into<String>) -> ExampleFailure {
    ExampleFailure {
        span,
        message: message.into(),
        boards: None,
    }
}

fn sorted(v: &[String]) -> Vec<String> {
    let mut v = v.to_vec();
    v.sort();
    v
}

/// The parameter values an example sets, as `--set` takes them: the engine that runs the
/// example must be made with these.
pub fn settings(example: &Example) -> Vec<(String, String)> {
    example
        .steps
        .iter()
        .filter_map(|step| match &step.node {
            ExampleStep::Set { name, value } => Some((name.node.clone(), value.node.to_string())),
            _ => None,
        })
        .collect()
}

/// Runs one example of `engine`'s rules (made with the example's [`settings`]).
pub fn run_example(engine: &Engine, example: &Example) -> Result<(), ExampleFailure> {
    let mut s: State = engine
        .start()
        .map_err(|e| fail(example.name.span, format!("rule error: {e}")))?;
    for step in &example.steps {
        let span = step.span;
        match &step.node {
            ExampleStep::Position { rows, to_move } => {
                s = engine
                    .position(rows, to_move.as_ref().map(|p| p.node.as_str()))
                    .map_err(|e| fail(span, e))?;
            }
            ExampleStep::Play(moves) => {
                s = engine
                    .play_history(&s, moves)
                    .map_err(|e| fail(span, e.to_string()))?;
            }
            ExampleStep::Expect(e) => check(engine, &s, e, span)?,
            // Applied when the engine was made (see `settings`).
            ExampleStep::Set { .. } => {}
        }
    }
    Ok(())
}

fn whole_turns(engine: &Engine, s: &State, span: Span) -> Result<Vec<String>, ExampleFailure> {
    engine
        .whole_turns(s, 100_000)
        .map(|t| t.into_iter().map(|t| t.notation).collect())
        .map_err(|e| fail(span, format!("cannot list the moves: {e:?}")))
}

/// Why `text` cannot be a move of this game because a cell it names is not a playable cell
/// (cell names are a letter and a row number; a letter before one, as in `c3xb4`, is a mark).
fn off_board(engine: &Engine, text: &str) -> Option<String> {
    let g = &engine.game.geometry;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_cell =
            bytes[i].is_ascii_lowercase() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        if !starts_cell {
            i += 1;
            continue;
        }
        let end = i
            + 1
            + bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
        let name = &text[i..end];
        let last = g.name(g.cells() - 1);
        match g.parse(name) {
            None => {
                return Some(format!(
                    "`{name}` in `{text}` is not a cell of this board (a1 to {last}), so the move could never be legal"
                ))
            }
            Some(cell) if !g.playable.contains(cell) => {
                return Some(format!(
                    "`{name}` in `{text}` is removed from play, so the move could never be legal"
                ))
            }
            Some(_) => {}
        }
        i = end;
    }
    None
}

fn check(engine: &Engine, s: &State, e: &Expectation, span: Span) -> Result<(), ExampleFailure> {
    match e {
        Expectation::Legal(want) => {
            let have = whole_turns(engine, s, span)?;
            if sorted(&have) != sorted(want) {
                let missing: Vec<&String> = want.iter().filter(|m| !have.contains(m)).collect();
                let extra: Vec<&String> = have.iter().filter(|m| !want.contains(m)).collect();
                return Err(fail(
                    span,
                    format!("the legal moves differ: missing {missing:?}, not expected {extra:?}"),
                ));
            }
        }
        Expectation::LegalIncludes(want) => {
            let have = whole_turns(engine, s, span)?;
            let missing: Vec<&String> = want.iter().filter(|m| !have.contains(m)).collect();
            if !missing.is_empty() {
                return Err(fail(span, format!("not legal here: {missing:?}")));
            }
        }
        Expectation::LegalExcludes(unwanted) => {
            // A move that names no cell of the board could never be legal: a typo, and the
            // expectation would pass without testing anything.
            if let Some(why) = unwanted.iter().find_map(|m| off_board(engine, m)) {
                return Err(fail(span, why));
            }
            let have = whole_turns(engine, s, span)?;
            let present: Vec<&String> = unwanted.iter().filter(|m| have.contains(m)).collect();
            if !present.is_empty() {
                return Err(fail(
                    span,
                    format!("legal here, but expected not to be: {present:?}"),
                ));
            }
        }
        Expectation::Steps(want) => {
            let mut buf = Vec::new();
            engine
                .steps(s, &mut buf)
                .map_err(|e| fail(span, format!("rule error: {e}")))?;
            let have: Vec<String> = buf.iter().map(|&st| engine.step_notation(s, st)).collect();
            if &have != want {
                return Err(fail(span, format!("the next steps are {have:?}")));
            }
        }
        Expectation::Board(want) => {
            let have = engine.board_rows(s);
            if &have != want {
                return Err(ExampleFailure {
                    span,
                    message: "the board differs".into(),
                    boards: Some((want.clone(), have)),
                });
            }
        }
        Expectation::ToMove(p) => {
            let have = engine.player_name(s.mover);
            if s.is_over() || have != p.node {
                let what = if s.is_over() {
                    "the game is over".to_string()
                } else {
                    format!("{have} is to move")
                };
                return Err(fail(span, what));
            }
        }
        Expectation::Over | Expectation::NotOver => {
            if s.is_over() != matches!(e, Expectation::Over) {
                return Err(fail(
                    span,
                    if s.is_over() {
                        "the game is over"
                    } else {
                        "the game is not over"
                    },
                ));
            }
        }
        Expectation::Winner(_) | Expectation::Draw => {
            let Some(o) = s.outcome else {
                return Err(fail(span, "the game is not over"));
            };
            let want = match e {
                Expectation::Winner(p) => p.node.as_str(),
                _ => "nobody",
            };
            if engine.player_name(o.winner) != want {
                let got = if o.winner == NOBODY {
                    "a draw".to_string()
                } else {
                    format!("{} wins", engine.player_name(o.winner))
                };
                return Err(fail(span, format!("the result is {got}")));
            }
        }
        Expectation::Illegal(m) => match engine.play_history(s, m) {
            Err(PlayError::Illegal(_)) => {}
            Err(PlayError::Rule(r)) => return Err(fail(span, format!("rule error: {r}"))),
            Ok(_) => return Err(fail(span, format!("`{m}` is legal here"))),
        },
        Expectation::Scores(want) => {
            let o = s.outcome.unwrap_or_else(|| engine.outcome(s, None));
            for (p, v) in want {
                let i = engine.game.player_by_name(&p.node).unwrap_or(0) as usize;
                if o.scores()[i] != *v {
                    return Err(fail(
                        span,
                        format!("{}'s score is {}", p.node, o.scores()[i]),
                    ));
                }
            }
        }
    }
    Ok(())
}
