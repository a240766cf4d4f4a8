//! pest pairs -> AST. Syntax errors become diagnostics with the span pest reports.

use super::ast::*;
use super::errors::{check_nesting, syntax_error, MAX_NESTING};
use super::grammar::{Rule, RulesParser};
use super::spans::{measure_code, span};
use crate::diagnostic::Diagnostic;
use crate::source::SourceFile;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;
use std::sync::{Arc, OnceLock};

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left))
            .op(Op::infix(Rule::op_union, Assoc::Left))
            .op(Op::infix(Rule::op_inter, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left) | Op::infix(Rule::op_div, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
            .op(Op::postfix(Rule::attr))
    })
}

/// Parses one rules file. On a syntax error, returns the diagnostic for it (pest stops at the
/// first syntax error; the checker later collects all semantic errors).
pub fn parse(source: &Arc<SourceFile>) -> Result<File, Diagnostic> {
    check_nesting(source)?;
    measure_code(&source.text);
    let mut pairs =
        RulesParser::parse(Rule::file, &source.text).map_err(|e| syntax_error(source, e))?;
    let file = pairs
        .next()
        .expect("the file rule always produces one pair");
    // `if` and quantifiers nest without brackets, so their depth is counted here, before
    // anything recurses through them: for each, the ends of those open at each point.
    let mut open: [(Rule, Vec<usize>); 2] = [
        (Rule::conditional, Vec::new()),
        (Rule::quantified, Vec::new()),
    ];
    for p in file.clone().into_inner().flatten() {
        let here = p.as_span();
        for (rule, ends) in &mut open {
            while ends.last().is_some_and(|&end| end <= here.start()) {
                ends.pop();
            }
            if p.as_rule() == *rule {
                ends.push(here.end());
                if ends.len() > MAX_NESTING {
                    return Err(nested_too_deeply(source, &p, ends.len()));
                }
            }
        }
        if p.as_rule() == Rule::expr {
            let mut run = 0;
            for q in p.clone().into_inner() {
                run = if matches!(q.as_rule(), Rule::op_not | Rule::op_neg) {
                    run + 1
                } else {
                    0
                };
                if run > MAX_PREFIXES {
                    return Err(Diagnostic::error(
                        source,
                        span(&q),
                        "too many `not`s or `-`s in a row",
                    )
                    .with_label(format!("the {run}th"))
                    .with_help(format!(
                        "at most {MAX_PREFIXES} may stand in a row; two `not`s (or `-`s) cancel out"
                    )));
                }
            }
        }
        if p.as_rule() == Rule::expr && p.clone().into_inner().count() > MAX_EXPR_TOKENS {
            return Err(
                Diagnostic::error(source, span(&p), "this expression is too long")
                    .with_label(format!(
                        "more than {MAX_EXPR_TOKENS} operators and operands"
                    ))
                    .with_help("split it into named parts with def"),
            );
        }
    }
    let mut extends = None;
    let mut items = Vec::new();
    for pair in file.into_inner() {
        match pair.as_rule() {
            Rule::extends => {
                let s = pair.into_inner().next().unwrap();
                extends = Some(string(s));
            }
            Rule::EOI => {}
            _ => items.push(item(pair)),
        }
    }
    Ok(File { extends, items })
}

/// A symbol in quotes (`'B'`): its character.
fn symbol_of(p: Pair<Rule>) -> Spanned<char> {
    let at = span(&p);
    let c = p
        .into_inner()
        .next()
        .unwrap()
        .as_str()
        .chars()
        .next()
        .unwrap();
    Spanned { node: c, span: at }
}

fn ident(pair: Pair<Rule>) -> Ident {
    Spanned {
        node: pair.as_str().to_string(),
        span: span(&pair),
    }
}

