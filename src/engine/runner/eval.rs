//! Evaluating compiled expressions in the runner's context ([`Ctx`]): the language's
//! arithmetic, comparisons and logic, the end conditions and the scores, written once for
//! every width of set.

use super::context::Ctx;
use crate::board::geometry::row_and_column;
use crate::board::sets::Board;
use crate::engine::state::Outcome;
use crate::ir::{
    counter_slot, next_player, Cond, EndCondition, Num, Player, Timing, MAX_PLAYERS, NOBODY,
};

pub(crate) fn player<B: Board, const P: usize>(e: &Ctx<'_, B, P>, p: &Player) -> u8 {
    match p {
        Player::Const(x) => *x,
        Player::Mover => e.mover(),
        Player::Other => next_player(e.mover(), e.players()),
        Player::Bound => e.bound(),
        // The checker allows `opponent` as a player only with two players, where it is next.
        Player::Opponent(inner) | Player::Next(inner) => match player(e, inner) {
            NOBODY => NOBODY,
            x => next_player(x, e.players()),
        },
        Player::Holder(t) => e.holder(*t),
        Player::If(c, a, b) => player(e, if cond(e, c) { a } else { b }),
    }
}

pub(crate) fn num<B: Board, const P: usize>(e: &Ctx<'_, B, P>, n: &Num) -> f64 {
    match n {
        Num::Add(a, b) => operand(e, a) + operand(e, b),
        Num::Sub(a, b) => operand(e, a) - operand(e, b),
        Num::Mul(a, b) => operand(e, a) * operand(e, b),
        Num::Div(a, b) => {
            let d = operand(e, b);
            if d == 0.0 {
                0.0
            } else {
                operand(e, a) / d
            }
        }
        Num::Neg(a) => -operand(e, a),
        Num::If(c, a, b) => {
            if cond(e, c) {
                operand(e, a)
            } else {
                operand(e, b)
            }
        }
        Num::Attr(p, i) => match player(e, p) {
            NOBODY => 0.0,
            p => e.attribute(*i, p),
        },
        Num::Counter(p, i) => match player(e, p) {
            NOBODY => 0.0,
            p => e.register(counter_slot(*i, p, e.players()) as u8),
        },
        Num::Row(c) => row_and_column(e.cell(c), e.game.geometry.width).0 as f64,
        Num::Column(c) => row_and_column(e.cell(c), e.game.geometry.width).1 as f64,
        Num::Distance(a, b) => e.game.geometry.distance(e.cell(a), e.cell(b)) as f64,
        leaf => operand(e, leaf),
    }
}

/// An operand of arithmetic or a comparison: the leaves (constants, counters, counts) are
/// read here, without another call of [`num`], which costs more than they do; [`num`] reads
/// its leaves here too.
#[inline(always)]
fn operand<B: Board, const P: usize>(e: &Ctx<'_, B, P>, n: &Num) -> f64 {
    match n {
        Num::Const(v) => *v,
        Num::Count(s) => f64::from(e.set(s).count()),
        Num::Reg(r) => e.register(*r),
        Num::Turn => e.turn(),
        Num::Passes => e.passes(),
        _ => num(e, n),
    }
}

pub(crate) fn cond<B: Board, const P: usize>(e: &Ctx<'_, B, P>, c: &Cond) -> bool {
    match c {
        Cond::Const(b) => *b,
        Cond::Not(a) => match &**a {
            // The usual `none(...)`, without another call.
            Cond::NonEmpty(s) => e.set(s).is_empty(),
            a => !cond(e, a),
        },
        Cond::And(a, b) => cond(e, a) && cond(e, b),
        Cond::Or(a, b) => cond(e, a) || cond(e, b),
        Cond::Num(cmp, a, b) => cmp.holds(operand(e, a), operand(e, b)),
        Cond::Player(eq, a, b) => (player(e, a) == player(e, b)) == *eq,
        Cond::Cell(eq, a, b) => (e.cell(a) == e.cell(b)) == *eq,
        Cond::SetEq(eq, a, b) => (e.set(a) == e.set(b)) == *eq,
        Cond::In(c, s) => e.set(s).contains(e.cell(c)),
        Cond::NonEmpty(s) => !e.set(s).is_empty(),
        Cond::Breathes(c) => e.breathes(e.cell(c)),
        Cond::AnyLine(l, c) => e.any_line(*l, e.cell(c)),
        Cond::Blocked => e.blocked(),
    }
}

/// The first end condition of `timing` that holds at the position `at` evaluates (given the
/// player bound by `for each p`): Some(the winner it names, if it names one).
pub(crate) fn ended<'a, B: Board, const P: usize>(
    ends: &[EndCondition],
    timing: Timing,
    mover: u8,
    players: u8,
    at: impl Fn(u8) -> Ctx<'a, B, P>,
) -> Option<Option<u8>> {
    for end in ends.iter().filter(|e| e.timing == timing) {
        if !end.for_each {
            let e = at(NOBODY);
            if cond(&e, &end.condition) {
                return Some(end.winner.as_ref().map(|w| player(&e, w)));
            }
            continue;
        }
        // `for each p`: the mover first, then the others in turn order.
        let mut p = mover;
        for _ in 0..players {
            let e = at(p);
            if cond(&e, &end.condition) {
                return Some(end.winner.as_ref().map(|w| player(&e, w)));
            }
            p = next_player(p, players);
        }
    }
    None
}

/// The scores and the winner: `winner` when an end condition named one, otherwise the first
/// of score and tie-breaks that differs decides (equal throughout: a draw).
/// With more than two players, the highest score wins; among those level at the top, the
/// tie-breaks decide in order; two or more still level at the end make a draw.
pub(crate) fn outcome<'a, B: Board, const P: usize>(
    score: &Num,
    tiebreaks: &[Num],
    winner: Option<u8>,
    players: u8,
    at: impl Fn(u8) -> Ctx<'a, B, P>,
) -> Outcome {
    let value = |expr: &Num, p: u8| num(&at(p), expr);
    let mut scores = [0.0; MAX_PLAYERS];
    for p in 0..players {
        scores[p as usize] = value(score, p);
    }
    let winner = winner.unwrap_or_else(|| {
        // The players still level, as bits.
        let mut level = leaders((1u32 << players) - 1, |p| scores[p as usize]);
        for t in tiebreaks {
            if level.count_ones() < 2 {
                break;
            }
            level = leaders(level, |p| value(t, p));
        }
        sole(level)
    });
    Outcome {
        winner,
        players,
        by_player: scores,
    }
}

/// The one player of `level` (bits), or `NOBODY` when several are level.
fn sole(level: u32) -> u8 {
    if level.is_power_of_two() {
        level.trailing_zeros() as u8
    } else {
        NOBODY
    }
}

/// The players of `among` (bits) whose `value` is the highest among them.
fn leaders(among: u32, value: impl Fn(u8) -> f64) -> u32 {
    let mut best = f64::NEG_INFINITY;
    let mut out = 0;
    let mut rest = among;
    while rest != 0 {
        let p = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let v = value(p);
        if v > best {
            (best, out) = (v, 0);
        }
        if v == best {
            out |= 1 << p;
        }
    }
    out
}
