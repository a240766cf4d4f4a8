//! outflank: Reversi-family games written as text rules and run by one generic engine.
//!
//! Pipeline: [`syntax`] (text -> AST with spans) -> [`check`] (names, types, ranges; compiled
//! into the [`ir`]) -> [`engine`] (one runner executes the IR), all on the [`board`] model.
//! [`agents`] choose steps; [`apps`] are what the commands share (self-play, solving, records,
//! diagrams, examples). The command line is the binary's (src/cli). The pipeline does no
//! file I/O: it is handed sources and a [`source::Loader`]. With the `fs` feature (on by
//! default), `source::read_source` and `source::FsLoader` read files for the command line, the
//! tests and the benches; `cargo check --lib --no-default-features` builds the library without
//! them, terminal rendering or images.

pub mod agents;
pub mod apps;
pub mod board;
pub mod check;
pub mod diagnostic;
pub mod engine;
pub mod format;
pub mod ir;
pub mod source;
pub mod syntax;
