//! A fuzz campaign on the stable toolchain (proptest): generated rules files on boards of every
//! shape, with loops, nested blocks and deep nesting; random command lines; tampered records;
//! frames a careless client writes to the language server; the cargo-fuzz corpus of records,
//! shards and transcripts, edited. Each property says what must never happen: a panic, a run
//! that does not stop, a forged result that replays, an edited shard that merges. CI runs the default cases (about two minutes on two cores); a release
//! runs many more with OUTFLANK_FUZZ_CASES (docs/RELIABILITY.md).

use crate::common;

use outflank::check::{check, CheckError};
use outflank::engine::rng::Rng;
use outflank::engine::state::State;
use outflank::engine::Engine;
use outflank::source::{MemoryFiles, NoFiles, SourceFile};
use proptest::prelude::*;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `default` cases per property from a fixed seed, so that CI runs the same cases in the same
/// time every run; OUTFLANK_FUZZ_CASES asks for that many cases from a fresh seed each run (or
/// from PROPTEST_RNG_SEED, to repeat one).
pub(crate) fn config(default: u32) -> ProptestConfig {
    let campaign = std::env::var("OUTFLANK_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok());
    let mut config = ProptestConfig::with_cases(campaign.unwrap_or(default));
    if campaign.is_none() && std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(0x0f1a_2026);
    }
    config
}

// ---- generated rules files ------------------------------------------------------------------

/// A condition for an end: `blocked`, or one a turn may ask too.
pub(crate) fn condition() -> impl Strategy<Value = String> {
    prop_oneof![1 => Just("blocked".to_string()), 8 => turn_condition()]
}

/// A condition that needs no variable (`blocked` may not be asked in a turn).
pub(crate) fn turn_condition() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("true".to_string()),
        Just("false".to_string()),
        Just("some(empty)".to_string()),
        Just("none(friend)".to_string()),
        Just("turn > 3".to_string()),
        Just("passes >= 2".to_string()),
        Just("count(friend) >= count(opponent)".to_string()),
        Just("count(empty) / count(friend) > 1".to_string()),
        Just("holder(button) == nobody".to_string()),
        Just("holder(button) == mover".to_string()),
        Just("some(surrounded(opponent))".to_string()),
    ]
}

/// A condition about the chosen cell `c`.
pub(crate) fn cell_condition() -> impl Strategy<Value = String> {
    prop_oneof![
        turn_condition(),
        Just("some(captured(outflank, c))".to_string()),
        Just("some(neighbours(c) & opponent)".to_string()),
        Just("c in corners".to_string()),
        Just("not (c in border)".to_string()),
        Just("count(liberties(group(c))) > 0".to_string()),
        Just("some(territory(mover))".to_string()),
    ]
}

pub(crate) fn cells() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("empty"),
        Just("all"),
        Just("friend"),
        Just("corners"),
        Just("border - corners"),
        Just("empty & edge"),
    ]
    .prop_map(str::to_string)
}

/// A condition wrapped in `depth` brackets and `nots` negations: past the limits, an error.
pub(crate) fn nested(c: String, depth: usize, nots: usize) -> String {
    format!(
        "{}{}{c}{}",
        "not ".repeat(nots),
        "(".repeat(depth),
        ")".repeat(depth)
    )
}

/// Statements inside a `choose c` (they may use `c`), nested up to a few levels.
pub(crate) fn inner_block() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("place c".to_string()),
        Just("flip captured(outflank, c)".to_string()),
        Just("stop".to_string()),
        Just("let n = count(friend)".to_string()),
        Just("take button".to_string()),
        Just("flip surrounded(opponent)".to_string()),
        cell_condition().prop_map(|c| format!("require {c}")),
        (cells(), cell_condition())
            .prop_map(|(s, w)| format!("choose d in {s} where {w} {{ place d }}")),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (
                cell_condition(),
                proptest::collection::vec(inner.clone(), 0..4)
            )
                .prop_map(|(c, b)| format!("while {c} {{ {} }}", b.join("\n"))),
            (
                cell_condition(),
                proptest::collection::vec(inner.clone(), 0..3),
                proptest::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(c, a, b)| format!(
                    "if {c} {{ {} }} else {{ {} }}",
                    a.join("\n"),
                    b.join("\n")
                )),
            (0u32..4, proptest::collection::vec(inner, 0..3))
                .prop_map(|(n, b)| format!("repeat {n} {{ {} }}", b.join("\n"))),
        ]
    })
}

