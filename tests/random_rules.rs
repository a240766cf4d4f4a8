//! Random rules files, each run by the compiled runner with all its fast paths and by the plain
//! run of the same program (every `where` asked cell by cell as written, no recognised shape):
//! the same random playouts from the same seeds, the same perft counts, the same errors.
//!
//! The files are put together from pieces of the language (board shapes, lines, kinds of
//! turn, end conditions, scores), so that shapes no bundled game has are met too: a word or a
//! cell as a later option, `auto` with `require`, chains, groups, removed cells, single
//! directions, rings and distances, a counter, joined edges.

use outflank::check::check;
use outflank::engine::state::State;
use outflank::engine::{Engine, RuleError};
use outflank::source::{NoFiles, SourceFile};
use proptest::prelude::*;

const LINES: [&str; 5] = [
    "opponent+ friend",
    "opponent+ friend along south",
    "opponent+ friend along orthogonal",
    "opponent? friend along diagonal",
    "opponent{2} empty",
];

/// Turn programs; `L` is the line, `COND` an extra test on the chosen cell `c`, `REQ` a
/// `require` (or nothing).
const TURNS: [&str; 7] = [
    // One placement that outflanks.
    "choose c in empty where some(captured(L, c)) { place c  flip captured(L, c) }",
    // Placements, a word and a pass in one choice.
    r#"choose {
        c in empty where some(captured(L, c)) or COND { place c  flip captured(L, c)  REQ }
        "skip" where turn > 6 and holder(star) == nobody { take star }
        pass
    }"#,
    // A chain: after the placement, more captures one at a time while any are left.
    "choose c in empty where some(captured(L, c)) {
        place c
        while some(captured(L, c)) {
            choose d in captured(L, c) { flip d }
        }
        REQ
    }",
    // Two steps: a placement, then maybe a second on a neighbour.
    "choose c in empty where COND { place c  flip captured(L, c)  REQ }
     if count(empty) > 4 {
        choose e in empty & adjacent(friend) where not some(ends(L, e)) { place e }
     }",
    // A forced choice: taken at once when only one candidate passes.
    "choose auto c in empty where COND { place c  flip captured(L, c)  REQ }",
    // A later option of cells among three.
    r#"choose {
        c in empty where some(captured(L, c)) { place c  flip captured(L, c) }
        "star" where holder(star) != mover and turn > 3 { take star }
        d in empty & adjacent(friend) where COND_D { place d  REQ_D }
    }"#,
    // Go-like: placements that must keep their group breathing, surrounded groups flip.
    "choose c in empty where COND or turn > 8 {
        place c
        flip surrounded(opponent & neighbours(c, orthogonal))
        require some(liberties(group(c)))
        REQ
    }",
];

const CONDS: [&str; 10] = [
    "true",
    // Parts that do not read the chosen cell, asked once for all candidates.
    "count(empty) > 20",
    "turn > 3 and some(neighbours(c) & friend) and count(friend) >= count(opponent)",
    "some(neighbours(c) & (if turn > 4 then friend else opponent))",
    "some(neighbours(c) & friend)",
    "count(neighbours(c) & empty) >= 2",
    "c in edges",
    "not some(neighbours(c, diagonal) & opponent)",
    // Positions and distances.
    "distance(c, at(1, 1)) >= 2 and row(c) != 2 and column(c) <= 4",
    "some(ring(c, 2) & friend) or none(empty & neighbours(c, south))",
];

const REQUIRES: [&str; 5] = [
    "",
    "require count(friend) > 2",
    "require count(opponent) != 3",
    "require some(liberties(group(c)))",
    // A counter spent by each placement, which refuses once it runs out.
    "add left -1  require mover.left >= 0",
];

const ENDS: [&str; 6] = [
    "end when blocked",
    "end when passes >= 2",
    "end after step when count(black & corners) >= 2 winner black",
    "end after step for each p when count(p) >= 12 winner p",
    "end after turn when count(pieces) >= 14 winner (if turn > 20 then black else white)",
    "end for each p when p.left < 3 winner opponent(p)",
];

