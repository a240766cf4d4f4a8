//! The flat program after it is written: `where` conditions on a chosen cell lifted into the
//! option's set where they can be asked of all cells at once, jumps threaded, dead code
//! compacted, and which choices are the last of their turn and which options need a trial.

use crate::ir::{Cell, Cond, Instr, LoopSpan, ReadsRegister, Set};

/// Moves the conjuncts of `condition` (a `where` clause on the chosen cell `reg`) that can be
/// asked of all cells at once into `set`; returns what must still be asked cell by cell.
pub(super) fn lift_where(
    set: &mut Set,
    condition: Cond,
    reg: u8,
    changed: &mut bool,
) -> Option<Cond> {
    match condition {
        Cond::And(a, b) => {
            let a = lift_where(set, *a, reg, changed);
            let b = lift_where(set, *b, reg, changed);
            match (a, b) {
                (Some(a), Some(b)) => Some(Cond::And(Box::new(a), Box::new(b))),
                (a, b) => a.or(b),
            }
        }
        // A part that does not read the chosen cell is the same for every candidate: asked
        // once, as `if C then SET else nothing`.
        condition if !condition.reads(reg) => {
            *changed = true;
            let written = Box::new(std::mem::replace(set, Set::Empty));
            let nothing = Box::new(Set::Const(crate::board::bits::Bits::EMPTY));
            *set = Set::If(Box::new(condition), written, nothing);
            None
        }
        condition => match lift(&condition, reg) {
            Some(cells) => {
                *changed = true;
                let written = Box::new(std::mem::replace(set, Set::Empty));
                *set = match cells {
                    Lifted::Cells(x) => Set::Inter(written, Box::new(x)),
                    Lifted::Except(x) => Set::Minus(written, Box::new(x)),
                };
                None
            }
            None => Some(condition),
        },
    }
}

/// The cells where a condition on the chosen cell holds: those of a set, or all but those.
enum Lifted {
    Cells(Set),
    Except(Set),
}

/// The cells for which `c` holds when the chosen cell `reg` is each of them, as one set
/// expression; None when some part of it can only be asked cell by cell.
fn lift(c: &Cond, reg: u8) -> Option<Lifted> {
    use Lifted::{Cells, Except};
    let chosen = |cell: &Cell| matches!(cell, Cell::Reg(r) if *r == reg);
    let b = Box::new;
    Some(match c {
        // `some(captured(L, x))`: the cells from which the line matches.
        Cond::AnyLine(l, x) if chosen(x) => Cells(Set::Sources(*l)),
        Cond::NonEmpty(s) => match &**s {
            Set::Captured(l, x) if chosen(x) => Cells(Set::Sources(*l)),
            // `some(S & neighbours(x))`: x is next to S, so x is a neighbour of S the other way.
            Set::Inter(p, q) => match (&**p, &**q) {
                (other, Set::Neighbours(x, d)) | (Set::Neighbours(x, d), other)
                    if chosen(x) && cell_free(other) =>
                {
                    Cells(Set::Adjacent(b(other.clone()), d.reversed()))
                }
                _ => return None,
            },
            _ => return None,
        },
        Cond::In(x, s) if chosen(x) && cell_free(s) => Cells((**s).clone()),
        Cond::Not(a) => match lift(a, reg)? {
            Cells(x) => Except(x),
            Except(x) => Cells(x),
        },
        Cond::And(p, q) => match (lift(p, reg)?, lift(q, reg)?) {
            (Cells(x), Cells(y)) => Cells(Set::Inter(b(x), b(y))),
            (Cells(x), Except(y)) | (Except(y), Cells(x)) => Cells(Set::Minus(b(x), b(y))),
            (Except(x), Except(y)) => Except(Set::Union(b(x), b(y))),
        },
        Cond::Or(p, q) => match (lift(p, reg)?, lift(q, reg)?) {
            (Cells(x), Cells(y)) => Cells(Set::Union(b(x), b(y))),
            (Cells(x), Except(y)) | (Except(y), Cells(x)) => Except(Set::Minus(b(y), b(x))),
            (Except(x), Except(y)) => Except(Set::Inter(b(x), b(y))),
        },
        _ => return None,
    })
}

