//! outflank: Reversi-family games written as text rules and run by one generic engine.
//!
//! Pipeline: [`syntax`] (text -> AST with spans) -> [`check`] (names, types, ranges; compiled
//! into the [`ir`]) -> [`engine`] (one runner executes the IR), all on the [`board`] model. [`agents`] choose steps; [`cli`]
//! is the command line. The library does no file I/O of its own.

pub mod agents;
pub mod board;
pub mod check;
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod examples;
pub mod format;
pub mod ir;
pub mod record;
pub mod render;
pub mod selfplay;
pub mod solve;
pub mod source;
pub mod syntax;
