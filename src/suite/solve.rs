//! Solving the suite with any engine over the protocol, at a fixed node
//! count, as chess engines are run through test suites: the engine
//! solves a position when its `bestmove` is one of the entry's solutions
//! (for a win, with the win proven: a `mate` score). The nodes to solve
//! are those of the first report from which every report holds a
//! solution.

use std::time::{Duration, Instant};

use crate::client::{ClientError, EngineProcess, EngineSpec, InfoLine, rule_settings};
use crate::protocol::{Command, EngineScore, GoParams, PositionBase, Reply, ReplyKind};

use super::{Entry, Half, Kind};

/// How long an engine may take to start, answer a ping or finish one
/// node-bounded search before it is given up.
const START_TIMEOUT: Duration = Duration::from_secs(30);
const SEARCH_TIMEOUT: Duration = Duration::from_secs(600);

/// Why a suite run stopped.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The engine failed to start, answer or stay alive.
    #[error("the engine: {0}")]
    Engine(#[from] ClientError),
    /// An entry's rules do not apply (the file was checked when read, so
    /// this is a caller's mistake).
    #[error("entry {0}: its rule options are not the engine's")]
    Rules(String),
}

/// What one search made of an entry.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Outcome {
    /// The engine's move.
    pub best: Option<String>,
    /// Whether it solved the entry.
    pub solved: bool,
    /// The nodes at which it found the solution for good (solved only).
    pub nodes_to_solve: Option<u64>,
}

/// Whether one report holds a solution of `entry`.
fn holds(entry: &Entry, info: &InfoLine) -> bool {
    let Some(first) = info.pv.first() else {
        return false;
    };
    let proven = match entry.kind {
        Kind::Avoid => true,
        Kind::Win => matches!(info.score, Some(EngineScore::Mate(moves)) if moves > 0),
    };
    proven && entry.solutions.contains(first)
}

/// Judges a search of `entry` by its reports (oldest first) and its
/// `bestmove`.
pub fn judge(entry: &Entry, replies: &[Reply], best: Option<&str>) -> Outcome {
    let mut since = None;
    let mut last = None;
    for reply in replies {
        let Reply::Info(info) = reply else { continue };
        if info.score.is_none() || info.pv.is_empty() || info.multipv.is_some_and(|line| line != 1)
        {
            continue;
        }
        if holds(entry, info) {
            since = since.or(info.nodes);
        } else {
            since = None;
        }
        last = Some(info);
    }
    let best_solves = best.is_some_and(|best| entry.solutions.iter().any(|mv| mv == best));
    let proven = match entry.kind {
        Kind::Avoid => true,
        Kind::Win => last
            .is_some_and(|info| matches!(info.score, Some(EngineScore::Mate(moves)) if moves > 0)),
    };
    let solved = best_solves && proven;
    Outcome {
        best: best.map(str::to_string),
        solved,
        nodes_to_solve: if solved {
            since.or(last.and_then(|info| info.nodes))
        } else {
            None
        },
    }
}

/// An engine process that solves entries one after another.
pub struct Solver {
    process: EngineProcess,
}

impl Solver {
    /// Starts the engine of `spec` and sends its options.
    pub fn start(spec: &EngineSpec) -> Result<Solver, SolveError> {
        let mut process = EngineProcess::spawn(spec)?;
        process.handshake(START_TIMEOUT)?;
        process.set_options(&spec.options)?;
        Ok(Solver { process })
    }

    /// Searches `entry` for `nodes` nodes from a new game and judges it.
    pub fn solve(&mut self, entry: &Entry, nodes: u64) -> Result<Outcome, SolveError> {
        let rules = entry
            .rules()
            .map_err(|_| SolveError::Rules(entry.id.clone()))?;
        for command in rule_settings(&rules) {
            self.process.send(&command)?;
        }
        self.process.send(&Command::UciNewGame)?;
        self.process.send(&Command::Position {
            base: PositionBase::Fen(entry.position.clone()),
            moves: Vec::new(),
        })?;
        self.process.ping(START_TIMEOUT)?;
        self.process.send(&Command::Go(GoParams {
            nodes: Some(nodes),
            ..GoParams::default()
        }))?;
        let answer = self
            .process
            .wait_for(ReplyKind::BestMove, Instant::now() + SEARCH_TIMEOUT)?;
        let best = answer.best_move().and_then(|best| best.best.clone());
        Ok(judge(entry, &answer.before, best.as_deref()))
    }

