//! The referee: plays one game between two engines, checking every move
//! with the project's own rules, running the clocks, and naming the
//! verdict. It never asks an engine who won.
//!
//! Manners, after fastchess: the handshake (`uci` → `uciok`, or `ugi` →
//! `ugiok` for a UGI engine) within 10 s of a (re)start; before each game
//! the rule options, `ucinewgame` (`uginewgame`) and an `isready` ping; before each move `position` and a ping; the clock runs
//! from writing `go` until `bestmove` arrives. When the time is up the
//! referee sends `stop`, waits a grace period for the `bestmove` (to keep
//! the engine in step), and the mover loses on time. An engine that
//! crashed, stalled or ignored `stop` is restarted before its next game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::client::{
    ClientError, EngineProcess, EngineScore, EngineSpec, Identity, InfoLine, MatchLimits, refusals,
    rule_settings,
};
use crate::outcome::{Reason, Status};
use crate::position::{Player, Position};
use crate::protocol::{Command, GoParams, PositionBase, ReplyKind};
use crate::record::{Ending, Game, GameResult, Termination};
use crate::rules::Rules;
use crate::schedule::openings::Opening;

/// A game the referee saw to its end: its verdict and its moves.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The winner; `None` for a draw.
    pub winner: Option<Player>,
    /// How it ended.
    pub termination: Termination,
    /// One human sentence, e.g. `North (b) loses on time (62 ms of 50 ms)`.
    pub detail: String,
    /// Points captured by South and North when it ended.
    pub scores: [u32; 2],
    /// The game from the opening's start, opening plies first.
    pub game: Game,
    /// Each ply's comment (`book`, or the engine's score and time).
    pub comments: Vec<Option<String>>,
}

impl PlayedGame {
    /// Its result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> GameResult {
        GameResult::decided(self.winner)
    }

    /// How it ended, as its record's tags say.
    pub fn ending(&self) -> Ending {
        Ending {
            termination: self.termination,
            detail: Some(self.detail.clone()),
            scores: Some(self.scores),
        }
    }
}

/// Timeouts and margins of the referee.
#[derive(Clone, Debug)]
pub struct RefereeSettings {
    /// How far past its time an engine may answer before losing on time.
    pub time_margin: Duration,
    /// The wait for a `bestmove` when no clock or movetime bounds it.
    pub move_ceiling: Duration,
    /// The wait for `readyok`.
    pub ping_timeout: Duration,
    /// The wait for `uciok` after a start.
    pub handshake_timeout: Duration,
    /// The wait for `bestmove` after `stop`.
    pub stop_grace: Duration,
}

impl Default for RefereeSettings {
    fn default() -> RefereeSettings {
        RefereeSettings {
            time_margin: Duration::ZERO,
            move_ceiling: Duration::from_secs(300),
            ping_timeout: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(10),
            stop_grace: Duration::from_secs(1),
        }
    }
}

/// An engine's place in a worker: its spec, its limits and, while it
/// runs, its process (`None` after a fault, so the next game restarts it).
pub struct Seat {
    /// What to start.
    pub spec: EngineSpec,
    /// How long it may think.
    pub limits: MatchLimits,
    process: Option<EngineProcess>,
}

/// A fault charged to an engine: the verdict and what happened, worded
/// to follow the engine's name.
type Fault = (Termination, String);

impl Seat {
    /// A seat whose engine starts on first use.
    pub fn new(spec: EngineSpec, limits: MatchLimits) -> Seat {
        Seat {
            spec,
            limits,
            process: None,
        }
    }

    /// Starts the engine if it is not running: spawn, handshake, then the
    /// options of its spec. Returns the handshake's identity when it
    /// started one.
    pub fn ensure_started(
        &mut self,
        settings: &RefereeSettings,
    ) -> Result<Option<Identity>, ClientError> {
        if let Some(process) = self.process.as_mut() {
            if process.is_running() {
                return Ok(None);
            }
            self.process = None;
        }
        let mut process = EngineProcess::spawn(&self.spec)?;
        let identity = process.handshake(settings.handshake_timeout)?;
        process.set_options(&self.spec.options)?;
        self.process = Some(process);
        Ok(Some(identity))
    }

