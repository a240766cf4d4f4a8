//! The turn block -> a flat instruction list, plus the two facts the engine needs about it:
//! which choices are the last of their turn, and which options must be tried to be judged.

use super::expr::{Scope, Type, Typed};
use super::flow::{analyse, compact, lift_where, thread_jumps};
use super::Checker;
use crate::ir::{
    Alt, AltKind, Cell, Choose, Cmp, Cond, Instr, Loc, LoopSpan, Num, Player, RegValue, Set,
    MAX_OPTIONS, MAX_REGISTERS,
};
use crate::syntax::ast::{Block, ChoiceOption, Expr, Ident, OptionKind, Span, Stmt, StmtKind};

/// Compiles the turn program and, after it, the agreement program if there is one; returns
/// the code and where the agreement starts.
pub(super) fn program(
    ck: &mut Checker<'_>,
    turn: (u16, &Block),
    agreement: Option<(u16, &Block)>,
) -> (Vec<Instr>, Option<u32>) {
    let mut code = Vec::new();
    ck.current_file = turn.0;
    compile_block(ck, turn.1, &mut Scope::default(), &mut code);
    let mut entry = None;
    if let Some((file, block)) = agreement {
        // The turn program must end before the agreement's code begins.
        code.push(Instr::Stop);
        entry = Some(code.len() as u32);
        ck.current_file = file;
        compile_block(ck, block, &mut Scope::default(), &mut code);
    }
    thread_jumps(&mut code);
    compact(&mut code, &mut entry, &mut ck.loops);
    analyse(&mut code);
    (code, entry)
}

fn loc(ck: &Checker<'_>, span: Span) -> Loc {
    Loc {
        file: ck.current_file,
        span,
    }
}

/// Files a loop starting at `top`, written from `keyword` to the end of its `head` (the
/// condition or count); the caller sets its end once the body is compiled.
fn open_loop(ck: &mut Checker<'_>, top: usize, keyword: Span, head: Span) -> usize {
    ck.loops.push(LoopSpan {
        start: top as u32,
        end: top as u32,
        loc: loc(
            ck,
            Span {
                start: keyword.start,
                end: head.end,
            },
        ),
    });
    ck.loops.len() - 1
}

fn compile_block(ck: &mut Checker<'_>, block: &Block, scope: &mut Scope, code: &mut Vec<Instr>) {
    let depth = scope.locals.len();
    for stmt in &block.statements {
        statement(ck, stmt, scope, code);
    }
    scope.locals.truncate(depth);
}

/// A new register for a variable of this block.
pub(super) fn bind(
    ck: &mut Checker<'_>,
    name: &str,
    is_cell: bool,
    span: Span,
    scope: &mut Scope,
) -> u8 {
    // Counters take a register per player each, from the top (see `ir::counter_slot`).
    let limit = MAX_REGISTERS - ck.player_names.len() * ck.counters.len();
    let reg = scope.locals.len();
    if reg >= limit {
        let counters = if ck.counters.is_empty() {
            String::new()
        } else {
            format!(", with {} counters declared", ck.counters.len())
        };
        ck.error(
            span,
            format!("too many variables alive at once (at most {limit}{counters})"),
        )
        .label("one too many")
        .help("reuse a variable with let, or close blocks earlier")
        .emit();
    }
    let reg = reg.min(limit - 1) as u8;
    scope.locals.push((name.to_string(), reg, is_cell));
    ck.registers = ck.registers.max(scope.locals.len().min(limit));
    reg
}

