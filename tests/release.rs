//! One version for every package (issue 65): the top Cargo.toml's
//! `[workspace.package]` holds it, python/Cargo.toml and web/Cargo.toml
//! inherit it, web/package.json (the npm package, which cargo cannot
//! read) repeats it, python/pyproject.toml takes it from Cargo
//! (`dynamic`), CHANGELOG.md's newest release is it, and the binary
//! says it. The release script's refusals are checked here too; its
//! builds and installs are `scripts/release.sh` (docs/release.md).

mod common;

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines of `section` (`[name]`) of a TOML file, up to the next one.
fn section<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|line| line.trim() != name)
        .skip(1)
        .take_while(|line| !line.trim_start().starts_with('['))
        .collect()
}

/// The quoted value of `key = "value"` among `lines`.
fn value(lines: &[&str], key: &str) -> Option<String> {
    lines.iter().find_map(|line| {
        let (name, rest) = line.split_once('=')?;
        (name.trim() == key).then(|| rest.trim().trim_matches('"').to_string())
    })
}

/// The workspace's version, from the one place that holds it.
fn workspace_version() -> String {
    let top = read("Cargo.toml");
    value(&section(&top, "[workspace.package]"), "version")
        .expect("Cargo.toml's [workspace.package] has a version")
}

#[test]
fn every_manifest_carries_the_one_version() {
    let version = workspace_version();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    for manifest in ["Cargo.toml", "python/Cargo.toml", "web/Cargo.toml"] {
        let text = read(manifest);
        let package = section(&text, "[package]");
        assert_eq!(
            value(&package, "version.workspace").as_deref(),
            Some("true"),
            "{manifest} should inherit the workspace's version (version.workspace = true)"
        );
        assert!(
            value(&package, "version").is_none(),
            "{manifest} names a version of its own"
        );
    }
    let npm: serde_json::Value = serde_json::from_str(&read("web/package.json")).unwrap();
    assert_eq!(
        npm["version"].as_str(),
        Some(version.as_str()),
        "web/package.json's version differs from Cargo.toml's [workspace.package]"
    );
    // maturin takes the Python package's version from python/Cargo.toml.
    let pyproject = read("python/pyproject.toml");
    let project = section(&pyproject, "[project]");
    assert!(
        value(&project, "version").is_none()
            && value(&project, "dynamic").is_some_and(|d| d.contains("version")),
        "python/pyproject.toml should take its version from Cargo (dynamic = [\"version\"])"
    );
    let changelog = read("CHANGELOG.md");
    let newest = changelog
        .lines()
        .filter_map(|line| line.strip_prefix("## ["))
        .find(|line| !line.starts_with("Unreleased"))
        .and_then(|line| line.split(']').next())
        .expect("CHANGELOG.md has a release");
    assert_eq!(newest, version, "CHANGELOG.md's newest release");
}

#[test]
fn the_binary_names_the_version_and_the_commit() {
    let output = common::run(&["--version"], "");
    let text = common::stdout(&output);
    let first = text.lines().next().unwrap_or_default();
    let version = format!("pasang {}", workspace_version());
    let Some(rest) = first.strip_prefix(&format!("{version} (")) else {
        // A build without git: the version alone.
        assert_eq!(first, version, "{text}");
        return;
    };
    let commit = rest.strip_suffix(')').expect("the commit in brackets");
    let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(
        hash.len() == 7 && hash.chars().all(|c| c.is_ascii_hexdigit()),
        "{first}"
    );
    // `id name` says the same.
    let output = common::run(&[], "uci\nquit\n");
    let id = format!("id name {}", &first);
    assert!(
        common::stdout(&output).lines().any(|l| l == id),
        "{}",
        common::stdout(&output)
    );
}

/// A copy of what the script reads before it builds (its manifests), in a
/// folder of its own, `edit` applied; the script's answer to `args`.
fn script_in_copy(edit: impl Fn(&Path), args: &[&str], path: Option<&str>) -> std::process::Output {
    let copy = std::env::temp_dir().join(format!(
        "pasang-release-{}-{}",
        std::process::id(),
        args.join("-").replace('/', "_")
    ));
    let _ = std::fs::remove_dir_all(&copy);
    for file in [
        "scripts/release.sh",
        "Cargo.toml",
        "python/Cargo.toml",
        "web/Cargo.toml",
        "web/package.json",
    ] {
        let to = copy.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(Path::new(ROOT).join(file), to).unwrap();
    }
    edit(&copy);
    let mut command = std::process::Command::new("bash");
    command.arg(copy.join("scripts/release.sh")).args(args);
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let output = command.output().expect("bash runs");
    let _ = std::fs::remove_dir_all(&copy);
    output
}

#[test]
fn the_release_script_refuses_manifests_that_disagree() {
    let output = script_in_copy(
        |copy| {
            let file = copy.join("web/package.json");
            let text = std::fs::read_to_string(&file).unwrap();
            let text = text.replacen(
                &format!("\"version\": \"{}\"", workspace_version()),
                "\"version\": \"9.9.9\"",
                1,
            );
            std::fs::write(file, text).unwrap();
        },
        &["--check", "."],
        None,
    );
    let said = common::stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(
        said.contains("the version differs between the manifests: web/package.json says '9.9.9'"),
        "{said}"
    );
}

#[test]
fn the_release_script_refuses_a_dirty_tree_and_names_a_missing_tool() {
    let git = |dir: &Path, args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if !git(Path::new(ROOT), &["--version"]) {
        common::missing_tool("release", "git", "apt-get install git");
        return;
    }
    // A committed copy with a change: refused before anything is built.
    let output = script_in_copy(
        |copy| {
            assert!(git(copy, &["init", "-q"]));
            assert!(git(copy, &["add", "."]));
            assert!(git(copy, &["commit", "-q", "-m", "copy"]));
            let file = copy.join("Cargo.toml");
            let text = std::fs::read_to_string(&file).unwrap();
            std::fs::write(file, text + "\n# a change\n").unwrap();
        },
        &["--only", "x86_64"],
        None,
    );
    let said = common::stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("the tree has uncommitted changes"), "{said}");
    assert!(said.contains("--allow-dirty"), "{said}");
    // A PATH with nothing but the shell's basics: the first tool missing
    // is named with the package that brings it.
    let bin = std::env::temp_dir().join(format!("pasang-release-bin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::create_dir_all(&bin).unwrap();
    for tool in [
        "bash", "sed", "grep", "head", "dirname", "mkdir", "pwd", "cat",
    ] {
        for folder in ["/usr/bin", "/bin"] {
            let from = Path::new(folder).join(tool);
            if from.exists() {
                let _ = std::os::unix::fs::symlink(&from, bin.join(tool));
                break;
            }
        }
    }
    let output = script_in_copy(|_| {}, &["--check", ".", "--only", "deb"], bin.to_str());
    let _ = std::fs::remove_dir_all(&bin);
    let said = common::stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(
        said.contains("'sha256sum' is missing: apt-get install coreutils"),
        "{said}"
    );
}
