//! The engine as a teacher: a distribution over a position's legal moves
//! from one MultiPV search, each root move's score through a softmax with
//! a temperature in centipoints (docs/rl.md). `pasang datagen --policy`
//! and Python's `pasang.rl.teach` both use it.

use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

use crate::moves::Move;
use crate::search::{Info, Listener, Score};

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
