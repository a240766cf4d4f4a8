//! What the checker compiles, read from the compiled game: the turn program's jumps threaded
//! and its dead code dropped, and conditions whose value is known before the game folded.

use crate::common::{engine, engine_from, game_files};
use outflank::engine::Engine;
use outflank::ir::{Cond, Instr};

/// Where control goes from each instruction (the targets the compiler wrote).
fn targets(code: &[Instr]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (pc, instr) in code.iter().enumerate() {
        match instr {
            Instr::Jump(t) | Instr::JumpUnless(_, t) => out.push((pc, *t as usize)),
            Instr::Choose(c) => {
                out.push((pc, c.otherwise as usize));
                out.extend(c.alts.iter().map(|a| (pc, a.body as usize)));
            }
            _ => {}
        }
    }
    out
}

/// Jumps are threaded and the code compacted when the rules are compiled: no jump, test or
/// choice sends control to a jump or to a test of a constant, no jump goes to the next
/// instruction, and every instruction can be reached; the runners would step through those
/// for nothing (a `while` loop's back edge used to pass three). The same games keep being
/// played: the runner, playout and example tests compare the runner with the plain run on them.
#[test]
fn compiled_programs_hold_no_idle_jumps_or_dead_code() {
    let threaded = |e: &Engine, what: &str| {
        let code = &e.game.program;
        let mut reached = vec![false; code.len() + 1];
        let mut stack = vec![0];
        stack.extend(e.game.agreement.map(|a| a as usize));
        while let Some(pc) = stack.pop() {
            if std::mem::replace(&mut reached[pc], true) {
                continue;
            }
            match code.get(pc) {
                Some(Instr::Jump(t)) => stack.push(*t as usize),
                Some(Instr::JumpUnless(_, t)) => stack.extend([pc + 1, *t as usize]),
                Some(Instr::Choose(c)) => {
                    stack.push(c.otherwise as usize);
                    stack.extend(c.alts.iter().map(|a| a.body as usize));
                }
                Some(Instr::Stop) | None => {}
                Some(_) => stack.push(pc + 1),
            }
        }
        for (pc, instr) in code.iter().enumerate() {
            assert!(reached[pc], "{what}: {pc} is never reached: {instr:?}");
            assert!(
                !matches!(instr, Instr::Jump(t) if *t as usize == pc + 1),
                "{what}: {pc} jumps to the next instruction"
            );
        }
        for (pc, t) in targets(code) {
            let lands_on_jump = matches!(
                code.get(t),
                Some(Instr::Jump(_) | Instr::JumpUnless(Cond::Const(_), _))
            );
            // A cycle of jumps alone has nowhere else to go.
            let cycle = matches!(code.get(t), Some(Instr::Jump(u)) if *u as usize == t);
            assert!(
                !lands_on_jump || cycle,
                "{what}: {pc} -> {t}: {:?}",
                code.get(t)
            );
        }
    };
    for file in game_files() {
        threaded(&engine(&file, &[]), &file);
    }
    // A constant test (a parameter switched off) and loops nested two deep.
    let e = engine_from(
        r#"
        param again = false
        board 4 x 4
        player black 'B'
        player white 'W'
        turn {
          while some(empty) {
            choose c in empty {
              place c
              while some(empty & neighbours(c)) {
                choose d in empty & neighbours(c) { place d }
                if not again { stop }
              }
            }
          }
        }
        end when none(empty)
        score p = count(p)
        "#,
    );
    threaded(&e, "nested loops");
    assert!(targets(&e.game.program).len() >= 4);
    // With the parameter switched off, the test of it is gone.
    assert!(!e
        .game
        .program
        .iter()
        .any(|i| matches!(i, Instr::JumpUnless(Cond::Const(_), _))));
}

/// A side of `and` or `or` known before the game decides the test or drops out of it, so a
/// test of a parameter switched off costs nothing in play.
#[test]
fn conditions_with_a_side_known_before_the_game_fold() {
    let tests = |set: &[(&str, &str)]| {
        let e = engine("games/reversi-go-9x9.rules", set);
        e.game
            .program
            .iter()
            .filter(|i| matches!(i, Instr::JumpUnless(..)))
            .count()
    };
    // `if turn == 1 and handicap > 0`: with no handicap it is never tested (the agreement's
    // `while true` is no test either); with one, it is, and so is `repeat handicap`'s count.
    assert_eq!(tests(&[]), 0);
    assert_eq!(tests(&[("handicap", "2")]), 2);
    // `or` with a side known true always holds; a known false side leaves the other.
    let e = engine_from(
        r#"
        param open = true
        board 4 x 4
        player black 'B'
        player white 'W'
        turn {
          choose c in empty where open or some(neighbours(c) & pieces) { place c }
          choose d in empty where not open or some(neighbours(d) & pieces) { place d }
        }
        end when none(empty)
        score p = count(p)
        "#,
    );
    let Instr::Choose(first) = &e.game.program[0] else {
        panic!("{:?}", e.game.program[0]);
    };
    let condition = &first.alts[0].condition;
    assert!(
        matches!(condition, None | Some(Cond::Const(true))),
        "{condition:?}"
    );
    // The second step of the turn keeps only its other side: the neighbours of a1.
    let s = e.start().unwrap();
    let s = e.play_history(&s, "a1").unwrap();
    let mut buf = Vec::new();
    e.steps(&s, &mut buf).unwrap();
    let names: Vec<String> = buf.iter().map(|&st| e.step_notation(&s, st)).collect();
    assert_eq!(names, ["-b1", "-a2", "-b2"]);
}
