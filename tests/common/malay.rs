//! "Malay everywhere", shared by tests/malay.rs (`pasang gui`) and
//! tests/web.rs (the static site): the page visited in every mode in
//! English and in Malay, and what it shows compared.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::browser::Browser;

/// One mode of the page as the check visits it: its address (after the
/// server's), a condition that is true once it is on screen, and what a
/// person does there to bring up its dialogs and messages (after the
/// switch to Malay too, so that they are made in Malay).
pub struct Mode {
    pub name: &'static str,
    pub address: String,
    pub ready: &'static str,
    pub act: Box<dyn Fn(&mut Browser)>,
}

/// The modes the check visits, with the rules page at `rules` (after the
/// server's address); puzzles and rooms are one entry each when they
/// land.
pub fn every_mode(record: &Path, rules: &str) -> Vec<Mode> {
    let record = record.to_path_buf();
    vec![
        Mode {
            name: "play",
            address: "?mode=play&side=south&skill=0&movetime=50".into(),
            ready: "document.querySelector('#board').dataset.gameMode === 'play'",
            act: Box::new(|browser| {
                // A move that is no move is said in #error.
                browser.type_and_enter("#move-input", "zz");
                browser.wait_for("!document.querySelector('#error').hidden", 10);
            }),
        },
        Mode {
            name: "analyse",
            address: "?mode=analyse&multipv=2&moves=c+j".into(),
            ready: "document.querySelector('#board').dataset.gameMode === 'analyse' && document.querySelector('#moves').children.length === 2 && document.querySelectorAll('#lines li').length > 0",
            act: Box::new(|browser| {
                // The line-choice dialog: b1 into c1 takes one of three lines.
                // Stopped first: a state sent meanwhile would close it.
                assert!(browser.click("#run"));
                browser.wait_for(
                    "document.querySelector('#board').dataset.running === 'false'",
                    10,
                );
                assert!(browser.click("[data-point=b1]"));
                browser.wait_for(
                    "document.querySelector('[data-point=b1]').classList.contains('selected')",
                    10,
                );
                assert!(browser.click("[data-point=c1]"));
                browser.wait_for("!document.querySelector('#choice').hidden", 10);
            }),
        },
        Mode {
            name: "analyse, a bad address",
            address: "?mode=analyse&position=garbage&skill=x&moves=c+c".into(),
            ready: "!document.querySelector('#error').hidden && document.querySelector('#error').textContent.split('\\n').length >= 3",
            act: Box::new(|_| {}),
        },
        Mode {
            name: "watch",
            address: "?mode=watch&movetime=100".into(),
            ready: "document.querySelector('#board').dataset.gameMode === 'watch' && document.querySelector('#moves').children.length >= 2",
            act: Box::new(|_| {}),
        },
        Mode {
            name: "review",
            address: "?mode=review".into(),
            ready: "document.querySelector('#board').dataset.gameMode === 'review'",
            act: Box::new(move |browser| {
                browser.choose_file("#load", &record);
                // Two games: the picker asks which; the first is reviewed.
                browser.wait_for(
                    "document.querySelectorAll('#picker [data-game]').length === 2",
                    20,
                );
                assert!(browser.click("#picker [data-game='1']"));
                browser.wait_for(
                    "document.querySelector('#moves').children.length === 6 && document.querySelectorAll('[data-eval-graph] [data-ply] title').length === 6 && !document.querySelector('#summary').hidden",
                    120,
                );
                browser.key("ArrowRight");
                browser.wait_for(
                    "document.querySelector('#review-move').textContent.length > 0",
                    10,
                );
            }),
        },
        Mode {
            name: "friend",
            address: "?mode=friend&moves=c+j".into(),
            ready: "document.querySelector('#board').dataset.gameMode === 'friend' && document.querySelector('#moves').children.length === 2",
            act: Box::new(|_| {}),
        },
        Mode {
            name: "learn, the course",
            address: "?mode=learn".into(),
            ready: "document.querySelectorAll('#lesson-list [data-lesson-id]').length > 0",
            act: Box::new(|_| {}),
        },
        Mode {
            name: "learn, a lesson",
            address: "?mode=learn&lesson=passage".into(),
            ready: "document.querySelector('#lesson').dataset.state === 'task'",
            act: Box::new(|browser| {
                // A wrong try is explained.
                browser.type_and_enter("#move-input", "b4c4n");
                browser.wait_for("document.querySelector('#lesson-feedback') !== null", 10);
            }),
        },
        Mode {
            name: "puzzles, one puzzle",
            address: "?mode=puzzle&id=e6ad0820cd0f".into(),
            ready: "document.querySelector('#puzzle').dataset.state === 'playing'",
            act: Box::new(|browser| {
                // A wrong move is refused in words of the table.
                browser.type_and_enter("#move-input", "j6j7w");
                browser.wait_for("document.querySelector('#puzzle-feedback') !== null || document.querySelector('#error').textContent !== ''", 10);
            }),
        },
        Mode {
            name: "rules",
            address: rules.into(),
            // The pictures in the page's language too: North's ka is U
            // (Utara) in the Malay ones.
            ready: "document.readyState === 'complete' && document.querySelectorAll('h2').length > 5 && [...document.images].every((i) => i.complete && i.naturalWidth > 0) && document.querySelectorAll('img[data-ms-src]').length > 5 && [...document.querySelectorAll('img[data-ms-src]')].every((i) => i.getAttribute('src') === (document.querySelector('#language').value === 'ms' ? i.dataset.msSrc : i.dataset.enSrc))",
            act: Box::new(|_| {}),
        },
    ]
}

