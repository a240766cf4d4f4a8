//! The commands that look into a game at a position: `moves`, `perft`, `explain` and `trace`.

use super::game::*;
use super::output::*;
use super::progress::Progress;
use clap::Args;
use outflank::agents::game_seed;
use outflank::diagnostic::{Diagnostic, Diagnostics};
use outflank::engine::rng::Rng;
use outflank::engine::turns::{abbreviate, ListError, PlayError};
use outflank::engine::{Extra, RuleError};
use std::io::IsTerminal;
use std::time::Instant;

// The options of `moves` (its help is the doc comment of `Command::Moves`).
#[derive(Args)]
pub(super) struct MovesArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// Moves to play first, separated by spaces; the last may stop mid-turn.
    #[arg(long, default_value = "")]
    pub(super) moves: String,
    /// List only the next step's choices instead of whole turns.
    #[arg(long)]
    pub(super) steps: bool,
    /// List at most this many whole turns (the output says when more exist).
    #[arg(long, default_value_t = 100_000)]
    pub(super) limit: usize,
    /// The moves as one JSON object.
    #[arg(long)]
    pub(super) json: bool,
}

// The options of `perft` (its help is the doc comment of `Command::Perft`).
#[derive(Args)]
pub(super) struct PerftArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// How many whole turns deep to count (a forced pass is a turn).
    #[arg(long)]
    pub(super) depth: u32,
    /// Moves to play first, separated by spaces.
    #[arg(long, default_value = "")]
    pub(super) moves: String,
    /// List the count under each first move.
    #[arg(long)]
    pub(super) divide: bool,
    /// The count, the time and the leaves per second (and with --divide the counts per first
    /// move) as one JSON object.
    #[arg(long)]
    pub(super) json: bool,
}

// The options of `explain` (its help is the doc comment of `Command::Explain`).
#[derive(Args)]
pub(super) struct ExplainArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// Moves to play first, separated by spaces.
    #[arg(long, default_value = "")]
    pub(super) moves: String,
    /// The move to explain (a whole turn or its first steps).
    #[arg(name = "MOVE")]
    pub(super) the_move: String,
}

// The options of `trace` (its help is the doc comment of `Command::Trace`).
#[derive(Args)]
pub(super) struct TraceArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    #[command(flatten)]
    pub(super) limit: StepLimit,
    /// Seed of the random players, used when no --moves are given (as in `run` and `play`).
    #[arg(long, default_value_t = 1, conflicts_with = "moves")]
    pub(super) seed: u64,
    /// The moves to play, separated by spaces, instead of random players' moves.
    #[arg(long)]
    pub(super) moves: Option<String>,
}

pub(super) fn cmd_moves(a: &MovesArgs) -> Result<String, Failure> {
    let MovesArgs {
        game: ref args,
        moves: ref history,
        steps,
        limit,
        json,
    } = *a;
    let mut out = String::new();
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    // Whole turns beyond the limit are left out, and the output says so.
    let mut more = false;
    let entries: Vec<MoveEntry> = if steps {
        let mut buf = Vec::new();
        engine.steps(&s, &mut buf)?;
        let mut out = Vec::new();
        for step in buf {
            let after = engine.apply(&s, step)?;
            out.push(MoveEntry::new(
                &engine,
                engine.step_notation(&s, step),
                &after,
            ));
        }
        out
    } else {
        // In the middle of a turn, the history's last move is the turn's beginning: list whole
        // turns that start with it, so an entry can replace it in --moves.
        let begun = if s.steps > 0 {
            history.split_whitespace().last().unwrap_or("")
        } else {
            ""
        };
        let (turns, beyond) = engine.first_turns(&s, limit)?;
        more = beyond;
        turns
            .into_iter()
            .map(|t| MoveEntry::new(&engine, format!("{begun}{}", t.notation), &t.after))
            .collect()
    };
    if json {
        let mut report = PositionReport::new(&engine, &s, entries);
        report.more = more;
        out.push_str(&json_document(&report, true));
    } else {
        outp!(out, "{}", describe_position(&engine, &s));
        let names: Vec<String> = entries.iter().map(|e| e.notation.clone()).collect();
        if !s.is_over() {
            let what = if steps { "choices" } else { "moves" };
            if more {
                outln!(
                    out,
                    "the first {} legal {what} (more beyond --limit {limit}; --steps lists the next step's choices): {}",
                    names.len(),
                    names.join(" ")
                );
            } else {
                outln!(out, "{} legal {what}: {}", names.len(), names.join(" "));
            }
        }
    }
    Ok(out)
}

