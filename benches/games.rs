//! One benchmark group per bundled game: a random playout from the start, perft from the
//! start at a depth that takes milliseconds, and listing the legal steps of mid-game
//! positions. Run with `cargo bench`; `outflank bench` prints the same kind of figures as a
//! table, and benches/vs-reference.sh compares Othello with the hand-written reference.

// The tests are held to clippy's default lints; the pedantic set is for the library.
#![allow(clippy::pedantic)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use outflank::agents::{game_seed, random_game};
use outflank::engine::rng::Rng;
use outflank::engine::Engine;

fn load(path: &str) -> Engine {
    let source = outflank::source::read_source(path).expect("bundled games are readable");
    let checked = outflank::check::check(source, &outflank::source::FsLoader, &[])
        .unwrap_or_else(|_| panic!("{path} checks"));
    Engine::new(checked.game)
}

fn games(c: &mut Criterion) {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("the crate's directory");
    let mut files: Vec<String> = std::fs::read_dir("games")
        .expect("run from the repository root")
        .filter_map(std::result::Result::ok)
        .map(|e| format!("games/{}", e.file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".rules"))
        .collect();
    files.sort();
    for file in files {
        let engine = load(&file);
        let start = engine.start().expect("the start position plays");
        let name = file.trim_start_matches("games/").trim_end_matches(".rules");
        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        let mut game = 0;
        group.bench_function("random playout", |b| {
            b.iter(|| {
                game += 1;
                let mut rng = Rng::new(game_seed(1, game));
                random_game(&engine, black_box(&start), &mut rng).expect("games end")
            });
        });
        // The deepest perft below about a million leaves.
        let depth = (1..=12)
            .take_while(|&d| engine.perft(&start, d).expect("perft runs") < 1_000_000)
            .last()
            .unwrap_or(1);
        group.bench_function(format!("perft {depth}"), |b| {
            b.iter(|| engine.perft(black_box(&start), depth).expect("perft runs"));
        });
        // Mid-game positions: twenty steps into seeded random games.
        let positions: Vec<_> = (0..16)
            .map(|g| {
                let mut rng = Rng::new(game_seed(2, g));
                engine
                    .random_playout(&start, &mut rng, 20)
                    .expect("games play")
                    .0
            })
            .collect();
        let mut buf = Vec::new();
        group.bench_function("legal steps", |b| {
            b.iter(|| {
                for s in &positions {
                    engine.steps(black_box(s), &mut buf).expect("steps list");
                }
            });
        });
        group.finish();
    }
}

criterion_group!(benches, games);
criterion_main!(benches);
