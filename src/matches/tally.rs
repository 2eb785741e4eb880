//! The running score of a match from the first engine's view, the
//! forfeits charged to each engine, and the report lines made from them.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::referee::PlayedGame;
use super::statistics::{Decision, Sprt, elo, likelihood_of_superiority, pentanomial_elo};
use crate::position::Player;
use crate::record::Termination;

/// Counts of a match so far.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the first engine lost.
    pub losses: u64,
    /// Results by seat: South wins, draws, North wins.
    pub by_seat: [u64; 3],
    /// Forfeits per engine (first, second), in the order of
    /// [`Termination::FORFEITS`].
    pub forfeits: [[u64; 4]; 2],
    /// Games ended by the rules: on points, by suntuk.
    pub rule_ends: [u64; 2],
    /// Complete game pairs by the first engine's points over both games:
    /// 0, 1/2, 1, 3/2, 2 (the pentanomial counts).
    pub pairs: [u64; 5],
    /// Pairs with one game counted: the first engine's half-points in it.
    unpaired: HashMap<u64, usize>,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's points (a win 1, a draw 1/2).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Counts a game of pair `pair` in which the first engine sat South
    /// when `first_is_south`.
    pub fn add(&mut self, result: &PlayedGame, first_is_south: bool, pair: u64) {
        self.count(result.winner, result.termination, first_is_south, pair);
    }

    /// Counts a game by its winner (`None`: a draw) and how it ended, as
    /// [`Tally::add`] does; merged records are counted this way.
    pub fn count(
        &mut self,
        winner: Option<Player>,
        termination: Termination,
        first_is_south: bool,
        pair: u64,
    ) {
        let first_seat = if first_is_south {
            Player::South
        } else {
            Player::North
        };
        let half_points = match winner {
            None => {
                self.draws += 1;
                self.by_seat[1] += 1;
                1
            }
            Some(winner) => {
                self.by_seat[if winner == Player::South { 0 } else { 2 }] += 1;
                if winner == first_seat {
                    self.wins += 1;
                    2
                } else {
                    self.losses += 1;
                    0
                }
            }
        };
        // Games finish out of order with several workers: a pair counts
        // once both of its games have.
        match self.unpaired.remove(&pair) {
            Some(other) => self.pairs[other + half_points] += 1,
            None => {
                self.unpaired.insert(pair, half_points);
            }
        }
        match termination {
            Termination::Score => self.rule_ends[0] += 1,
            Termination::Suntuk => self.rule_ends[1] += 1,
            forfeit => {
                // The loser committed the forfeit.
                let loser_is_first = winner != Some(first_seat);
                let engine = usize::from(!loser_is_first);
                if let Some(kind) = Termination::FORFEITS.iter().position(|t| *t == forfeit) {
                    self.forfeits[engine][kind] += 1;
                }
            }
        }
    }

    /// The SPRT's LLR and decision so far, over the complete pairs (the
    /// pentanomial test, as fishtest runs it for paired games).
    pub fn sprt(&self, sprt: &Sprt) -> (f64, Decision) {
        let llr = sprt.pentanomial_llr(&self.pairs);
        (llr, sprt.decide(llr))
    }

    /// One progress line: games, W-D-L, points, Elo ± 95% and the LLR.
    pub fn status_line(&self, total: Option<u64>, sprt: Option<&Sprt>) -> String {
        let mut line = match total {
            Some(total) => format!("Games {}/{total}", self.games()),
            None => format!("Games {}", self.games()),
        };
        let _ = write!(
            line,
            ", W-D-L {}-{}-{}, points {:.1} ({})",
            self.wins,
            self.draws,
            self.losses,
            self.points(),
            self.percentage()
        );
        if let Some(estimate) = elo(self.wins, self.draws, self.losses) {
            let _ = write!(line, ", Elo {estimate}");
        }
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let (llr, _) = self.sprt(sprt);
            let _ = write!(line, ", LLR {llr:.2} ({lower:.2}, {upper:.2})");
        }
        line
    }

    fn percentage(&self) -> String {
        if self.games() == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * self.points() / self.games() as f64)
        }
    }

    /// The final summary, several lines.
    pub fn summary(&self, names: [&str; 2], heading: &str, sprt: Option<&Sprt>) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "Results of {} vs {} ({heading}):", names[0], names[1]);
        let _ = writeln!(
            text,
            "Games: {}, Wins: {}, Draws: {}, Losses: {}, Points: {:.1} ({})",
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            self.points(),
            self.percentage()
        );
        match elo(self.wins, self.draws, self.losses) {
            Some(estimate) => {
                let los = likelihood_of_superiority(self.wins, self.losses)
                    .map_or("-".to_string(), |p| format!("{:.1}%", 100.0 * p));
                let _ = writeln!(
                    text,
                    "Elo: {estimate} ({}), LOS: {los}, DrawRatio: {:.1}%",
                    estimate.kind(),
                    100.0 * self.draws as f64 / self.games() as f64
                );
            }
            None => {
                let _ = writeln!(text, "Elo: - (no games)");
            }
        }
        if let Some(estimate) = pentanomial_elo(&self.pairs) {
            let [zero, half, one, one_and_half, two] = self.pairs;
            let _ = write!(
                text,
                "Pairs scoring 0/0.5/1/1.5/2: {zero}/{half}/{one}/{one_and_half}/{two}, \
                 Elo {estimate} ({}, pentanomial)",
                estimate.kind()
            );
            if !self.unpaired.is_empty() {
                let _ = write!(text, "; {} unpaired games left out", self.unpaired.len());
            }
            text.push('\n');
        }
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let (llr, decision) = self.sprt(sprt);
            let _ = writeln!(
                text,
                "SPRT ({sprt}): LLR {llr:.2} ({lower:.2}, {upper:.2}): {decision}"
            );
        }
        let _ = writeln!(
            text,
            "By seat: South won {}, drawn {}, North won {}",
            self.by_seat[0], self.by_seat[1], self.by_seat[2]
        );
        let _ = writeln!(
            text,
            "Ends by the rules: {} on points, {} suntuk",
            self.rule_ends[0], self.rule_ends[1]
        );
        for (engine, name) in names.iter().enumerate() {
            let counts: Vec<String> = Termination::FORFEITS
                .iter()
                .zip(self.forfeits[engine])
                .map(|(kind, count)| format!("{} {count}", kind.verdict()))
                .collect();
            let _ = writeln!(text, "Forfeits by {name}: {}", counts.join(", "));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(winner: Option<Player>, termination: Termination) -> PlayedGame {
        PlayedGame {
            winner,
            termination,
            detail: String::new(),
            scores: [0, 0],
            game: crate::record::Game::new(
                crate::rules::Rules::default(),
                crate::notation::start_position(crate::rules::Pattern::One),
            ),
            comments: Vec::new(),
        }
    }

    #[test]
    fn the_sprt_judges_complete_pairs() {
        let sprt = Sprt::parse("elo0=0 elo1=10").unwrap();
        let mut tally = Tally::default();
        // 40 pairs the first engine won both games of, and one pair half
        // played: the open pair does not count yet.
        for pair in 0..40 {
            tally.add(&result(Some(Player::South), Termination::Score), true, pair);
            tally.add(
                &result(Some(Player::North), Termination::Score),
                false,
                pair,
            );
        }
        tally.add(&result(Some(Player::North), Termination::Score), true, 40);
        let (llr, decision) = tally.sprt(&sprt);
        assert!((llr - sprt.pentanomial_llr(&[0, 0, 0, 0, 40])).abs() < 1e-12);
        assert_eq!(decision, Decision::Continue);
        let line = tally.status_line(None, Some(&sprt));
        assert!(line.ends_with("LLR 1.13 (-2.94, 2.94)"), "{line}");
    }

    #[test]
    fn results_count_from_the_first_engines_view() {
        let mut tally = Tally::default();
        tally.add(&result(Some(Player::South), Termination::Score), true, 0);
        tally.add(&result(Some(Player::South), Termination::Suntuk), false, 0);
        tally.add(&result(None, Termination::Score), true, 1);
        // The first engine, North, loses on time.
        tally.add(
            &result(Some(Player::South), Termination::TimeForfeit),
            false,
            1,
        );
        // The second engine, North, makes an illegal move.
        tally.add(
            &result(Some(Player::South), Termination::IllegalMove),
            true,
            2,
        );
        assert_eq!((tally.wins, tally.draws, tally.losses), (2, 1, 2));
        assert_eq!(tally.by_seat, [4, 1, 0]);
        assert_eq!(tally.rule_ends, [2, 1]);
        assert_eq!(tally.forfeits[0], [1, 0, 0, 0]);
        assert_eq!(tally.forfeits[1], [0, 1, 0, 0]);
        assert_eq!(tally.points(), 2.5);
        let line = tally.status_line(Some(10), None);
        assert!(
            line.starts_with("Games 5/10, W-D-L 2-1-2, points 2.5 (50.0%), Elo +0.0 ±"),
            "{line}"
        );
        let summary = tally.summary(["a", "b"], "depth=1", None);
        assert!(summary.contains("Forfeits by a: loses on time 1, makes an illegal move 0"));
        assert!(summary.contains("Forfeits by b: loses on time 0, makes an illegal move 1"));
        // Pair 0 split 1-1, pair 1 gave the first engine a draw and a
        // loss; pair 2 is still open.
        assert_eq!(tally.pairs, [0, 1, 1, 0, 0]);
        assert!(
            summary.contains("Pairs scoring 0/0.5/1/1.5/2: 0/1/1/0/0, Elo -88.7 ± "),
            "{summary}"
        );
        assert!(summary.contains("; 1 unpaired games left out"), "{summary}");
    }

    #[test]
    fn a_one_sided_match_prints_bounds_not_inf() {
        let mut tally = Tally::default();
        for game in 0..40 {
            let winner = if game % 2 == 0 {
                Player::South
            } else {
                Player::North
            };
            tally.add(
                &result(Some(winner), Termination::Suntuk),
                game % 2 == 0,
                game / 2,
            );
        }
        let summary = tally.summary(["full", "skill0"], "movetime=50", None);
        assert!(!summary.contains("inf"), "{summary}");
        assert!(
            summary.contains(
                "Games: 40, Wins: 40, Draws: 0, Losses: 0, Points: 40.0 (100.0%)\n\
                 Elo: > +406.0 (95% lower bound), LOS: 100.0%, DrawRatio: 0.0%\n\
                 Pairs scoring 0/0.5/1/1.5/2: 0/0/0/0/20, Elo > +277.4 (95% lower bound, pentanomial)\n"
            ),
            "{summary}"
        );
        let line = tally.status_line(None, None);
        assert!(line.ends_with(", Elo > +406.0"), "{line}");
    }

    #[test]
    fn pairs_count_whichever_game_finishes_first() {
        let mut tally = Tally::default();
        // Pair 1's second game finishes before its first, and pair 0's
        // games interleave with them.
        tally.add(&result(Some(Player::South), Termination::Score), false, 1);
        tally.add(&result(Some(Player::North), Termination::Score), true, 0);
        tally.add(&result(Some(Player::South), Termination::Score), true, 1);
        assert_eq!(tally.pairs, [0, 0, 1, 0, 0]);
        tally.add(&result(None, Termination::Score), false, 0);
        assert_eq!(tally.pairs, [0, 1, 1, 0, 0]);
        assert!(tally.unpaired.is_empty());
    }
}