fn statement(ck: &mut Checker<'_>, stmt: &Stmt, scope: &mut Scope, code: &mut Vec<Instr>) {
    match &stmt.kind {
        StmtKind::Choose {
            auto,
            options,
            otherwise,
        } => choose(ck, *auto, options, otherwise.as_ref(), scope, code),
        StmtKind::Place(e, kind) => {
            let slot = match kind {
                None => None,
                Some(kind) => {
                    if let Some(k) = ck.kind_names.iter().position(|n| *n == kind.node) {
                        Some((ck.player_names.len() + k) as u8)
                    } else {
                        super::players::unknown_kind(ck, kind);
                        return;
                    }
                }
            };
            if let Some(c) = ck.expect_as::<Cell>(e, scope) {
                let loc = loc(ck, stmt.span);
                code.push(match slot {
                    None => Instr::Place(c, loc),
                    Some(slot) => Instr::PlaceKind(c, slot, loc),
                });
            }
        }
        StmtKind::Flip(e) => {
            if let Some(s) = ck.expect_as::<Set>(e, scope) {
                code.push(Instr::Flip(s));
            }
        }
        StmtKind::FlipTo(cells, to) => {
            let s = ck.expect_as::<Set>(cells, scope);
            let p = ck.expect_as::<Player>(to, scope);
            if let (Some(s), Some(p)) = (s, p) {
                code.push(Instr::FlipTo(s, p));
            }
        }
        StmtKind::Remove(e) => {
            if let Some(s) = ck.expect_as::<Set>(e, scope) {
                code.push(Instr::Remove(s));
            }
        }
        StmtKind::Swap => {
            let players = ck.player_names.len();
            if players == 2 {
                code.push(Instr::Swap);
            } else {
                ck.error(stmt.span, format!("`swap` needs two players, and these rules have {players}"))
                    .label("two players exchange sides")
                    .help("`swap` gives each of two players the other's pieces, counters and tokens; with more players, give pieces with `flip S to P`")
                    .emit();
            }
        }
        StmtKind::Move { from, to } => {
            let a = ck.expect_as::<Cell>(from, scope);
            let b = ck.expect_as::<Cell>(to, scope);
            if let (Some(a), Some(b)) = (a, b) {
                code.push(Instr::Move(a, b, loc(ck, stmt.span)));
            }
        }
        StmtKind::Let { name, value } => let_statement(ck, name, value, scope, code),
        StmtKind::If {
            condition,
            then,
            otherwise,
        } => {
            let c = ck
                .expect_as::<Cond>(condition, scope)
                .unwrap_or(Cond::Const(false));
            let at = code.len();
            code.push(Instr::Jump(0));
            compile_block(ck, then, scope, code);
            match otherwise {
                None => {
                    code[at] = Instr::JumpUnless(c, code.len() as u32);
                }
                Some(b) => {
                    let skip = code.len();
                    code.push(Instr::Jump(0));
                    code[at] = Instr::JumpUnless(c, code.len() as u32);
                    compile_block(ck, b, scope, code);
                    code[skip] = Instr::Jump(code.len() as u32);
                }
            }
        }
        StmtKind::While { condition, body } => {
            let c = ck
                .expect_as::<Cond>(condition, scope)
                .unwrap_or(Cond::Const(false));
            let top = code.len();
            let id = open_loop(ck, top, stmt.span, condition.span);
            code.push(Instr::Jump(0));
            compile_block(ck, body, scope, code);
            code.push(Instr::Jump(top as u32));
            code[top] = Instr::JumpUnless(c, code.len() as u32);
            ck.loops[id].end = code.len() as u32;
        }
        StmtKind::Repeat { times, body } => {
            let n = ck.expect_as::<Num>(times, scope).unwrap_or(Num::Const(0.0));
            let depth = scope.locals.len();
            let reg = bind(ck, "", false, stmt.span, scope);
            code.push(Instr::Let(reg, RegValue::Num(n)));
            let top = code.len();
            let id = open_loop(ck, top, stmt.span, times.span);
            code.push(Instr::Jump(0));
            compile_block(ck, body, scope, code);
            code.push(Instr::Let(
                reg,
                RegValue::Num(Num::Sub(Box::new(Num::Reg(reg)), Box::new(Num::Const(1.0)))),
            ));
            code.push(Instr::Jump(top as u32));
            code[top] = Instr::JumpUnless(
                Cond::Num(Cmp::Gt, Box::new(Num::Reg(reg)), Box::new(Num::Const(0.0))),
                code.len() as u32,
            );
            ck.loops[id].end = code.len() as u32;
            scope.locals.truncate(depth);
        }
        StmtKind::Require(e) => {
            if let Some(c) = ck.expect_as::<Cond>(e, scope) {
                code.push(Instr::Require(c, loc(ck, stmt.span)));
            }
        }
        StmtKind::Stop => code.push(Instr::Stop),
        StmtKind::Add {
            counter,
            amount,
            player,
        } => add_statement(ck, counter, amount, player.as_ref(), stmt, scope, code),
        StmtKind::Take(name) => match ck.tokens.iter().position(|t| *t == name.node) {
            Some(t) => {
                ck.used.insert(("token", name.node.clone()));
                code.push(Instr::Take(t as u8));
            }
            None => {
                ck.error(name.span, format!("unknown token `{}`", name.node))
                    .label("not a token")
                    .help("declare it with `token NAME`")
                    .emit();
            }
        },
    }
}

