//! Winning chances, marks and accuracy: lichess's definitions on the
//! engine's own win/draw/loss model (`UCI_ShowWDL`). Pure functions of
//! the evaluations, so an annotated record read back gives the same marks
//! and figures as the review that wrote it.

use super::Evaluation;
use crate::position::Player;
use crate::record::Mark;

/// Drops in the mover's winning chances (percentage points) at which a
/// move is an inaccuracy, a mistake and a blunder: lichess's 0.1, 0.2 and
/// 0.3 on its -1..+1 scale.
pub const INACCURACY_DROP: f64 = 5.0;
/// See [`INACCURACY_DROP`].
pub const MISTAKE_DROP: f64 = 10.0;
/// See [`INACCURACY_DROP`].
pub const BLUNDER_DROP: f64 = 15.0;

/// The mark of a move that lowered its mover's winning chances by `drop`
/// percentage points: `??` from 15, `?` from 10, `?!` from 5, none below.
pub fn mark_for_drop(drop: f64) -> Option<Mark> {
    if drop >= BLUNDER_DROP {
        Some(Mark::Blunder)
    } else if drop >= MISTAKE_DROP {
        Some(Mark::Mistake)
    } else if drop >= INACCURACY_DROP {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// Winning chances (percent) at or below which a side's position counts
/// as lost, and at or above 100 less them as won: about 19 points behind
/// (or ahead) in the model, or a proven result.
pub const DECIDED_CHANCES: f64 = 10.0;

/// The drop in `mover`'s winning chances from `before` (the evaluation of
/// the position the move was played in, with the engine's own move) to
/// `after` (that of the position it led to): 0 or more. The model's
/// chances come in steps of half a per mille, so the drop is a multiple
/// of 0.05 points (float noise rounded away): a drop above 0 means the
/// engine's move is strictly better by the review's own evaluations.
pub fn chances_drop(before: Evaluation, after: Evaluation, mover: Player) -> f64 {
    let drop = before.win_percent(mover) - after.win_percent(mover);
    ((drop * 20.0).round() / 20.0).max(0.0)
}

/// The mark of a move by `mover` that led from a position evaluated
/// `before` to one evaluated `after`, with a drop of `drop`
/// ([`chances_drop`]): [`mark_for_drop`]'s, as lichess marks, except that
/// a move in a position already lost that keeps it lost (mover's chances
/// at most [`DECIDED_CHANCES`] before and after), or already won that
/// keeps it won, is at most an inaccuracy. So `??` falls only on a move
/// that turns a win or an open game into a loss, or a win into a draw or
/// a worse game by 15 points or more, and on a drop of 15 points in an
/// open game; a forced loss walked into from a lost position, or a forced
/// win given up for a won one, is no blunder.
pub fn mark_for_move(
    before: Evaluation,
    after: Evaluation,
    mover: Player,
    drop: f64,
) -> Option<Mark> {
    let mark = mark_for_drop(drop);
    let lost = |eval: Evaluation| eval.win_percent(mover) <= DECIDED_CHANCES;
    let won = |eval: Evaluation| eval.win_percent(mover) >= 100.0 - DECIDED_CHANCES;
    let kept = (lost(before) && lost(after)) || (won(before) && won(after));
    if kept {
        mark.map(|_| Mark::Inaccuracy)
    } else {
        mark
    }
}

/// lichess's accuracy of one move from the drop in its mover's winning
/// chances (percentage points): 103.1668 x exp(-0.04354 x drop) - 3.1669,
/// clamped to 0-100. No drop gives 100; a drop of 10 about 64, of 30
/// about 25. (lichess adds 1 for the uncertainty of its analysis; this
/// does not.)
pub fn move_accuracy(drop: f64) -> f64 {
    let drop = drop.max(0.0);
    (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One judged move, for [`game_accuracy`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct JudgedMove {
    /// The move's index in the game, from 0 (move `i` leads from position
    /// `i` to position `i + 1`).
    pub index: usize,
    /// Its accuracy, 0-100.
    pub accuracy: f64,
}

/// lichess's game accuracy of one side: the mean of (a) the mean of its
/// moves' accuracies weighted by the volatility of the game around each
/// move and (b) their harmonic mean. `win_percents` are one side's winning
/// chances at every position of the game (the start first; the view does
/// not matter for the spread), `moves` the side's judged moves. The
/// weight of move `i` is the standard deviation of the winning chances in
/// a window of positions around it, clamped to 0.5-12; the window is a
/// tenth of the game, 2 to 8 positions. `None` without a judged move.
pub fn game_accuracy(win_percents: &[f64], moves: &[JudgedMove]) -> Option<f64> {
    if moves.is_empty() || win_percents.len() < 2 {
        return None;
    }
    let weights = volatility_weights(win_percents);
    let mut weighted = 0.0;
    let mut total_weight = 0.0;
    let mut inverse_sum = 0.0;
    for judged in moves {
        let weight = weights.get(judged.index).copied().unwrap_or(0.5);
        weighted += judged.accuracy * weight;
        total_weight += weight;
        // As lichess does, accuracies under 1 count as 1, so that one
        // move of 0 does not make the harmonic mean 0.
        inverse_sum += 1.0 / judged.accuracy.max(1.0);
    }
    let weighted_mean = weighted / total_weight;
    let harmonic_mean = moves.len() as f64 / inverse_sum;
    Some((weighted_mean + harmonic_mean) / 2.0)
}

/// One weight per move (`win_percents.len() - 1` of them): the standard
/// deviation of the window of positions ending at the move's position
/// after, the first moves sharing the first window (lichess's scheme).
fn volatility_weights(win_percents: &[f64]) -> Vec<f64> {
    let moves = win_percents.len() - 1;
    let size = (moves / 10).clamp(2, 8).min(win_percents.len());
    let first = &win_percents[..size];
    let mut windows: Vec<&[f64]> = vec![first; size.saturating_sub(2)];
    windows.extend(win_percents.windows(size));
    windows
        .iter()
        .take(moves)
        .map(|window| standard_deviation(window).clamp(0.5, 12.0))
        .collect()
}

/// The population standard deviation.
fn standard_deviation(values: &[f64]) -> f64 {
    let count = values.len() as f64;
    let mean = values.iter().sum::<f64>() / count;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / count;
    variance.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(mark_for_drop(0.0), None);
        assert_eq!(mark_for_drop(4.99), None);
        assert_eq!(mark_for_drop(5.0), Some(Mark::Inaccuracy));
        assert_eq!(mark_for_drop(9.99), Some(Mark::Inaccuracy));
        assert_eq!(mark_for_drop(10.0), Some(Mark::Mistake));
        assert_eq!(mark_for_drop(14.99), Some(Mark::Mistake));
        assert_eq!(mark_for_drop(15.0), Some(Mark::Blunder));
        assert_eq!(mark_for_drop(100.0), Some(Mark::Blunder));
    }

    #[test]
    fn drops_are_in_steps_of_the_model() {
        let (south, north) = (Player::South, Player::North);
        for (before, after) in [(300, 301), (300, 250), (1234, -77), (-5000, 20)] {
            let (before, after) = (
                Evaluation::Centipoints(before),
                Evaluation::Centipoints(after),
            );
            for mover in [south, north] {
                let drop = chances_drop(before, after, mover);
                assert!(drop >= 0.0 && (drop * 20.0).fract() == 0.0, "{drop}");
                // A drop above 0 shows as at least 0.1 (one decimal).
                assert!(drop == 0.0 || (drop * 10.0).round() >= 1.0, "{drop}");
            }
        }
        let win = Evaluation::Win {
            winner: south,
            moves: 8,
        };
        let sooner = Evaluation::Win {
            winner: south,
            moves: 3,
        };
        assert_eq!(chances_drop(win, sooner, south), 0.0);
        assert_eq!(chances_drop(sooner, win, south), 0.0);
        assert_eq!(chances_drop(win, Evaluation::Draw, south), 50.0);
    }

    #[test]
    fn a_decided_game_kept_so_is_at_most_an_inaccuracy() {
        let (south, north) = (Player::South, Player::North);
        let south_wins = Evaluation::Win {
            winner: south,
            moves: 4,
        };
        let north_wins = Evaluation::Win {
            winner: north,
            moves: 4,
        };
        let judged = |before: Evaluation, after: Evaluation, mover: Player| {
            mark_for_move(before, after, mover, chances_drop(before, after, mover))
        };
        // North at +31.33 walks into a forced loss: lost before and after
        // (`13... i9i8w??` in an old review): no mark.
        let far_behind = Evaluation::Centipoints(3133);
        assert!(far_behind.win_percent(north) < 5.0);
        assert_eq!(judged(far_behind, south_wins, north), None);
        // From about 9% it drops enough for an inaccuracy, no more.
        let behind = Evaluation::Centipoints(2100);
        assert!((5.0..=DECIDED_CHANCES).contains(&behind.win_percent(north)));
        assert_eq!(judged(behind, south_wins, north), Some(Mark::Inaccuracy));
        // Whatever the drop, a lost game kept lost or a won one kept won
        // is at most `?!`.
        for drop in [10.0, 15.0, 60.0] {
            assert_eq!(
                mark_for_move(behind, south_wins, north, drop),
                Some(Mark::Inaccuracy)
            );
            assert_eq!(
                mark_for_move(south_wins, Evaluation::Centipoints(5000), south, drop),
                Some(Mark::Inaccuracy)
            );
        }
        // A forced win given up for a game still won: no mark.
        assert_eq!(
            judged(south_wins, Evaluation::Centipoints(5000), south),
            None
        );
        // A win or an open game turned into a loss, or a win into a draw:
        // a blunder.
        assert_eq!(judged(south_wins, north_wins, south), Some(Mark::Blunder));
        let level = Evaluation::Centipoints(0);
        assert_eq!(judged(level, north_wins, south), Some(Mark::Blunder));
        assert_eq!(
            judged(south_wins, Evaluation::Draw, south),
            Some(Mark::Blunder)
        );
        // A win into a game still well ahead: by the drop.
        let ahead = Evaluation::Centipoints(1800);
        let drop = chances_drop(south_wins, ahead, south);
        assert_eq!(judged(south_wins, ahead, south), mark_for_drop(drop));
        assert!((MISTAKE_DROP..BLUNDER_DROP).contains(&drop), "{drop}");
    }

    #[test]
    fn move_accuracy_is_lichess_formula() {
        assert!((move_accuracy(0.0) - 99.9999).abs() < 1e-3);
        assert_eq!(move_accuracy(-5.0), move_accuracy(0.0));
        // 103.1668 e^(-0.4354) - 3.1669
        assert!((move_accuracy(10.0) - 63.5826).abs() < 1e-3);
        assert!((move_accuracy(30.0) - 24.7756).abs() < 1e-3);
        assert_eq!(move_accuracy(100.0), 0.0);
        let mut previous = 101.0;
        for drop in 0..=100 {
            let accuracy = move_accuracy(f64::from(drop));
            assert!((0.0..=100.0).contains(&accuracy) && accuracy <= previous);
            previous = accuracy;
        }
    }

    #[test]
    fn game_accuracy_means_weighted_and_harmonic() {
        // Two moves in a flat game: every weight is the floor 0.5, so the
        // weighted mean is the plain mean.
        let flat = [50.0, 50.0, 50.0];
        let moves = [
            JudgedMove {
                index: 0,
                accuracy: 100.0,
            },
            JudgedMove {
                index: 1,
                accuracy: 50.0,
            },
        ];
        let harmonic = 2.0 / (1.0 / 100.0 + 1.0 / 50.0);
        let expected = (75.0 + harmonic) / 2.0;
        assert!((game_accuracy(&flat, &moves).unwrap() - expected).abs() < 1e-9);
        assert_eq!(game_accuracy(&flat, &[]), None);
        // A zero counts as one in the harmonic mean.
        let zero = [JudgedMove {
            index: 0,
            accuracy: 0.0,
        }];
        assert!((game_accuracy(&flat, &zero).unwrap() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn volatile_stretches_weigh_more() {
        // 21 positions: windows of 2; the swing between positions 10 and
        // 11 weighs its move 12 (clamped), the quiet ones 0.5.
        let mut wins = vec![50.0; 21];
        for win in wins.iter_mut().skip(11) {
            *win = 90.0;
        }
        let weights = volatility_weights(&wins);
        assert_eq!(weights.len(), 20);
        assert_eq!(weights[10], 12.0);
        assert_eq!(weights[3], 0.5);
        // A bad move in the swing costs more than one in the quiet.
        let judged = |bad: usize| -> Vec<JudgedMove> {
            (0..20)
                .map(|index| JudgedMove {
                    index,
                    accuracy: if index == bad { 20.0 } else { 100.0 },
                })
                .collect()
        };
        let in_swing = game_accuracy(&wins, &judged(10)).unwrap();
        let in_quiet = game_accuracy(&wins, &judged(3)).unwrap();
        assert!(in_swing < in_quiet, "{in_swing} {in_quiet}");
        // Short games still get a weight per move.
        assert_eq!(volatility_weights(&[50.0, 60.0]).len(), 1);
        assert_eq!(volatility_weights(&[50.0, 60.0, 40.0]).len(), 2);
    }
}
