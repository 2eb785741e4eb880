//! What players found on a phone, in headless Chromium against `pasang
//! gui` at 390x844: a first visit shows the ways in and a later one
//! reopens the last game; Resign asks again before it resigns, in play
//! and in a friend game; the sound switch is kept; nothing is wider than
//! the screen or below its fold, results say "you", and lessons, puzzles
//! and records speak the player's language.

mod common;

use common::browser::{Browser, chromium_or_skip};
use serde_json::json;

const MOVES: &str = "document.querySelectorAll('#moves > *').length";
const BOARD: &str = "document.querySelector('#board').dataset";

/// Whether the element `selector` is laid out (shown).
fn shown(selector: &str) -> String {
    format!(
        "Boolean(document.querySelector({selector:?}) && document.querySelector({selector:?}).getClientRects().length > 0)"
    )
}

fn phone(binary: &str) -> Browser {
    let mut browser = Browser::start(binary);
    browser.viewport(390, 844, true);
    browser
}

fn gui() -> (std::process::Child, String) {
    let mut command = common::pasang();
    command.args(["gui", "--port", "0"]);
    common::start_server(command)
}

#[test]
fn a_first_visit_shows_the_ways_in_and_a_later_one_reopens_the_game() {
    let Some(binary) =
        chromium_or_skip("a_first_visit_shows_the_ways_in_and_a_later_one_reopens_the_game")
    else {
        return;
    };
    let (mut child, address) = gui();
    let mut browser = phone(&binary);
    let bare = format!("http://{address}/");
    // lang= alone leaves the address bare: the welcome, in that language,
    // which is kept for the next visit.
    browser.open(&format!("{bare}?lang=ms"));
    browser.wait_for(&shown("#welcome"), 10);
    assert_eq!(browser.eval("document.documentElement.lang"), json!("ms"));
    browser.open(&bare);
    browser.wait_for(&shown("#welcome"), 10);
    assert_eq!(browser.eval("document.documentElement.lang"), json!("ms"));
    browser.open(&format!("{bare}?lang=en"));
    browser.wait_for(&shown("#welcome"), 10);
    assert_eq!(browser.eval("document.documentElement.lang"), json!("en"));
    for mode in ["learn", "puzzle", "play", "friend"] {
        let link = format!("#welcome a[href*='mode={mode}']");
        assert_eq!(browser.eval(&shown(&link)), json!(true), "{mode}");
    }
    for kept in ["#language", "#rules-link"] {
        assert_eq!(browser.eval(&shown(kept)), json!(true), "{kept}");
    }
    // An address with a mode goes straight to it.
    browser.open(&format!("{bare}?mode=play&side=south"));
    browser.wait_for(&format!("{BOARD}.gameMode === 'play'"), 10);
    assert_eq!(browser.eval(&shown("#welcome")), json!(false));
    browser.type_and_enter("#move-input", "c");
    // The engine answers with its passage.
    browser.wait_for(&format!("{MOVES} === 2"), 20);
    let played =
        browser.eval("[...document.querySelectorAll('#moves > *')].map((e) => e.textContent)");
    // The bare address reopens that game, with its moves.
    browser.open(&bare);
    browser.wait_for(&format!("{BOARD}.gameMode === 'play' && {MOVES} === 2"), 20);
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#moves > *')].map((e) => e.textContent)"),
        played
    );
    assert_eq!(browser.eval(&shown("#welcome")), json!(false));
    let _ = child.kill();
}

