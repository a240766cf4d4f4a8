//! The names of a rules file and the files it extends: where each is declared, where each is
//! used, and which declaration a use means. Built from the syntax tree alone, so that it also
//! serves a file the checker refuses (an editor's file is mostly half-typed).

use outflank::source::{Loader, SourceFile, Span};
use outflank::syntax::ast::{
    Block, ElementClass, ExampleStep, Expectation, Expr, ExprKind, File, Ident, ItemKind,
    OptionKind, SetupEntry, StmtKind,
};
use std::sync::Arc;

/// What a declared name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Parameter,
    Region,
    Def,
    Line,
    Player,
    Piece,
    Token,
    Counter,
    Directions,
    /// A player's attribute (`player black 'B' with target = 4`), one name for every player.
    Attribute,
    /// A name bound inside an item: by `choose`, `let`, `for each`, `score p`, a def's
    /// parameter.
    Variable,
}

impl Kind {
    pub(super) fn noun(self) -> &'static str {
        match self {
            Kind::Parameter => "parameter",
            Kind::Region => "region",
            Kind::Def => "def",
            Kind::Line => "line pattern",
            Kind::Player => "player",
            Kind::Piece => "kind of piece",
            Kind::Token => "token",
            Kind::Counter => "counter",
            Kind::Directions => "direction set",
            Kind::Attribute => "player attribute",
            Kind::Variable => "variable",
        }
    }
}

/// Which kinds a use of a name may mean, by where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wants {
    /// A name in an expression: anything with a value.
    Value,
    Call,
    Only(Kind),
    /// After a dot: an attribute or a counter.
    Attribute,
}

/// A declaration: of a whole item, or of a variable inside one.
#[derive(Clone, Debug)]
pub(super) struct Symbol {
    pub(super) name: String,
    pub(super) kind: Kind,
    pub(super) file: usize,
    /// The name where it is declared.
    pub(super) span: Span,
    /// The whole declaring item (or statement).
    pub(super) item: Span,
    /// Where a variable can be used; None for an item's name, which the whole file sees.
    pub(super) visible: Option<Span>,
    /// What to tell of it: its type, and for a parameter its default and allowed values.
    pub(super) detail: String,
}

/// A name as written, in a declaration or a use.
#[derive(Clone, Debug)]
pub(super) struct Occurrence {
    pub(super) file: usize,
    pub(super) span: Span,
    /// The declaration it means, if any (a built-in or unknown name has none).
    pub(super) symbol: Option<usize>,
    pub(super) declaration: bool,
}

/// Every name of a chain of files (base files first, the edited file last).
pub(super) struct Index {
    pub(super) files: Vec<Arc<SourceFile>>,
    pub(super) asts: Vec<File>,
    pub(super) symbols: Vec<Symbol>,
    pub(super) occurrences: Vec<Occurrence>,
    /// Each file's `extends` string and the file it names, if it was read.
    pub(super) extends: Vec<(usize, Span, Option<usize>)>,
}

/// How many files a chain may hold, as the checker allows.
const MAX_CHAIN: usize = 16;

impl Index {
    /// Indexes `main` (parsed already: its text as it stands, or an earlier text that parsed)
    /// and the files it extends, as far as they parse.
    pub(super) fn from_parsed(main: Arc<SourceFile>, ast: File, loader: &dyn Loader) -> Index {
        let mut chain = vec![(main, ast)];
        while chain.len() < MAX_CHAIN {
            let (file, ast) = chain.last().expect("the chain starts with main");
            let Some(path) = &ast.extends else { break };
            let Ok(base) = loader.load(&file.name, &path.node) else {
                break;
            };
            if chain.iter().any(|(f, _)| f.name == base.name) {
                break;
            }
            let Ok(base_ast) = outflank::syntax::parse(&base) else {
                break;
            };
            chain.push((base, base_ast));
        }
        chain.reverse();
        let (files, asts): (Vec<_>, Vec<_>) = chain.into_iter().unzip();
        let mut index = Index {
            files,
            asts,
            symbols: Vec::new(),
            occurrences: Vec::new(),
            extends: Vec::new(),
        };
        index.collect();
        index
    }

    pub(super) fn main(&self) -> usize {
        self.files.len() - 1
    }

    fn collect(&mut self) {
        let asts = std::mem::take(&mut self.asts);
        // Item names first: an item may use a name declared after it, or in a later file.
        for (file, ast) in asts.iter().enumerate() {
            for item in &ast.items {
                self.declare_item(file, &item.kind, item.span);
            }
        }
        for (file, ast) in asts.iter().enumerate() {
            if let Some(path) = &ast.extends {
                let target = (file > 0).then(|| file - 1);
                self.extends.push((file, path.span, target));
            }
            for item in &ast.items {
                let mut walk = Walk {
                    index: self,
                    file,
                    scopes: Vec::new(),
                };
                walk.item(&item.kind, item.span);
            }
        }
        self.asts = asts;
    }

