//! The parameters: their declarations, `set` items in file order, then the command line's values.

use super::*;

/// Declares the parameters (`param`), with their defaults and ranges.
pub(super) fn declare_params<'a>(ck: &mut Checker<'a>, items: &[load::Sourced<'a>]) {
    for s in items {
        if let ItemKind::Param {
            name,
            default,
            allowed,
        } = &s.item.kind
        {
            ck.current_file = s.file;
            if let (Some(parts), Literal::Bool(_)) = (allowed, &default.node) {
                ck.error(parts.span, "a boolean parameter takes no range")
                    .label("range on a true/false parameter")
                    .help("remove the `in ...` part")
                    .emit();
            }
            if let Some(parts) = allowed {
                for p in &parts.node {
                    if p.lo > p.hi || p.step < 1 {
                        ck.error(
                            parts.span,
                            format!(
                                "the range {} is empty",
                                allowed_text(std::slice::from_ref(p))
                            ),
                        )
                        .label("empty range")
                        .help("write the smaller bound first, with a step of at least 1")
                        .emit();
                    }
                }
            }
            if let (Some(parts), Literal::Int(v)) = (allowed, &default.node) {
                if !allows(&parts.node, *v) {
                    ck.error(
                        default.span,
                        format!(
                            "the default {v} is not among the allowed values {}",
                            allowed_text(&parts.node)
                        ),
                    )
                    .label("outside the range")
                    .help("change the default or widen the range")
                    .emit();
                }
            }
            ck.params.insert(
                name.node.clone(),
                Param {
                    value: default.node.clone(),
                    allowed: allowed.as_ref().map(|a| a.node.clone()),
                    file: s.file,
                    span: name.span,
                },
            );
        }
    }
}

/// Applies `set` items to the parameters, in file order (a base file's first).
pub(super) fn set_params<'a>(ck: &mut Checker<'a>, items: &[load::Sourced<'a>]) {
    for s in items {
        if let ItemKind::SetParam { name, value } = &s.item.kind {
            ck.current_file = s.file;
            let unknown = |_: &[String]| {
                "`set` changes a parameter that a base file declares with `param`".to_string()
            };
            let widen = format!(
                "pick a value the base file's `param` allows, or widen its range by declaring \
                 the parameter again here: `param {} = {} in ...`",
                name.node,
                literal_text(&value.node)
            );
            if settable(ck, name, value, unknown, &widen) {
                ck.params.get_mut(&name.node).unwrap().value = value.node.clone();
            }
        }
    }
}

/// Whether the parameter `name` exists and allows `value` (a `set` item, or an example's
/// `set` step); if not, the error is reported, with `unknown(names)` as the help when no
/// parameter's name is near, and `not_allowed` as the help for a value out of range.
pub(super) fn settable(
    ck: &mut Checker<'_>,
    name: &ast::Ident,
    value: &ast::Spanned<Literal>,
    unknown: impl FnOnce(&[String]) -> String,
    not_allowed: &str,
) -> bool {
    let Some(p) = ck.params.get(&name.node).cloned() else {
        let names: Vec<String> = ck.params.keys().cloned().collect();
        let suggestion = crate::diagnostic::closest(&name.node, &names);
        let help = match &suggestion {
            Some(c) => format!("did you mean `{c}`?"),
            None => unknown(&names),
        };
        ck.error(
            name.span,
            format!("no parameter named `{}` to set", name.node),
        )
        .label("unknown parameter")
        .help(help)
        .suggest(suggestion)
        .emit();
        return false;
    };
    if let Err(msg) = fits(ck, &p, &value.node) {
        ck.error(
            value.span,
            format!(
                "`{}` cannot be {}: {msg}",
                name.node,
                literal_text(&value.node)
            ),
        )
        .label("not allowed")
        .help(not_allowed)
        .emit();
        return false;
    }
    true
}

/// Applies the command line's `--set NAME=VALUE`, last of all.
pub(super) fn override_params(
    ck: &mut Checker<'_>,
    overrides: &[(String, String)],
) -> Result<(), CheckError> {
    for (name, text) in overrides {
        let Some(p) = ck.params.get(name).cloned() else {
            let names: Vec<String> = ck.params.keys().cloned().collect();
            return Err(CheckError::Setting(if names.is_empty() {
                format!("--set {name}={text}: this game has no parameters")
            } else {
                format!(
                    "--set {name}={text}: no parameter named `{name}`; the parameters are {}",
                    names.join(", ")
                )
            }));
        };
        let value = match (&p.value, text.as_str()) {
            (Literal::Bool(_), "true") => Literal::Bool(true),
            (Literal::Bool(_), "false") => Literal::Bool(false),
            (Literal::Bool(_), _) => {
                return Err(CheckError::Setting(format!(
                    "--set {name}={text}: `{name}` is true or false"
                )))
            }
            (Literal::Int(_), t) => match t.parse::<i64>() {
                Ok(v) => Literal::Int(v),
                Err(_) => {
                    return Err(CheckError::Setting(format!(
                        "--set {name}={text}: `{name}` takes a whole number"
                    )))
                }
            },
        };
        if let Err(msg) = fits(ck, &p, &value) {
            return Err(CheckError::Setting(format!("--set {name}={text}: {msg}")));
        }
        ck.params.get_mut(name).unwrap().value = value;
    }
    Ok(())
}

pub(super) fn fits(ck: &Checker<'_>, p: &Param, v: &Literal) -> Result<(), String> {
    match (&p.value, v, &p.allowed) {
        (Literal::Int(_), Literal::Int(v), Some(parts)) if !allows(parts, *v) => Err(format!(
            "{v} is outside the allowed values {}",
            allowed_text(parts)
        )),
        (Literal::Int(_), Literal::Bool(_), _) => Err("a whole number is needed".into()),
        (Literal::Bool(_), Literal::Int(_), _) => Err("true or false is needed".into()),
        _ => Ok(()),
    }
    .map_err(|m| {
        let file = &ck.files[p.file as usize];
        let (line, _) = line_col(&file.text, p.span.start);
        format!("{m} (declared at {}:{line})", file.name)
    })
}

pub(super) fn param_value(ck: &Checker<'_>, name: &str) -> Option<Typed> {
    ck.params.get(name).map(|p| match p.value {
        Literal::Int(i) => Typed::Num(ir::Num::Const(i as f64)),
        Literal::Bool(b) => Typed::Bool(ir::Cond::Const(b)),
    })
}