#[test]
fn resign_asks_again_then_ends_the_game_in_play_and_between_friends() {
    let Some(binary) =
        chromium_or_skip("resign_asks_again_then_ends_the_game_in_play_and_between_friends")
    else {
        return;
    };
    let (mut child, address) = gui();
    let mut browser = phone(&binary);
    // A friend game: North, to move, resigns.
    browser.open(&format!("http://{address}/?mode=friend&moves=c"));
    browser.wait_for(&format!("{MOVES} === 1 && {}", shown("#resign")), 10);
    assert!(browser.text("#resign").len() > 3, "Resign has words");
    browser.eval("document.querySelector('#resign').scrollIntoView({ block: 'center' })");
    assert!(browser.click("#resign"));
    browser.wait_for(
        "document.querySelector('#resign').dataset.confirm === 'true'",
        5,
    );
    assert_eq!(
        browser.eval(&format!("{BOARD}.over")),
        json!(""),
        "one tap does not resign"
    );
    assert!(browser.click("#resign"));
    browser.wait_for(&format!("{BOARD}.over === '1-0'"), 10);
    assert!(
        browser.text("#status").contains("resigned"),
        "{}",
        browser.text("#status")
    );
    assert_eq!(browser.eval(&shown("#resign")), json!(false));
    // In play the person resigns, whoever is to move.
    browser.open(&format!("http://{address}/?mode=play&side=north"));
    // The engine, South, moves first: the move list grows, and the button
    // moves with it, before the person taps.
    browser.wait_for(
        &format!(
            "{BOARD}.gameMode === 'play' && {MOVES} === 1 && {}",
            shown("#resign")
        ),
        20,
    );
    browser.eval("document.querySelector('#resign').scrollIntoView({ block: 'center' })");
    assert!(browser.click("#resign"));
    browser.wait_for(
        "document.querySelector('#resign').dataset.confirm === 'true'",
        5,
    );
    assert!(browser.click("#resign"));
    browser.wait_for(&format!("{BOARD}.over === '1-0'"), 10);
    let _ = child.kill();
}

#[test]
fn the_sound_switch_is_kept() {
    let Some(binary) = chromium_or_skip("the_sound_switch_is_kept") else {
        return;
    };
    let (mut child, address) = gui();
    let mut browser = phone(&binary);
    let page = format!("http://{address}/?mode=friend");
    browser.open(&page);
    let pressed = "document.querySelector('#sound').getAttribute('aria-pressed')";
    assert_eq!(
        browser.eval(pressed),
        json!("true"),
        "sounds are on at first"
    );
    browser.eval("document.querySelector('#sound').scrollIntoView({ block: 'center' })");
    assert!(browser.click("#sound"));
    browser.wait_for(&format!("{pressed} === 'false'"), 5);
    browser.open(&page);
    assert_eq!(
        browser.eval(pressed),
        json!("false"),
        "a reload keeps it off"
    );
    // Moves still play with the sound off, and on again.
    browser.type_and_enter("#move-input", "c");
    browser.wait_for(&format!("{MOVES} === 1"), 10);
    browser.eval("document.querySelector('#sound').scrollIntoView({ block: 'center' })");
    assert!(browser.click("#sound"));
    browser.wait_for(&format!("{pressed} === 'true'"), 5);
    browser.type_and_enter("#move-input", "j");
    browser.wait_for(&format!("{MOVES} === 2"), 10);
    let _ = child.kill();
}

/// Fails before: at 390x844 the lesson's words sat below the board, so a
/// wrong tap's reason landed off screen, and a right move's words were
/// gone within a second as the next step loaded.
#[test]
fn a_lessons_feedback_is_on_screen_beside_the_board_and_stays() {
    let Some(binary) =
        chromium_or_skip("a_lessons_feedback_is_on_screen_beside_the_board_and_stays")
    else {
        return;
    };
    let (mut child, address) = gui();
    let mut browser = phone(&binary);
    browser.open(&format!("http://{address}/?mode=learn&lesson=ka-entry"));
    let lesson = "document.querySelector('#lesson').dataset";
    browser.wait_for(&format!("{lesson}.state === 'task'"), 20);
    // The board in view, its bottom edge at the screen's bottom.
    browser.eval(
        "(() => { const b = document.querySelector('#board').getBoundingClientRect();
           window.scrollTo(0, b.bottom + window.scrollY - innerHeight); return true; })()",
    );
    let on_screen = "(() => { const f = document.querySelector('#lesson-feedback'); if (!f) return false;
        const r = f.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; })()";
    // A stone two columns from the passage, under Ka Entry: slide.
    assert!(browser.click("[data-point=a4]"));
    browser.wait_for(
        "document.querySelector('#lesson-feedback.wrong') !== null",
        5,
    );
    std::thread::sleep(std::time::Duration::from_secs(1));
    assert_eq!(
        browser.eval(on_screen),
        json!(true),
        "the wrong tap's reason is on screen"
    );
    browser.type_and_enter("#move-input", "b4c4n");
    browser.wait_for(
        "document.querySelector('#lesson-feedback.right') !== null",
        5,
    );
    // The right move's words stay until the player goes on.
    std::thread::sleep(std::time::Duration::from_secs(2));
    assert_eq!(browser.eval(&format!("{lesson}.step")), json!("0"));
    assert_eq!(
        browser.eval("document.querySelector('#lesson-feedback.right') !== null"),
        json!(true)
    );
    assert_eq!(
        browser.eval(on_screen),
        json!(true),
        "the right move's words are on screen"
    );
    assert!(browser.click("#lesson-next"));
    browser.wait_for(
        &format!("{lesson}.step === '1' && {lesson}.state === 'task'"),
        10,
    );
    let _ = child.kill();
}

