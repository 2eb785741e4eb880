//! What `--engine` says about one engine: the command that starts it, the
//! name it goes by in the match, the protocol it speaks, the options set
//! before its first game, and limits of its own (to give two engines
//! different times).

use std::path::Path;
use std::str::FromStr;

use super::limits::{MatchLimits, TimeControlError};
use super::protocol::Protocol;

/// One engine of a match, as `--engine cmd=<command>[,name=<n>]
/// [,proto=uci|ugi][,option.<Name>=<value>...][,tc=..][,movetime=..]
/// [,depth=..][,nodes=..]` describes it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct EngineSpec {
    /// The name used in reports and records.
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments (the rest of `cmd`, split on whitespace).
    pub args: Vec<String>,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// Options sent with `setoption` after each start, in the order given.
    pub options: Vec<(String, String)>,
    /// Limits for this engine alone; when any is given they replace the
    /// match's limits for it.
    pub limits: MatchLimits,
}

impl EngineSpec {
    /// The options as one line: `Name=value; Name=value` (empty if none).
    pub fn options_text(&self) -> String {
        self.options
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The command line, program and arguments joined by spaces.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Why an `--engine` value does not parse.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// A field without `=`.
    #[error(
        "'{0}' is not key=value (expected cmd=<command>[,name=<n>][,option.<Name>=<value>...])"
    )]
    NotKeyValue(String),
    /// A key given twice (`cmd`, `name` or `proto`).
    #[error("{0} given twice")]
    Twice(&'static str),
    /// An empty `cmd` or `name`.
    #[error("{0} is empty")]
    Empty(&'static str),
    /// A `proto` other than `uci` or `ugi`.
    #[error("proto '{0}' is unknown (expected uci or ugi)")]
    UnknownProtocol(String),
    /// A `tc` that does not parse.
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    /// A `movetime`, `depth` or `nodes` that is no whole number above 0.
    #[error("{key} '{value}' is not a whole number above 0")]
    NotPositive {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
    },
    /// A `depth` beyond what a `go` can say.
    #[error("depth '{0}' is too large")]
    DepthTooLarge(String),
    /// `option.` without a name.
    #[error("option. needs a name: option.<Name>=<value>")]
    OptionWithoutName,
    /// Another key.
    #[error(
        "unknown key '{0}' (expected cmd, name, proto, option.<Name>, tc, movetime, depth or nodes)"
    )]
    UnknownKey(String),
    /// No `cmd`.
    #[error("missing cmd=<command>")]
    MissingCommand,
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    /// Parses `cmd=...,name=...,option.X=Y`. Commas separate the fields,
    /// so neither the command nor a value may contain one.
    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        let mut command: Option<Vec<String>> = None;
        let mut name: Option<String> = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut limits = MatchLimits::default();
        let mut protocol: Option<Protocol> = None;
        for field in text.split(',') {
            let field = field.trim();
            if field.is_empty() {
                continue;
            }
            let Some((key, value)) = field.split_once('=') else {
                return Err(SpecError::NotKeyValue(field.to_string()));
            };
            let (key, value) = (key.trim(), value.trim());
            match key {
                "cmd" => {
                    let words: Vec<String> = value.split_whitespace().map(String::from).collect();
                    if words.is_empty() {
                        return Err(SpecError::Empty("cmd"));
                    }
                    set_once(&mut command, "cmd", words)?;
                }
                "name" => {
                    if value.is_empty() {
                        return Err(SpecError::Empty("name"));
                    }
                    set_once(&mut name, "name", value.to_string())?;
                }
                "proto" => {
                    let chosen = match value {
                        "uci" => Protocol::Uci,
                        "ugi" => Protocol::Ugi,
                        other => return Err(SpecError::UnknownProtocol(other.to_string())),
                    };
                    set_once(&mut protocol, "proto", chosen)?;
                }
                "tc" => {
                    limits.clock = Some(value.parse::<super::limits::TimeControl>()?);
                }
                "movetime" => limits.movetime = Some(positive("movetime", value)?),
                "depth" => {
                    let depth = positive("depth", value)?;
                    limits.depth = Some(
                        u32::try_from(depth)
                            .map_err(|_| SpecError::DepthTooLarge(value.to_string()))?,
                    );
                }
                "nodes" => limits.nodes = Some(positive("nodes", value)?),
                _ => add_option(&mut options, key, value)?,
            }
        }
        let Some(mut words) = command else {
            return Err(SpecError::MissingCommand);
        };
        let program = words.remove(0);
        let name = name.unwrap_or_else(|| {
            Path::new(&program)
                .file_name()
                .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            name,
            program,
            args: words,
            protocol: protocol.unwrap_or_default(),
            options,
            limits,
        })
    }
}

/// An `option.X=Y` field added to `options` (a later value for the same
/// option replaces the earlier one, as a second setoption would); any
/// other key is unknown.
fn add_option(
    options: &mut Vec<(String, String)>,
    key: &str,
    value: &str,
) -> Result<(), SpecError> {
    match key.strip_prefix("option.").map(str::trim) {
        Some("") => Err(SpecError::OptionWithoutName),
        Some(option) => {
            options.retain(|(existing, _)| !existing.eq_ignore_ascii_case(option));
            options.push((option.to_string(), value.to_string()));
            Ok(())
        }
        None => Err(SpecError::UnknownKey(key.to_string())),
    }
}

