//! The rules as a typed API for the page, as ffish.js gives them: boards
//! held here by handle, each with its rules and the positions played.

use std::cell::RefCell;
use std::fmt::Write as _;

use pasang::movegen::legal_moves;
use pasang::notation::{MoveError, PositionError, format_position, parse_position, start_position};
use pasang::position::Player;
use pasang::record::Game;
use pasang::rules::{OptionSpelling, RULE_OPTIONS, RulesError, rules_from};

/// Why a board call failed; the board is unchanged after one.
#[derive(Debug, thiserror::Error)]
enum BoardError {
    #[error("{0}")]
    Position(#[from] PositionError),
    #[error("{0}")]
    Move(#[from] MoveError),
    #[error("rule option line '{0}' is not Name=value")]
    OptionSyntax(String),
    #[error("{0}")]
    Rules(#[from] RulesError),
    #[error("no move to undo")]
    NothingToUndo,
    #[error("unknown board call '{0}'")]
    UnknownCall(String),
    #[error("no board {0}")]
    NoBoard(u32),
}

/// A game in progress: the core's game (rules, start, moves and the
/// positions after them), so that the board plays, undoes and scores as
/// the engine, the referee and the records do.
struct Board {
    game: Game,
}

impl Board {
    /// A board from `spec`: a first line with a position string (empty
    /// for the start of the rules' pattern), then `Name=value` lines of
    /// rule options by their protocol names (`Ka Entry=jump`).
    fn new(spec: &str) -> Result<Board, BoardError> {
        let mut lines = spec.lines();
        let position_text = lines.next().unwrap_or("").trim().to_string();
        let mut options = Vec::new();
        for line in lines.filter(|line| !line.trim().is_empty()) {
            let (name, value) = line
                .split_once('=')
                .ok_or_else(|| BoardError::OptionSyntax(line.to_string()))?;
            options.push((name.trim(), value.trim()));
        }
        let rules = rules_from(options, OptionSpelling::Name)?;
        let start = if position_text.is_empty() || position_text == "startpos" {
            start_position(rules.pattern)
        } else {
            parse_position(&position_text)?
        };
        Ok(Board {
            game: Game::new(rules, start),
        })
    }

    /// Carries out one call, answering with text.
    fn call(&mut self, call: &str) -> Result<String, BoardError> {
        let (verb, argument) = call.split_once(' ').unwrap_or((call, ""));
        let position = self.game.current();
        Ok(match verb {
            "moves" => legal_moves(&position, &self.game.rules())
                .as_slice()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            "push" => self.game.play(argument.trim())?.to_string(),
            "pop" => self
                .game
                .pop()
                .ok_or(BoardError::NothingToUndo)?
                .to_string(),
            "fen" => format_position(&position),
            "turn" => position.side_to_move().name().to_string(),
            "phase" => position.phase().number().to_string(),
            "scores" => format!(
                "{} {}",
                position.score(Player::South),
                position.score(Player::North)
            ),
            // The record's token (`1-0`, `0-1`, `1/2-1/2`, `*`), as
            // ffish.js and the Python board give it; `status` says how.
            "result" => self.game.result().as_str().to_string(),
            "status" => self.game.status().to_string(),
            "history" => self
                .game
                .moves()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            "rules" => {
                let rules = self.game.rules();
                let mut text = String::new();
                for option in &RULE_OPTIONS {
                    let _ = writeln!(text, "{}={}", option.name, option.value(&rules));
                }
                text
            }
            _ => return Err(BoardError::UnknownCall(verb.to_string())),
        })
    }
}

thread_local! {
    /// Boards by handle; a freed handle's slot is `None` until a new
    /// board takes it.
    static BOARDS: RefCell<Vec<Option<Board>>> = const { RefCell::new(Vec::new()) };
    /// The freed handles, reused first: a page that makes and frees
    /// boards by the hundred thousand keeps the memory of the most it held
    /// at once, not of every board it ever made.
    static FREE: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// A new board from the spec of `len` bytes at `ptr` (see `Board::new`):
/// its handle, or -1 with the error as the text answer.
///
/// # Safety
/// `ptr` must be a buffer of at least `len` bytes from `pasang_alloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn board_new(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: passed on from the caller.
    let spec = unsafe { crate::read_text(ptr, len) };
    match Board::new(&spec) {
        Ok(board) => BOARDS.with(|boards| {
            let mut boards = boards.borrow_mut();
            match FREE.with(|free| free.borrow_mut().pop()) {
                Some(handle) => {
                    boards[handle as usize] = Some(board);
                    handle as i32
                }
                None => {
                    boards.push(Some(board));
                    (boards.len() - 1) as i32
                }
            }
        }),
        Err(error) => {
            crate::set_text(error.to_string());
            -1
        }
    }
}

/// Frees board `handle` (a handle freed already, or never given, is
/// left alone).
#[unsafe(no_mangle)]
pub extern "C" fn board_free(handle: u32) {
    BOARDS.with(|boards| {
        if let Some(slot) = boards.borrow_mut().get_mut(handle as usize)
            && slot.take().is_some()
        {
            FREE.with(|free| free.borrow_mut().push(handle));
        }
    });
}

/// Carries out the call of `len` bytes at `ptr` on board `handle`
/// (`moves`, `push <move>`, `pop`, `fen`, `turn`, `phase`, `scores`,
/// `result`, `status`, `history`, `rules`): 0 with the answer as the text, or -1
/// with the error as the text and the board unchanged.
///
/// # Safety
/// `ptr` must be a buffer of at least `len` bytes from `pasang_alloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn board_call(handle: u32, ptr: *const u8, len: usize) -> i32 {
    // SAFETY: passed on from the caller.
    let call = unsafe { crate::read_text(ptr, len) };
    let answer = BOARDS.with(
        |boards| match boards.borrow_mut().get_mut(handle as usize) {
            Some(Some(board)) => board.call(&call),
            _ => Err(BoardError::NoBoard(handle)),
        },
    );
    match answer {
        Ok(text) => {
            crate::set_text(text);
            0
        }
        Err(error) => {
            crate::set_text(error.to_string());
            -1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A freed handle is taken by the next board; freeing twice frees once.
    #[test]
    fn freed_handles_are_reused() {
        let spec = "";
        let make = || unsafe { board_new(spec.as_ptr(), spec.len()) };
        let first = make();
        let second = make();
        assert_ne!(first, second);
        board_free(first as u32);
        board_free(first as u32);
        assert_eq!(make(), first);
        assert_ne!(make(), first);
    }

    #[test]
    fn play_undo_and_errors_leave_the_board_as_it_was() {
        let mut board = Board::new("").unwrap();
        let moves = board.call("moves").unwrap();
        assert!(!moves.is_empty());
        let first = moves.split(' ').next().unwrap().to_string();
        let start = board.call("fen").unwrap();
        assert!(
            matches!(
                board.call("push zz"),
                Err(BoardError::Move(MoveError::Malformed { .. }))
            ),
            "a malformed move is refused as malformed"
        );
        assert_eq!(board.call("fen").unwrap(), start);
        board.call(&format!("push {first}")).unwrap();
        assert_eq!(board.call("turn").unwrap(), "north");
        assert_eq!(board.call("pop").unwrap(), first);
        assert_eq!(board.call("fen").unwrap(), start);
        assert!(matches!(board.call("pop"), Err(BoardError::NothingToUndo)));
        assert_eq!(board.call("result").unwrap(), "*");
        assert_eq!(board.call("status").unwrap(), "none");
        assert!(matches!(
            Board::new("\nKa Entry=sideways"),
            Err(BoardError::Rules(_))
        ));
        assert!(matches!(
            Board::new("not a position"),
            Err(BoardError::Position(_))
        ));
        Board::new("\nPattern=2").expect("pattern 2 is a rule set");
    }
}
