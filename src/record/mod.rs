//! Game records: PGN-like text, one record per game, written by
//! `pasang match --out` and read back by [`read`].
//!
//! A record is tag pairs, one per line (`[Name "value"]`, with `\"` and
//! `\\` escaped), a blank line, then the moves in canonical notation with
//! move numbers (`1. c j 2. b4c4n k7j7w`), optional `{comments}` after a
//! move, and the result (`1-0` South won, `0-1` North won, `1/2-1/2`
//! draw, `*` unknown) ending the record. A move may carry a mark as PGN
//! writes it: a suffix (`b5c5e??`) or a numeric annotation glyph after it
//! (`$4`); see [`Mark`]. See `docs/match.md` and `docs/review.md`.

use std::fmt;

use crate::notation::{ListMoveError, PositionError, parse_position, start_position};
use crate::position::Position;
use crate::rules::{OptionSpelling, RULE_OPTIONS, Rules, RulesError, rule_option, rules_from};

mod game;
mod result;
mod termination;
pub use game::{Game, StartMovesError};
pub use result::{Ending, GameResult, GameResultError};
pub use termination::{Termination, TerminationError};

/// One move of a record.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RecordMove {
    /// The move as written (canonical notation when written by the runner),
    /// without its mark.
    pub text: String,
    /// The `{...}` comment after it, trimmed: `book` for opening plies,
    /// `<score>/<depth> <seconds>s` for engine moves (several comments
    /// after one move are joined with a space).
    pub comment: Option<String>,
    /// Its mark (`??`, `$4`, ...), if any.
    pub mark: Option<Mark>,
}

/// A move's mark: PGN's suffixes and their numeric annotation glyphs
/// (NAGs `$1` to `$6`). A review marks only [`Mark::Inaccuracy`],
/// [`Mark::Mistake`] and [`Mark::Blunder`]; the others are read and
/// written back so that records from elsewhere keep them.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Mark {
    /// `!`, `$1`: a good move.
    Good,
    /// `?`, `$2`: a mistake.
    Mistake,
    /// `!!`, `$3`: a brilliant move.
    Brilliant,
    /// `??`, `$4`: a blunder.
    Blunder,
    /// `!?`, `$5`: an interesting move.
    Interesting,
    /// `?!`, `$6`: an inaccuracy (PGN's "dubious move").
    Inaccuracy,
}

impl Mark {
    /// Every mark, in the order of their NAGs.
    pub const ALL: [Mark; 6] = [
        Mark::Good,
        Mark::Mistake,
        Mark::Brilliant,
        Mark::Blunder,
        Mark::Interesting,
        Mark::Inaccuracy,
    ];

    /// The suffix written after the move: `!`, `?`, `!!`, `??`, `!?`, `?!`.
    pub fn suffix(self) -> &'static str {
        match self {
            Mark::Good => "!",
            Mark::Mistake => "?",
            Mark::Brilliant => "!!",
            Mark::Blunder => "??",
            Mark::Interesting => "!?",
            Mark::Inaccuracy => "?!",
        }
    }

    /// Its numeric annotation glyph, 1 to 6.
    pub fn nag(self) -> u8 {
        match self {
            Mark::Good => 1,
            Mark::Mistake => 2,
            Mark::Brilliant => 3,
            Mark::Blunder => 4,
            Mark::Interesting => 5,
            Mark::Inaccuracy => 6,
        }
    }

    /// The mark of a suffix, if it is one.
    pub fn from_suffix(suffix: &str) -> Option<Mark> {
        Mark::ALL.into_iter().find(|mark| mark.suffix() == suffix)
    }

    /// The mark of a NAG, if it is one of 1 to 6.
    pub fn from_nag(nag: u8) -> Option<Mark> {
        Mark::ALL.into_iter().find(|mark| mark.nag() == nag)
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.suffix())
    }
}

/// One game record.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Record {
    /// Tag pairs in the order written.
    pub tags: Vec<(String, String)>,
    /// The moves from the start position.
    pub moves: Vec<RecordMove>,
    /// The result ending the movetext.
    pub result: GameResult,
}