const SCORES: [&str; 4] = [
    "count(p)",
    "count(p) + count(territory(p))",
    "count(p & edges) * 2 - count(p & corners)",
    "count(p) + p.left",
];

#[derive(Debug, Clone)]
struct Recipe {
    width: usize,
    height: usize,
    /// Joined edges: none, a cylinder's or a torus's.
    edges: usize,
    removed: bool,
    line: usize,
    turn: usize,
    cond: usize,
    require: usize,
    ends: Vec<usize>,
    score: usize,
    /// Two players, or three (red joins, and `opponent(p)` becomes `next(p)`).
    players: usize,
    /// A kind of piece on a3: none, one without a role, one `as friend`, one `as opponent`.
    kind: usize,
}

impl Recipe {
    fn text(&self) -> String {
        // The same tests asked of the cell `d`.
        let of_d = |text: &str| {
            text.replace("(c)", "(d)")
                .replace("(c,", "(d,")
                .replace("c in", "d in")
        };
        let turn = TURNS[self.turn]
            .replace("COND_D", &of_d(CONDS[self.cond]))
            .replace("REQ_D", &of_d(REQUIRES[self.require]))
            .replace("COND", CONDS[self.cond])
            .replace("REQ", REQUIRES[self.require])
            .replace("captured(L,", "captured(run,")
            .replace("ends(L,", "ends(run,");
        let mut ends: Vec<String> = self.ends.iter().map(|&e| ENDS[e].to_string()).collect();
        // Every game ends: a turn limit bounds the ones whose own ends may never hold.
        ends.push("end when turn > 50".into());
        let (red, red_setup) = if self.players == 3 {
            for end in &mut ends {
                *end = end.replace("opponent(p)", "next(p)");
            }
            ("player red 'R'", "red on a2")
        } else {
            ("", "")
        };
        let (kind, kind_setup) = match self.kind {
            0 => ("", ""),
            k => (
                [
                    "",
                    "piece grey 'G'",
                    "piece grey 'G' as friend",
                    "piece grey 'G' as opponent",
                ][k],
                "grey on a3",
            ),
        };
        format!(
            "board {w} x {h} {edges}
            {removed}
            player black 'B'
            player white 'W'
            {red}
            {kind}
            setup {{
              black on b2, c3
              white on c2, b3
              {red_setup}
              {kind_setup}
            }}
            token star
            counter left = 9
            region edges = rows(1, 1) | cols(1, 1)
            line run = {line}
            turn {{
              {turn}
            }}
            {ends}
            score p = {score}
            ",
            w = self.width,
            h = self.height,
            // A torus three cells across holds no ring of distance 2 (CONDS asks for one):
            // such boards are cylinders instead.
            edges = match self.edges {
                2 if self.width.min(self.height) < 4 => "cylinder",
                e => ["", "cylinder", "torus"][e],
            },
            removed = if self.removed {
                "removed cells(a1)"
            } else {
                ""
            },
            line = LINES[self.line],
            ends = ends.join("\n            "),
            score = SCORES[self.score],
        )
    }
}

fn recipe() -> impl Strategy<Value = Recipe> {
    (
        (3usize..7, 3usize..7, 0usize..3, any::<bool>()),
        0..LINES.len(),
        0..TURNS.len(),
        0..CONDS.len(),
        0..REQUIRES.len(),
        proptest::collection::vec(0..ENDS.len(), 0..3),
        (0..SCORES.len(), 2usize..4, 0usize..4),
    )
        .prop_map(
            |(
                (width, height, edges, removed),
                line,
                turn,
                cond,
                require,
                ends,
                (score, players, kind),
            )| Recipe {
                width,
                height,
                edges,
                removed,
                line,
                turn,
                cond,
                require,
                ends,
                score,
                players,
                kind,
            },
        )
}

