//! The training-data file: one text line per searched position, games in
//! blocks between `# game` and `# end` lines, a header line first.
//!
//! ```text
//! # pasang datagen 1 seed 42 nodes 5000 random-plies 4
//! # game 0 2 jump any open plies c j b4c4n k7j7w
//! <position string> | <pattern> <ka entry> <second column> <centre> | <score> | <w|d|l> <margin>
//! ...
//! # end 0 south score 95-85
//! ```
//!
//! With `--policy T` each record line gains a sixth field, the teacher's
//! distribution over the legal moves: `<move>:<weight> ...`, and the
//! header ends in `policy T`. Positions with a mate score are kept, their
//! score written `mate n` (PROTOCOL.md's form): such files say version 3;
//! with `--skip-mates` they are left out, and the file is version 1
//! (without the distribution) or 2 (with it), which older readers read.
//!
//! Scores, results and margins are from the view of the side to move of
//! the line's position (its second field). docs/datagen.md describes the
//! format for readers in other languages.

use std::fmt;

use crate::moves::Move;
use crate::notation::{MoveError, PositionError, format_position, parse_move, parse_position};
use crate::outcome::Status;
use crate::position::{Player, Position};
use crate::rl::teacher::Temperature;
use crate::rules::{OptionValueError, Rules};
use crate::schedule::shard::Shard;
use crate::search::Score;

/// The header's first words; the number is the format version: 1 for
/// files without the move distribution, whose lines every reader reads.
pub const MAGIC: &str = "# pasang datagen 1";

/// The header's first words for a file whose lines carry the move
/// distribution (`--policy`): a sixth field, which readers of version 1
/// (four or five fields) would refuse, so the version says so first.
pub const MAGIC_POLICY: &str = "# pasang datagen 2";

/// The header's first words for a file that keeps positions with a mate
/// score (`mate n` in the score field, which readers of versions 1 and 2
/// would misread or refuse), with or without the distribution.
pub const MAGIC_MATES: &str = "# pasang datagen 3";

/// Weights are written with this many decimals; a move whose weight
/// rounds to 0 is left out of the line.
const POLICY_DECIMALS: i32 = 4;

/// How long each search runs.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum SearchLimit {
    /// About this many nodes per move.
    Nodes(u64),
    /// Iterative deepening to this depth per move.
    Depth(u32),
}

impl fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchLimit::Nodes(nodes) => write!(f, "nodes {nodes}"),
            SearchLimit::Depth(depth) => write!(f, "depth {depth}"),
        }
    }
}

/// What makes a file's games: every game `i` depends only on these and
/// `i`, so a resumed run must use the same.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Header {
    /// Seed of the rule sets and random openings.
    pub seed: u64,
    /// Search limit per move.
    pub limit: SearchLimit,
    /// Random legal plies played before the engine takes over.
    pub random_plies: u32,
    /// The shard of the games this file holds (`--shard K/N`: the games
    /// whose index `i` has `i mod N = K - 1`), or all of them.
    pub shard: Option<Shard>,
    /// With a temperature, every search is MultiPV over all legal moves
    /// and each line records the distribution (format version 2, or 3).
    pub policy: Option<Temperature>,
    /// Positions with a mate score are written (format version 3); files
    /// of versions 1 and 2 left them out.
    pub mates: bool,
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let magic = match (self.mates, self.policy) {
            (true, _) => MAGIC_MATES,
            (false, Some(_)) => MAGIC_POLICY,
            (false, None) => MAGIC,
        };
        write!(f, "{magic} {}", self.settings())
    }
}

impl Header {
    /// The header line's words after [`MAGIC`], what a resumed run must
    /// match: `seed 42 nodes 5000 random-plies 4`, then `policy T` with
    /// the distribution, then `shard K/N` for a shard.
    pub fn settings(&self) -> String {
        let mut words = format!(
            "seed {} {} random-plies {}",
            self.seed, self.limit, self.random_plies
        );
        if let Some(temperature) = self.policy {
            words.push_str(&format!(" policy {temperature}"));
        }
        if let Some(shard) = self.shard {
            words.push_str(&format!(" shard {shard}"));
        }
        words
    }

