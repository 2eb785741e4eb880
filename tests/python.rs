//! The Python module (python/, issue 39) built and tested as a user would:
//! a virtual environment under the target folder (made once, then reused)
//! gets maturin, pytest, NumPy, ziglang and auditwheel from PyPI;
//! `scripts/release.sh --only wheel` builds the release's x86_64 wheel
//! (abi3, manylinux_2_28, x86-64-v2) and checks it in a fresh environment
//! of its own (issue 65: docs/release.md); that wheel is installed here and
//! pytest runs python/tests against the engine binary under test. One
//! build serves both, so CI checks the released wheel at no second
//! compile.
//!
//! Without Python 3 with venv and pip, or without PyPI, the test says so
//! and passes, except under `CI=true`, where it fails. A module that does
//! not build, or a Python test that fails, fails it everywhere.

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's top folder.
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The target folder the binary under test was built into.
fn target_dir() -> PathBuf {
    // .../target/<profile>/pasang
    Path::new(common::PASANG)
        .ancestors()
        .nth(2)
        .expect("the binary lies in target/<profile>/")
        .to_path_buf()
}

/// Runs `command` to the end, its output kept.
fn run(command: &mut Command) -> std::io::Result<Output> {
    command.current_dir(ROOT).env_remove("RUST_LOG").output()
}