/// Sets `slot` to `value`: a field given twice (`key`) is an error.
fn set_once<T>(slot: &mut Option<T>, key: &'static str, value: T) -> Result<(), SpecError> {
    if slot.is_some() {
        return Err(SpecError::Twice(key));
    }
    *slot = Some(value);
    Ok(())
}

/// A whole number above 0 for `key`.
fn positive(key: &'static str, value: &str) -> Result<u64, SpecError> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| SpecError::NotPositive {
            key,
            value: value.to_string(),
        })
}

/// Makes the names of a match's engines distinct (records and reports
/// tell them apart by name) by suffixing `-1`, `-2`, ... to repeated ones.
pub fn distinct_names(specs: &mut [EngineSpec]) {
    let names: Vec<String> = specs.iter().map(|spec| spec.name.clone()).collect();
    for (index, spec) in specs.iter_mut().enumerate() {
        if names.iter().filter(|name| **name == spec.name).count() > 1 {
            spec.name = format!("{}-{}", names[index], index + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_spec_parses() {
        let spec: EngineSpec =
            "cmd=target/release/pasang --flag,name=a,option.Threads=2,option.Move Overhead=20"
                .parse()
                .unwrap();
        assert_eq!(spec.program, "target/release/pasang");
        assert_eq!(spec.args, vec!["--flag"]);
        assert_eq!(spec.name, "a");
        assert_eq!(
            spec.options,
            vec![
                ("Threads".to_string(), "2".to_string()),
                ("Move Overhead".to_string(), "20".to_string())
            ]
        );
        assert_eq!(spec.options_text(), "Threads=2; Move Overhead=20");
        assert_eq!(spec.command_line(), "target/release/pasang --flag");
    }

    #[test]
    fn engines_may_have_their_own_limits() {
        let spec: EngineSpec = "cmd=e,tc=10+0.1,depth=5".parse().unwrap();
        assert_eq!(spec.limits.describe(), "10+0.1 depth=5");
        let spec: EngineSpec = "cmd=e,movetime=100,nodes=2000".parse().unwrap();
        assert_eq!(spec.limits.describe(), "movetime=100 nodes=2000");
    }

    #[test]
    fn the_protocol_is_uci_unless_told() {
        let spec: EngineSpec = "cmd=e".parse().unwrap();
        assert_eq!(spec.protocol, Protocol::Uci);
        let spec: EngineSpec = "cmd=e,proto=ugi".parse().unwrap();
        assert_eq!(spec.protocol, Protocol::Ugi);
        assert_eq!(spec.protocol.clock_words()[0], "p1time");
        for (bad, why) in [
            ("cmd=e,proto=", SpecError::UnknownProtocol(String::new())),
            (
                "cmd=e,proto=xboard",
                SpecError::UnknownProtocol("xboard".into()),
            ),
            ("cmd=e,proto=ugi,proto=uci", SpecError::Twice("proto")),
        ] {
            assert_eq!(bad.parse::<EngineSpec>(), Err(why), "{bad}");
        }
    }

    #[test]
    fn name_defaults_to_program_file_name() {
        let spec: EngineSpec = "cmd=/usr/bin/engine".parse().unwrap();
        assert_eq!(spec.name, "engine");
    }

    #[test]
    fn bad_specs_are_errors() {
        for (bad, why) in [
            ("", SpecError::MissingCommand),
            ("name=x", SpecError::MissingCommand),
            ("cmd=", SpecError::Empty("cmd")),
            ("cmd=a,cmd=b", SpecError::Twice("cmd")),
            ("cmd=a,name=", SpecError::Empty("name")),
            ("cmd=a,colour=red", SpecError::UnknownKey("colour".into())),
            ("cmd=a,option.=3", SpecError::OptionWithoutName),
            ("cmd=a,justtext", SpecError::NotKeyValue("justtext".into())),
            (
                "cmd=a,depth=0",
                SpecError::NotPositive {
                    key: "depth",
                    value: "0".into(),
                },
            ),
            (
                "cmd=a,nodes=x",
                SpecError::NotPositive {
                    key: "nodes",
                    value: "x".into(),
                },
            ),
            (
                "cmd=a,tc=fast",
                SpecError::TimeControl(TimeControlError::Invalid("fast".into())),
            ),
            ("cmd=a,proto=UGI", SpecError::UnknownProtocol("UGI".into())),
        ] {
            assert_eq!(bad.parse::<EngineSpec>(), Err(why), "{bad}");
        }
    }

    #[test]
    fn repeated_names_are_made_distinct() {
        let mut specs: Vec<EngineSpec> = ["cmd=pasang", "cmd=./pasang"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        distinct_names(&mut specs);
        assert_eq!(specs[0].name, "pasang-1");
        assert_eq!(specs[1].name, "pasang-2");
    }
}
