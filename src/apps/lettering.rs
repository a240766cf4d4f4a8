//! Our own lettering: the letters, digits and underscore of cell names and region names drawn
//! as strokes. A diagram rasterized with it (the PNG of `render`) needs no fonts, so it names
//! its cells on a machine without any and is the same picture on every machine; and the binary
//! carries no font stack (text shaping and font discovery were 2 MB of it, docs/PERFORMANCE.md).

/// Where a label stands relative to its point, as SVG's `text-anchor` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// Each glyph as SVG path data on a grid 4 units wide: capitals and digits stand from y = 0 to
/// the baseline at y = 6, small letters from y = 2, and descenders reach y = 8. Corners are cut
/// rather than curved, which reads well at the sizes of a board's labels.
const GLYPHS: [(char, &str); 63] = [
    ('a', "M0.5 2H3L4 3V6M4 4H1L0 5L1 6H4"),
    ('b', "M0 0V6M0 2H3L4 3V5L3 6H0"),
    ('c', "M4 2H1L0 3V5L1 6H4"),
    ('d', "M4 0V6M4 2H1L0 3V5L1 6H4"),
    ('e', "M0 4H4V3L3 2H1L0 3V5L1 6H4"),
    ('f', "M4 0H3L2 1V6M0.5 2H3.5"),
    ('g', "M4 2V7L3 8H0.5M4 2H1L0 3V5L1 6H4"),
    ('h', "M0 0V6M0 2H3L4 3V6"),
    ('i', "M2 2V6M2 0.2V0.8"),
    ('j', "M3 2V7L2 8H0.5M3 0.2V0.8"),
    ('k', "M0 0V6M3.5 2L0 4.5M1.5 3.4L4 6"),
    ('l', "M1 0H2V5L3 6"),
    ('m', "M0 6V2H3L4 3V6M2 2V6"),
    ('n', "M0 6V2M0 2H3L4 3V6"),
    ('o', "M1 2H3L4 3V5L3 6H1L0 5V3Z"),
    ('p', "M0 2V8M0 2H3L4 3V5L3 6H0"),
    ('q', "M4 2V8M4 2H1L0 3V5L1 6H4"),
    ('r', "M0.5 2V6M0.5 3L1.5 2H4"),
    ('s', "M4 2H1L0 3L1 4H3L4 5L3 6H0"),
    ('t', "M1.5 0V5L2.5 6H4M0 2H3.5"),
    ('u', "M0 2V5L1 6H4M4 2V6"),
    ('v', "M0 2L2 6L4 2"),
    ('w', "M0 2L1 6L2 3.5L3 6L4 2"),
    ('x', "M0 2L4 6M4 2L0 6"),
    ('y', "M0 2L2 6M4 2L1 8"),
    ('z', "M0 2H4L0 6H4"),
    ('A', "M0 6L2 0L4 6M0.7 4H3.3"),
    ('B', "M0 0H3L4 1V2L3 3H0M3 3L4 4V5L3 6H0V0"),
    ('C', "M4 0H1L0 1V5L1 6H4"),
    ('D', "M0 0H3L4 1V5L3 6H0Z"),
    ('E', "M4 0H0V6H4M0 3H3"),
    ('F', "M4 0H0V6M0 3H3"),
    ('G', "M4 0H1L0 1V5L1 6H4V3H2"),
    ('H', "M0 0V6M4 0V6M0 3H4"),
    ('I', "M1 0H3M2 0V6M1 6H3"),
    ('J', "M4 0V5L3 6H1L0 5"),
    ('K', "M0 0V6M4 0L0 4M1.3 3L4 6"),
    ('L', "M0 0V6H4"),
    ('M', "M0 6V0L2 3L4 0V6"),
    ('N', "M0 6V0L4 6V0"),
    ('O', "M1 0H3L4 1V5L3 6H1L0 5V1Z"),
    ('P', "M0 6V0H3L4 1V2L3 3H0"),
    ('Q', "M1 0H3L4 1V5L3 6H1L0 5V1ZM2.5 4.5L4 6"),
    ('R', "M0 6V0H3L4 1V2L3 3H0M2 3L4 6"),
    ('S', "M4 0H1L0 1V2L1 3H3L4 4V5L3 6H0"),
    ('T', "M0 0H4M2 0V6"),
    ('U', "M0 0V5L1 6H3L4 5V0"),
    ('V', "M0 0L2 6L4 0"),
    ('W', "M0 0L1 6L2 2L3 6L4 0"),
    ('X', "M0 0L4 6M4 0L0 6"),
    ('Y', "M0 0L2 3L4 0M2 3V6"),
    ('Z', "M0 0H4L0 6H4"),
    ('0', "M1 0H3L4 1V5L3 6H1L0 5V1ZM1 4.5L3 1.5"),
    ('1', "M1 1L2 0V6M1 6H3"),
    ('2', "M0 1L1 0H3L4 1V2L0 6H4"),
    ('3', "M0 1L1 0H3L4 1V2L3 3H1.5M3 3L4 4V5L3 6H1L0 5"),
    ('4', "M3 6V0L0 4H4"),
    ('5', "M4 0H0V3H3L4 4V5L3 6H0"),
    ('6', "M3 0H1L0 1V5L1 6H3L4 5V4L3 3H0"),
    ('7', "M0 0H4L1.5 6"),
    ('8', "M1 0H3L4 1V2L3 3H1L0 4V5L1 6H3L4 5V4L3 3H1L0 2V1Z"),
    ('9', "M4 3H1L0 2V1L1 0H3L4 1V5L3 6H1"),
    ('_', "M0 6.5H4"),
];

