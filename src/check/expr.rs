//! Typing and compiling expressions into the IR.

use super::Checker;
use crate::diagnostic::closest;
use crate::ir::{Cell, Cmp, Cond, Num, Player, Set};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Span, UnaryOp};

/// A compiled expression with its type.
#[derive(Clone, Debug)]
pub(super) enum Typed {
    Num(Num),
    Bool(Cond),
    Cell(Cell),
    Set(Set),
    Player(Player),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Type {
    Num,
    Bool,
    Cell,
    Set,
    Player,
}

/// A type of the language as its IR form, for [`Checker::expect_as`].
pub(super) trait TypedAs: Sized {
    const TYPE: Type;
    fn take(t: Typed) -> Option<Self>;
}

macro_rules! typed_as {
    ($($ir:ident => $variant:ident),*) => {$(
        impl TypedAs for $ir {
            const TYPE: Type = Type::$variant;
            fn take(t: Typed) -> Option<Self> {
                match t {
                    Typed::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    )*};
}

typed_as!(Num => Num, Cond => Bool, Cell => Cell, Set => Set, Player => Player);

impl Type {
    pub(super) fn describe(self) -> &'static str {
        match self {
            Type::Num => "a number",
            Type::Bool => "a condition",
            Type::Cell => "a cell",
            Type::Set => "a set of cells",
            Type::Player => "a player",
        }
    }
}

impl Typed {
    pub(super) fn ty(&self) -> Type {
        match self {
            Typed::Num(_) => Type::Num,
            Typed::Bool(_) => Type::Bool,
            Typed::Cell(_) => Type::Cell,
            Typed::Set(_) => Type::Set,
            Typed::Player(_) => Type::Player,
        }
    }
}

/// What the expression may refer to.
#[derive(Clone, Debug, Default)]
pub(super) struct Scope {
    /// Only parameters and geometry: board size, regions, setup, attributes.
    pub consts_only: bool,
    /// The name of the player bound by `score p`, `tiebreak p` or `for each p`.
    pub bound_player: Option<String>,
    /// Turn variables: name, register, is a cell (else a number).
    pub locals: Vec<(String, u8, bool)>,
    /// Arguments of the `def` being expanded.
    pub def_args: Vec<(String, Typed)>,
    /// Variables whose `let` was refused (reported there): their uses are not reported again
    /// as unknown names.
    pub refused: Vec<String>,
}

/// Defs inside one another: a chain this long is far past any rules file, and the checker
/// recurses once per level.
pub(super) const MAX_DEF_DEPTH: usize = 256;

/// Def expansions in one file: each use copies the def, so defs that use another twice double
/// at each level, and this bounds the work and the size of the compiled rules.
pub(super) const MAX_DEF_EXPANSIONS: usize = 10_000;

/// Regions every board has: a rules file may define its own under these names.
pub(super) const BUILTIN_REGIONS: &[&str] = &["all", "corners", "border"];

pub const STATE_NAMES: &[&str] = &[
    "empty", "friend", "opponent", "pieces", "mover", "turn", "passes", "blocked",
];

pub const FUNCTIONS: &[&str] = &[
    "count",
    "some",
    "none",
    "captured",
    "ends",
    "neighbours",
    "adjacent",
    "between",
    "group",
    "liberties",
    "surrounded",
    "territory",
    "holder",
    "opponent",
    "next",
    "at",
    "cells",
    "centre",
    "rows",
    "cols",
    "row",
    "column",
    "distance",
    "ring",
];

pub(super) fn boxed<T>(t: T) -> Box<T> {
    Box::new(t)
}

impl Checker<'_> {
    pub(super) fn expr(&mut self, e: &Expr, scope: &Scope) -> Option<Typed> {
        match &e.kind {
            ExprKind::Number(n) => Some(Typed::Num(Num::Const(*n))),
            ExprKind::Bool(b) => Some(Typed::Bool(Cond::Const(*b))),
            ExprKind::Str(_) => {
                self.error(e.span, "a string cannot be used as a value")
                    .label("string here")
                    .help("strings are for titles, credits, marks and word options")
                    .emit();
                None
            }
            ExprKind::Name(name) => self.name(name, e.span, scope),
            ExprKind::Call(name, args) => self.call(&name.node, name.span, args, e.span, scope),
            ExprKind::Unary(UnaryOp::Not, inner) => {
                let c = self.expect_as::<Cond>(inner, scope)?;
                Some(Typed::Bool(match c {
                    Cond::Const(b) => Cond::Const(!b),
                    c => Cond::Not(boxed(c)),
                }))
            }
            ExprKind::Unary(UnaryOp::Neg, inner) => {
                let n = self.expect_as::<Num>(inner, scope)?;
                Some(Typed::Num(match n {
                    Num::Const(v) => Num::Const(-v),
                    n => Num::Neg(boxed(n)),
                }))
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span, scope),
            ExprKind::Quantified {
                kind,
                var,
                set,
                condition,
            } => self.quantified(*kind, var, set, condition, scope),
            ExprKind::If(c, a, b) => {
                let c = self.expect_as::<Cond>(c, scope);
                let a_t = self.expr(a, scope);
                let b_t = self.expr(b, scope);
                let (c, a_t, b_t) = (c?, a_t?, b_t?);
                // A condition known when the rules are checked picks its branch there.
                let pick = match c {
                    Cond::Const(true) => Some(true),
                    Cond::Const(false) => Some(false),
                    _ => None,
                };
                match (a_t, b_t) {
                    (x, y) if pick.is_some() && x.ty() == y.ty() => {
                        Some(if pick == Some(true) { x } else { y })
                    }
                    (Typed::Num(x), Typed::Num(y)) => {
                        Some(Typed::Num(Num::If(boxed(c), boxed(x), boxed(y))))
                    }
                    (Typed::Set(x), Typed::Set(y)) => {
                        Some(Typed::Set(Set::If(boxed(c), boxed(x), boxed(y))))
                    }
                    (Typed::Player(x), Typed::Player(y)) => {
                        Some(Typed::Player(Player::If(boxed(c), boxed(x), boxed(y))))
                    }
                    (Typed::Cell(x), Typed::Cell(y)) => {
                        Some(Typed::Cell(Cell::If(boxed(c), boxed(x), boxed(y))))
                    }
                    // A condition chosen by a condition: true when the chosen one holds.
                    (Typed::Bool(x), Typed::Bool(y)) => Some(Typed::Bool(Cond::Or(
                        boxed(Cond::And(boxed(c.clone()), boxed(x))),
                        boxed(Cond::And(boxed(Cond::Not(boxed(c))), boxed(y))),
                    ))),
                    (x, y) => {
                        self.error(e.span, "the branches of this if must be of one type")
                            .label(format!(
                                "then gives {}, else gives {}",
                                x.ty().describe(),
                                y.ty().describe()
                            ))
                            .help("both branches must give numbers, or both sets, players, cells or conditions")
                            .emit();
                        None
                    }
                }
            }
            ExprKind::Attr(target, attr) => {
                let p = self.expect_as::<Player>(target, scope)?;
                if let Some(i) = self.counters.iter().position(|(n, _)| *n == attr.node) {
                    if scope.consts_only {
                        self.state_dependent(&attr.node, attr.span);
                        return None;
                    }
                    self.used.insert(("counter", attr.node.clone()));
                    return Some(Typed::Num(Num::Counter(boxed(p), i as u8)));
                }
                if let Some(i) = self.attributes.iter().position(|(n, _)| *n == attr.node) {
                    Some(Typed::Num(match p {
                        Player::Const(pl) => Num::Const(self.attributes[i].1[pl as usize]),
                        p => Num::Attr(boxed(p), i),
                    }))
                } else {
                    let mut known: Vec<String> = (self.attributes.iter().map(|(n, _)| n))
                        .chain(self.counters.iter().map(|(n, _)| n))
                        .cloned()
                        .collect();
                    known.dedup();
                    self.error(
                        attr.span,
                        format!("players have no attribute or counter `{}`", attr.node),
                    )
                    .label("unknown attribute")
                    .help(if known.is_empty() {
                        "declare one with `player NAME 'S' with NAME = VALUE`, or a counter with `counter NAME = START`".to_string()
                    } else {
                        format!("the attributes and counters are: {}", known.join(", "))
                    })
                    .emit();
                    None
                }
            }
        }
    }

    pub(super) fn state_dependent(&mut self, what: &str, span: Span) {
        self.error(span, format!("`{what}` depends on the position, but this value must be fixed"))
            .label("changes during the game")
            .help("board sizes, regions, setup and attributes may use only parameters, numbers and cell names")
            .emit();
    }

    fn name(&mut self, name: &str, span: Span, scope: &Scope) -> Option<Typed> {
        if let Some((_, t)) = scope.def_args.iter().rev().find(|(n, _)| n == name) {
            return Some(t.clone());
        }
        if let Some(&(_, reg, is_cell)) = scope.locals.iter().rev().find(|(n, _, _)| n == name) {
            return Some(if is_cell {
                Typed::Cell(Cell::Reg(reg))
            } else {
                Typed::Num(Num::Reg(reg))
            });
        }
        if scope.bound_player.as_deref() == Some(name) {
            return Some(Typed::Player(Player::Bound));
        }
        if scope.refused.iter().any(|n| n == name) {
            return None;
        }
        if let Some(v) = super::params::param_value(self, name) {
            self.used.insert(("param", name.to_string()));
            return Some(v);
        }
        if let Some(bits) = super::board::region(self, name, span) {
            self.used.insert(("region", name.to_string()));
            return Some(Typed::Set(Set::Const(bits)));
        }
        if self.defs.contains_key(name) {
            self.used.insert(("def", name.to_string()));
            return self.expand_def(name, span, &[], scope);
        }
        if let Some(p) = self.player_names.iter().position(|n| n == name) {
            return Some(Typed::Player(Player::Const(p as u8)));
        }
        if let Some(k) = self.kind_names.iter().position(|n| n == name) {
            // A kind's pieces, kept in the slot after the players' and the kinds' before it.
            let slot = (self.player_names.len() + k) as u8;
            return Some(Typed::Set(Set::Pieces(boxed(Player::Const(slot)))));
        }
        if STATE_NAMES.contains(&name) && scope.consts_only {
            self.state_dependent(name, span);
            return None;
        }
        let builtin = match name {
            "empty" => Typed::Set(Set::Empty),
            "friend" => Typed::Set(Set::Pieces(boxed(Player::Mover))),
            "opponent" => Typed::Set(Set::Pieces(boxed(Player::Other))),
            "pieces" => Typed::Set(Set::AllPieces),
            "mover" => Typed::Player(Player::Mover),
            "turn" => Typed::Num(Num::Turn),
            "passes" => Typed::Num(Num::Passes),
            "blocked" if self.in_turn => {
                self.error(span, "`blocked` cannot be asked during a turn")
                    .label("asked inside the turn")
                    .help("`blocked` runs the turn for both players to see whether either can move, so asking it inside the turn never ends; use it in `end when` (a choice with no option is already a pass)")
                    .emit();
                return None;
            }
            "blocked" => Typed::Bool(Cond::Blocked),
            "nobody" => Typed::Player(Player::Const(crate::ir::NOBODY)),
            "all" | "corners" | "border" => {
                debug_assert!(BUILTIN_REGIONS.contains(&name));
                let g = self.geometry_for(span)?;
                Typed::Set(Set::Const(match name {
                    "all" => g.playable,
                    "corners" => g.corners().inter(&g.playable),
                    _ => g.border().inter(&g.playable),
                }))
            }
            _ => {
                if let Some(g) = &self.geometry {
                    if let Some(cell) = g.parse(name) {
                        return Some(Typed::Cell(Cell::Const(cell as u16)));
                    }
                }
                let mut candidates: Vec<String> = scope
                    .locals
                    .iter()
                    .map(|(n, _, _)| n.clone())
                    .chain(self.params.keys().cloned())
                    .chain(self.regions.keys().cloned())
                    .chain(self.defs.keys().cloned())
                    .chain(self.player_names.iter().cloned())
                    .chain(self.kind_names.iter().cloned())
                    .chain(STATE_NAMES.iter().map(std::string::ToString::to_string))
                    .chain(
                        ["all", "corners", "border", "nobody"]
                            .iter()
                            .map(std::string::ToString::to_string),
                    )
                    .collect();
                candidates.sort();
                let off_board = self
                    .geometry
                    .as_ref()
                    .filter(|g| looks_like_cell(name) && g.parse(name).is_none());
                let suggestion = closest(name, &candidates).filter(|_| off_board.is_none());
                let help = match (&suggestion, off_board) {
                    (_, Some(g)) => format!(
                        "the board is {} x {}: columns a to {}, rows 1 to {}",
                        g.width,
                        g.height,
                        (b'a' + g.width as u8 - 1) as char,
                        g.height
                    ),
                    (Some(c), None) => format!("did you mean `{c}`?"),
                    (None, None) => "declare it first: param, region, def, player, or a variable bound by choose or let".into(),
                };
                let extra = if off_board.is_some() {
                    " (not a cell of this board)"
                } else {
                    ""
                };
                self.error(span, format!("unknown name `{name}`{extra}"))
                    .label("not defined")
                    .help(help)
                    .suggest(suggestion)
                    .emit();
                return None;
            }
        };
        Some(builtin)
    }

    pub(super) fn expand_def(
        &mut self,
        name: &str,
        span: Span,
        args: &[Expr],
        scope: &Scope,
    ) -> Option<Typed> {
        let (params, body) = self.defs.get(name).cloned()?;
        if params.len() != args.len() {
            self.error(
                span,
                format!(
                    "`{name}` takes {}, {} given",
                    crate::diagnostic::count_of(params.len() as u64, "argument"),
                    args.len()
                ),
            )
            .label("wrong number of arguments")
            .help(format!("write {name}({})", params.join(", ")))
            .emit();
            return None;
        }
        if let Some(at) = self.expanding.iter().position(|d| d == name) {
            let mut cycle = self.expanding[at..].to_vec();
            cycle.push(name.to_string());
            self.error(span, format!("`{name}` expands into itself"))
                .label(format!("recursive use: {}", cycle.join(" -> ")))
                .help("a def is expanded where it is used, so it cannot refer to itself")
                .emit();
            return None;
        }
        if self.expanding.len() >= MAX_DEF_DEPTH {
            self.error(
                span,
                format!("defs expand more than {MAX_DEF_DEPTH} deep here"),
            )
            .label(format!(
                "`{name}` is the {}th inside one another",
                MAX_DEF_DEPTH + 1
            ))
            .help("write some of the chain's defs out in full")
            .emit();
            return None;
        }
        self.expansions += 1;
        if self.expansions > MAX_DEF_EXPANSIONS {
            if self.expansions == MAX_DEF_EXPANSIONS + 1 {
                self.error(span, format!("the defs expand into more than {MAX_DEF_EXPANSIONS} copies"))
                    .label("expanded here once too often")
                    .help("a def is copied wherever it is used: defs that use others twice or more double at each level; use a turn variable (let) or fewer levels")
                    .emit();
            }
            return None;
        }
        let mut inner = Scope {
            consts_only: scope.consts_only,
            bound_player: None,
            locals: Vec::new(),
            def_args: Vec::new(),
            refused: Vec::new(),
        };
        for (p, a) in params.iter().zip(args) {
            let t = self.expr(a, scope)?;
            inner.def_args.push((p.clone(), t));
        }
        let saved = self.current_file;
        self.current_file = body.1;
        self.expanding.push(name.to_string());
        let r = self.expr(body.0, &inner);
        self.expanding.pop();
        self.current_file = saved;
        r
    }

    pub(super) fn expect(&mut self, e: &Expr, scope: &Scope, want: Type) -> Option<Typed> {
        let t = self.expr(e, scope)?;
        let t = match (t, want) {
            (Typed::Player(p), Type::Set) => Typed::Set(Set::Pieces(boxed(p))),
            (Typed::Cell(c), Type::Set) => Typed::Set(Set::Single(boxed(c))),
            (t, _) => t,
        };
        if t.ty() == want {
            return Some(t);
        }
        let help = match (want, t.ty()) {
            (Type::Bool, Type::Set) => "test a set with some(S) or none(S)",
            (Type::Bool, Type::Num) => "compare the number, e.g. count(S) > 0",
            (Type::Num, Type::Set) => "count the cells with count(S)",
            (Type::Set, Type::Num) => {
                "a set of cells is needed here; perhaps drop the count(...) around it"
            }
            (Type::Cell, Type::Set) => {
                "a single cell is needed here; choose one with `choose x in S`"
            }
            _ => "see the table of types and built-ins in docs/LANGUAGE.md",
        };
        self.error(
            e.span,
            format!("expected {}, found {}", want.describe(), t.ty().describe()),
        )
        .label(format!("this is {}", t.ty().describe()))
        .help(help)
        .emit();
        None
    }

    /// [`Checker::expect`], as the IR form of the type asked for.
    pub(super) fn expect_as<T: TypedAs>(&mut self, e: &Expr, scope: &Scope) -> Option<T> {
        T::take(self.expect(e, scope, T::TYPE)?)
    }

    /// A whole number known now (parameters and arithmetic only).
    pub(super) fn const_int(&mut self, e: &Expr, scope: &Scope, what: &str) -> Option<i64> {
        let n = self.expect_as::<Num>(e, scope)?;
        match n {
            Num::Const(v) if v.fract() == 0.0 && v.abs() < 1e9 => Some(v as i64),
            Num::Const(v) => {
                self.error(
                    e.span,
                    format!("{what} must be a whole number, this is {v}"),
                )
                .label("not whole")
                .help("adjust the parameters or the arithmetic so the value is whole")
                .emit();
                None
            }
            _ => {
                self.error(
                    e.span,
                    format!("{what} must be known before the game starts"),
                )
                .label("depends on the position")
                .help("use parameters and numbers only")
                .emit();
                None
            }
        }
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        span: Span,
        scope: &Scope,
    ) -> Option<Typed> {
        use BinaryOp::{Add, And, Div, Eq, Ge, Gt, In, Inter, Le, Lt, Mul, Ne, Or, Sub, Union};
        match op {
            Or | And => {
                let x = self.expect_as::<Cond>(a, scope);
                let y = self.expect_as::<Cond>(b, scope);
                let (x, y) = (x?, y?);
                // A side known before the game decides or drops out: `turn == 1 and
                // handicap > 0` with no handicap is never tested in play.
                Some(Typed::Bool(match (op, x, y) {
                    (And, Cond::Const(false), _) | (And, _, Cond::Const(false)) => {
                        Cond::Const(false)
                    }
                    (Or, Cond::Const(true), _) | (Or, _, Cond::Const(true)) => Cond::Const(true),
                    (And, Cond::Const(true), z) | (And, z, Cond::Const(true)) => z,
                    (Or, Cond::Const(false), z) | (Or, z, Cond::Const(false)) => z,
                    (And, x, y) => Cond::And(boxed(x), boxed(y)),
                    (_, x, y) => Cond::Or(boxed(x), boxed(y)),
                }))
            }
            In => {
                let c = self.expect_as::<Cell>(a, scope);
                let s = self.expect_as::<Set>(b, scope);
                let (c, s) = (c?, s?);
                Some(Typed::Bool(match (&c, &s) {
                    (Cell::Const(c), Set::Const(s)) => Cond::Const(s.contains(*c as usize)),
                    _ => Cond::In(boxed(c), boxed(s)),
                }))
            }
            Union | Inter => {
                let x = self.expect_as::<Set>(a, scope);
                let y = self.expect_as::<Set>(b, scope);
                let (x, y) = (x?, y?);
                Some(Typed::Set(match (op, x, y) {
                    (Union, Set::Const(p), Set::Const(q)) => Set::Const(p.union(&q)),
                    (Inter, Set::Const(p), Set::Const(q)) => Set::Const(p.inter(&q)),
                    (Union, x, y) => Set::Union(boxed(x), boxed(y)),
                    (_, x, y) => Set::Inter(boxed(x), boxed(y)),
                }))
            }
            Add | Sub | Mul | Div => self.arithmetic(op, a, b, span, scope),
            Eq | Ne | Lt | Le | Gt | Ge => self.comparison(op, a, b, span, scope),
        }
    }

    /// `+ - * /` on numbers (folded when both are known), and `-` on sets.
    fn arithmetic(
        &mut self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        span: Span,
        scope: &Scope,
    ) -> Option<Typed> {
        use BinaryOp::{Add, Div, Mul, Sub};
        let x = self.expr(a, scope)?;
        if op == Sub && matches!(x.ty(), Type::Set | Type::Player) {
            let x = match x {
                Typed::Player(p) => Set::Pieces(boxed(p)),
                Typed::Set(s) => s,
                _ => unreachable!(),
            };
            let y = self.expect_as::<Set>(b, scope)?;
            return Some(Typed::Set(match (x, y) {
                (Set::Const(p), Set::Const(q)) => Set::Const(p.minus(&q)),
                (x, y) => Set::Minus(boxed(x), boxed(y)),
            }));
        }
        let Typed::Num(x) = x else {
            self.error(
                a.span,
                format!(
                    "`{}` needs numbers, this is {}",
                    op.symbol(),
                    x.ty().describe()
                ),
            )
            .label("not a number")
            .help("arithmetic works on numbers; `-` also subtracts sets")
            .emit();
            return None;
        };
        let y = self.expect_as::<Num>(b, scope)?;
        if let (Num::Const(p), Num::Const(q)) = (&x, &y) {
            let v = match op {
                Add => p + q,
                Sub => p - q,
                Mul => p * q,
                _ => {
                    if *q == 0.0 {
                        self.error(span, "division by zero")
                            .label("the divisor is 0")
                            .help("check the parameters used here")
                            .emit();
                        return None;
                    }
                    p / q
                }
            };
            return Some(Typed::Num(Num::Const(v)));
        }
        if op == Div {
            self.divisor_can_be_zero(b.span, &y);
        }
        Some(Typed::Num(match op {
            Add => Num::Add(boxed(x), boxed(y)),
            Sub => Num::Sub(boxed(x), boxed(y)),
            Mul => Num::Mul(boxed(x), boxed(y)),
            _ => Num::Div(boxed(x), boxed(y)),
        }))
    }

    /// `== != < <= > >=`: numbers in order, other values of one type for equality.
    fn comparison(
        &mut self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        span: Span,
        scope: &Scope,
    ) -> Option<Typed> {
        use BinaryOp::{Eq, Gt, Le, Lt, Ne};
        let x = self.expr(a, scope);
        let y = self.expr(b, scope);
        let (x, y) = (x?, y?);
        let eq = op == Eq;
        let cmp = match op {
            Eq => Cmp::Eq,
            Ne => Cmp::Ne,
            Lt => Cmp::Lt,
            Le => Cmp::Le,
            Gt => Cmp::Gt,
            _ => Cmp::Ge,
        };
        let ordered = !matches!(op, Eq | Ne);
        match (x, y) {
            (Typed::Num(x), Typed::Num(y)) => Some(Typed::Bool(match (&x, &y) {
                (Num::Const(p), Num::Const(q)) => Cond::Const(cmp.holds(*p, *q)),
                _ => Cond::Num(cmp, boxed(x), boxed(y)),
            })),
            (Typed::Player(x), Typed::Player(y)) if !ordered => {
                Some(Typed::Bool(Cond::Player(eq, boxed(x), boxed(y))))
            }
            (Typed::Cell(x), Typed::Cell(y)) if !ordered => {
                Some(Typed::Bool(Cond::Cell(eq, boxed(x), boxed(y))))
            }
            (Typed::Set(x), Typed::Set(y)) if !ordered => {
                Some(Typed::Bool(Cond::SetEq(eq, boxed(x), boxed(y))))
            }
            (Typed::Bool(x), Typed::Bool(y)) if !ordered => {
                // Equal conditions: both true or both false.
                let both = Cond::Or(
                    boxed(Cond::And(boxed(x.clone()), boxed(y.clone()))),
                    boxed(Cond::And(
                        boxed(Cond::Not(boxed(x))),
                        boxed(Cond::Not(boxed(y))),
                    )),
                );
                Some(Typed::Bool(if eq { both } else { Cond::Not(boxed(both)) }))
            }
            (x, y) => {
                self.error(
                    span,
                    format!(
                        "cannot compare {} with {} using `{}`",
                        x.ty().describe(),
                        y.ty().describe(),
                        op.symbol()
                    ),
                )
                .label("mismatched comparison")
                .help("< <= > >= compare numbers; == and != compare two values of the same type")
                .emit();
                None
            }
        }
    }
}

/// `some(S)`, with the forms that can be answered without building `S` recognised.
pub(super) fn nonempty(s: Set) -> Cond {
    match s {
        Set::Const(b) => Cond::Const(!b.is_empty()),
        Set::Captured(l, c) => Cond::AnyLine(l, c),
        Set::Liberties(inner) => match *inner {
            Set::Group(c) => Cond::Breathes(c),
            other => Cond::NonEmpty(boxed(Set::Liberties(boxed(other)))),
        },
        s => Cond::NonEmpty(boxed(s)),
    }
}

fn looks_like_cell(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}
