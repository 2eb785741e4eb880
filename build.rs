//! Names the commit a build came from, so `pasang --version`, `id name`
//! and Python's `pasang.__version__` say `0.2.0 (1a2b3c4)`, with `-dirty`
//! where tracked files differ from that commit. Where there is no git, or
//! the crate is not the top of its repository (the sdist, `cargo package`,
//! a copy unpacked inside some other repository), the version alone.

use std::path::Path;
use std::process::Command;

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let line = match commit(Path::new(&manifest)) {
        Some(commit) => format!("{version} ({commit})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=PASANG_VERSION={line}");
    // The sources (a change may make the tree dirty) and git's own state
    // (a commit, a checkout, a staged change); only these, so that the
    // target folder does not rerun this script on every build.
    for path in ["build.rs", "src"] {
        println!("cargo:rerun-if-changed={path}");
    }
    for name in ["HEAD", "index", "packed-refs"] {
        if let Some(path) = git(Path::new(&manifest), &["rev-parse", "--git-path", name]) {
            println!("cargo:rerun-if-changed={}", absolute(&manifest, &path));
        }
    }
    if let Some(reference) = git(Path::new(&manifest), &["symbolic-ref", "-q", "HEAD"])
        && let Some(path) = git(
            Path::new(&manifest),
            &["rev-parse", "--git-path", &reference],
        )
    {
        println!("cargo:rerun-if-changed={}", absolute(&manifest, &path));
    }
    println!("cargo:rerun-if-env-changed=PASANG_BUILD_COMMIT");
}

/// The short commit, `-dirty` appended where tracked files were changed;
/// `PASANG_BUILD_COMMIT` overrides it (an empty value: no commit).
fn commit(manifest: &Path) -> Option<String> {
    if let Ok(given) = std::env::var("PASANG_BUILD_COMMIT") {
        return (!given.is_empty()).then_some(given);
    }
    let top = git(manifest, &["rev-parse", "--show-toplevel"])?;
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(Path::new(&top), manifest) {
        return None;
    }
    let short = git(manifest, &["rev-parse", "--short=7", "HEAD"])?;
    let status = git(manifest, &["status", "--porcelain", "--untracked-files=no"]);
    Some(match status {
        Some(changes) if !changes.is_empty() => format!("{short}-dirty"),
        _ => short,
    })
}

/// `git ARGS` run in `dir`: its trimmed output, or `None` where git is
/// missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// `path` as git printed it (relative to `dir` or absolute), absolute.
fn absolute(dir: &str, path: &str) -> String {
    let path = Path::new(path);
    if path.is_absolute() {
        path.display().to_string()
    } else {
        Path::new(dir).join(path).display().to_string()
    }
}