/// What the page at `lang` says for `en` and `ms`.
fn say(lang: &str, en: &'static str, ms: &'static str) -> &'static str {
    if lang == "ms" { ms } else { en }
}

/// The page is no wider than the screen.
const FITS: &str = "document.documentElement.scrollWidth <= innerWidth";

/// Where `selector`'s bottom edge is, from the top of the page (not the
/// screen): within 844 it is on a 390x844 phone's first screen.
fn bottom(browser: &mut Browser, selector: &str) -> f64 {
    let value = browser.eval(&format!(
        "(() => {{ const e = document.querySelector({selector:?}); if (!e || !e.getClientRects().length) return -1;
           return e.getBoundingClientRect().bottom + scrollY; }})()"
    ));
    value.as_f64().unwrap_or(-1.0)
}

/// `selector` is laid out and its bottom is within the first screen.
fn on_first_screen(browser: &mut Browser, selector: &str, what: &str) {
    let at = bottom(browser, selector);
    assert!(at > 0.0 && at <= 844.0, "{what}: {selector} ends at {at}");
}

/// The board's top edge on the page.
const BOARD_TOP: &str = "document.querySelector('#board').getBoundingClientRect().top + scrollY";

/// What players found on a phone, II: at 390x844 with touch, in English
/// and in Malay, against `pasang gui`. Fails before: the Puzzles page was
/// 594 px wide, Resign sat below the screen, the board dropped when a
/// lesson's feedback came, results named sides rather than "you", ka
/// marks read N in Malay, there was no name field, records said
/// Anonymous in English, a step ran to 9 lines saying "click", puzzle
/// reasons named the endgame search, and the Eval figure was blank after
/// a reload.
#[test]
fn a_phone_player_is_spoken_to_and_nothing_is_off_the_screen() {
    let Some(binary) =
        chromium_or_skip("a_phone_player_is_spoken_to_and_nothing_is_off_the_screen")
    else {
        return;
    };
    let (mut child, address) = gui();
    let mut browser = phone(&binary);
    browser.touch();
    browser.call("Page.enable", json!({}));
    browser.call(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": "window.__saved = []; const made = URL.createObjectURL.bind(URL);
            URL.createObjectURL = (blob) => { blob.text().then((text) => window.__saved.push(text)); return made(blob); };" }),
    );
    let base = format!("http://{address}/");
    for lang in ["en", "ms"] {
        // No page wider than the screen, at 360 and 390 px, in any mode.
        for width in [360, 390] {
            browser.viewport(width, 844, true);
            for page in [
                "?",
                "?mode=play&moves=c%20j%20b4c4n%20k7j7w",
                "?mode=analyse",
                "?mode=watch&movetime=100",
                "?mode=review&moves=c%20j",
                "?mode=friend&south=Ali&north=Siti",
                "?mode=learn",
                "?mode=learn&lesson=ka-entry",
                "?mode=puzzle",
            ] {
                browser.open(&format!("{base}{page}&lang={lang}"));
                std::thread::sleep(std::time::Duration::from_millis(300));
                assert_eq!(browser.eval(FITS), json!(true), "{lang} {width} px: {page}");
            }
        }
        browser.viewport(390, 844, true);

        // The Eval figure stays across a reload that reopens the game.
        browser.open(&format!(
            "{base}?mode=play&side=south&skill=0&movetime=50&lang={lang}"
        ));
        browser.wait_for(&format!("{BOARD}.gameMode === 'play'"), 10);
        browser.type_and_enter("#move-input", "c");
        browser.wait_for(
            &format!("{MOVES} === 2 && document.querySelector('#eval').textContent !== ''"),
            20,
        );
        let eval = browser.text("#eval");
        browser.open(&format!("{base}?lang={lang}"));
        browser.wait_for(&format!("{BOARD}.gameMode === 'play' && {MOVES} === 2"), 20);
        browser.wait_for("document.querySelector('#eval').textContent !== ''", 5);
        assert_eq!(browser.text("#eval"), eval, "{lang}: the Eval figure");

        // Play: the controls on the first screen, the kas marked in the
        // page's language, the name kept, the result said to "you".
        browser.open(&format!(
            "{base}?mode=play&side=south&skill=0&moves=c%20j%20b4c4n%20k7j7w&lang={lang}"
        ));
        browser.wait_for(&format!("{BOARD}.gameMode === 'play' && {MOVES} === 4"), 20);
        for control in ["#resign", "#takeback", "#new-game"] {
            on_first_screen(&mut browser, control, lang);
        }
        assert_eq!(
            browser.eval("[...document.querySelectorAll('[data-ka-letter]')].map((e) => e.textContent).sort().join('')"),
            json!(say(lang, "NS", "SU")),
            "{lang}: the kas' marks"
        );
        // English: a name, kept; Malay: none, so Anonymous in Malay.
        let name = say(lang, "Siti", "");
        browser.eval(&format!(
            "(() => {{ const i = document.querySelector('#player-name'); i.value = {name:?};
               i.dispatchEvent(new Event('change')); return true; }})()"
        ));
        browser.open(&format!(
            "{base}?mode=play&side=south&skill=0&moves=c%20j%20b4c4n%20k7j7w&lang={lang}"
        ));
        browser.wait_for(&format!("{BOARD}.gameMode === 'play' && {MOVES} === 4"), 20);
        assert_eq!(
            browser.eval("document.querySelector('#player-name').value"),
            json!(name)
        );
        assert!(browser.click("#resign"));
        browser.wait_for(
            "document.querySelector('#resign').dataset.confirm === 'true'",
            10,
        );
        assert!(browser.click("#resign"));
        browser.wait_for(&format!("{BOARD}.over === '0-1'"), 30);
        let status = browser.text("#status");
        assert!(
            status.starts_with(say(lang, "You lost", "Anda kalah")),
            "{lang}: {status}"
        );
        assert!(browser.click("#save"));
        browser.wait_for("window.__saved.length > 0", 10);
        let record = browser.eval("window.__saved[window.__saved.length - 1]");
        let record = record.as_str().unwrap_or_default();
        let south = format!("[South \"{}\"]", say(lang, "Siti", "Tanpa Nama"));
        for tag in [south.as_str(), "[Termination \"resignation\"]"] {
            assert!(record.contains(tag), "{lang}: {tag} in {record}");
        }

        // A friend game on one device keeps the names, in play and in review.
        browser.open(&format!(
            "{base}?mode=friend&south=Ali&north=Siti&moves=c%20j%20b4c4n&lang={lang}"
        ));
        browser.wait_for(&format!("{MOVES} === 3"), 10);
        for control in ["#resign", "#takeback", "#new-game"] {
            on_first_screen(&mut browser, control, lang);
        }
        assert!(browser.click("#resign"));
        assert!(browser.click("#resign"));
        browser.wait_for(&format!("{BOARD}.over === '1-0'"), 10);
        assert!(browser.click("#review-game"));
        browser.wait_for(&format!("{BOARD}.gameMode === 'review'"), 10);
        let status = browser.text("#status");
        assert!(
            status.contains("(Ali)") && status.contains("(Siti)") && !status.contains("You"),
            "{lang}: {status}"
        );

        // A lesson: "tap", five lines and "more", and the board stays put
        // as the feedback and the way on appear.
        browser.open(&format!("{base}?mode=learn&lesson=ka-entry&lang={lang}"));
        let lesson = "document.querySelector('#lesson').dataset";
        browser.wait_for(&format!("{lesson}.state === 'task'"), 20);
        let text = browser.text("#lesson-text");
        assert!(text.contains(say(lang, "tap", "ketik")), "{lang}: {text}");
        assert!(!text.contains(say(lang, "click", "klik")), "{lang}: {text}");
        let lines = "(() => { const e = document.querySelector('#lesson-text');
            return e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight); })()";
        let shown = browser.eval(lines).as_f64().unwrap();
        assert!(shown <= 5.05, "{lang}: the step shows {shown} lines");
        let top = browser.eval(BOARD_TOP);
        assert!(browser.click("[data-point=a4]"));
        browser.wait_for(
            "document.querySelector('#lesson-feedback.wrong') !== null",
            5,
        );
        assert_eq!(
            browser.eval(BOARD_TOP),
            top,
            "{lang}: a wrong tap's feedback"
        );
        browser.type_and_enter("#move-input", "b4c4n");
        browser.wait_for("document.querySelector('#lesson-next') !== null", 5);
        assert_eq!(browser.eval(BOARD_TOP), top, "{lang}: the way on");
        assert!(browser.click("#lesson-more"));
        browser.wait_for(&format!("{lines} > 5.5"), 5);

        // A puzzle's reason in a player's words.
        browser.open(&format!("{base}?mode=puzzle&id=e6ad0820cd0f&lang={lang}"));
        let puzzle = "document.querySelector('#puzzle').dataset";
        browser.wait_for(
            &format!("{puzzle}.id === 'e6ad0820cd0f' && {puzzle}.state === 'playing' && {MOVES} === 1 && {BOARD}.toMove === 'north'"),
            20,
        );
        browser.type_and_enter("#move-input", "j6j8w");
        browser.wait_for(&format!("{puzzle}.state === 'solved'"), 10);
        let why = browser.text("#puzzle-why");
        assert!(
            why.contains(say(
                lang,
                "no answer saves South",
                "tiada jawapan yang menyelamatkan Selatan"
            )),
            "{lang}: {why}"
        );
        assert!(
            !why.contains(say(lang, "search", "carian")),
            "{lang}: {why}"
        );
        assert!(
            browser.eval(FITS) == json!(true),
            "{lang}: the solved puzzle"
        );
    }
    let _ = child.kill();
}

