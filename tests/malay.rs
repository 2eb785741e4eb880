//! "Malay everywhere": the board page of `pasang gui` in headless
//! Chromium, switched to Malay (`#language` = `ms`) in every mode and on
//! the players' rules page, shows no sentence of the English strings
//! table (its visible text, `title`, `aria-label` and `alt` attributes,
//! the options of its selects, its dialogs once opened) and nothing it
//! also shows, word for word, in English. Without Chromium the tests say
//! so and pass, except under `CI=true`, where they fail.

mod common;

use common::browser::{Browser, chromium_or_skip};
use common::malay::{
    ENGLISH_SENTENCES, ON_SCREEN, choose, every_mode, no_english_in_malay, record_file, strings,
};

use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::json;

/// A running `pasang gui` on a free port, stopped when dropped.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start() -> Server {
        let mut command = common::pasang();
        command.args(["gui", "--port", "0"]);
        let (child, address) = common::start_server(command);
        Server {
            child,
            base: format!("http://{address}/"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn no_english_on_the_page_in_malay() {
    let Some(binary) = chromium_or_skip("no_english_on_the_page_in_malay") else {
        return;
    };
    let started = Instant::now();
    let server = Server::start();
    let mut browser = Browser::start(&binary);
    browser.viewport(1280, 900, false);
    let record = record_file();
    let read = no_english_in_malay(&mut browser, &server.base, &every_mode(&record, "rules"));
    let _ = std::fs::remove_file(&record);
    println!(
        "no_english_on_the_page_in_malay: {read} texts read in Malay, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// What the page does before its scripts: records every record it saves
/// (the text of each blob it offers for download).
const PAGE_HOOKS: &str = "
    window.__saved = [];
    const createObjectURL = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob) => { blob.text().then((text) => window.__saved.push(text)); return createObjectURL(blob); };";

/// On a phone held upright (390 x 844), in Malay: a game against the
/// engine played by clicks to its end, saved and reviewed, with no
/// English on screen at the end and after the review. Run by hand:
/// `cargo test --release --test malay -- --ignored a_whole_game_in_malay_on_a_phone`.
#[test]
#[ignore = "a whole game at phone size; run by hand"]
fn a_whole_game_in_malay_on_a_phone() {
    let Some(binary) = chromium_or_skip("a_whole_game_in_malay_on_a_phone") else {
        return;
    };
    let started = Instant::now();
    let server = Server::start();
    let mut browser = Browser::start(&binary);
    browser.viewport(390, 844, true);
    browser.call("Page.enable", json!({}));
    browser.call(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": PAGE_HOOKS }),
    );
    let base = &server.base;
    browser.open(&format!("{base}?mode=play&side=south&skill=0&movetime=50"));
    choose(&mut browser, "ms");
    let deadline = Instant::now() + Duration::from_secs(600);
    while browser.eval("Boolean(document.querySelector('#board').dataset.over)") != json!(true) {
        assert!(Instant::now() < deadline, "the game stalled");
        if !browser.click_a_move() {
            std::thread::sleep(Duration::from_millis(30));
        }
    }
    let plies = browser
        .eval("document.querySelector('#moves').children.length")
        .as_u64()
        .unwrap_or_default();
    // The result in Malay, to the player ("Anda menang", "Anda kalah" or
    // "Seri"), and the hint.
    let status = browser.text("#status");
    assert!(
        ["Anda menang", "Anda kalah", "Seri"]
            .iter()
            .any(|start| status.starts_with(start)),
        "{status}"
    );
    let malay = strings(browser.eval(ON_SCREEN));
    let table = strings(browser.eval(ENGLISH_SENTENCES));
    for text in &malay {
        for sentence in &table {
            assert!(
                !text.contains(sentence.as_str()),
                "the end: {text:?} holds {sentence:?}"
            );
        }
    }
    // Saved: the record holds the game.
    assert!(browser.click("#save"));
    browser.wait_for("window.__saved.length === 1", 10);
    let record = browser.eval("window.__saved[0]");
    assert!(
        record.as_str().is_some_and(|text| text.contains("1. ")),
        "{record}"
    );
    // Reviewed: every ply judged, the page in Malay throughout.
    assert!(browser.click("#review-game"));
    browser.wait_for(
        &format!(
            "document.querySelectorAll('[data-eval-graph] [data-ply] title').length === {plies}"
        ),
        300,
    );
    browser.key("ArrowRight");
    let malay = strings(browser.eval(ON_SCREEN));
    for text in &malay {
        for sentence in &table {
            assert!(
                !text.contains(sentence.as_str()),
                "review: {text:?} holds {sentence:?}"
            );
        }
    }
    assert_eq!(
        browser.eval("document.documentElement.scrollWidth <= innerWidth"),
        json!(true),
        "390x844 scrolls sideways"
    );
    println!(
        "a_whole_game_in_malay_on_a_phone: {plies} plies, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
