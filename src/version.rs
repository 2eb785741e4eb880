//! The version line: the crate version and the commit it was built from
//! (`0.2.0 (1a2b3c4)`, from build.rs), and the target this binary was
//! compiled for (the architecture and the instruction-set features the
//! compiler was allowed to use), so `pasang --version`, the protocol
//! handshake, Python's `pasang.__version__` and bug reports say what ran.
//!
//! A build from source targets the build machine (`.cargo/config.toml`);
//! a portable build names fewer features here.

use std::sync::OnceLock;

/// Instruction-set features that change the speed of the bitboard code,
/// in the order they are listed.
const FEATURES: [(&str, bool); 8] = [
    ("popcnt", cfg!(target_feature = "popcnt")),
    ("lzcnt", cfg!(target_feature = "lzcnt")),
    ("bmi1", cfg!(target_feature = "bmi1")),
    ("bmi2", cfg!(target_feature = "bmi2")),
    ("sse4.2", cfg!(target_feature = "sse4.2")),
    ("avx2", cfg!(target_feature = "avx2")),
    ("avx512f", cfg!(target_feature = "avx512f")),
    ("neon", cfg!(target_feature = "neon")),
];

/// The architecture and the enabled features, for example
/// `x86_64 popcnt lzcnt bmi1 bmi2 sse4.2 avx2`.
pub fn target() -> &'static str {
    static TARGET: OnceLock<String> = OnceLock::new();
    TARGET.get_or_init(|| {
        let mut text = String::from(std::env::consts::ARCH);
        for (name, _) in FEATURES.iter().filter(|(_, enabled)| *enabled) {
            text.push(' ');
            text.push_str(name);
        }
        text
    })
}

/// The version and the commit: `0.2.0 (1a2b3c4)`, `0.2.0 (1a2b3c4-dirty)`
/// from a tree with changes, `0.2.0` where the build had no git (the
/// sdist, the packaged crate).
pub const VERSION: &str = env!("PASANG_VERSION");

/// What `pasang --version` prints after the program's name: the version
/// and commit, then on a second line what the binary was built for
/// (`built for x86_64 popcnt ...`).
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub fn version() -> &'static str {
    static VERSION_LINES: OnceLock<String> = OnceLock::new();
    VERSION_LINES.get_or_init(|| format!("{VERSION}\nbuilt for {}", target()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_names_the_architecture() {
        assert!(version().starts_with(env!("CARGO_PKG_VERSION")));
        assert!(target().starts_with(std::env::consts::ARCH));
        let (first, second) = version().split_once('\n').unwrap();
        assert_eq!(first, VERSION);
        assert_eq!(second, format!("built for {}", target()));
    }

    #[test]
    fn the_commit_is_seven_hex_digits_and_maybe_dirty() {
        let Some(rest) = VERSION.strip_prefix(concat!(env!("CARGO_PKG_VERSION"), " (")) else {
            // Built without git: the version alone.
            assert_eq!(VERSION, env!("CARGO_PKG_VERSION"));
            return;
        };
        let commit = rest.strip_suffix(')').unwrap();
        let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
        assert_eq!(hash.len(), 7, "{VERSION}");
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()), "{VERSION}");
    }
}