    /// Gives the engine new options: kept in its spec for later restarts
    /// and, with the process started if need be, sent now and followed by
    /// a ping. Returns the engine's refusals (`info string error` lines)
    /// of them.
    pub fn configure(
        &mut self,
        options: Vec<(String, String)>,
        settings: &RefereeSettings,
    ) -> Result<Vec<String>, ClientError> {
        // A fresh start has sent the spec's options already.
        self.ensure_started(settings)?;
        let process = self.process.as_mut().ok_or(ClientError::Disconnected)?;
        if options != self.spec.options {
            process.set_options(&options)?;
        }
        self.spec.options = options;
        let replies = process.ping(settings.ping_timeout)?;
        Ok(refusals(&replies).map(str::to_string).collect())
    }

    /// Asks the engine to quit and waits briefly for it.
    pub fn shut_down(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit(Duration::from_millis(500));
        }
    }

    /// Sends the rules and `ucinewgame` (`uginewgame`), then pings.
    fn prepare(&mut self, rules: &Rules, settings: &RefereeSettings) -> Result<(), Fault> {
        let result = self.ensure_started(settings).and_then(|_| {
            let process = self.process.as_mut().ok_or(ClientError::Disconnected)?;
            for command in rule_settings(rules) {
                process.send(&command)?;
            }
            process.send(&Command::UciNewGame)?;
            process.ping(settings.ping_timeout).map(|_| ())
        });
        result.map_err(|error| {
            self.drop_process(&error);
            fault_of(&error)
        })
    }

    /// Forgets the process after `error` (the next game restarts it),
    /// logging what it last wrote to stderr.
    fn drop_process(&mut self, error: &ClientError) {
        if let Some(process) = self.process.take() {
            let stderr = process.stderr_tail();
            if !stderr.is_empty() {
                log::warn!(
                    "{} ({error}) last wrote to stderr: {}",
                    self.spec.name,
                    stderr.join(" | ")
                );
            }
        }
    }
}

/// The verdict for a communication failure.
fn fault_of(error: &ClientError) -> Fault {
    match error {
        ClientError::Start(why) => (
            Termination::Disconnect,
            format!("disconnects (cannot be started: {why})"),
        ),
        ClientError::Disconnected => (Termination::Disconnect, "disconnects".to_string()),
        ClientError::Timeout(what) => (
            Termination::Stall,
            format!("connection stalls (no {what} in time)"),
        ),
    }
}

/// An engine's answer to `go`.
struct Answer {
    /// The word after `bestmove` (`None` if the line had none).
    best: Option<String>,
    /// From writing `go` to receiving `bestmove`.
    elapsed: Duration,
    /// The last `info` line with a score, for the move's comment.
    info: Option<InfoLine>,
}

/// One game in progress.
struct Playing<'a> {
    seats: [&'a mut Seat; 2],
    settings: &'a RefereeSettings,
    opening: &'a Opening,
    /// The game from the opening's start; every move checked by it.
    game: Game,
    /// Each ply's comment.
    comments: Vec<Option<String>>,
}

/// Plays the game of `opening` with `seats` as [South, North]. Returns
/// `None` if `stop` was raised before it ended (the game is discarded).
pub fn play(
    seats: [&mut Seat; 2],
    opening: &Opening,
    settings: &RefereeSettings,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let mut game = Playing {
        seats,
        settings,
        opening,
        game: opening.game.clone(),
        comments: vec![Some("book".into()); opening.game.len()],
    };
    let rules = opening.rules;
    for side in [Player::South, Player::North] {
        if let Err(fault) = game.seats[side.index()].prepare(&rules, settings) {
            let scores = scores_of(&game.game.current());
            return Some(game.forfeit(side, fault, scores));
        }
    }
    let (mut clocks, increments) = starting_clocks(&game.seats);
    loop {
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let position = game.game.current();
        if let Status::Over {
            winner,
            reason,
            scores,
        } = game.game.status()
        {
            return Some(game.finish(winner, reason, scores, position.side_to_move()));
        }
        let side = position.side_to_move();
        let limits = game.seats[side.index()].limits;
        let go = limits.go(clocks, increments);
        let allowed = limits.allowed(
            clocks[side.index()],
            settings.time_margin,
            settings.move_ceiling,
        );
        let answer = match game.think(side, go, allowed) {
            Ok(answer) => answer,
            Err(fault) => return Some(game.forfeit(side, fault, scores_of(&position))),
        };
        if let Err(fault) = game.take(&answer, allowed) {
            return Some(game.forfeit(side, fault, scores_of(&position)));
        }
        if let Some(clock) = limits.clock {
            let spent = answer.elapsed.as_millis() as u64;
            let left = clocks[side.index()].saturating_sub(spent);
            clocks[side.index()] = left + clock.increment_ms;
        }
    }
}