/// A turn: choices of `c` with their bodies, maybe in a loop or behind a phase test.
pub(crate) fn turn() -> impl Strategy<Value = String> {
    let choice = (
        cells(),
        cell_condition(),
        proptest::collection::vec(inner_block(), 0..4),
        any::<bool>(),
        prop_oneof![3 => Just(""), 1 => Just(" mark \"x\""), 1 => Just(" mark \"\"")],
        prop_oneof![
            3 => Just(String::new()),
            1 => turn_condition().prop_map(|w| format!(" \"swap\" where {w} {{ take button }}")),
            1 => Just(" \"x\" { stop }".to_string()),
        ],
    )
        .prop_map(|(set, cond, body, pass, mark, word)| {
            format!(
                "choose {{ c in {set} where {cond}{mark} {{ {} }}{word}{} }}",
                body.join("\n"),
                if pass { " pass" } else { "" }
            )
        });
    (
        proptest::collection::vec(choice, 1..3),
        turn_condition(),
        0usize..3,
    )
        .prop_map(|(choices, cond, shape)| match shape {
            0 => choices.join("\n"),
            1 => format!("while {cond} {{ {} }}", choices.join("\n")),
            _ => format!(
                "if {cond} {{ {} }} else {{ {} }}",
                choices[0],
                choices.join("\n")
            ),
        })
}

prop_compose! {
    /// A whole rules file: boards from one cell wide to the largest, removed cells, setups in
    /// rows or by cell, any turn, end conditions and scores with deep nesting now and then.
    fn rules_file()(
        (width, height) in prop_oneof![
            4 => (1usize..=10, 1usize..=10),
            1 => (1usize..=26, 1usize..=26),
        ],
        removed in proptest::collection::vec((0usize..26, 0usize..26), 0..4),
        pieces in proptest::collection::vec((0usize..26, 0usize..26, any::<bool>()), 0..6),
        symbols in prop_oneof![
            18 => Just(('B', 'W')),
            1 => Just(('B', 'B')),
            1 => Just(('.', '/')),
        ],
        turn in turn(),
        end in condition(),
        (depth, nots) in prop_oneof![
            8 => Just((0usize, 0usize)),
            1 => (0usize..80, 0usize..20),
        ],
        ifs in prop_oneof![4 => Just(0usize), 1 => 0usize..70],
        divide in any::<bool>(),
        agreement in prop_oneof![
            3 => Just(String::new()),
            1 => inner_block().prop_map(|b| format!(
                "agreement {{\n  while true {{ choose {{ c in opponent {{ {b} }} \"done\" {{ stop }} }} }}\n}}\n"
            )),
        ],
    ) -> String {
        let cell = |x: usize, y: usize| format!("{}{}", (b'a' + (x % 26) as u8) as char, y % 26 + 1);
        let mut text = format!("title \"generated\"\nboard {width} x {height}\n");
        if !removed.is_empty() {
            let cells: Vec<String> =
                removed.iter().map(|&(x, y)| cell(x % width, y % height)).collect();
            text.push_str(&format!("removed {}\n", cells.join(" | ")));
        }
        text.push_str(&format!(
            "player black '{}'\nplayer white '{}'\nfirst black\n",
            symbols.0, symbols.1
        ));
        if !pieces.is_empty() {
            text.push_str("setup {\n");
            for (x, y, black) in pieces {
                let who = if black { "black" } else { "white" };
                // Now and then a cell off the board.
                let (x, y) = if x == 25 { (x, y) } else { (x % width, y % height) };
                text.push_str(&format!("  {who} on {}\n", cell(x, y)));
            }
            text.push_str("}\n");
        }
        text.push_str("region edge = border\nline outflank = opponent+ friend\ntoken button\n");
        text.push_str(&agreement);
        text.push_str(&format!("turn {{\n{turn}\n}}\n"));
        text.push_str(&format!("end when {}\n", nested(end, depth, nots)));
        text.push_str("end when none(empty)\n");
        let chain = "if turn > 1 then 1 else ".repeat(ifs);
        let share = if divide { " / count(p | opponent(p))" } else { "" };
        text.push_str(&format!(
            "score p = count(p){share} + {chain}0 + (if holder(button) == p then 1 else 0)\n"
        ));
        text
    }
}

/// Plays `text`, if it checks, a few random games of bounded length: every error is a value.
pub(crate) fn play_generated(text: &str) {
    play_checked(check(
        SourceFile::new("generated.rules", text),
        &NoFiles,
        &[],
    ));
}