fn describe(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// What the environment gets from PyPI: the build backend, the test
/// runner, NumPy for `pasang.learn` and pyarrow for the data set's
/// Parquet sample (both optional for users), and what the release script
/// builds and checks a manylinux wheel with (zig as the linker for glibc
/// 2.28, auditwheel to read the wheel's tags).
const REQUIREMENTS: [&str; 6] = [
    "maturin>=1.9.4,<2",
    "pytest",
    "numpy",
    "pyarrow",
    "ziglang",
    "auditwheel",
];

/// The frameworks of `pasang.rl`'s environments (python/pyproject.toml's
/// `[rl]` extra), whose own tests python/tests/test_rl.py runs. Where
/// they cannot be installed, this says so and their tests skip (under
/// `CI=true` both fail).
const RL_REQUIREMENTS: [&str; 3] = ["gymnasium>=1.0", "pettingzoo>=1.24", "open_spiel>=1.5"];

/// `pasang.jax`'s own needs (the `[jax]` extra), so python/tests/test_jax.py
/// checks the JAX rules against the core on 200 games, and hypothesis for
/// its property test. Where they cannot be installed, this says so and
/// those tests skip (under `CI=true` they fail).
const JAX_REQUIREMENTS: [&str; 3] = ["jax", "chex", "hypothesis"];

/// The environment's Python, made (and given [`REQUIREMENTS`]) on the
/// first run and again when they change; `None` when this machine cannot
/// make one (said, or under CI a failure).
fn environment(venv: &Path) -> Option<PathBuf> {
    let python = venv.join("bin").join("python");
    let ready = venv.join("ready");
    let wanted = REQUIREMENTS.join("\n")
        + "\n"
        + &RL_REQUIREMENTS.join("\n")
        + "\n"
        + &JAX_REQUIREMENTS.join("\n")
        + "\n";
    if python.exists() && std::fs::read_to_string(&ready).is_ok_and(|text| text == wanted) {
        return Some(python);
    }
    let interpreter = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let skip = |what: &str, output: Option<&Output>| {
        let mut install =
            "a CPython 3.9+ with venv and pip, and PyPI for maturin, pytest, NumPy and pyarrow"
                .to_string();
        if let Some(output) = output {
            install = format!("{install}; {}", describe(output));
        }
        common::missing_tool("python", what, &install);
        None
    };
    let _ = std::fs::remove_dir_all(venv);
    match run(Command::new(&interpreter).args(["-m", "venv"]).arg(venv)) {
        Ok(output) if output.status.success() => {}
        Ok(output) => return skip("Python's venv", Some(&output)),
        Err(_) => return skip(&format!("Python ({interpreter})"), None),
    }
    let install = run(pip_install(&python).args(REQUIREMENTS));
    match install {
        Ok(output) if output.status.success() => {}
        Ok(output) => return skip("maturin or pytest (from PyPI)", Some(&output)),
        Err(_) => return skip("pip", None),
    }
    // The ready mark names what is installed, so a later run reuses the
    // environment only when it has everything (it was a fixed sentence
    // that never matched, and every run made the environment anew).
    let mut installed = REQUIREMENTS.join("\n") + "\n";
    match run(pip_install(&python).args(RL_REQUIREMENTS)) {
        Ok(output) if output.status.success() => {
            installed += &(RL_REQUIREMENTS.join("\n") + "\n");
        }
        Ok(output) => common::missing_tool(
            "python",
            "gymnasium, pettingzoo or open_spiel (from PyPI)",
            &format!(
                "their tests in python/tests/test_rl.py skip; {}",
                describe(&output)
            ),
        ),
        Err(_) => common::missing_tool("python", "pip", "for the [rl] frameworks"),
    }
    match run(pip_install(&python).args(JAX_REQUIREMENTS)) {
        Ok(output) if output.status.success() => {
            installed += &(JAX_REQUIREMENTS.join("\n") + "\n");
        }
        Ok(output) => common::missing_tool(
            "python",
            "jax, chex or hypothesis (from PyPI)",
            &format!("python/tests/test_jax.py skips; {}", describe(&output)),
        ),
        Err(_) => common::missing_tool("python", "pip", "for jax, chex and hypothesis"),
    }
    std::fs::write(&ready, installed).expect("the target folder is writable");
    Some(python)
}

/// `python -m pip install --quiet`, without pip's version check.
fn pip_install(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    command
}

/// The environment's Python with `pip install ./python` done, or `None`
/// where no environment can be made (said, or under CI a failure). Once
/// per run: the tests share the environment and its build folder.
fn installed_module() -> Option<PathBuf> {
    static INSTALLED: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    INSTALLED.get_or_init(install_module).clone()
}

fn install_module() -> Option<PathBuf> {
    let target = target_dir();
    let python = environment(&target.join("python-venv"))?;
    // The release's wheel, built and checked by the release script with
    // the environment's maturin, ziglang and auditwheel (its `python3` is
    // the environment's, as in an activated one). The script builds into
    // a target folder of its own (target/release-build): this test's
    // cargo holds the lock on this one.
    let bin = python.parent().expect("the environment's bin folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&path)),
    )
    .expect("a PATH of folders");
    let wheels = target.join("python-wheel");
    let _ = std::fs::remove_dir_all(&wheels);
    let release = run(Command::new("bash")
        .arg("scripts/release.sh")
        .args(["--only", "wheel", "--allow-dirty", "--out"])
        .arg(&wheels)
        .env("PATH", path))
    .expect("bash runs");
    let report = describe(&release);
    if !release.status.success() && report.contains("is missing: apt-get install") {
        // A tool of the wheel's checks (qemu-user) that this machine
        // lacks: said, or under CI a failure.
        common::missing_tool("python", "a tool of scripts/release.sh", &report);
        return None;
    }
    assert!(
        release.status.success(),
        "scripts/release.sh --only wheel failed:\n{report}"
    );
    let wheel = std::fs::read_dir(&wheels)
        .expect("the wheel's folder")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .find(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .expect("scripts/release.sh wrote a wheel");
    let install = run(pip_install(&python)
        .args(["--force-reinstall", "--no-deps"])
        .arg(&wheel))
    .expect("pip runs");
    assert!(
        install.status.success(),
        "pip install {} failed:\n{}",
        wheel.display(),
        describe(&install)
    );
    Some(python)
}

#[test]
fn the_python_module_installs_and_passes_its_tests() {
    let Some(python) = installed_module() else {
        return;
    };
    let pytest = run(Command::new(&python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .env("PASANG_ENGINE", common::PASANG)
        .env("PYTHONDONTWRITEBYTECODE", "1"))
    .expect("pytest runs");
    let report = describe(&pytest);
    assert!(pytest.status.success(), "pytest failed:\n{report}");
    // pytest's count, straight to stderr (libtest swallows the output of
    // a passing test).
    let summary = String::from_utf8_lossy(&pytest.stdout);
    let last = summary.lines().rev().find(|line| !line.trim().is_empty());
    let _ = writeln!(
        std::io::stderr(),
        "python: pytest {}",
        last.unwrap_or("(no summary)")
    );
}

/// The baselines docs/rl.md's table is made from replay at the version
/// that recorded them: `baselines.py --check docs/rl-baselines.json
/// --pairings 3` (the three quickest pairings, a few seconds; the whole
/// file takes minutes). Fails once the version moves on: then record the
/// table again (docs/rl.md, "Baselines").
#[test]
#[ignore = "replays recorded games; run with --ignored"]
fn the_recorded_baselines_replay() {
    let Some(python) = installed_module() else {
        return;
    };
    let check = run(Command::new(&python).args([
        "python/benchmarks/baselines.py",
        "--check",
        "docs/rl-baselines.json",
        "--pairings",
        "3",
    ]))
    .expect("python runs");
    assert!(check.status.success(), "{}", describe(&check));
}
