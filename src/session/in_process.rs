//! The board's session with the engine in the same thread: what the static
//! page's Web Worker runs, compiled to WebAssembly. Page messages go in and
//! come out as with `pasang gui`'s socket; the engine is a
//! [`LineDriver`] fed the session's commands as typed commands, whose
//! replies come back as typed replies (no protocol text is written or
//! read in between), behind the same [`EngineLink`] as an engine process,
//! so the session cannot tell them apart; the page's end is a
//! [`PageLink`] on two queues.
//!
//! A search pauses every few milliseconds (see `host`). While one call is
//! paused the page may call again: a page message then waits in a queue if
//! the session is busy (a review searching inside it), and the engine's
//! lines so far reach the session, so analysis shows its lines as they
//! come and `stop` is sent at once.

use std::cell::RefCell;
use std::collections::VecDeque;

use super::Session;
use super::transport::{EngineGone, EngineLink, PageGone, PageLink, turn};
use crate::protocol::options::OPTIONS;
use crate::protocol::{Command, ENGINE_NAME, LineDriver, Output, Reply, ReplyQueue};

/// A board session and its engine, in one thread.
pub struct InProcessBoard {
    session: RefCell<Session>,
    /// Page messages that came while the session was busy.
    waiting: RefCell<VecDeque<String>>,
    /// Messages for the page, oldest first.
    to_page: RefCell<Vec<String>>,
    engine: LineDriver,
    replies: ReplyQueue,
}

impl Default for InProcessBoard {
    fn default() -> Self {
        InProcessBoard::new()
    }
}

impl InProcessBoard {
    /// A session on the start position with this program's engine.
    pub fn new() -> InProcessBoard {
        let replies = ReplyQueue::default();
        let engine = LineDriver::new(Output::replies(ReplyQueue::clone(&replies)));
        // The banner is not for the session.
        replies
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clear();
        let options = OPTIONS.iter().map(|(name, ..)| name.to_string()).collect();
        let mut session = Session::new(ENGINE_NAME, options);
        // The browser's own board (the static site): its records say so.
        session.set_event("pasang web");
        let board = InProcessBoard {
            session: RefCell::new(session),
            waiting: RefCell::new(VecDeque::new()),
            to_page: RefCell::new(Vec::new()),
            engine,
            replies,
        };
        board.pump();
        board
    }

    /// Handles one message from the page (JSON text, as over the socket).
    pub fn on_page(&self, text: &str) {
        self.waiting.borrow_mut().push_back(text.to_string());
        self.pump();
    }

    /// Looks at the clock and the review; sends what the engine said.
    pub fn tick(&self) {
        self.pump();
    }

    /// Messages for the page, oldest first.
    pub fn take_page(&self) -> Vec<String> {
        std::mem::take(&mut self.to_page.borrow_mut())
    }

    /// Turns the session ([`turn`]) until nothing is left to do, running
    /// the engine between turns (it may pause for the page). Does nothing
    /// but queue while the session is busy.
    fn pump(&self) {
        loop {
            let sent = {
                let Ok(mut session) = self.session.try_borrow_mut() else {
                    return;
                };
                let mut page = WorkerPage {
                    waiting: &self.waiting,
                    to_page: &self.to_page,
                };
                let mut engine = LocalEngine {
                    driver: &self.engine,
                    replies: &self.replies,
                };
                // Neither end of this session can go.
                let sent = turn(&mut session, &mut page, Some(&mut engine), usize::MAX)
                    .map_or(0, |done| done.sent);
                let idle = !session.has_engine_commands() && self.waiting.borrow().is_empty();
                (sent > 0 || !idle).then_some(sent)
            };
            match sent {
                // The session is free while the engine runs: a call made
                // during a pause reaches it. A second call returns at once.
                Some(sent) if sent > 0 => {
                    self.engine.run();
                }
                Some(_) => {}
                None => {
                    // A review in a browser runs here, with the session
                    // free, so that its progress reaches the page while it
                    // searches.
                    #[cfg(target_arch = "wasm32")]
                    if super::review::run_deferred_job() {
                        continue;
                    }
                    return;
                }
            }
        }
    }
}

/// The Worker's page as the session's [`PageLink`]: the messages the page
/// has called with, and those kept for it to take.
struct WorkerPage<'a> {
    waiting: &'a RefCell<VecDeque<String>>,
    to_page: &'a RefCell<Vec<String>>,
}

impl PageLink for WorkerPage<'_> {
    fn receive(&mut self) -> Result<Option<String>, PageGone> {
        Ok(self.waiting.borrow_mut().pop_front())
    }

    fn send(&mut self, messages: Vec<String>) -> Result<(), PageGone> {
        self.to_page.borrow_mut().extend(messages);
        Ok(())
    }
}

/// This program's engine, in the same thread, as the session's
/// [`EngineLink`]: typed commands in, typed replies out.
struct LocalEngine<'a> {
    driver: &'a LineDriver,
    replies: &'a ReplyQueue,
}

impl EngineLink for LocalEngine<'_> {
    fn send(&mut self, command: &Command) -> Result<(), EngineGone> {
        self.driver.command(command.clone());
        Ok(())
    }

    fn receive(&mut self, max: usize) -> Result<Vec<Reply>, EngineGone> {
        let mut replies = self
            .replies
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let count = replies.len().min(max);
        Ok(replies.drain(..count).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn messages(board: &InProcessBoard) -> Vec<Value> {
        board
            .take_page()
            .iter()
            .map(|text| serde_json::from_str(text).unwrap())
            .collect()
    }

    #[test]
    fn a_move_is_answered_by_the_engine() {
        let board = InProcessBoard::new();
        let hello = messages(&board);
        assert_eq!(hello[0]["type"], "hello");
        board.on_page(r#"{"type":"settings","movetime":50}"#);
        board.on_page(r#"{"type":"move","move":"e"}"#);
        let mut plies = 0;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while plies < 2 {
            assert!(
                std::time::Instant::now() < deadline,
                "the engine did not answer the move within 30 s ({plies} plies)"
            );
            board.tick();
            for message in messages(&board) {
                if message["type"] == "state" {
                    plies = message["moves"].as_array().map_or(0, Vec::len);
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(plies, 2, "the engine answered the move");
    }
}
