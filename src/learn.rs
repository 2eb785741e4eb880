//! The course of the board's Learn mode: lessons as data, checked by the
//! rules core.
//!
//! The course is one JSON file, `src/learn/lessons.json`, embedded in
//! the binary ([`LESSONS_JSON`]) and copied to the static site's top as
//! `lessons.json`; the page reads it and drives the board with it
//! (docs/learn.md describes the format and the course). A lesson is a few
//! steps; a step is a position under some rule options, a sentence or two
//! in English and in Malay, and a task: the moves that complete it
//! (`accept`) and explained wrong tries (`wrong`).
//!
//! [`Course::check`] holds every step to the rules: the options and the
//! position parse, each accepted move is legal and written in full as the
//! engine writes it, and where the step states its task as a [`Goal`],
//! `accept` is exactly the set of legal moves that meet it (every move
//! that completes the task, and no other); each wrong try is refused
//! (illegal, or legal but not accepted) and explained in both languages.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::bitboard::Square;
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::notation::{
    MoveError, PositionError, canonical_move, format_position, parse_move, parse_position,
};
use crate::outcome::Status;
use crate::position::{Player, Position};
use crate::rules::{OptionSpelling, Rules, RulesError, rules_from};

/// The course as shipped: `src/learn/lessons.json`.
pub const LESSONS_JSON: &str = include_str!("learn/lessons.json");

/// Most positions a [`Goal::forced_win`] proof may visit: the endgames of
/// a lesson are a handful of stones.
const PROOF_NODES: u64 = 2_000_000;

/// The whole course, in the order the page lists it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Course {
    /// The lessons, first to last.
    pub lessons: Vec<Lesson>,
}

/// One lesson: a title and a few steps.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The lesson's name in addresses (`?mode=learn&lesson=ID`) and in
    /// the browser's progress: lower-case letters, digits and `-`.
    pub id: String,
    /// Its title.
    pub title: Text,
    /// Its steps, in order.
    pub steps: Vec<Step>,
}

/// A text in both of the page's languages.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// English.
    pub en: String,
    /// Malay (standard Bahasa Melayu).
    pub ms: String,
}

/// One step: a position, words, and a task done by one move.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Rule options by protocol name (`Ka Entry`) with protocol values
    /// (`jump`); the ones left out keep their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// The position, as `position fen` takes it.
    pub position: String,
    /// What the step says and asks.
    pub text: Text,
    /// Every move that completes the task, written in full.
    pub accept: Vec<String>,
    /// Wrong tries, each with the reason it is refused.
    #[serde(default)]
    pub wrong: Vec<Wrong>,
    /// Points the page marks for the task.
    #[serde(default)]
    pub highlight: Vec<String>,
    /// Said once the task is done.
    #[serde(default)]
    pub right: Option<Text>,
    /// The task as a rule the check applies to every legal move.
    #[serde(default)]
    pub goal: Goal,
}

/// A wrong try and why it is refused.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wrong {
    /// The move, written in full (it may be one the rules forbid).
    #[serde(rename = "move")]
    pub mv: String,
    /// The reason, in a player's words.
    pub why: Text,
}

/// A step's task as a rule over moves: the legal moves that meet every
/// part given are the ones that complete it, and `accept` must list
/// exactly those. A goal with no part given is met by every legal move.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// The move lands on this point (a ka move or an entry).
    #[serde(default)]
    pub to: Option<String>,
    /// The move captures (at least) these points.
    #[serde(default)]
    pub takes: Vec<String>,
    /// The move ends the game at once, won by its mover.
    #[serde(default)]
    pub wins: bool,
    /// After every reply the mover still has a move (or the game is over
    /// and not lost): the ka is not shut in.
    #[serde(default)]
    pub safe: bool,
    /// The mover wins against every defence (a proof to the game's end).
    #[serde(default)]
    pub forced_win: bool,
    /// Of the moves meeting the other parts, those that score the most.
    #[serde(default)]
    pub most_points: bool,
}

