//! The session of `play`: the loop of boards, prompts and commands, the computer's turns, and
//! the agreement some rules offer after the game stops.

use super::game::Game;
use super::terminal::{Line, Out, Reader, Thinking};
use super::{interrupted, lock, write_record, COMMANDS, HELP, HINT_PLAYER};
use crate::cli::game::{Failure, GameArgs, StepLimit};
use outflank::agents::{agent, game_seed, Agent};
use outflank::check::closest_names;
use outflank::engine::state::State;
use outflank::engine::turns::PlayError;
use outflank::engine::Engine;

/// The computer to move chooses its whole turn, step by step, `thinking` shown meanwhile, and
/// plays it unless its time ran out first (false: the game is then lost, before the turn).
pub(super) fn computer_turn(
    g: &mut Game,
    a: &mut dyn Agent,
    limit: StepLimit,
    thinking: &str,
) -> Result<bool, Failure> {
    let engine = g.engine;
    // Computers playing each other a game that never ends would play for ever.
    if g.steps >= limit.max_steps {
        return Err(outflank::engine::RuleError::endless_game(
            &engine.game,
            format!("the game did not end within {} steps", limit.max_steps),
        )
        .into());
    }
    // The computer plays its whole turn, step by step.
    let mover = g.now.mover;
    let begun = std::time::Instant::now();
    let thinking = Thinking::new(thinking);
    let mut chosen = Vec::new();
    let mut before = g.now;
    loop {
        let mut legal = Vec::new();
        engine.steps(&before, &mut legal)?;
        let step = a.choose_watched(engine, &before, &legal, &mut |thought| {
            thinking.best(&engine.step_notation(&before, thought.step), thought.basis);
        })?;
        let after = engine.apply(&before, step)?;
        chosen.push((before, step, after));
        if after.steps == 0 || after.is_over() || after.mover != mover {
            break;
        }
        before = after;
    }
    drop(thinking);
    // A turn completed after the flag fell does not count, as over a board with a clock.
    if g.spend(mover, begun.elapsed()) {
        return Ok(false);
    }
    for (before, step, after) in chosen {
        g.advance(before, step, after, false);
    }
    Ok(true)
}

/// The legal moves nearest to a move that is not legal, as "; did you mean ...?" (or nothing).
/// A move that starts with a cell (in any case) is near the legal steps on the cells nearest
/// it on the board, up to three, the closest as the crow flies first; other text (a word) is
/// near the legal moves spelt most like it.
fn nearest_legal(engine: &Engine, now: &State, line: &str) -> Result<String, Failure> {
    let mut buf = Vec::new();
    engine.steps(now, &mut buf)?;
    let legal: Vec<String> = buf.iter().map(|&s| engine.step_notation(now, s)).collect();
    let g = &engine.game.geometry;
    let typed = g
        .parse_prefix(&line.trim().to_ascii_lowercase())
        .map(|(cell, _)| cell);
    let on_cells: Vec<(usize, String)> = buf
        .iter()
        .zip(&legal)
        .filter_map(|(&step, text)| Some((engine.step_cell(now, step)?, text.clone())))
        .collect();
    let near = match typed {
        Some(cell) if !on_cells.is_empty() => {
            let (width, row, col) = (g.width, cell / g.width, cell % g.width);
            let mut ranked: Vec<(usize, usize, usize, String)> = on_cells
                .into_iter()
                .map(|(c, text)| {
                    let (dr, dc) = ((c / width).abs_diff(row), (c % width).abs_diff(col));
                    (g.distance(cell, c), dr * dr + dc * dc, c, text)
                })
                .collect();
            ranked.sort();
            let least = ranked[0].0;
            let mut near: Vec<String> = Vec::new();
            for (_, _, _, text) in ranked.into_iter().take_while(|r| r.0 == least) {
                if !near.contains(&text) && near.len() < 3 {
                    near.push(text);
                }
            }
            near
        }
        _ => closest_names(line, &legal, 3),
    };
    Ok(if near.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", near.join(" or "))
    })
}

