//! A room as a plain value: its rules, clock, seats and game, changed
//! only by [`Event`]s. The server checks a request against the room
//! ([`Room::check_move`] and the like), writes the event it gives to the
//! journal and only then [`Room::apply`]s it; a restart applies the
//! journal's events in order and gets the same room back. Times are
//! milliseconds since the Unix epoch, passed in, so the room is tested
//! without waiting.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::outcome::{Status, player_title};
use crate::page::game::Game;
use crate::page::wire::{BoardState, ClockState, Over, OverReason};
use crate::position::Player;
use crate::record::{Ending, GameResult, Record, Scoresheet, Termination};
use crate::rules::{OptionSpelling, Rules, RulesError, rules_from};

/// A room's clock: minutes each and seconds added per move.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ClockControl {
    /// Minutes per side, 1 to 180.
    pub minutes: u64,
    /// Seconds added after each move, 0 to 180.
    pub increment: u64,
}

impl ClockControl {
    /// Whether the control is within the limits a room takes.
    pub fn is_valid(&self) -> bool {
        (1..=180).contains(&self.minutes) && self.increment <= 180
    }

    fn base_ms(&self) -> u64 {
        self.minutes * 60_000
    }
}

/// A side as the protocol writes it (`south`, `north`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// South, who moves first.
    South,
    /// North.
    North,
}

impl From<Side> for Player {
    fn from(side: Side) -> Player {
        match side {
            Side::South => Player::South,
            Side::North => Player::North,
        }
    }
}

impl Side {
    /// The side as the protocol and the logs write it.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }
}

impl From<Player> for Side {
    fn from(player: Player) -> Side {
        match player {
            Player::South => Side::South,
            Player::North => Side::North,
        }
    }
}

/// Why a game of a room ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    /// By the rules: no stone left.
    Points,
    /// By the rules: the side to move cannot move.
    Suntuk,
    /// A flag fell on the server.
    Time,
    /// The loser resigned.
    Resignation,
    /// The loser was away longer than the grace.
    Abandonment,
}

/// The room's name in logs and on `/rooms`: eight hex digits of a hash
/// of its code. The code is the key to the room (whoever has it may take
/// a free seat), so it is never logged; the short id tells rooms apart
/// and is the same across restarts.
pub fn short_id(code: &str) -> String {
    // FNV-1a, 64 bits, folded to 32: stable, and nothing to invert from
    // 32 bits of a 128-bit random code.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in code.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{:08x}", (hash ^ (hash >> 32)) as u32)
}

/// The records' `Termination` of a game that ended for `reason`.
pub fn termination(reason: EndReason) -> Termination {
    match reason {
        EndReason::Points => Termination::Score,
        EndReason::Suntuk => Termination::Suntuk,
        EndReason::Time => Termination::TimeForfeit,
        EndReason::Resignation => Termination::Resignation,
        EndReason::Abandonment => Termination::Disconnect,
    }
}

/// A finished game: who won and why.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub struct Finish {
    /// The winner, none for a draw.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
}

/// A change to a room, as the journal writes it: the only way a room
/// changes.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Event {
    /// The room is made: its rules (page field to value), clock, and the
    /// creator's seat and token.
    Open {
        /// Each rule option's value by its page field.
        rules: BTreeMap<String, String>,
        /// The clock, if any.
        clock: Option<ClockControl>,
        /// The creator's seat.
        seat: Side,
        /// The creator's seat token.
        token: String,
    },
    /// The second person takes the free seat.
    Seat {
        /// The seat taken.
        seat: Side,
        /// Its token.
        token: String,
    },
    /// A move, with both clocks after it (increment added).
    Move {
        /// The ply it makes, from 1: a move is never applied twice.
        ply: usize,
        /// The move in full notation.
        #[serde(rename = "move")]
        notation: String,
        /// South's and North's time left after it, ms (0 without a clock).
        left: [u64; 2],
    },
    /// The game ended other than by a move (time, resignation,
    /// abandonment); a move that ends it by the rules needs no event.
    End(Finish),
    /// A seat offers a rematch once the game is over (journaled, so an
    /// offer outlives a restart).
    Offer {
        /// The seat that offers.
        seat: Side,
    },
    /// A player names itself (the record carries the name).
    Name {
        /// The seat named.
        seat: Side,
        /// The name; empty takes it back.
        name: String,
    },
    /// A new game with the seats swapped.
    Rematch,
    /// The room is closed and forgotten.
    Close,
}

