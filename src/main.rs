//! The `outflank` command: the command line (src/cli) over the library.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