/// `pasang serve`'s page on a phone, in both languages: Make a room on
/// the first screen, no page wider than it, and in a room the result
/// said to the seated player with Rematch in reach.
#[test]
fn a_rooms_controls_are_on_the_first_screen_and_its_result_says_you() {
    let Some(binary) =
        chromium_or_skip("a_rooms_controls_are_on_the_first_screen_and_its_result_says_you")
    else {
        return;
    };
    let data = common::serve::data_folder("players-phone-rooms");
    let server = common::serve::Server::start(&data, &[]);
    let base = format!("http://{}/", server.address);
    let mut browser = phone(&binary);
    browser.touch();
    for lang in ["en", "ms"] {
        for width in [360, 390] {
            browser.viewport(width, 844, true);
            for page in [
                "?mode=friend",
                "?mode=learn&lesson=ka-entry",
                "?mode=puzzle",
            ] {
                browser.open(&format!("{base}{page}&lang={lang}"));
                std::thread::sleep(std::time::Duration::from_millis(300));
                assert_eq!(browser.eval(FITS), json!(true), "{lang} {width} px: {page}");
            }
        }
        browser.viewport(390, 844, true);
        browser.open(&format!("{base}?mode=friend&lang={lang}"));
        browser.wait_for(&shown("#create-room"), 10);
        on_first_screen(&mut browser, "#create-room", lang);
        // A room: this page sits South, a raw client North.
        browser.open(&format!(
            "{base}?mode=friend&room=new&side=south&lang={lang}"
        ));
        browser.wait_for(
            "document.querySelector('#seat').dataset.seat === 'south' && document.querySelector('#room-link').value.includes('room=')",
            10,
        );
        let link = browser.eval("document.querySelector('#room-link').value");
        let code = link
            .as_str()
            .and_then(|link| link.split("room=").nth(1))
            .map(|rest| rest.split('&').next().unwrap_or(rest).to_string())
            .unwrap();
        let mut north = common::serve::Client::join(&server, &code, None);
        assert_eq!(north.seat, "north");
        browser.wait_for(&shown("#resign"), 10);
        on_first_screen(&mut browser, "#resign", lang);
        assert!(browser.click("#resign"));
        browser.wait_for(
            "document.querySelector('#resign').dataset.confirm === 'true'",
            10,
        );
        assert!(browser.click("#resign"));
        browser.wait_for(&format!("{BOARD}.over === '0-1'"), 30);
        let status = browser.text("#status");
        assert!(
            status.starts_with(say(lang, "You lost", "Anda kalah")),
            "{lang}: {status}"
        );
        browser.wait_for(&shown("#rematch"), 10);
        on_first_screen(&mut browser, "#rematch", lang);
        let _ = north.socket.close(None);
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
