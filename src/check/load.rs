//! Reading a file and the chain of base files it extends, then merging their items: a variant's
//! item replaces the base item of the same kind (and name), as docs/LANGUAGE.md describes.

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::source::{Loader, SourceFile};
use crate::syntax::ast::{File, Item, ItemKind};
use crate::syntax::parse;
use std::sync::Arc;

const MAX_CHAIN: usize = 16;

/// An item together with the index of the file it came from.
#[derive(Clone, Debug)]
pub(super) struct Sourced<'a> {
    pub file: u16,
    pub item: &'a Item,
}

/// Parses `main` and every file it extends. Returns the files from the root base to `main`.
pub(super) fn load_chain(
    main: Arc<SourceFile>,
    loader: &dyn Loader,
    diags: &mut Diagnostics,
) -> Option<Vec<(Arc<SourceFile>, File)>> {
    let mut chain: Vec<(Arc<SourceFile>, File)> = Vec::new();
    let mut current = main;
    loop {
        let file = match parse(&current) {
            Ok(f) => f,
            Err(d) => {
                diags.push(d);
                return None;
            }
        };
        let next = file.extends.clone();
        chain.push((current.clone(), file));
        let Some(path) = next else { break };
        if chain.len() > MAX_CHAIN {
            diags.push(
                Diagnostic::error(&current, path.span, "too many nested extends")
                    .with_label("this base is one too many")
                    .with_help(format!(
                        "a variant chain may hold at most {MAX_CHAIN} files"
                    )),
            );
            return None;
        }
        match loader.load(&current.name, &path.node) {
            Ok(base) => {
                if chain.iter().any(|(f, _)| f.name == base.name) {
                    diags.push(
                        Diagnostic::error(&current, path.span, "extends forms a cycle")
                            .with_label(format!("{} is already part of this chain", base.name))
                            .with_help("a file cannot build on itself, directly or through others"),
                    );
                    return None;
                }
                current = base;
            }
            Err(message) => {
                diags.push(
                    Diagnostic::error(
                        &current,
                        path.span,
                        format!("cannot load base file: {message}"),
                    )
                    .with_label("this file")
                    .with_help("the path is relative to the file that says extends"),
                );
                return None;
            }
        }
    }
    chain.reverse();
    Some(chain)
}

/// The key under which a variant's item replaces a base item.
fn key(item: &ItemKind) -> (u8, Option<&str>) {
    match item {
        ItemKind::Title(_) => (0, None),
        ItemKind::Source(_) => (1, None),
        ItemKind::Credit(_) => (2, None),
        ItemKind::Param { name, .. } => (3, Some(&name.node)),
        ItemKind::SetParam { name, .. } => (4, Some(&name.node)),
        ItemKind::Board { .. } => (5, None),
        ItemKind::Removed(_) => (6, None),
        ItemKind::Player { name, .. } => (7, Some(&name.node)),
        ItemKind::First(_) => (8, None),
        ItemKind::Region { name, .. } => (9, Some(&name.node)),
        ItemKind::Def { name, .. } => (10, Some(&name.node)),
        ItemKind::Token(name) => (11, Some(&name.node)),
        ItemKind::Setup(_) => (12, None),
        ItemKind::Line { name, .. } => (13, Some(&name.node)),
        ItemKind::Turn(_) => (14, None),
        ItemKind::End(_) => (15, None),
        ItemKind::Score { .. } | ItemKind::Tiebreak { .. } => (16, None),
        ItemKind::Agreement(_) => (17, None),
        ItemKind::Example(e) => (18, Some(&e.name.node)),
        ItemKind::Counter { name, .. } => (19, Some(&name.node)),
        ItemKind::Directions { name, .. } => (20, Some(&name.node)),
        ItemKind::PieceKind { name, .. } => (21, Some(&name.node)),
    }
}

/// Kinds whose items form a group that a variant replaces as a whole.
fn is_group(k: u8) -> bool {
    matches!(k, 2 | 15 | 16)
}

/// Merges the chain's items. `set` items are kept from every file (they adjust defaults, in
/// order), everything else follows the replacement rules.
pub(super) fn merge(chain: &[(Arc<SourceFile>, File)]) -> Vec<Sourced<'_>> {
    let mut merged: Vec<Sourced> = Vec::new();
    for (index, (_, file)) in chain.iter().enumerate() {
        let file_index = index as u16;
        let groups_here: Vec<u8> = file
            .items
            .iter()
            .map(|i| key(&i.kind).0)
            .filter(|&k| is_group(k))
            .collect();
        merged.retain(|s| {
            let (k, name) = key(&s.item.kind);
            if k == 4 {
                return true;
            }
            if is_group(k) {
                return !groups_here.contains(&k);
            }
            !file.items.iter().any(|i| key(&i.kind) == (k, name))
        });
        merged.extend(file.items.iter().map(|item| Sourced {
            file: file_index,
            item,
        }));
    }
    merged
}
