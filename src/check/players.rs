//! Players and kinds of piece: their declarations and symbols, who moves first, attributes,
//! counters, and the setup that places their pieces.

use super::*;
use crate::ir::{Num, Set};

/// Players, and kinds of piece that belong to none of them, each with where it is
/// declared.
pub(super) fn declare_players<'a>(
    ck: &mut Checker<'a>,
    items: &[load::Sourced<'a>],
) -> (Declared<PlayerInfo>, Declared<ir::KindInfo>) {
    let mut players: Vec<(PlayerInfo, Span, u16)> = Vec::new();
    let mut kinds: Vec<(ir::KindInfo, Span, u16)> = Vec::new();
    for s in items {
        // `role`: None for a player; for a kind, Some of its role (itself optional).
        let (name, symbol, role) = match &s.item.kind {
            ItemKind::Player { name, symbol, .. } => (name, symbol, None),
            ItemKind::PieceKind { name, symbol, role } => {
                (name, symbol, Some(role.as_ref().map(|r| r.node)))
            }
            _ => continue,
        };
        ck.current_file = s.file;
        let sym = symbol.as_ref().map_or_else(
            || name.node.chars().next().unwrap_or('?').to_ascii_uppercase(),
            |s| s.node,
        );
        let whose = if role.is_some() {
            "a piece's"
        } else {
            "a player's"
        };
        // Positions are written with these symbols, `.` and `#` for empty and removed
        // cells, `/` between rows; a symbol must stand apart from them.
        if matches!(sym, '.' | '#' | '/') || sym.is_whitespace() || sym.is_control() {
            ck.error(
                symbol.as_ref().map_or(name.span, |s| s.span),
                format!("'{}' cannot be {whose} symbol", sym.escape_default()),
            )
            .label("reserved in positions")
            .help("positions write . for empty, # for removed cells and / between rows; pick a letter or another mark")
            .emit();
        }
        let taken = players
            .iter()
            .map(|(p, _, _)| (&p.name, p.symbol))
            .chain(kinds.iter().map(|(k, _, _)| (&k.name, k.symbol)))
            .find(|&(_, other)| other == sym);
        if let Some((other, _)) = taken {
            let other = other.clone();
            ck.error(
                symbol.as_ref().map_or(name.span, |s| s.span),
                format!("{other} and {} share the symbol '{sym}'", name.node),
            )
            .label("same symbol")
            .help("give each player and kind of piece its own symbol, e.g. player dark 'D'")
            .emit();
        }
        // Players named twice are reported with the items declared twice.
        let named = players
            .iter()
            .map(|(p, _, _)| &p.name)
            .filter(|_| role.is_some());
        let kind_names = kinds.iter().map(|(k, _, _)| &k.name);
        if named.chain(kind_names).any(|n| *n == name.node) {
            ck.error(
                name.span,
                format!("`{}` already names a player or a kind of piece", name.node),
            )
            .label("a second declaration")
            .help("give each player and kind of piece a name of its own, e.g. `piece grey 'G'`")
            .emit();
        } else if role.is_some() && BUILTIN_SETS.contains(&name.node.as_str()) {
            ck.error(
                name.span,
                format!("`{}` is a name the language has already", name.node),
            )
            .label("a built-in name")
            .help("give the kind of piece a name of its own, e.g. `piece grey 'G'`")
            .emit();
        } else if role.is_some()
            && (crate::syntax::ITEM_WORDS.contains(&name.node.as_str()) || name.node == "along")
        {
            // A line pattern ends before these words, so it could not name this kind.
            ck.error(
                name.span,
                format!("a kind of piece cannot be named `{}`", name.node),
            )
            .label("a line pattern ends at this word")
            .help("line patterns stop at `along` and at the words that start an item; give the kind another name, e.g. `piece grey 'G'`")
            .emit();
        }
        let (info_name, at) = (name.node.clone(), (name.span, s.file));
        match role {
            None => players.push((
                PlayerInfo {
                    name: info_name,
                    symbol: sym,
                },
                at.0,
                at.1,
            )),
            Some(role) => kinds.push((
                ir::KindInfo {
                    name: info_name,
                    symbol: sym,
                    role,
                },
                at.0,
                at.1,
            )),
        }
    }
    (players, kinds)
}