/// `choose`: its options in order, each body after its own trial, and what happens when
/// no option has a candidate.
fn choose(
    ck: &mut Checker<'_>,
    auto: bool,
    options: &[ChoiceOption],
    otherwise: Option<&Block>,
    scope: &mut Scope,
    code: &mut Vec<Instr>,
) {
    let at = code.len();
    code.push(Instr::Stop); // replaced below
    let mut alts = Vec::new();
    let mut exits = Vec::new();
    let mut words: Vec<String> = Vec::new();
    if let Some(extra) = options.get(MAX_OPTIONS) {
        // The runner keeps which options are open in one word.
        ck.error(
            extra.span,
            format!(
                "a choice may offer at most {MAX_OPTIONS} options; this one has {}",
                options.len()
            ),
        )
        .label("one option too many")
        .help("split the choice in two: a first choice of a group, then a choice within it")
        .emit();
    }
    for opt in options {
        lint_step_without_effect(ck, opt);
        let depth = scope.locals.len();
        let set_loc = match &opt.kind {
            OptionKind::Cell { set, .. } => Some(loc(ck, set.span)),
            _ => None,
        };
        let condition_loc = opt.condition.as_ref().map(|c| loc(ck, c.span));
        let option_loc = loc(ck, opt.span);
        let kind = match &opt.kind {
            OptionKind::Cell { var, set } => {
                let set_span = set.span;
                let set = ck.expect_as::<Set>(set, scope);
                // Lints speak only of files without errors (a failed region stands
                // in as an empty set).
                let lint = !ck.diags.has_errors();
                if let (true, Some(bound), Some(g)) =
                    (lint, set.as_ref().map(|s| ck.set_bound(s)), &ck.geometry)
                {
                    if bound.inter(&g.playable).is_empty() {
                        ck.warning(set_span, "this option can never be offered")
                            .label("no cell of the board can be in this set")
                            .help("check the regions it uses and the cells removed from play")
                            .emit();
                    }
                }
                let reg = bind(ck, &var.node, true, var.span, scope);
                set.map(|set| AltKind::Cell { reg, set })
            }
            OptionKind::Word(w) => {
                if w.node.is_empty() || !w.node.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
                {
                    ck.error(w.span, "a word option must be a plain word")
                        .label("letters only")
                        .help("words appear in move notation, so use letters, e.g. \"button\"")
                        .emit();
                }
                if words.contains(&w.node) {
                    ck.error(
                        w.span,
                        format!("the word \"{}\" is offered twice in this choice", w.node),
                    )
                    .label("duplicate option")
                    .help("each option of a choice needs its own word")
                    .emit();
                }
                words.push(w.node.clone());
                Some(AltKind::Word(w.node.clone()))
            }
            OptionKind::Pass => Some(AltKind::Pass),
        };
        let condition = opt
            .condition
            .as_ref()
            .and_then(|c| ck.expect_as::<Cond>(c, scope));
        if let Some(m) = &opt.mark {
            if m.node.chars().any(char::is_whitespace) {
                ck.error(m.span, "a mark cannot hold spaces")
                    .label("space in mark")
                    .help("moves are separated by spaces, so a mark must not contain one; try \"x\" or \">\"")
                    .emit();
            }
        }
        let body = code.len() as u32;
        if matches!(opt.kind, OptionKind::Pass) {
            code.push(Instr::MarkPass);
        }
        compile_block(ck, &opt.body, scope, code);
        exits.push(code.len());
        code.push(Instr::Jump(0));
        scope.locals.truncate(depth);
        // Parts of the `where` clause that are set algebra in disguise (a line test,
        // a neighbourhood test, membership) are asked of all cells at once instead of
        // cell by cell; the clause as written is kept for `explain`.
        let mut written = None;
        let (kind, condition) = match (kind, condition) {
            (Some(AltKind::Cell { reg, set }), Some(condition)) => {
                let mut lifted = set.clone();
                let mut changed = false;
                let rest = lift_where(&mut lifted, condition.clone(), reg, &mut changed);
                if changed {
                    written = Some(Box::new((set, condition)));
                }
                (Some(AltKind::Cell { reg, set: lifted }), rest)
            }
            (kind, condition) => (kind, condition),
        };
        if let Some(kind) = kind {
            alts.push(Alt {
                kind,
                condition: if opt.condition.is_some() && condition.is_none() {
                    None
                } else {
                    condition
                },
                written,
                mark: opt.mark.as_ref().map(|m| m.node.clone()),
                body,
                needs_trial: false,
                ends_turn: false,
                loc: option_loc,
                set_loc,
                condition_loc,
            });
        }
    }
    let otherwise_pc = code.len() as u32;
    if let Some(b) = otherwise {
        compile_block(ck, b, scope, code);
    }
    let end = code.len() as u32;
    for e in exits {
        code[e] = Instr::Jump(end);
    }
    code[at] = Instr::Choose(Box::new(Choose {
        alts,
        otherwise: otherwise_pc,
        last_choice: false,
        auto,
    }));
}

