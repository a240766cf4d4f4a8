//! `render`: the board as an SVG diagram, and as a PNG image of it.

use super::game::*;
use clap::Args;

// The options of `render` (its help is the doc comment of `Command::Render`).
#[derive(Args)]
pub(super) struct RenderArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    /// Moves to play first, separated by spaces: the board drawn is the one after them.
    #[arg(long, default_value = "")]
    pub(super) moves: String,
    /// Mark the legal moves (dots) or the cells chosen in the last move (rings).
    #[arg(long, value_parser = ["legal", "last"])]
    pub(super) mark: Option<String>,
    /// Shade a named region (repeatable).
    #[arg(long, value_name = "REGION")]
    pub(super) shade: Vec<String>,
    /// Where to write the SVG.
    #[arg(long, value_name = "OUT.svg", required_unless_present = "png")]
    pub(super) svg: Option<String>,
    /// Where to write a PNG of the same diagram.
    #[arg(long, value_name = "OUT.png")]
    pub(super) png: Option<String>,
}

/// Rasterizes an SVG diagram drawn with [`outflank::apps::render::Drawing::lettered`]: it has no text, so the
/// rasterizer needs no fonts.
fn png_of(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let options = usvg::Options::default();
    let tree =
        usvg::Tree::from_str(svg, &options).map_err(|e| format!("cannot read the diagram: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("the diagram has no size")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

pub(super) fn cmd_render(a: &RenderArgs) -> Result<String, Failure> {
    let RenderArgs {
        game: ref args,
        moves: ref history,
        ref mark,
        ref shade,
        ref svg,
        ref png,
    } = *a;
    let (mark, shade, svg_out, png_out) = (
        mark.as_deref(),
        shade.clone(),
        svg.as_deref(),
        png.as_deref(),
    );
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let mut drawing = outflank::apps::render::Drawing {
        shade,
        ..Default::default()
    };
    match mark {
        Some("legal") => {
            let mut buf = Vec::new();
            engine.steps(&s, &mut buf)?;
            drawing.dots = buf
                .iter()
                .filter_map(|&st| engine.step_cell(&s, st))
                .collect();
        }
        Some(_) => {
            // Replay the last move of the history step by step to find the cells it chose.
            let moves: Vec<&str> = history.split_whitespace().collect();
            if let Some((last, before)) = moves.split_last() {
                let prior = position(&engine, args, &before.join(" "))?;
                let played = engine
                    .parse_turn(&prior, last)
                    .map_err(|e| Failure::Message(e.to_string()))?;
                let mut at = prior;
                for (step, after) in played {
                    drawing.rings.extend(engine.step_cell(&at, step));
                    at = after;
                }
            }
        }
        None => {}
    }
    let mut done = String::new();
    if let Some(out) = svg_out {
        let text = outflank::apps::render::svg(&engine, &s, &drawing)?;
        std::fs::write(out, &text).map_err(|e| format!("cannot write {out}: {e}"))?;
        outln!(done, "wrote {out}");
    }
    if let Some(out) = png_out {
        drawing.lettered = true;
        let bytes = png_of(&outflank::apps::render::svg(&engine, &s, &drawing)?)?;
        std::fs::write(out, bytes).map_err(|e| format!("cannot write {out}: {e}"))?;
        outln!(done, "wrote {out}");
    }
    Ok(done)
}