/// The longest name a player may give, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// The names a seat may store in a room's life: each is a journal line
/// kept while the room is open, so a seat that renames itself without
/// end cannot grow the journal without end.
pub const MAX_NAME_CHANGES: u32 = 10;

/// The least time between two names a seat stores, ms.
pub const NAME_SPACING_MS: u64 = 1000;

/// Whether a name may hold `c`: no control characters, and none of the
/// characters that let a name pose as another or break a line: the
/// bidirectional controls (U+202A-202E, U+2066-2069), zero-width spaces
/// (U+200B, U+FEFF) and the line and paragraph separators (U+2028-2029).
/// The zero-width joiners U+200C and U+200D stay: Jawi names may need
/// them.
pub fn allowed_in_name(c: char) -> bool {
    !(c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{200B}' | '\u{FEFF}' | '\u{2028}' | '\u{2029}'))
}

/// Why a request is refused; the room stays as it was.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum RoomError {
    /// A spectator tried to move, resign or offer a rematch.
    #[error("spectators watch; only the two players move")]
    Spectator,
    /// The move came from the side not to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The game has not ended (a rematch asked for too early).
    #[error("the game is still being played")]
    InPlay,
    /// The opponent has not come yet.
    #[error("the second player has not come yet")]
    NoOpponent,
    /// A move that is not legal here, and why as the rules core names it.
    #[error("{message}")]
    IllegalMove {
        /// The refusal in the rules core's words.
        message: String,
        /// Why, typed.
        why: crate::illegal::Illegal,
    },
    /// A move for another ply than the next (sent twice, or stale).
    #[error("that move was for ply {given}; the game is at ply {now}")]
    StalePly {
        /// The ply the move named.
        given: usize,
        /// The ply the game is at.
        now: usize,
    },
    /// A rule option that does not parse.
    #[error(transparent)]
    Rules(RulesError),
    /// A ply to view that the finished game does not have.
    #[error("the game has no ply {0}")]
    NoSuchPly(usize),
    /// A clock outside 1-180 minutes and 0-180 seconds.
    #[error("a clock has 1 to 180 minutes and 0 to 180 seconds a move")]
    Clock,
    /// A player's name too long or with a control character.
    #[error(
        "a name has at most {MAX_NAME_CHARS} characters, and no control, direction or \
         invisible characters"
    )]
    Name,
    /// A seat that has renamed itself as often as a room allows, or too
    /// soon after its last name.
    #[error("a seat may change its name {MAX_NAME_CHANGES} times in a room, once a second at most")]
    NameLimit,
    /// An event that does not fit the room (only a broken journal).
    #[error("the journal's event does not fit the room: {0}")]
    Journal(String),
}

impl RoomError {
    /// The error's kind as the protocol names it.
    pub fn kind(&self) -> &'static str {
        match self {
            RoomError::Spectator => "spectator",
            RoomError::NotYourTurn => "not_your_turn",
            RoomError::GameOver => "game_over",
            RoomError::InPlay => "in_play",
            RoomError::NoOpponent => "no_opponent",
            RoomError::IllegalMove { .. } => "illegal_move",
            RoomError::StalePly { .. } => "stale_ply",
            RoomError::Rules(_) => "rules",
            RoomError::NoSuchPly(_) => "no_such_ply",
            RoomError::Clock => "clock",
            RoomError::Name => "name",
            RoomError::NameLimit => "name_limit",
            RoomError::Journal(_) => "journal",
        }
    }
}

/// A room: rules, clock, seats, the game in play and how it ended.
#[derive(Clone, Debug)]
pub struct Room {
    /// The room's code.
    pub code: String,
    rules: Rules,
    clock: Option<ClockControl>,
    /// Each seat's token, by side (South first).
    tokens: [Option<String>; 2],
    /// The game, from 1; a rematch adds one.
    number: u32,
    game: Game,
    /// Each side's time left when its clock last stopped, ms.
    left: [u64; 2],
    /// When the side to move's clock started (or the room was restored).
    turn_since: u64,
    finish: Option<Finish>,
    /// Rematch offers by side.
    rematch: [bool; 2],
    /// The players' names by side, where given.
    names: [Option<String>; 2],
    /// Names stored by each seat in the room's life, and when the last
    /// one was (a rematch swaps them with the seats).
    names_stored: [u32; 2],
    last_name_at: [u64; 2],
}

