//! Every line an engine sends, the twin of [`super::Command`]: written by
//! the engine and read by the client from the same definitions, so that
//! what one writes the other reads back (the tests below hold them to it).

use std::fmt;

use super::info::InfoLine;

/// A line the engine sends.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Reply {
    /// `id name ...` or `id author ...`.
    Id(IdField, String),
    /// `option name ... type ...`: an option the engine offers.
    Option(OptionLine),
    /// `uciok`, `ugiok` or `readyok`: a word that ends a wait.
    Done(ReplyKind),
    /// `info ...`: a search report or a message.
    Info(InfoLine),
    /// `bestmove ...`.
    BestMove(BestMove),
    /// `response ...`: the answer to a UGI `query`.
    Response(String),
}

impl Reply {
    /// The line parsed, or `None` if it is none of the engine's lines or
    /// not well formed.
    pub fn parse(line: &str) -> Option<Reply> {
        let mut words = line.split_whitespace();
        let reply = match words.next()? {
            "id" => {
                let field = match words.next()? {
                    "name" => IdField::Name,
                    "author" => IdField::Author,
                    _ => return None,
                };
                Reply::Id(field, words.collect::<Vec<_>>().join(" "))
            }
            "option" => Reply::Option(OptionLine::parse(line)?),
            "info" => Reply::Info(InfoLine::parse(line)?),
            "bestmove" => Reply::BestMove(BestMove::parse(line)?),
            "response" => Reply::Response(words.collect::<Vec<_>>().join(" ")),
            _ => Reply::Done(ReplyKind::of(line)?),
        };
        Some(reply)
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id(field, text) => write!(f, "id {} {text}", field.word()),
            Reply::Option(option) => option.fmt(f),
            Reply::Done(kind) => f.write_str(kind.word()),
            Reply::Info(info) => info.fmt(f),
            Reply::BestMove(best) => best.fmt(f),
            Reply::Response(text) => write!(f, "{} {text}", ReplyKind::Response.word()),
        }
    }
}

/// What an `id` line names.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum IdField {
    /// `id name`: the engine's name and version.
    Name,
    /// `id author`.
    Author,
}

impl IdField {
    const fn word(self) -> &'static str {
        match self {
            IdField::Name => "name",
            IdField::Author => "author",
        }
    }
}

/// The type of an option, as its `option` line names it.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum OptionType {
    /// `check`: true or false.
    Check,
    /// `spin`: a whole number between `min` and `max`.
    Spin,
    /// `combo`: one of the `var`s.
    Combo,
    /// `button`: no value.
    Button,
    /// `string`: free text.
    String,
}

impl OptionType {
    const ALL: [OptionType; 5] = [
        OptionType::Check,
        OptionType::Spin,
        OptionType::Combo,
        OptionType::Button,
        OptionType::String,
    ];

    const fn word(self) -> &'static str {
        match self {
            OptionType::Check => "check",
            OptionType::Spin => "spin",
            OptionType::Combo => "combo",
            OptionType::Button => "button",
            OptionType::String => "string",
        }
    }
}

/// An `option` line: `option name N type T [default D] [min A max B]
/// [var V]...`.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct OptionLine {
    /// The option's name (it may hold spaces).
    pub name: String,
    /// Its type.
    pub kind: OptionType,
    /// `default`, as written (`<empty>` for an empty string).
    pub default: Option<String>,
    /// `min` and `max` of a spin.
    pub range: Option<(i64, i64)>,
    /// The `var`s of a combo.
    pub values: Vec<String>,
}

impl OptionLine {
    /// The words that start a field of the line (and so end the one before).
    const KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

    /// The line parsed, or `None` if it is not a well-formed `option` line
    /// (no name, an unknown type, a `min` or `max` that is not a number).
    pub fn parse(line: &str) -> Option<OptionLine> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
            return None;
        }
        // Each field's words run up to the next keyword.
        let mut fields: Vec<(&str, String)> = Vec::new();
        for word in &words[1..] {
            match fields.last_mut() {
                Some((_, value)) if !Self::KEYWORDS.contains(word) => {
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(word);
                }
                _ => fields.push((word, String::new())),
            }
        }
        let field = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
        let name = field("name").filter(|name| !name.is_empty())?.clone();
        let kind = field("type")?;
        let kind = OptionType::ALL.into_iter().find(|k| k.word() == kind)?;
        let range = match (field("min"), field("max")) {
            (None, None) => None,
            (Some(min), Some(max)) => Some((min.parse().ok()?, max.parse().ok()?)),
            _ => return None,
        };
        let values = fields
            .iter()
            .filter(|(key, _)| *key == "var")
            .map(|(_, value)| value.clone())
            .collect();
        Some(OptionLine {
            name,
            kind,
            default: field("default").cloned(),
            range,
            values,
        })
    }
}

impl fmt::Display for OptionLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type {}", self.name, self.kind.word())?;
        if let Some(default) = &self.default {
            write!(f, " default {default}")?;
        }
        if let Some((min, max)) = self.range {
            write!(f, " min {min} max {max}")?;
        }
        for value in &self.values {
            write!(f, " var {value}")?;
        }
        Ok(())
    }
}

