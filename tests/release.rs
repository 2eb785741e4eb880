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