/// Whether a set is the same for every chosen cell: it names no cell at all (a conservative
/// test; sets that name cells are left to be asked cell by cell).
fn cell_free(s: &Set) -> bool {
    match s {
        Set::Const(_)
        | Set::Empty
        | Set::Pieces(_)
        | Set::AllPieces
        | Set::Sources(_)
        | Set::Territory(_) => true,
        Set::Union(a, b) | Set::Inter(a, b) | Set::Minus(a, b) => cell_free(a) && cell_free(b),
        Set::Adjacent(a, _) | Set::Leap(a, _) | Set::Liberties(a) | Set::Surrounded(a) => {
            cell_free(a)
        }
        Set::Single(_)
        | Set::Captured(..)
        | Set::Ends(..)
        | Set::Neighbours(..)
        | Set::Between(..)
        | Set::Ring(..)
        | Set::Group(_)
        // Its condition may ask about the chosen cell.
        | Set::If(..)
        | Set::Filter(..) => false,
    }
}

/// Where control really goes when it is sent to `target`: past jumps and tests of
/// constants (a parameter folded away), which the runners would otherwise step through one
/// at a time. A loop's back edge, for one, often passes several.
fn landing(code: &[Instr], mut target: usize) -> usize {
    // Bounded: a cycle of jumps alone (an empty endless loop) is left to the runners'
    // budgets, and any cell of it is as good a target as another.
    for _ in 0..code.len() {
        target = match code.get(target) {
            Some(Instr::Jump(t)) => *t as usize,
            Some(Instr::JumpUnless(c, t)) => match constant(c) {
                Some(false) => *t as usize,
                Some(true) => target + 1,
                None => break,
            },
            _ => break,
        };
    }
    target
}

/// Points every jump, test and choice straight at where control lands (see [`landing`]).
/// No instruction moves, so every address others hold stays right.
pub(super) fn thread_jumps(code: &mut [Instr]) {
    for pc in 0..code.len() {
        let land = |t: u32| landing(code, t as usize) as u32;
        let replacement = match &code[pc] {
            // A jump to a `stop` might as well stop.
            Instr::Jump(t) if matches!(code.get(land(*t) as usize), Some(Instr::Stop)) => {
                Instr::Stop
            }
            Instr::Jump(t) => Instr::Jump(land(*t)),
            Instr::JumpUnless(c, t) if constant(c) == Some(false) => Instr::Jump(land(*t)),
            Instr::JumpUnless(c, _) if constant(c) == Some(true) => {
                Instr::Jump(land(pc as u32 + 1))
            }
            Instr::JumpUnless(_, t) => {
                let t = land(*t);
                if let Instr::JumpUnless(_, target) = &mut code[pc] {
                    *target = t;
                }
                continue;
            }
            Instr::Choose(c) => {
                let otherwise = land(c.otherwise);
                let bodies: Vec<u32> = c.alts.iter().map(|a| land(a.body)).collect();
                if let Instr::Choose(c) = &mut code[pc] {
                    c.otherwise = otherwise;
                    for (a, body) in c.alts.iter_mut().zip(bodies) {
                        a.body = body;
                    }
                }
                continue;
            }
            _ => continue,
        };
        code[pc] = replacement;
    }
}