/// What is wrong with a course.
#[derive(Debug, thiserror::Error)]
pub enum CourseError {
    /// The file is not the course's JSON.
    #[error("lessons file: {0}")]
    Json(#[from] serde_json::Error),
    /// A lesson's id is empty, not URL-safe or used twice.
    #[error("lesson id '{0}': ids are lower-case letters, digits and '-', each used once")]
    Id(String),
    /// A lesson with no step.
    #[error("lesson '{0}' has no step")]
    NoSteps(String),
    /// A lesson's title is missing a language.
    #[error("lesson '{lesson}', title: {problem}")]
    Title {
        /// The lesson's id.
        lesson: String,
        /// What is wrong.
        problem: TextProblem,
    },
    /// A step breaks a rule.
    #[error("lesson '{lesson}', step {step}: {problem}")]
    Step {
        /// The lesson's id.
        lesson: String,
        /// The step, from 0.
        step: usize,
        /// What is wrong.
        problem: StepProblem,
    },
}

/// What is wrong with a text.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum TextProblem {
    /// A language left empty.
    #[error("the {0} text is empty")]
    Empty(&'static str),
    /// The same words in both languages: not translated.
    #[error("the Malay text is the English one: '{0}'")]
    Untranslated(String),
}

/// What is wrong with one step.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum StepProblem {
    /// An option the protocol does not have, or a value it does not take.
    #[error(transparent)]
    Rules(RulesError),
    /// The position does not parse or cannot occur.
    #[error("position: {0}")]
    Position(PositionError),
    /// A position not written as the engine writes it (the page knows
    /// its step's position on the board by the engine's text).
    #[error("the position is written '{0}' by the engine")]
    PositionNotInFull(String),
    /// The position has no legal move: there is nothing to do.
    #[error("the position has no legal move")]
    NoMove,
    /// A text of the step.
    #[error("{field}: {problem}")]
    Text {
        /// Which text.
        field: String,
        /// What is wrong.
        problem: TextProblem,
    },
    /// A point name that is not a point.
    #[error("'{0}' is not a point a1-k11")]
    Point(String),
    /// No accepted move.
    #[error("accept is empty")]
    NoAccept,
    /// A move listed twice.
    #[error("'{0}' is listed twice")]
    Twice(String),
    /// An accepted move the rules refuse.
    #[error("accepted move: {0}")]
    Illegal(MoveError),
    /// A move not written as the engine writes it.
    #[error("'{given}' is written '{full}' by the engine")]
    NotInFull {
        /// The move as listed.
        given: String,
        /// The move as the engine writes it.
        full: String,
    },
    /// `accept` is not the set of moves that meet the goal.
    #[error(
        "accept should be the moves that complete the task: missing {missing:?}, extra {extra:?}"
    )]
    AcceptDiffers {
        /// Moves that meet the goal and are not accepted.
        missing: Vec<String>,
        /// Accepted moves that do not meet it.
        extra: Vec<String>,
    },
    /// A wrong try that is accepted.
    #[error("wrong try '{0}' is also accepted")]
    WrongAccepted(String),
    /// A wrong try that is not a move in the notation at all.
    #[error("wrong try: {0}")]
    WrongMalformed(MoveError),
    /// A proof that would not end within its bound.
    #[error("the forced-win proof needs more than {PROOF_NODES} positions")]
    ProofTooLarge,
}

impl Course {
    /// The course shipped with the board.
    pub fn shipped() -> Result<Course, CourseError> {
        Course::parse(LESSONS_JSON)
    }

    /// A course from its JSON text.
    pub fn parse(text: &str) -> Result<Course, CourseError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The number of steps of all lessons.
    pub fn step_count(&self) -> usize {
        self.lessons.iter().map(|lesson| lesson.steps.len()).sum()
    }

    /// Every problem of the course (none when it holds to the rules).
    pub fn check(&self) -> Vec<CourseError> {
        let mut problems = Vec::new();
        let mut ids = BTreeSet::new();
        for lesson in &self.lessons {
            let id_ok = !lesson.id.is_empty()
                && lesson
                    .id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !id_ok || !ids.insert(lesson.id.as_str()) {
                problems.push(CourseError::Id(lesson.id.clone()));
            }
            if let Err(problem) = lesson.title.check() {
                problems.push(CourseError::Title {
                    lesson: lesson.id.clone(),
                    problem,
                });
            }
            if lesson.steps.is_empty() {
                problems.push(CourseError::NoSteps(lesson.id.clone()));
            }
            for (index, step) in lesson.steps.iter().enumerate() {
                problems.extend(step.check().into_iter().map(|problem| CourseError::Step {
                    lesson: lesson.id.clone(),
                    step: index,
                    problem,
                }));
            }
        }
        problems
    }
}

