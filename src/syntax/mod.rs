//! Parsing: source text -> AST with spans.

pub mod ast;
mod errors;
mod grammar;
mod parser;
mod spans;

pub use errors::{ITEM_WORDS, STATEMENT_WORDS};
pub use parser::parse;