/// A game as [`Record::from_game`] writes it: who played it, under which
/// rules, from where, its moves and how it ended, with the tags each tool
/// adds in their places.
#[derive(Clone, Debug, Default)]
pub struct Scoresheet {
    /// The `Event` tag: `pasang match`, `pasang play` or `pasang gui`.
    pub event: &'static str,
    /// Tags after `Date` (`Round`, `Pair`).
    pub numbering: Vec<(&'static str, String)>,
    /// The `South` and `North` tags.
    pub players: [String; 2],
    /// Tags after the players' names (a match's engine options).
    pub player_tags: Vec<(&'static str, String)>,
    /// The rules, written as their four tags.
    pub rules: Rules,
    /// The `FEN` tag: the position the moves start from.
    pub start: String,
    /// Tags after `FEN` (a match's opening, seed and time controls).
    pub setup_tags: Vec<(&'static str, String)>,
    /// The moves from the start.
    pub moves: Vec<RecordMove>,
    /// The `Result` tag and the movetext's last token.
    pub result: GameResult,
    /// How a finished game ended, where the tool knows it.
    pub ending: Option<Ending>,
    /// Whether to write the `PlyCount` tag.
    pub ply_count: bool,
}

impl Scoresheet {
    /// The scoresheet of `game`, for the tool `event`: its rules, its
    /// start, its moves with `comments` (one a ply, in order; a ply past
    /// them has none) and its result as the position reached gives it
    /// (`*` while in play). The caller fills in the rest, or overrides.
    pub fn of_game(event: &'static str, game: &Game, comments: &[Option<String>]) -> Scoresheet {
        Scoresheet {
            event,
            rules: game.rules(),
            start: crate::notation::format_position(&game.start()),
            moves: game
                .moves()
                .iter()
                .enumerate()
                .map(|(ply, mv)| RecordMove {
                    text: mv.to_string(),
                    comment: comments.get(ply).cloned().flatten(),
                    mark: None,
                })
                .collect(),
            result: game.result(),
            ..Scoresheet::default()
        }
    }
}

impl Record {
    /// The record of a game: `Event`, `Date`, the numbering, `South`,
    /// `North`, the player tags, the rule tags, `FEN`, the setup tags,
    /// `Result` (the same result ends the movetext), the ending's
    /// `Termination`, `TerminationDetail` and `Scores`, and `PlyCount`.
    pub fn from_game(game: Scoresheet) -> Record {
        let mut record = Record::default();
        record.push_tag("Event", game.event);
        record.push_tag("Date", utc_date());
        let [south, north] = game.players;
        for (name, value) in game.numbering {
            record.push_tag(name, value);
        }
        record.push_tag("South", south);
        record.push_tag("North", north);
        for (name, value) in game.player_tags {
            record.push_tag(name, value);
        }
        record.push_rule_tags(&game.rules);
        record.push_tag("FEN", game.start);
        for (name, value) in game.setup_tags {
            record.push_tag(name, value);
        }
        record.push_tag("Result", game.result.as_str());
        if let Some(ending) = game.ending {
            record.push_tag("Termination", ending.termination.to_string());
            if let Some(detail) = ending.detail {
                record.push_tag("TerminationDetail", detail);
            }
            if let Some([south, north]) = ending.scores {
                record.push_tag("Scores", format!("{south}-{north}"));
            }
        }
        if game.ply_count {
            record.push_tag("PlyCount", game.moves.len().to_string());
        }
        record.moves = game.moves;
        record.result = game.result;
        record
    }

    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Adds a tag pair (records keep the order tags are added in).
    pub fn push_tag(&mut self, name: &str, value: impl Into<String>) {
        self.tags.push((name.to_string(), value.into()));
    }

    /// Adds the tag of each rule option of `rules` (`Pattern`, `KaEntry`,
    /// `SecondColumn`, `Centre`: [`RULE_OPTIONS`]' tags), the tags
    /// [`Record::rules`] reads back.
    pub fn push_rule_tags(&mut self, rules: &Rules) {
        for option in &RULE_OPTIONS {
            self.push_tag(option.tag, option.value(rules));
        }
    }

    /// The rule options of the rule tags (defaults for missing ones),
    /// read by the core's table as every file and message is.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        // A record has other tags too (Event, FEN, ...).
        let rule_tags = self
            .tags
            .iter()
            .filter(|(name, _)| rule_option(name, OptionSpelling::Tag).is_ok())
            .map(|(name, value)| (name, value));
        rules_from(rule_tags, OptionSpelling::Tag)
    }

    /// The record's rules and start position: the `FEN` tag, or the
    /// pattern's start.
    pub fn start(&self) -> Result<(Rules, Position), ReplayError> {
        let rules = self.rules().map_err(ReplayError::Rules)?;
        let start = match self.tag("FEN") {
            Some(fen) => parse_position(fen).map_err(ReplayError::Fen)?,
            None => start_position(rules.pattern),
        };
        Ok((rules, start))
    }

    /// Replays the moves from the `FEN` tag (or the pattern's start) under
    /// the record's rules, checking each; returns the final position.
    pub fn replay(&self) -> Result<Position, ReplayError> {
        Ok(Game::from_record(self)?.current())
    }

    /// Whether the start position has North to move (move numbers then
    /// begin with `1...`).
    fn north_starts(&self) -> bool {
        self.tag("FEN")
            .and_then(|fen| fen.split_whitespace().nth(1))
            .is_some_and(|side| side == "n")
    }
}

/// Why a record does not replay. `Display` gives the text of before:
/// the rule tag's fault, `FEN: ...` or `ply N: ...`.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// A rule tag's value is not one of the option's values.
    #[error("{0}")]
    Rules(#[source] RulesError),
    /// The `FEN` tag (or the pattern's start) does not parse.
    #[error("FEN: {0}")]
    Fen(#[source] PositionError),
    /// A move does not parse or is illegal; its number is the ply, from 1.
    #[error("ply {}: {}", .0.number, .0.error)]
    Ply(#[source] ListMoveError),
}

/// Tag values and comments stay on one line and cannot end early.
fn escape_tag(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

fn clean_comment(comment: &str) -> String {
    comment.replace('}', ")").replace(['\n', '\r'], " ")
}

/// Longest movetext line written.
const LINE_WIDTH: usize = 79;

impl fmt::Display for Record {
    /// The record's text, ending with a blank line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", escape_tag(value))?;
        }
        writeln!(f)?;
        let mut tokens = Vec::new();
        let north_first = self.north_starts();
        for (index, mv) in self.moves.iter().enumerate() {
            let ply = index + usize::from(north_first);
            let number = ply / 2 + 1;
            let text = match mv.mark {
                Some(mark) => format!("{}{mark}", mv.text),
                None => mv.text.clone(),
            };
            // A move number stays on the line of its move.
            if ply % 2 == 0 {
                tokens.push(format!("{number}. {text}"));
            } else if index == 0 {
                tokens.push(format!("{number}... {text}"));
            } else {
                tokens.push(text);
            }
            if let Some(comment) = &mv.comment {
                tokens.push(format!("{{{}}}", clean_comment(comment)));
            }
        }
        tokens.push(self.result.to_string());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        writeln!(f, "{line}")?;
        writeln!(f)
    }
}

/// What is wrong with record text, and on which line.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("line {line}: {fault}")]
pub struct RecordError {
    /// Line number, from 1.
    pub line: usize,
    /// The fault.
    #[source]
    pub fault: RecordSyntax,
}

/// How a line of record text breaks the format.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum RecordSyntax {
    /// A tag line follows moves: the record before it has no result.
    #[error("tags after moves: the record before has no result")]
    TagsAfterMoves,
    /// A tag line is not `[Name "value"]`.
    #[error("a tag must be [Name \"value\"]")]
    TagShape,
    /// A tag's value is not in double quotes.
    #[error("a tag value must be in double quotes")]
    Unquoted,
    /// A backslash in a tag value escapes neither `\` nor `"`.
    #[error("a backslash in a tag value must escape \\ or \"")]
    BadEscape,
    /// A quote inside a tag value is not escaped.
    #[error("an unescaped quote inside a tag value")]
    InnerQuote,
    /// A tag's name is empty or not letters, digits and `_`.
    #[error("invalid tag name '{0}'")]
    TagName(String),
    /// A token is neither a move, a move number nor a result.
    #[error("'{0}' is neither a move nor a move number")]
    NotAMove(String),
    /// A `$` token is not a number of 0 to 255 (a NAG).
    #[error("'{0}' is not an annotation glyph ($0 to $255)")]
    BadNag(String),
    /// A mark (a suffix or a NAG) with no move before it.
    #[error("the mark '{0}' follows no move")]
    MarkWithoutMove(String),
    /// A `{` comment is still open at the end of the text.
    #[error("comment never closed")]
    UnclosedComment,
    /// The text ends inside a record, before its result.
    #[error("the last record has no result")]
    NoResult,
}

/// Parses `[Name "value"]`.
fn parse_tag(text: &str) -> Result<(String, String), RecordSyntax> {
    let inner = text
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or(RecordSyntax::TagShape)?
        .trim();
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or(RecordSyntax::TagShape)?;
    let quoted = rest.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or(RecordSyntax::Unquoted)?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped @ ('\\' | '"')) => value.push(escaped),
                _ => return Err(RecordSyntax::BadEscape),
            },
            '"' => return Err(RecordSyntax::InnerQuote),
            other => value.push(other),
        }
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(RecordSyntax::TagName(name.to_string()));
    }
    Ok((name.to_string(), value))
}

