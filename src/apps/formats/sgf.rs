//! SGF, the Smart Game Format (`FF[4]`) of Go programs: the main line of each game tree.

use super::tree::{escape, property, Node};
use super::{seat_name, two_player_grid, Game, Turn};
use crate::apps::record::Record;
use crate::engine::state::State;
use crate::engine::Engine;

/// SGF names a cell by two letters, column then row, `a` to `z` then `A` to `Z`, row `a` on top.
fn sgf_letter(i: usize) -> Option<char> {
    match i {
        0..=25 => Some((b'a' + i as u8) as char),
        26..=51 => Some((b'A' + (i - 26) as u8) as char),
        _ => None,
    }
}

fn sgf_index(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    }
}

fn sgf_point(engine: &Engine, value: &str) -> Result<Option<usize>, String> {
    let g = &engine.game.geometry;
    let letters: Vec<char> = value.chars().collect();
    // `tt` is the pass of the older SGF versions, on boards up to 19x19.
    if letters.is_empty() || (value == "tt" && g.width <= 19 && g.height <= 19) {
        return Ok(None);
    }
    match letters[..] {
        [x, y] => match (sgf_index(x), sgf_index(y)) {
            (Some(x), Some(y)) if x < g.width && y < g.height => Ok(Some(y * g.width + x)),
            _ => Err(format!(
                "`{value}` is not a point of a {}x{} board",
                g.width, g.height
            )),
        },
        _ => Err(format!("`{value}` is not a point (two letters)")),
    }
}

pub(super) fn read(
    engine: &Engine,
    tree: &[Node],
    rules: &str,
    unused: &mut Vec<String>,
) -> Result<Record, String> {
    two_player_grid(engine, "SGF")?;
    let g = &engine.game.geometry;
    let root = tree.first().ok_or("the game has no node")?;
    let size = property(root, "SZ").unwrap_or("19");
    let (w, h) = match size.split_once(':') {
        Some((w, h)) => (w.parse().ok(), h.parse().ok()),
        None => (size.parse().ok(), size.parse().ok()),
    };
    if (w, h) != (Some(g.width), Some(g.height)) {
        return Err(format!(
            "the game is on a board of SZ[{size}], these rules' is {}x{}",
            g.width, g.height
        ));
    }
    // The start: the rules' setup, with the root's stones added (AB, AW) or taken (AE).
    let setup = engine.start().map_err(|e| e.message.clone())?;
    let mut rows: Vec<Vec<char>> = engine
        .position_rows(&setup)
        .split('/')
        .map(|r| r.chars().collect())
        .collect();
    for (name, piece) in [
        ("AB", engine.game.slot_symbol(0)),
        ("AW", engine.game.slot_symbol(1)),
        ("AE", '.'),
    ] {
        for (_, values) in root.iter().filter(|(n, _)| n == name) {
            for v in values {
                let cell = sgf_point(engine, v)?.ok_or(format!("{name}[{v}] is not a point"))?;
                rows[cell / g.width][cell % g.width] = piece;
            }
        }
    }
    let mover = match property(root, "PL") {
        Some("B") => 0,
        Some("W") => 1,
        Some(other) => return Err(format!("PL[{other}] is not B or W")),
        None => setup.mover,
    };
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let start = engine
        .position(&rows.join("/"), Some(engine.player_name(mover)))
        .map_err(|m| format!("the start: {m}"))?;
    let mut game = Game {
        engine,
        now: start,
        moves: Vec::new(),
    };
    let known = [
        "FF", "GM", "SZ", "AB", "AW", "AE", "PL", "PB", "PW", "RE", "CA", "AP",
    ];
    let mut n = 0;
    for (i, node) in tree.iter().enumerate() {
        for (name, values) in node {
            let player = match name.as_str() {
                "B" => 0,
                "W" => 1,
                _ if i == 0 && known.contains(&name.as_str()) => continue,
                _ => {
                    unused.push(format!("{name}[{}]", values.join("][")));
                    continue;
                }
            };
            n += 1;
            let text = match sgf_point(engine, &values[0])? {
                None => "pass".to_string(),
                Some(cell) => g.name(cell),
            };
            game.play(&text, Some(player), n)?;
        }
    }
    let result = property(root, "RE").unwrap_or("");
    let resigned = match result {
        "B+R" | "B+Resign" => Some((1, false)),
        "W+R" | "W+Resign" => Some((0, false)),
        "B+T" | "B+Time" => Some((1, true)),
        "W+T" | "W+Time" => Some((0, true)),
        _ => None,
    }
    .map(|(p, on_time)| (p, on_time, format!("RE[{result}]")));
    let name = |key: &str| property(root, key).unwrap_or("unknown").to_string();
    game.into_record(rules, &start, [name("PB"), name("PW")], resigned, unused)
}

