//! What carries a [`Session`]'s messages: its two ends as traits, and
//! [`turn`], which moves what waits between them.
//!
//! - A [`PageLink`] brings the page's messages and takes the session's:
//!   `pasang gui`'s WebSocket (`crate::gui`'s connection), `pasang serve`'s, the static site's
//!   Web Worker ([`super::in_process`]) or a test.
//! - An [`EngineLink`] is the one way the board reaches the engine it
//!   plays and analyses with: it takes the session's commands and gives
//!   back the engine's replies, typed, whether the engine is a process
//!   (`pasang gui`), this program's engine in the same thread (the
//!   static site) or a test's script. The session cannot tell which.
//!
//! (Review mode's judgements are `pasang annotate`'s, by contract:
//! [`super::review`] searches with this program's engine on its own,
//! whatever engine the page plays against.)

use super::Session;
use crate::host::Instant;
use crate::protocol::{Command, Reply};

/// Page messages taken in one turn at most, so that a page that never
/// stops sending cannot starve the engine.
const MAX_PAGE_MESSAGES_PER_TURN: usize = 64;

/// Why the engine can be reached no more: the transport's own error (an
/// engine process's [`crate::client::ClientError`], say), kept as its
/// source; the page is told its words.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct EngineGone(pub Box<dyn std::error::Error + Send + Sync>);

/// The page has gone (its connection closed or failed).
#[derive(Clone, Copy, Debug, Eq, PartialEq, thiserror::Error)]
#[error("the page has gone")]
pub struct PageGone;

/// The page's end of a session.
pub trait PageLink {
    /// The page's next message, if one has come (a transport may wait a
    /// little for it).
    fn receive(&mut self) -> Result<Option<String>, PageGone>;

    /// Hands the session's messages (JSON text, oldest first) to the page.
    fn send(&mut self, messages: Vec<String>) -> Result<(), PageGone>;
}

/// An engine the session's commands go to and whose lines come back.
pub trait EngineLink {
    /// Sends one command.
    fn send(&mut self, command: &Command) -> Result<(), EngineGone>;

    /// The replies the engine has given since the last call, oldest
    /// first, without waiting for more; at most `max` of them, so that a
    /// flood cannot starve the page.
    fn receive(&mut self, max: usize) -> Result<Vec<Reply>, EngineGone>;
}

/// What one [`turn`] did.
#[derive(Debug, Default)]
pub struct Turn {
    /// Commands sent to the engine (an in-process engine has work).
    pub sent: usize,
    /// The engine, if it went: the session has been told and asks it
    /// nothing more; the transport may say why and let it go.
    pub engine_gone: Option<EngineGone>,
}

/// One turn of a session: the page's messages in, commands out and the
/// engine's lines in (at most `max_lines`; with an engine), the clock and
/// the review looked at, and the session's messages out to the page.
pub fn turn(
    session: &mut Session,
    page: &mut impl PageLink,
    engine: Option<&mut impl EngineLink>,
    max_lines: usize,
) -> Result<Turn, PageGone> {
    for _ in 0..MAX_PAGE_MESSAGES_PER_TURN {
        let Some(text) = page.receive()? else { break };
        session.on_page(&text);
    }
    let mut done = Turn::default();
    if let Some(engine) = engine {
        match exchange(session, engine, max_lines) {
            Ok(sent) => done.sent = sent,
            Err(gone) => done.engine_gone = Some(gone),
        }
    }
    session.tick(Instant::now());
    session.flush();
    let messages = session.take_page();
    if !messages.is_empty() {
        page.send(messages)?;
    }
    Ok(done)
}

