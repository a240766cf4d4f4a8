//! How a game ends and is scored: end conditions, the score and tie-breaks.

use super::*;
use crate::ir::{Cond, Num, Player};

impl<'a> Checker<'a> {
    /// The end conditions, the score and the tie-breaks.
    pub(super) fn ends_and_scores(
        &mut self,
        items: &[load::Sourced<'a>],
    ) -> (Vec<ir::EndCondition>, Option<ir::Num>, Vec<ir::Num>) {
        let mut ends = Vec::new();
        let mut score = None;
        let mut tiebreaks = Vec::new();
        for s in items {
            self.current_file = s.file;
            match &s.item.kind {
                ItemKind::End(rule) => {
                    if let Some(e) = self.end_rule(rule, s.item.span) {
                        ends.push(e);
                    }
                }
                ItemKind::Score { player, value } => {
                    score = self.player_expr(player, value);
                }
                ItemKind::Tiebreak { player, value } => {
                    if let Some(t) = self.player_expr(player, value) {
                        tiebreaks.push(t);
                    }
                }
                _ => {}
            }
        }
        if ends.is_empty() && !self.diags.has_errors() {
            self.current_file = (self.files.len() - 1) as u16;
            self.warning(
                Span::new(0, 0),
                "no end condition: games can only end by resignation",
            )
            .label("no `end` item")
            .help("add e.g. `end when blocked` or `end when passes >= 2`")
            .emit();
        }
        (ends, score, tiebreaks)
    }

    pub(super) fn end_rule(&mut self, rule: &ast::EndRule, span: Span) -> Option<ir::EndCondition> {
        let scope = Scope {
            bound_player: rule.for_each.as_ref().map(|p| p.node.clone()),
            ..Scope::default()
        };
        let condition = self.expect_as::<Cond>(&rule.condition, &scope);
        let winner = match &rule.winner {
            Some(w) => Some(self.expect_as::<Player>(w, &scope)?),
            None => None,
        };
        let condition = condition?;
        self.never_holds(rule, &condition);
        Some(ir::EndCondition {
            timing: rule.timing,
            for_each: rule.for_each.is_some(),
            condition,
            winner,
            loc: ir::Loc {
                file: self.current_file,
                span,
            },
        })
    }

    /// Warns when an end condition is false in every position the rules allow, reasoning
    /// from the board, the regions and the parameters.
    pub(super) fn never_holds(&mut self, rule: &ast::EndRule, condition: &ir::Cond) {
        let Some(geometry) = &self.geometry else {
            return;
        };
        let players: Vec<Option<u8>> = if rule.for_each.is_some() {
            (0..self.player_names.len() as u8).map(Some).collect()
        } else {
            vec![None]
        };
        let analyses: Vec<ranges::Ranges> = players
            .iter()
            .map(|&bound| ranges::Ranges {
                playable: geometry.playable,
                attributes: &self.attributes,
                players: self.player_names.len() as u8,
                bound,
            })
            .collect();
        if analyses.iter().any(|r| r.can_hold(condition)) {
            return;
        }
        let detail = match (condition, &analyses[0]) {
            (ir::Cond::Num(_, a, b), r) => {
                let (a, b) = (r.num(a), r.num(b));
                format!(
                    "the left side is at most {}, the right side at least {}",
                    a.1, b.0
                )
            }
            _ => "it is false in every position".to_string(),
        };
        let who = if rule.for_each.is_some() {
            " for either player"
        } else {
            ""
        };
        let main = self.files.len() - 1;
        let context = if self.current_file as usize == main {
            String::new()
        } else {
            format!(
                " (this rule comes from a base file; here it is checked for {})",
                self.files[main].name
            )
        };
        self.warning(rule.condition.span, format!("this end condition can never hold{who}"))
            .label(detail)
            .help(format!(
                "check the parameters, the regions it counts, and the cells removed from play; as written this rule never ends the game{context}"
            ))
            .emit();
    }

    pub(super) fn player_expr(&mut self, player: &ast::Ident, value: &Expr) -> Option<ir::Num> {
        let scope = Scope {
            bound_player: Some(player.node.clone()),
            ..Scope::default()
        };
        self.expect_as::<Num>(value, &scope)
    }
}