    /// Parses a header line (without its newline).
    pub fn parse(line: &str) -> Option<Header> {
        // Version 2 must name a temperature, version 1 must not; version 3
        // may.
        let (rest, with_policy, mates) = if let Some(rest) = line.strip_prefix(MAGIC) {
            (rest, Some(false), false)
        } else if let Some(rest) = line.strip_prefix(MAGIC_POLICY) {
            (rest, Some(true), false)
        } else {
            (line.strip_prefix(MAGIC_MATES)?, None, true)
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (words, shard) = match words.as_slice() {
            [head @ .., "shard", shard] => (head, Some(shard.parse::<Shard>().ok()?)),
            all => (all, None),
        };
        let (words, policy) = match words {
            [head @ .., "policy", temperature] if with_policy != Some(false) => {
                (head, Some(temperature.parse::<Temperature>().ok()?))
            }
            _ if with_policy == Some(true) => return None,
            all => (all, None),
        };
        let ["seed", seed, kind, limit, "random-plies", random_plies] = words else {
            return None;
        };
        let limit = match *kind {
            "nodes" => SearchLimit::Nodes(limit.parse().ok()?),
            "depth" => SearchLimit::Depth(limit.parse().ok()?),
            _ => return None,
        };
        Some(Header {
            seed: seed.parse().ok()?,
            limit,
            random_plies: random_plies.parse().ok()?,
            shard,
            policy,
            mates,
        })
    }

    /// The index of the file's `slot`-th game (from 0).
    pub fn game_index(&self, slot: u64) -> u64 {
        match self.shard {
            Some(shard) => shard.index + slot * shard.count,
            None => slot,
        }
    }

    /// How many of the games `0..games` belong to this file's shard.
    pub fn games_of(&self, games: u64) -> u64 {
        match self.shard {
            Some(shard) if games > shard.index => (games - shard.index).div_ceil(shard.count),
            Some(_) => 0,
            None => games,
        }
    }
}

/// A game's result from one side's view.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum DataResult {
    /// The side won.
    Win,
    /// Level scores with no stone left.
    Draw,
    /// The side lost.
    Loss,
}

impl DataResult {
    /// The result of a finished game for `player` (`None` if in play).
    pub fn of(status: &Status, player: Player) -> Option<DataResult> {
        match status {
            Status::InPlay => None,
            Status::Over { winner: None, .. } => Some(DataResult::Draw),
            Status::Over {
                winner: Some(winner),
                ..
            } => Some(if *winner == player {
                DataResult::Win
            } else {
                DataResult::Loss
            }),
        }
    }

    /// The same game from the other side.
    pub fn flipped(self) -> DataResult {
        match self {
            DataResult::Win => DataResult::Loss,
            DataResult::Draw => DataResult::Draw,
            DataResult::Loss => DataResult::Win,
        }
    }

    /// 1, 0.5 or 0: the target of a logistic fit.
    pub fn points(self) -> f64 {
        match self {
            DataResult::Win => 1.0,
            DataResult::Draw => 0.5,
            DataResult::Loss => 0.0,
        }
    }

    fn letter(self) -> char {
        match self {
            DataResult::Win => 'w',
            DataResult::Draw => 'd',
            DataResult::Loss => 'l',
        }
    }
}

/// The teacher's distribution over a position's legal moves
/// ([`crate::rl::teacher::policy`]) as a line holds it: moves with their
/// weights rounded to four decimals, heaviest first, those that round to
/// 0 left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy(Vec<(Move, f32)>);

impl Policy {
    /// The distribution of `weights` over `moves` (in the same order),
    /// rounded as a line writes it.
    pub fn new(moves: &[Move], weights: &[f64]) -> Policy {
        let scale = 10f64.powi(POLICY_DECIMALS);
        let mut entries: Vec<(Move, f32)> = moves
            .iter()
            .zip(weights)
            .map(|(&mv, &weight)| (mv, ((weight * scale).round() / scale) as f32))
            .filter(|&(_, weight)| weight > 0.0)
            .collect();
        // Stable: equal weights keep the moves' order.
        entries.sort_by(|a, b| b.1.total_cmp(&a.1));
        Policy(entries)
    }