/// A character outside the table: an empty box, so that the label keeps its length.
const UNKNOWN: &str = "M0 0H4V6H0Z";

/// Whether `c` has a glyph of its own (others are drawn as an empty box).
pub fn has_glyph(c: char) -> bool {
    GLYPHS.iter().any(|(g, _)| *g == c)
}

/// From one glyph's left edge to the next one's, in grid units.
const ADVANCE: f64 = 5.5;

/// The glyph grid's unit for a font size: capitals 0.72 of the size tall, about as a sans
/// face's are.
fn unit(size: f64) -> f64 {
    0.12 * size
}

/// How wide `text` is when lettered at `size`, from the first glyph's left edge to the last
/// one's right edge.
fn width(text: &str, size: f64) -> f64 {
    let n = text.chars().count();
    if n == 0 {
        return 0.0;
    }
    unit(size) * ((n - 1) as f64 * ADVANCE + 4.0)
}

/// `text` lettered as SVG strokes, in the way a `<text>` element with the same `x`, `y` (its
/// baseline), `font-size` and `text-anchor` would place it: one group of paths, a glyph each.
pub fn strokes(text: &str, (x, y): (f64, f64), size: f64, anchor: Anchor, colour: &str) -> String {
    let u = unit(size);
    let left = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width(text, size) / 2.0,
        Anchor::End => x - width(text, size),
    };
    // The stroke about a tenth of the size, as a regular weight is, and never thinner than a
    // pixel: given in grid units, since the group's scale applies to it too.
    let stroke = (size / 10.0).max(1.0) / u;
    let mut out = format!(
        "<g transform=\"translate({left:.2} {:.2}) scale({u:.3})\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{stroke:.3}\" stroke-linecap=\"round\" stroke-linejoin=\"round\">",
        y - 6.0 * u
    );
    for (i, c) in text.chars().enumerate() {
        let path = GLYPHS
            .iter()
            .find(|(g, _)| *g == c)
            .map_or(UNKNOWN, |(_, p)| p);
        out.push_str(&format!(
            "<path transform=\"translate({} 0)\" d=\"{path}\"/>",
            i as f64 * ADVANCE
        ));
    }
    out.push_str("</g>");
    out
}