/// The game itself: boards and prompts on standard output, commands from standard input.
pub(super) fn session(
    g: &mut Game,
    agents: &mut [Option<Box<dyn Agent>>],
    seats: &[String],
    limit: StepLimit,
    args: &GameArgs,
    record: Option<&str>,
) -> Result<String, Failure> {
    let engine = g.engine;
    let mut input = Reader::new();
    let mut out = Out::new();
    out.say(&format!(
        "{}\n{HELP}\n",
        if engine.game.title.is_empty() {
            "untitled"
        } else {
            &engine.game.title
        }
    ));
    let mut shown = true;
    loop {
        if let Some(e) = out.lost.take() {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                break;
            }
            return Err(Failure::Message(format!("cannot write the output: {e}")));
        }
        if shown {
            let board = g.board(out.colour);
            out.raw("\n");
            out.raw(&board);
            out.say(&format!("{}\n", g.status()));
            shown = false;
        }
        // After two passes the rules may offer an agreement; declined, play resumes, and two
        // passes in a row without a placement then end the game as it stands.
        if engine.game.agreement.is_some()
            && g.now.is_over()
            && g.resigned.is_none()
            && lock(&g.live).record.agreement.is_none()
            && !g.resumed
            && g.now.passes >= 2
        {
            offer_agreement(g, agents, seats, &mut input, &mut out, record)?;
            shown = true;
            continue;
        }
        if g.over() {
            out.say(&format!("game over: {}\n", g.end_line()));
        } else if let Some(a) = agents[g.now.mover as usize].as_mut() {
            let mover = g.now.mover;
            let who = format!("{} ({})", engine.player_name(mover), seats[mover as usize]);
            if computer_turn(g, a.as_mut(), limit, &format!("{who} is thinking"))? {
                out.say(&format!("{who} plays {}\n", g.last_move()));
            } else {
                out.say(&format!("{who} took too long: its time ran out\n"));
            }
            shown = true;
            continue;
        } else if g.now.steps > 0 {
            out.say(&format!(
                "{} continues {}; next: {}\n",
                engine.player_name(g.now.mover),
                lock(&g.live).partial,
                step_list(engine, &g.now)
            ));
        }
        let prompt = if g.over() {
            "> ".to_string()
        } else {
            format!("{}> ", engine.player_name(g.now.mover))
        };
        input.complete_from(completions(engine, (!g.over()).then_some(&g.now)));
        // A human's time runs from the prompt to the line typed, whatever the line says.
        let on_clock = (!g.over()).then_some((g.now.mover, std::time::Instant::now()));
        let read = input.read(&prompt, &mut out);
        if let Some((p, asked)) = on_clock {
            if g.spend(p, asked.elapsed()) {
                shown = true;
            }
        }
        let line = match read {
            Line::Text(line) => line,
            Line::End => {
                out.say("\n");
                break;
            }
            Line::Interrupted => interrupted(&g.live, record),
        };
        let line = line.trim();
        let mut words = line.split_whitespace();
        let (command, argument) = (words.next().unwrap_or(""), words.next());
        match command {
            "" => {}
            "quit" | "exit" => break,
            "help" => out.say(&format!("{HELP}\n")),
            "?" => {
                if g.over() {
                    out.say("the game is over\n");
                } else {
                    out.say(&format!("{}\n", legal_list(engine, &g.now)));
                }
            }
            "hint" if g.over() => out.say("the game is over\n"),
            "hint" => match hint(engine, &g.now, argument.unwrap_or(HINT_PLAYER)) {
                Ok(text) => out.say(&format!("{text}\n")),
                Err(Failure::Message(m)) => out.say(&format!("{m}\n")),
                Err(other) => return Err(other),
            },
            "undo" if g.on_time => {
                out.say("the game was lost on time; undo gives no time back\n");
            }
            "undo" => {
                let undone = g.undo();
                out.say(&format!("{}\n", undone.unwrap_or("nothing to undo")));
                shown = undone.is_some();
            }
            "resign" if !g.over() && engine.game.player_count() != 2 => {
                out.say("only a game of two players ends by resigning; play on, or quit\n");
            }
            "resign" if !g.over() => {
                g.resigned = Some(g.now.mover);
                g.update_result();
                shown = true;
            }
            "save" => match argument {
                None => out.say("save needs a file name: save FILE\n"),
                Some(path) => match write_record(path, &g.record()) {
                    Ok(()) => out.say(&format!("saved to {path}\n")),
                    Err(e) => out.say(&format!("{e}\n")),
                },
            },
            "load" => match argument {
                None => out.say("load needs a file name: load FILE\n"),
                Some(path) => match g.load(args, path) {
                    Ok(n) => {
                        out.say(&format!(
                            "loaded {path}: {} played\n",
                            outflank::diagnostic::count_of(n as u64, "move")
                        ));
                        shown = true;
                    }
                    Err(Failure::Message(m)) => out.say(&format!("{m}\n")),
                    Err(other) => return Err(other),
                },
            },
            _ if g.over() => out.say(&format!("the game is over; {HELP}\n")),
            _ => match g.play_text(line) {
                Ok(()) => shown = true,
                Err(PlayError::Illegal(why)) => {
                    let near = nearest_legal(engine, &g.now, line)?;
                    out.say(&format!("`{line}` is not legal here: {why}{near}\n"));
                }
                Err(PlayError::Rule(e)) => return Err(e.into()),
            },
        }
    }
    Ok(String::new())
}

/// What Tab completes to: the commands, and at `s` (None when the game is over) the whole
/// turns when there are few, and the next steps.
fn completions(engine: &Engine, s: Option<&State>) -> Vec<String> {
    let mut words: Vec<String> = COMMANDS.iter().map(|c| (*c).to_string()).collect();
    let Some(s) = s else {
        return words;
    };
    if let Ok(turns) = engine.whole_turns(s, 200) {
        words.extend(turns.into_iter().map(|t| t.notation));
    }
    let mut buf = Vec::new();
    if engine.steps(s, &mut buf).is_ok() {
        for &step in &buf {
            let text = engine.step_notation(s, step);
            if !words.contains(&text) {
                words.push(text);
            }
        }
    }
    words
}

