//! Commands as an engine reads them: a [`Command`] (the type the engine
//! itself parses) written as one line in the words of a [`Protocol`].

use std::fmt::Write as _;

use super::protocol::Protocol;
use crate::protocol::options::RULE_OPTIONS;
use crate::protocol::{Command, GoParams, PositionBase};
use crate::rules::Rules;

/// The line that sends `command` to an engine speaking `protocol`.
pub fn line(command: &Command, protocol: Protocol) -> String {
    match command {
        Command::Uci | Command::Ugi => protocol.hello().to_string(),
        Command::UciNewGame => protocol.new_game().to_string(),
        Command::Query(query) => format!("query {}", query.word()),
        Command::IsReady => "isready".to_string(),
        Command::SetOption { name, value } => match value {
            Some(value) => format!("setoption name {name} value {value}"),
            None => format!("setoption name {name}"),
        },
        Command::Position { base, moves } => {
            let mut line = match base {
                PositionBase::StartPos => "position startpos".to_string(),
                PositionBase::Fen(text) => format!("position fen {text}"),
            };
            if !moves.is_empty() {
                line.push_str(" moves");
                for mv in moves {
                    line.push(' ');
                    line.push_str(mv);
                }
            }
            line
        }
        Command::Go(params) => go_line(params, protocol),
        Command::Stop => "stop".to_string(),
        Command::PonderHit => "ponderhit".to_string(),
        Command::Quit => "quit".to_string(),
        Command::Debug(on) => format!("debug {}", if *on { "on" } else { "off" }),
        Command::Moves => "moves".to_string(),
        Command::Result => "result".to_string(),
        Command::Display => "d".to_string(),
        Command::Perft(depth) => format!("perft {depth}"),
        Command::Bench(None) => "bench".to_string(),
        Command::Bench(Some(depth)) => format!("bench {depth}"),
        Command::Eval => "eval".to_string(),
        Command::Help => "help".to_string(),
        Command::Empty => String::new(),
    }
}

/// A `go` line: the clocks first (South's, North's, then the
/// increments, as chess GUIs send them), then the other limits.
fn go_line(params: &GoParams, protocol: Protocol) -> String {
    let mut line = String::from("go");
    let [time_1, time_2, inc_1, inc_2] = protocol.clock_words();
    let clocks = [
        (time_1, params.time[0]),
        (time_2, params.time[1]),
        (inc_1, params.increment[0]),
        (inc_2, params.increment[1]),
        ("movestogo", params.moves_to_go.map(u64::from)),
        ("movetime", params.movetime),
        ("depth", params.depth.map(u64::from)),
        ("nodes", params.nodes),
        ("mate", params.mate.map(u64::from)),
        ("perft", params.perft.map(u64::from)),
    ];
    for (word, value) in clocks {
        if let Some(value) = value {
            let _ = write!(line, " {word} {value}");
        }
    }
    if params.infinite {
        line.push_str(" infinite");
    }
    if params.ponder {
        line.push_str(" ponder");
    }
    if !params.search_moves.is_empty() {
        line.push_str(" searchmoves");
        for mv in &params.search_moves {
            line.push(' ');
            line.push_str(mv);
        }
    }
    line
}

/// The `setoption` commands that give an engine `rules`, from the one
/// table of rule options.
pub fn rule_settings(rules: &Rules) -> impl Iterator<Item = Command> + '_ {
    RULE_OPTIONS.iter().map(|option| Command::SetOption {
        name: option.name.to_string(),
        value: Some(option.value(rules)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Query;

    /// What the client writes, the engine's own parser reads back as the
    /// same command.
    #[test]
    fn lines_parse_back_to_their_command() {
        let go = GoParams {
            time: [Some(1500), Some(1800)],
            increment: [Some(50), Some(60)],
            movetime: Some(300),
            depth: Some(4),
            nodes: Some(1000),
            ..GoParams::default()
        };
        let commands = [
            Command::IsReady,
            Command::UciNewGame,
            Command::Query(Query::P1Turn),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("20".into()),
            },
            Command::Position {
                base: PositionBase::StartPos,
                moves: vec!["c".into(), "j".into()],
            },
            Command::Position {
                base: PositionBase::Fen("x y z".into()),
                moves: Vec::new(),
            },
            Command::Go(go.clone()),
            Command::Go(GoParams {
                infinite: true,
                search_moves: vec!["c".into()],
                ..GoParams::default()
            }),
            Command::Stop,
            Command::Quit,
        ];
        for protocol in [Protocol::Uci, Protocol::Ugi] {
            for command in &commands {
                let text = line(command, protocol);
                assert_eq!(&text.parse::<Command>().unwrap(), command, "{text}");
            }
        }
        assert_eq!(
            line(&Command::Go(go.clone()), Protocol::Uci),
            "go wtime 1500 btime 1800 winc 50 binc 60 movetime 300 depth 4 nodes 1000"
        );
        assert_eq!(
            line(&Command::Go(go), Protocol::Ugi),
            "go p1time 1500 p2time 1800 p1inc 50 p2inc 60 movetime 300 depth 4 nodes 1000"
        );
        assert_eq!(line(&Command::UciNewGame, Protocol::Ugi), "uginewgame");
        assert_eq!(line(&Command::Uci, Protocol::Ugi), "ugi");
    }

    #[test]
    fn rules_become_setoptions() {
        let lines: Vec<String> = rule_settings(&Rules::default())
            .map(|command| line(&command, Protocol::Uci))
            .collect();
        assert_eq!(
            lines,
            [
                "setoption name Pattern value 1",
                "setoption name Ka Entry value slide",
                "setoption name Second Column value opposite",
                "setoption name Centre value wall",
            ]
        );
    }
}
