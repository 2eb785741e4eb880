//! Learn mode in `pasang gui`, in headless Chromium: the course menu,
//! lessons completed by clicks and by typing, wrong tries refused with
//! their reasons while the step stays, progress kept and resumed; and the
//! typed move in play mode.

mod common;

use common::browser::{Browser, chromium_or_skip};

use std::time::Instant;

/// A running `pasang gui` on a free port, stopped when dropped.
use common::Gui as Server;

/// Learn mode at one viewport: the course menu, the first three lessons
/// completed (by clicks, and by typing in `#move-input`), wrong tries
/// refused with their reasons while the step stays, progress kept and
/// resumed; the typed move in play mode.
#[test]
fn lessons_and_typed_moves_in_a_real_browser() {
    lessons_and_typed_moves(
        "lessons_and_typed_moves_in_a_real_browser",
        (1280, 900, false),
    );
}

/// The same on a phone held upright (390 x 844). Run by hand:
/// `cargo test --release --test lessons -- --ignored lessons_on_a_phone`.
#[test]
#[ignore = "a second viewport; run by hand"]
fn lessons_on_a_phone() {
    lessons_and_typed_moves("lessons_on_a_phone", (390, 844, true));
}

fn lessons_and_typed_moves(name: &str, (width, height, mobile): (u32, u32, bool)) {
    let Some(binary) = chromium_or_skip(name) else {
        return;
    };
    let started = Instant::now();
    let course = pasang::learn::Course::shipped().unwrap();
    let server = Server::start();
    let mut browser = Browser::start(&binary);
    browser.viewport(width, height, mobile);
    let base = format!("http://{}/", server.address);
    // The menu lists every lesson.
    browser.open(&format!("{base}?mode=learn"));
    browser.wait_for(
        &format!(
            "document.querySelector('#lesson').dataset.state === 'menu' && document.querySelectorAll('#lesson-list [data-lesson-id]').length === {}",
            course.lessons.len()
        ),
        10,
    );
    // A lesson the course does not have is said; the menu stays.
    browser.open(&format!("{base}?mode=learn&lesson=nope"));
    browser.wait_for(
        "document.querySelector('#error').textContent.includes(\"There is no lesson 'nope'\") && document.querySelectorAll('#lesson-list [data-lesson-id]').length > 0",
        10,
    );
    let mut steps = 0;
    for (number, lesson) in course.lessons.iter().take(3).enumerate() {
        browser.open(&format!("{base}?mode=learn&lesson={}", lesson.id));
        for (index, step) in lesson.steps.iter().enumerate() {
            wait_for_task(&mut browser, &lesson.id, index);
            if number == 0 && index == 0 {
                wrong_tries_are_refused(&mut browser, step);
            }
            if number == 1 && index == 0 {
                // A stone two columns from the passage, clicked under
                // Ka Entry: slide: its listed reason, and the step stays.
                assert!(browser.click("[data-point=a4]"));
                let why = step.wrong.iter().find(|w| w.mv == "a4c4n").unwrap();
                browser.wait_for(
                    &format!(
                        "(document.querySelector('#lesson-feedback.wrong') || {{}}).textContent === {:?}",
                        why.why.en
                    ),
                    5,
                );
            }
            let mv = &step.accept[0];
            // The first lesson by clicks, the second typed, the third both.
            if number == 1 || (number == 2 && index % 2 == 1) {
                browser.type_and_enter("#move-input", mv);
            } else {
                browser.click_move(mv);
            }
            steps += 1;
        }
        browser.wait_going_on(
            &format!(
                "document.querySelector('#lesson').dataset.state === 'done' && document.querySelector('#lesson').dataset.lesson === {:?}",
                lesson.id
            ),
            10,
        );
        assert!(
            browser
                .text("#next-lesson")
                .contains(&course.lessons[number + 1].title.en),
            "{}",
            browser.text("#lesson")
        );
    }
    // Progress is kept: three lessons done; a lesson left after a step
    // resumes there from the menu.
    let fourth = &course.lessons[3];
    browser.open(&format!("{base}?mode=learn&lesson={}", fourth.id));
    wait_for_task(&mut browser, &fourth.id, 0);
    browser.type_and_enter("#move-input", &fourth.steps[0].accept[0]);
    wait_for_task(&mut browser, &fourth.id, 1);
    browser.open(&format!("{base}?mode=learn"));
    browser.wait_for(
        "document.querySelectorAll('#lesson-list .lesson-status.done').length === 3",
        10,
    );
    // The menu's link to the lesson left after a step goes back to that
    // step (followed with Page.navigate, as `open` does: a click's
    // navigation could end an evaluation halfway).
    let link = browser.eval(&format!(
        "document.querySelector('[data-lesson-id={:?}]').href",
        fourth.id
    ));
    let link = link.as_str().unwrap().to_string();
    assert!(link.ends_with("&step=1"), "{link}");
    browser.open(&link);
    wait_for_task(&mut browser, &fourth.id, 1);
    // In Malay the step speaks Malay.
    browser.eval(
        "(() => { const l = document.querySelector('#language'); l.value = 'ms';
           l.dispatchEvent(new Event('change')); })()",
    );
    assert_eq!(browser.text("#lesson-text"), fourth.steps[1].text.ms);
    browser.eval(
        "(() => { const l = document.querySelector('#language'); l.value = 'en';
           l.dispatchEvent(new Event('change')); })()",
    );
    typed_moves_in_play(&mut browser, &base);
    println!(
        "{name}: {steps} steps of 3 lessons at {width}x{height}, {:.1} s in all",
        started.elapsed().as_secs_f64()
    );
}

