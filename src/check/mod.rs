//! Checking: merged AST -> compiled [`Game`]. Every problem of a file is collected (not just the
//! first) as a diagnostic with a span, a label and help.

mod expr;
mod load;
mod program;
mod ranges;

use crate::board::bits::Bits;
use crate::board::geometry::{DirSet, Geometry, Wrap};
use crate::board::pieces::Pieces;
pub use crate::diagnostic::closest_names;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::ir::{self, Game, LinePattern, PlayerInfo, MAX_PLAYERS, MAX_TOKENS};
use crate::source::{Loader, SourceFile};
use crate::syntax::ast::{
    self, AllowedPart, BoardShape, CellClass, Expr, ItemKind, Literal, SetupEntry, Span,
};
use expr::{Scope, Typed};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Names of the language's own sets and players, which a kind of piece may not take.
const BUILTIN_SETS: &[&str] = &[
    "friend", "opponent", "empty", "pieces", "piece", "all", "corners", "border", "mover",
    "nobody", "turn", "passes", "blocked",
];
/// What can go wrong when turning a rules file into a game.
#[derive(Debug)]
pub enum CheckError {
    /// Problems in the rules text, with spans.
    Rules(Diagnostics),
    /// A `--set` value from the command line that does not fit: one line of text.
    Setting(String),
}

/// A checked game and the warnings found on the way.
pub struct Checked {
    pub game: Game,
    pub warnings: Diagnostics,
}

/// Checks `main` (and the files it extends) with the given parameter overrides.
pub fn check(
    main: Arc<SourceFile>,
    loader: &dyn Loader,
    overrides: &[(String, String)],
) -> Result<Checked, CheckError> {
    let mut diags = Diagnostics::default();
    let Some(chain) = load::load_chain(main, loader, &mut diags) else {
        return Err(CheckError::Rules(diags));
    };
    let files: Vec<Arc<SourceFile>> = chain.iter().map(|(f, _)| f.clone()).collect();
    let items = load::merge(&chain);
    let mut checker = Checker {
        files: files.clone(),
        diags,
        current_file: 0,
        params: BTreeMap::new(),
        geometry: None,
        player_names: Vec::new(),
        kind_names: Vec::new(),
        kind_roles: Vec::new(),
        slot_symbols: Vec::new(),
        regions: BTreeMap::new(),
        defs: BTreeMap::new(),
        region_items: BTreeMap::new(),
        region_values: BTreeMap::new(),
        regions_in_progress: Vec::new(),
        lines: Vec::new(),
        tokens: Vec::new(),
        attributes: Vec::new(),
        registers: 0,
        ring_distances: Vec::new(),
        farthest: None,
        counters: Vec::new(),
        direction_sets: Vec::new(),
        loops: Vec::new(),
        expanding: Vec::new(),
        expansions: 0,
        in_turn: false,
        used: Default::default(),
    };
    let game = checker.run(&items, overrides)?;
    let mut diags = checker.diags;
    diags.dedup();
    diags.sort();
    if diags.has_errors() {
        return Err(CheckError::Rules(diags));
    }
    match game {
        Some(game) => Ok(Checked {
            game,
            warnings: diags,
        }),
        // Every failing path reports a diagnostic; this guards against a silent failure.
        None => Err(CheckError::Rules(diags)),
    }
}

#[derive(Clone, Debug)]
struct Param {
    value: Literal,
    allowed: Option<Vec<AllowedPart>>,
    file: u16,
    span: Span,
}