    /// The moves and their weights, heaviest first.
    pub fn moves(&self) -> &[(Move, f32)] {
        &self.0
    }

    /// Reads the field `b4c4n:0.6123 d5b5ew:0.3877` of a position.
    fn parse(text: &str, position: &Position, rules: &Rules) -> Result<Policy, DataRecordError> {
        let bad = |why: &str| DataRecordError::Policy(format!("'{}': {why}", text.trim()));
        let mut entries = Vec::new();
        for word in text.split_whitespace() {
            let (mv, weight) = word
                .split_once(':')
                .ok_or_else(|| bad("each entry is <move>:<weight>"))?;
            let mv = parse_move(position, rules, mv).map_err(|error| bad(&error.to_string()))?;
            let weight: f32 = weight
                .parse()
                .ok()
                .filter(|weight: &f32| (0.0..=1.0).contains(weight))
                .ok_or_else(|| bad("a weight is not a number from 0 to 1"))?;
            if entries.iter().any(|&(seen, _)| seen == mv) {
                return Err(bad("a move is listed twice"));
            }
            entries.push((mv, weight));
        }
        if entries.is_empty() {
            return Err(bad("no move"));
        }
        Ok(Policy(entries))
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, (mv, weight)) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{mv}:{weight:.4}")?;
        }
        Ok(())
    }
}

/// One searched position with its labels.
#[derive(Clone, Debug, PartialEq)]
pub struct DataRecord {
    /// The position searched; its side to move is the view of the rest.
    pub position: Position,
    /// The rules of the game.
    pub rules: Rules,
    /// The search's score on its internal scale
    /// ([`Score::to_internal`]): centipoints (100 x expected point
    /// margin), or a mate beyond [`crate::search::MATE_BOUND`] (only in
    /// files of version 3). [`DataRecord::search_score`] tells them apart.
    pub score: i32,
    /// The game's result.
    pub result: DataResult,
    /// The side to move's points minus the opponent's at the game's end.
    pub margin: i32,
    /// The move the game went on with (the search's best move): a policy
    /// target. `None` in files written before it was recorded.
    pub played: Option<Move>,
    /// The teacher's distribution over the legal moves from the same
    /// search (`--policy`, format version 2); `None` otherwise.
    pub policy: Option<Policy>,
}

/// What is wrong with a record line.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum DataRecordError {
    /// Not four to six fields separated by ` | `.
    #[error(
        "{0} fields; expected 4 to 6 separated by ' | ': position, rules, score, result, the move played, and the move distribution"
    )]
    Fields(usize),
    /// The move distribution is not `<move>:<weight> ...`.
    #[error("move distribution {0}")]
    Policy(String),
    /// The move played is not a legal move of the position.
    #[error("move played: {0}")]
    Played(MoveError),
    /// The position string.
    #[error("position: {0}")]
    Position(PositionError),
    /// The rules field does not have four words.
    #[error("rules field has {0} words; expected pattern, ka entry, second column, centre")]
    RuleCount(usize),
    /// A rule value.
    #[error("rules: {0}")]
    Rule(OptionValueError),
    /// The score is not an integer or `mate n`.
    #[error("score '{0}' is not an integer or 'mate n'")]
    Score(String),
    /// The result field is not `w|d|l <margin>`.
    #[error("result '{0}' is not 'w', 'd' or 'l' followed by the point margin")]
    Result(String),
}

/// Rules as four words: `1 slide opposite wall`.
pub fn rules_words(rules: &Rules) -> String {
    format!(
        "{} {} {} {}",
        rules.pattern, rules.ka_entry, rules.second_column, rules.centre
    )
}

/// Parses the four words of [`rules_words`].
pub fn parse_rules(text: &str) -> Result<Rules, DataRecordError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [pattern, ka_entry, second_column, centre] = words.as_slice() else {
        return Err(DataRecordError::RuleCount(words.len()));
    };
    Ok(Rules {
        pattern: pattern.parse().map_err(DataRecordError::Rule)?,
        ka_entry: ka_entry.parse().map_err(DataRecordError::Rule)?,
        second_column: second_column.parse().map_err(DataRecordError::Rule)?,
        centre: centre.parse().map_err(DataRecordError::Rule)?,
    })
}

