// The page's words in both languages (src/page/assets/strings.js and
// words.js), under Node's test runner: the table, its placeholders, the
// refusals by kind, the clock text.
import assert from "node:assert/strict";
import { test } from "node:test";
import { STRINGS, currentLanguage, inLanguage, t } from "../../src/page/assets/strings.js";
import { clockText, reasonWords, refusalWords, ruleValueWords } from "../../src/page/assets/words.js";

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test("English and Malay have the same keys", () => {
  const en = Object.keys(STRINGS.en), ms = Object.keys(STRINGS.ms);
  assert.deepEqual(en.filter((key) => !(key in STRINGS.ms)), [], "keys without Malay words");
  assert.deepEqual(ms.filter((key) => !(key in STRINGS.en)), [], "Malay keys English lacks");
});

test("each key's words fill the same placeholders in both languages", () => {
  for (const key of Object.keys(STRINGS.en)) {
    assert.deepEqual(placeholders(STRINGS.ms[key]), placeholders(STRINGS.en[key]), key);
  }
});

test("t fills placeholders, keeps unknown ones, and falls back to the key", () => {
  assert.equal(currentLanguage(), "en", "no browser: English");
  assert.equal(t("evalWin", { side: "South", moves: 3 }), "South wins by force in 3");
  assert.equal(t("evalWin", { side: "South" }), "South wins by force in {moves}");
  assert.equal(t("no such key"), "no such key");
  assert.equal(inLanguage("ms", () => t("south")), STRINGS.ms.south);
  assert.equal(currentLanguage(), "en", "inLanguage puts the language back");
});

test("refusals are worded by kind in both languages", () => {
  const refusals = [
    { kind: "illegal_move", move: "x9", reason: "not_a_move", text: "x9" },
    { kind: "illegal_move", move: "b4c4n", reason: "passage_first" },
    { kind: "illegal_move", move: "zz" },
    { kind: "bad_field", field: "ply" },
    { kind: "game_over" },
    { kind: "no_such_ply", ply: 9 },
    { kind: "engines_turn" },
    { kind: "malformed" },
  ];
  for (const message of refusals) {
    for (const code of ["en", "ms"]) {
      const words = inLanguage(code, () => refusalWords(message));
      assert.ok(words && !/\{\w+\}/.test(words), `${code} ${JSON.stringify(message)}: ${words}`);
    }
    assert.notEqual(inLanguage("en", () => refusalWords(message)), inLanguage("ms", () => refusalWords(message)), JSON.stringify(message));
  }
  assert.equal(refusalWords({ kind: "something new", message: "as sent" }), "as sent");
  assert.deepEqual(reasonWords({ reason: "even_line", to: "c4" })[0], "evenLine");
  assert.deepEqual(reasonWords({ reason: "game_over" })[0], "gameOverNoMove");
});

test("rule values are worded where the table has them", () => {
  assert.equal(ruleValueWords("1"), "1");
  assert.notEqual(inLanguage("ms", () => ruleValueWords("wall")), "wall");
});

test("the clock reads minutes and seconds, rounded up, never below 0:00", () => {
  assert.equal(clockText(180000), "3:00");
  assert.equal(clockText(179001), "3:00");
  assert.equal(clockText(179000), "2:59");
  assert.equal(clockText(9500), "0:10");
  assert.equal(clockText(1), "0:01");
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(-5000), "0:00");
  assert.equal(clockText(3600000), "60:00");
});
