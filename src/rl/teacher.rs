//! The engine as a teacher: a distribution over a position's legal moves
//! from one MultiPV search, each root move's score through a softmax with
//! a temperature in centipoints, and a value in [-1, 1] (docs/rl.md).
//! [`teach`] is that search: `pasang datagen --policy` and Python's
//! `pasang.rl.teach` both call it, so the two give the same answer.

use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

use crate::engine::Engine;
use crate::eval::wdl::Wdl;
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Info, Limits, Listener, Score};

/// Where a won (lost) line's score sits for the softmax: beyond every
/// centipoint score, so a mate takes the weight whatever the temperature
/// of a few hundred centipoints; a quicker win (slower loss) ranks higher.
const MATE_CENTIPOINTS: f64 = 1_000_000.0;

/// The softmax's temperature in centipoints: a move scored this much
/// higher than another weighs e (2.72) times more.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Temperature(f64);

/// A temperature that is not a positive, finite number.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("temperature '{0}' is not a positive number of centipoints")]
pub struct TemperatureError(String);

impl Temperature {
    /// `centipoints`, positive and finite.
    pub fn new(centipoints: f64) -> Result<Temperature, TemperatureError> {
        if centipoints.is_finite() && centipoints > 0.0 {
            Ok(Temperature(centipoints))
        } else {
            Err(TemperatureError(centipoints.to_string()))
        }
    }

    /// Its value in centipoints.
    pub fn centipoints(self) -> f64 {
        self.0
    }
}

// Never NaN (`new` refuses it), so equality is total.
impl Eq for Temperature {}

impl FromStr for Temperature {
    type Err = TemperatureError;

    fn from_str(text: &str) -> Result<Temperature, TemperatureError> {
        let value: f64 = text
            .trim()
            .parse()
            .map_err(|_| TemperatureError(text.to_string()))?;
        Temperature::new(value).map_err(|_| TemperatureError(text.to_string()))
    }
}

impl fmt::Display for Temperature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A listener keeping each MultiPV line's latest root move and score:
/// what [`policy`] needs from a search. It is told once per line per
/// completed iteration, never inside the tree, and its list holds one
/// entry per line (reserved up front with [`RootLines::with_lines`]).
#[derive(Debug, Default)]
pub struct RootLines(Mutex<Vec<(usize, Move, Score)>>);

impl RootLines {
    /// A listener with room for `lines` lines.
    pub fn with_lines(lines: usize) -> RootLines {
        RootLines(Mutex::new(Vec::with_capacity(lines)))
    }

    fn lines(&self) -> std::sync::MutexGuard<'_, Vec<(usize, Move, Score)>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Forgets the lines of the last search.
    pub fn clear(&self) {
        self.lines().clear();
    }

    /// Each line's root move and score, in line order.
    pub fn scored(&self) -> Vec<(Move, Score)> {
        let mut lines = self.lines().clone();
        lines.sort_by_key(|&(multipv, _, _)| multipv);
        lines
            .into_iter()
            .map(|(_, mv, score)| (mv, score))
            .collect()
    }
}

impl Listener for RootLines {
    fn info(&self, info: &Info) {
        let Some(&mv) = info.pv.first() else {
            return;
        };
        let mut lines = self.lines();
        match lines
            .iter_mut()
            .find(|(multipv, _, _)| *multipv == info.multipv)
        {
            Some(line) => *line = (info.multipv, mv, info.score),
            None => lines.push((info.multipv, mv, info.score)),
        }
    }
}

/// A score on one scale for the softmax: centipoints, mates beyond them.
fn softmax_scale(score: Score) -> f64 {
    match score {
        Score::Centipoints(cp) => f64::from(cp),
        Score::Mate(moves) if moves > 0 => MATE_CENTIPOINTS - f64::from(moves),
        Score::Mate(moves) => -MATE_CENTIPOINTS - f64::from(moves),
    }
}

