//! Parsing: source text -> AST with spans.

pub mod ast;
mod parser;

pub use parser::parse;
pub use parser::ITEM_WORDS;
