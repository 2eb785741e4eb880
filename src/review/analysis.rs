//! The one place a review drives the search: a [`Searcher`] with the
//! review's table, threads and limit, evaluating one position at a time.

use crate::moves::Move;
use crate::outcome::Status;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Limits, Searcher, Settings, Signals, Silent};
use crate::tt::{TableError, TranspositionTable};

use super::{Evaluation, ReviewLimit, ReviewSettings};

/// What the search says of one position.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PositionEval {
    /// Its value from South's view.
    pub eval: Evaluation,
    /// The depth searched (0: the game is over there).
    pub depth: u32,
    /// The engine's line from it (empty when the game is over).
    pub line: Vec<Move>,
}

/// A searcher set up for a review.
pub(super) struct Analyser {
    searcher: Searcher,
    settings: Settings,
    limits: Limits,
}

impl Analyser {
    /// A searcher with the settings' table size, threads and limit.
    pub fn new(review: &ReviewSettings) -> Result<Analyser, TableError> {
        let table = TranspositionTable::try_new(review.hash_mib)?;
        let settings = Settings {
            threads: review.threads.max(1),
            // A review has no clock to share: the whole movetime searches.
            move_overhead: 0,
            ..Settings::default()
        };
        let limits = match review.limit {
            ReviewLimit::Movetime(ms) => Limits {
                movetime: Some(ms),
                ..Limits::default()
            },
            ReviewLimit::Depth(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            ReviewLimit::Nodes(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
        };
        Ok(Analyser {
            searcher: Searcher::new(table),
            settings,
            limits,
        })
    }

    /// Empties the table and the proven results: each game starts afresh,
    /// so a game's review does not depend on the games before it.
    pub fn new_game(&mut self) {
        self.searcher.forget();
    }

    /// Evaluates `position`: the result of a finished game, or a search.
    pub fn evaluate(&self, position: &Position, rules: &Rules) -> PositionEval {
        if let Some(eval) = Evaluation::of_status(&Status::of(position, rules)) {
            return PositionEval {
                eval,
                depth: 0,
                line: Vec::new(),
            };
        }
        let result = self.searcher.search(
            position,
            rules,
            &self.limits,
            &self.settings,
            &Signals::default(),
            1,
            &Silent,
        );
        let side = position.side_to_move();
        match result.final_info {
            Some(info) => PositionEval {
                eval: Evaluation::from_score(info.score, side, result.proven),
                depth: info.depth,
                line: info.pv,
            },
            // A position in play always has a move, and a search of one
            // always reports; should it ever not, it counts as level.
            None => PositionEval {
                eval: Evaluation::Centipoints(0),
                depth: 0,
                line: result.best_move.into_iter().collect(),
            },
        }
    }
}