/// `let NAME = VALUE`: a turn variable in a register of its own.
fn let_statement(
    ck: &mut Checker<'_>,
    name: &Ident,
    value: &Expr,
    scope: &mut Scope,
    code: &mut Vec<Instr>,
) {
    let value_span = value.span;
    let Some(v) = ck.expr(value, scope) else {
        return;
    };
    let (is_cell, value) = match v {
        Typed::Cell(c) => (true, RegValue::Cell(c)),
        Typed::Num(n) => (false, RegValue::Num(n)),
        other => {
            ck.error(
                value_span,
                format!(
                    "a variable holds a cell or a number, this is {}",
                    other.ty().describe()
                ),
            )
            .label("cannot be stored")
            .help("sets are recomputed where they are used: write the set there (a `def` names it once), or bind the cell it starts from")
            .emit();
            scope.refused.push(name.node.clone());
            return;
        }
    };
    let existing = scope
        .locals
        .iter()
        .rev()
        .find(|(n, _, _)| *n == name.node)
        .cloned();
    let reg = match existing {
        Some((_, reg, was_cell)) if was_cell == is_cell => reg,
        Some((_, _, was_cell)) => {
            let (old, new) = if was_cell {
                (Type::Cell, Type::Num)
            } else {
                (Type::Num, Type::Cell)
            };
            ck.error(
                value_span,
                format!(
                    "`{}` holds {}, not {}",
                    name.node,
                    old.describe(),
                    new.describe()
                ),
            )
            .label("type changes")
            .help("use another name for this value")
            .emit();
            return;
        }
        None => bind(ck, &name.node, is_cell, name.span, scope),
    };
    code.push(Instr::Let(reg, value));
}

