//! UGI's own commands: the answers to `query` (player 1 is South, who
//! moves first). The handshake (`ugi` ... `ugiok`), `uginewgame` and the
//! `p1time`/`p2time` clock words are the UCI ones under other names, and
//! in UGI mode `bestmove` carries no `ponder` word; see PROTOCOL.md, "UGI
//! mode".

use super::command::Query;
use crate::engine::Engine;
use crate::outcome::Status;
use crate::position::Player;

/// The word after `response` for `query` in the engine's position.
pub(crate) fn answer(engine: &Engine, query: Query) -> &'static str {
    let status = engine.status();
    let yes_no = |yes: bool| if yes { "true" } else { "false" };
    match query {
        Query::GameOver => yes_no(status != Status::InPlay),
        Query::P1Turn => yes_no(engine.position().side_to_move() == Player::South),
        Query::Result => match status {
            Status::InPlay => "none",
            Status::Over { winner, .. } => match winner {
                Some(Player::South) => "p1win",
                Some(Player::North) => "p2win",
                None => "draw",
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(fen: Option<&str>, moves: &[&str]) -> [&'static str; 3] {
        let mut engine = Engine::new();
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        let base = match fen {
            None => crate::protocol::PositionBase::StartPos,
            Some(text) => crate::protocol::PositionBase::Fen(text.to_string()),
        };
        crate::protocol::set_position(&mut engine, &base, &moves).expect("a legal position");
        [Query::GameOver, Query::P1Turn, Query::Result].map(|q| answer(&engine, q))
    }

    #[test]
    fn answers_follow_the_rules() {
        assert_eq!(answers(None, &[]), ["false", "true", "none"]);
        assert_eq!(answers(None, &["c"]), ["false", "false", "none"]);
        let empty = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../";
        // No stones left: the higher score wins, whoever is to move.
        let finished = [
            (
                format!("{empty}.........S. n 10 4 bc"),
                ["true", "false", "p1win"],
            ),
            (
                format!("{empty}.........SN n 7 9 bc"),
                ["true", "false", "p2win"],
            ),
            (
                format!("{empty}.........SN s 7 7 bc"),
                ["true", "true", "draw"],
            ),
        ];
        for (fen, expected) in finished {
            assert_eq!(answers(Some(&fen), &[]), expected, "{fen}");
        }
        // South to move with no legal move while stones remain: suntuk.
        let suntuk = format!(
            "{}w........../SN........b s 50 60 ak",
            &empty[..empty.len() - 12]
        );
        assert_eq!(answers(Some(&suntuk), &[]), ["true", "true", "p2win"]);
    }
}