/// Plays random steps from `s` until the game or agreement is over, at most `limit` of them.
pub(crate) fn random_steps(e: &Engine, mut s: State, rng: &mut Rng, limit: usize) -> State {
    let mut buf = Vec::new();
    for _ in 0..limit {
        if s.is_over() || e.steps(&s, &mut buf).is_err() || buf.is_empty() {
            break;
        }
        match e.apply(&s, buf[rng.below(buf.len())]) {
            Ok(t) => s = t,
            Err(_) => break,
        }
    }
    s
}

pub(crate) fn play_checked(checked: Result<outflank::check::Checked, CheckError>) {
    match checked {
        Ok(checked) => {
            let e = Engine::new(checked.game);
            let Ok(start) = e.start() else { return };
            for seed in 0..3 {
                let mut rng = Rng::new(seed);
                let end = random_steps(&e, start, &mut rng, 300);
                // A stopped game may go to its agreement, and play may resume after it.
                if end.is_over() {
                    if let Ok(Some(a)) = e.begin_agreement(&end, end.mover) {
                        let _ = e.outcome(&random_steps(&e, a, &mut rng, 50), None);
                    }
                    if let Ok(resumed) = e.resume(&end, end.mover) {
                        random_steps(&e, resumed, &mut rng, 50);
                    }
                }
            }
            let _ = e.random_playout(&start, &mut Rng::new(7), 5_000);
            let _ = e.explain(&start, "a1");
        }
        // Every diagnostic renders, whatever its span.
        Err(CheckError::Rules(d)) => {
            assert!(d.has_errors());
            let _ = d.render(false, 80);
        }
        Err(CheckError::Setting(_)) => {}
    }
}

/// What a variant may say after `extends`: each replaces a base item (or adds one).
pub(crate) fn variant_item() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("title \"variant\"".to_string()),
        (1usize..=12, 1usize..=12).prop_map(|(w, h)| format!("board {w} x {h}")),
        Just("removed a1".to_string()),
        Just("first white".to_string()),
        Just("player black 'X'".to_string()),
        Just("region edge = corners".to_string()),
        Just("line outflank = opponent+ empty".to_string()),
        Just("token coin".to_string()),
        Just("setup { white on a1 }".to_string()),
        Just("end when turn > 4".to_string()),
        Just("score p = count(p) * 2".to_string()),
        Just("set size = 3".to_string()),
        Just("agreement { stop }".to_string()),
        turn().prop_map(|t| format!("turn {{\n{t}\n}}")),
    ]
}

/// How variant files hang together: one level, two, a cycle, a missing base.
#[derive(Debug, Clone, Copy)]
enum Chain {
    One,
    Two,
    Cycle,
    Missing,
}

proptest! {
    // 2,500 cases, not 5,000: `.ci/fuzz` now runs a coverage-guided campaign over rules files in
    // CI too, and these cases cost 35 s of every test run.
    #![proptest_config(config(2500))]

    #[test]
    fn generated_rules_never_panic_or_run_on(text in rules_file()) {
        play_generated(&text);
    }
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn generated_variants_never_panic_or_run_on(
        base in rules_file(),
        items in proptest::collection::vec(variant_item(), 0..4),
        chain in prop_oneof![
            Just(Chain::One), Just(Chain::Two), Just(Chain::Cycle), Just(Chain::Missing)
        ],
    ) {
        let variant = |of: &str| format!("extends \"{of}\"\n{}\n", items.join("\n"));
        let (files, top) = match chain {
            Chain::One => (vec![("base.rules", base)], variant("base.rules")),
            Chain::Two => (
                vec![("base.rules", base), ("middle.rules", variant("base.rules"))],
                variant("middle.rules"),
            ),
            Chain::Cycle => (
                vec![("base.rules", format!("extends \"top.rules\"\n{base}"))],
                variant("base.rules"),
            ),
            Chain::Missing => (vec![], variant("nowhere.rules")),
        };
        let mut files: Vec<(String, String)> =
            files.into_iter().map(|(n, t)| (n.to_string(), t)).collect();
        files.push(("top.rules".to_string(), top.clone()));
        let checked = check(SourceFile::new("top.rules", top), &MemoryFiles(files), &[]);
        // A missing base or a cycle is a diagnostic, never a panic or a loop.
        if matches!(chain, Chain::Cycle | Chain::Missing) {
            prop_assert!(checked.is_err());
        }
        play_checked(checked);
    }
}

