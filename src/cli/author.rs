//! The commands a designer runs on rules files as text: `check`, `fmt` and `test`.

use super::*;

// The options of `check` (its help is the doc comment of `Command::Check`).
#[derive(Args)]
pub(super) struct CheckArgs {
    #[arg(required = true)]
    pub(super) files: Vec<String>,
}

// The options of `fmt` (its help is the doc comment of `Command::Fmt`).
#[derive(Args)]
pub(super) struct FmtArgs {
    #[arg(required = true)]
    pub(super) files: Vec<String>,
    #[arg(long)]
    pub(super) check: bool,
}

// The options of `test` (its help is the doc comment of `Command::Test`).
#[derive(Args)]
pub(super) struct TestArgs {
    #[arg(required = true)]
    pub(super) files: Vec<String>,
}

pub(super) fn cmd_check(a: &CheckArgs) -> Result<String, Failure> {
    let files = &a.files;
    let mut out = String::new();
    let mut failed = false;
    for f in files {
        let source = match read_source(f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}", outflank::diagnostic::printable(&e));
                failed = true;
                continue;
            }
        };
        match check(source, &FsLoader, &[]) {
            Ok(checked) => {
                if !checked.warnings.is_empty() {
                    eprint!("{}", checked.warnings.render(color(), render_width()));
                }
                let g = &checked.game;
                outln!(
                    out,
                    "{f}: ok ({}, {} x {}, {}{})",
                    if g.title.is_empty() {
                        "untitled"
                    } else {
                        &g.title
                    },
                    g.geometry.width,
                    g.geometry.height,
                    g.player_list(),
                    g.kinds
                        .iter()
                        .map(|k| format!("; piece {}", k.name))
                        .collect::<Vec<_>>()
                        .concat()
                );
            }
            Err(CheckError::Rules(d)) => {
                eprint!("{}", d.render(color(), render_width()));
                failed = true;
            }
            Err(CheckError::Setting(m)) => {
                eprintln!("error: {}", outflank::diagnostic::printable(&m));
                failed = true;
            }
        }
    }
    if failed {
        write_stdout(&out)?;
        Err(Failure::Printed)
    } else {
        Ok(out)
    }
}

pub(super) fn cmd_fmt(a: &FmtArgs) -> Result<String, Failure> {
    let FmtArgs { ref files, check } = *a;
    let mut out = String::new();
    let mut unformatted = Vec::new();
    for file in files {
        let source = read_source(file)?;
        // Refuse to lay out a file that does not parse: whitespace is all that may change.
        if let Err(d) = outflank::syntax::parse(&source) {
            let mut all = outflank::diagnostic::Diagnostics::default();
            all.push(d);
            eprint!("{}", all.render(color(), render_width()));
            return Err(Failure::Printed);
        }
        let formatted = outflank::format::format(&source.text);
        if formatted == source.text {
            continue;
        }
        if check {
            unformatted.push(file.clone());
        } else {
            std::fs::write(file, formatted).map_err(|e| format!("cannot write {file}: {e}"))?;
            outln!(out, "formatted {file}");
        }
    }
    if !unformatted.is_empty() {
        for f in &unformatted {
            outln!(out, "{f} is not formatted");
        }
        write_stdout(&out)?;
        return Err(Failure::Printed);
    }
    Ok(out)
}

pub(super) fn cmd_test(a: &TestArgs) -> Result<String, Failure> {
    let files = &a.files;
    let (mut passed, mut failed) = (0, 0);
    let mut out = String::new();
    for file in files {
        // A designer testing the examples wants the warnings too.
        let engine = load_game_showing(&GameArgs::plain(file), true)?;
        outln!(out, "{file}");
        if engine.game.examples.is_empty() {
            outln!(out, "  (no examples)");
        }
        let source = engine
            .game
            .files
            .last()
            .expect("a checked game has its file")
            .clone();
        for (i, example) in engine.game.examples.iter().enumerate() {
            let settings = outflank::examples::settings(example);
            // An example that sets parameters runs on the rules checked with them (the same
            // file, so its examples come in the same order).
            let with_settings;
            let (runner, example) = if settings.is_empty() {
                (&engine, example)
            } else {
                let mut args = GameArgs::plain(file);
                args.set = settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
                with_settings = load_game(&args)?;
                (&with_settings, &with_settings.game.examples[i])
            };
            match outflank::examples::run_example(runner, example) {
                Ok(()) => {
                    passed += 1;
                    outln!(out, "  ok    {}", example.name.node);
                }
                Err(f) => {
                    failed += 1;
                    outln!(out, "  FAIL  {}: {}", example.name.node, f.message);
                    if let Some((want, have)) = &f.boards {
                        let width = want
                            .iter()
                            .chain(have)
                            .map(std::string::String::len)
                            .max()
                            .unwrap_or(0)
                            .max(8);
                        outln!(out, "          {:<width$}   {}", "expected", "actual");
                        for i in 0..want.len().max(have.len()) {
                            let (w, h) = (
                                want.get(i).map_or("", String::as_str),
                                have.get(i).map_or("", String::as_str),
                            );
                            let mark = if w == h { ' ' } else { '*' };
                            outln!(out, "     {mark}{:>3} {w:<width$}   {h}", i + 1);
                        }
                    }
                    let mut d = outflank::diagnostic::Diagnostics::default();
                    d.push(
                        outflank::diagnostic::Diagnostic::error(
                            &source,
                            f.span,
                            format!("example `{}` failed", example.name.node),
                        )
                        .with_label(f.message.clone())
                        .with_help(
                            "the example's steps run in order; the labelled one did not hold",
                        ),
                    );
                    eprint!("{}", d.render(color(), render_width()));
                }
            }
        }
    }
    outln!(out, "{passed} passed, {failed} failed");
    if failed > 0 {
        write_stdout(&out)?;
        return Err(Failure::Printed);
    }
    Ok(out)
}