/// The clocks (milliseconds left) and increments `go` starts with, South
/// first. A player without a clock is shown the other's, so that `go`
/// always carries two sensible clocks.
fn starting_clocks(seats: &[&mut Seat; 2]) -> ([u64; 2], [u64; 2]) {
    let clock_of = |seat: &Seat| {
        seat.limits
            .clock
            .map(|clock| (clock.base_ms, clock.increment_ms))
    };
    let own = [clock_of(seats[0]), clock_of(seats[1])];
    let fallback = own[0].or(own[1]).unwrap_or((0, 0));
    let own = own.map(|clock| clock.unwrap_or(fallback));
    (
        own.map(|(base, _)| base),
        own.map(|(_, increment)| increment),
    )
}

/// Points captured so far, South first.
fn scores_of(position: &Position) -> [u32; 2] {
    [position.score(Player::South), position.score(Player::North)]
}

impl Playing<'_> {
    /// Plays the move of `answer` if it came within `allowed` and is
    /// legal, with its comment; else the fault it loses by.
    fn take(&mut self, answer: &Answer, allowed: Duration) -> Result<(), Fault> {
        if answer.elapsed > allowed {
            return Err((
                Termination::TimeForfeit,
                format!(
                    "loses on time (bestmove after {} ms, {} ms allowed)",
                    answer.elapsed.as_millis(),
                    allowed.as_millis()
                ),
            ));
        }
        let text = answer.best.as_deref().unwrap_or_default();
        match self.game.play(text) {
            Ok(_) => {
                let comment = comment(answer.info.as_ref(), answer.elapsed);
                self.comments.push(Some(comment));
                Ok(())
            }
            Err(error) => {
                let shown = if text.is_empty() { "(nothing)" } else { text };
                Err((
                    Termination::IllegalMove,
                    format!("makes an illegal move: {shown} ({error})"),
                ))
            }
        }
    }

    /// Sends the position and a ping, then `go`, and waits for `bestmove`
    /// until `allowed` has passed; then `stop` and the grace period.
    fn think(&mut self, side: Player, go: GoParams, allowed: Duration) -> Result<Answer, Fault> {
        let settings = self.settings;
        let position = Command::Position {
            base: PositionBase::Fen(self.opening.start.clone()),
            moves: self.game.moves().iter().map(ToString::to_string).collect(),
        };
        let seat = &mut *self.seats[side.index()];
        let name = seat.spec.name.clone();
        let Some(process) = seat.process.as_mut() else {
            return Err(fault_of(&ClientError::Disconnected));
        };
        let sent = process
            .send(&position)
            .and_then(|()| process.ping(settings.ping_timeout).map(|_| ()))
            .and_then(|()| process.send(&Command::Go(go)));
        if let Err(error) = sent {
            seat.drop_process(&error);
            return Err(fault_of(&error));
        }
        let start = Instant::now();
        match process.wait_for(ReplyKind::BestMove, start + allowed) {
            Ok(answer) => Ok(Answer {
                best: answer.best_move().and_then(|best| best.best.clone()),
                elapsed: answer.at.saturating_duration_since(start),
                // The last scored line is the search's final word.
                info: answer.final_info().cloned(),
            }),
            Err(ClientError::Timeout(_)) => {
                // Time is up. Stop the search and wait for its bestmove so
                // that the engine stays in step for the next game; if none
                // comes, restart it.
                let grace_end = Instant::now() + settings.stop_grace;
                let late = match process.send(&Command::Stop) {
                    Ok(()) => process.wait_for(ReplyKind::BestMove, grace_end).ok(),
                    Err(_) => None,
                };
                let allowed_ms = allowed.as_millis();
                let text = match late {
                    Some(late) => format!(
                        "loses on time (bestmove after {} ms, {allowed_ms} ms allowed)",
                        late.at.saturating_duration_since(start).as_millis()
                    ),
                    None => {
                        log::warn!("{name} did not answer stop; restarting it");
                        seat.drop_process(&ClientError::Timeout(ReplyKind::BestMove.word()));
                        format!(
                            "loses on time (no bestmove within {allowed_ms} ms, nor after stop)"
                        )
                    }
                };
                Err((Termination::TimeForfeit, text))
            }
            Err(error) => {
                seat.drop_process(&error);
                Err(fault_of(&error))
            }
        }
    }

    /// The result of a forfeit by `loser`.
    fn forfeit(self, loser: Player, fault: Fault, scores: [u32; 2]) -> PlayedGame {
        let (termination, text) = fault;
        let name = &self.seats[loser.index()].spec.name;
        PlayedGame {
            winner: Some(loser.opponent()),
            termination,
            detail: format!("{} ({name}) {text}", capitalised(loser)),
            scores,
            game: self.game,
            comments: self.comments,
        }
    }

    /// The result of a game ended by the rules.
    fn finish(
        self,
        winner: Option<Player>,
        reason: Reason,
        scores: [u32; 2],
        to_move: Player,
    ) -> PlayedGame {
        let (termination, detail) = match reason {
            Reason::Score => {
                let detail = match winner {
                    Some(player) => format!(
                        "{} ({}) wins on points {}-{}",
                        capitalised(player),
                        self.seats[player.index()].spec.name,
                        scores[0],
                        scores[1]
                    ),
                    None => format!("draw on points {}-{}", scores[0], scores[1]),
                };
                (Termination::Score, detail)
            }
            Reason::Suntuk => (
                Termination::Suntuk,
                format!(
                    "{} ({}) has no legal move (suntuk)",
                    capitalised(to_move),
                    self.seats[to_move.index()].spec.name
                ),
            ),
        };
        PlayedGame {
            winner,
            termination,
            detail,
            scores,
            game: self.game,
            comments: self.comments,
        }
    }
}

