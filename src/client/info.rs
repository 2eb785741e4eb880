//! The one parser of an engine's `info` lines: the fields the tools
//! read (which line, depth, score, nodes, the line of moves), each `None`
//! when absent or not a number.

/// A score as the engine reports it, from the side to move's view.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum EngineScore {
    /// Hundredths of a point.
    Centipoints(i64),
    /// Moves of the side to move until the game is decided (negative:
    /// lost).
    Mate(i64),
}

/// One `info` line.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct InfoLine {
    /// `multipv`: which line (1 is the best).
    pub multipv: Option<u64>,
    /// `depth`.
    pub depth: Option<u64>,
    /// `score cp <n>` or `score mate <n>`.
    pub score: Option<EngineScore>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`: the search's speed in nodes per second.
    pub nps: Option<u64>,
    /// `pv`: the line, as the engine wrote it (empty without one).
    pub pv: Vec<String>,
    /// `string`: the free text after it, if the line is a message.
    pub string: Option<String>,
}

impl InfoLine {
    /// The line parsed, or `None` if it is not an `info` line.
    pub fn parse(line: &str) -> Option<InfoLine> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return None;
        }
        let mut info = InfoLine::default();
        let mut index = 1;
        while index < words.len() {
            let next = words.get(index + 1).copied().unwrap_or("");
            match words[index] {
                "string" => {
                    info.string = Some(words[index + 1..].join(" "));
                    break;
                }
                "pv" => {
                    info.pv = words[index + 1..].iter().map(|w| w.to_string()).collect();
                    break;
                }
                "depth" => info.depth = next.parse().ok(),
                "multipv" => info.multipv = next.parse().ok(),
                "nodes" => info.nodes = next.parse().ok(),
                "nps" => info.nps = next.parse().ok(),
                "score" => {
                    let value = words.get(index + 2).and_then(|v| v.parse().ok());
                    info.score = match (next, value) {
                        ("cp", Some(value)) => Some(EngineScore::Centipoints(value)),
                        ("mate", Some(value)) => Some(EngineScore::Mate(value)),
                        _ => None,
                    };
                    index += 1;
                }
                _ => {
                    index += 1;
                    continue;
                }
            }
            index += 2;
        }
        Some(info)
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
    }
}