/// A part of a `directions` item: a name, or a leap's vector. A number too large for an `i32`
/// is read as the largest one of its sign, which the checker refuses as off any board.
fn direction_part(pair: Pair<Rule>) -> DirectionPart {
    if pair.as_rule() != Rule::leap_vector {
        return DirectionPart::Name(ident(pair));
    }
    let at = span(&pair);
    let mut numbers = pair.into_inner().map(|n| {
        let text = n.as_str();
        text.parse::<i32>().unwrap_or(if text.starts_with('-') {
            i32::MIN
        } else {
            i32::MAX
        })
    });
    let (columns, rows) = (numbers.next().unwrap(), numbers.next().unwrap());
    DirectionPart::Leap(Spanned {
        node: (columns, rows),
        span: at,
    })
}

fn string(pair: Pair<Rule>) -> Spanned<String> {
    let sp = span(&pair);
    let inner = pair.into_inner().next().map_or("", |p| p.as_str());
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    Spanned {
        node: out,
        span: sp,
    }
}

fn int_of(pair: &Pair<Rule>) -> i64 {
    // The grammar guarantees digits; an absurdly long number saturates and is then reported
    // as out of range by the checker rather than crashing here.
    pair.as_str()
        .parse::<i64>()
        .unwrap_or(if pair.as_str().starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        })
}

fn literal(pair: Pair<Rule>) -> Spanned<Literal> {
    let sp = span(&pair);
    let inner = pair.into_inner().next().unwrap();
    let node = match inner.as_rule() {
        Rule::boolean => Literal::Bool(inner.as_str() == "true"),
        _ => Literal::Int(int_of(&inner)),
    };
    Spanned { node, span: sp }
}

