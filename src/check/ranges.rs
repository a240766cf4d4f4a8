//! What values an expression can take, at most, on this board with these parameters: an upper
//! bound for every set and an interval for every number. Used to warn about end conditions that
//! can never hold (a target above the most points the board can give).

use crate::board::bits::Bits;
use crate::ir::{Cell, Cmp, Cond, Num, Player, Set};

pub(super) struct Ranges<'a> {
    pub playable: Bits,
    pub attributes: &'a [(String, [f64; crate::ir::MAX_PLAYERS])],
    /// The game's number of players: the attributes' slots past them are unused.
    pub players: u8,
    /// The player bound by `for each p`, when analysing for one player.
    pub bound: Option<u8>,
}

const ALL: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);

impl Ranges<'_> {
    /// A set that contains every value `s` can take.
    pub(super) fn set_bound(&self, s: &Set) -> Bits {
        match s {
            Set::Const(b) => *b,
            Set::Single(c) => match **c {
                Cell::Const(c) => Bits::single(c as usize),
                Cell::Reg(_) | Cell::If(..) => self.playable,
            },
            Set::If(_, a, b) => self.set_bound(a).union(&self.set_bound(b)),
            Set::Union(a, b) => self.set_bound(a).union(&self.set_bound(b)),
            Set::Inter(a, b) => self.set_bound(a).inter(&self.set_bound(b)),
            Set::Minus(a, _) => self.set_bound(a),
            _ => self.playable,
        }
    }

    fn attr(&self, p: &Player, i: usize) -> (f64, f64) {
        let values = &self.attributes[i].1[..self.players as usize];
        let one = |p: u8| (values[p as usize], values[p as usize]);
        match (p, self.bound) {
            (Player::Const(x), _) => one(*x),
            (Player::Bound, Some(b)) => one(b),
            (Player::Opponent(inner) | Player::Next(inner), Some(b))
                if matches!(**inner, Player::Bound) =>
            {
                one(crate::ir::next_player(b, self.players))
            }
            _ => values
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                    (lo.min(v), hi.max(v))
                }),
        }
    }

    /// An interval containing every value `n` can take.
    pub(super) fn num(&self, n: &Num) -> (f64, f64) {
        match n {
            Num::Const(v) => (*v, *v),
            // A constant set has its own size; any other may be empty.
            Num::Count(s) => match **s {
                Set::Const(b) => (f64::from(b.count()), f64::from(b.count())),
                _ => (0.0, f64::from(self.set_bound(s).count())),
            },
            Num::Reg(_) => ALL,
            Num::Turn => (1.0, f64::INFINITY),
            Num::Passes => (0.0, f64::INFINITY),
            Num::Add(a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                (a.0 + b.0, a.1 + b.1)
            }
            Num::Sub(a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                (a.0 - b.1, a.1 - b.0)
            }
            Num::Mul(a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                let products = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1];
                if products.iter().any(|p| p.is_nan()) {
                    return ALL;
                }
                (
                    products.iter().copied().fold(f64::INFINITY, f64::min),
                    products.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                )
            }
            Num::Div(..) => ALL,
            Num::Neg(a) => {
                let a = self.num(a);
                (-a.1, -a.0)
            }
            Num::If(c, a, b) => match (self.can_hold(c), self.can_fail(c)) {
                (true, false) => self.num(a),
                (false, true) => self.num(b),
                _ => {
                    let (a, b) = (self.num(a), self.num(b));
                    (a.0.min(b.0), a.1.max(b.1))
                }
            },
            Num::Attr(p, i) => self.attr(p, *i),
            Num::Counter(..) => ALL,
            Num::Row(_) | Num::Column(_) => (1.0, f64::INFINITY),
            Num::Distance(..) => (0.0, f64::INFINITY),
        }
    }

    fn compare_may(&self, cmp: Cmp, a: (f64, f64), b: (f64, f64)) -> bool {
        match cmp {
            Cmp::Ge => a.1 >= b.0,
            Cmp::Gt => a.1 > b.0,
            Cmp::Le => a.0 <= b.1,
            Cmp::Lt => a.0 < b.1,
            Cmp::Eq => a.0 <= b.1 && b.0 <= a.1,
            Cmp::Ne => !(a.0 == a.1 && b.0 == b.1 && a.0 == b.0),
        }
    }

    fn negate(cmp: Cmp) -> Cmp {
        match cmp {
            Cmp::Ge => Cmp::Lt,
            Cmp::Gt => Cmp::Le,
            Cmp::Le => Cmp::Gt,
            Cmp::Lt => Cmp::Ge,
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
        }
    }

    /// False only when `c` is false in every position.
    pub(super) fn can_hold(&self, c: &Cond) -> bool {
        match c {
            Cond::Const(b) => *b,
            Cond::Not(x) => self.can_fail(x),
            Cond::And(a, b) => self.can_hold(a) && self.can_hold(b),
            Cond::Or(a, b) => self.can_hold(a) || self.can_hold(b),
            Cond::Num(cmp, a, b) => self.compare_may(*cmp, self.num(a), self.num(b)),
            Cond::NonEmpty(s) => !self.set_bound(s).is_empty(),
            _ => true,
        }
    }

    /// False only when `c` is true in every position.
    pub(super) fn can_fail(&self, c: &Cond) -> bool {
        match c {
            Cond::Const(b) => !*b,
            Cond::Not(x) => self.can_hold(x),
            Cond::And(a, b) => self.can_fail(a) || self.can_fail(b),
            Cond::Or(a, b) => self.can_fail(a) && self.can_fail(b),
            Cond::Num(cmp, a, b) => self.compare_may(Self::negate(*cmp), self.num(a), self.num(b)),
            _ => true,
        }
    }
}
