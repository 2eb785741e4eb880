//! Work cut into shards for many machines: `--shard K/N` picks the game
//! pairs of a match (or the games of datagen) that one machine plays.
//!
//! Pair `i` (0-based over the whole run) belongs to shard `K` of `N` when
//! `i mod N = K - 1`. Its opening depends only on the seed and `i`, so a
//! shard plays exactly the games the whole run would give pair `i`.

use std::fmt;
use std::str::FromStr;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_reject_nonsense() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 1, count: 8 }));
        assert_eq!(" 1/1 ".parse::<Shard>().unwrap().to_string(), "1/1");
        for bad in ["", "3", "a/b", "-1/2", "1/2/3"] {
            let syntax = ShardError::Syntax(bad.into());
            assert_eq!(bad.parse::<Shard>(), Err(syntax), "{bad}");
        }
        for (bad, index, count) in [("0/2", 0, 2), ("3/2", 3, 2), ("1/0", 1, 0)] {
            let out_of_range = ShardError::OutOfRange { index, count };
            assert_eq!(bad.parse::<Shard>(), Err(out_of_range), "{bad}");
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
}