/// The rules of a page's `rules` map (page field to value; missing ones
/// keep their defaults).
pub fn rules_of(map: &BTreeMap<String, String>) -> Result<Rules, RoomError> {
    rules_from(map, OptionSpelling::Field).map_err(RoomError::Rules)
}

/// Whether two secrets are equal, looking at every byte whatever the
/// first difference (the time depends on the lengths only).
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

impl Room {
    /// The room an [`Event::Open`] makes, at `at`.
    pub fn open(code: &str, event: &Event, at: u64) -> Result<Room, RoomError> {
        let Event::Open {
            rules,
            clock,
            seat,
            token,
        } = event
        else {
            return Err(RoomError::Journal("a room starts with open".into()));
        };
        if clock.is_some_and(|clock| !clock.is_valid()) {
            return Err(RoomError::Clock);
        }
        let rules = rules_of(rules)?;
        let mut tokens = [None, None];
        tokens[Player::from(*seat).index()] = Some(token.clone());
        let base = clock.map_or(0, |clock| clock.base_ms());
        Ok(Room {
            code: code.to_string(),
            rules,
            clock: *clock,
            tokens,
            number: 1,
            game: Game::at_start(rules),
            left: [base; 2],
            turn_since: at,
            finish: None,
            rematch: [false; 2],
            names: [None, None],
            names_stored: [0; 2],
            last_name_at: [0; 2],
        })
    }

    /// The seat whose token is `token`. Both seats' tokens are compared
    /// in full, in time that depends on the lengths only: how long a
    /// refusal takes tells nothing of a token's first characters.
    pub fn seat_of(&self, token: &str) -> Option<Player> {
        let mut found = None;
        for side in [Player::South, Player::North] {
            if let Some(held) = &self.tokens[side.index()]
                && same_secret(held.as_bytes(), token.as_bytes())
            {
                found = Some(side);
            }
        }
        found
    }

    /// The seat still free, if any.
    pub fn free_seat(&self) -> Option<Player> {
        [Player::South, Player::North]
            .into_iter()
            .find(|side| self.tokens[side.index()].is_none())
    }

    /// Whether `side`'s seat is taken.
    pub fn taken(&self, side: Player) -> bool {
        self.tokens[side.index()].is_some()
    }

    /// Whether both seats are taken.
    pub fn is_full(&self) -> bool {
        self.free_seat().is_none()
    }