/// What `player` (an agent's name) would play at `s`: the rest of the turn, in notation.
fn hint(engine: &Engine, s: &State, player: &str) -> Result<String, Failure> {
    let mut a = agent(player, game_seed(1, u64::from(s.mover) + 1))?;
    let thinking = Thinking::new(&format!("{player} is thinking"));
    let mut now = *s;
    let mut text = String::new();
    loop {
        let mut legal = Vec::new();
        engine.steps(&now, &mut legal)?;
        let step = a.choose_watched(engine, &now, &legal, &mut |thought| {
            thinking.best(&engine.step_notation(&now, thought.step), thought.basis);
        })?;
        text.push_str(&engine.step_notation(&now, step));
        let after = engine.apply(&now, step)?;
        if after.steps == 0 || after.is_over() || after.mover != s.mover {
            break;
        }
        now = after;
    }
    Ok(format!("hint ({player}): {text}"))
}

fn step_list(engine: &Engine, s: &State) -> String {
    let mut buf = Vec::new();
    let _ = engine.steps(s, &mut buf);
    let texts: Vec<String> = buf.iter().map(|&st| engine.step_notation(s, st)).collect();
    outflank::engine::turns::abbreviate(&texts)
}

/// Whole moves when there are few, otherwise the next step's choices.
fn legal_list(engine: &Engine, s: &State) -> String {
    match engine.whole_turns(s, 60) {
        Ok(turns) => {
            let names: Vec<String> = turns.into_iter().map(|t| t.notation).collect();
            format!("legal moves ({}): {}", names.len(), names.join(" "))
        }
        Err(_) => format!(
            "many moves; the next step is one of: {}",
            step_list(engine, s)
        ),
    }
}

/// Runs the agreement: each player proposes (a computer proposes nothing), both accept or play
/// resumes.
fn offer_agreement(
    g: &mut Game,
    agents: &mut [Option<Box<dyn Agent>>],
    seats: &[String],
    input: &mut Reader,
    out: &mut Out,
    record: Option<&str>,
) -> Result<(), Failure> {
    // Each question waits for a line; the end of the input or Ctrl-C ends the agreement.
    let mut ask = |prompt: &str, out: &mut Out| match input.read(prompt, out) {
        Line::Text(line) => Some(line),
        Line::End => None,
        Line::Interrupted => interrupted(&g.live, record),
    };
    let engine = g.engine;
    let stopped = g.now;
    out.say("play has stopped: the players may agree to flip dead groups before scoring\n");
    let mut proposals = Vec::new();
    let mut agreed = stopped;
    let players = engine.game.player_count();
    // Each player proposes once, in turn order from the one to move.
    for proposer in engine.game.turn_order(stopped.mover) {
        let name = engine.player_name(proposer).to_string();
        if agents[proposer as usize].is_some() {
            out.say(&format!(
                "{name} ({}) proposes nothing\n",
                seats[proposer as usize]
            ));
            proposals.push(String::new());
            continue;
        }
        let mut a = engine
            .begin_agreement(&agreed, proposer)?
            .expect("the rules have an agreement");
        let mut text = String::new();
        while !a.is_over() {
            out.say(&format!("{name}, agreement: {}\n", step_list(engine, &a)));
            let Some(line) = ask(&format!("{name}> "), out) else {
                break;
            };
            match engine.parse_turn(&a, line.trim()) {
                Ok(played) => {
                    text.push_str(line.trim());
                    a = played.last().map_or(a, |(_, st)| *st);
                }
                Err(e) => out.say(&format!("{e}\n")),
            }
        }
        if !a.is_over() {
            break;
        }
        agreed = a;
        proposals.push(text);
    }
    let mut accepted = proposals.len() == players as usize;
    if accepted {
        out.say(&format!(
            "\nproposed final position:\n{}",
            crate::cli::output::board_text(engine, &agreed)
        ));
    }
    for p in 0..players {
        if !accepted {
            break;
        }
        let name = engine.player_name(p);
        accepted = match agents[p as usize] {
            // A computer accepts what does not lower its own margin.
            Some(_) => {
                let margin = |s: &State| engine.outcome(s, None).margin(p);
                let yes = margin(&agreed) >= margin(&stopped);
                out.say(&format!(
                    "{name} ({}) {}\n",
                    seats[p as usize],
                    if yes { "accepts" } else { "declines" }
                ));
                yes
            }
            None => {
                let answer = ask(&format!("{name}, accept? (yes/no) "), out);
                answer.is_some_and(|l| l.trim().starts_with('y'))
            }
        };
    }
    if accepted {
        g.now = agreed;
        lock(&g.live).record.agreement = Some(proposals);
        g.update_result();
        out.say("agreed\n");
    } else {
        g.now = engine.resume(&stopped, stopped.mover)?;
        g.resumed = true;
        g.update_result();
        out.say("no agreement: play resumes; two passes in a row now end the game as it stands\n");
    }
    Ok(())
}