/// Waits until lesson `id` shows step `index` and takes its move.
fn wait_for_task(browser: &mut Browser, id: &str, index: usize) {
    browser.wait_going_on(
        &format!(
            "(() => {{ const l = document.querySelector('#lesson');
               return Boolean(l) && l.dataset.lesson === {id:?} && l.dataset.step === '{index}' && l.dataset.state === 'task'; }})()"
        ),
        10,
    );
}

/// The first step: a legal move that is not the task's and one the rules
/// forbid, refused with their reasons; the step and the moves stay.
fn wrong_tries_are_refused(browser: &mut Browser, step: &pasang::learn::Step) {
    let wrong = &step.wrong[0];
    browser.click_move(&wrong.mv);
    let feedback = "(document.querySelector('#lesson-feedback.wrong') || {}).textContent";
    browser.wait_for(&format!("{feedback} === {:?}", wrong.why.en), 5);
    // A move no lesson lists, forbidden by the rules: explained in words.
    browser.type_and_enter("#move-input", "b4c4n");
    browser.wait_for(
        &format!("{feedback}.startsWith('First take your passage')"),
        5,
    );
    assert_eq!(
        browser.eval("document.querySelector('#moves').children.length"),
        0
    );
    assert_eq!(
        browser.eval("document.querySelector('#lesson').dataset.step"),
        "0"
    );
}

/// `#move-input` in play: a refused move said in `#error` with `#moves`
/// unchanged; a move written short (`b1c1` has three lines) refused until
/// written in full; a passage typed is played as its click would be.
fn typed_moves_in_play(browser: &mut Browser, base: &str) {
    browser.open(&format!(
        "{base}?mode=play&side=south&skill=0&movetime=50&moves=c%20j"
    ));
    browser.wait_for("document.querySelector('#moves').children.length === 2", 10);
    browser.type_and_enter("#move-input", "b1c1");
    browser.wait_for("!document.querySelector('#error').hidden", 5);
    assert!(browser.text("#error").contains("b1c1w, b1c1e, b1c1n"));
    browser.type_and_enter("#move-input", "a4c4n");
    browser.wait_for(
        "document.querySelector('#error').textContent.includes('a4 is two columns away')",
        5,
    );
    assert_eq!(
        browser.eval("document.querySelector('#moves').children.length"),
        2
    );
    browser.type_and_enter("#move-input", "B1C1E");
    browser.wait_for("document.querySelector('#moves').children.length >= 3", 10);
    assert_eq!(browser.text("#moves > :nth-child(3)"), "b1c1e");
}

// ---- Friend mode and its link ----