impl fmt::Display for DataRecord {
    /// The record's line, without the newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} | {} | {} | {} {}",
            format_position(&self.position),
            rules_words(&self.rules),
            ScoreField(self.search_score()),
            self.result.letter(),
            self.margin
        )?;
        if let Some(mv) = self.played {
            write!(f, " | {mv}")?;
            if let Some(policy) = &self.policy {
                write!(f, " | {policy}")?;
            }
        }
        Ok(())
    }
}

/// A score as a record line writes it: centipoints as a bare integer,
/// a mate as `mate n`.
struct ScoreField(Score);

impl fmt::Display for ScoreField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Score::Centipoints(cp) => write!(f, "{cp}"),
            mate => write!(f, "{mate}"),
        }
    }
}

/// Reads a score field: an integer (centipoints) or `mate n`.
fn parse_score(text: &str) -> Option<Score> {
    let text = text.trim();
    match text.strip_prefix("mate ") {
        Some(moves) => moves.trim().parse().ok().map(Score::Mate),
        None => text.parse().ok().map(Score::Centipoints),
    }
}

impl DataRecord {
    /// The score as the search reported it: centipoints or a mate.
    pub fn search_score(&self) -> Score {
        Score::from_internal(self.score)
    }

    /// Whether the score is a proven win or loss (a mate).
    pub fn is_mate(&self) -> bool {
        self.search_score().is_mate()
    }

    /// The value target in [-1, 1] of the score for the side to move:
    /// +1 or -1 at a mate, else the WDL model's win minus loss
    /// ([`crate::rl::teacher::value_of`], as `pasang.rl.teach` gives it).
    pub fn value(&self) -> f64 {
        crate::rl::teacher::value_of(self.search_score())
    }

    /// Parses a record line (without its newline).
    pub fn parse(line: &str) -> Result<DataRecord, DataRecordError> {
        let fields: Vec<&str> = line.split(" | ").collect();
        let (position, rules, score, result, played, policy) = match fields.as_slice() {
            [position, rules, score, result] => (position, rules, score, result, None, None),
            [position, rules, score, result, played] => {
                (position, rules, score, result, Some(played.trim()), None)
            }
            [position, rules, score, result, played, policy] => (
                position,
                rules,
                score,
                result,
                Some(played.trim()),
                Some(*policy),
            ),
            _ => return Err(DataRecordError::Fields(fields.len())),
        };
        let position = parse_position(position).map_err(DataRecordError::Position)?;
        let rules = parse_rules(rules)?;
        let played = played
            .map(|text| parse_move(&position, &rules, text).map_err(DataRecordError::Played))
            .transpose()?;
        let policy = policy
            .map(|text| Policy::parse(text, &position, &rules))
            .transpose()?;
        let score = parse_score(score)
            .ok_or_else(|| DataRecordError::Score(score.trim().to_string()))?
            .to_internal();
        let bad_result = || DataRecordError::Result(result.trim().to_string());
        let mut words = result.split_whitespace();
        let result = match words.next() {
            Some("w") => DataResult::Win,
            Some("d") => DataResult::Draw,
            Some("l") => DataResult::Loss,
            _ => return Err(bad_result()),
        };
        let margin = words
            .next()
            .and_then(|text| text.parse().ok())
            .ok_or_else(bad_result)?;
        if words.next().is_some() {
            return Err(bad_result());
        }
        Ok(DataRecord {
            position,
            rules,
            score,
            result,
            margin,
            played,
            policy,
        })
    }
}

/// The side to move's points minus the opponent's in a finished game.
pub fn margin(status: &Status, player: Player) -> i32 {
    match status {
        Status::InPlay => 0,
        Status::Over { scores, .. } => {
            let (own, other) = match player {
                Player::South => (scores[0], scores[1]),
                Player::North => (scores[1], scores[0]),
            };
            own as i32 - other as i32
        }
    }
}

