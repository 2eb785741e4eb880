//! The course of the board's Learn mode (`src/learn/lessons.json`),
//! held to the rules core: every step's options and position parse, every
//! accepted move is legal, in full, and exactly the moves that complete the
//! step's task; every wrong try is refused (illegal, or not accepted) and
//! explained in English and in Malay. And the course covers what a
//! newcomer needs: every phase and every rule option.

use std::collections::BTreeSet;

use pasang::learn::{Course, LESSONS_JSON};
use pasang::notation::{parse_move, parse_position};
use pasang::rules::RULE_OPTIONS;

fn course() -> Course {
    Course::shipped().unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn every_step_holds_to_the_rules() {
    let course = course();
    let problems: Vec<String> = course.check().iter().map(ToString::to_string).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        course.lessons.len() >= 8,
        "{} lessons",
        course.lessons.len()
    );
    assert!(course.step_count() >= 30, "{} steps", course.step_count());
    println!(
        "lessons.json: {} lessons, {} steps, {} wrong tries explained",
        course.lessons.len(),
        course.step_count(),
        course
            .lessons
            .iter()
            .flat_map(|lesson| &lesson.steps)
            .map(|step| step.wrong.len())
            .sum::<usize>()
    );
}

/// Every accepted move played through the rules core: legal, and after it
/// the position is the one the move leads to (the check does not merely
/// compare names).
#[test]
fn accepted_moves_play() {
    for lesson in course().lessons {
        for (index, step) in lesson.steps.iter().enumerate() {
            let rules = step.rules().unwrap();
            let position = parse_position(&step.position).unwrap();
            for text in &step.accept {
                let mv = parse_move(&position, &rules, text)
                    .unwrap_or_else(|e| panic!("{} step {index}: {e}", lesson.id));
                let after = position.play(mv);
                assert!(after.is_consistent(), "{} step {index}: {text}", lesson.id);
                assert_ne!(after.side_to_move(), position.side_to_move());
            }
            // A wrong try the rules forbid is refused by them; one they
            // allow is a move the step does not take.
            for wrong in &step.wrong {
                if parse_move(&position, &rules, &wrong.mv).is_ok() {
                    assert!(!step.accept.contains(&wrong.mv));
                }
            }
        }
    }
}

/// The course teaches the three phases for both sides, and every value of
/// every rule option other than the default.
#[test]
fn the_course_covers_the_game() {
    let course = course();
    let mut phases = BTreeSet::new();
    let mut options = BTreeSet::new();
    for step in course.lessons.iter().flat_map(|lesson| &lesson.steps) {
        let position = parse_position(&step.position).unwrap();
        phases.insert((
            format!("{:?}", position.side_to_move()),
            position.phase().number(),
        ));
        for (name, value) in &step.options {
            options.insert(format!("{name}={value}"));
        }
    }
    for side in ["South", "North"] {
        for phase in 1..=3 {
            assert!(
                phases.contains(&(side.to_string(), phase)),
                "no step for {side} in phase {phase}: {phases:?}"
            );
        }
    }
    for option in &RULE_OPTIONS {
        for value in option
            .values
            .iter()
            .filter(|value| **value != option.default)
        {
            let wanted = format!("{}={value}", option.name);
            assert!(options.contains(&wanted), "no step under {wanted}");
        }
    }
    // Ids are URL-safe and every lesson has words in both languages.
    for lesson in &course.lessons {
        assert!(
            lesson
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        );
    }
}

/// A course that breaks a rule is refused: the check can fail. One
/// accepted move of the shipped course swapped for an illegal one, and one
/// dropped, are both found.
#[test]
fn a_broken_course_is_refused() {
    let mut broken = course();
    let first = &mut broken.lessons[0].steps[0];
    first.accept[0] = "b4c4n".to_string();
    let problems: Vec<String> = broken.check().iter().map(ToString::to_string).collect();
    assert!(
        problems.iter().any(|p| p.contains("illegal move 'b4c4n'")),
        "{problems:?}"
    );

    let mut short = course();
    let step = short
        .lessons
        .iter_mut()
        .flat_map(|lesson| lesson.steps.iter_mut())
        .find(|step| step.accept.len() > 1)
        .expect("a step with several accepted moves");
    let dropped = step.accept.pop().unwrap();
    let problems: Vec<String> = short.check().iter().map(ToString::to_string).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("missing") && p.contains(&dropped)),
        "{problems:?}"
    );

    // Not JSON of the course's shape.
    assert!(Course::parse(&LESSONS_JSON.replace("\"accept\"", "\"acept\"")).is_err());
}