pub(super) fn cmd_perft(a: &PerftArgs) -> Result<String, Failure> {
    let PerftArgs {
        game: ref args,
        depth,
        moves: ref history,
        divide,
        json,
    } = *a;
    let mut out = String::new();
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let started = Instant::now();
    let (leaves, split) = if divide {
        let split = match engine.perft_divide(&s, depth) {
            Ok(v) => v,
            Err(ListError::Rule(e)) => return Err(e.into()),
            Err(ListError::TooMany(_)) => unreachable!("no limit"),
        };
        (split.iter().map(|(_, n)| n).sum(), split)
    } else if std::io::stderr().is_terminal() && !json && depth >= 2 && !s.is_over() {
        // For a person waiting: the count split by first move (as --divide splits it), with a
        // progress bar over the first moves.
        let turns = match engine.whole_turns(&s, usize::MAX) {
            Ok(t) => t,
            Err(ListError::Rule(e)) => return Err(e.into()),
            Err(ListError::TooMany(_)) => unreachable!("no limit"),
        };
        let progress = Progress::new(true, turns.len() as u64, "first moves");
        let mut leaves = 0;
        for (i, t) in turns.iter().enumerate() {
            leaves += engine.perft(&t.after, depth - 1)?;
            progress.set(i as u64 + 1);
        }
        (leaves, Vec::new())
    } else {
        (engine.perft(&s, depth)?, Vec::new())
    };
    let seconds = started.elapsed().as_secs_f64();
    if json {
        let report = PerftReport {
            depth,
            leaves,
            seconds,
            divide: divide.then(|| {
                split
                    .iter()
                    .map(|(m, n)| DivideEntry {
                        r#move: m.clone(),
                        leaves: *n,
                    })
                    .collect()
            }),
        };
        out.push_str(&json_document(&report, false));
    } else {
        for (m, n) in &split {
            outln!(out, "{m}: {n}");
        }
        outln!(
            out,
            "perft {depth}: {leaves} leaves in {seconds:.3} s ({} leaves/s)",
            rate(leaves as f64, seconds)
        );
    }
    Ok(out)
}

pub(super) fn cmd_explain(a: &ExplainArgs) -> Result<String, Failure> {
    let ExplainArgs {
        game: ref args,
        moves: ref history,
        ref the_move,
    } = *a;
    if the_move.trim().is_empty() {
        return Err(Failure::Message(
            "no move to explain: give one, e.g. `outflank explain FILE d3`".into(),
        ));
    }
    // Echoed in the explanation: no terminal escapes from it.
    let the_move = outflank::diagnostic::printable(the_move);
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let ex = engine.explain(&s, the_move.trim())?;
    let player = engine.player_name(ex.player).to_string();
    let mut out = String::new();
    let verdict = if ex.legal { "legal" } else { "not legal" };
    outln!(out, "{} is {verdict} for {player}", the_move.trim());
    let mut diags = Diagnostics::default();
    let mut plain = Vec::new();
    for step in &ex.steps {
        if let Some(loc) = step.allowed_by {
            let file = &engine.game.files[loc.file as usize];
            let mut d = Diagnostic::warning(
                file,
                loc.span,
                format!("`{}` is allowed by this option", step.text),
            )
            .with_label(format!("allows {}", step.text));
            d.severity = miette::Severity::Advice;
            diags.push(d);
        } else if step.allowed_by.is_none() && step.reasons.is_empty() {
            plain.push(format!("`{}`: the forced pass", step.text));
        }
        for (why, loc) in &step.reasons {
            match loc {
                Some(loc) => {
                    let file = &engine.game.files[loc.file as usize];
                    diags.push(
                        Diagnostic::error(file, loc.span, why.clone()).with_label(why.clone()),
                    );
                }
                None => plain.push(why.clone()),
            }
        }
    }
    outp!(out, "{}", diags.render(false, render_width()));
    for p in plain {
        outln!(out, "{p}");
    }
    // What the legal part of the move changes.
    let (mut placed, mut flipped, mut vacated) = (Vec::new(), Vec::new(), Vec::new());
    let g = &engine.game.geometry;
    for c in 0..g.cells() {
        match (s.owner(c), ex.after.owner(c)) {
            (None, Some(_)) => placed.push(g.name(c)),
            (Some(a), Some(b)) if a != b => flipped.push(g.name(c)),
            (Some(_), None) => vacated.push(g.name(c)),
            _ => {}
        }
    }
    let mut parts = Vec::new();
    for (what, cells) in [
        ("places", &placed),
        ("flips", &flipped),
        ("empties", &vacated),
    ] {
        if !cells.is_empty() {
            parts.push(format!("{what} {}", cells.join(" ")));
        }
    }
    // And the state beyond the board: a token changing hands, a counter changing.
    for ((name, before), (_, after)) in engine.extra(&s).into_iter().zip(engine.extra(&ex.after)) {
        match (&before, &after) {
            (Extra::PerPlayer(b), Extra::PerPlayer(a)) => {
                for ((player, x), (_, y)) in b.iter().zip(a) {
                    if x != y {
                        parts.push(format!("changes {player}'s {name} from {x} to {y}"));
                    }
                }
            }
            _ if before != after => parts.push(format!("gives {name} to {after}")),
            _ => {}
        }
    }
    let lead = if ex.legal { "it" } else { "its legal part" };
    if ex.steps.iter().any(|st| st.allowed_by.is_some()) || ex.legal {
        outln!(
            out,
            "{lead} {}",
            if parts.is_empty() {
                "changes no cell".to_string()
            } else {
                parts.join("; ")
            }
        );
    }
    if ex.legal {
        Ok(out)
    } else {
        write_stdout(&out)?;
        Err(Failure::Printed)
    }
}

