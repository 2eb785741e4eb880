//! The `pasang` binary: the protocol loop by default, tools as subcommands.

fn main() -> std::process::ExitCode {
    pasang::cli::run()
}
