//! The board: its shape, size and removed cells, and the regions drawn on it.

use super::*;
use crate::ir::Set;

/// The board: its shape and size, and the cells taken out of play. The board item, or
/// None when the board cannot be made.
pub(super) fn board<'a, 'i>(
    ck: &mut Checker<'a>,
    items: &'i [load::Sourced<'a>],
    consts: &Scope,
) -> Option<&'i load::Sourced<'a>> {
    let mut board_item = None;
    let mut removed_item = None;
    for s in items {
        match &s.item.kind {
            ItemKind::Board {
                shape,
                width,
                height,
            } => board_item = Some((s, *shape, width, height)),
            ItemKind::Removed(e) => removed_item = Some((s, e)),
            _ => {}
        }
    }
    let (bs, shape, width, height) = board_item?;
    ck.current_file = bs.file;
    // Cells taken out of play: `removed`, and outside a hexagon the corners of its grid.
    let removed_bits = |checker: &mut Checker<'a>| -> Bits {
        let Some((rs, e)) = removed_item else {
            return Bits::EMPTY;
        };
        checker.current_file = rs.file;
        let bits = match checker.expect_as::<Set>(e, consts) {
            Some(set) => const_set(checker, set, e.span),
            None => Bits::EMPTY,
        };
        checker.current_file = bs.file;
        bits
    };
    if let BoardShape::Hexagon | BoardShape::Triangle = shape {
        // A shape of hexagons given by its side: a hexagon on a square grid of 2 side - 1, or a
        // triangle in the corner of a rhombus of that side. The grid is lettered a to z.
        let (what, most, make): (&str, i64, fn(usize, &Bits) -> Geometry) =
            if shape == BoardShape::Hexagon {
                ("hexagon", 13, Geometry::hexagon)
            } else {
                ("triangle", 26, Geometry::triangle)
            };
        let side = ck.const_int(width, consts, &format!("the {what}'s side"))?;
        if !(2..=most).contains(&side) {
            let grid = if shape == BoardShape::Hexagon {
                "its grid, 2 side - 1 cells across, is lettered a to z"
            } else {
                "its columns are lettered a to z"
            };
            ck.error(
                width.span,
                format!("a {what} side of {side} is not supported"),
            )
            .label("out of range")
            .help(format!(
                "a {what}'s side must be between 2 and {most} ({grid})"
            ))
            .emit();
            return None;
        }
        let side = side as usize;
        ck.geometry = Some(make(side, &Bits::EMPTY));
        let bits = removed_bits(ck);
        ck.geometry = Some(make(side, &bits));
    } else {
        // A rhombus of one side is as tall as it is wide.
        let height = height.as_ref().unwrap_or(width);
        let w = ck.const_int(width, consts, "the board width");
        let h = ck.const_int(height, consts, "the board height");
        let (Some(w), Some(h)) = (w, h) else {
            return None;
        };
        for (v, e) in [(w, width), (h, height)] {
            if !(1..=26).contains(&v) {
                ck.error(e.span, format!("a board side of {v} is not supported"))
                    .label("out of range")
                    .help("each side must be between 1 and 26 (columns are lettered a to z)")
                    .emit();
                return None;
            }
        }
        let (w, h) = (w as usize, h as usize);
        let make = |removed: &Bits| match shape {
            BoardShape::Rhombus => Geometry::rhombus(w, h, removed),
            BoardShape::Cylinder | BoardShape::Torus => Geometry::wrapping(
                w,
                h,
                removed,
                Wrap {
                    across: true,
                    down: shape == BoardShape::Torus,
                },
            ),
            _ => Geometry::new(w, h, removed),
        };
        ck.geometry = Some(make(&Bits::EMPTY));
        let bits = removed_bits(ck);
        ck.geometry = Some(make(&bits));
    }
    Some(bs)
}

/// The value of region `name` where it is used (`used_at`): its last definition, or the one
/// before the definition being worked out. None for a name that is no region here (or the
/// built-in region a first definition refers to by its own name).
pub(super) fn region(ck: &mut Checker<'_>, name: &str, used_at: Span) -> Option<Bits> {
    let count = ck.region_items.get(name)?.len();
    let level = match ck.regions_in_progress.iter().rev().find(|(n, _)| n == name) {
        None => count - 1,
        Some(&(_, level)) if level > 0 => level - 1,
        Some(_) if expr::BUILTIN_REGIONS.contains(&name) => return None,
        Some(_) => {
            let mut cycle: Vec<String> = ck
                .regions_in_progress
                .iter()
                .skip_while(|(n, _)| n != name)
                .map(|(n, _)| n.clone())
                .collect();
            cycle.push(name.to_string());
            ck.error(
                used_at,
                format!("region `{name}` is defined in terms of itself"),
            )
            .label(format!("circular: {}", cycle.join(" -> ")))
            .help("a region is a fixed set of cells; define one of these without the others")
            .emit();
            // An empty value, so that its uses do not cascade into more errors.
            return Some(Bits::EMPTY);
        }
    };
    Some(region_at(ck, name, level))
}

/// The value of the `level`-th definition of region `name`, worked out once.
pub(super) fn region_at(ck: &mut Checker<'_>, name: &str, level: usize) -> Bits {
    let key = (name.to_string(), level);
    if let Some(bits) = ck.region_values.get(&key) {
        return *bits;
    }
    let Some(&(value, file)) = ck.region_items.get(name).and_then(|d| d.get(level)) else {
        return Bits::EMPTY;
    };
    let consts = Scope {
        consts_only: true,
        ..Scope::default()
    };
    let saved = ck.current_file;
    ck.current_file = file;
    ck.regions_in_progress.push(key.clone());
    let bits = match ck.expect_as::<Set>(value, &consts) {
        Some(set) => const_set(ck, set, value.span),
        None => Bits::EMPTY,
    };
    ck.regions_in_progress.pop();
    ck.current_file = saved;
    ck.region_values.insert(key, bits);
    bits
}

/// Evaluates a set known before the game starts.
pub(super) fn const_set(ck: &mut Checker<'_>, set: ir::Set, span: Span) -> Bits {
    match set {
        ir::Set::Const(b) => b,
        ir::Set::Single(c) => {
            if let ir::Cell::Const(c) = *c {
                Bits::single(c as usize)
            } else {
                ck.state_dependent("a variable", span);
                Bits::EMPTY
            }
        }
        ir::Set::Union(a, b) => {
            let a = const_set(ck, *a, span);
            a.union(&const_set(ck, *b, span))
        }
        ir::Set::Inter(a, b) => {
            let a = const_set(ck, *a, span);
            a.inter(&const_set(ck, *b, span))
        }
        ir::Set::Minus(a, b) => {
            let a = const_set(ck, *a, span);
            a.minus(&const_set(ck, *b, span))
        }
        _ => {
            ck.state_dependent("this set", span);
            Bits::EMPTY
        }
    }
}