/// The result as SGF writes it: `B+3`, `W+R` (resigned), `B+T` (time), `0` for a draw;
/// nothing while the game goes on.
fn sgf_result(record: &Record, engine: &Engine) -> Option<String> {
    let r = record.result.as_ref()?;
    let colour = |name: &str| {
        if name == engine.player_name(0) {
            "B"
        } else {
            "W"
        }
    };
    let Some(winner) = &r.winner else {
        return Some("0".into());
    };
    if r.resigned.is_some() {
        let how = if r.on_time { 'T' } else { 'R' };
        return Some(format!("{}+{how}", colour(winner)));
    }
    let scores: Vec<f64> = (0..2)
        .map(|p| r.scores.get(engine.player_name(p)).copied().unwrap_or(0.0))
        .collect();
    Some(format!(
        "{}+{}",
        colour(winner),
        (scores[0] - scores[1]).abs()
    ))
}

pub(super) fn write(
    engine: &Engine,
    record: &Record,
    start: &State,
    turns: &[Turn],
) -> Result<String, String> {
    two_player_grid(engine, "SGF")?;
    let g = &engine.game.geometry;
    if g.width > 52 || g.height > 52 {
        return Err("SGF holds boards of up to 52x52".into());
    }
    let point = |cell: usize| -> String {
        [cell % g.width, cell / g.width]
            .into_iter()
            .filter_map(sgf_letter)
            .collect()
    };
    let size = if g.width == g.height {
        g.width.to_string()
    } else {
        format!("{}:{}", g.width, g.height)
    };
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[outflank]SZ[{size}]PB[{}]PW[{}]",
        escape(&seat_name(engine, record, 0)),
        escape(&seat_name(engine, record, 1))
    );
    if let Some(result) = sgf_result(record, engine) {
        out.push_str(&format!("RE[{result}]"));
    }
    // The start, as the rules' setup with stones added (AB, AW) and taken (AE), and the
    // player to move when it is not the setup's.
    let setup = engine.start().map_err(|e| e.message.clone())?;
    let mut changed: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for cell in 0..g.cells() {
        match (setup.owner(cell), start.owner(cell)) {
            (was, now) if was == now => {}
            (_, Some(p)) if p < 2 => changed[p as usize].push(point(cell)),
            (_, None) => changed[2].push(point(cell)),
            (_, Some(_)) => return Err("SGF holds stones of two players only".into()),
        }
    }
    for (points, name) in changed.iter().zip(["AB", "AW", "AE"]) {
        if !points.is_empty() {
            out.push_str(&format!("{name}[{}]", points.join("][")));
        }
    }
    if start.mover != setup.mover {
        out.push_str(&format!("PL[{}]", if start.mover == 0 { "B" } else { "W" }));
    }
    for t in turns {
        let colour = if t.mover == 0 { 'B' } else { 'W' };
        let cell = t.cell.map_or(String::new(), point);
        out.push_str(&format!("\n;{colour}[{cell}]"));
    }
    out.push_str(")\n");
    Ok(out)
}
