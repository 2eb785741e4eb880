//! The hidden `pasang generate-man DIR` and `pasang generate-completions
//! DIR`: man pages (one per subcommand) and bash, zsh and fish completions
//! written from the real command line, for the Debian package
//! (scripts/release.sh, docs/release.md).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, CliError};

/// The folder the files are written into (made if missing).
#[derive(Args, Debug)]
pub(crate) struct OutArgs {
    /// Folder to write into; made if missing.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// Writes `pasang.1` and `pasang-SUB.1` for each visible subcommand.
pub(crate) fn man(args: &OutArgs) -> Result<ExitCode, CliError> {
    make_dir(&args.dir)?;
    let command = Cli::command();
    // A man page's title line has no room for the second `--version` line.
    let command = command.version(crate::version::VERSION);
    write_page(&args.dir, &command)?;
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        // `pasang-bench(1)`, its synopsis `pasang bench [DEPTH]`, as git's
        // pages are named.
        let sub = sub
            .clone()
            .name(format!("pasang-{}", sub.get_name()))
            .bin_name(format!("pasang {}", sub.get_name()))
            .version(crate::version::VERSION);
        write_page(&args.dir, &sub)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `pasang.bash`, `_pasang` (zsh) and `pasang.fish`.
pub(crate) fn completions(args: &OutArgs) -> Result<ExitCode, CliError> {
    make_dir(&args.dir)?;
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        let mut command = Cli::command();
        clap_complete::generate_to(shell, &mut command, "pasang", &args.dir)
            .map_err(|error| CliError::Write(args.dir.clone(), error))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn make_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|error| CliError::Write(dir.to_path_buf(), error))
}

/// `DIR/NAME.1` for `command`.
fn write_page(dir: &Path, command: &clap::Command) -> Result<(), CliError> {
    let path = dir.join(format!("{}.1", command.get_name()));
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut page)
        .map_err(|error| CliError::Write(path.clone(), error))?;
    std::fs::write(&path, page).map_err(|error| CliError::Write(path, error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_page_per_subcommand_and_three_shells() {
        let dir = std::env::temp_dir().join(format!("pasang-manuals-{}", std::process::id()));
        man(&OutArgs { dir: dir.clone() }).unwrap();
        completions(&OutArgs { dir: dir.clone() }).unwrap();
        let page = std::fs::read_to_string(dir.join("pasang-bench.1")).unwrap();
        assert!(page.contains(".TH pasang-bench 1"), "{page}");
        assert!(page.contains("DEPTH"), "{page}");
        assert!(dir.join("pasang.1").exists());
        assert!(!dir.join("pasang-generate-man.1").exists());
        for file in ["pasang.bash", "_pasang", "pasang.fish"] {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            assert!(text.contains("bench"), "{file}");
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
