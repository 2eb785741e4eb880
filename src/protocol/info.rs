//! An `info` line, written by the engine and read by the tools from this
//! one definition: the search's reports, the root move being searched and
//! the free-text messages (`info string ...`).

use std::fmt;

use crate::eval::wdl::Wdl;
use crate::search::Score;

/// A score as the engine reports it, from the side to move's view.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum EngineScore {
    /// Hundredths of a point.
    Centipoints(i64),
    /// Moves of the side to move until the game is decided (negative:
    /// lost).
    Mate(i64),
}

impl fmt::Display for EngineScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineScore::Centipoints(cp) => write!(f, "cp {cp}"),
            EngineScore::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

impl From<Score> for EngineScore {
    fn from(score: Score) -> EngineScore {
        match score {
            Score::Centipoints(cp) => EngineScore::Centipoints(cp.into()),
            Score::Mate(moves) => EngineScore::Mate(moves.into()),
        }
    }
}

/// One `info` line. Each field is `None` (or empty) when the line does
/// not have it or its value is not a number; `Display` writes the fields
/// present in the engine's order, and [`InfoLine::parse`] reads them back.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct InfoLine {
    /// `depth`.
    pub depth: Option<u64>,
    /// `seldepth`: the deepest ply reached.
    pub seldepth: Option<u64>,
    /// `multipv`: which line (1 is the best).
    pub multipv: Option<u64>,
    /// `score cp <n>` or `score mate <n>`.
    pub score: Option<EngineScore>,
    /// `wdl W D L`: win, draw and loss chances in permille.
    pub wdl: Option<Wdl>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`: the search's speed in nodes per second.
    pub nps: Option<u64>,
    /// `hashfull`: permille of the transposition table in use.
    pub hashfull: Option<u64>,
    /// `time`: milliseconds since the search started.
    pub time: Option<u64>,
    /// `currmove`: the root move being searched.
    pub currmove: Option<String>,
    /// `currmovenumber`: its number in the root's order, from 1.
    pub currmovenumber: Option<u64>,
    /// `pv`: the line, as the engine wrote it (empty without one).
    pub pv: Vec<String>,
    /// `string`: the free text after it, if the line is a message.
    pub string: Option<String>,
}

/// What starts the message of an `info string` that refuses a command.
const ERROR_PREFIX: &str = "error: ";

impl InfoLine {
    /// `info string {text}`: a message.
    pub fn message(text: impl Into<String>) -> InfoLine {
        InfoLine {
            string: Some(text.into()),
            ..InfoLine::default()
        }
    }

    /// `info string error: {message}`: the engine's refusal of a command.
    pub fn error(message: impl std::fmt::Display) -> InfoLine {
        InfoLine::message(format!("{ERROR_PREFIX}{message}"))
    }

    /// The refusal this line carries (`info string error: ...`), without
    /// its prefix; `None` for any other line.
    pub fn error_message(&self) -> Option<&str> {
        self.string.as_deref()?.strip_prefix(ERROR_PREFIX)
    }

    /// The line parsed, or `None` if it is not an `info` line.
    pub fn parse(line: &str) -> Option<InfoLine> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return None;
        }
        let mut info = InfoLine::default();
        let mut index = 1;
        while index < words.len() {
            let number = |at: usize| word_at(&words, at);
            // Words the field takes after its name.
            let mut taken = 1;
            match words[index] {
                "string" => {
                    info.string = Some(words[index + 1..].join(" "));
                    break;
                }
                "pv" => {
                    info.pv = words[index + 1..].iter().map(|w| w.to_string()).collect();
                    break;
                }
                "depth" => info.depth = number(index + 1),
                "seldepth" => info.seldepth = number(index + 1),
                "multipv" => info.multipv = number(index + 1),
                "nodes" => info.nodes = number(index + 1),
                "nps" => info.nps = number(index + 1),
                "hashfull" => info.hashfull = number(index + 1),
                "time" => info.time = number(index + 1),
                "currmovenumber" => info.currmovenumber = number(index + 1),
                "currmove" => info.currmove = words.get(index + 1).map(|w| w.to_string()),
                "score" => {
                    info.score = match (words.get(index + 1), word_at(&words, index + 2)) {
                        (Some(&"cp"), Some(value)) => Some(EngineScore::Centipoints(value)),
                        (Some(&"mate"), Some(value)) => Some(EngineScore::Mate(value)),
                        _ => None,
                    };
                    taken = 2;
                }
                "wdl" => {
                    let chance = |at: usize| word_at(&words, at);
                    info.wdl = match (chance(index + 1), chance(index + 2), chance(index + 3)) {
                        (Some(win), Some(draw), Some(loss)) => Some(Wdl { win, draw, loss }),
                        _ => None,
                    };
                    taken = 3;
                }
                // A word this reader does not know (`lowerbound`, another
                // engine's field) is passed over alone.
                _ => taken = 0,
            }
            index += taken + 1;
        }
        Some(info)
    }
}

/// Word `at` of `words` read as a number, if it is one.
fn word_at<T: std::str::FromStr>(words: &[&str], at: usize) -> Option<T> {
    words.get(at).and_then(|word| word.parse().ok())
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth),
            ("seldepth", self.seldepth),
            ("multipv", self.multipv),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        if let Some(Wdl { win, draw, loss }) = self.wdl {
            write!(f, " wdl {win} {draw} {loss}")?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull),
            ("time", self.time),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if let Some(mv) = &self.currmove {
            write!(f, " currmove {mv}")?;
        }
        if let Some(number) = self.currmovenumber {
            write!(f, " currmovenumber {number}")?;
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        } else if !self.pv.is_empty() {
            write!(f, " pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_parse() {
        let info = InfoLine::parse(
            "info depth 7 seldepth 9 multipv 2 score cp -35 upperbound nodes 99 pv c j",
        )
        .unwrap();
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some(EngineScore::Centipoints(-35)));
        assert_eq!(info.nodes, Some(99));
        assert_eq!(info.nps, None);
        assert_eq!(info.pv, ["c", "j"]);
        let fast = InfoLine::parse("info depth 9 score cp 5 nodes 900 nps 45000 pv c").unwrap();
        assert_eq!(fast.nps, Some(45000));
        let message = InfoLine::parse("info string pv c score cp 1").unwrap();
        assert_eq!(message.string.as_deref(), Some("pv c score cp 1"));
        assert_eq!(message.score, None);
        let bad = InfoLine::parse("info depth x score mate -3 pv c").unwrap();
        assert_eq!(bad.depth, None);
        assert_eq!(bad.score, Some(EngineScore::Mate(-3)));
        assert_eq!(InfoLine::parse("bestmove c"), None);
        assert_eq!(InfoLine::parse("info depth 3 nodes 5").unwrap().pv.len(), 0);
        for written in [
            "info depth 14 currmove b4c4n currmovenumber 3",
            "info depth 0 score mate 0 wdl 0 0 1000",
            "info string error: unknown command: x",
        ] {
            assert_eq!(InfoLine::parse(written).unwrap().to_string(), written);
        }
    }
}
