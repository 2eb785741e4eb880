//! The one place a review drives the search: the engine's facade with
//! the review's table, threads and limit, evaluating one position at a
//! time (so a review searches as the engine plays: same evaluation, same
//! defaults).

use crate::engine::Engine;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Limits, Silent};
use crate::tt::TableError;

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

/// An engine set up for a review.
pub(super) struct Analyser {
    engine: Engine,
    limits: Limits,
}

impl Analyser {
    /// An engine with the settings' table size, threads and limit.
    pub fn new(review: &ReviewSettings) -> Result<Analyser, TableError> {
        let mut engine = Engine::new();
        engine.set_hash(review.hash_mib)?;
        engine.set_threads(review.threads);
        // A review has no clock to share: the whole movetime searches.
        engine.set_move_overhead(0);
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
        Ok(Analyser { engine, limits })
    }

    /// Empties the table and the proven results: each game starts afresh,
    /// so a game's review does not depend on the games before it.
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Evaluates `position`: the result of a finished game, or a search.
    pub fn evaluate(&mut self, position: &Position, rules: &Rules) -> PositionEval {
        self.engine.set_rules(*rules);
        self.engine.set_position(*position);
        if let Some(eval) = Evaluation::of_status(&self.engine.status()) {
            return PositionEval {
                eval,
                depth: 0,
                line: Vec::new(),
            };
        }
        let result = self.engine.search(&self.limits, &Silent);
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
