//! GGF, the Generic Game Format of the Generic Game Server: one game a line,
//! `(;GM[Othello]...BO[8 ... *]B[f5]W[d6]...;)`.

use super::tree::{escape, property, Node};
use super::{seat_name, two_player_grid, Game, Turn};
use crate::apps::record::Record;
use crate::engine::state::State;
use crate::engine::Engine;

/// GGF's pieces: `*` for the first player (Black), `O` for the second, `-` for an empty cell.
const GGF_PIECES: [char; 2] = ['*', 'O'];

pub(super) fn read(
    engine: &Engine,
    tree: &[Node],
    rules: &str,
    unused: &mut Vec<String>,
) -> Result<Record, String> {
    two_player_grid(engine, "GGF")?;
    let g = &engine.game.geometry;
    let node = tree.first().ok_or("the game has no node")?;
    let Some(board) = property(node, "BO") else {
        return Err("the game has no board (BO[...])".into());
    };
    let words: Vec<&str> = board.split_whitespace().collect();
    let size: usize = words
        .first()
        .and_then(|w| w.parse().ok())
        .ok_or("BO[...] does not start with the board's size")?;
    if size != g.width || size != g.height {
        return Err(format!(
            "the game is on a board of {size}x{size}, these rules' is {}x{}",
            g.width, g.height
        ));
    }
    // After the size, the cells (in one word or several) and the player to move.
    let [_, cell_words @ .., to_move] = words.as_slice() else {
        return Err(format!(
            "BO[...] has no cells after the size {size}, and no player to move"
        ));
    };
    let (cells, to_move) = (cell_words.concat(), *to_move);
    if cells.chars().count() != size * size {
        return Err(format!(
            "BO[...] has {} cells for a board of {}",
            cells.chars().count(),
            size * size
        ));
    }
    let mut rows = Vec::new();
    for row in cells.chars().collect::<Vec<_>>().chunks(size) {
        let mut line = String::new();
        for &c in row {
            line.push(match c {
                '-' => '.',
                c if c == GGF_PIECES[0] => engine.game.slot_symbol(0),
                c if c == GGF_PIECES[1] || c == 'o' => engine.game.slot_symbol(1),
                other => return Err(format!("BO[...] has `{other}`, not one of - * O")),
            });
        }
        rows.push(line);
    }
    let mover = match to_move {
        "*" => 0,
        "O" | "o" => 1,
        other => {
            return Err(format!(
                "BO[...] ends with `{other}`, not * or O for the player to move"
            ))
        }
    };
    let start = engine
        .position(&rows.join("/"), Some(engine.player_name(mover)))
        .map_err(|m| format!("BO[...]: {m}"))?;
    let mut game = Game {
        engine,
        now: start,
        moves: Vec::new(),
    };
    let mut n = 0;
    for (name, values) in node {
        let player = match name.as_str() {
            "B" => 0,
            "W" => 1,
            "GM" | "BO" | "TY" | "PB" | "PW" | "RE" => continue,
            _ => {
                unused.push(format!("{name}[{}]", values.join("][")));
                continue;
            }
        };
        n += 1;
        // A move is the cell (or PA for a pass), then optionally /evaluation/time.
        let cell = values[0]
            .split('/')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let text = if cell == "pa" || cell == "pass" {
            "pass".to_string()
        } else {
            cell
        };
        game.play(&text, Some(player), n)?;
    }
    let result = property(node, "RE").unwrap_or("");
    // RE is Black's margin: Black (the first player) gave up where it is a loss; `:r` after
    // it for a resignation, `:t` for time run out.
    let given_up = |mark: &str, on_time: bool| {
        result.strip_suffix(mark).map(|margin| {
            let margin: f64 = margin.parse().unwrap_or(0.0);
            (u8::from(margin >= 0.0), on_time, format!("RE[{result}]"))
        })
    };
    let resigned = given_up(":r", false).or_else(|| given_up(":t", true));
    let name = |key: &str| property(node, key).unwrap_or("unknown").to_string();
    let given_up = resigned.is_some();
    let record = game.into_record(rules, &start, [name("PB"), name("PW")], resigned, unused)?;
    // A finished game's result is the one its moves give; a margin that says otherwise is
    // named as not kept, never dropped unsaid.
    if let (Some(r), false, Ok(said)) = (&record.result, given_up, result.parse::<f64>()) {
        let score = |p: u8| r.scores.get(engine.player_name(p)).copied().unwrap_or(0.0);
        let margin = score(0) - score(1);
        if r.resigned.is_none() && said != margin {
            unused.push(format!("RE[{result}] (the moves give {margin:+.3})"));
        }
    }
    Ok(record)
}

/// The result as GGF writes it: Black's margin (a game given up: at least one point to the
/// winner, `:r` after it for a resignation, `:t` for time run out); `?` while the game goes on.
fn ggf_result(record: &Record, engine: &Engine) -> String {
    let Some(r) = &record.result else {
        return "?".into();
    };
    let score = |p: u8| r.scores.get(engine.player_name(p)).copied().unwrap_or(0.0);
    let margin = score(0) - score(1);
    match &r.resigned {
        Some(loser) => {
            let m = margin.abs().max(1.0);
            let black_won = loser != engine.player_name(0);
            let mark = if r.on_time { 't' } else { 'r' };
            format!("{:+.3}:{mark}", if black_won { m } else { -m })
        }
        None => format!("{margin:+.3}"),
    }
}

pub(super) fn write(
    engine: &Engine,
    record: &Record,
    start: &State,
    turns: &[Turn],
) -> Result<String, String> {
    two_player_grid(engine, "GGF")?;
    let g = &engine.game.geometry;
    if g.width != g.height {
        return Err("GGF holds square boards".into());
    }
    let mut board = String::new();
    for y in 0..g.height {
        board.push(' ');
        for x in 0..g.width {
            board.push(match start.owner(y * g.width + x) {
                None => '-',
                Some(p) if p < 2 => GGF_PIECES[p as usize],
                Some(_) => return Err("GGF holds pieces of two players only".into()),
            });
        }
    }
    // GM names the game: the rules' title, which is what a server expects of the standard
    // game's rules file.
    let mut out = format!(
        "(;GM[{}]PC[outflank]PB[{}]PW[{}]RE[{}]TY[{}]BO[{}{board} {}]",
        escape(&engine.game.title),
        escape(&seat_name(engine, record, 0)),
        escape(&seat_name(engine, record, 1)),
        ggf_result(record, engine),
        g.width,
        g.width,
        GGF_PIECES[start.mover as usize]
    );
    for t in turns {
        let colour = if t.mover == 0 { 'B' } else { 'W' };
        let cell = t.cell.map_or("PA".to_string(), |c| g.name(c));
        out.push_str(&format!("{colour}[{cell}]"));
    }
    out.push_str(";)\n");
    Ok(out)
}