/// The teacher's distribution over `legal` (weights in its order, summing
/// to 1; empty for no move): the softmax of each move's score divided by
/// `temperature`, the scores those of `scored` (each MultiPV line's root
/// move and score; the first line of a move counts). A legal move without
/// a line gets the lowest score seen (the search left it unscored); with
/// no line at all the distribution is uniform.
pub fn policy(legal: &[Move], scored: &[(Move, Score)], temperature: Temperature) -> Vec<f64> {
    let score_of = |mv: &Move| {
        scored
            .iter()
            .find(|(line_move, _)| line_move == mv)
            .map(|&(_, score)| softmax_scale(score))
    };
    let floor = scored
        .iter()
        .map(|&(_, score)| softmax_scale(score))
        .fold(f64::INFINITY, f64::min);
    let floor = if floor.is_finite() { floor } else { 0.0 };
    let raw: Vec<f64> = legal
        .iter()
        .map(|mv| score_of(mv).unwrap_or(floor))
        .collect();
    let top = raw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = raw
        .iter()
        .map(|score| ((score - top) / temperature.centipoints()).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    weights.into_iter().map(|weight| weight / total).collect()
}

/// What the teacher found in one position in play.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// The first line's move: the search's best.
    pub best: Move,
    /// The search's score for the side to move (a mate as `Score::Mate`).
    pub score: Score,
    /// Win, draw and loss per mille at that score.
    pub wdl: Wdl,
    /// Each legal move (in the move generator's order) with its weight.
    pub policy: Vec<(Move, f64)>,
}

impl Lesson {
    /// The value target in [-1, 1] for the side to move: +1 for a proven
    /// win, -1 for a proven loss, else win minus loss of the WDL model.
    pub fn value(&self) -> f64 {
        value_of(self.score)
    }
}

/// The value in [-1, 1] of a score for the side to move: +1 for a proven
/// win, -1 for a proven loss, else the WDL model's win minus loss.
pub fn value_of(score: Score) -> f64 {
    match score {
        Score::Mate(moves) if moves > 0 => 1.0,
        Score::Mate(_) => -1.0,
        Score::Centipoints(_) => {
            let wdl = score.wdl();
            (f64::from(wdl.win) - f64::from(wdl.loss)) / 1000.0
        }
    }
}