// ---- command lines -------------------------------------------------------------------------

/// Runs the binary; a run that takes longer than `limit` is a hang.
pub(crate) fn run_bounded(args: &[String], input: &str, limit: Duration) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_outflank"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > limit {
            let _ = child.kill();
            panic!("outflank {args:?} did not stop within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

pub(crate) fn word(options: &[&'static str]) -> impl Strategy<Value = String> {
    proptest::sample::select(options.to_vec()).prop_map(str::to_string)
}

/// A value for any option: ordinary, empty, out of range, not a number, control characters.
pub(crate) fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        word(&[
            "0",
            "1",
            "2",
            "-1",
            "3.5",
            "nan",
            "inf",
            "1e400",
            "18446744073709551616"
        ]),
        word(&[
            "",
            " ",
            "d3",
            "d3 c3",
            "pass",
            "a1b2",
            "zz99",
            "\u{1b}[2J",
            "\u{7}x"
        ]),
        word(&[
            "size=6",
            "size=5",
            "size=",
            "=",
            "nosuch=1",
            "size=99999999999"
        ]),
        word(&[
            "random,random",
            "mcts:1,random",
            "alphabeta:1,greedy",
            "bogus",
            ","
        ]),
        word(&["....../......./", "BW/WB", "#", "legal", "last"]),
        "[ -~]{0,12}",
    ]
}

/// The options a command takes, each with values mostly right and sometimes wrong.
pub(crate) fn option_for(command: &str) -> BoxedStrategy<Vec<String>> {
    let flag = |f: &'static str| Just(vec![f.to_string()]).boxed();
    let with = |f: &'static str, values: &[&'static str]| {
        word(values)
            .prop_map(move |v| vec![f.to_string(), v])
            .boxed()
    };
    let set = with(
        "--set",
        &["size=4", "size=6", "size=5", "nosuch=1", "size=x"],
    );
    let moves = with(
        "--moves",
        &["", "d3", "c4 c3", "zz", "pass", "d3 \u{1b}[2J", "a1"],
    );
    let seed = with("--seed", &["0", "1", "18446744073709551615", "-1"]);
    let position = with(
        "--position",
        &[
            "....../....../..BW../..WB../....../......",
            "....../....../..BB../..BB../....../......",
            "BW/WB",
            "",
        ],
    );
    let to_move = with("--to-move", &["black", "white", "martian"]);
    let max_steps = with("--max-steps", &["1", "10", "0", "2000000"]);
    let player = |f: &'static str| {
        with(
            f,
            &[
                "human",
                "random",
                "greedy",
                "mcts:2",
                "alphabeta:1",
                "bogus",
                "mcts:0",
            ],
        )
    };
    let options: Vec<BoxedStrategy<Vec<String>>> = match command {
        "moves" => vec![
            set,
            moves,
            flag("--json"),
            flag("--steps"),
            with("--limit", &["0", "1", "3", "-1"]),
            position,
            to_move,
        ],
        "perft" => vec![
            set,
            moves,
            with("--depth", &["0", "1", "2", "-1", "x"]),
            flag("--divide"),
            flag("--json"),
        ],
        "run" => vec![
            set,
            seed,
            with("--games", &["1", "2", "0", "-1"]),
            with(
                "--agents",
                &[
                    "random,random",
                    "greedy,random",
                    "mcts:2,alphabeta:1",
                    "bogus",
                    "random",
                    "random,random,random",
                ],
            ),
            flag("--swap"),
            with("--jobs", &["1", "2", "0", "1025"]),
            flag("--json"),
            Just(vec!["--record".to_string(), temp("fuzz-run.jsonl")]).boxed(),
            position,
        ],
        "play" => vec![set, seed, max_steps, player("--black"), player("--white")],
        "solve" => vec![
            moves,
            flag("--json"),
            with("--memory", &["16", "64", "8", "x"]),
        ],
        "trace" => vec![set, seed, moves, max_steps, position, to_move],
        "explain" => vec![
            moves,
            word(&["d3", "a1", "", "pass", "\u{7}"])
                .prop_map(|m| vec![m])
                .boxed(),
        ],
        "render" => vec![
            moves,
            with("--mark", &["legal", "last", "bogus"]),
            with("--shade", &["corners", "nosuch"]),
            Just(vec!["--svg".to_string(), temp("fuzz.svg")]).boxed(),
        ],
        "bench" => vec![
            with("--seconds", &["0.05", "0", "nan", "inf", "-1"]),
            flag("--json"),
        ],
        "replay" => vec![flag("--quiet"), set],
        _ => vec![flag("--json")],
    };
    proptest::strategy::Union::new(options).boxed()
}

