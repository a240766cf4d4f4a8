//! Board diagrams as SVG, for rulebooks and reviews. Builds text only; the caller writes it.

use super::lettering::{self, Anchor};
use crate::board::bits::Bits;
use crate::board::geometry::Geometry;
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
    /// Lay a transparent shape over each playable cell, named by its `data-cell`: a page
    /// that shows the diagram makes them clickable without knowing the board's geometry.
    pub targets: bool,
    /// Labels in our own lettering (strokes, [`super::lettering`]) instead of SVG text: for
    /// the PNG, rasterized without fonts.
    pub lettered: bool,
}

/// A label: its text, where its baseline is anchored, its size and colour.
struct Label<'a> {
    class: &'a str,
    text: &'a str,
    at: (f64, f64),
    size: u32,
    anchor: Anchor,
    fill: &'a str,
}

impl Label<'_> {
    fn write(&self, out: &mut String, lettered: bool) {
        let Label {
            class,
            text,
            at: (x, y),
            size,
            anchor,
            fill,
        } = *self;
        if lettered {
            out.push_str(&format!(
                "<g class=\"{class}\">{}</g>\n",
                lettering::strokes(text, (x, y), f64::from(size), anchor, fill)
            ));
            return;
        }
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        out.push_str(&format!(
            "<text class=\"{class}\" x=\"{x}\" y=\"{y}\" text-anchor=\"{anchor}\" font-size=\"{size}\" fill=\"{fill}\">{}</text>\n",
            escape(text)
        ));
    }
}

const CELL: usize = 40;
const MARGIN: usize = 30;
const SHADES: [&str; 6] = [
    "#ffd54f", "#4fc3f7", "#e57373", "#ba68c8", "#81c784", "#ff8a65",
];

/// Pieces of players whose names are not colours, by player: dark, light, then six others
/// that tell apart up to eight players.
const PLAYER_FILLS: [&str; 8] = [
    "#1c1c1c", "#f4f1ea", "#c62828", "#1565c0", "#2e7d32", "#f9a825", "#6a1b9a", "#ef6c00",
];

