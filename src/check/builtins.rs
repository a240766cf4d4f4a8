//! The language's built-in functions: their arguments, their types and what they fold to.
//! `call` dispatches a name to the method of its group.

use super::expr::{boxed, nonempty, Scope, Typed, FUNCTIONS};
use super::Checker;
use crate::board::geometry::{row_and_column, DirSet};
use crate::diagnostic::closest;
use crate::ir::{Cell, Cond, Num, Player, Set};
use crate::syntax::ast::{Expr, ExprKind, Ident, Quantifier, Span};

/// A call as written: the function's name and its span, the arguments, the whole call's span.
#[derive(Clone, Copy)]
struct Call<'e> {
    name: &'e str,
    name_span: Span,
    args: &'e [Expr],
    span: Span,
}

impl Checker<'_> {
    /// `some c in S where COND` and its kin (see [`Quantifier`]): the cells of `S` that meet
    /// the condition with `c` standing for each. As for a `choose`'s `where`, what of the
    /// condition can be asked of all cells at once becomes set operations; only the rest is
    /// asked cell by cell (`Set::Filter`).
    pub(super) fn quantified(
        &mut self,
        kind: Quantifier,
        var: &Ident,
        set: &Expr,
        condition: &Expr,
        scope: &Scope,
    ) -> Option<Typed> {
        if scope.consts_only {
            let span = var.span.to(condition.span);
            self.error(span, "a quantifier is asked during the game, and this value is fixed before it")
                .label("asked of each cell in play")
                .help("board sizes, regions, setup and attributes are made of parameters, numbers and cell sets: `rows(a, b)`, `cols(a, b)`, `cells(..)`, `ring(c, n)`, with `|`, `&` and `-`")
                .emit();
            return None;
        }
        let cells = self.expect_as::<Set>(set, scope);
        let mut inner = scope.clone();
        let errors = self.diags.errors();
        let reg = super::program::bind(self, &var.node, true, var.span, &mut inner);
        if self.diags.errors() > errors {
            // No register for the variable (said once): quantifiers nested inside are not
            // checked, each of which would say it again.
            return None;
        }
        let holds = self.expect_as::<Cond>(condition, &inner);
        let (mut cells, holds) = (cells?, holds?);
        // Every cell meets it exactly when none fails it.
        let holds = match kind {
            Quantifier::All => Cond::Not(boxed(holds)),
            _ => holds,
        };
        let mut changed = false;
        let met = match super::flow::lift_where(&mut cells, holds, reg, &mut changed) {
            None => cells,
            Some(rest) => Set::Filter(boxed(cells), reg, boxed(rest)),
        };
        Some(match kind {
            Quantifier::Cells => Typed::Set(met),
            Quantifier::Count => Typed::Num(Num::Count(boxed(met))),
            Quantifier::Some => Typed::Bool(Cond::NonEmpty(boxed(met))),
            Quantifier::None | Quantifier::All => {
                Typed::Bool(Cond::Not(boxed(Cond::NonEmpty(boxed(met)))))
            }
        })
    }

    /// A call: a `def` expanded in place, or a built-in function by its group.
    pub(super) fn call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[Expr],
        span: Span,
        scope: &Scope,
    ) -> Option<Typed> {
        if self.defs.contains_key(name) {
            self.used.insert(("def", name.to_string()));
            return self.expand_def(name, span, args, scope);
        }
        let call = Call {
            name,
            name_span,
            args,
            span,
        };
        match name {
            "count" | "some" | "none" => self.counting(&call, scope),
            "captured" | "ends" | "neighbours" | "adjacent" => self.line_call(&call, scope),
            "row" | "column" | "distance" | "ring" | "between" => {
                self.coordinate_call(&call, scope)
            }
            "group" | "liberties" | "surrounded" | "territory" | "holder" => {
                self.group_call(&call, scope)
            }
            "opponent" | "next" => self.player_call(&call, scope),
            "at" | "cells" | "centre" | "rows" | "cols" => self.board_call(&call, scope),
            _ => self.unknown_function(&call),
        }
    }

    /// `count`, `some` and `none`: how many cells a set has.
    fn counting(&mut self, call: &Call<'_>, scope: &Scope) -> Option<Typed> {
        let Call {
            name, args, span, ..
        } = *call;
        match name {
            "count" | "some" | "none" => {
                if !self.arity(name, args, span, &[1], &format!("{name}(SET)")) {
                    return None;
                }
                let s = self.expect_as::<Set>(&args[0], scope)?;
                Some(match name {
                    "count" => Typed::Num(match s {
                        Set::Const(b) => Num::Const(f64::from(b.count())),
                        s => Num::Count(boxed(s)),
                    }),
                    "some" => Typed::Bool(nonempty(s)),
                    _ => Typed::Bool(match nonempty(s) {
                        Cond::Const(b) => Cond::Const(!b),
                        c => Cond::Not(boxed(c)),
                    }),
                })
            }
            _ => unreachable!("dispatched by `call`"),
        }
    }

    /// `captured`, `ends`, `neighbours` and `adjacent`: cells along lines and steps.
    fn line_call(&mut self, call: &Call<'_>, scope: &Scope) -> Option<Typed> {
        let Call {
            name, args, span, ..
        } = *call;
        match name {
            "captured" | "ends" => {
                if !self.arity(name, args, span, &[2], &format!("{name}(LINE, CELL)")) {
                    return None;
                }
                if scope.consts_only {
                    self.state_dependent(name, span);
                    return None;
                }
                let l = self.line_arg(&args[0]);
                let c = self.expect_as::<Cell>(&args[1], scope);
                let (l, c) = (l?, boxed(c?));
                Some(Typed::Set(if name == "captured" {
                    Set::Captured(l, c)
                } else {
                    Set::Ends(l, c)
                }))
            }
            "neighbours" => {
                if !self.arity(
                    name,
                    args,
                    span,
                    &[1, 2],
                    "neighbours(CELL) or neighbours(CELL, DIRECTIONS)",
                ) {
                    return None;
                }
                let c = self.expect_as::<Cell>(&args[0], scope);
                let d = self.steps_arg(args.get(1));
                let (c, (d, leap)) = (c?, d?);
                let near = (d.0 != 0).then(|| self.fold_set(Set::Neighbours(boxed(c.clone()), d)));
                Some(Typed::Set(self.with_leaps(
                    near,
                    Set::Single(boxed(c)),
                    leap,
                )))
            }
            "adjacent" => {
                if !self.arity(
                    name,
                    args,
                    span,
                    &[1, 2],
                    "adjacent(SET) or adjacent(SET, DIRECTIONS)",
                ) {
                    return None;
                }
                let s = self.expect_as::<Set>(&args[0], scope);
                let d = self.steps_arg(args.get(1));
                let (s, (d, leap)) = (s?, d?);
                let near = (d.0 != 0).then(|| self.fold_set(Set::Adjacent(boxed(s.clone()), d)));
                Some(Typed::Set(self.with_leaps(near, s, leap)))
            }
            _ => unreachable!("dispatched by `call`"),
        }
    }

    /// `row`, `column`, `distance`, `ring` and `between`: where cells are.
    fn coordinate_call(&mut self, call: &Call<'_>, scope: &Scope) -> Option<Typed> {
        let Call {
            name, args, span, ..
        } = *call;
        match name {
            "row" | "column" => {
                if !self.arity(name, args, span, &[1], &format!("{name}(CELL)")) {
                    return None;
                }
                let c = self.expect_as::<Cell>(&args[0], scope)?;
                Some(Typed::Num(match c {
                    Cell::Const(c) => {
                        let width = self.geometry_for(span)?.width;
                        let (row, column) = row_and_column(c as usize, width);
                        Num::Const(if name == "row" { row } else { column } as f64)
                    }
                    c if name == "row" => Num::Row(boxed(c)),
                    c => Num::Column(boxed(c)),
                }))
            }
            "distance" => {
                if !self.arity(name, args, span, &[2], "distance(CELL, CELL)") {
                    return None;
                }
                let a = self.expect_as::<Cell>(&args[0], scope);
                let b = self.expect_as::<Cell>(&args[1], scope);
                Some(Typed::Num(match (a?, b?) {
                    (Cell::Const(a), Cell::Const(b)) => {
                        let g = self.geometry_for(span)?;
                        Num::Const(g.distance(a as usize, b as usize) as f64)
                    }
                    (a, b) => Num::Distance(boxed(a), boxed(b)),
                }))
            }
            "ring" => {
                if !self.arity(name, args, span, &[2], "ring(CELL, DISTANCE)") {
                    return None;
                }
                let c = self.expect_as::<Cell>(&args[0], scope);
                let n = self.const_int(&args[1], scope, "a ring's distance");
                let (c, n) = (c?, n?);
                let farthest = match self.farthest {
                    Some(f) => f,
                    None => self.geometry_for(span)?.farthest(),
                };
                self.farthest = Some(farthest);
                let farthest = farthest as i64;
                let g = self.geometry_for(span)?;
                if !(1..=farthest).contains(&n) {
                    self.error(
                        args[1].span,
                        format!("no cell is {n} steps from another here"),
                    )
                    .label("distance out of range")
                    .help(format!(
                        "on this board a ring's distance runs from 1 to {farthest}"
                    ))
                    .emit();
                    return None;
                }
                let n = n as u16;
                if let Cell::Const(c) = c {
                    let mut b = crate::board::bits::Bits::EMPTY;
                    g.ring(c as usize, n).for_each(|r| b.insert(r));
                    return Some(Typed::Set(Set::Const(b)));
                }
                if !self.ring_distances.contains(&n) {
                    self.ring_distances.push(n);
                }
                Some(Typed::Set(Set::Ring(boxed(c), n)))
            }
            "between" => {
                if !self.arity(name, args, span, &[2], "between(CELL, CELL)") {
                    return None;
                }
                let a = self.expect_as::<Cell>(&args[0], scope);
                let b = self.expect_as::<Cell>(&args[1], scope);
                let (a, b) = (a?, b?);
                Some(Typed::Set(self.fold_set(Set::Between(boxed(a), boxed(b)))))
            }
            _ => unreachable!("dispatched by `call`"),
        }
    }

    /// `group`, `liberties`, `surrounded`, `territory` and `holder`: connected pieces and tokens.
    fn group_call(&mut self, call: &Call<'_>, scope: &Scope) -> Option<Typed> {
        let Call {
            name, args, span, ..
        } = *call;
        match name {
            "group" | "liberties" | "surrounded" | "territory" | "holder" => {
                if !self.arity(name, args, span, &[1], &format!("{name}(...)")) {
                    return None;
                }
                if scope.consts_only {
                    self.state_dependent(name, span);
                    return None;
                }
                Some(match name {
                    "group" => {
                        Typed::Set(Set::Group(boxed(self.expect_as::<Cell>(&args[0], scope)?)))
                    }
                    "liberties" => Typed::Set(Set::Liberties(boxed(
                        self.expect_as::<Set>(&args[0], scope)?,
                    ))),
                    "surrounded" => Typed::Set(Set::Surrounded(boxed(
                        self.expect_as::<Set>(&args[0], scope)?,
                    ))),
                    "territory" => Typed::Set(Set::Territory(boxed(
                        self.expect_as::<Player>(&args[0], scope)?,
                    ))),
                    _ => {
                        let token = match &args[0].kind {
                            ExprKind::Name(n) => self.tokens.iter().position(|t| t == n),
                            _ => None,
                        };
                        if let Some(t) = token {
                            self.used.insert(("token", self.tokens[t].clone()));
                            Typed::Player(Player::Holder(t as u8))
                        } else {
                            self.error(args[0].span, "expected the name of a token")
                                .label("not a token")
                                .help("declare tokens with `token NAME`")
                                .emit();
                            return None;
                        }
                    }
                })
            }
            _ => unreachable!("dispatched by `call`"),
        }
    }

    /// `opponent` and `next`: players by seat.
    fn player_call(&mut self, call: &Call<'_>, scope: &Scope) -> Option<Typed> {
        let Call {
            name, args, span, ..
        } = *call;
        match name {
            "opponent" => {
                if !self.arity(name, args, span, &[1], "opponent(PLAYER)") {
                    return None;
                }
                let players = self.player_names.len();
                if players > 2 {
                    self.error(
                        span,
                        format!("`opponent(p)` names the other of two players; these rules have {players}"),
                    )
                    .label("which opponent?")
                    .help("write `next(p)` for the player who moves after p, or name a player; as a set, `opponent` is every other player's pieces")
                    .emit();
                    return None;
                }
                let p = self.expect_as::<Player>(&args[0], scope)?;
                Some(Typed::Player(match p {
                    Player::Const(x) if x < 2 => Player::Const(1 - x),
                    Player::Mover => Player::Other,
                    Player::Other => Player::Mover,
                    p => Player::Opponent(boxed(p)),
                }))
            }
            "next" => {
                if !self.arity(name, args, span, &[1], "next(PLAYER)") {
                    return None;
                }
                let p = self.expect_as::<Player>(&args[0], scope)?;
                let players = self.player_names.len() as u8;
                Some(Typed::Player(match p {
                    Player::Const(x) => Player::Const(crate::ir::next_player(x, players)),
                    Player::Mover if players == 2 => Player::Other,
                    p => Player::Next(boxed(p)),
                }))
            }
            _ => unreachable!("dispatched by `call`"),
        }
    }

    /// `at`, `cells`, `centre`, `rows` and `cols`: fixed cells and blocks of the board.
    fn board_call(&mut self, call: &Call<'_>, scope: &Scope) -> Option<Typed> {
        let Call {
            name, args, span, ..
        } = *call;
        match name {
            "at" => {
                if !self.arity(
                    name,
                    args,
                    span,
                    &[2],
                    "at(COLUMN, ROW) with 1-based numbers",
                ) {
                    return None;
                }
                let x = self.const_int(&args[0], scope, "a column");
                let y = self.const_int(&args[1], scope, "a row");
                let (x, y) = (x?, y?);
                let g = self.geometry_for(span)?;
                if let Some(c) = g.at(x, y) {
                    Some(Typed::Cell(Cell::Const(c as u16)))
                } else {
                    let (w, h) = (g.width, g.height);
                    self.error(span, format!("at({x}, {y}) is off the board"))
                        .label(format!("the board is {w} x {h}"))
                        .help("columns run from 1 to the width, rows from 1 to the height")
                        .emit();
                    None
                }
            }
            "cells" => {
                let mut bits = crate::board::bits::Bits::EMPTY;
                let mut ok = true;
                for a in args {
                    match self.expect_as::<Cell>(a, scope) {
                        Some(Cell::Const(c)) => bits.insert(c as usize),
                        Some(_) => {
                            self.state_dependent("a variable", a.span);
                            ok = false;
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(Typed::Set(Set::Const(bits)))
            }
            "centre" | "rows" | "cols" => {
                let usage = match name {
                    "centre" => "centre(WIDTH, HEIGHT)",
                    "rows" => "rows(FIRST, LAST)",
                    _ => "cols(FIRST, LAST)",
                };
                if !self.arity(name, args, span, &[2], usage) {
                    return None;
                }
                let a = self.const_int(&args[0], scope, "a size");
                let b = self.const_int(&args[1], scope, "a size");
                let (a, b) = (a?, b?);
                let g = self.geometry_for(span)?.clone();
                let (w, h) = (g.width as i64, g.height as i64);
                let bits = match name {
                    "centre" => {
                        if a < 1 || b < 1 || a > w || b > h || (w - a) % 2 != 0 || (h - b) % 2 != 0
                        {
                            self.error(span, format!("centre({a}, {b}) does not sit in the middle of a {w} x {h} board"))
                                .label("no exact centre block")
                                .help("the block must fit and leave equal margins: its width has the parity of the board's width, and likewise its height")
                                .emit();
                            return None;
                        }
                        g.rect(
                            ((w - a) / 2 + 1, i64::midpoint(w, a)),
                            ((h - b) / 2 + 1, i64::midpoint(h, b)),
                        )
                    }
                    "rows" => g.rect((1, w), (a, b)),
                    _ => g.rect((a, b), (1, h)),
                };
                Some(Typed::Set(Set::Const(bits.inter(&g.playable))))
            }
            _ => unreachable!("dispatched by `call`"),
        }
    }

    /// A call of no built-in and no `def`: the nearest name, or the list of built-ins.
    fn unknown_function(&mut self, call: &Call<'_>) -> Option<Typed> {
        let Call {
            name, name_span, ..
        } = *call;
        let mut candidates: Vec<String> = FUNCTIONS
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        candidates.extend(self.defs.keys().cloned());
        let suggestion = closest(name, &candidates);
        let help = match &suggestion {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("the built-in functions are: {}", FUNCTIONS.join(", ")),
        };
        self.error(name_span, format!("unknown function `{name}`"))
            .label("not a function")
            .help(help)
            .suggest(suggestion)
            .emit();
        None
    }

    fn arity(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
        allowed: &[usize],
        usage: &str,
    ) -> bool {
        if allowed.contains(&args.len()) {
            return true;
        }
        self.error(
            span,
            format!(
                "`{name}` does not take {}",
                crate::diagnostic::count_of(args.len() as u64, "argument")
            ),
        )
        .label("wrong number of arguments")
        .help(format!("write {usage}"))
        .emit();
        false
    }

    // The arguments that name a direction set or a line, and the sets folded where known.

    pub(super) fn dirs_arg(&mut self, e: &Expr) -> Option<DirSet> {
        if let ExprKind::Name(n) = &e.kind {
            let name = crate::syntax::ast::Spanned {
                node: n.clone(),
                span: e.span,
            };
            return self.direction_set(&name);
        }
        self.error(e.span, "expected a direction set")
            .label("not a direction set")
            .help(DirSet::NAMES_HELP)
            .emit();
        None
    }

    /// The steps `neighbours` and `adjacent` take: a direction set (all directions when none
    /// is given), and the leaps of a set that has some.
    pub(super) fn steps_arg(&mut self, e: Option<&Expr>) -> Option<(DirSet, Option<usize>)> {
        let Some(e) = e else {
            return Some((DirSet::ALL, None));
        };
        if let ExprKind::Name(n) = &e.kind {
            if let Some((d, i)) = self.leap_set(n) {
                return Some((d, Some(i)));
            }
        }
        Some((self.dirs_arg(e)?, None))
    }

    /// `near`, the cells a compass step from `from` (None for a set without compass
    /// directions), and the cells one of leap set `leap`'s leaps from it, folded where `from`
    /// is known.
    pub(super) fn with_leaps(&self, near: Option<Set>, from: Set, leap: Option<usize>) -> Set {
        let Some(i) = leap else {
            return near.unwrap_or(Set::Const(crate::board::bits::Bits::EMPTY));
        };
        let leaps = self.fold_set(Set::Leap(Box::new(from), i));
        let Some(near) = near else {
            return leaps;
        };
        match (near, leaps) {
            (Set::Const(a), b) if a.is_empty() => b,
            (Set::Const(a), Set::Const(b)) => Set::Const(a.union(&b)),
            (a, b) => Set::Union(Box::new(a), Box::new(b)),
        }
    }

    pub(super) fn line_arg(&mut self, e: &Expr) -> Option<usize> {
        if let ExprKind::Name(n) = &e.kind {
            if let Some(i) = self.lines.iter().position(|l| l.name == *n) {
                self.used.insert(("line", n.clone()));
                return Some(i);
            }
        }
        let names: Vec<String> = self.lines.iter().map(|l| l.name.clone()).collect();
        let help = if names.is_empty() {
            "declare a line pattern first, e.g. `line outflank = opponent+ friend`".to_string()
        } else {
            format!("the declared lines are: {}", names.join(", "))
        };
        self.error(e.span, "expected the name of a line pattern")
            .label("not a line")
            .help(help)
            .emit();
        None
    }

    /// Folds a set whose inputs are all constants into a constant, using the board's tables.
    pub(super) fn fold_set(&self, s: Set) -> Set {
        let Some(g) = &self.geometry else { return s };
        match &s {
            Set::Neighbours(c, d) => {
                if let Cell::Const(c) = **c {
                    let mut b = crate::board::bits::Bits::EMPTY;
                    for dir in d.iter() {
                        let n = g.neighbours[c as usize][dir];
                        if n != crate::board::geometry::NONE {
                            b.insert(n as usize);
                        }
                    }
                    return Set::Const(b);
                }
                s
            }
            Set::Leap(inner, i) => {
                let from = match &**inner {
                    Set::Const(b) => *b,
                    Set::Single(c) => match **c {
                        Cell::Const(c) => {
                            let mut b = crate::board::bits::Bits::EMPTY;
                            b.insert(usize::from(c));
                            b
                        }
                        _ => return s,
                    },
                    _ => return s,
                };
                let mut b = crate::board::bits::Bits::EMPTY;
                for c in from.iter() {
                    for &v in &self.leaps[*i] {
                        if let Some(to) = g.leap(c, v) {
                            b.insert(to);
                        }
                    }
                }
                Set::Const(b)
            }
            Set::Adjacent(inner, d) => {
                if let Set::Const(src) = **inner {
                    let mut b = crate::board::bits::Bits::EMPTY;
                    for c in src.iter() {
                        for dir in d.iter() {
                            let n = g.neighbours[c][dir];
                            if n != crate::board::geometry::NONE {
                                b.insert(n as usize);
                            }
                        }
                    }
                    return Set::Const(b);
                }
                s
            }
            _ => s,
        }
    }
}