/// Reads every record of `text`.
pub fn read(text: &str) -> Result<Vec<Record>, RecordError> {
    let prefix = read_prefix(text);
    match prefix.error {
        Some(error) => Err(error),
        None => Ok(prefix.records),
    }
}

/// The complete records at the start of a text, and where they end.
#[derive(Clone, Debug, Default)]
pub(crate) struct Prefix {
    /// The records read whole, in order.
    pub records: Vec<Record>,
    /// Bytes of the text up to the end of the line that ended the last
    /// of them (0 when there is none).
    pub complete_bytes: usize,
    /// What stopped the reading before the end of the text, if anything:
    /// a malformed line, or a last record without its result (a record
    /// cut short by a process that died while writing it).
    pub error: Option<RecordError>,
}

/// Reads the records of `text` up to the first fault: what a resumed
/// match keeps of a records file whose last record was half written.
pub(crate) fn read_prefix(text: &str) -> Prefix {
    let mut prefix = Prefix::default();
    let read = read_into(text, &mut prefix.records, &mut prefix.complete_bytes);
    prefix.error = read.err();
    prefix
}

fn read_into(
    text: &str,
    records: &mut Vec<Record>,
    complete_bytes: &mut usize,
) -> Result<(), RecordError> {
    let mut current: Option<Record> = None;
    // An open comment: its text so far and the line it started on.
    let mut comment: Option<(String, usize)> = None;
    let mut last_line = 0;
    let mut line_end = 0;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        line_end += raw.len();
        let raw = raw.trim_end_matches(['\n', '\r']);
        let number = index + 1;
        last_line = number;
        let error = |fault: RecordSyntax| RecordError {
            line: number,
            fault,
        };
        let mut rest = raw;
        if comment.is_none() && raw.trim().starts_with('[') {
            read_tag(&mut current, raw.trim()).map_err(error)?;
            continue;
        }
        loop {
            if comment.is_some() {
                match continue_comment(&mut comment, &mut current, rest) {
                    Some(after) => rest = after,
                    None => break,
                }
                continue;
            }
            rest = rest.trim_start();
            if rest.is_empty() || rest.starts_with(';') {
                break;
            }
            if let Some(after) = rest.strip_prefix('{') {
                comment = Some((String::new(), number));
                rest = after;
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            if let Ok(result) = token.parse::<GameResult>() {
                let mut record = current.take().unwrap_or_default();
                record.result = result;
                records.push(record);
                *complete_bytes = line_end;
                continue;
            }
            read_move(&mut current, token).map_err(error)?;
        }
    }
    if let Some((_, line)) = comment {
        return Err(RecordError {
            line,
            fault: RecordSyntax::UnclosedComment,
        });
    }
    if current.is_some() {
        return Err(RecordError {
            line: last_line,
            fault: RecordSyntax::NoResult,
        });
    }
    Ok(())
}

