//! Every integration test, in one binary: the suite links once, not once per file (a link
//! took seconds each, and the files were two dozen). Each file below is a module; run one
//! with `cargo test --test suite NAME::`.

mod common;

mod allocation;
mod ataxx;
mod board;
mod cli;
mod diagnostics;
mod docs;
mod fast_paths;
mod format;
mod fuzz;
mod games;
mod hex;
mod kernel;
mod language;
mod perft;
mod players;
mod playouts;
mod random_rules;
mod reliability;
mod reversi_go;
mod robustness;
mod rolit;
mod tutorial;
mod vect_reverse;
mod verto;
mod warnings;