    /// Asks the engine to quit.
    pub fn quit(self) {
        self.process.quit(Duration::from_millis(500));
    }
}

/// Solved counts and nodes, for one part of a suite.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Tally {
    /// Entries searched.
    pub entries: u32,
    /// Entries solved.
    pub solved: u32,
    /// The sum of the nodes to solve over those solved.
    pub nodes: u64,
}

impl Tally {
    /// Counts one outcome.
    pub fn add(&mut self, outcome: &Outcome) {
        self.entries += 1;
        if outcome.solved {
            self.solved += 1;
            self.nodes += outcome.nodes_to_solve.unwrap_or(0);
        }
    }

    /// The mean nodes to solve (0 with none solved).
    pub fn mean_nodes(&self) -> u64 {
        self.nodes.checked_div(u64::from(self.solved)).unwrap_or(0)
    }

    /// `solved S of E (P%), mean nodes to solve M`.
    pub fn describe(&self) -> String {
        let percent = if self.entries == 0 {
            0.0
        } else {
            100.0 * f64::from(self.solved) / f64::from(self.entries)
        };
        format!(
            "solved {} of {} ({percent:.1}%), mean nodes to solve {}",
            self.solved,
            self.entries,
            self.mean_nodes()
        )
    }
}

/// The parts a run reports: every entry, each half, each kind.
pub fn part_names(entry: &Entry) -> [&'static str; 2] {
    [
        match entry.half {
            Half::Tune => "tune half",
            Half::Test => "held-out half",
        },
        match entry.kind {
            Kind::Avoid => "avoid a forced loss",
            Kind::Win => "find a forced win",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::options_of;

    fn entry(kind: Kind) -> Entry {
        Entry {
            id: "t:1:0".into(),
            half: Half::Test,
            kind,
            options: options_of(&crate::rules::Rules::default()),
            position: String::new(),
            line: String::new(),
            plies: 3,
            solutions: vec!["b4c4n".into()],
            traps: Vec::new(),
            suntuk: true,
        }
    }

    fn replies(lines: &[&str]) -> Vec<Reply> {
        lines
            .iter()
            .map(|line| Reply::parse(line).expect("a reply"))
            .collect()
    }

    #[test]
    fn an_avoid_entry_is_solved_by_a_solution_and_counts_its_nodes_from_the_last_change() {
        let entry = entry(Kind::Avoid);
        let replies = replies(&[
            "info depth 1 score cp 10 nodes 100 pv b4c4n",
            "info depth 2 score cp 20 nodes 300 pv d4c4s",
            "info depth 3 score cp 5 nodes 900 pv b4c4n",
            "info depth 4 score cp 7 nodes 2000 pv b4c4n",
        ]);
        let outcome = judge(&entry, &replies, Some("b4c4n"));
        assert!(outcome.solved);
        assert_eq!(outcome.nodes_to_solve, Some(900));
        let outcome = judge(&entry, &replies, Some("d4c4s"));
        assert!(!outcome.solved);
        assert_eq!(outcome.nodes_to_solve, None);
    }

    #[test]
    fn a_win_entry_needs_the_win_proven() {
        let entry = entry(Kind::Win);
        let unproven = replies(&["info depth 9 score cp 900 nodes 5000 pv b4c4n"]);
        assert!(!judge(&entry, &unproven, Some("b4c4n")).solved);
        let proven = replies(&[
            "info depth 9 score cp 900 nodes 5000 pv b4c4n",
            "info depth 10 score mate 4 nodes 8000 pv b4c4n",
        ]);
        let outcome = judge(&entry, &proven, Some("b4c4n"));
        assert!(outcome.solved);
        assert_eq!(outcome.nodes_to_solve, Some(8000));
    }

    #[test]
    fn tallies_give_the_share_and_mean_nodes() {
        let mut tally = Tally::default();
        for nodes in [Some(100), Some(300), None] {
            tally.add(&Outcome {
                best: None,
                solved: nodes.is_some(),
                nodes_to_solve: nodes,
            });
        }
        assert_eq!(
            tally.describe(),
            "solved 2 of 3 (66.7%), mean nodes to solve 200"
        );
    }
}
