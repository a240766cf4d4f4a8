//! The `example` blocks of the checked file: their player names and parameter settings.

use super::*;

/// The checked file's examples, with their player names checked.
pub(super) fn examples<'a>(ck: &mut Checker<'a>, items: &[load::Sourced<'a>]) -> Vec<ast::Example> {
    let main = (ck.files.len() - 1) as u16;
    let mut out = Vec::new();
    for s in items.iter().filter(|s| s.file == main) {
        let ItemKind::Example(example) = &s.item.kind else {
            continue;
        };
        ck.current_file = s.file;
        example_settings(ck, example);
        for step in &example.steps {
            let names: Vec<&ast::Ident> = match &step.node {
                ast::ExampleStep::Position {
                    to_move: Some(p), ..
                } => vec![p],
                ast::ExampleStep::Expect(
                    ast::Expectation::ToMove(p) | ast::Expectation::Winner(p),
                ) => vec![p],
                ast::ExampleStep::Expect(ast::Expectation::Scores(list)) => {
                    list.iter().map(|(p, _)| p).collect()
                }
                _ => Vec::new(),
            };
            for name in names {
                if !ck.player_names.contains(&name.node) {
                    players::unknown_player(ck, name);
                }
            }
        }
        out.push(example.clone());
    }
    out
}

/// Checks an example's `set` steps: parameters that exist, values they allow, and all of
/// them before the example's first other step (they apply to the whole example).
pub(super) fn example_settings(ck: &mut Checker<'_>, example: &ast::Example) {
    let mut begun = false;
    let mut seen: Vec<&str> = Vec::new();
    for step in &example.steps {
        let ast::ExampleStep::Set { name, value } = &step.node else {
            begun = true;
            continue;
        };
        if begun {
            ck.error(
                step.span,
                "an example sets its parameters before its other steps",
            )
            .label("after a step")
            .help("move this `set` to the start of the example; it applies to all of it")
            .emit();
        }
        if seen.contains(&name.node.as_str()) {
            ck.error(
                name.span,
                format!("`{}` is set twice in this example", name.node),
            )
            .label("set again")
            .help("keep one `set` per parameter")
            .emit();
        }
        seen.push(&name.node);
        let unknown = |names: &[String]| {
            if names.is_empty() {
                "this game declares no `param`".to_string()
            } else {
                format!("the parameters are {}", names.join(", "))
            }
        };
        params::settable(ck, name, value, unknown, "pick a value the `param` allows");
    }
}