impl Text {
    /// Both languages given, and not the same words.
    pub fn check(&self) -> Result<(), TextProblem> {
        if self.en.trim().is_empty() {
            return Err(TextProblem::Empty("English"));
        }
        if self.ms.trim().is_empty() {
            return Err(TextProblem::Empty("Malay"));
        }
        if self.en.trim() == self.ms.trim() {
            return Err(TextProblem::Untranslated(self.en.clone()));
        }
        Ok(())
    }
}

impl Step {
    /// The step's rules: the defaults with its options set.
    pub fn rules(&self) -> Result<Rules, StepProblem> {
        rules_from(&self.options, OptionSpelling::Name).map_err(StepProblem::Rules)
    }

    /// The step's position.
    pub fn start(&self) -> Result<Position, StepProblem> {
        parse_position(&self.position).map_err(StepProblem::Position)
    }

    /// Every problem of the step.
    pub fn check(&self) -> Vec<StepProblem> {
        let mut problems = Vec::new();
        let texts = std::iter::once(("text".to_string(), &self.text))
            .chain(self.right.iter().map(|right| ("right".to_string(), right)))
            .chain(
                self.wrong
                    .iter()
                    .map(|wrong| (format!("why of '{}'", wrong.mv), &wrong.why)),
            );
        for (field, text) in texts {
            if let Err(problem) = text.check() {
                problems.push(StepProblem::Text { field, problem });
            }
        }
        for name in self
            .highlight
            .iter()
            .chain(&self.goal.takes)
            .chain(&self.goal.to)
        {
            if point(name).is_none() {
                problems.push(StepProblem::Point(name.clone()));
            }
        }
        let (rules, position) = match (self.rules(), self.start()) {
            (Ok(rules), Ok(position)) => (rules, position),
            (rules, position) => {
                problems.extend(rules.err());
                problems.extend(position.err());
                return problems;
            }
        };
        if format_position(&position) != self.position {
            problems.push(StepProblem::PositionNotInFull(format_position(&position)));
        }
        if legal_moves(&position, &rules).is_empty() {
            problems.push(StepProblem::NoMove);
            return problems;
        }
        problems.extend(self.check_accept(&position, &rules));
        problems.extend(self.check_wrong(&position, &rules));
        problems
    }

    /// Each accepted move legal, in full, once; with a goal, exactly the
    /// moves that meet it.
    fn check_accept(&self, position: &Position, rules: &Rules) -> Vec<StepProblem> {
        let mut problems = Vec::new();
        if self.accept.is_empty() {
            problems.push(StepProblem::NoAccept);
        }
        let mut accepted = BTreeSet::new();
        for text in &self.accept {
            match parse_move(position, rules, text) {
                Ok(mv) if mv.to_string() != *text => problems.push(StepProblem::NotInFull {
                    given: text.clone(),
                    full: mv.to_string(),
                }),
                Ok(_) => {}
                Err(error) => problems.push(StepProblem::Illegal(error)),
            }
            if !accepted.insert(text.clone()) {
                problems.push(StepProblem::Twice(text.clone()));
            }
        }
        match self.goal.moves(position, rules) {
            Ok(completing) => {
                let completing: BTreeSet<String> =
                    completing.iter().map(ToString::to_string).collect();
                if completing != accepted {
                    problems.push(StepProblem::AcceptDiffers {
                        missing: completing.difference(&accepted).cloned().collect(),
                        extra: accepted.difference(&completing).cloned().collect(),
                    });
                }
            }
            Err(problem) => problems.push(problem),
        }
        problems
    }

