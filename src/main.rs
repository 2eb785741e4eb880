//! The `pasang` binary: the protocol loop by default, tools as subcommands.

fn main() {
    std::process::exit(pasang::cli::run());
}