prop_compose! {
    /// A command on one of the bundled games with options it takes (values mostly right).
    fn plausible_command_line()(
        command in word(&[
            "check", "moves", "perft", "run", "play", "solve", "fmt", "test", "bench",
            "replay", "explain", "render", "trace",
        ]),
        file in word(&[
            "games/reversi-6x6.rules", "games/othello.rules", "games/verto-8x8.rules",
            "games/vect-reverse.rules", "games/reversi-go-9x9.rules",
        ]),
    )(
        options in proptest::collection::vec(option_for(&command), 0..4),
        command in Just(command),
        file in Just(file),
    ) -> Vec<String> {
        let mut args = vec![command.clone(), file];
        if command == "replay" {
            args.push(temp("fuzz-run.jsonl"));
        }
        args.extend(options.into_iter().flatten());
        args
    }
}

prop_compose! {
    /// Anything: a command or not, a file or not, options it may not take, values of any kind.
    fn chaotic_command_line()(
        command in word(&[
            "check", "moves", "perft", "run", "play", "solve", "fmt", "test", "bench",
            "replay", "explain", "render", "trace", "nosuch", "",
        ]),
        file in word(&[
            "games/reversi-6x6.rules", "games/vect-reverse.rules", "nosuch.rules",
            "/dev/null", "games", "tests/fixtures/invalid/item-typo.rules",
        ]),
        options in proptest::collection::vec((word(&[
            "--set", "--moves", "--depth", "--games", "--seed", "--agents", "--jobs",
            "--json", "--steps", "--limit", "--divide", "--position", "--to-move",
            "--seconds", "--max-steps", "--memory", "--record", "--black", "--white",
            "--mark", "--shade", "--svg", "--check", "--quiet", "--swap", "-x", "--",
        ]), proptest::option::of(value())), 0..5),
    ) -> Vec<String> {
        let mut args = vec![command, file];
        for (flag, value) in options {
            // Files the command writes go under target/, never into the repository.
            let value = match flag.as_str() {
                "--record" | "--svg" => Some(temp("fuzz-output")),
                // Small enough that a valid value ends soon.
                "--games" | "--depth" | "--jobs" | "--limit" | "--memory" => {
                    value.map(|v| if v.parse::<u64>().is_ok_and(|n| n > 2) { "2".into() } else { v })
                }
                "--seconds" => value.map(|v| if v.parse::<f64>().is_ok_and(|s| s > 0.05) { "0.05".into() } else { v }),
                _ => value,
            };
            args.push(flag);
            args.extend(value);
        }
        args
    }
}

pub(crate) fn command_line() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![3 => plausible_command_line(), 1 => chaotic_command_line()]
}

pub(crate) fn temp(name: &str) -> String {
    common::run::temp("fuzz", name)
}

proptest! {
    // 1,000 command lines, each a process: 23 s of every test run at 2,000.
    #![proptest_config(config(1000))]

    /// Any command line ends within the limit with exit 0, 1 (refused input) or 2 (usage),
    /// never by a signal or a panic.
    #[test]
    fn command_lines_end_cleanly(args in command_line()) {
        let limit = Duration::from_secs(60);
        let mut args = args;
        match args[0].as_str() {
            // The exact solution of a game is work without end, but not on a 4 x 4 board.
            "solve" => {
                let options: Vec<String> = args[2..]
                    .iter()
                    .filter(|a| !matches!(a.as_str(), "--set" | "--position" | "--to-move"))
                    .cloned()
                    .collect();
                args = ["solve", "games/othello.rules", "--set", "size=4"]
                    .map(String::from)
                    .to_vec();
                args.extend(options);
            }
            "bench" if !args.iter().any(|a| a == "--seconds") => {
                args.extend(["--seconds".into(), "0.05".into()]);
            }
            // Only ever checked: the files are the repository's.
            "fmt" => args.push("--check".into()),
            _ => {}
        }
        let o = run_bounded(&args, "?\nundo\nd3\nresign\nquit\n", limit);
        let err = String::from_utf8_lossy(&o.stderr);
        prop_assert!(!err.contains("panicked"), "{args:?}: {err}");
        prop_assert!(matches!(o.status.code(), Some(0..=2)), "{args:?}: {:?} {err}", o.status);
    }
}

// ---- records ---------------------------------------------------------------------------------