/// Whether the game's players and kinds of piece are as many as a game may hold, on its
/// board (`bs`, the board item).
pub(super) fn player_counts<'a>(
    ck: &mut Checker<'a>,
    players: &Declared<PlayerInfo>,
    kinds: &Declared<ir::KindInfo>,
    bs: &load::Sourced<'a>,
) -> bool {
    if !(2..=MAX_PLAYERS).contains(&players.len()) {
        let span = players.get(MAX_PLAYERS).map(|p| p.1).unwrap_or_default();
        ck.current_file = players
            .get(MAX_PLAYERS)
            .map_or((ck.files.len() - 1) as u16, |p| p.2);
        ck.error(
            span,
            format!(
                "a game needs two to eight players, these rules declare {}",
                players.len()
            ),
        )
        .label(if players.len() > MAX_PLAYERS {
            "one too many"
        } else {
            "player count"
        })
        .help(if players.len() > MAX_PLAYERS {
            "remove players until eight are left"
        } else {
            "declare each player with `player NAME 'S'`, e.g. `player black 'B'` and `player white 'W'`"
        })
        .emit();
        return false;
    }
    if players.len() + kinds.len() > MAX_PLAYERS {
        let (_, span, file) = kinds[MAX_PLAYERS - players.len()];
        ck.current_file = file;
        ck.error(
            span,
            format!(
                "{} players and {} kinds of piece are more than the eight a game may hold",
                players.len(),
                kinds.len()
            ),
        )
        .label("one too many")
        .help("players and kinds of piece together may be at most eight; remove kinds (or players) until eight are left")
        .emit();
        return false;
    }
    let slots = players.len() + kinds.len();
    let cells = ck.geometry.as_ref().map_or(0, Geometry::cells);
    if !Pieces::fits(slots, cells) {
        ck.current_file = bs.file;
        let most = Pieces::most_cells(slots);
        let (whose, with) = match kinds.len() {
            0 => (
                format!("{} players'", players.len()),
                format!("{} players", players.len()),
            ),
            k => (
                format!("{} players' and {k} kinds'", players.len()),
                format!("{} players and {k} kinds of piece", players.len()),
            ),
        };
        ck.error(
            bs.item.span,
            format!("a board of {cells} cells is too large for {whose} pieces"),
        )
        .label(format!("{cells} cells"))
        .help(format!(
            "with {with} a board may have at most {most} cells; use a smaller board, fewer players or fewer kinds of piece"
        ))
        .emit();
        return false;
    }
    true
}

/// The player who moves first (`first`), by seat.
pub(super) fn first_player<'a>(ck: &mut Checker<'a>, items: &[load::Sourced<'a>]) -> u8 {
    let mut first = 0u8;
    for s in items {
        if let ItemKind::First(name) = &s.item.kind {
            ck.current_file = s.file;
            match ck.player_names.iter().position(|n| *n == name.node) {
                Some(i) => first = i as u8,
                None => unknown_player(ck, name),
            }
        }
    }
    first
}