    fn declare(&mut self, file: usize, name: &Ident, kind: Kind, item: Span, detail: String) {
        self.symbols.push(Symbol {
            name: name.node.clone(),
            kind,
            file,
            span: name.span,
            item,
            visible: None,
            detail,
        });
        self.occurrences.push(Occurrence {
            file,
            span: name.span,
            symbol: Some(self.symbols.len() - 1),
            declaration: true,
        });
    }

    fn declare_item(&mut self, file: usize, kind: &ItemKind, span: Span) {
        match kind {
            ItemKind::Param {
                name,
                default,
                allowed,
            } => {
                let allowed = allowed.as_ref().map_or_else(
                    || "any value of its type".to_string(),
                    |a| {
                        a.node
                            .iter()
                            .map(|p| match (p.lo == p.hi, p.step) {
                                (true, _) => p.lo.to_string(),
                                (false, 1) => format!("{} to {}", p.lo, p.hi),
                                (false, s) => format!("{} to {} step {s}", p.lo, p.hi),
                            })
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                );
                let ty = match default.node {
                    outflank::syntax::ast::Literal::Bool(_) => "a boolean",
                    outflank::syntax::ast::Literal::Int(_) => "a whole number",
                };
                let detail = format!(
                    "{ty}; default `{}`; allowed: {allowed} (change it with `--set {}=VALUE`)",
                    default.node, name.node
                );
                self.declare(file, name, Kind::Parameter, span, detail);
            }
            ItemKind::Region { name, .. } => {
                let d = "a set of cells, worked out once from the parameters".to_string();
                self.declare(file, name, Kind::Region, span, d);
            }
            ItemKind::Def { name, params, .. } => {
                let d = if params.is_empty() {
                    "an expression, expanded where it is used".to_string()
                } else {
                    format!(
                        "an expression of {}, expanded where it is used",
                        params
                            .iter()
                            .map(|p| p.node.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                self.declare(file, name, Kind::Def, span, d);
            }
            ItemKind::Line { name, .. } => {
                let d = "a line pattern, for `captured(L, c)` and `ends(L, c)`".to_string();
                self.declare(file, name, Kind::Line, span, d);
            }
            ItemKind::Player {
                name, attributes, ..
            } => {
                self.declare(file, name, Kind::Player, span, "a player".into());
                for (attr, _) in attributes {
                    let d = format!(
                        "a number each player has, read as `{}.{}`",
                        name.node, attr.node
                    );
                    self.declare(file, attr, Kind::Attribute, span, d);
                }
            }
            ItemKind::PieceKind { name, .. } => {
                let d = "a kind of piece that belongs to no player".to_string();
                self.declare(file, name, Kind::Piece, span, d);
            }
            ItemKind::Token(name) => {
                let d = "a token: held by one player or by nobody".to_string();
                self.declare(file, name, Kind::Token, span, d);
            }
            ItemKind::Counter { name, .. } => {
                let d = format!(
                    "a number each player keeps for the whole game (`p.{}`)",
                    name.node
                );
                self.declare(file, name, Kind::Counter, span, d);
            }
            ItemKind::Directions { name, .. } => {
                let d = "a set of directions".to_string();
                self.declare(file, name, Kind::Directions, span, d);
            }
            _ => {}
        }
    }

    /// The declarations a use of `name` may mean, the nearest file's first.
    fn globals(&self, name: &str, wants: Wants) -> Option<usize> {
        let fits = |k: Kind| match wants {
            Wants::Value => !matches!(k, Kind::Variable | Kind::Attribute),
            Wants::Call => k == Kind::Def,
            Wants::Only(kind) => k == kind,
            Wants::Attribute => matches!(k, Kind::Attribute | Kind::Counter),
        };
        self.symbols
            .iter()
            .enumerate()
            .rev()
            .find(|(_, s)| s.visible.is_none() && s.name == name && fits(s.kind))
            .map(|(i, _)| i)
    }

    /// Whether two declarations are one name: a variable is itself; an item's name is every
    /// item of that kind and name in the chain (a variant's region replaces the base's).
    pub(super) fn same(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.symbols[a], &self.symbols[b]);
        a == b
            || (x.visible.is_none() && y.visible.is_none() && x.kind == y.kind && x.name == y.name)
    }

    /// The name written at `offset` of `file`.
    pub(super) fn occurrence_at(&self, file: usize, offset: usize) -> Option<&Occurrence> {
        self.occurrences
            .iter()
            .find(|o| o.file == file && o.span.start <= offset && offset <= o.span.end)
    }

    /// Where a symbol is declared: a variant's own declaration before its base's.
    pub(super) fn definition(&self, symbol: usize) -> &Symbol {
        let found = (0..self.symbols.len())
            .rev()
            .find(|&i| self.same(i, symbol))
            .unwrap_or(symbol);
        &self.symbols[found]
    }

    /// Every declaration and use of a symbol, in file order.
    pub(super) fn references(&self, symbol: usize) -> Vec<&Occurrence> {
        self.occurrences
            .iter()
            .filter(|o| o.symbol.is_some_and(|s| self.same(s, symbol)))
            .collect()
    }

    /// The names a user may write at `offset` of the edited file: every item's name and the
    /// variables whose scope holds the offset.
    pub(super) fn in_scope(&self, offset: usize) -> Vec<&Symbol> {
        let main = self.main();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for s in self.symbols.iter().rev() {
            let visible = match s.visible {
                None => true,
                Some(v) => s.file == main && v.start <= offset && offset <= v.end,
            };
            if visible && seen.insert((s.name.clone(), s.kind as u8)) {
                out.push(s);
            }
        }
        out
    }
}

/// One pass over an item's expressions, with the variables bound around each.
struct Walk<'i> {
    index: &'i mut Index,
    file: usize,
    /// Innermost last: the variables of each block around the walk.
    scopes: Vec<Vec<usize>>,
}

impl Walk<'_> {
    fn local(&self, name: &str) -> Option<usize> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .copied()
            .find(|&i| self.index.symbols[i].name == name)
    }