    /// Each wrong try a move in the notation, once, not accepted, and
    /// written in full: as the engine writes it if legal, in its
    /// canonical form if the rules forbid it.
    fn check_wrong(&self, position: &Position, rules: &Rules) -> Vec<StepProblem> {
        let mut problems = Vec::new();
        let mut seen = BTreeSet::new();
        for wrong in &self.wrong {
            let text = &wrong.mv;
            if !seen.insert(text.as_str()) {
                problems.push(StepProblem::Twice(text.clone()));
            }
            if self.accept.contains(text) {
                problems.push(StepProblem::WrongAccepted(text.clone()));
            }
            let full = match parse_move(position, rules, text) {
                Ok(mv) => mv.to_string(),
                Err(error @ MoveError::Malformed { .. }) => {
                    problems.push(StepProblem::WrongMalformed(error));
                    continue;
                }
                Err(MoveError::Illegal { .. }) => match canonical_move(text) {
                    Ok(canonical) => canonical,
                    Err(error) => {
                        problems.push(StepProblem::WrongMalformed(error));
                        continue;
                    }
                },
            };
            if full != *text {
                problems.push(StepProblem::NotInFull {
                    given: text.clone(),
                    full,
                });
            }
        }
        problems
    }
}

impl Goal {
    /// The legal moves of `position` that meet the goal.
    pub fn moves(&self, position: &Position, rules: &Rules) -> Result<Vec<Move>, StepProblem> {
        let to = self.to.as_deref().map(point);
        let takes: Vec<Option<Square>> = self.takes.iter().map(|name| point(name)).collect();
        let mover = position.side_to_move();
        let mut nodes = 0;
        let mut meeting = Vec::new();
        for &mv in legal_moves(position, rules).iter() {
            if let Some(to) = to
                && (mv.is_passage() || Some(mv.to()) != to)
            {
                continue;
            }
            let taken = position.capture(mv).points_taken();
            if !takes
                .iter()
                .all(|point| point.is_some_and(|p| taken.contains(p)))
            {
                continue;
            }
            let after = position.play(mv);
            if self.wins && !won_by(Status::of(&after, rules), mover) {
                continue;
            }
            if self.safe && !keeps_a_move(&after, rules, mover) {
                continue;
            }
            if self.forced_win && prove(&after, rules, &mut nodes)? != Value::Loss {
                continue;
            }
            meeting.push(mv);
        }
        if self.most_points {
            let points = |mv: &Move| position.capture(*mv).points();
            let best = meeting.iter().map(points).max().unwrap_or(0);
            meeting.retain(|mv| points(mv) == best);
        }
        Ok(meeting)
    }
}

/// The point called `name` (`c4`), if it is one.
fn point(name: &str) -> Option<Square> {
    Square::all().find(|square| square.to_string() == name)
}

/// Whether `status` is a game over that `player` won.
fn won_by(status: Status, player: Player) -> bool {
    matches!(status, Status::Over { winner: Some(winner), .. } if winner == player)
}

/// Whether, after every reply in `position` (the opponent of `mover` to
/// move), `mover` can still move or the game is over and not lost.
fn keeps_a_move(position: &Position, rules: &Rules, mover: Player) -> bool {
    if let Status::Over { winner, .. } = Status::of(position, rules) {
        return winner != Some(mover.opponent());
    }
    legal_moves(position, rules).iter().all(|&reply| {
        match Status::of(&position.play(reply), rules) {
            Status::InPlay => true,
            Status::Over { winner, .. } => winner != Some(mover.opponent()),
        }
    })
}

/// A position's value for its side to move under perfect play.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd)]
enum Value {
    Loss,
    Draw,
    Win,
}

