//! Lints and structural checks across items: names declared twice, items a game needs, and
//! declarations never used.

use super::*;

/// Reports items that a single file states twice (a variant replacing a base is fine).
pub(super) fn duplicates<'a>(ck: &mut Checker<'a>, items: &[load::Sourced<'a>]) {
    let mut seen: BTreeMap<(u16, String), Span> = BTreeMap::new();
    for s in items {
        let key = match &s.item.kind {
            ItemKind::Title(_) => "title".to_string(),
            ItemKind::Source(_) => "source".to_string(),
            ItemKind::Param { name, .. } => format!("param {}", name.node),
            ItemKind::Board { .. } => "board".to_string(),
            ItemKind::Removed(_) => "removed".to_string(),
            ItemKind::Player { name, .. } => format!("player {}", name.node),
            ItemKind::PieceKind { name, .. } => format!("piece {}", name.node),
            ItemKind::First(_) => "first".to_string(),
            ItemKind::Region { name, .. } => format!("region {}", name.node),
            ItemKind::Def { name, .. } => format!("def {}", name.node),
            ItemKind::Token(name) => format!("token {}", name.node),
            ItemKind::Counter { name, .. } => format!("counter {}", name.node),
            ItemKind::Directions { name, .. } => format!("directions {}", name.node),
            ItemKind::Setup(_) => "setup".to_string(),
            ItemKind::Line { name, .. } => format!("line {}", name.node),
            ItemKind::Turn(_) => "turn".to_string(),
            ItemKind::Score { .. } => "score".to_string(),
            ItemKind::Agreement(_) => "agreement".to_string(),
            _ => continue,
        };
        if let Some(first) = seen.get(&(s.file, key.clone())) {
            let first = *first;
            ck.current_file = s.file;
            let src = ck.files[s.file as usize].clone();
            let (line, _) = line_col(&src.text, first.start);
            ck.error(s.item.span, format!("`{key}` is defined twice"))
                .label("second definition")
                .help(format!("the first is on line {line}; keep one of them"))
                .emit();
        } else {
            seen.insert((s.file, key), s.item.span);
        }
    }
}

/// Reports every essential item that neither the file nor its bases provide.
pub(super) fn missing_items<'a>(ck: &mut Checker<'a>, items: &[load::Sourced<'a>]) {
    let has = |f: fn(&ItemKind) -> bool| items.iter().any(|s| f(&s.item.kind));
    let checks: [(bool, &str, &str, &str); 3] = [
        (
            has(|k| matches!(k, ItemKind::Board { .. })),
            "the rules do not say what the board is",
            "no `board` item in this file or its bases",
            "add an item such as `board 8 x 8`",
        ),
        (
            has(|k| matches!(k, ItemKind::Turn(_))),
            "the rules do not say what a turn is",
            "no `turn` item in this file or its bases",
            "add a block such as `turn { choose c in empty { place c } }`",
        ),
        (
            has(|k| matches!(k, ItemKind::Score { .. })),
            "the rules do not say how to score",
            "no `score` item in this file or its bases",
            "add an item such as `score p = count(p)`",
        ),
    ];
    ck.current_file = (ck.files.len() - 1) as u16;
    for (present, message, label, help) in checks {
        if !present {
            ck.error(Span::new(0, 0), message)
                .label(label)
                .help(help)
                .emit();
        }
    }
}

/// Warns about declarations of the checked file that nothing refers to, and line patterns
/// longer than the board.
pub(super) fn unused<'a>(ck: &mut Checker<'a>, items: &[load::Sourced<'a>]) {
    let main = (ck.files.len() - 1) as u16;
    let longest = ck.geometry.as_ref().map_or(0, |g| g.width.max(g.height));
    for s in items.iter().filter(|s| s.file == main) {
        ck.current_file = s.file;
        let (kind, name) = match &s.item.kind {
            ItemKind::Param { name, .. } => ("param", name),
            ItemKind::Region { name, .. } => ("region", name),
            ItemKind::Def { name, .. } => ("def", name),
            ItemKind::Token(name) => ("token", name),
            ItemKind::Counter { name, .. } => ("counter", name),
            ItemKind::Directions { name, .. } => ("directions", name),
            ItemKind::Line { name, elements, .. } => {
                // The line's own cell, the captured cells and the end must all fit.
                let needed: u64 = 2 + elements[..elements.len() - 1]
                    .iter()
                    .map(|e| u64::from(e.node.min))
                    .sum::<u64>();
                if longest > 0 && needed > longest as u64 {
                    ck.warning(
                        s.item.span,
                        format!("line `{}` can never match on this board", name.node),
                    )
                    .label(format!(
                        "needs {needed} cells in a row, the board has at most {longest}"
                    ))
                    .help("shorten the pattern or enlarge the board")
                    .emit();
                }
                ("line", name)
            }
            _ => continue,
        };
        if !ck.used.contains(&(kind, name.node.clone())) {
            ck.warning(name.span, format!("{kind} `{}` is never used", name.node))
                .label("declared here, used nowhere")
                .help(format!(
                    "remove it, or use it in a rule; a {kind} that nothing reads has no effect"
                ))
                .emit();
        }
    }
}