/// What a playout is judged by: the final position and result, or the error's message and
/// place.
fn summary(r: Result<(State, u64), RuleError>, players: u8) -> String {
    match r {
        Ok((s, n)) => format!(
            "{:?} mover {} turn {} passes {} tokens {:?} counter {:?} outcome {:?} after {n} steps",
            s.pieces,
            s.mover,
            s.turn,
            s.passes,
            s.tokens,
            // The one counter's values (the turn's variables mean nothing once a game is
            // over).
            (0..players)
                .map(|p| s.regs[outflank::ir::counter_slot(0, p, players)])
                .collect::<Vec<_>>(),
            s.outcome
        ),
        Err(e) => format!("error {} at {:?}", e.message, e.at.map(|(_, span)| span)),
    }
}

fn perft(e: &Engine, s: &State, depth: u32) -> String {
    match e.perft(s, depth) {
        Ok(n) => n.to_string(),
        Err(e) => format!("error {}", e.message),
    }
}

/// Runs one recipe's file with the runner's fast paths and as a plain run: the same start (or the same error), the same
/// playouts from four seeds, the same perft counts.
fn run_alike(r: &Recipe, seed: u64) -> Result<(), TestCaseError> {
    let text = r.text();
    let checked = check(
        SourceFile::new("random.rules", text.as_str()),
        &NoFiles,
        &[],
    );
    let checked = match checked {
        Ok(c) => c,
        Err(outflank::check::CheckError::Rules(d)) => {
            panic!(
                "the generated rules must check:\n{text}\n{}",
                d.render(false, 100)
            )
        }
        Err(e) => panic!("{text}: {e:?}"),
    };
    let fast = Engine::new(checked.game.clone());
    let plain = Engine::new(checked.game).plain();
    let players = r.players as u8;
    // Finding the first mover's steps may already run a loop that never ends (a chain whose
    // every option fails a later `require` goes round with nothing changed): both runs
    // must stop it with the same error.
    let start = match (fast.start(), plain.start()) {
        (Ok(a), Ok(b)) => {
            prop_assert_eq!(
                summary(Ok((a, 0)), players),
                summary(Ok((b, 0)), players),
                "{}",
                text
            );
            b
        }
        (a, b) => {
            let a = summary(a.map(|s| (s, 0)), players);
            let b = summary(b.map(|s| (s, 0)), players);
            prop_assert_eq!(a, b, "{}", text);
            return Ok(());
        }
    };
    for game in 0..4 {
        let seed = seed.wrapping_add(game);
        let a = fast.random_playout(&start, &mut outflank::engine::rng::Rng::new(seed), u64::MAX);
        let b = plain.random_playout(&start, &mut outflank::engine::rng::Rng::new(seed), u64::MAX);
        prop_assert_eq!(summary(a, players), summary(b, players), "{}", text);
    }
    // Perft from the start and from a position a few steps into a game.
    let (mid, _) = plain
        .random_playout(
            &start,
            &mut outflank::engine::rng::Rng::new(seed),
            3 + seed % 5,
        )
        .unwrap_or((start, 0));
    for from in [start, mid] {
        for depth in 1..=3 {
            prop_assert_eq!(
                perft(&fast, &from, depth),
                perft(&plain, &from, depth),
                "{}",
                text
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn random_rules_run_alike_on_the_fast_and_the_plain_runner(r in recipe(), seed in any::<u64>()) {
        run_alike(&r, seed)?;
    }
}

/// A case CI met: three players and a grey `as opponent` on a cylinder, with a chain whose
/// options all fail the closing `require`, so the chain's loop goes round with nothing
/// changed while the first mover's steps are being found.
#[test]
fn a_chain_that_never_ends_stops_the_runner_and_the_plain_run_alike_at_the_start() {
    let r = Recipe {
        width: 4,
        height: 4,
        edges: 1,
        removed: false,
        line: 3,
        turn: 2,
        cond: 0,
        require: 2,
        ends: vec![],
        score: 0,
        players: 3,
        kind: 3,
    };
    let text = r.text();
    let checked = check(
        SourceFile::new("random.rules", text.as_str()),
        &NoFiles,
        &[],
    )
    .unwrap();
    let err = Engine::new(checked.game).start().unwrap_err();
    assert!(
        err.message.contains("without reaching a choice"),
        "{}",
        err.message
    );
    run_alike(&r, 0).unwrap();
}
