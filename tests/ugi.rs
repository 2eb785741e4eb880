//! UGI, as a UGI harness such as cutegames speaks it to the real binary:
//! a client of our own plays whole games between two engine processes
//! with the harness's manners (`ugi`, `uginewgame`, `query p1turn` before
//! each move, `query gameover` after it, `query result` at the end, `go`
//! with `p1time`/`p2time`), refereeing every move with the library's rules;
//! and the UGI transcript of docs/session.md is replayed line by line.

mod common;

use std::time::{Duration, Instant};

use common::{Session, matches_pattern};
use pasang::notation::{parse_move, parse_position};
use pasang::outcome::Status;
use pasang::position::Player;
use pasang::rules::{Pattern, Rules};

/// Generous liveness bound for any one answer.
const WAIT: Duration = Duration::from_secs(20);

/// A UGI engine process: lines in, lines out, every wait bounded.
struct Client {
    session: Session,
}

impl Client {
    fn spawn() -> Client {
        Client {
            session: Session::spawn(),
        }
    }

    fn send(&mut self, line: &str) {
        self.session.send(line);
    }

    /// The next output line.
    fn line(&mut self) -> String {
        self.session.expect_line("answer", |_| true, WAIT)
    }

    /// Lines up to and including the first whose first word is `word`.
    fn until(&mut self, word: &str) -> Vec<String> {
        self.session.until_word(word, WAIT)
    }

    /// `query <what>`: the word after `response`.
    fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let line = self.until("response").pop().expect("a line");
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() != 2 {
            self.session
                .fail(&format!("'{line}' is not 'response <word>'"));
        }
        words[1].to_string()
    }

    /// The handshake: id, options, `ugiok`. Returns the lines before it.
    fn handshake(&mut self) -> Vec<String> {
        self.send("ugi");
        let mut lines = self.until("ugiok");
        lines.pop();
        lines
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until("readyok");
    }

    fn quit(self) {
        self.session.quit(Duration::from_secs(5));
    }
}

/// The result word of `query result` for a finished status.
fn expected_result(status: Status) -> &'static str {
    match status {
        Status::InPlay => "none",
        Status::Over { winner, .. } => match winner {
            Some(Player::South) => "p1win",
            Some(Player::North) => "p2win",
            None => "draw",
        },
    }
}

/// Plays one game from `start` between `players` (player 1 = South first)
/// as cutegames does with `askturn`; returns the result word and the
/// number of plies. Every answer is checked against the rules.
fn play_game(players: &mut [Client; 2], start: &str, go_tail: &str) -> (String, usize) {
    let rules = Rules::default();
    let mut position = parse_position(start).expect("start parses");
    let mut moves: Vec<String> = Vec::new();
    for player in players.iter_mut() {
        player.send("uginewgame");
        player.ready();
    }
    let (mut p1time, mut p2time) = (60_000u64, 60_000u64);
    loop {
        let status = Status::of(&position, &rules);
        let south = position.side_to_move() == Player::South;
        let mover = &mut players[usize::from(!south)];
        let mut command = format!("position fen {start}");
        if !moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&moves.join(" "));
        }
        mover.send(&command);
        assert_eq!(mover.query("p1turn"), south.to_string());
        let over = mover.query("gameover");
        if status != Status::InPlay {
            assert_eq!(over, "true");
            let result = mover.query("result");
            assert_eq!(result, expected_result(status));
            return (result, moves.len());
        }
        assert_eq!(over, "false", "{}", mover.session.transcript());
        assert_eq!(mover.query("result"), "none");
        mover.send(&format!(
            "go p1time {p1time} p2time {p2time} p1inc 10 p2inc 10{go_tail}"
        ));
        let started = Instant::now();
        let lines = mover.until("bestmove");
        let spent = started.elapsed().as_millis() as u64;
        if south {
            p1time = p1time.saturating_sub(spent) + 10;
        } else {
            p2time = p2time.saturating_sub(spent) + 10;
        }
        // cutegames reads a bestmove line only when it has two words.
        let best = lines.last().expect("bestmove");
        let words: Vec<&str> = best.split_whitespace().collect();
        assert_eq!(words.len(), 2, "'{best}'");
        assert!(
            !lines.iter().any(|l| l.contains("unknown parameter")),
            "{lines:?}"
        );
        let mv = parse_move(&position, &rules, words[1])
            .unwrap_or_else(|e| panic!("illegal bestmove '{best}': {e}"));
        position = position.play(mv);
        moves.push(mv.to_string());
        assert!(moves.len() < 400, "the game does not end");
    }
}