/// The players' attributes (`with NAME = VALUE`): every player has each or none does, and
/// no counter takes an attribute's name.
pub(super) fn attributes<'a>(
    ck: &mut Checker<'a>,
    items: &[load::Sourced<'a>],
    players: &Declared<PlayerInfo>,
    consts: &Scope,
) {
    let mut attr_seen: BTreeMap<String, Vec<Option<f64>>> = BTreeMap::new();
    for s in items {
        if let ItemKind::Player {
            name, attributes, ..
        } = &s.item.kind
        {
            ck.current_file = s.file;
            let Some(p) = ck.player_names.iter().position(|n| *n == name.node) else {
                continue;
            };
            for (an, ae) in attributes {
                if let Some(n) = ck.expect_as::<Num>(ae, consts) {
                    match n {
                        ir::Num::Const(v) => {
                            attr_seen
                                .entry(an.node.clone())
                                .or_insert_with(|| vec![None; players.len()])[p] = Some(v);
                        }
                        _ => ck.state_dependent("this value", ae.span),
                    }
                }
            }
        }
    }
    for (name, values) in attr_seen {
        if values.iter().any(Option::is_none) {
            let missing = values.iter().position(Option::is_none).unwrap();
            let (pname, span, file) = (
                players[missing].0.name.clone(),
                players[missing].1,
                players[missing].2,
            );
            ck.current_file = file;
            ck.error(
                span,
                if players.len() == 2 {
                    format!("player {pname} has no attribute `{name}`, the other player has")
                } else {
                    let has = values.iter().position(Option::is_some).unwrap_or(0);
                    let other = &players[has].0.name;
                    format!("player {pname} has no attribute `{name}`, player {other} has")
                },
            )
            .label("missing attribute")
            .help(format!("add `with {name} = ...` to this player"))
            .emit();
        }
        let mut per_player = [0.0; MAX_PLAYERS];
        for (to, v) in per_player.iter_mut().zip(&values) {
            *to = v.unwrap_or(0.0);
        }
        ck.attributes.push((name, per_player));
    }

    for s in items {
        let ItemKind::Counter { name, .. } = &s.item.kind else {
            continue;
        };
        if ck.attributes.iter().any(|(a, _)| *a == name.node) {
            ck.current_file = s.file;
            ck.error(
                name.span,
                format!("`{}` is already a player attribute", name.node),
            )
            .label("named twice")
            .help("`p.NAME` would be ambiguous; give the counter another name")
            .emit();
        }
    }
}

/// Declares a counter: a whole starting value, at most `MAX_COUNTERS` of them. (That no
/// attribute has its name is checked once the attributes are known.)
pub(super) fn counter(ck: &mut Checker<'_>, name: &ast::Ident, value: &Expr, consts: &Scope) {
    let start = ck.const_int(value, consts, "a counter's starting value");
    // Each counter takes a register per player; half the registers stay for variables.
    let players = ck.player_names.len();
    let most = ir::MAX_COUNTERS.min(ir::MAX_REGISTERS / 2 / players);
    if ck.counters.len() == most {
        let with = if most < ir::MAX_COUNTERS {
            format!(" with {players} players")
        } else {
            String::new()
        };
        ck.error(
            name.span,
            format!(
                "at most {most} counter{} supported{with}",
                if most == 1 { " is" } else { "s are" }
            ),
        )
        .label("one too many")
        .help("merge counters or use fewer")
        .emit();
        return;
    }
    // `const_int` keeps whole numbers below a billion, which a counter holds.
    if let Some(start) = start {
        ck.counters.push((name.node.clone(), start as i32));
    }
}

