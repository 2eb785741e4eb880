// The page's judgements (src/page/assets/judgement.js), under Node's test
// runner: a review's, a lesson's of a try, a puzzle's of a move and of
// the solver's rating. The rule options' table as the hello gives it
// (src/page/assets/app-state.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultRules, optionWordsKey, ruleKeys, rulesOf } from "../../src/page/assets/app-state.js";
import { bareKaMove, evalWords, lessonVerdict, puzzleVerdict, ratedAfter, reviewPly, reviewStanding, wrongTry } from "../../src/page/assets/judgement.js";

test("a lesson step takes its accepted moves and explains its wrong tries", () => {
  const step = { accept: ["c", "d"], wrong: [{ move: "e", why: { en: "no" } }, { move: "b4c4n", why: { en: "ka" } }] };
  assert.deepEqual(lessonVerdict(step, "c"), { right: true, wrong: null });
  assert.deepEqual(lessonVerdict(step, "e"), { right: false, wrong: step.wrong[0] });
  assert.deepEqual(lessonVerdict(step, "g"), { right: false, wrong: null });
  // A ka move clicked (no direction) finds its try; a typed other direction does not.
  assert.equal(wrongTry(step, "b4c4"), step.wrong[1]);
  assert.equal(wrongTry(step, "b4c4s"), null);
  assert.equal(wrongTry({ accept: [] }, "b4c4"), null);
  assert.ok(bareKaMove("b4c4") && bareKaMove("k11k10") && !bareKaMove("b4c4n") && !bareKaMove("c"));
});

test("a puzzle takes the solution's move, or a listed alternative first move", () => {
  const puzzle = { alternatives: ["d5d6n"] };
  const solution = ["c4c5n", "j8j7", "c5c6w"];
  assert.deepEqual(puzzleVerdict(puzzle, solution, 0, "c4c5n"), { right: true, alternative: false, solved: false });
  assert.deepEqual(puzzleVerdict(puzzle, solution, 0, "d5d6n"), { right: true, alternative: true, solved: true });
  assert.deepEqual(puzzleVerdict(puzzle, solution, 0, "a1a2n"), { right: false, alternative: false, solved: false });
  assert.deepEqual(puzzleVerdict(puzzle, solution, 2, "c5c6w"), { right: true, alternative: false, solved: true });
  assert.equal(puzzleVerdict(puzzle, solution, 2, "d5d6n").right, false, "alternatives are first moves only");
  assert.equal(puzzleVerdict({}, ["c"], 0, "c").solved, true);
});

test("the solver's rating moves as Elo's does", () => {
  assert.equal(ratedAfter(1500, 1500, true), 1516);
  assert.equal(ratedAfter(1500, 1500, false), 1484);
  assert.ok(ratedAfter(1500, 2300, true) > 1530 && ratedAfter(1500, 2300, false) > 1497);
});

test("a review's judgements by ply, and the standing while it runs", () => {
  const eval1 = { text: "+0.40" };
  const review = { game: { start: { eval: { draw: true }, south_win_percent: 50 }, plies: [{ eval: eval1, south_win_percent: 55, best: { move: "c" } }] } };
  assert.equal(reviewPly(review, 1).south_win_percent, 55);
  assert.equal(reviewPly(review, 2), null);
  assert.equal(reviewPly(null, 1), null);
  assert.deepEqual(reviewStanding(review, 0), { text: "drawn by force", win: 50 });
  assert.deepEqual(reviewStanding(review, 1), { text: "+0.40", win: 55 });
  const running = { partial: [null, { eval: { winner: "north", moves: 4 }, win: 10 }, { text: "-1.00", win: 30 }] };
  assert.deepEqual(reviewStanding(running, 1), { text: "North wins by force in 4", win: 10 });
  assert.deepEqual(reviewStanding(running, 2), { text: "-1.00", win: 30 });
  assert.equal(reviewStanding(running, 0), null);
  assert.equal(evalWords({ result: "0-1" }), "North has won");
  assert.equal(evalWords(null), "");
});

test("rule options come from the hello's table", () => {
  const table = [
    { field: "pattern", name: "Pattern", values: ["1", "2"], default: "1" },
    { field: "ka_entry", name: "Ka Entry", values: ["slide", "jump", "both"], default: "slide" },
  ];
  assert.deepEqual(ruleKeys(table), ["pattern", "ka_entry"]);
  assert.deepEqual(defaultRules(table), { pattern: "1", ka_entry: "slide" });
  assert.deepEqual(rulesOf(table, { "Ka Entry": "jump", Unknown: "x" }), { pattern: "1", ka_entry: "jump" });
  assert.deepEqual(rulesOf(table, undefined), { pattern: "1", ka_entry: "slide" });
  assert.equal(optionWordsKey("second_column"), "secondColumn");
});