/// A tag line (`[Name "value"]`) of the record being read, which must come
/// before its moves.
fn read_tag(current: &mut Option<Record>, line: &str) -> Result<(), RecordSyntax> {
    let record = current.get_or_insert_with(Record::default);
    if !record.moves.is_empty() {
        return Err(RecordSyntax::TagsAfterMoves);
    }
    record.tags.push(parse_tag(line)?);
    Ok(())
}

/// Goes on with the open `comment` through `rest`: what follows it once
/// it closes on this line (it is then attached to the last move), or
/// `None` if it runs on past the line.
fn continue_comment<'a>(
    comment: &mut Option<(String, usize)>,
    current: &mut Option<Record>,
    rest: &'a str,
) -> Option<&'a str> {
    let (text, _) = comment.as_mut()?;
    match rest.find('}') {
        Some(end) => {
            text.push_str(&rest[..end]);
            let finished = text.trim().to_string();
            *comment = None;
            attach_comment(current, finished);
            Some(&rest[end + 1..])
        }
        None => {
            text.push_str(rest);
            text.push(' ');
            None
        }
    }
}

/// Adds a comment just closed to the last move of the record being read
/// (several after one move are joined with a space); one before any
/// move is dropped.
fn attach_comment(current: &mut Option<Record>, finished: String) {
    if let Some(last) = current.as_mut().and_then(|r| r.moves.last_mut()) {
        last.comment = Some(match last.comment.take() {
            Some(earlier) if !finished.is_empty() => format!("{earlier} {finished}"),
            Some(earlier) => earlier,
            None => finished,
        });
    }
}

