//! The review as JSON, by types: [`ReviewJson`] is the object
//! [`AnnotatedGame::to_json`](super::AnnotatedGame::to_json) gives,
//! `pasang annotate --json` writes (with the file and the game's number)
//! and the board's `review` message carries. docs/review.md describes it;
//! the page (`page/assets/app.js`) and scripts read it by its keys, which
//! the tests here pin.
//!
//! Each struct's fields are declared in alphabetical order, the order of
//! the keys in the JSON (docs/review.md: "the real line has them in
//! alphabetical order"), since serde writes them as they are declared.
//! Figures are rounded to a tenth, as the review shows them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{AnnotatedGame, BestMove, Evaluation, PlyReview, SideSummary, round_accuracy};
use crate::notation::format_position;
use crate::position::Player;

/// A reviewed game: `plies`, `result`, `start`, `summary` and `tags`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReviewJson {
    /// Each move of the game, judged.
    pub plies: Vec<PlyJson>,
    /// The game's result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
    /// The start position and its evaluation.
    pub start: StartJson,
    /// Each side's figures.
    pub summary: SummaryJson,
    /// The annotated record's tags, by name.
    pub tags: BTreeMap<String, String>,
}

/// One move of the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlyJson {
    /// Its accuracy, 0-100 (`null` for a book ply).
    pub accuracy: Option<f64>,
    /// The engine's choice where it is strictly better than the move
    /// played (`null` where the drop is 0).
    pub best: Option<BestJson>,
    /// Whether the record calls it an opening (book) move.
    pub book: bool,
    /// The depth of the evaluation after it (0: the game ended).
    pub depth: u32,
    /// The mover's fall in winning chances, in points.
    pub drop: f64,
    /// The evaluation after it.
    pub eval: EvalJson,
    /// Its mark: `?!`, `?` or `??`, or `null`.
    pub mark: Option<String>,
    /// The move, in the notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The ply, from 1.
    pub ply: usize,
    /// Who played it: `south` or `north`.
    pub side: String,
    /// South's winning chances after it, in percent.
    pub south_win_percent: f64,
}

/// The engine's choice in a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BestJson {
    /// The evaluation with it.
    pub eval: EvalJson,
    /// The engine's line, starting with the move.
    pub line: Vec<String>,
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
}

/// The start position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StartJson {
    /// The depth of its evaluation.
    pub depth: u32,
    /// Its evaluation.
    pub eval: EvalJson,
    /// Its position string.
    pub position: String,
    /// South's winning chances there, in percent.
    pub south_win_percent: f64,
}

/// Both sides' figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SummaryJson {
    /// North's.
    pub north: SideJson,
    /// South's.
    pub south: SideJson,
}

/// One side's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SideJson {
    /// Game accuracy, 0-100 (`null`: no judged move).
    pub accuracy: Option<f64>,
    /// Moves marked `??`.
    pub blunders: u32,
    /// Moves marked `?!`.
    pub inaccuracies: u32,
    /// Moves marked `?`.
    pub mistakes: u32,
    /// The side's name from the record's tags, if it has one.
    pub name: Option<String>,
}

/// An evaluation from South's view, each kind with its `text` in words:
/// `{"cp": 125, "text": "+1.25"}`, `{"moves": 7, "text": "South wins by
/// force in 7", "winner": "south"}`, `{"draw": true, "text": "drawn by
/// force"}` or `{"result": "1-0", "text": "South has won"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(untagged)]
pub enum EvalJson {
    /// A score in centipoints.
    Centipoints {
        /// 100 x the expected final point margin, South minus North.
        cp: i32,
        /// The score in words.
        text: String,
    },
    /// A win proven by the search.
    Win {
        /// The winner's moves still to play.
        moves: u32,
        /// The win in words.
        text: String,
        /// `south` or `north`.
        winner: String,
    },
    /// A draw proven by the search.
    Draw {
        /// Always `true`.
        draw: bool,
        /// The draw in words.
        text: String,
    },
    /// The game is over.
    Over {
        /// Its result token.
        result: String,
        /// The result in words.
        text: String,
    },
}

impl From<Evaluation> for EvalJson {
    fn from(eval: Evaluation) -> EvalJson {
        let text = eval.to_string();
        match eval {
            Evaluation::Centipoints(cp) => EvalJson::Centipoints { cp, text },
            Evaluation::Win { winner, moves } => EvalJson::Win {
                moves,
                text,
                winner: winner.name().to_string(),
            },
            Evaluation::Draw => EvalJson::Draw { draw: true, text },
            Evaluation::Over(_) => EvalJson::Over {
                result: eval.token(),
                text,
            },
        }
    }
}

impl From<&BestMove> for BestJson {
    fn from(best: &BestMove) -> BestJson {
        BestJson {
            eval: best.eval.into(),
            line: best.line.iter().map(ToString::to_string).collect(),
            mv: best.mv.to_string(),
        }
    }
}

impl From<&PlyReview> for PlyJson {
    fn from(ply: &PlyReview) -> PlyJson {
        PlyJson {
            accuracy: ply.accuracy.map(round_accuracy),
            best: ply.best.as_ref().map(BestJson::from),
            book: ply.book,
            depth: ply.depth,
            drop: round_accuracy(ply.drop),
            eval: ply.eval.into(),
            mark: ply.mark.map(|mark| mark.suffix().to_string()),
            mv: ply.played.to_string(),
            ply: ply.ply,
            side: ply.mover.name().to_string(),
            south_win_percent: round_accuracy(ply.south_win_percent),
        }
    }
}