pub(super) fn cmd_trace(a: &TraceArgs) -> Result<String, Failure> {
    let TraceArgs {
        game: ref args,
        limit,
        seed,
        ref moves,
    } = *a;
    let history = moves.as_deref();
    let mut out = String::new();
    let engine = load_game(args)?;
    let mut s = start(&engine, args)?;
    let title = if engine.game.title.is_empty() {
        "untitled"
    } else {
        &engine.game.title
    };
    outln!(out, "{title}");
    let params: Vec<String> = engine
        .game
        .params
        .iter()
        .map(|p| format!("{}={}", p.name, p.value))
        .collect();
    if !params.is_empty() {
        outln!(out, "parameters: {}", params.join(" "));
    }
    // The history's steps, in order, or a seeded random player.
    let mut scripted: Vec<outflank::engine::Step> = Vec::new();
    if let Some(h) = history {
        let mut cur = s;
        for (i, m) in h.split_whitespace().enumerate() {
            let played = engine.parse_turn(&cur, m).map_err(|e| match e {
                PlayError::Illegal(why) => {
                    Failure::Message(format!("move {} `{m}` is not legal: {why}", i + 1))
                }
                rule @ PlayError::Rule(_) => rule.into(),
            })?;
            if let Some((_, st)) = played.last() {
                cur = *st;
            }
            scripted.extend(played.into_iter().map(|(step, _)| step));
        }
        outln!(out, "moves: {h}");
    } else {
        outln!(out, "seed: {seed}");
    }
    let mut rng = Rng::new(game_seed(seed, 0));
    let mut buf = Vec::new();
    let mut next_scripted = scripted.into_iter();
    let mut steps = 0u64;
    loop {
        if out.len() > STREAM_CHUNK && !stream_stdout(&mut out)? {
            return Ok(String::new());
        }
        if steps == limit.max_steps {
            stream_stdout(&mut out)?;
            return Err(RuleError::endless_game(
                &engine.game,
                format!("the game did not end within {} steps", limit.max_steps),
            )
            .into());
        }
        steps += 1;
        out.push('\n');
        if s.is_over() {
            outp!(out, "{}", position_text(&engine, &s));
            outln!(out, "result: {}", result_line(&engine, &s));
            break;
        }
        engine.steps(&s, &mut buf)?;
        let step = if history.is_some() {
            if let Some(step) = next_scripted.next() {
                step
            } else {
                outp!(out, "{}", board_text(&engine, &s));
                outln!(
                    out,
                    "{} to move; the given moves end here",
                    engine.player_name(s.mover)
                );
                break;
            }
        } else {
            buf[rng.below(buf.len())]
        };
        let heading = if s.steps == 0 {
            format!("turn {}: {} to move", s.turn, engine.player_name(s.mover))
        } else {
            format!(
                "turn {}, step {}: {} to choose",
                s.turn,
                s.steps + 1,
                engine.player_name(s.mover)
            )
        };
        outln!(out, "{heading}");
        outp!(out, "{}", position_text(&engine, &s));
        let legal: Vec<String> = buf.iter().map(|&st| engine.step_notation(&s, st)).collect();
        outln!(out, "legal: {}", abbreviate(&legal));
        outln!(
            out,
            "{} plays {}",
            engine.player_name(s.mover),
            engine.step_notation(&s, step)
        );
        s = engine.apply(&s, step)?;
    }
    Ok(out)
}
