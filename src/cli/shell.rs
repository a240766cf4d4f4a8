//! What a shell and `man` need to know of the command line, written from the same clap
//! definition that parses it: completions for a shell, and manual pages.

use super::game::Failure;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for: bash, zsh, fish, elvish or powershell. For bash, put the
    /// output in ~/.local/share/bash-completion/completions/outflank, or `source` it.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Args)]
pub(crate) struct ManArgs {
    /// Write outflank.1 and a page for each command (outflank-play.1, ...) into this
    /// directory, created if missing; without it, outflank.1 goes to standard output.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Completions for `command`, the whole command line's definition (given by the dispatch,
/// which owns it).
pub(crate) fn cmd_completions(
    args: &CompletionsArgs,
    mut command: clap::Command,
) -> Result<String, Failure> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "outflank", &mut out);
    String::from_utf8(out).map_err(|e| Failure::Message(format!("completions: {e}")))
}

/// The manual pages of `command`, the whole command line's definition.
pub(crate) fn cmd_man(args: &ManArgs, command: clap::Command) -> Result<String, Failure> {
    let Some(dir) = &args.dir else {
        let mut out = Vec::new();
        clap_mangen::Man::new(command)
            .render(&mut out)
            .map_err(|e| Failure::Message(format!("man: {e}")))?;
        return String::from_utf8(out).map_err(|e| Failure::Message(format!("man: {e}")));
    };
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| format!("man --dir {shown}: {e}"))?;
    let pages = pages(&command);
    clap_mangen::generate_to(command, dir).map_err(|e| format!("man --dir {shown}: {e}"))?;
    Ok(format!("wrote {pages} manual pages to {shown}\n"))
}

/// The pages `clap_mangen::generate_to` writes for `command`: its own and one for each command
/// beneath it, clap's `help` left out.
fn pages(command: &clap::Command) -> usize {
    1 + command
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .map(pages)
        .sum::<usize>()
}