impl SideJson {
    /// A side's figures, with its name.
    fn new(summary: SideSummary, name: Option<&str>) -> SideJson {
        SideJson {
            accuracy: summary.accuracy.map(round_accuracy),
            blunders: summary.blunders,
            inaccuracies: summary.inaccuracies,
            mistakes: summary.mistakes,
            name: name.map(str::to_string),
        }
    }
}

impl From<&AnnotatedGame> for ReviewJson {
    fn from(game: &AnnotatedGame) -> ReviewJson {
        let (start_eval, start_depth) = game.start_eval();
        let side =
            |player: Player, name| SideJson::new(game.summary(player), game.source.tag(name));
        ReviewJson {
            plies: game.plies().iter().map(PlyJson::from).collect(),
            result: game.source.result.as_str().to_string(),
            start: StartJson {
                depth: start_depth,
                eval: start_eval.into(),
                position: format_position(game.start()),
                south_win_percent: round_accuracy(start_eval.win_percent(Player::South)),
            },
            summary: SummaryJson {
                north: side(Player::North, "North"),
                south: side(Player::South, "South"),
            },
            // A tag given twice keeps its last value.
            tags: game.header().tags.into_iter().collect(),
        }
    }
}

impl ReviewJson {
    /// Keeps only the marked plies (`pasang annotate --marked --json`).
    pub fn keep_marked(&mut self) {
        self.plies.retain(|ply| ply.mark.is_some());
    }

    /// The object as one line of JSON text.
    pub fn to_line(&self) -> String {
        // Strings, numbers and string-keyed maps only: serde_json cannot
        // fail on them.
        serde_json::to_string(self).expect("a review is always JSON")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of evaluation's JSON, key by key.
    #[test]
    fn evaluations_are_written_and_read_back_as_pinned() {
        let cases = [
            (
                Evaluation::Centipoints(-125),
                r#"{"cp":-125,"text":"-1.25"}"#,
            ),
            (
                Evaluation::Win {
                    winner: Player::South,
                    moves: 7,
                },
                r#"{"moves":7,"text":"South wins by force in 7","winner":"south"}"#,
            ),
            (Evaluation::Draw, r#"{"draw":true,"text":"drawn by force"}"#),
            (
                Evaluation::Over(Some(Player::North)),
                r#"{"result":"0-1","text":"North has won"}"#,
            ),
        ];
        for (eval, text) in cases {
            let json = EvalJson::from(eval);
            assert_eq!(serde_json::to_string(&json).unwrap(), text);
            assert_eq!(serde_json::from_str::<EvalJson>(text).unwrap(), json);
        }
    }

    /// A whole review's JSON, as docs/review.md shows it (keys sorted).
    #[test]
    fn a_review_is_written_and_read_back_as_pinned() {
        let review = ReviewJson {
            plies: vec![PlyJson {
                accuracy: Some(46.9),
                best: Some(BestJson {
                    eval: EvalJson::Centipoints {
                        cp: 412,
                        text: "+4.12".into(),
                    },
                    line: vec!["j11b11s".into(), "k4k7w".into()],
                    mv: "j11b11s".into(),
                }),
                book: false,
                depth: 13,
                drop: 16.6,
                eval: EvalJson::Centipoints {
                    cp: 1140,
                    text: "+11.40".into(),
                },
                mark: Some("??".into()),
                mv: "j11g11s".into(),
                ply: 24,
                side: "north".into(),
                south_win_percent: 77.7,
            }],
            result: "1-0".into(),
            start: StartJson {
                depth: 13,
                eval: EvalJson::Centipoints {
                    cp: 278,
                    text: "+2.78".into(),
                },
                position: "p".into(),
                south_win_percent: 57.5,
            },
            summary: SummaryJson {
                north: SideJson {
                    accuracy: None,
                    blunders: 1,
                    inaccuracies: 0,
                    mistakes: 2,
                    name: None,
                },
                south: SideJson {
                    accuracy: Some(100.0),
                    blunders: 0,
                    inaccuracies: 0,
                    mistakes: 0,
                    name: Some("Ani".into()),
                },
            },
            tags: BTreeMap::from([
                ("South".to_string(), "Ani".to_string()),
                ("Event".to_string(), "e".to_string()),
            ]),
        };
        let text = concat!(
            r#"{"plies":[{"accuracy":46.9,"best":{"eval":{"cp":412,"text":"+4.12"},"#,
            r#""line":["j11b11s","k4k7w"],"move":"j11b11s"},"book":false,"depth":13,"drop":16.6,"#,
            r#""eval":{"cp":1140,"text":"+11.40"},"mark":"??","move":"j11g11s","ply":24,"#,
            r#""side":"north","south_win_percent":77.7}],"result":"1-0","#,
            r#""start":{"depth":13,"eval":{"cp":278,"text":"+2.78"},"position":"p","south_win_percent":57.5},"#,
            r#""summary":{"north":{"accuracy":null,"blunders":1,"inaccuracies":0,"mistakes":2,"name":null},"#,
            r#""south":{"accuracy":100.0,"blunders":0,"inaccuracies":0,"mistakes":0,"name":"Ani"}},"#,
            r#""tags":{"Event":"e","South":"Ani"}}"#
        );
        assert_eq!(review.to_line(), text);
        assert_eq!(serde_json::from_str::<ReviewJson>(text).unwrap(), review);
        let mut marked = review.clone();
        marked.plies[0].mark = None;
        marked.keep_marked();
        assert!(marked.plies.is_empty());
    }
}
