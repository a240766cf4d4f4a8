//! Checking: merged AST -> compiled [`Game`]. Every problem of a file is collected (not just the
//! first) as a diagnostic with a span, a label and help.

mod board;
mod builtins;
mod ends;
mod examples;
mod expr;
mod flow;
mod lines;
mod lints;
mod load;
mod params;
mod players;
mod program;
mod ranges;
mod symmetry;

use crate::board::bits::{Bits, MAX_CELLS};
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
/// The language's built-in functions and state names, for tools that complete or explain them.
pub use expr::{FUNCTIONS, STATE_NAMES};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where a player or a kind of piece is declared: its span and file.
type Declared<T> = Vec<(T, Span, u16)>;

/// The title, the credits and the sources, in file order.
fn title_and_credits(items: &[load::Sourced<'_>]) -> (String, Vec<String>, Vec<String>) {
    let (mut title, mut credits, mut sources) = (String::new(), Vec::new(), Vec::new());
    for s in items {
        match &s.item.kind {
            ItemKind::Title(t) => title.clone_from(&t.node),
            ItemKind::Credit(c) => credits.push(c.node.clone()),
            ItemKind::Source(c) => sources.push(c.node.clone()),
            _ => {}
        }
    }
    (title, credits, sources)
}

/// Names of the language's own sets and players, which a kind of piece may not take.
pub const BUILTIN_SETS: &[&str] = &[
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

/// A checked game, its examples and the warnings found on the way.
pub struct Checked {
    pub game: Game,
    /// The checked file's examples (a base file's examples belong to the base), with their
    /// names of players and parameters checked; `examples::run_example` runs one.
    pub examples: Vec<ast::Example>,
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
        leap_sets: Vec::new(),
        leaps: Vec::new(),
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
        Some((game, examples)) => Ok(Checked {
            game,
            examples,
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
    /// The direction sets with leaps: name, compass directions, index into `leaps`.
    leap_sets: Vec<(String, DirSet, usize)>,
    /// Each leap set's vectors (`ir::Game::leaps`).
    leaps: Vec<Vec<(i32, i32)>>,
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
    /// Offers the name the user likely meant, if there is one, as help and as a fix.
    fn suggest(mut self, name: Option<String>) -> Self {
        if let Some(name) = name {
            self.diag = self.diag.with_suggestion(name);
        }
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

/// The values a parameter allows, as text.
fn range_text(p: &Param) -> String {
    match (&p.allowed, &p.value) {
        (_, Literal::Bool(_)) => "true or false".into(),
        (Some(parts), _) => allowed_text(parts),
        (None, _) => "any whole number".into(),
    }
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

    fn geometry_for(&mut self, span: Span) -> Option<&Geometry> {
        if self.geometry.is_none() {
            self.error(span, "the board is not known here")
                .label("needs the board")
                .help("cell names and regions need a valid `board W x H` item")
                .emit();
        }
        self.geometry.as_ref()
    }

    /// A direction set by name: one the rules declare, or one the language has. Reports an
    /// unknown name.
    pub(super) fn direction_set(&mut self, name: &ast::Ident) -> Option<DirSet> {
        if let Some((_, d)) = self.direction_sets.iter().find(|(n, _)| *n == name.node) {
            self.used.insert(("directions", name.node.clone()));
            return Some(*d);
        }
        if self.leap_sets.iter().any(|(n, ..)| *n == name.node) {
            self.used.insert(("directions", name.node.clone()));
            self.error(
                name.span,
                format!("`{}` has leaps, which cannot be walked as rays", name.node),
            )
            .label("a direction set with leaps")
            .help(format!(
                "a leap is one step by a vector; `adjacent(S, {0})` and `neighbours(c, {0})` take \
                 it, while line patterns and the rules that walk a direction need compass \
                 directions",
                name.node
            ))
            .emit();
            return None;
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
        let suggestion = crate::diagnostic::closest(&name.node, &known);
        let help = match &suggestion {
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
            .suggest(suggestion)
            .emit();
        None
    }

    /// `directions NAME = ...`: the union of the listed sets and leaps, under a name the
    /// language does not already give a direction set.
    fn declare_directions(&mut self, name: &ast::Ident, parts: &[ast::DirectionPart]) {
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
        let mut leaps: Vec<(i32, i32)> = Vec::new();
        for part in parts {
            match part {
                ast::DirectionPart::Name(part) => {
                    let known = self.leap_sets.iter().find(|(n, ..)| *n == part.node);
                    if let Some((_, d, i)) = known.cloned() {
                        self.used.insert(("directions", part.node.clone()));
                        dirs = DirSet(dirs.0 | d.0);
                        leaps.extend(self.leaps[i].iter().copied());
                    } else if let Some(d) = self.direction_set(part) {
                        dirs = DirSet(dirs.0 | d.0);
                    }
                }
                ast::DirectionPart::Leap(v) => {
                    if self.leap_vector(v) {
                        leaps.push(v.node);
                    }
                }
            }
        }
        // A set with a part in error keeps its name and its other parts, so that its uses
        // add no errors of their own: the file has one already.
        if leaps.is_empty() {
            self.direction_sets.push((name.node.clone(), dirs));
        } else {
            leaps.sort_unstable();
            leaps.dedup();
            self.leap_sets
                .push((name.node.clone(), dirs, self.leaps.len()));
            self.leaps.push(leaps);
        }
    }

    /// Whether a leap's vector lands somewhere on the board; reports one that never does.
    fn leap_vector(&mut self, v: &ast::Spanned<(i32, i32)>) -> bool {
        let Some(g) = &self.geometry else {
            return true;
        };
        if (0..g.cells()).any(|c| g.leap(c, v.node).is_some()) {
            return true;
        }
        let (width, height) = (g.width, g.height);
        let (columns, rows) = v.node;
        let message = if (columns, rows) == (0, 0) {
            "a leap of (0, 0) stays on its cell".to_string()
        } else {
            format!("a leap of ({columns}, {rows}) lands on no cell of this board")
        };
        self.error(v.span, message)
            .label("lands nowhere")
            .help(format!(
                "a leap is (columns, rows): `(1, 2)` goes one column east and two rows towards \
                 row {height}; on this board of {width} x {height} it must land on a cell"
            ))
            .emit();
        false
    }

    /// The leap set `name` declares: its compass directions and the index of its leaps.
    pub(super) fn leap_set(&mut self, name: &str) -> Option<(DirSet, usize)> {
        let (_, d, i) = self.leap_sets.iter().find(|(n, ..)| n == name)?.clone();
        self.used.insert(("directions", name.to_string()));
        Some((d, i))
    }

    /// The passes, each after those it needs: parameters, the board, players, declarations
    /// (tokens, counters, directions, defs, regions, lines), attributes, setup, the turn
    /// program, ends and scores; then the lints and the examples. None when an error stops
    /// the check (the diagnostics say which).
    fn run(
        &mut self,
        items: &[load::Sourced<'a>],
        overrides: &[(String, String)],
    ) -> Result<Option<(Game, Vec<ast::Example>)>, CheckError> {
        lints::duplicates(self, items);
        let consts = Scope {
            consts_only: true,
            ..Scope::default()
        };
        params::declare_params(self, items);
        params::set_params(self, items);
        params::override_params(self, overrides)?;
        lints::missing_items(self, items);
        let Some(board) = board::board(self, items, &consts) else {
            return Ok(None);
        };
        let (players, kinds) = players::declare_players(self, items);
        if !players::player_counts(self, &players, &kinds, board) {
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
        let mut first = players::first_player(self, items);
        self.declarations(items, &consts);
        players::attributes(self, items, &players, &consts);

        // Setup.
        let mut setup = [Bits::EMPTY; MAX_PLAYERS];
        for s in items {
            if let ItemKind::Setup(entries) = &s.item.kind {
                self.current_file = s.file;
                players::setup(self, entries, &mut setup, &mut first);
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
            Some(t) => program::program(self, t, agreement),
            None => (Vec::new(), None),
        };
        self.in_turn = false;

        let (ends, score, tiebreaks) = ends::ends_and_scores(self, items);
        let Some(score) = score else { return Ok(None) };

        if self.diags.has_errors() {
            return Ok(None);
        }
        lints::unused(self, items);
        let examples = examples::examples(self, items);
        let (title, credits, sources) = title_and_credits(items);
        let mut game = Game {
            title,
            credits,
            sources,
            params: self
                .params
                .iter()
                .map(|(k, v)| ir::ParamInfo {
                    name: k.clone(),
                    value: literal_text(&v.value),
                    allowed: range_text(v),
                })
                .collect(),
            geometry: self.geometry.clone().unwrap(),
            players: players.into_iter().map(|p| p.0).collect(),
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
            leaps: std::mem::take(&mut self.leaps),
            counters: std::mem::take(&mut self.counters),
            ends,
            score,
            tiebreaks,
            files: self.files.clone(),
            regions: self.regions.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            symmetries: Vec::new(),
        };
        game.symmetries = symmetry::symmetries(&game);
        Ok(Some((game, examples)))
    }

    /// Tokens, counters, direction sets, defs, regions and lines.
    fn declarations(&mut self, items: &[load::Sourced<'a>], consts: &Scope) {
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
                players::counter(self, name, value, consts);
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
                    let bits = board::region_at(self, &name.node, *level);
                    *level += 1;
                    self.regions.insert(name.node.clone(), bits);
                }
                ItemKind::Line {
                    name,
                    elements,
                    along,
                } => {
                    self.current_file = s.file;
                    if !lines::line(self, name, elements, along.as_ref()) {
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
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}