    /// The game's number in the room, from 1.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The moves played so far.
    pub fn plies(&self) -> usize {
        self.game.moves_to_end().len()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Player {
        self.game.end().side_to_move()
    }

    /// How the game ended, if it did.
    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    /// The players' names, South's and North's, where given.
    pub fn names(&self) -> [Option<String>; 2] {
        self.names.clone()
    }

    /// The event of `seat` taking `name` (trimmed; empty takes it back),
    /// none where the seat has that name already (nothing to store), or
    /// why not.
    pub fn check_name(
        &self,
        seat: Option<Player>,
        name: &str,
        now: u64,
    ) -> Result<Option<Event>, RoomError> {
        let seat = seat.ok_or(RoomError::Spectator)?;
        let name = name.trim();
        if name.chars().count() > MAX_NAME_CHARS || !name.chars().all(allowed_in_name) {
            return Err(RoomError::Name);
        }
        if self.names[seat.index()].as_deref().unwrap_or("") == name {
            return Ok(None);
        }
        let stored = self.names_stored[seat.index()];
        if stored >= MAX_NAME_CHANGES
            || (stored > 0 && now < self.last_name_at[seat.index()] + NAME_SPACING_MS)
        {
            return Err(RoomError::NameLimit);
        }
        Ok(Some(Event::Name {
            seat: seat.into(),
            name: name.to_string(),
        }))
    }

    /// A seat's token (the `room` message tells it to that seat only).
    pub fn token(&self, seat: Player) -> Option<String> {
        self.tokens[seat.index()].clone()
    }

    /// Whether the room has a clock.
    pub fn has_clock(&self) -> bool {
        self.clock.is_some()
    }

    /// Who has offered a rematch.
    pub fn rematch_offers(&self) -> [bool; 2] {
        self.rematch
    }

    /// Whether the side to move's clock runs: a clock, both seats taken,
    /// the game in play.
    pub fn clock_runs(&self) -> bool {
        self.clock.is_some() && self.is_full() && self.finish.is_none()
    }

    /// Each side's time left at `now`, ms.
    pub fn left_at(&self, now: u64) -> [u64; 2] {
        let mut left = self.left;
        if self.clock_runs() {
            let mover = self.side_to_move().index();
            left[mover] = left[mover].saturating_sub(now.saturating_sub(self.turn_since));
        }
        left
    }

    /// The event of `seat` playing `notation` (for ply `ply`, if given) at
    /// `now`, or why not. A flag already down is the caller's to find
    /// first ([`Room::flag`]).
    pub fn check_move(
        &self,
        seat: Option<Player>,
        notation: &str,
        ply: Option<usize>,
        now: u64,
    ) -> Result<Event, RoomError> {
        let seat = seat.ok_or(RoomError::Spectator)?;
        if self.finish.is_some() {
            return Err(RoomError::GameOver);
        }
        if !self.is_full() {
            return Err(RoomError::NoOpponent);
        }
        let next = self.plies() + 1;
        if let Some(given) = ply
            && given != next
        {
            return Err(RoomError::StalePly {
                given,
                now: next - 1,
            });
        }
        if seat != self.side_to_move() {
            return Err(RoomError::NotYourTurn);
        }
        let mut game = self.game.clone();
        let mv = game
            .play(notation)
            .map_err(|error| RoomError::IllegalMove {
                message: error.to_string(),
                why: self.game.why_illegal(notation),
            })?;
        let mut left = self.left_at(now);
        if let Some(clock) = self.clock {
            left[seat.index()] += clock.increment * 1000;
        }
        Ok(Event::Move {
            ply: next,
            notation: mv.to_string(),
            left,
        })
    }

    /// The event of `seat` resigning.
    pub fn check_resign(&self, seat: Option<Player>) -> Result<Event, RoomError> {
        let seat = seat.ok_or(RoomError::Spectator)?;
        if self.finish.is_some() {
            return Err(RoomError::GameOver);
        }
        if !self.is_full() {
            return Err(RoomError::NoOpponent);
        }
        Ok(Event::End(Finish {
            winner: Some(seat.opponent().into()),
            reason: EndReason::Resignation,
        }))
    }

    /// The event of `seat` offering a rematch: [`Event::Rematch`] when the
    /// other seat has offered already, else its [`Event::Offer`] (none if
    /// it has offered already).
    pub fn check_rematch(&self, seat: Option<Player>) -> Result<Option<Event>, RoomError> {
        let seat = seat.ok_or(RoomError::Spectator)?;
        if self.finish.is_none() {
            return Err(RoomError::InPlay);
        }
        Ok(if self.rematch[seat.opponent().index()] {
            Some(Event::Rematch)
        } else if self.rematch[seat.index()] {
            None
        } else {
            Some(Event::Offer { seat: seat.into() })
        })
    }

    /// The event of the side to move's flag falling, if it fell by `now`.
    pub fn flag(&self, now: u64) -> Option<Event> {
        if !self.clock_runs() {
            return None;
        }
        let mover = self.side_to_move();
        (self.left_at(now)[mover.index()] == 0).then_some(Event::End(Finish {
            winner: Some(mover.opponent().into()),
            reason: EndReason::Time,
        }))
    }

    /// The event of `seat` losing by abandonment, if the game is in play.
    pub fn abandon(&self, seat: Player) -> Option<Event> {
        (self.finish.is_none() && self.is_full()).then_some(Event::End(Finish {
            winner: Some(seat.opponent().into()),
            reason: EndReason::Abandonment,
        }))
    }

    /// Applies an event at `at`; an event that does not fit (only a
    /// broken journal has one) is refused and the room left as it was.
    pub fn apply(&mut self, event: &Event, at: u64) -> Result<(), RoomError> {
        match event {
            Event::Open { .. } => return Err(RoomError::Journal("the room is open".into())),
            Event::Seat { seat, token } => {
                let side = Player::from(*seat);
                if self.tokens[side.index()].is_some() {
                    return Err(RoomError::Journal("that seat is taken".into()));
                }
                self.tokens[side.index()] = Some(token.clone());
                self.turn_since = at;
            }
            Event::Move {
                ply,
                notation,
                left,
            } => {
                if *ply != self.plies() + 1 || self.finish.is_some() {
                    return Err(RoomError::Journal(format!("move {ply} out of order")));
                }
                self.game
                    .play(notation)
                    .map_err(|error| RoomError::Journal(error.to_string()))?;
                self.left = *left;
                self.turn_since = at;
                if let Status::Over { winner, reason, .. } = self.game.end_status() {
                    self.finish = Some(Finish {
                        winner: winner.map(Side::from),
                        reason: match reason {
                            crate::outcome::Reason::Score => EndReason::Points,
                            crate::outcome::Reason::Suntuk => EndReason::Suntuk,
                        },
                    });
                }
            }
            Event::End(finish) => {
                if self.finish.is_some() {
                    return Err(RoomError::GameOver);
                }
                self.left = self.left_at(at);
                self.finish = Some(*finish);
            }
            Event::Offer { seat } => {
                if self.finish.is_none() {
                    return Err(RoomError::InPlay);
                }
                self.rematch[Player::from(*seat).index()] = true;
            }
            Event::Rematch => {
                if self.finish.is_none() {
                    return Err(RoomError::InPlay);
                }
                self.tokens.swap(0, 1);
                self.names.swap(0, 1);
                self.names_stored.swap(0, 1);
                self.last_name_at.swap(0, 1);
                self.number += 1;
                self.game = Game::at_start(self.rules);
                self.left = [self.clock.map_or(0, |clock| clock.base_ms()); 2];
                self.turn_since = at;
                self.finish = None;
                self.rematch = [false; 2];
            }
            Event::Name { seat, name } => {
                let side = Player::from(*seat);
                if self.tokens[side.index()].is_none() {
                    return Err(RoomError::Journal("a name for a free seat".into()));
                }
                self.names[side.index()] = (!name.is_empty()).then(|| name.clone());
                self.names_stored[side.index()] += 1;
                self.last_name_at[side.index()] = at;
            }
            Event::Close => {}
        }
        Ok(())
    }

    /// Starts the side to move's clock afresh at `at` with the time it had
    /// at its last event: the restart rule (time the server was down, and
    /// the thinking before it went down, are charged to no one).
    pub fn resume(&mut self, at: u64) {
        self.turn_since = at;
    }

    /// The game as the page draws it, for `seat` (legal moves only for
    /// the seat to move), with the clocks at `now`.
    pub fn board(&self, seat: Option<Player>, now: u64) -> (BoardState, Option<ClockState>) {
        self.board_of(&self.game, seat, now)
    }

    /// The finished game shown at `ply`, for a member who steps through
    /// it: the result and the clocks stay the game's end's.
    pub fn board_at(
        &self,
        seat: Option<Player>,
        now: u64,
        ply: usize,
    ) -> Result<(BoardState, Option<ClockState>), RoomError> {
        if self.finish.is_none() {
            return Err(RoomError::InPlay);
        }
        let mut game = self.game.clone();
        game.goto(ply).map_err(|_| RoomError::NoSuchPly(ply))?;
        Ok(self.board_of(&game, seat, now))
    }

    fn board_of(
        &self,
        game: &Game,
        seat: Option<Player>,
        now: u64,
    ) -> (BoardState, Option<ClockState>) {
        let mut board = game.state();
        let to_move = self.side_to_move();
        if self.finish.is_some() || seat != Some(to_move) || !self.is_full() {
            board.legal.clear();
        }
        if let Some(finish) = self.finish {
            let winner = finish.winner.map(Player::from);
            let reason = match finish.reason {
                EndReason::Points => OverReason::Points,
                EndReason::Suntuk => OverReason::Suntuk,
                EndReason::Time => OverReason::Time,
                EndReason::Resignation => OverReason::Resignation,
                EndReason::Abandonment => OverReason::Abandonment,
            };
            if board.over.is_none() || !matches!(reason, OverReason::Points | OverReason::Suntuk) {
                board.status = self.describe(finish);
            }
            board.over = Some(Over { winner, reason });
        }
        let clock = self.clock.map(|control| {
            let left = self.left_at(now);
            ClockState {
                south: left[0],
                north: left[1],
                running: self.clock_runs().then(|| self.side_to_move()),
                minutes: control.minutes,
                increment: control.increment,
            }
        });
        (board, clock)
    }

    /// The end in words, as the record's detail and the status say it.
    fn describe(&self, finish: Finish) -> String {
        let end = self.game.end();
        let points = format!(
            "(South {} - North {})",
            end.score(Player::South),
            end.score(Player::North)
        );
        match (finish.winner.map(Player::from), finish.reason) {
            (Some(winner), EndReason::Time) => format!(
                "{} wins on time: {}'s clock ran out {points}",
                player_title(winner),
                player_title(winner.opponent())
            ),
            (Some(winner), EndReason::Resignation) => format!(
                "{} wins: {} resigned {points}",
                player_title(winner),
                player_title(winner.opponent())
            ),
            (Some(winner), EndReason::Abandonment) => format!(
                "{} wins: {} left the game {points}",
                player_title(winner),
                player_title(winner.opponent())
            ),
            (Some(winner), _) => format!("{} wins {points}", player_title(winner)),
            (None, _) => format!("Draw {points}"),
        }
    }

    /// The finished game's record, in the project's record format.
    pub fn record(&self) -> Option<Record> {
        let finish = self.finish?;
        let end = self.game.end();
        let scores = [end.score(Player::South), end.score(Player::North)];
        let termination = termination(finish.reason);
        let time_control = self.clock.map_or("-".to_string(), |clock| {
            format!("{}+{}", clock.minutes * 60, clock.increment)
        });
        let [south, north] = [Player::South, Player::North].map(|side| {
            self.names[side.index()]
                .clone()
                .unwrap_or_else(|| player_title(side).to_string())
        });
        let game = self.game.record("pasang serve", &south, &north);
        let replayed = crate::record::Game::from_record(&game).ok()?;
        Some(Record::from_game(Scoresheet {
            numbering: vec![("Round", self.number.to_string())],
            players: [south, north],
            start: self.game.start_string(),
            setup_tags: vec![("Room", self.code.clone()), ("TimeControl", time_control)],
            result: GameResult::decided(finish.winner.map(Player::from)),
            ending: Some(Ending {
                termination,
                detail: Some(self.describe(finish)),
                scores: Some(scores),
            }),
            ply_count: true,
            ..Scoresheet::of_game("pasang serve", &replayed, &[])
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(clock: Option<ClockControl>) -> Room {
        let event = Event::Open {
            rules: BTreeMap::new(),
            clock,
            seat: Side::South,
            token: "s".into(),
        };
        let mut room = Room::open("code", &event, 0).unwrap();
        room.apply(
            &Event::Seat {
                seat: Side::North,
                token: "n".into(),
            },
            0,
        )
        .unwrap();
        room
    }

    fn first_legal(room: &Room) -> String {
        let (board, _) = room.board(Some(room.side_to_move()), 0);
        board.legal[0].notation.clone()
    }

    #[test]
    fn only_the_seat_to_move_moves_and_the_room_stays_on_refusal() {
        let room = open(None);
        let mv = first_legal(&room);
        assert_eq!(
            room.check_move(None, &mv, None, 0),
            Err(RoomError::Spectator)
        );
        assert_eq!(
            room.check_move(Some(Player::North), &mv, None, 0),
            Err(RoomError::NotYourTurn)
        );
        assert!(matches!(
            room.check_move(Some(Player::South), "zz", None, 0),
            Err(RoomError::IllegalMove { .. })
        ));
        assert_eq!(
            room.check_move(Some(Player::South), &mv, Some(3), 0),
            Err(RoomError::StalePly { given: 3, now: 0 })
        );
        let event = room
            .check_move(Some(Player::South), &mv, Some(1), 0)
            .unwrap();
        let mut room = room;
        room.apply(&event, 0).unwrap();
        assert_eq!(room.plies(), 1);
        // The same event again is out of order: never applied twice.
        assert!(room.apply(&event, 0).is_err());
        assert_eq!(room.plies(), 1);
    }

    #[test]
    fn clocks_run_and_flags_fall_on_the_server() {
        let control = ClockControl {
            minutes: 1,
            increment: 2,
        };
        let mut room = open(Some(control));
        assert_eq!(room.left_at(10_000), [50_000, 60_000]);
        let mv = first_legal(&room);
        let event = room
            .check_move(Some(Player::South), &mv, None, 10_000)
            .unwrap();
        assert!(matches!(
            event,
            Event::Move {
                left: [52_000, 60_000],
                ..
            }
        ));
        room.apply(&event, 10_000).unwrap();
        assert_eq!(room.flag(69_999), None);
        let flag = room.flag(70_000).unwrap();
        room.apply(&flag, 70_000).unwrap();
        assert_eq!(
            room.finish(),
            Some(Finish {
                winner: Some(Side::South),
                reason: EndReason::Time
            })
        );
        let record = room.record().unwrap();
        assert_eq!(record.tag("Termination"), Some("time forfeit"));
        assert_eq!(record.tag("Result"), Some("1-0"));
        assert!(record.replay().is_ok());
    }

    #[test]
    fn a_rematch_swaps_the_seats() {
        let mut room = open(None);
        assert_eq!(
            room.check_rematch(Some(Player::South)),
            Err(RoomError::InPlay)
        );
        let resign = room.check_resign(Some(Player::North)).unwrap();
        room.apply(&resign, 5).unwrap();
        assert_eq!(
            room.check_resign(Some(Player::South)),
            Err(RoomError::GameOver)
        );
        assert_eq!(
            room.record().unwrap().tag("Termination"),
            Some("resignation")
        );
        let offer = room.check_rematch(Some(Player::South)).unwrap().unwrap();
        assert_eq!(offer, Event::Offer { seat: Side::South });
        // The offer is an event of the journal: a room rebuilt from its
        // events (a restart) still holds it.
        let text = serde_json::to_string(&offer).unwrap();
        assert_eq!(text, r#"{"kind":"offer","seat":"south"}"#);
        room.apply(&serde_json::from_str(&text).unwrap(), 6)
            .unwrap();
        assert_eq!(room.rematch_offers(), [true, false]);
        assert_eq!(room.check_rematch(Some(Player::South)), Ok(None));
        let rematch = room.check_rematch(Some(Player::North)).unwrap().unwrap();
        room.apply(&rematch, 6).unwrap();
        assert_eq!(room.seat_of("s"), Some(Player::North));
        assert_eq!(room.seat_of("n"), Some(Player::South));
        assert_eq!(room.seat_of("x"), None);
        assert_eq!(room.seat_of(""), None);
        assert_eq!((room.number(), room.plies(), room.finish()), (2, 0, None));
    }

    #[test]
    fn a_finished_game_is_shown_at_any_ply_with_its_result() {
        let mut room = open(None);
        for ply in 1..=2 {
            let mv = first_legal(&room);
            let event = room
                .check_move(Some(room.side_to_move()), &mv, Some(ply), 0)
                .unwrap();
            room.apply(&event, 0).unwrap();
        }
        assert_eq!(room.board_at(None, 0, 1).err(), Some(RoomError::InPlay));
        let resign = room.check_resign(Some(Player::South)).unwrap();
        room.apply(&resign, 0).unwrap();
        let (end, _) = room.board(Some(Player::North), 0);
        let (start, _) = room.board_at(Some(Player::North), 0, 0).unwrap();
        let (middle, _) = room.board_at(None, 0, 1).unwrap();
        assert_eq!((start.cursor, middle.cursor, end.cursor), (0, 1, 2));
        assert_eq!(start.moves, end.moves);
        assert_ne!(start.board, middle.board);
        assert!(start.legal.is_empty() && middle.legal.is_empty());
        assert_eq!(start.over, end.over);
        assert_eq!(start.status, end.status);
        assert_eq!(
            room.board_at(None, 0, 3).err(),
            Some(RoomError::NoSuchPly(3))
        );
    }

    #[test]
    fn players_name_themselves_for_the_room_and_the_record() {
        let mut room = open(None);
        assert_eq!(room.check_name(None, "Ali", 0), Err(RoomError::Spectator));
        assert_eq!(
            room.check_name(Some(Player::South), &"x".repeat(41), 0),
            Err(RoomError::Name)
        );
        assert_eq!(
            room.check_name(Some(Player::South), "Ali\nBaba", 0),
            Err(RoomError::Name)
        );
        let south = room
            .check_name(Some(Player::South), "  Ali \"Baba\"  ", 1)
            .unwrap()
            .unwrap();
        let text = serde_json::to_string(&south).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"name","seat":"south","name":"Ali \"Baba\""}"#
        );
        room.apply(&serde_json::from_str(&text).unwrap(), 1)
            .unwrap();
        let north = room.check_name(Some(Player::North), "Siti", 1).unwrap();
        room.apply(&north.unwrap(), 1).unwrap();
        // The same name again is nothing to store.
        assert_eq!(room.check_name(Some(Player::North), " Siti ", 1), Ok(None));
        assert_eq!(
            room.names(),
            [Some("Ali \"Baba\"".to_string()), Some("Siti".to_string())]
        );
        let resign = room.check_resign(Some(Player::North)).unwrap();
        room.apply(&resign, 2).unwrap();
        let record = room.record().unwrap();
        assert_eq!(record.tag("South"), Some("Ali \"Baba\""));
        assert_eq!(record.tag("North"), Some("Siti"));
        // The record's text escapes the quotes and reads back.
        let reread = crate::record::read(&record.to_string()).unwrap();
        assert_eq!(reread[0].tag("South"), Some("Ali \"Baba\""));
        // Brackets and a backslash in a name cannot forge a tag either.
        let mut forged = room.clone();
        let name = r#"Siti"] [Result "0-1"] \"#;
        let event = forged
            .check_name(Some(Player::North), name, 5000)
            .unwrap()
            .unwrap();
        forged.apply(&event, 5000).unwrap();
        let text = forged.record().unwrap().to_string();
        let reread = crate::record::read(&text).unwrap();
        assert_eq!(reread[0].tag("North"), Some(name));
        assert_eq!(reread[0].tag("Result"), Some("1-0"));
        let result_tags = text.lines().filter(|line| line.starts_with("[Result "));
        assert_eq!(result_tags.count(), 1, "{text}");
        // The names go with their players when the seats swap; an empty
        // name takes one back.
        let offer = room.check_rematch(Some(Player::South)).unwrap().unwrap();
        room.apply(&offer, 3).unwrap();
        let rematch = room.check_rematch(Some(Player::North)).unwrap().unwrap();
        room.apply(&rematch, 3).unwrap();
        assert_eq!(
            room.names(),
            [Some("Siti".to_string()), Some("Ali \"Baba\"".to_string())]
        );
        let cleared = room
            .check_name(Some(Player::South), " ", 9000)
            .unwrap()
            .unwrap();
        room.apply(&cleared, 9000).unwrap();
        assert_eq!(room.names(), [None, Some("Ali \"Baba\"".to_string())]);
    }

    #[test]
    fn names_that_pose_as_others_are_refused_and_renaming_is_bounded() {
        let mut room = open(None);
        for spoof in [
            "Ali\u{202E}ilA",
            "A\u{200B}li",
            "\u{FEFF}Ali",
            "Ali\u{2028}Siti",
            "Ali\u{2066}x",
        ] {
            assert_eq!(
                room.check_name(Some(Player::South), spoof, 0),
                Err(RoomError::Name),
                "{spoof:?}"
            );
        }
        // Jawi's joiners stay.
        let jawi = "\u{0645}\u{200C}\u{0646}\u{200D}";
        assert!(
            room.check_name(Some(Player::South), jawi, 0)
                .unwrap()
                .is_some()
        );
        // 200 names sent a second apart store at most MAX_NAME_CHANGES;
        // names sent faster than one a second are refused.
        let mut stored = 0;
        for i in 0..200u64 {
            let at = i * 100;
            if let Ok(Some(event)) = room.check_name(Some(Player::South), &format!("n{i}"), at) {
                room.apply(&event, at).unwrap();
                stored += 1;
            }
        }
        assert_eq!(stored, MAX_NAME_CHANGES);
        assert_eq!(
            room.check_name(Some(Player::South), "again", 1_000_000),
            Err(RoomError::NameLimit)
        );
    }

    #[test]
    fn events_round_trip_as_json() {
        let event = Event::Move {
            ply: 3,
            notation: "b4c4n".into(),
            left: [1, 2],
        };
        let text = serde_json::to_string(&event).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"move","ply":3,"move":"b4c4n","left":[1,2]}"#
        );
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), event);
        let rules = BTreeMap::from([("pattern".to_string(), "9".to_string())]);
        assert!(matches!(rules_of(&rules), Err(RoomError::Rules(_))));
    }
}
