//! The grammar (grammar/rules.pest), compiled by pest into [`RulesParser`] and its [`Rule`]s.

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/rules.pest"]
pub(super) struct RulesParser;
