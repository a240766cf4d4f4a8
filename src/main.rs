fn main() {
    std::process::exit(outflank::cli::main());
}