/// Sends the session's commands to `engine` and hands the session what
/// the engine wrote (at most `max` lines): how many commands went. An
/// engine that is gone is told to the session.
fn exchange(
    session: &mut Session,
    engine: &mut impl EngineLink,
    max: usize,
) -> Result<usize, EngineGone> {
    let commands = session.take_engine();
    let result = commands
        .iter()
        .try_for_each(|command| engine.send(command))
        .and_then(|()| engine.receive(max));
    match result {
        Ok(replies) => {
            for reply in &replies {
                session.on_engine(reply);
            }
            Ok(commands.len())
        }
        Err(gone) => {
            session.on_engine_gone(&gone.to_string());
            Err(gone)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::{Protocol, line};
    use std::collections::VecDeque;

    /// A page that sends its script, a message a turn, and keeps what it
    /// is sent.
    #[derive(Default)]
    struct ScriptedPage {
        script: VecDeque<&'static str>,
        heard: Vec<String>,
    }

    impl PageLink for ScriptedPage {
        fn receive(&mut self) -> Result<Option<String>, PageGone> {
            Ok(self.script.pop_front().map(str::to_string))
        }

        fn send(&mut self, messages: Vec<String>) -> Result<(), PageGone> {
            self.heard.extend(messages);
            Ok(())
        }
    }

    /// An engine that answers each `go` with a scripted move, and is gone
    /// after its script.
    #[derive(Default)]
    struct ScriptedEngine {
        moves: VecDeque<&'static str>,
        out: Vec<String>,
        heard: Vec<String>,
    }

    impl EngineLink for ScriptedEngine {
        fn send(&mut self, command: &Command) -> Result<(), EngineGone> {
            self.heard.push(line(command, Protocol::Uci));
            if matches!(command, Command::Go(_)) {
                let mv = self
                    .moves
                    .pop_front()
                    .ok_or_else(|| EngineGone("out of moves".into()))?;
                self.out.push(format!("info depth 1 score cp 7 pv {mv}"));
                self.out.push(format!("bestmove {mv}"));
            }
            Ok(())
        }

        fn receive(&mut self, max: usize) -> Result<Vec<Reply>, EngineGone> {
            let count = self.out.len().min(max);
            Ok(self
                .out
                .drain(..count)
                .map(|line| Reply::parse(&line).expect("a scripted reply parses"))
                .collect())
        }
    }

    #[test]
    fn a_session_is_driven_through_any_page_and_engine_link() {
        let mut session = Session::new("scripted", vec!["MultiPV".to_string()]);
        let mut page = ScriptedPage {
            script: VecDeque::from([r#"{"type":"mode","mode":"play","side":"north"}"#]),
            ..ScriptedPage::default()
        };
        let mut engine = ScriptedEngine {
            moves: VecDeque::from(["c"]),
            ..ScriptedEngine::default()
        };
        let first = turn(&mut session, &mut page, Some(&mut engine), 100).unwrap();
        assert!(first.sent > 0 && first.engine_gone.is_none());
        assert_eq!(
            engine.heard.last().map(String::as_str),
            Some("go movetime 1000")
        );
        let heard = page.heard.join("\n");
        assert!(
            heard.starts_with(r#"{"type":"hello","engine":"scripted","rules":[{"field":"pattern""#)
        );
        assert!(heard.contains(r#""type":"info""#), "{heard}");
        assert!(
            heard.contains(r#""moves":["c"]"#),
            "the move is played: {heard}"
        );
        // A new game: the engine has no move left, and is gone.
        page.script.push_back(r#"{"type":"new"}"#);
        let second = turn(&mut session, &mut page, Some(&mut engine), 100).unwrap();
        let gone = second.engine_gone.map(|gone| gone.to_string());
        assert_eq!(gone.as_deref(), Some("out of moves"));
        assert!(
            page.heard
                .iter()
                .any(|m| m.contains("engine: out of moves"))
        );
        assert!(!session.has_engine_commands(), "nothing more is asked");
    }

    #[test]
    fn the_engines_lines_come_in_at_most_max_a_turn() {
        let mut session = Session::new("scripted", Vec::new());
        let mut page = ScriptedPage::default();
        let mut engine = ScriptedEngine {
            out: vec!["info string x".to_string(); 5],
            ..ScriptedEngine::default()
        };
        turn(&mut session, &mut page, Some(&mut engine), 2).unwrap();
        assert_eq!(engine.out.len(), 3);
        let no_engine: Option<&mut ScriptedEngine> = None;
        turn(&mut session, &mut page, no_engine, 2).unwrap();
        assert_eq!(engine.out.len(), 3, "no engine, no lines");
    }
}