fn capitalised(player: Player) -> &'static str {
    match player {
        Player::South => "South",
        Player::North => "North",
    }
}

/// A move's comment: `<score>/<depth> <seconds>s` from the last info line
/// with a score (in points from the mover's view, `M<n>` for a mate), or
/// only the time without one.
fn comment(info: Option<&InfoLine>, elapsed: Duration) -> String {
    let time = format!("{:.3}s", elapsed.as_secs_f64());
    let score = match info.and_then(|info| info.score) {
        Some(EngineScore::Centipoints(cp)) => format!("{:+.2}", cp as f64 / 100.0),
        Some(EngineScore::Mate(n)) if n < 0 => format!("-M{}", -n),
        Some(EngineScore::Mate(n)) => format!("+M{n}"),
        None => return time,
    };
    match info.and_then(|info| info.depth) {
        Some(depth) => format!("{score}/{depth} {time}"),
        None => format!("{score} {time}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminations_print_and_parse() {
        for t in Termination::ALL {
            assert_eq!(t.to_string().parse::<Termination>(), Ok(t));
        }
        assert_eq!(Termination::Disconnect.verdict(), "disconnects");
    }

    #[test]
    fn comments_summarise_the_last_info_line() {
        let ms = Duration::from_millis(52);
        let comment = |line: Option<&str>, ms| comment(line.and_then(InfoLine::parse).as_ref(), ms);
        assert_eq!(
            comment(
                Some("info depth 11 seldepth 11 multipv 1 score cp 736 nodes 5 pv b2c2e"),
                ms
            ),
            "+7.36/11 0.052s"
        );
        assert_eq!(
            comment(Some("info depth 3 score mate -2 pv a1a2n"), ms),
            "-M2/3 0.052s"
        );
        assert_eq!(
            comment(Some("info score cp -5 lowerbound"), ms),
            "-0.05 0.052s"
        );
        assert_eq!(comment(None, ms), "0.052s");
    }
}