fn item(pair: Pair<Rule>) -> Item {
    let sp = span(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let kind = match rule {
        Rule::title => ItemKind::Title(string(inner.next().unwrap())),
        Rule::source => ItemKind::Source(string(inner.next().unwrap())),
        Rule::credit => ItemKind::Credit(string(inner.next().unwrap())),
        Rule::param => param_item(inner),
        Rule::set_param => ItemKind::SetParam {
            name: ident(inner.next().unwrap()),
            value: literal(inner.next().unwrap()),
        },
        Rule::board => board_item(inner),
        Rule::removed => ItemKind::Removed(expr(inner.next().unwrap())),
        Rule::player => player_item(inner),
        Rule::piece_kind => piece_kind_item(inner),
        Rule::first => ItemKind::First(ident(inner.next().unwrap())),
        Rule::region => ItemKind::Region {
            name: ident(inner.next().unwrap()),
            value: expr(inner.next().unwrap()),
        },
        Rule::def => {
            let name = ident(inner.next().unwrap());
            let mut params = Vec::new();
            let mut body = None;
            for p in inner {
                match p.as_rule() {
                    Rule::def_params => params = p.into_inner().map(ident).collect(),
                    _ => body = Some(expr(p)),
                }
            }
            ItemKind::Def {
                name,
                params,
                body: body.unwrap(),
            }
        }
        Rule::token => ItemKind::Token(ident(inner.next().unwrap())),
        Rule::directions => {
            inner.next(); // the keyword
            ItemKind::Directions {
                name: ident(inner.next().unwrap()),
                parts: inner.map(direction_part).collect(),
            }
        }
        Rule::counter => {
            inner.next(); // the keyword
            ItemKind::Counter {
                name: ident(inner.next().unwrap()),
                value: expr(inner.next().unwrap()),
            }
        }
        Rule::setup => ItemKind::Setup(inner.map(setup_entry).collect()),
        Rule::line => {
            let name = ident(inner.next().unwrap());
            let mut elements = Vec::new();
            let mut along = None;
            for p in inner {
                match p.as_rule() {
                    Rule::element => elements.push(element(p)),
                    _ => along = Some(ident(p)),
                }
            }
            ItemKind::Line {
                name,
                elements,
                along,
            }
        }
        Rule::turn => ItemKind::Turn(block(inner.next().unwrap())),
        Rule::agreement => ItemKind::Agreement(block(inner.next().unwrap())),
        Rule::example => ItemKind::Example(example(inner)),
        Rule::end => end_item(inner),
        Rule::score => ItemKind::Score {
            player: ident(inner.next().unwrap()),
            value: expr(inner.next().unwrap()),
        },
        Rule::tiebreak => ItemKind::Tiebreak {
            player: ident(inner.next().unwrap()),
            value: expr(inner.next().unwrap()),
        },
        other => unreachable!("item rule {other:?}"),
    };
    Item { kind, span: sp }
}

/// The `param` item: a name, a default and the values allowed.
fn param_item(mut inner: Pairs<Rule>) -> ItemKind {
    let name = ident(inner.next().unwrap());
    let default = literal(inner.next().unwrap());
    let allowed = inner.next().map(|a| {
        let asp = span(&a);
        let parts = a
            .into_inner()
            .map(|part| {
                let nums: Vec<i64> = part.into_inner().map(|n| int_of(&n)).collect();
                AllowedPart {
                    lo: nums[0],
                    hi: *nums.get(1).unwrap_or(&nums[0]),
                    step: *nums.get(2).unwrap_or(&1),
                }
            })
            .collect();
        Spanned {
            node: parts,
            span: asp,
        }
    });
    ItemKind::Param {
        name,
        default,
        allowed,
    }
}

/// The `board` item: its shape and size.
fn board_item(mut inner: Pairs<Rule>) -> ItemKind {
    let first = inner.next().unwrap();
    let shape = match first.as_rule() {
        Rule::kw_hexagon => BoardShape::Hexagon,
        Rule::kw_rhombus => BoardShape::Rhombus,
        Rule::kw_triangle => BoardShape::Triangle,
        _ => BoardShape::Rectangle,
    };
    let width = if shape == BoardShape::Rectangle {
        expr(first)
    } else {
        expr(inner.next().unwrap())
    };
    inner.next(); // the `x` between the sides, if any
    let height = inner.next().map(expr);
    let shape = match inner.next().map(|p| p.as_str()) {
        Some("cylinder") => BoardShape::Cylinder,
        Some(_) => BoardShape::Torus,
        None => shape,
    };
    ItemKind::Board {
        shape,
        width,
        height,
    }
}

/// The `player` item: a name, a symbol and attributes.
fn player_item(mut inner: Pairs<Rule>) -> ItemKind {
    let name = ident(inner.next().unwrap());
    let mut symbol = None;
    let mut attributes = Vec::new();
    for p in inner {
        match p.as_rule() {
            Rule::symbol => symbol = Some(symbol_of(p)),
            Rule::attribute => {
                let mut a = p.into_inner();
                let n = ident(a.next().unwrap());
                attributes.push((n, expr(a.next().unwrap())));
            }
            _ => unreachable!("player: {:?}", p.as_rule()),
        }
    }
    ItemKind::Player {
        name,
        symbol,
        attributes,
    }
}

/// The `piece` item: a kind of piece, its symbol and its role.
fn piece_kind_item(mut inner: Pairs<Rule>) -> ItemKind {
    inner.next(); // `piece`
    let name = ident(inner.next().unwrap());
    let (mut symbol, mut role) = (None, None);
    for p in inner {
        match p.as_rule() {
            Rule::symbol => symbol = Some(symbol_of(p)),
            Rule::piece_role => {
                role = Some(Spanned {
                    node: if p.as_str() == "friend" {
                        PieceRole::Friend
                    } else {
                        PieceRole::Opponent
                    },
                    span: span(&p),
                });
            }
            Rule::kw_as => {}
            _ => unreachable!("piece: {:?}", p.as_rule()),
        }
    }
    ItemKind::PieceKind { name, symbol, role }
}

/// The `end` item: when it is checked, for whom, its condition and its winner.
fn end_item(inner: Pairs<Rule>) -> ItemKind {
    let mut timing = Timing::AfterTurn;
    let mut for_each = None;
    let mut condition = None;
    let mut winner = None;
    for p in inner {
        match p.as_rule() {
            Rule::timing => {
                if p.into_inner().next().unwrap().as_rule() == Rule::timing_step {
                    timing = Timing::AfterStep;
                }
            }
            Rule::for_each => for_each = Some(ident(p.into_inner().next().unwrap())),
            Rule::winner => winner = Some(expr(p.into_inner().next().unwrap())),
            _ => condition = Some(expr(p)),
        }
    }
    ItemKind::End(EndRule {
        timing,
        for_each,
        condition: condition.unwrap(),
        winner,
    })
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

fn example(mut inner: pest::iterators::Pairs<Rule>) -> Example {
    let name = string(inner.next().unwrap());
    let steps = inner
        .map(|p| {
            let sp = span(&p);
            let rule = p.as_rule();
            let mut parts = p.into_inner();
            let node = match rule {
                Rule::ex_position => ExampleStep::Position {
                    rows: string(parts.next().unwrap()).node,
                    to_move: parts.next().map(ident),
                },
                Rule::ex_play => ExampleStep::Play(string(parts.next().unwrap()).node),
                Rule::ex_set => ExampleStep::Set {
                    name: ident(parts.next().unwrap()),
                    value: literal(parts.next().unwrap()),
                },
                _ => {
                    let e = parts.next().unwrap();
                    let erule = e.as_rule();
                    let mut ep = e.into_inner();
                    let mut text = || string(ep.next().unwrap()).node;
                    ExampleStep::Expect(match erule {
                        Rule::ex_legal => Expectation::Legal(words(&text())),
                        Rule::ex_legal_includes => Expectation::LegalIncludes(words(&text())),
                        Rule::ex_legal_excludes => Expectation::LegalExcludes(words(&text())),
                        Rule::ex_steps => Expectation::Steps(words(&text())),
                        Rule::ex_board => Expectation::Board(
                            text().split('/').map(|r| r.trim().to_string()).collect(),
                        ),
                        Rule::ex_illegal => Expectation::Illegal(text()),
                        Rule::ex_over => Expectation::Over,
                        Rule::ex_not_over => Expectation::NotOver,
                        Rule::ex_draw => Expectation::Draw,
                        Rule::ex_to_move => Expectation::ToMove(ident(ep.next().unwrap())),
                        Rule::ex_winner => Expectation::Winner(ident(ep.next().unwrap())),
                        _ => {
                            let mut scores = Vec::new();
                            while let (Some(who), Some(n)) = (ep.next(), ep.next()) {
                                scores.push((ident(who), n.as_str().parse().unwrap_or(f64::NAN)));
                            }
                            Expectation::Scores(scores)
                        }
                    })
                }
            };
            Spanned { node, span: sp }
        })
        .collect();
    Example { name, steps }
}

fn setup_entry(pair: Pair<Rule>) -> SetupEntry {
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    match rule {
        Rule::setup_place => SetupEntry::Place {
            player: ident(inner.next().unwrap()),
            cells: inner.map(expr).collect(),
        },
        Rule::setup_rows => SetupEntry::Rows(string(inner.next().unwrap())),
        Rule::setup_to_move => SetupEntry::ToMove(ident(inner.next().unwrap())),
        other => unreachable!("setup entry {other:?}"),
    }
}

fn element(pair: Pair<Rule>) -> Spanned<Element> {
    let sp = span(&pair);
    let mut inner = pair.into_inner();
    let class = inner.next().unwrap();
    let class = match (class.as_rule(), class.as_str()) {
        (Rule::kind_class, _) => ElementClass::Kind(ident(class)),
        (_, "friend") => ElementClass::Word(CellClass::Friend),
        (_, "opponent") => ElementClass::Word(CellClass::Opponent),
        (_, "empty") => ElementClass::Word(CellClass::Empty),
        _ => ElementClass::Word(CellClass::Piece),
    };
    let (min, max) = match inner.next() {
        None => (1, 1),
        Some(q) => match q.as_str() {
            "+" => (1, u32::MAX),
            "?" => (0, 1),
            _ => {
                let n = q.into_inner().next().unwrap();
                let n = n.as_str().parse::<u32>().unwrap_or(u32::MAX);
                (n, n)
            }
        },
    };
    Spanned {
        node: Element { class, min, max },
        span: sp,
    }
}

fn block(pair: Pair<Rule>) -> Block {
    let sp = span(&pair);
    Block {
        statements: pair
            .into_inner()
            .filter(|p| p.as_rule() != Rule::block_end)
            .map(statement)
            .collect(),
        span: sp,
    }
}

fn statement(pair: Pair<Rule>) -> Stmt {
    let sp = span(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let kind = match rule {
        Rule::choose_one | Rule::choose_many => {
            let mut options = Vec::new();
            let mut otherwise = None;
            let mut auto = false;
            for p in inner {
                match p.as_rule() {
                    Rule::else_block => otherwise = Some(block(p.into_inner().next().unwrap())),
                    Rule::kw_auto => auto = true,
                    _ => options.push(choice_option(p)),
                }
            }
            StmtKind::Choose {
                auto,
                options,
                otherwise,
            }
        }
        Rule::place => {
            let cell = expr(inner.next().unwrap());
            // After `as` (its keyword pair is skipped), the kind's name.
            let kind = inner.find(|p| p.as_rule() == Rule::ident).map(ident);
            StmtKind::Place(cell, kind)
        }
        Rule::flip => {
            let cells = expr(inner.next().unwrap());
            match inner.next() {
                Some(to) => StmtKind::FlipTo(cells, expr(to)),
                None => StmtKind::Flip(cells),
            }
        }
        Rule::remove => {
            let _keyword = inner.next();
            StmtKind::Remove(expr(inner.next().unwrap()))
        }
        Rule::swap => StmtKind::Swap,
        Rule::move_piece => StmtKind::Move {
            from: expr(inner.next().unwrap()),
            to: expr(inner.next().unwrap()),
        },
        Rule::let_stmt => StmtKind::Let {
            name: ident(inner.next().unwrap()),
            value: expr(inner.next().unwrap()),
        },
        Rule::if_stmt => {
            let condition = expr(inner.next().unwrap());
            let then = block(inner.next().unwrap());
            let otherwise = inner.next().map(|p| match p.as_rule() {
                Rule::if_stmt => {
                    let nested = statement(p);
                    Block {
                        span: nested.span,
                        statements: vec![nested],
                    }
                }
                _ => block(p),
            });
            StmtKind::If {
                condition,
                then,
                otherwise,
            }
        }
        Rule::while_stmt => StmtKind::While {
            condition: expr(inner.next().unwrap()),
            body: block(inner.next().unwrap()),
        },
        Rule::repeat => StmtKind::Repeat {
            times: expr(inner.next().unwrap()),
            body: block(inner.next().unwrap()),
        },
        Rule::require => StmtKind::Require(expr(inner.next().unwrap())),
        Rule::stop => StmtKind::Stop,
        Rule::take => StmtKind::Take(ident(inner.next().unwrap())),
        Rule::add => {
            inner.next(); // the keyword
            StmtKind::Add {
                counter: ident(inner.next().unwrap()),
                amount: expr(inner.next().unwrap()),
                player: inner.next().map(expr),
            }
        }
        other => unreachable!("statement {other:?}"),
    };
    Stmt { kind, span: sp }
}

fn choice_option(pair: Pair<Rule>) -> ChoiceOption {
    let sp = span(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let kind = match rule {
        Rule::cell_option => {
            let var = ident(inner.next().unwrap());
            let set = expr(inner.next().unwrap());
            OptionKind::Cell { var, set }
        }
        Rule::word_option => OptionKind::Word(string(inner.next().unwrap())),
        Rule::pass_option => OptionKind::Pass,
        other => unreachable!("option {other:?}"),
    };
    let mut condition = None;
    let mut mark = None;
    let mut body = Block {
        statements: Vec::new(),
        span: sp,
    };
    for p in inner {
        match p.as_rule() {
            Rule::where_clause => condition = Some(expr(p.into_inner().next().unwrap())),
            Rule::mark => mark = Some(string(p.into_inner().next().unwrap())),
            Rule::block => body = block(p),
            Rule::kw_pass => {}
            other => unreachable!("option part {other:?}"),
        }
    }
    ChoiceOption {
        kind,
        condition,
        mark,
        body,
        span: sp,
    }
}

/// Prefix operators in a row: each is a level of recursion in the expression parser.
const MAX_PREFIXES: usize = 16;

/// Most operators and operands one expression may have; with `MAX_NESTING` it bounds the
/// depth of every expression tree.
const MAX_EXPR_TOKENS: usize = 512;

fn expr(pair: Pair<Rule>) -> Expr {
    debug_assert_eq!(pair.as_rule(), Rule::expr);
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let sp = span(&op).to(rhs.span);
            let op = if op.as_rule() == Rule::op_not {
                UnaryOp::Not
            } else {
                UnaryOp::Neg
            };
            Expr {
                kind: ExprKind::Unary(op, Box::new(rhs)),
                span: sp,
            }
        })
        .map_postfix(|lhs, op| {
            let name = ident(op.into_inner().next().unwrap());
            let sp = lhs.span.to(name.span);
            Expr {
                kind: ExprKind::Attr(Box::new(lhs), name),
                span: sp,
            }
        })
        .map_infix(|lhs, op, rhs| {
            let op = match op.as_rule() {
                Rule::op_or => BinaryOp::Or,
                Rule::op_and => BinaryOp::And,
                Rule::op_eq => BinaryOp::Eq,
                Rule::op_ne => BinaryOp::Ne,
                Rule::op_lt => BinaryOp::Lt,
                Rule::op_le => BinaryOp::Le,
                Rule::op_gt => BinaryOp::Gt,
                Rule::op_ge => BinaryOp::Ge,
                Rule::op_in => BinaryOp::In,
                Rule::op_union => BinaryOp::Union,
                Rule::op_inter => BinaryOp::Inter,
                Rule::op_add => BinaryOp::Add,
                Rule::op_sub => BinaryOp::Sub,
                Rule::op_mul => BinaryOp::Mul,
                _ => BinaryOp::Div,
            };
            let sp = lhs.span.to(rhs.span);
            Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span: sp,
            }
        })
        .parse(pair.into_inner())
}

fn primary(pair: Pair<Rule>) -> Expr {
    let sp = span(&pair);
    let kind = match pair.as_rule() {
        Rule::expr => return expr(pair),
        Rule::number => ExprKind::Number(pair.as_str().parse().unwrap_or(f64::MAX)),
        Rule::boolean => ExprKind::Bool(pair.as_str() == "true"),
        Rule::string => ExprKind::Str(string(pair).node),
        Rule::ident => ExprKind::Name(pair.as_str().to_string()),
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = ident(inner.next().unwrap());
            ExprKind::Call(name, inner.map(expr).collect())
        }
        Rule::conditional => {
            let mut inner = pair.into_inner();
            let c = expr(inner.next().unwrap());
            let a = expr(inner.next().unwrap());
            let b = expr(inner.next().unwrap());
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        Rule::quantified => {
            let mut inner = pair.into_inner();
            let kind = match inner.next().unwrap().as_str() {
                "some" => Quantifier::Some,
                "all" => Quantifier::All,
                "none" => Quantifier::None,
                "count" => Quantifier::Count,
                _ => Quantifier::Cells,
            };
            let var = ident(inner.next().unwrap());
            let _in = inner.next();
            let set = expr(inner.next().unwrap());
            let _where = inner.next();
            let condition = expr(inner.next().unwrap());
            ExprKind::Quantified {
                kind,
                var,
                set: Box::new(set),
                condition: Box::new(condition),
            }
        }
        other => unreachable!("primary {other:?}"),
    };
    Expr { kind, span: sp }
}

/// The error for an `if` or a quantifier (`pair`) opened inside `level - 1` others of its kind.
fn nested_too_deeply(source: &Arc<SourceFile>, pair: &Pair<Rule>, level: usize) -> Diagnostic {
    let word_end = pair.as_str().find(' ').unwrap_or(pair.as_str().len());
    let start = pair.as_span().start();
    let (message, kind) = if pair.as_rule() == Rule::conditional {
        ("`if` expressions are nested too deeply", "`if`s")
    } else {
        ("quantifiers are nested too deeply", "quantifiers")
    };
    Diagnostic::error(source, Span::new(start, start + word_end), message)
        .with_label(format!("nesting level {level}"))
        .with_help(format!(
            "at most {MAX_NESTING} {kind} may sit inside one another; name parts with def"
        ))
}