    fn use_name(&mut self, name: &str, span: Span, wants: Wants) {
        let symbol = match wants {
            Wants::Value | Wants::Only(Kind::Player) => self.local(name),
            _ => None,
        }
        .or_else(|| self.index.globals(name, wants));
        self.index.occurrences.push(Occurrence {
            file: self.file,
            span,
            symbol,
            declaration: false,
        });
    }

    fn use_ident(&mut self, name: &Ident, wants: Wants) {
        self.use_name(&name.node, name.span, wants);
    }

    /// Binds a variable visible over `visible`, in the innermost scope.
    fn bind(&mut self, name: &Ident, item: Span, visible: Span, detail: &str) {
        let index = &mut *self.index;
        index.symbols.push(Symbol {
            name: name.node.clone(),
            kind: Kind::Variable,
            file: self.file,
            span: name.span,
            item,
            visible: Some(visible),
            detail: detail.to_string(),
        });
        let symbol = index.symbols.len() - 1;
        index.occurrences.push(Occurrence {
            file: self.file,
            span: name.span,
            symbol: Some(symbol),
            declaration: true,
        });
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(symbol);
        } else {
            self.scopes.push(vec![symbol]);
        }
    }

    fn item(&mut self, kind: &ItemKind, span: Span) {
        match kind {
            ItemKind::SetParam { name, .. } => self.use_ident(name, Wants::Only(Kind::Parameter)),
            ItemKind::Board { width, height, .. } => {
                self.expr(width);
                if let Some(h) = height {
                    self.expr(h);
                }
            }
            ItemKind::Removed(e) | ItemKind::Region { value: e, .. } => self.expr(e),
            ItemKind::Counter { value, .. } => self.expr(value),
            ItemKind::Player { attributes, .. } => {
                for (_, value) in attributes {
                    self.expr(value);
                }
            }
            ItemKind::First(p) => self.use_ident(p, Wants::Only(Kind::Player)),
            ItemKind::Def { params, body, .. } => {
                self.scopes.push(Vec::new());
                for p in params {
                    self.bind(p, span, span, "a parameter of this def");
                }
                self.expr(body);
                self.scopes.pop();
            }
            ItemKind::Directions { parts, .. } => {
                for p in parts {
                    if let outflank::syntax::ast::DirectionPart::Name(p) = p {
                        self.use_ident(p, Wants::Only(Kind::Directions));
                    }
                }
            }
            ItemKind::Setup(entries) => {
                for entry in entries {
                    match entry {
                        SetupEntry::Place { player, cells } => {
                            self.use_ident(player, Wants::Only(Kind::Player));
                            for c in cells {
                                self.expr(c);
                            }
                        }
                        SetupEntry::ToMove(p) => self.use_ident(p, Wants::Only(Kind::Player)),
                        SetupEntry::Rows(_) => {}
                    }
                }
            }
            ItemKind::Line {
                elements, along, ..
            } => {
                for e in elements {
                    if let ElementClass::Kind(k) = &e.node.class {
                        self.use_ident(k, Wants::Only(Kind::Piece));
                    }
                }
                if let Some(a) = along {
                    self.use_ident(a, Wants::Only(Kind::Directions));
                }
            }
            ItemKind::Turn(block) | ItemKind::Agreement(block) => self.block(block),
            ItemKind::Example(example) => {
                for step in &example.steps {
                    self.example_step(&step.node);
                }
            }
            ItemKind::End(rule) => {
                self.scopes.push(Vec::new());
                if let Some(p) = &rule.for_each {
                    self.bind(p, span, span, "each player in turn (`for each`)");
                }
                self.expr(&rule.condition);
                if let Some(w) = &rule.winner {
                    self.expr(w);
                }
                self.scopes.pop();
            }
            ItemKind::Score { player, value } | ItemKind::Tiebreak { player, value } => {
                self.scopes.push(Vec::new());
                self.bind(player, span, span, "each player, whose score this is");
                self.expr(value);
                self.scopes.pop();
            }
            ItemKind::Title(_)
            | ItemKind::Source(_)
            | ItemKind::Credit(_)
            | ItemKind::Param { .. }
            | ItemKind::PieceKind { .. }
            | ItemKind::Token(_) => {}
        }
    }

    fn example_step(&mut self, step: &ExampleStep) {
        let player = Wants::Only(Kind::Player);
        match step {
            ExampleStep::Set { name, .. } => self.use_ident(name, Wants::Only(Kind::Parameter)),
            ExampleStep::Position {
                to_move: Some(p), ..
            } => self.use_ident(p, player),
            ExampleStep::Expect(Expectation::ToMove(p) | Expectation::Winner(p)) => {
                self.use_ident(p, player);
            }
            ExampleStep::Expect(Expectation::Scores(scores)) => {
                for (p, _) in scores {
                    self.use_ident(p, player);
                }
            }
            _ => {}
        }
    }

    fn block(&mut self, block: &Block) {
        self.scopes.push(Vec::new());
        for stmt in &block.statements {
            match &stmt.kind {
                StmtKind::Let { name, value } => {
                    self.expr(value);
                    if self.local(&name.node).is_some() {
                        // A second `let` of a name rebinds the same variable.
                        self.use_ident(name, Wants::Value);
                    } else {
                        let visible = Span::new(stmt.span.end, block.span.end);
                        self.bind(
                            name,
                            stmt.span,
                            visible,
                            "bound by `let` for the rest of the turn",
                        );
                    }
                }
                StmtKind::Choose {
                    options, otherwise, ..
                } => {
                    for option in options {
                        self.scopes.push(Vec::new());
                        if let OptionKind::Cell { var, set } = &option.kind {
                            self.expr(set);
                            let visible = Span::new(var.span.start, option.span.end);
                            self.bind(
                                var,
                                option.span,
                                visible,
                                "a cell, the option `choose` takes",
                            );
                        }
                        if let Some(c) = &option.condition {
                            self.expr(c);
                        }
                        self.block(&option.body);
                        self.scopes.pop();
                    }
                    if let Some(b) = otherwise {
                        self.block(b);
                    }
                }
                StmtKind::Place(cell, kind) => {
                    self.expr(cell);
                    if let Some(k) = kind {
                        self.use_ident(k, Wants::Only(Kind::Piece));
                    }
                }
                StmtKind::Flip(e) | StmtKind::Remove(e) | StmtKind::Require(e) => self.expr(e),
                StmtKind::FlipTo(cells, to) => {
                    self.expr(cells);
                    self.expr(to);
                }
                StmtKind::Move { from, to } => {
                    self.expr(from);
                    self.expr(to);
                }
                StmtKind::If {
                    condition,
                    then,
                    otherwise,
                } => {
                    self.expr(condition);
                    self.block(then);
                    if let Some(b) = otherwise {
                        self.block(b);
                    }
                }
                StmtKind::While { condition, body } => {
                    self.expr(condition);
                    self.block(body);
                }
                StmtKind::Repeat { times, body } => {
                    self.expr(times);
                    self.block(body);
                }
                StmtKind::Take(t) => self.use_ident(t, Wants::Only(Kind::Token)),
                StmtKind::Add {
                    counter,
                    amount,
                    player,
                } => {
                    self.use_ident(counter, Wants::Only(Kind::Counter));
                    self.expr(amount);
                    if let Some(p) = player {
                        self.expr(p);
                    }
                }
                StmtKind::Stop | StmtKind::Swap => {}
            }
        }
        self.scopes.pop();
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Name(n) => self.use_name(n, e.span, Wants::Value),
            ExprKind::Call(f, args) => {
                self.use_ident(f, Wants::Call);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::If(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Attr(of, attr) => {
                self.expr(of);
                self.use_ident(attr, Wants::Attribute);
            }
            ExprKind::Quantified {
                var,
                set,
                condition,
                ..
            } => {
                self.expr(set);
                self.scopes.push(Vec::new());
                let visible = Span::new(var.span.start, e.span.end);
                self.bind(var, e.span, visible, "a cell, each of the set in turn");
                self.expr(condition);
                self.scopes.pop();
            }
            ExprKind::Number(_) | ExprKind::Bool(_) | ExprKind::Str(_) => {}
        }
    }
}
