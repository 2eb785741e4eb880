//! Matches cut into shards for many machines: `--shard K/N` picks the game
//! pairs a shard plays, records say which pair each game belongs to, and
//! [`Played`] reads such records back, for `--resume` (skip what a shard
//! already played) and `--merge` (see [`super::merge`]).
//!
//! Pair `i` (0-based over the whole match) belongs to shard `K` of `N`
//! when `i mod N = K - 1`. Its opening depends only on the seed and `i`,
//! so a shard plays exactly the games the whole match would give pair `i`.

use std::fmt;
use std::str::FromStr;

use crate::position::Player;
use crate::record::Record;
use crate::record::Termination;

/// `--shard K/N`: the `K`-th of `N` shards, `K` from 1.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Shard {
    /// `K - 1`.
    pub index: u64,
    /// `N`.
    pub count: u64,
}

/// Why a `--shard` value does not parse.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ShardError {
    /// Not two whole numbers around a slash.
    #[error("invalid shard '{0}' (expected K/N with 1 <= K <= N, e.g. 2/8)")]
    Syntax(String),
    /// `K` is 0 or above `N`.
    #[error("shard {index}/{count}: K must be from 1 to {count}")]
    OutOfRange { index: u64, count: u64 },
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(crate::notation::shorten(text));
        let (k, n) = text.trim().split_once('/').ok_or_else(syntax)?;
        let k: u64 = k.trim().parse().map_err(|_| syntax())?;
        let n: u64 = n.trim().parse().map_err(|_| syntax())?;
        if k == 0 || k > n {
            return Err(ShardError::OutOfRange { index: k, count: n });
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl Shard {
    /// Whether pair `pair` is this shard's.
    pub fn has(&self, pair: u64) -> bool {
        pair % self.count == self.index
    }

    /// The global game number of this shard's `job`-th game (both games of
    /// its pairs in turn), or `None` past the match's `games`.
    pub fn game(&self, job: u64, games: u64) -> Option<u64> {
        let pair = (job / 2).checked_mul(self.count)?.checked_add(self.index)?;
        let game = pair.checked_mul(2)? + job % 2;
        (game < games).then_some(game)
    }

    /// How many of a match's `games` this shard plays.
    pub fn games(&self, games: u64) -> u64 {
        let pairs = games / 2;
        let mine = if self.index < pairs {
            (pairs - self.index).div_ceil(self.count)
        } else {
            0
        };
        2 * mine
    }
}

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
            "{} vs {}, {}, seed {}",
            self.names[0], self.names[1], self.conditions, self.seed
        )
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
    fn shards_parse_and_reject_nonsense() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 1, count: 8 }));
        assert_eq!(" 1/1 ".parse::<Shard>().unwrap().to_string(), "1/1");
        for bad in ["", "3", "0/2", "3/2", "a/b", "1/0", "-1/2", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(
            "0/2".parse::<Shard>().unwrap_err().to_string(),
            "shard 0/2: K must be from 1 to 2"
        );
    }

    #[test]
    fn shards_cover_every_pair_once() {
        let games = 14; // pairs 0..7
        let shards: Vec<Shard> = (0..3).map(|index| Shard { index, count: 3 }).collect();
        let mut all = Vec::new();
        for shard in &shards {
            let mine: Vec<u64> = (0..).map_while(|job| shard.game(job, games)).collect();
            assert_eq!(mine.len() as u64, shard.games(games));
            assert!(mine.iter().all(|game| shard.has(game / 2)));
            all.extend(mine);
        }
        all.sort_unstable();
        assert_eq!(all, (0..games).collect::<Vec<_>>());
        // More shards than pairs: the extra ones have nothing to play.
        let idle = Shard { index: 5, count: 6 };
        assert_eq!(idle.games(4), 0);
        assert_eq!(idle.game(0, 4), None);
    }

    #[test]
    fn ranges_are_compact() {
        assert_eq!(ranges(&[0, 3, 4, 5, 9]), "0, 3-5, 9");
        assert_eq!(ranges(&[]), "");
    }
}