/// A piece's colour: the player's name when it is a colour word, else one by the player's
/// place in turn order.
fn fill(name: &str, index: usize) -> &'static str {
    match name {
        "black" | "dark" => PLAYER_FILLS[0],
        "white" | "light" => PLAYER_FILLS[1],
        "red" => PLAYER_FILLS[2],
        "blue" => PLAYER_FILLS[3],
        "green" => PLAYER_FILLS[4],
        "yellow" => PLAYER_FILLS[5],
        "purple" | "violet" => PLAYER_FILLS[6],
        "orange" => PLAYER_FILLS[7],
        "grey" | "gray" | "neutral" => "#9e9e9e",
        _ => PLAYER_FILLS[index % PLAYER_FILLS.len()],
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
    let layout = Layout::of(g);
    let (w, h) = layout.size;
    let legend = if shaded.is_empty() { 0 } else { 24 };
    let (total_w, total_h) = (w + 2 * MARGIN, h + 2 * MARGIN + legend);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total_w}\" height=\"{total_h}\" viewBox=\"0 0 {total_w} {total_h}\" font-family=\"sans-serif\" font-size=\"14\">\n"
    );
    out.push_str(&format!("<title>{}</title>\n", escape(&engine.game.title)));
    out.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{total_w}\" height=\"{total_h}\" fill=\"#ffffff\"/>\n"
    ));
    if g.hex {
        hexagons(&mut out, g, &layout, &shaded, drawing.lettered);
    } else {
        squares(&mut out, g, (w, h), &shaded, drawing.lettered);
    }
    let at = |c: usize| layout.centre(c);
    for c in 0..g.cells() {
        let Some(p) = s.owner(c) else { continue };
        let (x, y) = at(c);
        let name = engine.game.slot_name(p as usize);
        if (p as usize) < engine.game.players.len() {
            out.push_str(&format!(
                "<circle class=\"piece\" data-cell=\"{}\" data-player=\"{}\" cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"{}\" stroke=\"#000000\" stroke-width=\"1\"/>\n",
                g.name(c),
                escape(name),
                CELL / 2 - 4,
                fill(name, p as usize)
            ));
        } else {
            // A piece of no player: a diamond, so it is not taken for a player's disc.
            let r = (CELL / 2 - 4) as i64;
            let (x, y) = (x as i64, y as i64);
            out.push_str(&format!(
                "<polygon class=\"piece\" data-cell=\"{}\" data-kind=\"{}\" points=\"{},{y} {x},{} {},{y} {x},{}\" fill=\"{}\" stroke=\"#000000\" stroke-width=\"1\"/>\n",
                g.name(c),
                escape(name),
                x - r,
                y - r,
                x + r,
                y + r,
                fill(name, p as usize)
            ));
        }
    }
    for &c in &drawing.dots {
        let (x, y) = at(c);
        out.push_str(&format!("<circle class=\"mark\" cx=\"{x}\" cy=\"{y}\" r=\"5\" fill=\"#ffeb3b\" stroke=\"#5d4037\" stroke-width=\"1\"/>\n"));
    }
    for &c in &drawing.rings {
        let (x, y) = at(c);
        out.push_str(&format!("<circle class=\"mark\" cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"#e53935\" stroke-width=\"3\"/>\n", CELL / 2 - 2));
    }
    if drawing.targets {
        for c in g.playable.iter() {
            let shape = if layout.hex {
                format!("polygon points=\"{}\"", layout.hexagon(c))
            } else {
                let (x, y) = (MARGIN + (c % g.width) * CELL, MARGIN + (c / g.width) * CELL);
                format!("rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\"")
            };
            out.push_str(&format!(
                "<{shape} class=\"target\" data-cell=\"{}\" fill=\"transparent\"/>\n",
                g.name(c)
            ));
        }
    }
    let mut lx = MARGIN;
    for (name, _, colour) in &shaded {
        let ly = MARGIN + h + 10;
        out.push_str(&format!(
            "<rect x=\"{lx}\" y=\"{ly}\" width=\"14\" height=\"14\" fill=\"{colour}\"/>\n"
        ));
        Label {
            class: "legend",
            text: name,
            at: ((lx + 20) as f64, (ly + 12) as f64),
            size: 14,
            anchor: Anchor::Start,
            fill: "#000000",
        }
        .write(&mut out, drawing.lettered);
        lx += 30 + 9 * name.len();
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// Where cells go on the picture: squares in rows, or hexagons with their points up, each row
/// half a cell to the right of the one above (the grid's northeast is up and to the right).
struct Layout {
    width: usize,
    hex: bool,
    /// The picture's size without its margins.
    size: (usize, usize),
    /// For hexagons: how far left of the margin the leftmost cell's centre would otherwise
    /// lie, shifted away.
    left: f64,
}

/// Hexagons' centres lie this far apart along a row.
const HEX_ACROSS: f64 = CELL as f64;

impl Layout {
    fn of(g: &Geometry) -> Layout {
        if !g.hex {
            return Layout {
                width: g.width,
                hex: false,
                size: (g.width * CELL, g.height * CELL),
                left: 0.0,
            };
        }
        let mut layout = Layout {
            width: g.width,
            hex: true,
            size: (0, 0),
            left: 0.0,
        };
        let xs: Vec<f64> = g.playable.iter().map(|c| layout.hex_x(c)).collect();
        let lowest = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let highest = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        layout.left = lowest - HEX_ACROSS / 2.0;
        let rows = g.height as f64;
        layout.size = (
            (highest - lowest + HEX_ACROSS).ceil() as usize,
            (hex_radius() * (1.5 * (rows - 1.0) + 2.0)).ceil() as usize,
        );
        layout
    }

    fn hex_x(&self, c: usize) -> f64 {
        let (q, r) = ((c % self.width) as f64, (c / self.width) as f64);
        HEX_ACROSS * (q + r / 2.0)
    }

    /// The centre of cell `c`.
    fn centre(&self, c: usize) -> (usize, usize) {
        let (x, y) = self.exact_centre(c);
        (x.round() as usize, y.round() as usize)
    }

    fn exact_centre(&self, c: usize) -> (f64, f64) {
        let (q, r) = (c % self.width, c / self.width);
        if !self.hex {
            return (
                (MARGIN + q * CELL + CELL / 2) as f64,
                (MARGIN + r * CELL + CELL / 2) as f64,
            );
        }
        let x = MARGIN as f64 + self.hex_x(c) - self.left;
        let y = MARGIN as f64 + hex_radius() * (1.0 + 1.5 * r as f64);
        (x, y)
    }

    /// The outline of hexagon `c`, as SVG points.
    fn hexagon(&self, c: usize) -> String {
        let (x, y) = self.exact_centre(c);
        let r = hex_radius();
        (0..6)
            .map(|k| {
                let angle = std::f64::consts::PI / 3.0 * f64::from(k) + std::f64::consts::PI / 6.0;
                format!("{:.1},{:.1}", x + r * angle.cos(), y + r * angle.sin())
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// From a hexagon's centre to its points: rows of hexagons `HEX_ACROSS` apart side by side.
fn hex_radius() -> f64 {
    HEX_ACROSS / 3f64.sqrt()
}

/// A square board's background: the board, removed cells crossed out, shaded regions, grid
/// lines and coordinates along the top and left.
fn squares(
    out: &mut String,
    g: &Geometry,
    (w, h): (usize, usize),
    shaded: &[(&str, Bits, &str)],
    lettered: bool,
) {
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
    for (name, bits, colour) in shaded {
        for c in bits.iter() {
            let (x, y) = at(c);
            out.push_str(&format!("<rect class=\"region\" data-region=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{colour}\" fill-opacity=\"0.45\"/>\n", escape(name)));
        }
    }
    for i in 0..=g.width {
        let x = MARGIN + i * CELL;
        out.push_str(&format!("<line x1=\"{x}\" y1=\"{MARGIN}\" x2=\"{x}\" y2=\"{}\" stroke=\"#1b3d22\" stroke-width=\"1\"/>\n", MARGIN + h));
    }
    for i in 0..=g.height {
        let y = MARGIN + i * CELL;
        out.push_str(&format!("<line x1=\"{MARGIN}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#1b3d22\" stroke-width=\"1\"/>\n", MARGIN + w));
    }
    for x in 0..g.width {
        let column = ((b'a' + x as u8) as char).to_string();
        Label {
            class: "coord",
            text: &column,
            at: ((MARGIN + x * CELL + CELL / 2) as f64, (MARGIN - 10) as f64),
            size: 14,
            anchor: Anchor::Middle,
            fill: "#000000",
        }
        .write(out, lettered);
    }
    for y in 0..g.height {
        Label {
            class: "coord",
            text: &(y + 1).to_string(),
            at: (
                (MARGIN / 2) as f64,
                (MARGIN + y * CELL + CELL / 2 + 5) as f64,
            ),
            size: 14,
            anchor: Anchor::Middle,
            fill: "#000000",
        }
        .write(out, lettered);
    }
}

/// A hexagonal board's background: one hexagon per playable cell (cells out of play are
/// simply not drawn), shaded regions, and each cell's name written small in its hexagon, since
/// a hexagon's rows and columns do not line up with the picture's edges.
fn hexagons(
    out: &mut String,
    g: &Geometry,
    layout: &Layout,
    shaded: &[(&str, Bits, &str)],
    lettered: bool,
) {
    for c in g.playable.iter() {
        out.push_str(&format!(
            "<polygon class=\"cell\" data-cell=\"{}\" points=\"{}\" fill=\"#3f8f4f\" stroke=\"#1b3d22\" stroke-width=\"1\"/>\n",
            g.name(c),
            layout.hexagon(c)
        ));
    }
    for (name, bits, colour) in shaded {
        for c in bits.iter() {
            out.push_str(&format!("<polygon class=\"region\" data-region=\"{}\" points=\"{}\" fill=\"{colour}\" fill-opacity=\"0.45\"/>\n", escape(name), layout.hexagon(c)));
        }
    }
    for c in g.playable.iter() {
        let (x, y) = layout.centre(c);
        Label {
            class: "coord",
            text: &g.name(c),
            at: (x as f64, (y + CELL / 2 - 10) as f64),
            size: 9,
            anchor: Anchor::Middle,
            fill: "#cfe8d4",
        }
        .write(out, lettered);
    }
}