/// What a person sees and hears of the page: each visible element's own
/// text, its `title`, `aria-label` and `alt`, the options of visible
/// selects, the board's and graph's tooltips and the document's title.
pub const ON_SCREEN: &str = "(() => {
  const shown = (e) => {
    if (e.closest('[hidden]')) return false;
    const style = getComputedStyle(e);
    return style.display !== 'none' && style.visibility !== 'hidden' && e.getClientRects().length > 0;
  };
  const out = [document.title];
  for (const e of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'OPTION', 'title'].includes(e.tagName) || !shown(e)) continue;
    for (const n of e.childNodes) if (n.nodeType === 3) out.push(n.textContent);
    for (const a of ['title', 'aria-label', 'alt', 'placeholder']) if (e.hasAttribute(a)) out.push(e.getAttribute(a));
    // The language switch names each language in its own words.
    if (e.tagName === 'SELECT' && e.id !== 'language') for (const o of e.options) out.push(o.textContent);
    for (const t of e.children) if (t.tagName === 'title') out.push(t.textContent);
  }
  return out.map((s) => s.replace(/\\s+/g, ' ').trim()).filter(Boolean);
})()";

/// The English table's sentences: each string's stretches between its
/// `{placeholders}` that hold two or more words of letters (as
/// [`is_sentence`] counts them). The table is the page's module
/// `strings.js`, beside the board page and one folder above the rules.
pub const ENGLISH_SENTENCES: &str = "import(new URL(location.pathname.includes('/rules') ? '../strings.js' : 'strings.js', location.href).href).then(({ STRINGS }) => {
  const out = [];
  for (const text of Object.values(STRINGS.en)) {
    for (const part of text.split(/\\{\\w+\\}/)) {
      const trimmed = part.replace(/\\s+/g, ' ').trim();
      if (words(trimmed) >= 2) out.push(trimmed);
    }
  }
  return out;
  function words(s) {
    return s.split(/\\s+/).map((w) => w.replace(/^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$/gu, ''))
      .filter((w) => /^\\p{L}{2,}$/u.test(w)).length;
  }
})";

/// Two or more words of letters: a word is a stretch between spaces
/// that, its punctuation aside, is letters only, two or more (so moves
/// such as `b4c4n`, numbers and coordinates are no words).
pub fn is_sentence(text: &str) -> bool {
    text.split_whitespace()
        .map(|token| token.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|word| word.chars().count() >= 2 && word.chars().all(char::is_alphabetic))
        .count()
        >= 2
}

pub fn strings(value: Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Chooses `language` with the page's own switch.
pub fn choose(browser: &mut Browser, language: &str) {
    browser.eval(&format!(
        "(() => {{ const l = document.querySelector('#language'); l.value = '{language}';
           l.dispatchEvent(new Event('change')); }})()"
    ));
    browser.wait_for(
        &format!("document.documentElement.lang === '{language}'"),
        10,
    );
}

/// Opens the page at `mode`, in English and then (the same steps again)
/// in Malay, and returns what it showed in each.
pub fn shown_in_both(browser: &mut Browser, base: &str, mode: &Mode) -> (Vec<String>, Vec<String>) {
    let mut seen = Vec::new();
    for language in ["en", "ms"] {
        browser.call(
            "Page.navigate",
            json!({ "url": format!("{base}{}", mode.address) }),
        );
        browser.wait_for(
            "document.readyState === 'complete' && document.querySelector('#language') !== null && document.querySelector('#language').options.length > 1",
            20,
        );
        choose(browser, language);
        browser.wait_for(mode.ready, 60);
        (mode.act)(browser);
        // The rule options live in the new-game box: opened, so that
        // their values are on screen too.
        browser
            .eval("(() => { const g = document.querySelector('#game'); if (g) g.open = true; })()");
        seen.push(strings(browser.eval(ON_SCREEN)));
    }
    let malay = seen.pop().unwrap_or_default();
    let english = seen.pop().unwrap_or_default();
    (english, malay)
}

/// Visits each of `modes` in English and in Malay: in Malay no sentence
/// of the English table is on screen, and nothing is shown word for word
/// in both. Returns how many texts were read in Malay; the page is left
/// in English.
pub fn no_english_in_malay(browser: &mut Browser, base: &str, modes: &[Mode]) -> usize {
    let mut read = 0;
    let mut faults = Vec::new();
    for mode in modes {
        let (english, malay) = shown_in_both(browser, base, mode);
        let table = strings(browser.eval(ENGLISH_SENTENCES));
        assert!(table.len() > 100, "the English table: {table:?}");
        assert!(
            !english.is_empty() && english != malay,
            "{}: {english:?}",
            mode.name
        );
        for text in &malay {
            for sentence in table
                .iter()
                .filter(|sentence| text.contains(sentence.as_str()))
            {
                faults.push(format!(
                    "{}: {text:?} holds the English {sentence:?}",
                    mode.name
                ));
            }
            if is_sentence(text) && english.contains(text) {
                faults.push(format!("{}: {text:?} is the same in English", mode.name));
            }
        }
        read += malay.len();
    }
    // The browser is left in English, as the other checks expect.
    choose(browser, "en");
    assert!(faults.is_empty(), "untranslated:\n{}", faults.join("\n"));
    read
}

/// A record file of two games, the first of six plies.
pub fn record_file() -> PathBuf {
    let file = std::env::temp_dir().join(format!("pasang-malay-{}.pgn", std::process::id()));
    std::fs::write(
        &file,
        "[Event \"malay\"]\n[South \"Ann\"]\n[North \"Bob\"]\n[Result \"*\"]\n\n\
         1. c j 2. b4c4n k7j7w 3. c4c7ew j7k7s *\n\n\
         [Event \"malay\"]\n[South \"Cid\"]\n[North \"Dee\"]\n[Result \"*\"]\n\n1. c j *\n",
    )
    .unwrap();
    file
}