pub(super) fn setup(
    ck: &mut Checker<'_>,
    entries: &[SetupEntry],
    setup: &mut [Bits; MAX_PLAYERS],
    first: &mut u8,
) {
    let consts = Scope {
        consts_only: true,
        ..Scope::default()
    };
    let geometry = ck.geometry.clone().unwrap();
    for entry in entries {
        match entry {
            SetupEntry::Place { player, cells } => {
                let Some(p) = slot_of(ck, &player.node) else {
                    unknown_player(ck, player);
                    continue;
                };
                for e in cells {
                    let Some(set) = ck.expect_as::<Set>(e, &consts) else {
                        continue;
                    };
                    let bits = board::const_set(ck, set, e.span);
                    let off = bits.minus(&geometry.playable);
                    if let Some(c) = off.iter().next() {
                        ck.error(e.span, format!("{} is removed from play", geometry.name(c)))
                            .label("not playable")
                            .help("setup pieces must stand on playable cells")
                            .emit();
                    }
                    let others = (0..MAX_PLAYERS)
                        .filter(|&q| q != p)
                        .fold(Bits::EMPTY, |m, q| m.union(&setup[q]));
                    let clash = bits.inter(&others);
                    if let Some(c) = clash.iter().next() {
                        let holder = (0..MAX_PLAYERS)
                            .find(|&q| setup[q].contains(c))
                            .unwrap_or(0);
                        let other = slot_name(ck, holder).to_string();
                        let this = slot_name(ck, p).to_string();
                        ck.error(
                            e.span,
                            format!("{} is given to both {other} and {this}", geometry.name(c)),
                        )
                        .label(format!("already holds a piece of {other}"))
                        .help("each cell can hold one piece")
                        .emit();
                    }
                    setup[p] = setup[p].union(&bits.minus(&others));
                }
            }
            SetupEntry::Rows(rows) => {
                let text: Vec<&str> = rows
                    .node
                    .split(['/', '\n'])
                    .map(str::trim)
                    .filter(|r| !r.is_empty())
                    .collect();
                if text.len() != geometry.height
                    || text.iter().any(|r| r.chars().count() != geometry.width)
                {
                    ck.error(rows.span, format!("the rows do not describe a {} x {} board", geometry.width, geometry.height))
                        .label(format!("{} here", crate::diagnostic::count_of(text.len() as u64, "row")))
                        .help("give one row per board row, separated by /, each with one character per column")
                        .emit();
                    continue;
                }
                *setup = [Bits::EMPTY; MAX_PLAYERS];
                for (y, row) in text.iter().enumerate() {
                    for (x, ch) in row.chars().enumerate() {
                        let cell = y * geometry.width + x;
                        let removed = !geometry.playable.contains(cell);
                        match ch {
                            '.' | '#' => {}
                            // The piece would vanish: a removed cell holds nothing.
                            _ if removed && symbol_owner(ck, ch).is_some() => {
                                ck.error(
                                    rows.span,
                                    format!(
                                        "these rows put '{ch}' on {}, which is removed from play",
                                        geometry.name(cell)
                                    ),
                                )
                                .label("a piece on a removed cell")
                                .help("write # (or .) there, or stop removing that cell")
                                .emit();
                            }
                            _ => match symbol_owner(ck, ch) {
                                Some(p) => setup[p].insert(cell),
                                None => {
                                    ck.error(rows.span, format!("'{ch}' is not the symbol of a player or a kind of piece"))
                                        .label("unknown symbol in these rows")
                                        .help("use . for empty cells and the symbols given in the player and piece items")
                                        .emit();
                                }
                            },
                        }
                    }
                }
            }
            SetupEntry::ToMove(name) => {
                match ck.player_names.iter().position(|n| *n == name.node) {
                    Some(p) => *first = p as u8,
                    None => unknown_player(ck, name),
                }
            }
        }
    }
}

/// The slot of a player's or a kind's pieces, by name.
pub(super) fn slot_of(ck: &Checker<'_>, name: &str) -> Option<usize> {
    ck.player_names
        .iter()
        .chain(&ck.kind_names)
        .position(|n| n == name)
}

pub(super) fn slot_name<'c>(ck: &'c Checker<'_>, slot: usize) -> &'c str {
    ck.player_names
        .iter()
        .chain(&ck.kind_names)
        .nth(slot)
        .map_or("", |n| n.as_str())
}

pub(super) fn symbol_owner(ck: &Checker<'_>, ch: char) -> Option<usize> {
    ck.slot_symbols.iter().position(|&s| s == ch)
}

pub(super) fn unknown_player(ck: &mut Checker<'_>, name: &ast::Ident) {
    let names = ck.player_names.clone();
    let suggestion = crate::diagnostic::closest(&name.node, &names);
    let help = match &suggestion {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!("the players are {}", names.join(" and ")),
    };
    ck.error(name.span, format!("unknown player `{}`", name.node))
        .label("not a player")
        .help(help)
        .suggest(suggestion)
        .emit();
}

pub(super) fn unknown_kind(ck: &mut Checker<'_>, name: &ast::Ident) {
    let names = ck.kind_names.clone();
    let suggestion = crate::diagnostic::closest(&name.node, &names);
    let help = match &suggestion {
        Some(c) => format!("did you mean `{c}`?"),
        None if names.is_empty() => {
            "declare the kind first, e.g. `piece grey 'G'`; a plain `place c` places the mover's own piece".to_string()
        }
        None => format!("the kinds of piece are {}", names.join(", ")),
    };
    ck.error(name.span, format!("unknown kind of piece `{}`", name.node))
        .label("not a kind of piece")
        .help(help)
        .suggest(suggestion)
        .emit();
}