/// A line a tool waits for, by its first word.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ReplyKind {
    /// `uciok`: the UCI handshake is done.
    UciOk,
    /// `ugiok`: the UGI handshake is done.
    UgiOk,
    /// `readyok`: the earlier commands are done.
    ReadyOk,
    /// `bestmove ...`: the search is over.
    BestMove,
    /// `response ...`: the answer to a UGI `query`.
    Response,
}

impl ReplyKind {
    /// Every kind, in the order above.
    pub const ALL: [ReplyKind; 5] = [
        ReplyKind::UciOk,
        ReplyKind::UgiOk,
        ReplyKind::ReadyOk,
        ReplyKind::BestMove,
        ReplyKind::Response,
    ];

    /// The line's first word.
    pub const fn word(self) -> &'static str {
        match self {
            ReplyKind::UciOk => "uciok",
            ReplyKind::UgiOk => "ugiok",
            ReplyKind::ReadyOk => "readyok",
            ReplyKind::BestMove => "bestmove",
            ReplyKind::Response => "response",
        }
    }

    /// The kind of `line`, if it is one of these.
    pub fn of(line: &str) -> Option<ReplyKind> {
        let first = line.split_whitespace().next()?;
        ReplyKind::ALL.into_iter().find(|kind| kind.word() == first)
    }
}

/// The word that stands for no move in `bestmove (none)`.
const NO_MOVE: &str = "(none)";

/// A `bestmove` line: the move (none when the game is over) and the move
/// the engine expects in reply, if it names one.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct BestMove {
    /// The move, as the engine wrote it; `None` for `(none)`.
    pub best: Option<String>,
    /// The `ponder` move, if any.
    pub ponder: Option<String>,
}

impl BestMove {
    /// The move as the engine wrote it, `(none)` for none.
    pub fn text(&self) -> &str {
        self.best.as_deref().unwrap_or("(none)")
    }

    /// `bestmove (none)`: no move, the game is over.
    pub const NONE: BestMove = BestMove {
        best: None,
        ponder: None,
    };

    /// The line parsed, or `None` if it is not a `bestmove` line with a
    /// move (or `(none)`).
    pub fn parse(line: &str) -> Option<BestMove> {
        let mut words = line.split_whitespace();
        if words.next() != Some(ReplyKind::BestMove.word()) {
            return None;
        }
        let best = words.next()?;
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(reply)) => Some(reply.to_string()),
            _ => None,
        };
        Some(BestMove {
            best: (best != NO_MOVE).then(|| best.to_string()),
            ponder,
        })
    }
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            ReplyKind::BestMove.word(),
            self.best.as_deref().unwrap_or(NO_MOVE)
        )?;
        if let Some(ponder) = &self.ponder {
            write!(f, " ponder {ponder}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_read_back() {
        for line in [
            "option name Hash type spin default 16 min 1 max 32768",
            "option name Use NNUE type check default false",
            "option name Clear Hash type button",
            "option name Reference Player type combo default off var off var on",
            "option name Debug Log File type string default <empty>",
        ] {
            let option = OptionLine::parse(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(option.to_string(), line);
            assert_eq!(Reply::parse(line), Some(Reply::Option(option)));
        }
        let spaced = OptionLine::parse("option name Debug Log File type string").unwrap();
        assert_eq!(spaced.name, "Debug Log File");
        for bad in [
            "option type spin",
            "option name type check",
            "option name X type dial",
            "option name X type spin min 1",
            "option name X type spin min a max 2",
        ] {
            assert_eq!(OptionLine::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Reply::parse("id name pasang 0.2.0 (1a2b3c4)"),
            Some(Reply::Id(IdField::Name, "pasang 0.2.0 (1a2b3c4)".into()))
        );
        assert_eq!(Reply::parse("id version 3"), None);
        assert_eq!(Reply::parse("nonsense"), None);
    }

    #[test]
    fn written_replies_read_back() {
        for kind in ReplyKind::ALL {
            assert_eq!(ReplyKind::of(kind.word()), Some(kind));
            assert_eq!(ReplyKind::of(&format!("{} x y", kind.word())), Some(kind));
        }
        assert_eq!(ReplyKind::of("info depth 1"), None);
        assert_eq!(ReplyKind::of(""), None);
        for best in [
            BestMove {
                best: Some("b4c4n".into()),
                ponder: Some("k7j7w".into()),
            },
            BestMove {
                best: Some("c".into()),
                ponder: None,
            },
            BestMove {
                best: None,
                ponder: None,
            },
        ] {
            let line = best.to_string();
            assert_eq!(ReplyKind::of(&line), Some(ReplyKind::BestMove));
            assert_eq!(BestMove::parse(&line), Some(best), "{line}");
        }
        assert_eq!(
            BestMove::parse("bestmove (none)").unwrap().to_string(),
            "bestmove (none)"
        );
        assert_eq!(BestMove::parse("bestmove"), None);
        assert_eq!(BestMove::parse("readyok"), None);
    }
}