/// Reads a movetext token other than a result into the record being
/// read: a move (with its mark), a move number (`12.` or `12...`,
/// possibly glued to the move), or a mark standing alone (a NAG or a
/// suffix) for the move before.
fn read_move(current: &mut Option<Record>, token: &str) -> Result<(), RecordSyntax> {
    let unnumbered = if token.starts_with(|c: char| c.is_ascii_digit()) {
        let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
        if !digits.starts_with('.') {
            return Err(RecordSyntax::NotAMove(token.to_string()));
        }
        digits.trim_start_matches('.')
    } else {
        token
    };
    if unnumbered.is_empty() {
        return Ok(());
    }
    let record = current.get_or_insert_with(Record::default);
    let (text, mark) = split_mark(unnumbered)?;
    if text.is_empty() {
        let last = record
            .moves
            .last_mut()
            .ok_or_else(|| RecordSyntax::MarkWithoutMove(token.to_string()))?;
        if mark.is_some() {
            last.mark = mark;
        }
        return Ok(());
    }
    record.moves.push(RecordMove {
        text: text.to_string(),
        comment: None,
        mark,
    });
    Ok(())
}

/// Splits a movetext token into the move and its mark: `b5c5e??` gives
/// `b5c5e` and a blunder, `$4` gives no move and a blunder. NAGs beyond
/// 6 are valid PGN and are read as no mark.
fn split_mark(token: &str) -> Result<(&str, Option<Mark>), RecordSyntax> {
    if let Some(digits) = token.strip_prefix('$') {
        let nag: u8 = digits
            .parse()
            .map_err(|_| RecordSyntax::BadNag(token.to_string()))?;
        return Ok(("", Mark::from_nag(nag)));
    }
    let text = token.trim_end_matches(['!', '?']);
    let suffix = &token[text.len()..];
    if suffix.is_empty() {
        return Ok((text, None));
    }
    match Mark::from_suffix(suffix) {
        Some(mark) => Ok((text, Some(mark))),
        None => Err(RecordSyntax::NotAMove(token.to_string())),
    }
}

