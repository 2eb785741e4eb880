//! `pasang analyse --json`'s line, by types: [`AnalysisJson`] is the
//! object written for each position (README.md, tests/cli.rs and scripts
//! read it by its keys).
//!
//! Each struct's fields are declared in alphabetical order, the order of
//! the keys in the JSON, since serde writes them as they are declared.

use serde::Serialize;

use super::Finding;
use crate::engine::Engine;
use crate::eval::wdl::Wdl;
use crate::notation::format_position;
use crate::outcome::Status;
use crate::search::{Info, Score};

/// One position's analysis: the search's best move, score, line and
/// figures with its other lines, or the result of a finished game (no
/// move, an empty line, figures 0).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisJson {
    /// The best move (`null` when the game is over).
    pub bestmove: Option<String>,
    /// The depth of the best line.
    pub depth: u32,
    /// The input, as given.
    pub input: String,
    /// Each line searched, the best first.
    pub lines: Vec<LineJson>,
    /// Nodes searched.
    pub nodes: u64,
    /// The position's string.
    pub position: String,
    /// The best line.
    pub pv: Vec<String>,
    /// How the game ended (only when it is over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultJson>,
    /// The best line's score for the side to move (`null` for a game over
    /// that has none).
    pub score: Option<ScoreJson>,
    /// The selective depth of the best line.
    pub seldepth: u32,
    /// `south` or `north`.
    pub side_to_move: &'static str,
    /// The search's time, ms.
    pub time_ms: u64,
}

/// One line of a search (`--multipv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineJson {
    /// Its depth.
    pub depth: u32,
    /// Its number, 1 the best.
    pub multipv: usize,
    /// Its moves.
    pub pv: Vec<String>,
    /// Its score for the side to move.
    pub score: ScoreJson,
}

/// A score for the side to move with its win, draw and loss chances in
/// per mille (`UCI_ShowWDL`'s model): `{"cp": 125, "wdl": [..]}` or
/// `{"mate": -3, "wdl": [..]}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScoreJson {
    /// A score in centipoints.
    Centipoints {
        /// 100 x the expected point margin.
        cp: i32,
        /// Win, draw and loss, per mille.
        wdl: [u32; 3],
    },
    /// A forced result.
    Mate {
        /// The side to move wins in this many of its own moves
        /// (negative: loses).
        mate: i32,
        /// Win, draw and loss, per mille.
        wdl: [u32; 3],
    },
}

/// The end of a finished game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultJson {
    /// North's points.
    pub north: u32,
    /// Why it ended (`score`, `suntuk`).
    pub reason: String,
    /// South's points.
    pub south: u32,
    /// `south`, `north` or `draw`.
    pub winner: &'static str,
}

impl ScoreJson {
    /// `score` with the given chances.
    fn new(score: Score, wdl: Wdl) -> ScoreJson {
        let wdl = [wdl.win, wdl.draw, wdl.loss];
        match score {
            Score::Centipoints(cp) => ScoreJson::Centipoints { cp, wdl },
            Score::Mate(mate) => ScoreJson::Mate { mate, wdl },
        }
    }
}

impl From<Score> for ScoreJson {
    /// A score with its chances by the model.
    fn from(score: Score) -> ScoreJson {
        ScoreJson::new(score, score.wdl())
    }
}

impl From<&Info> for LineJson {
    fn from(line: &Info) -> LineJson {
        LineJson {
            depth: line.depth,
            multipv: line.multipv,
            pv: moves(line),
            score: line.score.into(),
        }
    }
}

/// A line's moves in the notation.
fn moves(info: &Info) -> Vec<String> {
    info.pv.iter().map(ToString::to_string).collect()
}

impl AnalysisJson {
    /// The analysis of the engine's position, given as `input`.
    pub(super) fn new(input: &str, engine: &Engine, finding: &Finding) -> AnalysisJson {
        let position = engine.position();
        let mut json = AnalysisJson {
            bestmove: None,
            depth: 0,
            input: input.to_string(),
            lines: Vec::new(),
            nodes: 0,
            position: format_position(position),
            pv: Vec::new(),
            result: None,
            score: None,
            seldepth: 0,
            side_to_move: position.side_to_move().name(),
            time_ms: 0,
        };
        match finding {
            Finding::Over(status) => {
                let (winner, reason, scores) = match status {
                    Status::Over {
                        winner,
                        reason,
                        scores,
                    } => (
                        winner.map_or("draw", |p| p.name()),
                        reason.to_string(),
                        *scores,
                    ),
                    Status::InPlay => ("none", "none".to_string(), [0, 0]),
                };
                json.result = Some(ResultJson {
                    north: scores[1],
                    reason,
                    south: scores[0],
                    winner,
                });
                json.score = engine
                    .final_score()
                    .map(|(score, wdl)| ScoreJson::new(score, wdl));
            }
            Finding::Searched { best, lines, nodes } => {
                json.bestmove = best.pv.first().map(ToString::to_string);
                json.depth = best.depth;
                json.lines = lines.iter().map(LineJson::from).collect();
                json.nodes = *nodes;
                json.pv = moves(best);
                json.score = Some(best.score.into());
                json.seldepth = best.seldepth;
                json.time_ms = best.time_ms;
            }
        }
        json
    }

    /// The object as one line of JSON text.
    pub fn to_line(&self) -> String {
        // Strings, numbers and arrays only: serde_json cannot fail on them.
        serde_json::to_string(self).expect("an analysis is always JSON")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A searched position's line and a finished game's, key by key.
    #[test]
    fn the_json_line_is_pinned() {
        let score = ScoreJson::Centipoints {
            cp: 180,
            wdl: [528, 42, 430],
        };
        let searched = AnalysisJson {
            bestmove: Some("e".into()),
            depth: 5,
            input: "startpos".into(),
            lines: vec![LineJson {
                depth: 5,
                multipv: 1,
                pv: vec!["e".into(), "g".into()],
                score: score.clone(),
            }],
            nodes: 2685,
            position: "p".into(),
            pv: vec!["e".into(), "g".into()],
            result: None,
            score: Some(score),
            seldepth: 7,
            side_to_move: "south",
            time_ms: 3,
        };
        assert_eq!(
            searched.to_line(),
            concat!(
                r#"{"bestmove":"e","depth":5,"input":"startpos","lines":[{"depth":5,"multipv":1,"#,
                r#""pv":["e","g"],"score":{"cp":180,"wdl":[528,42,430]}}],"nodes":2685,"position":"p","#,
                r#""pv":["e","g"],"score":{"cp":180,"wdl":[528,42,430]},"seldepth":7,"#,
                r#""side_to_move":"south","time_ms":3}"#
            )
        );
        let over = AnalysisJson {
            bestmove: None,
            depth: 0,
            input: "fen p".into(),
            lines: Vec::new(),
            nodes: 0,
            position: "p".into(),
            pv: Vec::new(),
            result: Some(ResultJson {
                north: 4,
                reason: "score".into(),
                south: 10,
                winner: "south",
            }),
            score: Some(ScoreJson::Mate {
                mate: 0,
                wdl: [0, 0, 1000],
            }),
            seldepth: 0,
            side_to_move: "north",
            time_ms: 0,
        };
        assert_eq!(
            over.to_line(),
            concat!(
                r#"{"bestmove":null,"depth":0,"input":"fen p","lines":[],"nodes":0,"position":"p","#,
                r#""pv":[],"result":{"north":4,"reason":"score","south":10,"winner":"south"},"#,
                r#""score":{"mate":0,"wdl":[0,0,1000]},"seldepth":0,"side_to_move":"north","time_ms":0}"#
            )
        );
    }
}