/// `add AMOUNT to COUNTER [of PLAYER]`.
fn add_statement(
    ck: &mut Checker<'_>,
    counter: &Ident,
    amount: &Expr,
    player: Option<&Expr>,
    stmt: &Stmt,
    scope: &mut Scope,
    code: &mut Vec<Instr>,
) {
    let index = ck.counters.iter().position(|(n, _)| *n == counter.node);
    if index.is_none() {
        let known: Vec<String> = ck.counters.iter().map(|(n, _)| n.clone()).collect();
        ck.error(counter.span, format!("unknown counter `{}`", counter.node))
            .label("not a counter")
            .help(if known.is_empty() {
                "declare it with `counter NAME = START`".to_string()
            } else {
                format!("the counters are: {}", known.join(", "))
            })
            .emit();
    }
    let amount = ck.expect_as::<Num>(amount, scope);
    let player = match player {
        Some(p) => ck.expect_as::<Player>(p, scope),
        None => Some(crate::ir::Player::Mover),
    };
    if let (Some(i), Some(amount), Some(player)) = (index, amount, player) {
        ck.used.insert(("counter", counter.node.clone()));
        let loc = loc(ck, stmt.span);
        code.push(Instr::Add(Box::new(crate::ir::AddToCounter {
            counter: i as u8,
            player,
            amount,
            loc,
        })));
    }
}

/// Warns of an option whose only effect is a choice inside it that has nothing to fall
/// back on (no word, no `pass`, no `else`): when that choice has no candidate, taking the
/// option is a step that changes nothing. An option whose `where` asks for the inner
/// choice's cells (the usual guard, `where some(SET)`) is left alone.
fn lint_step_without_effect(ck: &mut Checker<'_>, opt: &ChoiceOption) {
    if ck.diags.has_errors() {
        return;
    }
    let statements = &opt.body.statements;
    let Some(at) = statements
        .iter()
        .position(|s| matches!(s.kind, StmtKind::Choose { .. }))
    else {
        return;
    };
    let StmtKind::Choose {
        options,
        otherwise: None,
        ..
    } = &statements[at].kind
    else {
        return;
    };
    let sets: Vec<Span> = options
        .iter()
        .filter_map(|o| match &o.kind {
            OptionKind::Cell { set, .. } => Some(set.span),
            _ => None,
        })
        .collect();
    if sets.len() != options.len()
        || statements
            .iter()
            .enumerate()
            .any(|(i, s)| i != at && has_effect(s))
    {
        return;
    }
    let text = &ck.files[ck.current_file as usize].text;
    let squeezed = |span: Span| -> String {
        text.get(span.start..span.end)
            .unwrap_or("")
            .split_whitespace()
            .collect()
    };
    let asked = opt.condition.as_ref().map(|c| squeezed(c.span));
    if sets
        .iter()
        .any(|&set| asked.as_ref().is_some_and(|a| a.contains(&squeezed(set))))
    {
        return;
    }
    let head_end = match (&opt.condition, &opt.kind) {
        (Some(c), _) => c.span.end,
        (None, OptionKind::Cell { set, .. }) => set.span.end,
        (None, OptionKind::Word(w)) => w.span.end,
        (None, OptionKind::Pass) => return,
    };
    let example = text
        .get(sets[0].start..sets[0].end)
        .unwrap_or("CELLS")
        .to_string();
    ck.warning(
        Span::new(opt.span.start, head_end),
        "this option can be taken when the choice inside it has nothing to offer, and then the step changes nothing",
    )
    .label("a step that may do nothing")
    .help(format!(
        "ask for the inner choice's cells here (`where some({example})`), or give the inner choice an `else` block that says what happens without them"
    ))
    .emit();
}

/// Whether a statement changes the position (a placement, flip, move or token taken), itself
/// or in a block inside it.
fn has_effect(s: &Stmt) -> bool {
    let any = |b: &Block| b.statements.iter().any(has_effect);
    match &s.kind {
        StmtKind::Place(..)
        | StmtKind::Flip(_)
        | StmtKind::FlipTo(..)
        | StmtKind::Remove(_)
        | StmtKind::Swap
        | StmtKind::Move { .. }
        | StmtKind::Take(_)
        | StmtKind::Add { .. } => true,
        StmtKind::Choose {
            options, otherwise, ..
        } => options.iter().any(|o| any(&o.body)) || otherwise.as_ref().is_some_and(any),
        StmtKind::If {
            then, otherwise, ..
        } => any(then) || otherwise.as_ref().is_some_and(any),
        StmtKind::While { body, .. } | StmtKind::Repeat { body, .. } => any(body),
        StmtKind::Let { .. } | StmtKind::Require(_) | StmtKind::Stop => false,
    }
}
