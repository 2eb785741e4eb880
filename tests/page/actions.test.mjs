// The page's named actions (src/page/assets/actions.js), under Node's
// test runner: each changes the app state and then redraws once.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import {
  addressError, flip, lightColumn, receiveInfo, receiveSearch, receiveState, sayError, select, setViews,
} from "../../src/page/assets/actions.js";
import { app } from "../../src/page/assets/app-state.js";

let drawn;
beforeEach(() => {
  drawn = [];
  const view = (name) => () => drawn.push(name);
  setViews({ rules: view("rules"), page: view("page"), analysis: view("analysis"), board: view("board"), errors: view("errors"), picker: view("picker") });
  app.sessionModes = { analyse: { name: "analyse", analysesCursor: true }, play: { name: "play" } };
  Object.assign(app, { state: null, selected: null, flipped: false, review: null, lines: {}, watchLines: {}, evalPly: null, evalShown: null, lastError: null, searchInfo: null, litColumn: null, addressErrors: [] });
});

const state = (fields) => ({ position: "p0", cursor: 0, moves: [], mode: "analyse", over: null, person: null, ...fields });

test("a state is taken, then the page is drawn once", () => {
  receiveState(state({ person: "north", mode: "play" }));
  assert.equal(app.flipped, true, "the person who plays North sees it at the bottom");
  assert.deepEqual(drawn, ["page"]);
  app.selected = "b4";
  app.review = { type: "review" };
  app.lastError = "no";
  receiveState(state({ position: "p1", cursor: 1, moves: ["c"] }));
  assert.equal(app.selected, null, "a new position drops the chosen stone");
  assert.equal(app.review, null, "a review belongs to the moves it judged");
  assert.equal(app.lastError, null);
  assert.equal(app.flipped, true, "only the first state turns the board");
  assert.deepEqual(drawn, ["page", "page"]);
});

test("analysis lines of another ply go; a game over shows its result in the bar", () => {
  receiveState(state({}));
  receiveSearch({ type: "search", purpose: "analyse", side: "south", ply: 0 });
  receiveInfo({ type: "info", multipv: 1, depth: 3, score: "+0.50", south: 50, pv: ["c"], side: "south", ply: 0 });
  assert.equal(app.evalPly, 0);
  assert.equal(app.evalShown.text, "+0.50");
  assert.deepEqual(drawn, ["page", "analysis"], "a search alone draws nothing");
  receiveState(state({ cursor: 1, moves: ["c"], position: "p1" }));
  assert.deepEqual(app.lines, {});
  assert.equal(app.evalPly, null);
  assert.deepEqual(app.evalShown, { text: "", share: 50 });
  receiveState(state({ cursor: 1, moves: ["c"], position: "p1", over: { winner: "north", reason: "points" } }));
  assert.deepEqual(app.evalShown, { text: "", share: 0 });
  drawn = [];
  receiveInfo({ type: "info", multipv: 1, depth: 3, score: "+9", south: 900, pv: [], side: "south", ply: 1 });
  assert.deepEqual(drawn, [], "a game over takes no more lines");
});

test("the board's own actions redraw the board once, and only on a change", () => {
  select("b4");
  flip();
  lightColumn(3);
  lightColumn(3);
  assert.equal(app.selected, "b4");
  assert.equal(app.flipped, true);
  assert.equal(app.litColumn, 3);
  assert.deepEqual(drawn, ["board", "board", "board"]);
});

test("errors are said once each", () => {
  sayError("no");
  addressError("bad address", true);
  assert.equal(app.lastError, "no");
  assert.deepEqual(app.addressErrors, ["bad address"]);
  assert.equal(app.addressMovesRefused, true);
  assert.deepEqual(drawn, ["errors", "errors"]);
});