/// Reads the records of `text` one by one: a fault in one record is that
/// record's error, and reading goes on with the next (a record begins at a
/// tag line that follows movetext, or at the file's first tag line). Line
/// numbers are the file's. What [`read`] stops at, `pasang annotate`
/// reports and goes past.
pub fn read_each(text: &str) -> Vec<Result<Record, RecordError>> {
    let mut results = Vec::new();
    for (first_line, chunk) in chunks(text) {
        let mut records = Vec::new();
        let mut complete = 0;
        match read_into(chunk, &mut records, &mut complete) {
            Ok(()) => results.extend(records.into_iter().map(Ok)),
            Err(mut error) => {
                // Records read whole before the fault stand.
                results.extend(records.into_iter().map(Ok));
                error.line += first_line - 1;
                results.push(Err(error));
            }
        }
    }
    results
}

/// Splits record text at each tag line that follows movetext (outside a
/// comment): the pieces and the line each starts on, from 1.
fn chunks(text: &str) -> Vec<(usize, &str)> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut start_line = 1;
    let mut offset = 0;
    let mut in_comment = false;
    let mut seen_moves = false;
    let mut after_blank = true;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        // A comment left open does not swallow the records after it: a tag
        // line after a blank line starts the next record all the same.
        if in_comment && after_blank && parse_tag(trimmed).is_ok() {
            in_comment = false;
        }
        after_blank = trimmed.is_empty();
        if !in_comment && trimmed.starts_with('[') {
            if seen_moves {
                pieces.push((start_line, &text[start..offset]));
                start = offset;
                start_line = index + 1;
                seen_moves = false;
            }
        } else {
            for c in line.chars() {
                match c {
                    '{' if !in_comment => in_comment = true,
                    '}' if in_comment => in_comment = false,
                    ';' if !in_comment => break,
                    c if !in_comment && !c.is_whitespace() => seen_moves = true,
                    _ => {}
                }
            }
        }
        offset += line.len();
    }
    if !text[start..].trim().is_empty() {
        pieces.push((start_line, &text[start..]));
    }
    pieces
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) fn utc_date() -> String {
    let seconds = crate::host::unix_time().as_secs();
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's algorithm).
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        let mut record = Record::default();
        record.push_tag("Event", "pasang match");
        record.push_tag("Round", "1");
        record.push_tag("South", "engine \"one\" \\ a");
        record.push_tag("North", "two");
        record.push_tag("FEN", crate::rules::Pattern::One.start_position_string());
        record.push_tag("Result", GameResult::SouthWins.as_str());
        let moves = ["c", "j", "b4c4n", "k7j7w", "c4c7ew", "j7k7s"];
        record.moves = moves
            .iter()
            .enumerate()
            .map(|(i, m)| RecordMove {
                text: m.to_string(),
                comment: match i {
                    0 | 1 => Some("book".into()),
                    2 => Some("+3.00/12 0.051s".into()),
                    _ => None,
                },
                mark: (i == 3).then_some(Mark::Blunder),
            })
            .collect();
        record.result = GameResult::SouthWins;
        record
    }

    #[test]
    fn records_round_trip() {
        let one = sample();
        let mut two = sample();
        two.tags[1].1 = "2".into();
        two.result = GameResult::Draw;
        two.moves.truncate(1);
        let text = format!("{one}{two}");
        assert!(
            text.contains("[South \"engine \\\"one\\\" \\\\ a\"]"),
            "{text}"
        );
        assert!(text.contains("1. c {book} j {book} 2. b4c4n {+3.00/12 0.051s} k7j7w??"));
        let back = read(&text).unwrap();
        assert_eq!(back, vec![one.clone(), two]);
        assert_eq!(back[0].tag("South"), Some("engine \"one\" \\ a"));
        let end = back[0].replay().unwrap();
        assert_eq!(end.score(crate::position::Player::South), 14);
        assert_eq!(end.score(crate::position::Player::North), 20);
    }

    #[test]
    fn from_game_writes_the_result_tag_and_token_together() {
        let record = Record::from_game(Scoresheet {
            event: "pasang play",
            numbering: vec![("Round", "3".into())],
            players: ["Ani".into(), "pasang".into()],
            rules: Rules::default(),
            start: crate::rules::Pattern::One.start_position_string(),
            moves: sample().moves,
            result: GameResult::NorthWins,
            ending: Some(Ending {
                termination: Termination::TimeForfeit,
                detail: None,
                scores: Some([14, 20]),
            }),
            ply_count: true,
            ..Scoresheet::default()
        });
        let names: Vec<&str> = record.tags.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Event",
                "Date",
                "Round",
                "South",
                "North",
                "Pattern",
                "KaEntry",
                "SecondColumn",
                "Centre",
                "FEN",
                "Result",
                "Termination",
                "Scores",
                "PlyCount"
            ]
        );
        assert_eq!(record.tag("Result"), Some("0-1"));
        assert_eq!(record.tag("Scores"), Some("14-20"));
        assert_eq!(record.tag("PlyCount"), Some("6"));
        let text = record.to_string();
        assert!(text.trim_end().ends_with(" 0-1"), "{text}");
        assert_eq!(read(&text).unwrap(), vec![record]);
    }

    #[test]
    fn long_games_wrap_and_north_first_numbers() {
        let mut record = sample();
        record.tags[4].1 = record.tags[4].1.replace(" s ", " n ");
        record.moves = (0..40)
            .map(|_| RecordMove {
                text: "a1a2n".into(),
                comment: Some("+0.00/1 0.001s".into()),
                mark: None,
            })
            .collect();
        let text = record.to_string();
        assert!(text.contains("1... a1a2n"));
        assert!(
            text.lines()
                .filter(|line| !line.starts_with('['))
                .all(|line| line.len() <= LINE_WIDTH)
        );
        assert_eq!(read(&text).unwrap(), vec![record]);
    }

    #[test]
    fn comments_may_span_lines_and_numbers_may_be_glued() {
        let text = "[Event \"x\"]\n\n1.c {a\ncomment} j ; rest ignored\n2. b4c4n 0-1\n";
        let records = read(text).unwrap();
        assert_eq!(records.len(), 1);
        let moves: Vec<&str> = records[0].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["c", "j", "b4c4n"]);
        assert_eq!(records[0].moves[0].comment.as_deref(), Some("a comment"));
        assert_eq!(records[0].result, GameResult::NorthWins);
    }

    #[test]
    fn marks_are_read_as_suffixes_and_nags() {
        let text = "[Event \"x\"]\n\n1. c! {a} {b} j?! 2. b4c4n $4 k7j7w?? $6 c4c7ew $2 {c} $200 j7k7s!? *\n";
        let record = &read(text).unwrap()[0];
        let marks: Vec<Option<Mark>> = record.moves.iter().map(|m| m.mark).collect();
        assert_eq!(
            marks,
            [
                Some(Mark::Good),
                Some(Mark::Inaccuracy),
                Some(Mark::Blunder),
                Some(Mark::Inaccuracy),
                Some(Mark::Mistake),
                Some(Mark::Interesting)
            ]
        );
        assert_eq!(record.moves[0].comment.as_deref(), Some("a b"));
        assert_eq!(record.moves[4].comment.as_deref(), Some("c"));
        record.replay().expect("the marked record replays");
        // Written back as suffixes, read back the same.
        let again = read(&record.to_string()).unwrap();
        assert_eq!(&again[0], record);
        assert!(
            record
                .to_string()
                .contains("2. b4c4n?? k7j7w?! 3. c4c7ew? {c}")
        );
        for mark in Mark::ALL {
            assert_eq!(Mark::from_nag(mark.nag()), Some(mark));
            assert_eq!(Mark::from_suffix(mark.suffix()), Some(mark));
        }
    }

    #[test]
    fn bad_marks_are_errors() {
        for (text, message) in [
            ("1. c $x *", "'$x' is not an annotation glyph ($0 to $255)"),
            (
                "1. c $256 *",
                "'$256' is not an annotation glyph ($0 to $255)",
            ),
            ("$1 c *", "the mark '$1' follows no move"),
            ("1. c??? *", "'c???' is neither a move nor a move number"),
        ] {
            assert_eq!(
                read(text).unwrap_err().to_string(),
                format!("line 1: {message}")
            );
        }
    }

    #[test]
    fn each_record_is_read_on_its_own() {
        let good = sample().to_string();
        let bad = "[Event \"broken\"]\n\n1. c {open\n\n";
        let cut = "[Event \"cut\"]\n\n1. c j\n\n";
        let text = format!("{good}{cut}{good}{bad}{good}");
        let results = read_each(&text);
        assert_eq!(results.len(), 5, "{results:?}");
        assert_eq!(results[4].as_ref().unwrap(), &sample());
        assert_eq!(results[0].as_ref().unwrap(), &sample());
        let cut_line = good.lines().count() + 4;
        assert_eq!(
            results[1].as_ref().unwrap_err(),
            &RecordError {
                line: cut_line,
                fault: RecordSyntax::NoResult
            }
        );
        assert_eq!(results[2].as_ref().unwrap(), &sample());
        let open_line = 2 * good.lines().count() + 4 + 3;
        assert_eq!(
            results[3].as_ref().unwrap_err(),
            &RecordError {
                line: open_line,
                fault: RecordSyntax::UnclosedComment
            }
        );
        assert!(read_each("").is_empty());
    }

    #[test]
    fn malformed_text_is_an_error_with_its_line() {
        for (text, line, message) in [
            (
                "[Event x]\n\n1. c *\n",
                1,
                "a tag value must be in double quotes",
            ),
            (
                "[Event \"x\"]\n\n1. c j\n",
                3,
                "the last record has no result",
            ),
            ("[Event \"x\"]\n\n1. c {open\n", 3, "comment never closed"),
            (
                "[Event \"x\"]\n1. c\n[Round \"2\"]\n",
                3,
                "tags after moves: the record before has no result",
            ),
            ("1x c *", 1, "'1x' is neither a move nor a move number"),
            (
                "[Event \"a\\q\"]\n*",
                1,
                "a backslash in a tag value must escape \\ or \"",
            ),
        ] {
            let error = read(text).unwrap_err();
            assert_eq!(error.line, line, "{text:?}: {error}");
            assert_eq!(error.to_string(), format!("line {line}: {message}"));
        }
        assert_eq!(read("").unwrap(), vec![]);
    }

    #[test]
    fn a_half_written_last_record_is_cut_off() {
        let whole = format!("{}{}", sample(), sample());
        let half = &sample().to_string()[..120];
        let text = format!("{whole}{half}");
        let prefix = read_prefix(&text);
        assert_eq!(prefix.records.len(), 2);
        assert_eq!(&text[..prefix.complete_bytes], &whole[..whole.len() - 1]);
        assert!(prefix.error.is_some());
        let prefix = read_prefix(&whole);
        assert!(prefix.error.is_none());
        assert_eq!(prefix.records.len(), 2);
        assert_eq!(read_prefix("").complete_bytes, 0);
    }

    #[test]
    fn replay_rejects_illegal_moves() {
        let mut record = sample();
        record.moves[1].text = "c".into();
        assert!(
            record
                .replay()
                .unwrap_err()
                .to_string()
                .starts_with("ply 2:")
        );
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert!(utc_date().len() == 10);
    }
}