/// The value of `position` to the side to move, searched to the game's
/// end (the lessons' endgames are tiny); `nodes` counts the positions
/// visited against [`PROOF_NODES`].
fn prove(position: &Position, rules: &Rules, nodes: &mut u64) -> Result<Value, StepProblem> {
    *nodes += 1;
    if *nodes > PROOF_NODES {
        return Err(StepProblem::ProofTooLarge);
    }
    if let Status::Over { winner, .. } = Status::of(position, rules) {
        return Ok(match winner {
            None => Value::Draw,
            Some(winner) if winner == position.side_to_move() => Value::Win,
            Some(_) => Value::Loss,
        });
    }
    let mut best = Value::Loss;
    for &mv in legal_moves(position, rules).iter() {
        let value = match prove(&position.play(mv), rules, nodes)? {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        };
        best = best.max(value);
        if best == Value::Win {
            break;
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-step course around `step` (its JSON object).
    fn course(step: &str) -> Course {
        Course::parse(&format!(
            r#"{{"lessons": [{{"id": "x", "title": {{"en": "Test", "ms": "Ujian"}}, "steps": [{step}]}}]}}"#
        ))
        .unwrap()
    }

    const START: &str = "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/wwwwwbwbbbb/wwwwbbwwbbb/wwwbbbwwwbb/wwbbbbwwwwb/wbbbbbwwwww s 0 0 --";

    fn step(accept: &str, wrong: &str, goal: &str) -> String {
        format!(
            r#"{{"position": "{START}", "text": {{"en": "Take a column.", "ms": "Ambil satu lajur."}},
                "accept": {accept}, "wrong": {wrong}, "goal": {goal}}}"#
        )
    }

    #[test]
    fn a_sound_step_passes() {
        let sound = course(&step(
            r#"["a", "g"]"#,
            r#"[{"move": "f", "why": {"en": "Only five points.", "ms": "Hanya lima mata."}}]"#,
            r#"{"most_points": true}"#,
        ));
        assert!(sound.check().is_empty(), "{:?}", sound.check());
    }

    #[test]
    fn each_broken_rule_is_found() {
        let why = r#"{"en": "No.", "ms": "Tidak."}"#;
        for (accept, wrong, goal, expected) in [
            // A move missing from accept, and one too many.
            (
                r#"["a"]"#,
                "[]",
                r#"{"most_points": true}"#,
                "missing [\"g\"]",
            ),
            (
                r#"["a", "g", "b"]"#,
                "[]",
                r#"{"most_points": true}"#,
                "extra [\"b\"]",
            ),
            // Without a goal every legal move completes the task.
            (r#"["a"]"#, "[]", "{}", "missing"),
            // Illegal, not in full, malformed.
            (r#"["b4c4n"]"#, "[]", r#"{"to": "c4"}"#, "illegal move"),
            (
                r#"["A", "g"]"#,
                "[]",
                r#"{"most_points": true}"#,
                "written 'a'",
            ),
            (
                r#"["a", "g"]"#,
                &format!(r#"[{{"move": "zz", "why": {why}}}]"#),
                r#"{"most_points": true}"#,
                "malformed",
            ),
            // A wrong try that is accepted.
            (
                r#"["a", "g"]"#,
                &format!(r#"[{{"move": "a", "why": {why}}}]"#),
                r#"{"most_points": true}"#,
                "also accepted",
            ),
            // Not translated.
            (
                r#"["a", "g"]"#,
                r#"[{"move": "f", "why": {"en": "Five.", "ms": "Five."}}]"#,
                r#"{"most_points": true}"#,
                "Malay text is the English",
            ),
        ] {
            let problems = course(&step(accept, wrong, goal)).check();
            assert!(
                problems
                    .iter()
                    .any(|problem| problem.to_string().contains(expected)),
                "{accept} {wrong} {goal}: {problems:?}"
            );
        }
    }

    #[test]
    fn options_and_positions_are_checked() {
        let bad_option = course(&format!(
            r#"{{"options": {{"Ka Entry": "hop"}}, "position": "{START}", "text": {{"en": "a", "ms": "b"}}, "accept": ["a"]}}"#
        ));
        assert!(
            bad_option.check()[0]
                .to_string()
                .contains("slide, jump or both")
        );
        let bad_position =
            course(r#"{"position": "nonsense", "text": {"en": "a", "ms": "b"}, "accept": ["a"]}"#);
        assert!(bad_position.check()[0].to_string().contains("position"));
    }

    #[test]
    fn a_forced_win_is_proved() {
        // Four stones left, South 87-85: only the ka that takes f5 from j5
        // and so blocks North's ka on column j wins; the others let North
        // shut South's ka in (suntuk).
        let endgame = ".........../.........../.........../..b......../..b......N./.....+...../.....b...../.........../..w......../.........../.........S. s 87 85 dk";
        let position = parse_position(endgame).unwrap();
        let goal = Goal {
            forced_win: true,
            ..Goal::default()
        };
        let moves: Vec<String> = goal
            .moves(&position, &Rules::default())
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(moves, ["j1j5w"]);
    }
}
