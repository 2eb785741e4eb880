//! A refused move in the page's words, from the rules core's typed
//! reason: the page carries no copy of the rules to explain a refusal.
//! `pasang gui` in headless Chromium: a ka move typed at the start goes
//! to the session, which refuses it with `reason` `passage_first`; the
//! page words it in English and in Malay and leaves `#moves` as it was.

mod common;

use common::browser::{Browser, chromium_or_skip};

#[test]
fn a_typed_move_is_refused_by_the_session_in_the_pages_words() {
    let Some(binary) =
        chromium_or_skip("a_typed_move_is_refused_by_the_session_in_the_pages_words")
    else {
        return;
    };
    let mut command = common::pasang();
    command.args(["gui", "--port", "0"]);
    let (mut child, address) = common::start_server(command);
    let mut browser = Browser::start(&binary);
    browser.open(&format!("http://{address}/?mode=analyse"));
    browser.wait_for(
        "document.querySelectorAll('[data-point]').length === 121 && document.querySelector('#move-input') !== null",
        20,
    );
    // What the page sends, read off its socket.
    browser.eval(
        "window.sentFrames = []; const original = WebSocket.prototype.send; \
         WebSocket.prototype.send = function (data) { \
         window.sentFrames.push(String(data)); return original.call(this, data); }; true",
    );
    for (language, words) in [("en", "First take your passage"), ("ms", "")] {
        common::malay::choose(&mut browser, language);
        browser.type_and_enter("#move-input", "b4c4n");
        browser.wait_for("window.sentFrames.some((f) => f.includes('b4c4n'))", 10);
        browser.wait_for("!document.querySelector('#error').hidden", 10);
        let said = browser.text("#error");
        if language == "en" {
            assert!(said.contains(words), "{said}");
        } else {
            // Malay: not the English sentence.
            assert!(!said.contains("First take your passage"), "{said}");
            assert!(!said.trim().is_empty());
        }
        assert_eq!(
            browser.eval("document.querySelectorAll('#moves > *').length"),
            serde_json::json!(0),
            "#moves stays as it was"
        );
        browser.eval("window.sentFrames = []; true");
    }
    let _ = child.kill();
    let _ = child.wait();
}
