//! The statements that change who owns pieces without placing any: `flip S to P`,
//! `remove S` and `swap`, kept out of the interpreter's loop (they are rare, and the loop's
//! code is the hot path).

use super::{RunState, Runner};
use crate::board::sets::Board;
use crate::ir::{counter_slot, Game, Instr};

/// `flip S to P`, `remove S` and `swap`, out of [`Runner::run`]'s loop: the pieces on `S`
/// become `P`'s, or leave the board; or the two players exchange sides.
#[inline(never)]
pub(crate) fn change_owners<B: Board, const P: usize>(
    k: &Runner<B, P>,
    game: &Game,
    t: &mut RunState<B, P>,
    instr: &Instr,
) {
    let ctx = k.ctx(game, t);
    match instr {
        Instr::FlipTo(set, to) => {
            let (cells, to) = (ctx.set(set), ctx.player(to));
            t.take(usize::from(to), cells);
        }
        Instr::Remove(set) => {
            let cells = ctx.set(set);
            for pieces in &mut t.pieces {
                *pieces = *pieces & !cells;
            }
        }
        Instr::Swap => {
            // The checker allows `swap` with two players only, in slots 0 and 1.
            t.pieces.swap(0, 1);
            for c in 0..game.counters.len() {
                let (a, b) = (counter_slot(c as u8, 0, 2), counter_slot(c as u8, 1, 2));
                t.regs.swap(a, b);
            }
            for holder in &mut t.tokens {
                if *holder < 2 {
                    *holder = 1 - *holder;
                }
            }
        }
        _ => unreachable!("only a change of owners comes here"),
    }
}
