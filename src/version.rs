//! The version line: the crate version and the target this binary was
//! compiled for (the architecture and the instruction-set features the
//! compiler was allowed to use), so `pasang --version`, the protocol
//! handshake and bug reports say what ran.
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

/// The version line: `0.1.0 (x86_64 popcnt ...)`.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| format!("{} ({})", env!("CARGO_PKG_VERSION"), target()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_names_the_architecture() {
        assert!(version().starts_with(env!("CARGO_PKG_VERSION")));
        assert!(target().starts_with(std::env::consts::ARCH));
    }
}
