//! Every integration test, in one binary: the suite links once, not once per file (a link
//! took seconds each, and the files were two dozen). Each file below is a module; run one
//! with `cargo test --test suite NAME::`.

// The tests are held to clippy's default lints; the pedantic set is for the library.
#![allow(clippy::pedantic)]

mod common;

mod allocation;
mod analysis;
mod ataxx;
mod board;
mod browser;
mod browser_views;
mod cli;
mod cli_design;
mod cli_help;
mod cli_play;
mod cli_solve;
mod compiled;
mod diagnostics;
mod docs;
mod editors;
mod format;
mod formats;
mod fuzz;
mod fuzz_formats;
mod games;
mod hex;
mod house;
mod instructions;
mod json;
mod language;
mod leaps;
mod lsp;
mod lsp_robustness;
mod negamax;
mod perft;
mod players;
mod playouts;
mod quantifiers;
mod random_rules;
mod reliability;
mod reliability_limits;
mod reversi_go;
mod robustness;
mod rolit;
mod runner;
mod runner_faults;
mod runner_solving;
mod scaling;
mod serve;
mod serve_editor;
mod serve_guard;
mod solver;
mod stable;
mod start_values;
mod swap;
mod symmetry;
mod terminal;
mod tutorial;
mod vect_reverse;
mod verto;
mod warnings;

/// With `autotests` off, a file left out of the list above would never run.
#[test]
fn every_test_file_is_in_the_suite() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let list = std::fs::read_to_string(format!("{dir}/suite.rs")).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(module) = name.strip_suffix(".rs").filter(|m| *m != "suite") {
            assert!(
                list.contains(&format!("\nmod {module};\n")),
                "tests/{name} is not listed in tests/suite.rs"
            );
        }
    }
}
