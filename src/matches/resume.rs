//! A match's records read back: records say which match and pair each
//! game belongs to (the pairs a shard plays: [`crate::schedule::shard`]), and
//! [`Played`] reads them, for `--resume` (skip what a shard already
//! played) and `--merge` (see [`super::merge`]).

use std::fmt;

use crate::position::Player;
use crate::record::Record;
use crate::record::Termination;

/// What a game record must say for its game to be counted again: who
/// played it, which match and pair it belongs to, and how it ended.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Played {
    /// The match it belongs to (records of one match agree on this).
    pub identity: MatchIdentity,
    /// Its pair, 0-based over the whole match.
    pub pair: u64,
    /// Whether the first engine sat South (the first game of a pair).
    pub first_is_south: bool,
    /// The winner; `None` for a draw.
    pub winner: Option<Player>,
    /// How it ended.
    pub termination: Termination,
}

impl Played {
    /// The game's number over the whole match, from 0.
    pub fn game(&self) -> u64 {
        2 * self.pair + u64::from(!self.first_is_south)
    }
}

/// What tells the records of one match from another's: the engines in
/// their order, the conditions (limits, rules, openings) and the seed.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct MatchIdentity {
    /// The first and the second engine's names.
    pub names: [String; 2],
    /// The `Conditions` tag: the summary's heading.
    pub conditions: String,
    /// The `Seed` tag.
    pub seed: String,
    /// The `Games` tag: games in the whole match (`None`: until an SPRT
    /// decided).
    pub games: Option<u64>,
}

impl fmt::Display for MatchIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} vs {}, {}, seed {}, ",
            self.names[0], self.names[1], self.conditions, self.seed
        )?;
        // A resume with another --games differs only here: say it.
        match self.games {
            Some(games) => write!(f, "{games} games"),
            None => f.write_str("games until the SPRT decides"),
        }
    }
}

/// Why a record cannot be counted in a merge or a resume.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum RecordFault {
    /// A tag the merge needs is missing (records of an older runner).
    MissingTag(&'static str),
    /// A tag's value does not parse.
    BadTag { tag: &'static str, value: String },
    /// The `First` engine sat neither South nor North.
    FirstNotSeated(String),
    /// The game has no result (`*`).
    Unfinished,
}

impl fmt::Display for RecordFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordFault::MissingTag(tag) => write!(
                f,
                "no {tag} tag (records to merge come from `pasang match` with --seed)"
            ),
            RecordFault::BadTag { tag, value } => write!(f, "{tag} tag '{value}' is invalid"),
            RecordFault::FirstNotSeated(name) => {
                write!(f, "the first engine '{name}' is neither South nor North")
            }
            RecordFault::Unfinished => f.write_str("the game has no result"),
        }
    }
}

impl std::error::Error for RecordFault {}

impl Played {
    /// Reads what counts of a record written by `pasang match`.
    pub fn of(record: &Record) -> Result<Played, RecordFault> {
        let tag = |name: &'static str| record.tag(name).ok_or(RecordFault::MissingTag(name));
        let number = |name: &'static str| -> Result<u64, RecordFault> {
            let value = tag(name)?;
            value.parse().map_err(|_| RecordFault::BadTag {
                tag: name,
                value: value.to_string(),
            })
        };
        let pair = number("Pair")?;
        let first = tag("First")?;
        let (south, north) = (tag("South")?, tag("North")?);
        let (first_is_south, second) = if south == first {
            (true, north)
        } else if north == first {
            (false, south)
        } else {
            return Err(RecordFault::FirstNotSeated(first.to_string()));
        };
        let games = match record.tag("Games") {
            Some(_) => Some(number("Games")?),
            None => None,
        };
        let winner = record.result.winner().ok_or(RecordFault::Unfinished)?;
        let termination = tag("Termination")?;
        let termination = termination.parse().map_err(|_| RecordFault::BadTag {
            tag: "Termination",
            value: termination.to_string(),
        })?;
        Ok(Played {
            identity: MatchIdentity {
                names: [first.to_string(), second.to_string()],
                conditions: tag("Conditions")?.to_string(),
                seed: tag("Seed")?.to_string(),
                games,
            },
            pair,
            first_is_south,
            winner,
            termination,
        })
    }
}

/// Pair numbers as a short list with ranges: `0, 3-5, 9`.
pub fn ranges(pairs: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut index = 0;
    while index < pairs.len() {
        let start = pairs[index];
        let mut end = start;
        while index + 1 < pairs.len() && pairs[index + 1] == end + 1 {
            index += 1;
            end = pairs[index];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        index += 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_compact() {
        assert_eq!(ranges(&[0, 3, 4, 5, 9]), "0, 3-5, 9");
        assert_eq!(ranges(&[]), "");
    }
}