/// Searches `position` under `rules` within `limits` on `engine` with
/// every legal move a line of its own (MultiPV), from an emptied table,
/// so one thread and a node limit give the same lesson every time; the
/// engine keeps its other settings. `None` where the game is over (or the
/// search returned no move). The one search behind `pasang datagen
/// --policy` and `pasang.rl.teach`.
pub fn teach(
    engine: &mut Engine,
    position: Position,
    rules: Rules,
    limits: &Limits,
    temperature: Temperature,
) -> Option<Lesson> {
    let legal = legal_moves(&position, &rules);
    if legal.is_empty() {
        return None;
    }
    engine.clear_hash();
    engine.set_rules(rules);
    engine.set_position(position);
    engine.set_multipv(legal.len());
    let lines = RootLines::with_lines(legal.len());
    let result = engine.search(limits, &lines);
    let best = result.best_move?;
    let score = result.final_info.map(|info| info.score)?;
    let weights = policy(legal.as_slice(), &lines.scored(), temperature);
    Some(Lesson {
        best,
        score,
        wdl: score.wdl(),
        policy: legal.as_slice().iter().copied().zip(weights).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, start_position};
    use crate::rules::Rules;

    fn moves(texts: &[&str]) -> Vec<Move> {
        let position = start_position(Rules::default().pattern);
        texts
            .iter()
            .map(|text| parse_move(&position, &Rules::default(), text).expect("a legal passage"))
            .collect()
    }

    #[test]
    fn temperatures_must_be_positive_and_finite() {
        assert_eq!(
            Temperature::new(100.0).map(Temperature::centipoints),
            Ok(100.0)
        );
        assert_eq!(
            "50".parse::<Temperature>().map(|t| t.to_string()),
            Ok("50".into())
        );
        for bad in ["0", "-1", "nan", "inf", "hot", ""] {
            let error = bad.parse::<Temperature>().expect_err(bad);
            assert!(error.to_string().contains("positive number of centipoints"));
        }
    }

    #[test]
    fn a_move_scored_one_temperature_higher_weighs_e_times_more() {
        let legal = moves(&["a", "b", "c"]);
        let scored = [
            (legal[1], Score::Centipoints(300)),
            (legal[0], Score::Centipoints(200)),
            (legal[2], Score::Centipoints(200)),
        ];
        let weights = policy(&legal, &scored, Temperature::new(100.0).unwrap());
        assert!((weights.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((weights[1] / weights[0] - std::f64::consts::E).abs() < 1e-9);
        assert!((weights[0] - weights[2]).abs() < 1e-15);
    }

    #[test]
    fn unscored_moves_get_the_lowest_score_and_no_lines_give_a_uniform_policy() {
        let legal = moves(&["a", "b", "c", "d"]);
        let scored = [
            (legal[0], Score::Centipoints(50)),
            (legal[1], Score::Centipoints(-150)),
        ];
        let weights = policy(&legal, &scored, Temperature::new(100.0).unwrap());
        assert_eq!(weights[1], weights[2]);
        assert_eq!(weights[1], weights[3]);
        let uniform = policy(&legal, &[], Temperature::new(100.0).unwrap());
        assert!(uniform.iter().all(|&weight| (weight - 0.25).abs() < 1e-12));
        assert!(policy(&[], &[], Temperature::new(1.0).unwrap()).is_empty());
    }

    #[test]
    fn mates_outrank_every_centipoint_score_and_quicker_wins_rank_higher() {
        let legal = moves(&["a", "b", "c", "d"]);
        let scored = [
            (legal[0], Score::Mate(3)),
            (legal[1], Score::Mate(1)),
            (legal[2], Score::Centipoints(5000)),
            (legal[3], Score::Mate(-2)),
        ];
        let weights = policy(&legal, &scored, Temperature::new(1000.0).unwrap());
        assert!(weights[1] > weights[0]);
        assert!(weights[0] > 0.2 && weights[2] < 1e-100 && weights[3] == 0.0);
    }

    #[test]
    fn values_are_proven_at_a_mate_and_the_models_otherwise() {
        assert_eq!(value_of(Score::Mate(3)), 1.0);
        assert_eq!(value_of(Score::Mate(0)), -1.0);
        assert_eq!(value_of(Score::Mate(-2)), -1.0);
        assert_eq!(value_of(Score::Centipoints(0)), 0.0);
        let ahead = value_of(Score::Centipoints(400));
        assert!(ahead > 0.0 && ahead < 1.0);
        assert_eq!(value_of(Score::Centipoints(-400)), -ahead);
    }

    #[test]
    fn a_lesson_is_the_same_every_time_and_empty_where_the_game_is_over() {
        let rules = Rules::default();
        let start = start_position(rules.pattern);
        let limits = Limits {
            nodes: Some(300),
            ..Limits::default()
        };
        let temperature = Temperature::new(100.0).unwrap();
        let mut engine = Engine::new();
        let first = teach(&mut engine, start, rules, &limits, temperature).unwrap();
        let total: f64 = first.policy.iter().map(|&(_, weight)| weight).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert_eq!(first.wdl, first.score.wdl());
        // Another search in between leaves nothing behind.
        let other = start.play(first.best);
        teach(&mut engine, other, rules, &limits, temperature).unwrap();
        assert_eq!(
            teach(&mut engine, start, rules, &limits, temperature),
            Some(first)
        );
    }

    #[test]
    fn the_listener_keeps_each_lines_latest_report() {
        let legal = moves(&["a", "b"]);
        let lines = RootLines::with_lines(2);
        let report = |multipv, mv, cp| Info {
            depth: 1,
            seldepth: 1,
            multipv,
            score: Score::Centipoints(cp),
            nodes: 0,
            time_ms: 0,
            hashfull: 0,
            pv: vec![mv],
        };
        lines.info(&report(2, legal[1], 10));
        lines.info(&report(1, legal[0], 30));
        lines.info(&report(1, legal[1], 40));
        assert_eq!(
            lines.scored(),
            vec![
                (legal[1], Score::Centipoints(40)),
                (legal[1], Score::Centipoints(10))
            ]
        );
        lines.clear();
        assert!(lines.scored().is_empty());
    }
}