pub(crate) struct Checker<'a> {
    files: Vec<Arc<SourceFile>>,
    diags: Diagnostics,
    current_file: u16,
    params: BTreeMap<String, Param>,
    geometry: Option<Geometry>,
    player_names: Vec<String>,
    /// The kinds of piece, whose slots follow the players', and how line patterns see each.
    kind_names: Vec<String>,
    kind_roles: Vec<Option<ir::PieceRole>>,
    /// The symbols of the players' and the kinds' pieces, by slot.
    slot_symbols: Vec<char>,
    regions: BTreeMap<String, Bits>,
    /// Parameter names and (body, file) of each `def`.
    defs: BTreeMap<String, (Vec<String>, (&'a Expr, u16))>,
    /// Every region's definitions (a file may redefine a base file's region) with their files,
    /// found before any is worked out: a region may use one written after it, and is worked
    /// out when first needed.
    region_items: BTreeMap<String, Vec<(&'a Expr, u16)>>,
    /// The value of each definition of a region, once worked out.
    region_values: BTreeMap<(String, usize), Bits>,
    /// Definitions being worked out, outermost first: within the n-th definition of a region,
    /// its name means the one before (or the built-in region of that name, e.g. `corners`).
    regions_in_progress: Vec<(String, usize)>,
    lines: Vec<LinePattern>,
    tokens: Vec<String>,
    attributes: Vec<(String, [f64; MAX_PLAYERS])>,
    registers: usize,
    /// The distances `ring(c, n)` is asked for, each once.
    ring_distances: Vec<u16>,
    /// The board's `Geometry::farthest`, found at the first `ring` (it reads every pair of
    /// cells).
    farthest: Option<usize>,
    /// Each counter's name and starting value.
    counters: Vec<(String, i32)>,
    /// The direction sets the rules name (`directions NAME = ...`).
    direction_sets: Vec<(String, DirSet)>,
    loops: Vec<crate::ir::LoopSpan>,
    /// The defs being expanded, outermost first, and how many expansions there have been.
    expanding: Vec<String>,
    expansions: usize,
    /// Compiling the turn or agreement program (where `blocked` would ask for itself).
    in_turn: bool,
    /// (kind, name) of every parameter, region, def, line and token that is referred to.
    used: std::collections::BTreeSet<(&'static str, String)>,
}

/// Builds one diagnostic; `emit` files it.
pub(crate) struct Report<'c, 'a> {
    checker: &'c mut Checker<'a>,
    diag: Diagnostic,
}

impl Report<'_, '_> {
    fn label(mut self, l: impl Into<String>) -> Self {
        self.diag = self.diag.with_label(l);
        self
    }
    fn help(mut self, h: impl Into<String>) -> Self {
        self.diag = self.diag.with_help(h);
        self
    }
    fn emit(self) {
        self.checker.diags.push(self.diag);
    }
}

fn allowed_text(parts: &[AllowedPart]) -> String {
    parts
        .iter()
        .map(|p| {
            if p.lo == p.hi {
                p.lo.to_string()
            } else if p.step == 1 {
                format!("{} to {}", p.lo, p.hi)
            } else {
                format!("{} to {} step {}", p.lo, p.hi, p.step)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn allows(parts: &[AllowedPart], v: i64) -> bool {
    parts
        .iter()
        .any(|p| v >= p.lo && v <= p.hi && (v - p.lo) % p.step.max(1) == 0)
}

fn literal_text(l: &Literal) -> String {
    match l {
        Literal::Int(i) => i.to_string(),
        Literal::Bool(b) => b.to_string(),
    }
}

impl<'a> Checker<'a> {
    fn error(&mut self, span: Span, message: impl Into<String>) -> Report<'_, 'a> {
        let src = self.files[self.current_file as usize].clone();
        Report {
            diag: Diagnostic::error(&src, span, message),
            checker: self,
        }
    }

    fn warning(&mut self, span: Span, message: impl Into<String>) -> Report<'_, 'a> {
        let src = self.files[self.current_file as usize].clone();
        Report {
            diag: Diagnostic::warning(&src, span, message),
            checker: self,
        }
    }

    fn param_value(&self, name: &str) -> Option<Typed> {
        self.params.get(name).map(|p| match p.value {
            Literal::Int(i) => Typed::Num(ir::Num::Const(i as f64)),
            Literal::Bool(b) => Typed::Bool(ir::Cond::Const(b)),
        })
    }

    fn geometry_for(&mut self, span: Span) -> Option<&Geometry> {
        if self.geometry.is_none() {
            self.error(span, "the board is not known here")
                .label("needs the board")
                .help("cell names and regions need a valid `board W x H` item")
                .emit();
        }
        self.geometry.as_ref()
    }

    /// Reports items that a single file states twice (a variant replacing a base is fine).
    fn duplicates(&mut self, items: &[load::Sourced<'a>]) {
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
                self.current_file = s.file;
                let src = self.files[s.file as usize].clone();
                let (line, _) = line_col(&src.text, first.start);
                self.error(s.item.span, format!("`{key}` is defined twice"))
                    .label("second definition")
                    .help(format!("the first is on line {line}; keep one of them"))
                    .emit();
            } else {
                seen.insert((s.file, key), s.item.span);
            }
        }
    }

    /// A direction set by name: one the rules declare, or one the language has. Reports an
    /// unknown name.
    pub(super) fn direction_set(&mut self, name: &ast::Ident) -> Option<DirSet> {
        if let Some((_, d)) = self.direction_sets.iter().find(|(n, _)| *n == name.node) {
            self.used.insert(("directions", name.node.clone()));
            return Some(*d);
        }
        if let Some(d) = DirSet::by_name(&name.node) {
            let hex = self.geometry.as_ref().is_some_and(|g| g.hex);
            let off_hex = ["orthogonal", "diagonal", "southeast", "northwest"];
            if hex && off_hex.contains(&name.node.as_str()) {
                self.error(
                    name.span,
                    format!("`{}` does not fit a hexagonal board", name.node),
                )
                .label("not a hexagonal direction")
                .help("a hexagon's six directions are north, northeast, east, south, southwest and west; `all` is the six")
                .emit();
                return None;
            }
            return Some(d);
        }
        let declared: Vec<String> = self.direction_sets.iter().map(|(n, _)| n.clone()).collect();
        let known: Vec<String> = ["all", "orthogonal", "diagonal"]
            .into_iter()
            .chain(DirSet::COMPASS)
            .map(String::from)
            .chain(declared.iter().cloned())
            .collect();
        let help = match crate::diagnostic::closest(&name.node, &known) {
            Some(c) => format!("did you mean `{c}`?"),
            None if declared.is_empty() => DirSet::NAMES_HELP.to_string(),
            None => format!(
                "{}; this file declares {}",
                DirSet::NAMES_HELP,
                declared.join(", ")
            ),
        };
        self.error(name.span, format!("unknown direction set `{}`", name.node))
            .label("not a direction set")
            .help(help)
            .emit();
        None
    }

    /// `directions NAME = ...`: the union of the listed sets, under a name the language does
    /// not already give a direction set.
    fn declare_directions(&mut self, name: &ast::Ident, parts: &[ast::Ident]) {
        if DirSet::by_name(&name.node).is_some() {
            self.error(
                name.span,
                format!("`{}` is already a direction set", name.node),
            )
            .label("a built-in name")
            .help("give the new set a name of its own, e.g. `forward`")
            .emit();
            return;
        }
        let mut dirs = DirSet(0);
        for part in parts {
            match self.direction_set(part) {
                Some(d) => dirs = DirSet(dirs.0 | d.0),
                None => return,
            }
        }
        self.direction_sets.push((name.node.clone(), dirs));
    }

    /// Declares a counter: a whole starting value, at most `MAX_COUNTERS` of them. (That no
    /// attribute has its name is checked once the attributes are known.)
    fn counter(&mut self, name: &ast::Ident, value: &Expr, consts: &Scope) {
        let start = self.const_int(value, consts, "a counter's starting value");
        // Each counter takes a register per player; half the registers stay for variables.
        let players = self.player_names.len();
        let most = ir::MAX_COUNTERS.min(ir::MAX_REGISTERS / 2 / players);
        if self.counters.len() == most {
            let with = if most < ir::MAX_COUNTERS {
                format!(" with {players} players")
            } else {
                String::new()
            };
            self.error(
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
            self.counters.push((name.node.clone(), start as i32));
        }
    }

    fn run(
        &mut self,
        items: &[load::Sourced<'a>],
        overrides: &[(String, String)],
    ) -> Result<Option<Game>, CheckError> {
        self.duplicates(items);
        let consts = Scope {
            consts_only: true,
            ..Scope::default()
        };

        // Parameters, then `set` defaults in file order, then the command line.
        for s in items {
            if let ItemKind::Param {
                name,
                default,
                allowed,
            } = &s.item.kind
            {
                self.current_file = s.file;
                if let (Some(parts), Literal::Bool(_)) = (allowed, &default.node) {
                    self.error(parts.span, "a boolean parameter takes no range")
                        .label("range on a true/false parameter")
                        .help("remove the `in ...` part")
                        .emit();
                }
                if let Some(parts) = allowed {
                    for p in &parts.node {
                        if p.lo > p.hi || p.step < 1 {
                            self.error(
                                parts.span,
                                format!(
                                    "the range {} is empty",
                                    allowed_text(std::slice::from_ref(p))
                                ),
                            )
                            .label("empty range")
                            .help("write the smaller bound first, with a step of at least 1")
                            .emit();
                        }
                    }
                }
                if let (Some(parts), Literal::Int(v)) = (allowed, &default.node) {
                    if !allows(&parts.node, *v) {
                        self.error(
                            default.span,
                            format!(
                                "the default {v} is not among the allowed values {}",
                                allowed_text(&parts.node)
                            ),
                        )
                        .label("outside the range")
                        .help("change the default or widen the range")
                        .emit();
                    }
                }
                self.params.insert(
                    name.node.clone(),
                    Param {
                        value: default.node.clone(),
                        allowed: allowed.as_ref().map(|a| a.node.clone()),
                        file: s.file,
                        span: name.span,
                    },
                );
            }
        }
        for s in items {
            if let ItemKind::SetParam { name, value } = &s.item.kind {
                self.current_file = s.file;
                let Some(p) = self.params.get(&name.node).cloned() else {
                    let names: Vec<String> = self.params.keys().cloned().collect();
                    let help = match crate::diagnostic::closest(&name.node, &names) {
                        Some(c) => format!("did you mean `{c}`?"),
                        None => "`set` changes a parameter that a base file declares with `param`"
                            .into(),
                    };
                    self.error(
                        name.span,
                        format!("no parameter named `{}` to set", name.node),
                    )
                    .label("unknown parameter")
                    .help(help)
                    .emit();
                    continue;
                };
                if let Err(msg) = self.fits(&p, &value.node) {
                    self.error(
                        value.span,
                        format!(
                            "`{}` cannot be {}: {msg}",
                            name.node,
                            literal_text(&value.node)
                        ),
                    )
                    .label("not allowed")
                    .help(format!(
                        "pick a value the base file's `param` allows, or widen its range by \
                         declaring the parameter again here: `param {} = {} in ...`",
                        name.node,
                        literal_text(&value.node)
                    ))
                    .emit();
                    continue;
                }
                self.params.get_mut(&name.node).unwrap().value = value.node.clone();
            }
        }
        for (name, text) in overrides {
            let Some(p) = self.params.get(name).cloned() else {
                let names: Vec<String> = self.params.keys().cloned().collect();
                return Err(CheckError::Setting(if names.is_empty() {
                    format!("--set {name}={text}: this game has no parameters")
                } else {
                    format!(
                        "--set {name}={text}: no parameter named `{name}`; the parameters are {}",
                        names.join(", ")
                    )
                }));
            };
            let value = match (&p.value, text.as_str()) {
                (Literal::Bool(_), "true") => Literal::Bool(true),
                (Literal::Bool(_), "false") => Literal::Bool(false),
                (Literal::Bool(_), _) => {
                    return Err(CheckError::Setting(format!(
                        "--set {name}={text}: `{name}` is true or false"
                    )))
                }
                (Literal::Int(_), t) => match t.parse::<i64>() {
                    Ok(v) => Literal::Int(v),
                    Err(_) => {
                        return Err(CheckError::Setting(format!(
                            "--set {name}={text}: `{name}` takes a whole number"
                        )))
                    }
                },
            };
            if let Err(msg) = self.fits(&p, &value) {
                return Err(CheckError::Setting(format!("--set {name}={text}: {msg}")));
            }
            self.params.get_mut(name).unwrap().value = value;
        }

        self.missing_items(items);

        // Board.
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
        let Some((bs, shape, width, height)) = board_item else {
            return Ok(None);
        };
        self.current_file = bs.file;
        // Cells taken out of play: `removed`, and outside a hexagon the corners of its grid.
        let removed_bits = |checker: &mut Self| -> Bits {
            let Some((rs, e)) = removed_item else {
                return Bits::EMPTY;
            };
            checker.current_file = rs.file;
            let bits = match checker.expect_set(e, &consts) {
                Some(set) => checker.const_set(set, e.span),
                None => Bits::EMPTY,
            };
            checker.current_file = bs.file;
            bits
        };
        if shape == BoardShape::Hexagon {
            // A hexagon of `side` cells a side, laid out on a square grid of 2 side - 1.
            let Some(side) = self.const_int(width, &consts, "the hexagon's side") else {
                return Ok(None);
            };
            if !(2..=13).contains(&side) {
                self.error(width.span, format!("a hexagon side of {side} is not supported"))
                    .label("out of range")
                    .help("a hexagon's side must be between 2 and 13 (its grid, 2 side - 1 cells across, is lettered a to z)")
                    .emit();
                return Ok(None);
            }
            let side = side as usize;
            self.geometry = Some(Geometry::hexagon(side, &Bits::EMPTY));
            let bits = removed_bits(self);
            self.geometry = Some(Geometry::hexagon(side, &bits));
        } else {
            // A rhombus of one side is as tall as it is wide.
            let height = height.as_ref().unwrap_or(width);
            let w = self.const_int(width, &consts, "the board width");
            let h = self.const_int(height, &consts, "the board height");
            let (Some(w), Some(h)) = (w, h) else {
                return Ok(None);
            };
            for (v, e) in [(w, width), (h, height)] {
                if !(1..=26).contains(&v) {
                    self.error(e.span, format!("a board side of {v} is not supported"))
                        .label("out of range")
                        .help("each side must be between 1 and 26 (columns are lettered a to z)")
                        .emit();
                    return Ok(None);
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
            self.geometry = Some(make(&Bits::EMPTY));
            let bits = removed_bits(self);
            self.geometry = Some(make(&bits));
        }

        // Players, and kinds of piece that belong to none of them.
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
            self.current_file = s.file;
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
                self.error(
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
                self.error(
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
                self.error(
                    name.span,
                    format!("`{}` already names a player or a kind of piece", name.node),
                )
                .label("a second declaration")
                .help("give each player and kind of piece a name of its own, e.g. `piece grey 'G'`")
                .emit();
            } else if role.is_some() && BUILTIN_SETS.contains(&name.node.as_str()) {
                self.error(
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
                self.error(
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
        if !(2..=MAX_PLAYERS).contains(&players.len()) {
            let span = players.get(MAX_PLAYERS).map(|p| p.1).unwrap_or_default();
            self.current_file = players
                .get(MAX_PLAYERS)
                .map_or((self.files.len() - 1) as u16, |p| p.2);
            self.error(
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
            return Ok(None);
        }
        if players.len() + kinds.len() > MAX_PLAYERS {
            let (_, span, file) = kinds[MAX_PLAYERS - players.len()];
            self.current_file = file;
            self.error(
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
            return Ok(None);
        }
        let slots = players.len() + kinds.len();
        let cells = self.geometry.as_ref().map_or(0, Geometry::cells);
        if !Pieces::fits(slots, cells) {
            self.current_file = bs.file;
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
            self.error(
                bs.item.span,
                format!("a board of {cells} cells is too large for {whose} pieces"),
            )
            .label(format!("{cells} cells"))
            .help(format!(
                "with {with} a board may have at most {most} cells; use a smaller board, fewer players or fewer kinds of piece"
            ))
            .emit();
            return Ok(None);
        }
        self.player_names = players.iter().map(|p| p.0.name.clone()).collect();
        self.kind_names = kinds.iter().map(|k| k.0.name.clone()).collect();
        self.kind_roles = kinds.iter().map(|k| k.0.role).collect();
        self.slot_symbols = players
            .iter()
            .map(|p| p.0.symbol)
            .chain(kinds.iter().map(|k| k.0.symbol))
            .collect();
        let mut first = 0u8;
        for s in items {
            if let ItemKind::First(name) = &s.item.kind {
                self.current_file = s.file;
                match self.player_names.iter().position(|n| *n == name.node) {
                    Some(i) => first = i as u8,
                    None => self.unknown_player(name),
                }
            }
        }

        // Tokens, defs, regions, lines, attributes.
        for s in items {
            if let ItemKind::Token(name) = &s.item.kind {
                self.current_file = s.file;
                if self.tokens.len() == MAX_TOKENS {
                    self.error(
                        name.span,
                        format!("at most {MAX_TOKENS} tokens are supported"),
                    )
                    .label("one too many")
                    .help("merge tokens or use fewer")
                    .emit();
                } else {
                    self.tokens.push(name.node.clone());
                }
            }
            if let ItemKind::Counter { name, value } = &s.item.kind {
                self.current_file = s.file;
                self.counter(name, value, &consts);
            }
            if let ItemKind::Directions { name, parts } = &s.item.kind {
                self.current_file = s.file;
                self.declare_directions(name, parts);
            }
            if let ItemKind::Def { name, params, body } = &s.item.kind {
                self.defs.insert(
                    name.node.clone(),
                    (
                        params.iter().map(|p| p.node.clone()).collect(),
                        (body, s.file),
                    ),
                );
            }
        }
        for s in items {
            if let ItemKind::Region { name, value } = &s.item.kind {
                self.region_items
                    .entry(name.node.clone())
                    .or_default()
                    .push((value, s.file));
            }
        }
        let mut definitions_seen: BTreeMap<&str, usize> = BTreeMap::new();
        for s in items {
            match &s.item.kind {
                ItemKind::Region { name, .. } => {
                    self.current_file = s.file;
                    let level = definitions_seen.entry(&name.node).or_default();
                    let bits = self.region_at(&name.node, *level);
                    *level += 1;
                    self.regions.insert(name.node.clone(), bits);
                }
                ItemKind::Line {
                    name,
                    elements,
                    along,
                } => {
                    self.current_file = s.file;
                    if !self.line(name, elements, along.as_ref()) {
                        // Keep the name known so that its uses do not cascade.
                        self.lines.push(LinePattern {
                            name: name.node.clone(),
                            elements: Vec::new(),
                            end: CellClass::Empty,
                            dirs: DirSet::ALL,
                            simple_run: None,
                        });
                    }
                }
                _ => {}
            }
        }
        let mut attr_seen: BTreeMap<String, Vec<Option<f64>>> = BTreeMap::new();
        for s in items {
            if let ItemKind::Player {
                name, attributes, ..
            } = &s.item.kind
            {
                self.current_file = s.file;
                let Some(p) = self.player_names.iter().position(|n| *n == name.node) else {
                    continue;
                };
                for (an, ae) in attributes {
                    if let Some(n) = self.expect_num(ae, &consts) {
                        match n {
                            ir::Num::Const(v) => {
                                attr_seen
                                    .entry(an.node.clone())
                                    .or_insert_with(|| vec![None; players.len()])[p] = Some(v);
                            }
                            _ => self.state_dependent("this value", ae.span),
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
                self.current_file = file;
                self.error(
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
            self.attributes.push((name, per_player));
        }

        for s in items {
            let ItemKind::Counter { name, .. } = &s.item.kind else {
                continue;
            };
            if self.attributes.iter().any(|(a, _)| *a == name.node) {
                self.current_file = s.file;
                self.error(
                    name.span,
                    format!("`{}` is already a player attribute", name.node),
                )
                .label("named twice")
                .help("`p.NAME` would be ambiguous; give the counter another name")
                .emit();
            }
        }

        // Setup.
        let mut setup = [Bits::EMPTY; MAX_PLAYERS];
        for s in items {
            if let ItemKind::Setup(entries) = &s.item.kind {
                self.current_file = s.file;
                self.setup(entries, &mut setup, &mut first);
            }
        }

        // The turn program.
        let mut turn = None;
        let mut agreement = None;
        for s in items {
            match &s.item.kind {
                ItemKind::Turn(block) => turn = Some((s.file, block)),
                ItemKind::Agreement(block) => agreement = Some((s.file, block)),
                _ => {}
            }
        }
        self.in_turn = true;
        let (program, agreement) = match turn {
            Some(t) => self.program(t, agreement),
            None => (Vec::new(), None),
        };
        self.in_turn = false;
        let have_turn = turn.is_some();
        let _ = have_turn;

        // Ending and scoring.
        let mut ends = Vec::new();
        let mut score = None;
        let mut tiebreaks = Vec::new();
        for s in items {
            self.current_file = s.file;
            match &s.item.kind {
                ItemKind::End(rule) => {
                    if let Some(e) = self.end_rule(rule, s.item.span) {
                        ends.push(e);
                    }
                }
                ItemKind::Score { player, value } => {
                    score = self.player_expr(player, value);
                }
                ItemKind::Tiebreak { player, value } => {
                    if let Some(t) = self.player_expr(player, value) {
                        tiebreaks.push(t);
                    }
                }
                _ => {}
            }
        }
        if ends.is_empty() && !self.diags.has_errors() {
            self.current_file = (self.files.len() - 1) as u16;
            self.warning(
                Span::new(0, 0),
                "no end condition: games can only end by resignation",
            )
            .label("no `end` item")
            .help("add e.g. `end when blocked` or `end when passes >= 2`")
            .emit();
        }
        let Some(score) = score else { return Ok(None) };

        if self.diags.has_errors() {
            return Ok(None);
        }
        self.unused(items);
        let examples = self.examples(items);
        let mut credits = Vec::new();
        let mut title = String::new();
        for s in items {
            match &s.item.kind {
                ItemKind::Title(t) => title.clone_from(&t.node),
                ItemKind::Credit(c) | ItemKind::Source(c) => credits.push(c.node.clone()),
                _ => {}
            }
        }
        let players_arr: Vec<PlayerInfo> = players.iter().map(|p| p.0.clone()).collect();
        Ok(Some(Game {
            title,
            credits,
            params: self
                .params
                .iter()
                .map(|(k, v)| (k.clone(), literal_text(&v.value)))
                .collect(),
            geometry: self.geometry.clone().unwrap(),
            players: players_arr,
            kinds: kinds.into_iter().map(|k| k.0).collect(),
            first,
            setup,
            lines: std::mem::take(&mut self.lines),
            tokens: std::mem::take(&mut self.tokens),
            attributes: std::mem::take(&mut self.attributes),
            program,
            loops: std::mem::take(&mut self.loops),
            agreement,
            registers: self.registers,
            ring_distances: std::mem::take(&mut self.ring_distances),
            counters: std::mem::take(&mut self.counters),
            ends,
            score,
            tiebreaks,
            files: self.files.clone(),
            regions: self.regions.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            examples,
        }))
    }

    /// The checked file's examples, with their player names checked.
    fn examples(&mut self, items: &[load::Sourced<'a>]) -> Vec<ast::Example> {
        let main = (self.files.len() - 1) as u16;
        let mut out = Vec::new();
        for s in items.iter().filter(|s| s.file == main) {
            let ItemKind::Example(example) = &s.item.kind else {
                continue;
            };
            self.current_file = s.file;
            self.example_settings(example);
            for step in &example.steps {
                let names: Vec<&ast::Ident> = match &step.node {
                    ast::ExampleStep::Position {
                        to_move: Some(p), ..
                    } => vec![p],
                    ast::ExampleStep::Expect(
                        ast::Expectation::ToMove(p) | ast::Expectation::Winner(p),
                    ) => vec![p],
                    ast::ExampleStep::Expect(ast::Expectation::Scores(list)) => {
                        list.iter().map(|(p, _)| p).collect()
                    }
                    _ => Vec::new(),
                };
                for name in names {
                    if !self.player_names.contains(&name.node) {
                        self.unknown_player(name);
                    }
                }
            }
            out.push(example.clone());
        }
        out
    }

    /// Checks an example's `set` steps: parameters that exist, values they allow, and all of
    /// them before the example's first other step (they apply to the whole example).
    fn example_settings(&mut self, example: &ast::Example) {
        let mut begun = false;
        let mut seen: Vec<&str> = Vec::new();
        for step in &example.steps {
            let ast::ExampleStep::Set { name, value } = &step.node else {
                begun = true;
                continue;
            };
            if begun {
                self.error(
                    step.span,
                    "an example sets its parameters before its other steps",
                )
                .label("after a step")
                .help("move this `set` to the start of the example; it applies to all of it")
                .emit();
            }
            if seen.contains(&name.node.as_str()) {
                self.error(
                    name.span,
                    format!("`{}` is set twice in this example", name.node),
                )
                .label("set again")
                .help("keep one `set` per parameter")
                .emit();
            }
            seen.push(&name.node);
            let Some(p) = self.params.get(&name.node).cloned() else {
                let names: Vec<String> = self.params.keys().cloned().collect();
                let help = match crate::diagnostic::closest(&name.node, &names) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None if names.is_empty() => "this game declares no `param`".into(),
                    None => format!("the parameters are {}", names.join(", ")),
                };
                self.error(
                    name.span,
                    format!("no parameter named `{}` to set", name.node),
                )
                .label("unknown parameter")
                .help(help)
                .emit();
                continue;
            };
            if let Err(msg) = self.fits(&p, &value.node) {
                self.error(
                    value.span,
                    format!(
                        "`{}` cannot be {}: {msg}",
                        name.node,
                        literal_text(&value.node)
                    ),
                )
                .label("not allowed")
                .help("pick a value the `param` allows")
                .emit();
            }
        }
    }

    /// The value of region `name` where it is used (`used_at`): its last definition, or the one
    /// before the definition being worked out. None for a name that is no region here (or the
    /// built-in region a first definition refers to by its own name).
    pub(super) fn region(&mut self, name: &str, used_at: Span) -> Option<Bits> {
        let count = self.region_items.get(name)?.len();
        let level = match self
            .regions_in_progress
            .iter()
            .rev()
            .find(|(n, _)| n == name)
        {
            None => count - 1,
            Some(&(_, level)) if level > 0 => level - 1,
            Some(_) if expr::BUILTIN_REGIONS.contains(&name) => return None,
            Some(_) => {
                let mut cycle: Vec<String> = self
                    .regions_in_progress
                    .iter()
                    .skip_while(|(n, _)| n != name)
                    .map(|(n, _)| n.clone())
                    .collect();
                cycle.push(name.to_string());
                self.error(
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
        Some(self.region_at(name, level))
    }

    /// The value of the `level`-th definition of region `name`, worked out once.
    fn region_at(&mut self, name: &str, level: usize) -> Bits {
        let key = (name.to_string(), level);
        if let Some(bits) = self.region_values.get(&key) {
            return *bits;
        }
        let Some(&(value, file)) = self.region_items.get(name).and_then(|d| d.get(level)) else {
            return Bits::EMPTY;
        };
        let consts = Scope {
            consts_only: true,
            ..Scope::default()
        };
        let saved = self.current_file;
        self.current_file = file;
        self.regions_in_progress.push(key.clone());
        let bits = match self.expect_set(value, &consts) {
            Some(set) => self.const_set(set, value.span),
            None => Bits::EMPTY,
        };
        self.regions_in_progress.pop();
        self.current_file = saved;
        self.region_values.insert(key, bits);
        bits
    }

    /// Warns when a divisor can be 0: the quotient then counts as 0, which in a score makes
    /// games draws that should not be, so the author must see it.
    fn divisor_can_be_zero(&mut self, span: Span, divisor: &ir::Num) {
        let playable = self
            .geometry
            .as_ref()
            .map(|g| g.playable)
            .unwrap_or_default();
        let (low, high) = ranges::Ranges {
            playable,
            attributes: &self.attributes,
            players: self.player_names.len() as u8,
            bound: None,
        }
        .num(divisor);
        if (low, high) == (0.0, 0.0) {
            self.error(span, "division by zero")
                .label("this is always 0")
                .help("divide by a number that is not 0")
                .emit();
        } else if low <= 0.0 && 0.0 <= high {
            self.warning(span, "this divisor can be 0")
                .label("may be 0")
                .help("a division by 0 counts as 0; if that is not what you mean, divide by something that cannot be 0, e.g. `(count(empty) + 1)`, or test it with `if`")
                .emit();
        }
    }

    /// A superset of the cells a set can ever hold (see `ranges`).
    fn set_bound(&self, s: &ir::Set) -> Bits {
        let playable = self
            .geometry
            .as_ref()
            .map(|g| g.playable)
            .unwrap_or_default();
        ranges::Ranges {
            playable,
            attributes: &self.attributes,
            players: self.player_names.len() as u8,
            bound: None,
        }
        .set_bound(s)
    }

    /// Warns about declarations of the checked file that nothing refers to, and line patterns
    /// longer than the board.
    fn unused(&mut self, items: &[load::Sourced<'a>]) {
        let main = (self.files.len() - 1) as u16;
        let longest = self.geometry.as_ref().map_or(0, |g| g.width.max(g.height));
        for s in items.iter().filter(|s| s.file == main) {
            self.current_file = s.file;
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
                        self.warning(
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
            if !self.used.contains(&(kind, name.node.clone())) {
                self.warning(name.span, format!("{kind} `{}` is never used", name.node))
                    .label("declared here, used nowhere")
                    .help(format!(
                        "remove it, or use it in a rule; a {kind} that nothing reads has no effect"
                    ))
                    .emit();
            }
        }
    }

    /// Reports every essential item that neither the file nor its bases provide.
    fn missing_items(&mut self, items: &[load::Sourced<'a>]) {
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
        self.current_file = (self.files.len() - 1) as u16;
        for (present, message, label, help) in checks {
            if !present {
                self.error(Span::new(0, 0), message)
                    .label(label)
                    .help(help)
                    .emit();
            }
        }
    }

    fn fits(&self, p: &Param, v: &Literal) -> Result<(), String> {
        match (&p.value, v, &p.allowed) {
            (Literal::Int(_), Literal::Int(v), Some(parts)) if !allows(parts, *v) => Err(format!(
                "{v} is outside the allowed values {}",
                allowed_text(parts)
            )),
            (Literal::Int(_), Literal::Bool(_), _) => Err("a whole number is needed".into()),
            (Literal::Bool(_), Literal::Int(_), _) => Err("true or false is needed".into()),
            _ => Ok(()),
        }
        .map_err(|m| {
            let file = &self.files[p.file as usize];
            let (line, _) = line_col(&file.text, p.span.start);
            format!("{m} (declared at {}:{line})", file.name)
        })
    }

    fn unknown_player(&mut self, name: &ast::Ident) {
        let names = self.player_names.clone();
        let help = match crate::diagnostic::closest(&name.node, &names) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("the players are {}", names.join(" and ")),
        };
        self.error(name.span, format!("unknown player `{}`", name.node))
            .label("not a player")
            .help(help)
            .emit();
    }

    fn unknown_kind(&mut self, name: &ast::Ident) {
        let names = self.kind_names.clone();
        let help = match crate::diagnostic::closest(&name.node, &names) {
            Some(c) => format!("did you mean `{c}`?"),
            None if names.is_empty() => {
                "declare the kind first, e.g. `piece grey 'G'`; a plain `place c` places the mover's own piece".to_string()
            }
            None => format!("the kinds of piece are {}", names.join(", ")),
        };
        self.error(name.span, format!("unknown kind of piece `{}`", name.node))
            .label("not a kind of piece")
            .help(help)
            .emit();
    }

    /// Evaluates a set known before the game starts.
    fn const_set(&mut self, set: ir::Set, span: Span) -> Bits {
        match set {
            ir::Set::Const(b) => b,
            ir::Set::Single(c) => {
                if let ir::Cell::Const(c) = *c {
                    Bits::single(c as usize)
                } else {
                    self.state_dependent("a variable", span);
                    Bits::EMPTY
                }
            }
            ir::Set::Union(a, b) => {
                let a = self.const_set(*a, span);
                a.union(&self.const_set(*b, span))
            }
            ir::Set::Inter(a, b) => {
                let a = self.const_set(*a, span);
                a.inter(&self.const_set(*b, span))
            }
            ir::Set::Minus(a, b) => {
                let a = self.const_set(*a, span);
                a.minus(&self.const_set(*b, span))
            }
            _ => {
                self.state_dependent("this set", span);
                Bits::EMPTY
            }
        }
    }

    /// Compiles a line pattern; false when it has errors (already reported).
    fn line(
        &mut self,
        name: &ast::Ident,
        elements: &[ast::Spanned<ast::Element>],
        along: Option<&ast::Ident>,
    ) -> bool {
        let dirs = match along {
            None => DirSet::ALL,
            Some(a) => match self.direction_set(a) {
                Some(d) => d,
                None => return false,
            },
        };
        let (last, captured) = elements
            .split_last()
            .expect("the grammar requires one element");
        if last.node.min != 1 || last.node.max != 1 {
            self.error(
                last.span,
                "the last element of a line must match exactly one cell",
            )
            .label("repeated end")
            .help("the last element is the cell that closes the line; remove its repetition")
            .emit();
            return false;
        }
        if captured.is_empty() {
            self.error(last.span, "a line needs at least two elements")
                .label("only an end cell")
                .help("put the captured cells before the end, e.g. `opponent+ friend`")
                .emit();
            return false;
        }
        let mut ok = true;
        let mut classes = Vec::with_capacity(elements.len());
        for e in elements {
            match self.element_class(&e.node.class) {
                Some(c) => classes.push(c),
                None => ok = false,
            }
        }
        for e in captured {
            if e.node.max == 0 {
                ok = false;
                self.error(e.span, "a repetition of zero matches nothing")
                    .label("{0}")
                    .help("remove this element")
                    .emit();
            }
        }
        if !ok {
            return false;
        }
        let end = classes[captured.len()];
        let simple_run = match (captured, classes[0]) {
            ([only], run) if only.node.min == 1 && only.node.max == u32::MAX => {
                self.disjoint(run, end).then_some((run, end))
            }
            _ => None,
        };
        self.lines.push(LinePattern {
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
    fn element_class(&mut self, class: &ast::ElementClass) -> Option<CellClass> {
        let name = match class {
            ast::ElementClass::Word(c) => return Some(*c),
            ast::ElementClass::Kind(name) => name,
        };
        if let Some(k) = self.kind_names.iter().position(|n| *n == name.node) {
            return Some(CellClass::Kind((self.player_names.len() + k) as u8));
        }
        let words = ["friend", "opponent", "empty", "piece"].map(String::from);
        let candidates: Vec<String> = words.iter().chain(&self.kind_names).cloned().collect();
        let a_player = self.player_names.contains(&name.node);
        let help = if a_player {
            "line patterns see the players by role: `friend` is the player the line is matched \
             for, `opponent` any other player"
                .to_string()
        } else if let Some(c) = crate::diagnostic::closest(&name.node, &candidates) {
            format!("did you mean `{c}`?")
        } else if self.kind_names.is_empty() {
            "a cell class is `friend`, `opponent`, `empty` or `piece`; to name a kind of piece \
             here, declare it first, e.g. `piece grey 'G'`"
                .to_string()
        } else {
            format!(
                "a cell class is `friend`, `opponent`, `empty`, `piece` or a kind of piece ({})",
                self.kind_names.join(", ")
            )
        };
        self.error(
            name.span,
            format!("`{}` is not a cell class of line patterns", name.node),
        )
        .label(if a_player {
            "a player"
        } else {
            "not a cell class"
        })
        .help(help)
        .emit();
        None
    }

    /// Whether no cell can be of both classes at once, whoever moves: a line whose run and end
    /// are apart is matched by the runner's quickest path (nearest closing cell).
    fn disjoint(&self, a: CellClass, b: CellClass) -> bool {
        let players = self.player_names.len();
        let role = |slot: u8| self.kind_roles[slot as usize - players];
        match (a, b) {
            _ if a == b => false,
            (CellClass::Piece, _) | (_, CellClass::Piece) => false,
            (CellClass::Kind(k), CellClass::Friend) | (CellClass::Friend, CellClass::Kind(k)) => {
                role(k) != Some(ir::PieceRole::Friend)
            }
            (CellClass::Kind(k), CellClass::Opponent)
            | (CellClass::Opponent, CellClass::Kind(k)) => role(k) != Some(ir::PieceRole::Opponent),
            _ => true,
        }
    }

    fn setup(&mut self, entries: &[SetupEntry], setup: &mut [Bits; MAX_PLAYERS], first: &mut u8) {
        let consts = Scope {
            consts_only: true,
            ..Scope::default()
        };
        let geometry = self.geometry.clone().unwrap();
        for entry in entries {
            match entry {
                SetupEntry::Place { player, cells } => {
                    let Some(p) = self.slot_of(&player.node) else {
                        self.unknown_player(player);
                        continue;
                    };
                    for e in cells {
                        let Some(set) = self.expect_set(e, &consts) else {
                            continue;
                        };
                        let bits = self.const_set(set, e.span);
                        let off = bits.minus(&geometry.playable);
                        if let Some(c) = off.iter().next() {
                            self.error(
                                e.span,
                                format!("{} is removed from play", geometry.name(c)),
                            )
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
                            let other = self.slot_name(holder).to_string();
                            let this = self.slot_name(p).to_string();
                            self.error(
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
                        self.error(rows.span, format!("the rows do not describe a {} x {} board", geometry.width, geometry.height))
                            .label(format!("{} row(s) here", text.len()))
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
                                _ if removed && self.symbol_owner(ch).is_some() => {
                                    self.error(
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
                                _ => match self.symbol_owner(ch) {
                                    Some(p) => setup[p].insert(cell),
                                    None => {
                                        self.error(rows.span, format!("'{ch}' is not the symbol of a player or a kind of piece"))
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
                    match self.player_names.iter().position(|n| *n == name.node) {
                        Some(p) => *first = p as u8,
                        None => self.unknown_player(name),
                    }
                }
            }
        }
    }

    /// The slot of a player's or a kind's pieces, by name.
    fn slot_of(&self, name: &str) -> Option<usize> {
        self.player_names
            .iter()
            .chain(&self.kind_names)
            .position(|n| n == name)
    }

    fn slot_name(&self, slot: usize) -> &str {
        self.player_names
            .iter()
            .chain(&self.kind_names)
            .nth(slot)
            .map_or("", |n| n.as_str())
    }

    fn symbol_owner(&self, ch: char) -> Option<usize> {
        self.slot_symbols.iter().position(|&s| s == ch)
    }

    fn end_rule(&mut self, rule: &ast::EndRule, span: Span) -> Option<ir::EndCondition> {
        let scope = Scope {
            bound_player: rule.for_each.as_ref().map(|p| p.node.clone()),
            ..Scope::default()
        };
        let condition = self.expect_bool(&rule.condition, &scope);
        let winner = match &rule.winner {
            Some(w) => Some(self.expect_player(w, &scope)?),
            None => None,
        };
        let condition = condition?;
        self.never_holds(rule, &condition);
        Some(ir::EndCondition {
            timing: rule.timing,
            for_each: rule.for_each.is_some(),
            condition,
            winner,
            loc: ir::Loc {
                file: self.current_file,
                span,
            },
        })
    }

    /// Warns when an end condition is false in every position the rules allow, reasoning
    /// from the board, the regions and the parameters.
    fn never_holds(&mut self, rule: &ast::EndRule, condition: &ir::Cond) {
        let Some(geometry) = &self.geometry else {
            return;
        };
        let players: Vec<Option<u8>> = if rule.for_each.is_some() {
            (0..self.player_names.len() as u8).map(Some).collect()
        } else {
            vec![None]
        };
        let analyses: Vec<ranges::Ranges> = players
            .iter()
            .map(|&bound| ranges::Ranges {
                playable: geometry.playable,
                attributes: &self.attributes,
                players: self.player_names.len() as u8,
                bound,
            })
            .collect();
        if analyses.iter().any(|r| r.can_hold(condition)) {
            return;
        }
        let detail = match (condition, &analyses[0]) {
            (ir::Cond::Num(_, a, b), r) => {
                let (a, b) = (r.num(a), r.num(b));
                format!(
                    "the left side is at most {}, the right side at least {}",
                    a.1, b.0
                )
            }
            _ => "it is false in every position".to_string(),
        };
        let who = if rule.for_each.is_some() {
            " for either player"
        } else {
            ""
        };
        let main = self.files.len() - 1;
        let context = if self.current_file as usize == main {
            String::new()
        } else {
            format!(
                " (this rule comes from a base file; here it is checked for {})",
                self.files[main].name
            )
        };
        self.warning(rule.condition.span, format!("this end condition can never hold{who}"))
            .label(detail)
            .help(format!(
                "check the parameters, the regions it counts, and the cells removed from play; as written this rule never ends the game{context}"
            ))
            .emit();
    }

    fn player_expr(&mut self, player: &ast::Ident, value: &Expr) -> Option<ir::Num> {
        let scope = Scope {
            bound_player: Some(player.node.clone()),
            ..Scope::default()
        };
        self.expect_num(value, &scope)
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}