/// What a scan of an existing file found: the complete games and where the
/// last one ends.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Scan {
    /// The header, if the file has a complete one.
    pub header: Option<Header>,
    /// Complete games (numbered 0 to `games - 1`).
    pub games: u64,
    /// Records in the complete games.
    pub positions: u64,
    /// Bytes up to the end of the last complete game (or the header):
    /// what a resumed run keeps.
    pub keep: usize,
}

/// Why an existing file cannot be continued.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ScanError {
    /// The first line is not a datagen header.
    #[error("the first line is not a '{MAGIC} ...' header: not a datagen file")]
    NotDatagen,
    /// A line of a complete game does not parse.
    #[error("line {line}: {error}")]
    BadRecord { line: usize, error: DataRecordError },
    /// Games out of order (a file written by something else).
    #[error("line {line}: expected game {expected}, found '{}'", found.chars().take(60).collect::<String>())]
    GameOrder {
        line: usize,
        expected: u64,
        found: String,
    },
}

/// The game being read by [`scan_games`].
struct OpenGame {
    index: u64,
    /// Its records up to its first bad line.
    records: Vec<DataRecord>,
    /// Its first bad line (an error only if the game is complete).
    bad: Option<(usize, DataRecordError)>,
}

/// Reads a file's text as a resumed run sees it: complete games count, a
/// half-written last game (no `# end` line, or a line cut short) is left
/// out of `keep`. Bad lines inside a complete game are errors.
pub fn scan(text: &str) -> Result<Scan, ScanError> {
    scan_games(text, |_, _| {})
}

/// [`scan`], handing each complete game's index and records to `game`, in
/// file order: the records are parsed once, here, for every reader.
pub fn scan_games(
    text: &str,
    mut game: impl FnMut(u64, Vec<DataRecord>),
) -> Result<Scan, ScanError> {
    let mut scan = Scan {
        header: None,
        games: 0,
        positions: 0,
        keep: 0,
    };
    let mut open: Option<OpenGame> = None;
    let mut offset = 0;
    // Which game index each slot of the file holds (shards skip).
    let mut slot_index = Header {
        seed: 0,
        limit: SearchLimit::Nodes(0),
        random_plies: 0,
        shard: None,
        policy: None,
        mates: true,
    };
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        let end = offset + line.len();
        offset = end;
        let Some(line) = line.strip_suffix('\n') else {
            // Cut short: never complete.
            break;
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if index == 0 {
            let header = Header::parse(line).ok_or(ScanError::NotDatagen)?;
            slot_index = header;
            scan.header = Some(header);
            scan.keep = end;
            continue;
        }
        let out_of_order = || ScanError::GameOrder {
            line: number,
            expected: slot_index.game_index(scan.games),
            found: line.to_string(),
        };
        if let Some(rest) = line.strip_prefix("# game ") {
            let expected = slot_index.game_index(scan.games);
            if first_word(rest).parse::<u64>() != Ok(expected) {
                return Err(out_of_order());
            }
            // A game header after a half-written game: that one was
            // abandoned, which a resumed run never does; keep reading.
            open = Some(OpenGame {
                index: expected,
                records: Vec::new(),
                bad: None,
            });
        } else if let Some(rest) = line.strip_prefix("# end ") {
            let (index, records) =
                closed_game(open.take(), first_word(rest)).ok_or_else(out_of_order)??;
            scan.games += 1;
            scan.positions += records.len() as u64;
            scan.keep = end;
            game(index, records);
        } else if line.starts_with('#') || line.trim().is_empty() {
            continue;
        } else if let Some(open) = open.as_mut() {
            if open.bad.is_none() {
                match DataRecord::parse(line) {
                    Ok(record) => open.records.push(record),
                    Err(error) => open.bad = Some((number, error)),
                }
            }
        } else {
            return Err(out_of_order());
        }
    }
    Ok(scan)
}