/// The value of a condition that does not depend on the position (parameters make such
/// conditions: `if not chains`, `turn == 1 and handicap > 0` with no handicap).
fn constant(c: &Cond) -> Option<bool> {
    match c {
        Cond::Const(b) => Some(*b),
        Cond::Not(a) => constant(a).map(|a| !a),
        Cond::And(a, b) => match (constant(a), constant(b)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        Cond::Or(a, b) => match (constant(a), constant(b)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// Drops the instructions no run reaches (threading leaves many) and the jumps to where
/// control would go anyway, then renumbers: a step then runs no instruction that does
/// nothing. `entry` (the agreement's start) is renumbered with the rest.
pub(super) fn compact(code: &mut Vec<Instr>, entry: &mut Option<u32>, loops: &mut [LoopSpan]) {
    let n = code.len();
    let mut keep = vec![false; n];
    let mut stack: Vec<usize> = std::iter::once(0)
        .chain(entry.map(|e| e as usize))
        .collect();
    let mut next = Vec::new();
    while let Some(pc) = stack.pop() {
        if pc >= n || keep[pc] {
            continue;
        }
        keep[pc] = true;
        next.clear();
        successors(code, pc, &mut next);
        if let Instr::Choose(c) = &code[pc] {
            next.extend(c.alts.iter().map(|a| a.body as usize));
        }
        stack.extend(next.iter().copied());
    }
    // `at[pc]`: the new address of the first kept instruction from pc on.
    let addresses = |keep: &[bool]| {
        let mut at = vec![0u32];
        for &kept in keep {
            at.push(at[at.len() - 1] + u32::from(kept));
        }
        at
    };
    // A jump whose target and successor renumber alike does nothing; dropping one can make
    // another such, so repeat until none is left.
    loop {
        let at = addresses(&keep);
        let idle = (0..n).find(|&pc| {
            keep[pc] && matches!(code[pc], Instr::Jump(t) if at[t as usize] == at[pc + 1])
        });
        match idle {
            Some(pc) => keep[pc] = false,
            None => break,
        }
    }
    let at = addresses(&keep);
    let old = std::mem::take(code);
    for (pc, mut instr) in old.into_iter().enumerate() {
        if !keep[pc] {
            continue;
        }
        match &mut instr {
            Instr::Jump(t) | Instr::JumpUnless(_, t) => *t = at[*t as usize],
            Instr::Choose(c) => {
                c.otherwise = at[c.otherwise as usize];
                for a in &mut c.alts {
                    a.body = at[a.body as usize];
                }
            }
            _ => {}
        }
        code.push(instr);
    }
    if let Some(e) = entry {
        *e = at[*e as usize];
    }
    // Kept instructions keep their order, so a loop's range stays one range.
    for l in loops {
        (l.start, l.end) = (at[l.start as usize], at[l.end as usize]);
    }
}

/// Successors of an instruction, without entering the options of a choice.
fn successors(code: &[Instr], pc: usize, out: &mut Vec<usize>) {
    match &code[pc] {
        Instr::Choose(c) => out.push(c.otherwise as usize),
        Instr::JumpUnless(_, t) => {
            out.push(pc + 1);
            out.push(*t as usize);
        }
        Instr::Jump(t) => out.push(*t as usize),
        Instr::Stop => {}
        _ => out.push(pc + 1),
    }
}

/// Explores from `starts`; `stop_at_choose` treats a choice as a place where the turn may
/// continue only through its `otherwise` branch. Returns (reaches a choice, reaches a require).
fn explore(code: &[Instr], starts: &[usize]) -> (bool, bool) {
    let mut seen = vec![false; code.len() + 1];
    let mut stack: Vec<usize> = starts.to_vec();
    let (mut choice, mut require) = (false, false);
    let mut next = Vec::new();
    while let Some(pc) = stack.pop() {
        if pc >= code.len() || seen[pc] {
            continue;
        }
        seen[pc] = true;
        match &code[pc] {
            Instr::Choose(_) => choice = true,
            Instr::Require(..) => require = true,
            _ => {}
        }
        next.clear();
        successors(code, pc, &mut next);
        stack.extend(next.iter().copied());
    }
    (choice, require)
}

pub(super) fn analyse(code: &mut [Instr]) {
    for pc in 0..code.len() {
        let Instr::Choose(c) = &code[pc] else {
            continue;
        };
        let mut starts: Vec<usize> = c.alts.iter().map(|a| a.body as usize).collect();
        starts.push(c.otherwise as usize);
        let (more_choices, _) = explore(code, &starts);
        let facts: Vec<(bool, bool)> = c
            .alts
            .iter()
            .map(|a| explore(code, &[a.body as usize]))
            .collect();
        if let Instr::Choose(c) = &mut code[pc] {
            c.last_choice = !more_choices;
            for (a, (choice, require)) in c.alts.iter_mut().zip(facts) {
                a.needs_trial = require;
                a.ends_turn = !choice;
            }
        }
    }
}
