//! Board diagrams as SVG, for rulebooks and reviews. Builds text only; the caller writes it.

use crate::board::bits::Bits;
use crate::engine::state::State;
use crate::engine::Engine;

/// What to draw on top of the position.
#[derive(Default)]
pub struct Drawing {
    /// Regions to shade, by name.
    pub shade: Vec<String>,
    /// Cells to mark with a dot (e.g. legal moves).
    pub dots: Vec<usize>,
    /// Cells to mark with a ring (e.g. the last move).
    pub rings: Vec<usize>,
}

const CELL: usize = 40;
const MARGIN: usize = 30;
const SHADES: [&str; 6] = [
    "#ffd54f", "#4fc3f7", "#e57373", "#ba68c8", "#81c784", "#ff8a65",
];

/// A piece's colour: the player's name when it is a colour word, else dark for the first
/// player and light for the second.
fn fill(name: &str, index: usize) -> &'static str {
    match name {
        "black" | "dark" => "#1c1c1c",
        "white" | "light" => "#f4f1ea",
        "red" => "#c62828",
        "blue" => "#1565c0",
        "green" => "#2e7d32",
        "yellow" => "#f9a825",
        _ if index == 0 => "#1c1c1c",
        _ => "#f4f1ea",
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The diagram of `s`. Unknown region names are an error naming the known ones.
pub fn svg(engine: &Engine, s: &State, drawing: &Drawing) -> Result<String, String> {
    let g = &engine.game.geometry;
    let mut shaded: Vec<(&str, Bits, &str)> = Vec::new();
    for (i, name) in drawing.shade.iter().enumerate() {
        let Some((_, bits)) = engine.game.regions.iter().find(|(n, _)| n == name) else {
            let known: Vec<&str> = engine
                .game
                .regions
                .iter()
                .map(|(n, _)| n.as_str())
                .collect();
            return Err(format!(
                "no region named `{name}`; the regions are: {}",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        };
        shaded.push((name, *bits, SHADES[i % SHADES.len()]));
    }
    let (w, h) = (g.width * CELL, g.height * CELL);
    let legend = if shaded.is_empty() { 0 } else { 24 };
    let (total_w, total_h) = (w + 2 * MARGIN, h + 2 * MARGIN + legend);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total_w}\" height=\"{total_h}\" viewBox=\"0 0 {total_w} {total_h}\" font-family=\"sans-serif\" font-size=\"14\">\n"
    );
    out.push_str(&format!("<title>{}</title>\n", escape(&engine.game.title)));
    out.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{total_w}\" height=\"{total_h}\" fill=\"#ffffff\"/>\n"
    ));
    out.push_str(&format!(
        "<rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{w}\" height=\"{h}\" fill=\"#3f8f4f\"/>\n"
    ));
    let at = |c: usize| (MARGIN + (c % g.width) * CELL, MARGIN + (c / g.width) * CELL);
    for c in 0..g.cells() {
        let (x, y) = at(c);
        if !g.playable.contains(c) {
            out.push_str(&format!("<g class=\"removed\"><rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#6d6d6d\"/><path d=\"M{x} {y} l{CELL} {CELL} M{} {y} l-{CELL} {CELL}\" stroke=\"#3a3a3a\" stroke-width=\"2\"/></g>\n", x + CELL));
        }
    }
    for (name, bits, colour) in &shaded {
        for c in bits.iter() {
            let (x, y) = at(c);
            out.push_str(&format!("<rect class=\"region\" data-region=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{colour}\" fill-opacity=\"0.45\"/>\n", escape(name)));
        }
    }
    // Grid lines and coordinates.
    for i in 0..=g.width {
        let x = MARGIN + i * CELL;
        out.push_str(&format!("<line x1=\"{x}\" y1=\"{MARGIN}\" x2=\"{x}\" y2=\"{}\" stroke=\"#1b3d22\" stroke-width=\"1\"/>\n", MARGIN + h));
    }
    for i in 0..=g.height {
        let y = MARGIN + i * CELL;
        out.push_str(&format!("<line x1=\"{MARGIN}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#1b3d22\" stroke-width=\"1\"/>\n", MARGIN + w));
    }
    for x in 0..g.width {
        let cx = MARGIN + x * CELL + CELL / 2;
        out.push_str(&format!(
            "<text class=\"coord\" x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            MARGIN - 10,
            (b'a' + x as u8) as char
        ));
    }
    for y in 0..g.height {
        let cy = MARGIN + y * CELL + CELL / 2 + 5;
        out.push_str(&format!(
            "<text class=\"coord\" x=\"{}\" y=\"{cy}\" text-anchor=\"middle\">{}</text>\n",
            MARGIN / 2,
            y + 1
        ));
    }
    for c in 0..g.cells() {
        if let Some(p) = s.owner(c) {
            let (x, y) = at(c);
            let name = &engine.game.players[p as usize].name;
            out.push_str(&format!(
                "<circle class=\"piece\" data-player=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"#000000\" stroke-width=\"1\"/>\n",
                escape(name),
                x + CELL / 2,
                y + CELL / 2,
                CELL / 2 - 4,
                fill(name, p as usize)
            ));
        }
    }
    for &c in &drawing.dots {
        let (x, y) = at(c);
        out.push_str(&format!("<circle class=\"mark\" cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"#ffeb3b\" stroke=\"#5d4037\" stroke-width=\"1\"/>\n", x + CELL / 2, y + CELL / 2));
    }
    for &c in &drawing.rings {
        let (x, y) = at(c);
        out.push_str(&format!("<circle class=\"mark\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#e53935\" stroke-width=\"3\"/>\n", x + CELL / 2, y + CELL / 2, CELL / 2 - 2));
    }
    let mut lx = MARGIN;
    for (name, _, colour) in &shaded {
        let ly = MARGIN + h + 10;
        out.push_str(&format!("<rect x=\"{lx}\" y=\"{ly}\" width=\"14\" height=\"14\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">{}</text>\n", lx + 20, ly + 12, escape(name)));
        lx += 30 + 9 * name.len();
    }
    out.push_str("</svg>\n");
    Ok(out)
}