/// The first word of `text` (empty if none).
fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// The game an `# end {found}` line closes: its index and records; `None`
/// when no game is open or the index is not the open game's, an error
/// when one of its records did not parse.
fn closed_game(
    open: Option<OpenGame>,
    found: &str,
) -> Option<Result<(u64, Vec<DataRecord>), ScanError>> {
    let open = open.filter(|open| found.parse::<u64>() == Ok(open.index))?;
    Some(match open.bad {
        Some((line, error)) => Err(ScanError::BadRecord { line, error }),
        None => Ok((open.index, open.records)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Centre, KaEntry, Pattern, SecondColumn};

    const AFTER_SIX: &str = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj";

    fn record() -> DataRecord {
        DataRecord {
            position: parse_position(AFTER_SIX).unwrap(),
            rules: Rules {
                pattern: Pattern::Two,
                ka_entry: KaEntry::Both,
                second_column: SecondColumn::Any,
                centre: Centre::Open,
            },
            score: -350,
            result: DataResult::Loss,
            margin: -12,
            played: None,
            policy: None,
        }
    }

    #[test]
    fn records_with_a_move_distribution_round_trip_and_bad_ones_are_named() {
        let record = record();
        let legal = crate::movegen::legal_moves(&record.position, &record.rules);
        let moves = [legal.as_slice()[0], legal.as_slice()[1]];
        let (first, second) = (moves[0].to_string(), moves[1].to_string());
        // Rounded to four decimals, heaviest first, zeros left out.
        let policy = Policy::new(&[moves[1], moves[0]], &[0.25004, 0.74996]);
        assert_eq!(policy.moves(), &[(moves[0], 0.75), (moves[1], 0.25)]);
        assert_eq!(Policy::new(&moves, &[1.0, 0.00004]).moves().len(), 1);
        let with_policy = DataRecord {
            played: Some(moves[0]),
            policy: Some(policy),
            ..record.clone()
        };
        let line = with_policy.to_string();
        assert_eq!(
            line,
            format!(
                "{AFTER_SIX} | 2 both any open | -350 | l -12 | {first} | {first}:0.7500 {second}:0.2500"
            )
        );
        assert_eq!(DataRecord::parse(&line), Ok(with_policy.clone()));
        // The distribution is written only with the move played.
        let without_move = DataRecord {
            played: None,
            ..with_policy
        };
        assert_eq!(DataRecord::parse(&without_move.to_string()), Ok(record));
        let base = format!("{AFTER_SIX} | 2 both any open | -350 | l -12 | {first} | ");
        for (field, error) in [
            (format!("{first}:0.5 {first}:0.5"), "listed twice"),
            (format!("{first}=1"), "<move>:<weight>"),
            (format!("{first}:1.5"), "from 0 to 1"),
            (format!("{first}:x"), "from 0 to 1"),
            (" ".to_string(), "no move"),
        ] {
            let message = DataRecord::parse(&format!("{base}{field}"))
                .expect_err(&field)
                .to_string();
            assert!(message.contains(error), "{field}: {message}");
        }
        // An illegal move is named as the distribution's, not the played one.
        let error = DataRecord::parse(&format!("{base}b4c4n:1.0")).unwrap_err();
        assert!(matches!(error, DataRecordError::Policy(_)), "{error}");
        assert!(
            error
                .to_string()
                .starts_with("move distribution 'b4c4n:1.0': "),
            "{error}"
        );
        assert_eq!(
            DataRecord::parse(&format!("{base}{first}:1.0 | x")),
            Err(DataRecordError::Fields(7))
        );
    }

    #[test]
    fn records_round_trip() {
        let record = record();
        let line = record.to_string();
        assert_eq!(
            line,
            format!("{AFTER_SIX} | 2 both any open | -350 | l -12")
        );
        assert_eq!(DataRecord::parse(&line), Ok(record.clone()));
        for result in [DataResult::Win, DataResult::Draw] {
            let other = DataRecord {
                result,
                ..record.clone()
            };
            assert_eq!(DataRecord::parse(&other.to_string()), Ok(other));
        }
        // With the move played, a fifth field.
        let played = parse_move(&record.position, &record.rules, "c7c2e").unwrap();
        let with_move = DataRecord {
            played: Some(played),
            ..record
        };
        assert_eq!(with_move.to_string(), format!("{line} | c7c2e"));
        assert_eq!(DataRecord::parse(&with_move.to_string()), Ok(with_move));
        assert!(matches!(
            DataRecord::parse(&format!("{line} | b4c4n")),
            Err(DataRecordError::Played(_))
        ));
    }

    #[test]
    fn bad_records_name_the_fault() {
        let line = record().to_string();
        assert_eq!(
            DataRecord::parse(&line.replace(" | -350", "")),
            Err(DataRecordError::Fields(3))
        );
        assert!(matches!(
            DataRecord::parse(&line.replace("-350", "x")),
            Err(DataRecordError::Score(_))
        ));
        assert!(matches!(
            DataRecord::parse(&line.replace("l -12", "win -12")),
            Err(DataRecordError::Result(_))
        ));
        assert!(matches!(
            DataRecord::parse(&line.replace("both", "hop")),
            Err(DataRecordError::Rule(_))
        ));
        let error = DataRecord::parse(&line.replace("l -12", "l")).unwrap_err();
        assert!(error.to_string().contains("point margin"), "{error}");
    }

    #[test]
    fn headers_round_trip() {
        for limit in [SearchLimit::Nodes(5000), SearchLimit::Depth(7)] {
            for shard in [None, Some("3/16".parse().unwrap())] {
                for policy in [None, Some(Temperature::new(150.0).unwrap())] {
                    for mates in [false, true] {
                        let header = Header {
                            seed: 42,
                            limit,
                            random_plies: 4,
                            shard,
                            policy,
                            mates,
                        };
                        assert_eq!(Header::parse(&header.to_string()), Some(header));
                    }
                }
            }
        }
        // The distribution is version 2's, and version 2 has it.
        let with_policy =
            Header::parse("# pasang datagen 2 seed 1 nodes 9 random-plies 2 policy 100 shard 3/4")
                .unwrap();
        assert_eq!(with_policy.policy, Some(Temperature::new(100.0).unwrap()));
        assert_eq!(
            with_policy.settings(),
            "seed 1 nodes 9 random-plies 2 policy 100 shard 3/4"
        );
        for bad in [
            "# pasang datagen 1 seed 1 nodes 9 random-plies 2 policy 100",
            "# pasang datagen 2 seed 1 nodes 9 random-plies 2",
            "# pasang datagen 2 seed 1 nodes 9 random-plies 2 policy 0",
            "# pasang datagen 2 seed 1 nodes 9 random-plies 2 policy warm",
            "# pasang datagen 4 seed 1 nodes 9 random-plies 2",
        ] {
            assert_eq!(Header::parse(bad), None, "{bad}");
        }
        let sharded = Header::parse("# pasang datagen 1 seed 1 nodes 9 random-plies 2 shard 3/4");
        let sharded = sharded.unwrap();
        assert_eq!(
            sharded.settings(),
            "seed 1 nodes 9 random-plies 2 shard 3/4"
        );
        assert_eq!(sharded.game_index(0), 2);
        assert_eq!(sharded.game_index(2), 10);
        // Games 2, 6 and 10 of 0..11.
        assert_eq!(sharded.games_of(11), 3);
        assert_eq!(sharded.games_of(2), 0);
        assert_eq!(
            Header::parse("# pasang datagen 1 seed 1 nodes 9 random-plies 2 shard 5/4"),
            None
        );
        assert_eq!(Header::parse("# pasang datagen 1 seed x"), None);
        // Version 3 keeps mates, with or without the distribution.
        let kept = Header::parse("# pasang datagen 3 seed 1 nodes 9 random-plies 2").unwrap();
        assert!(kept.mates && kept.policy.is_none() && !sharded.mates);
    }

    #[test]
    fn mate_scores_are_written_as_the_protocol_writes_them() {
        let line = record().to_string();
        let plain = DataRecord::parse(&line).unwrap();
        assert!(!plain.is_mate());
        for (mate, value) in [("mate 3", 1.0), ("mate 0", -1.0), ("mate -2", -1.0)] {
            let text = line.replace(" | -350 | ", &format!(" | {mate} | "));
            let record = DataRecord::parse(&text).unwrap();
            assert!(record.is_mate() && record.score.abs() >= crate::search::MATE_BOUND);
            assert_eq!(record.value(), value);
            assert_eq!(record.to_string(), text);
        }
        let error = DataRecord::parse(&line.replace(" | -350 | ", " | mate x | ")).unwrap_err();
        assert!(error.to_string().contains("'mate n'"), "{error}");
    }

    #[test]
    fn results_are_from_each_side() {
        let status = Status::Over {
            winner: Some(Player::North),
            reason: crate::outcome::Reason::Score,
            scores: [80, 100],
        };
        assert_eq!(
            DataResult::of(&status, Player::North),
            Some(DataResult::Win)
        );
        assert_eq!(
            DataResult::of(&status, Player::South),
            Some(DataResult::Loss)
        );
        assert_eq!(margin(&status, Player::South), -20);
        assert_eq!(margin(&status, Player::North), 20);
        assert_eq!(DataResult::Win.flipped(), DataResult::Loss);
    }

    fn file(games: usize) -> String {
        let header = Header {
            seed: 1,
            limit: SearchLimit::Nodes(100),
            random_plies: 2,
            shard: None,
            policy: None,
            mates: false,
        };
        let mut text = format!("{header}\n");
        for game in 0..games {
            text.push_str(&format!("# game {game} 1 slide opposite wall plies c j\n"));
            text.push_str(&format!("{}\n{}\n", record(), record()));
            text.push_str(&format!("# end {game} north score 80-100\n"));
        }
        text
    }

    #[test]
    fn scans_cut_a_half_written_game() {
        let whole = file(3);
        let scan = scan(&whole).unwrap();
        assert_eq!((scan.games, scan.positions, scan.keep), (3, 6, whole.len()));

        // Cut inside the last game's records, inside a line, and inside
        // its end line: two games are kept each time.
        let two = file(2).len();
        for cut in [two + 10, whole.len() - 200, whole.len() - 5] {
            let scan = super::scan(&whole[..cut]).unwrap();
            assert_eq!(
                (scan.games, scan.positions, scan.keep),
                (2, 4, two),
                "cut {cut}"
            );
        }
        // Only the header, or half of it.
        let header_len = whole.find('\n').unwrap() + 1;
        let scan = super::scan(&whole[..header_len + 3]).unwrap();
        assert_eq!((scan.games, scan.keep), (0, header_len));
        assert_eq!(super::scan(&whole[..10]).unwrap().header, None);
    }

    #[test]
    fn scans_hand_over_the_records_of_complete_games_only() {
        // Game 1 begun and abandoned, then written whole; game 2 cut short.
        let whole = file(3);
        let game_1 = whole.find("# game 1").unwrap();
        let abandoned = format!("# game 1 1 slide opposite wall plies c\n{}\n", record());
        let mut text = whole[..whole.len() - 30].to_string();
        text.insert_str(game_1, &abandoned);
        let mut games = Vec::new();
        let scan = scan_games(&text, |index, records| games.push((index, records))).unwrap();
        assert_eq!((scan.games, scan.positions), (2, 4));
        assert_eq!(games, [(0, vec![record(); 2]), (1, vec![record(); 2])]);
    }

    #[test]
    fn scans_reject_other_files_and_bad_complete_games() {
        assert_eq!(scan("hello\n"), Err(ScanError::NotDatagen));
        let broken = file(2).replacen("-350", "x", 1);
        assert!(matches!(
            scan(&broken),
            Err(ScanError::BadRecord { line: 3, .. })
        ));
        let skipped = file(2).replace("# game 1", "# game 5");
        assert!(matches!(scan(&skipped), Err(ScanError::GameOrder { .. })));
        // A bad line in the half-written last game is only dropped.
        let whole = file(2);
        let mut cut = whole[..whole.rfind("# end").unwrap()].to_string();
        let at = cut.rfind("-350").unwrap();
        cut.replace_range(at..at + 4, "x");
        assert_eq!(scan(&cut).unwrap().games, 1);
    }
}