#[test]
fn ugi_games_end_with_the_right_result() {
    let mut players = [Client::spawn(), Client::spawn()];
    for player in &mut players {
        let lines = player.handshake();
        assert!(lines.iter().any(|l| l.starts_with("id name pasang")));
        assert!(
            lines
                .iter()
                .any(|l| l == "option name Skill Level type spin default 20 min 0 max 20")
        );
        player.ready();
    }
    // Full strength (player 1 in the first game) against Skill Level 0,
    // then seats swapped; depth-limited so that the test is quick.
    players[1].send("setoption name Skill Level value 0");
    let start = Pattern::One.start_position_string();
    let (first, plies) = play_game(&mut players, &start, " depth 2");
    assert!(plies > 10);
    players.swap(0, 1);
    let (second, _) = play_game(&mut players, &start, " depth 2");
    for result in [&first, &second] {
        assert!(["p1win", "p2win", "draw"].contains(&result.as_str()));
    }
    for player in players {
        player.quit();
    }
}

#[test]
fn ugi_bestmove_has_no_ponder_word_and_uci_keeps_it() {
    let mut client = Client::spawn();
    client.handshake();
    client.send("position startpos moves c j b4c4n k7j7w");
    client.send("go depth 4");
    let best = client.until("bestmove").pop().expect("bestmove");
    assert_eq!(best.split_whitespace().count(), 2, "{best}");
    // The same engine back in UCI mode names its ponder move again.
    client.send("uci");
    client.until("uciok");
    client.send("go depth 4");
    let best = client.until("bestmove").pop().expect("bestmove");
    assert_eq!(best.split_whitespace().nth(2), Some("ponder"), "{best}");
    client.quit();
}

#[test]
fn queries_answer_finished_games() {
    let mut client = Client::spawn();
    client.handshake();
    for (position, p1turn, result) in [
        // No stones left, North to move: South won 10-4.
        (
            ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc",
            "false",
            "p1win",
        ),
        // North ahead 9-7.
        (
            ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN n 7 9 bc",
            "false",
            "p2win",
        ),
        // 7-7.
        (
            ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN s 7 7 bc",
            "true",
            "draw",
        ),
        // South suntuk while stones remain: North wins.
        (
            ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../w........../SN........b s 50 60 ak",
            "true",
            "p2win",
        ),
    ] {
        client.send(&format!("position fen {position}"));
        assert_eq!(client.query("gameover"), "true", "{position}");
        assert_eq!(client.query("p1turn"), p1turn, "{position}");
        assert_eq!(client.query("result"), result, "{position}");
    }
    client.send("query sideways");
    let line = client.line();
    assert!(line.starts_with("info string error: query"), "{line}");
    client.quit();
}

/// Replays the UGI transcript of docs/session.md: `>` lines are sent, `<`
/// lines must come in order (`...` in a line is any text; a `< ...` line
/// alone is any number of lines). Lines before the first expected one
/// (a start-up banner) are skipped.
#[test]
fn the_ugi_session_transcript_holds() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/session.md"))
        .expect("docs/session.md");
    let start = doc.find("<!-- transcript: ugi").expect("the marker");
    let block = &doc[start..];
    let open = block.find("```\n").expect("the code block") + 4;
    let body = &block[open..open + block[open..].find("```").expect("its end")];
    let mut client = Client::spawn();
    let script: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut index = 0;
    let mut checked = 0;
    while index < script.len() {
        let line = script[index];
        if let Some(command) = line.strip_prefix("> ") {
            client.send(command);
        } else if line == "< ..." {
            // Skip to the next expected line.
            let next = script
                .get(index + 1)
                .and_then(|l| l.strip_prefix("< "))
                .expect("'< ...' is followed by an expected line");
            while !matches_pattern(next, "...", &client.line()) {}
            index += 1;
            checked += 1;
        } else if let Some(expected) = line.strip_prefix("< ") {
            let mut actual = client.line();
            if checked == 0 {
                // A greeting printed at start-up comes before the first
                // answer; it is no answer to the transcript's commands.
                while !matches_pattern(expected, "...", &actual) {
                    actual = client.line();
                }
            }
            assert!(
                matches_pattern(expected, "...", &actual),
                "expected '{expected}', got '{actual}'\n{}",
                client.session.transcript()
            );
            checked += 1;
        } else {
            panic!("transcript line '{line}' starts with neither '> ' nor '< '");
        }
        index += 1;
    }
    assert!(checked > 10, "only {checked} lines checked");
    assert!(body.lines().any(|l| l == "> quit"));
}
