//! The `state` message: the game as [`crate::page::game::Game::state`] draws it, with
//! the session's mode, settings, clock and what the engine is doing.

use super::Session;
use crate::host::Instant;
use crate::outcome::player_title;
use crate::page::wire::{ClockState, Over, OverReason};
use crate::position::Player;
use crate::record::Termination;
use crate::session::message::{PageMessage, SearchPurpose, StateMessage};
use crate::session::mode::Mode;

impl Session {
    /// Sends the game state with the session's mode and settings.
    pub(super) fn send_state(&mut self) {
        let message = self.state();
        self.send_page(PageMessage::State(Box::new(message)));
    }

    fn state(&self) -> StateMessage {
        let mut board = self.game.state();
        let person = match self.mode {
            Mode::Play { person } => Some(person),
            _ => None,
        };
        // In play, the engine's stones are not the person's to move.
        if person.is_some_and(|person| self.game.shown().side_to_move() != person) {
            board.legal.clear();
        }
        // A game lost other than by a move: on time, or by resigning.
        if let Some((loser, how)) = self.lost() {
            let end = self.game.end();
            let winner = loser.opponent();
            let (reason, words) = match how {
                Termination::TimeForfeit => (
                    OverReason::Time,
                    format!(
                        "{} wins on time: {}'s clock ran out",
                        player_title(winner),
                        player_title(loser)
                    ),
                ),
                _ => (
                    OverReason::Resignation,
                    format!(
                        "{} wins: {} resigned",
                        player_title(winner),
                        player_title(loser)
                    ),
                ),
            };
            board.over = Some(Over {
                winner: Some(winner),
                reason,
            });
            board.legal.clear();
            board.status = format!(
                "{words} (South {} - North {})",
                end.score(Player::South),
                end.score(Player::North)
            );
        }
        StateMessage {
            board,
            mode: self.mode.name(),
            person,
            running: self.running,
            skill: self.skill,
            movetime: self.movetime,
            multipv: self.multipv,
            engine_ok: self.engine.usable,
            clock: self.clock.map(|clock| {
                let now = Instant::now();
                let (base, increment) = clock.control();
                ClockState {
                    south: clock.left(Player::South, now).as_millis() as u64,
                    north: clock.left(Player::North, now).as_millis() as u64,
                    running: clock.running(),
                    minutes: base.as_secs() / 60,
                    increment: increment.as_secs(),
                }
            }),
            thinking: self
                .engine
                .search
                .is_some_and(|search| !search.stopping && search.purpose == SearchPurpose::Move),
        }
    }
}
