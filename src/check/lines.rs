//! Line patterns (`line NAME = ...`): their elements, classes and directions.

use super::*;

/// Compiles a line pattern; false when it has errors (already reported).
pub(super) fn line(
    ck: &mut Checker<'_>,
    name: &ast::Ident,
    elements: &[ast::Spanned<ast::Element>],
    along: Option<&ast::Ident>,
) -> bool {
    let dirs = match along {
        None => DirSet::ALL,
        Some(a) => match ck.direction_set(a) {
            Some(d) => d,
            None => return false,
        },
    };
    let (last, captured) = elements
        .split_last()
        .expect("the grammar requires one element");
    if last.node.min != 1 || last.node.max != 1 {
        ck.error(
            last.span,
            "the last element of a line must match exactly one cell",
        )
        .label("repeated end")
        .help("the last element is the cell that closes the line; remove its repetition")
        .emit();
        return false;
    }
    if captured.is_empty() {
        ck.error(last.span, "a line needs at least two elements")
            .label("only an end cell")
            .help("put the captured cells before the end, e.g. `opponent+ friend`")
            .emit();
        return false;
    }
    let mut ok = true;
    let mut classes = Vec::with_capacity(elements.len());
    for e in elements {
        match element_class(ck, &e.node.class) {
            Some(c) => classes.push(c),
            None => ok = false,
        }
    }
    for e in captured {
        if e.node.max == 0 {
            ok = false;
            ck.error(e.span, "a repetition of zero matches nothing")
                .label("{0}")
                .help("remove this element")
                .emit();
        }
    }
    // A count past the board's cells can never match, and the runner would step a line
    // that many times at every cell it asks about.
    let cells = ck.geometry.as_ref().map_or(MAX_CELLS, Geometry::cells);
    for e in captured {
        let (min, max) = (e.node.min, e.node.max);
        let count = if max == u32::MAX { min } else { max };
        if count as usize > cells {
            ok = false;
            ck.error(
                e.span,
                format!("a repetition of {count} cells is longer than any line on this board"),
            )
            .label(format!("{{{count}}}"))
            .help(format!(
                "the board has {cells} cells; count the cells the line must cross, at most \
                 its longest row, or write `+` for a run of any length"
            ))
            .emit();
        }
    }
    if !ok {
        return false;
    }
    let end = classes[captured.len()];
    let simple_run = match (captured, classes[0]) {
        ([only], run) if only.node.min == 1 && only.node.max == u32::MAX => {
            disjoint(ck, run, end).then_some((run, end))
        }
        _ => None,
    };
    ck.lines.push(LinePattern {
        name: name.node.clone(),
        elements: captured
            .iter()
            .zip(&classes)
            .map(|(e, &class)| (class, e.node.min, e.node.max))
            .collect(),
        end,
        dirs,
        simple_run,
    });
    true
}

/// A line pattern's element as the runner sees it; None when it names no kind (reported).
pub(super) fn element_class(ck: &mut Checker<'_>, class: &ast::ElementClass) -> Option<CellClass> {
    let name = match class {
        ast::ElementClass::Word(c) => return Some(*c),
        ast::ElementClass::Kind(name) => name,
    };
    if let Some(k) = ck.kind_names.iter().position(|n| *n == name.node) {
        return Some(CellClass::Kind((ck.player_names.len() + k) as u8));
    }
    let words = ["friend", "opponent", "empty", "piece"].map(String::from);
    let candidates: Vec<String> = words.iter().chain(&ck.kind_names).cloned().collect();
    let a_player = ck.player_names.contains(&name.node);
    let suggestion = crate::diagnostic::closest(&name.node, &candidates).filter(|_| !a_player);
    let help = if a_player {
        "line patterns see the players by role: `friend` is the player the line is matched \
         for, `opponent` any other player"
            .to_string()
    } else if let Some(c) = &suggestion {
        format!("did you mean `{c}`?")
    } else if ck.kind_names.is_empty() {
        "a cell class is `friend`, `opponent`, `empty` or `piece`; to name a kind of piece \
         here, declare it first, e.g. `piece grey 'G'`"
            .to_string()
    } else {
        format!(
            "a cell class is `friend`, `opponent`, `empty`, `piece` or a kind of piece ({})",
            ck.kind_names.join(", ")
        )
    };
    ck.error(
        name.span,
        format!("`{}` is not a cell class of line patterns", name.node),
    )
    .label(if a_player {
        "a player"
    } else {
        "not a cell class"
    })
    .help(help)
    .suggest(suggestion)
    .emit();
    None
}

/// Whether no cell can be of both classes at once, whoever moves: a line whose run and end
/// are apart is matched by the runner's quickest path (nearest closing cell).
pub(super) fn disjoint(ck: &Checker<'_>, a: CellClass, b: CellClass) -> bool {
    let players = ck.player_names.len();
    let role = |slot: u8| ck.kind_roles[slot as usize - players];
    match (a, b) {
        _ if a == b => false,
        (CellClass::Piece, _) | (_, CellClass::Piece) => false,
        (CellClass::Kind(k), CellClass::Friend) | (CellClass::Friend, CellClass::Kind(k)) => {
            role(k) != Some(ir::PieceRole::Friend)
        }
        (CellClass::Kind(k), CellClass::Opponent) | (CellClass::Opponent, CellClass::Kind(k)) => {
            role(k) != Some(ir::PieceRole::Opponent)
        }
        _ => true,
    }
}
