//! How a game ends and is scored: end conditions, the score and tie-breaks.

use super::*;
use crate::ir::{Cond, Num, Player};

/// The end conditions, the score and the tie-breaks.
pub(super) fn ends_and_scores<'a>(
    ck: &mut Checker<'a>,
    items: &[load::Sourced<'a>],
) -> (Vec<ir::EndCondition>, Option<ir::Num>, Vec<ir::Num>) {
    let mut ends = Vec::new();
    let mut score = None;
    let mut tiebreaks = Vec::new();
    for s in items {
        ck.current_file = s.file;
        match &s.item.kind {
            ItemKind::End(rule) => {
                if let Some(e) = end_rule(ck, rule, s.item.span) {
                    ends.push(e);
                }
            }
            ItemKind::Score { player, value } => {
                score = player_expr(ck, player, value);
            }
            ItemKind::Tiebreak { player, value } => {
                if let Some(t) = player_expr(ck, player, value) {
                    tiebreaks.push(t);
                }
            }
            _ => {}
        }
    }
    if ends.is_empty() && !ck.diags.has_errors() {
        ck.current_file = (ck.files.len() - 1) as u16;
        ck.warning(
            Span::new(0, 0),
            "no end condition: games can only end by resignation",
        )
        .label("no `end` item")
        .help("add e.g. `end when blocked` or `end when passes >= 2`")
        .emit();
    }
    (ends, score, tiebreaks)
}

pub(super) fn end_rule(
    ck: &mut Checker<'_>,
    rule: &ast::EndRule,
    span: Span,
) -> Option<ir::EndCondition> {
    let scope = Scope {
        bound_player: rule.for_each.as_ref().map(|p| p.node.clone()),
        ..Scope::default()
    };
    let condition = ck.expect_as::<Cond>(&rule.condition, &scope);
    let winner = match &rule.winner {
        Some(w) => Some(ck.expect_as::<Player>(w, &scope)?),
        None => None,
    };
    let condition = condition?;
    never_holds(ck, rule, &condition);
    Some(ir::EndCondition {
        timing: rule.timing,
        for_each: rule.for_each.is_some(),
        condition,
        winner,
        loc: ir::Loc {
            file: ck.current_file,
            span,
        },
    })
}

/// Warns when an end condition is false in every position the rules allow, reasoning
/// from the board, the regions and the parameters.
pub(super) fn never_holds(ck: &mut Checker<'_>, rule: &ast::EndRule, condition: &ir::Cond) {
    let Some(geometry) = &ck.geometry else {
        return;
    };
    let players: Vec<Option<u8>> = if rule.for_each.is_some() {
        (0..ck.player_names.len() as u8).map(Some).collect()
    } else {
        vec![None]
    };
    let analyses: Vec<ranges::Ranges> = players
        .iter()
        .map(|&bound| ranges::Ranges {
            playable: geometry.playable,
            attributes: &ck.attributes,
            players: ck.player_names.len() as u8,
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
    let main = ck.files.len() - 1;
    let context = if ck.current_file as usize == main {
        String::new()
    } else {
        format!(
            " (this rule comes from a base file; here it is checked for {})",
            ck.files[main].name
        )
    };
    ck.warning(rule.condition.span, format!("this end condition can never hold{who}"))
        .label(detail)
        .help(format!(
            "check the parameters, the regions it counts, and the cells removed from play; as written this rule never ends the game{context}"
        ))
        .emit();
}

pub(super) fn player_expr(
    ck: &mut Checker<'_>,
    player: &ast::Ident,
    value: &Expr,
) -> Option<ir::Num> {
    let scope = Scope {
        bound_player: Some(player.node.clone()),
        ..Scope::default()
    };
    ck.expect_as::<Num>(value, &scope)
}
