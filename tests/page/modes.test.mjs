// The session's modes (src/page/assets/mode-session.js) as hook objects,
// under Node's test runner: whether the person may move, and what the
// panel shows of each, read from the app state alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { app } from "../../src/page/assets/app-state.js";
import { analyseMode, playMode, watchMode } from "../../src/page/assets/mode-session.js";

const state = (fields) => ({ moves: ["c", "i"], cursor: 2, side: "south", person: "south", running: false, ...fields });

test("in play the person moves at their turn, or at an earlier ply", () => {
  app.state = state({});
  assert.equal(playMode.canMove(), true);
  app.state = state({ side: "north" });
  assert.equal(playMode.canMove(), false);
  app.state = state({ side: "north", cursor: 1 });
  assert.equal(playMode.canMove(), true);
  assert.equal(playMode.yourSide(), "south");
});

test("in watch the person moves only while the engine is stopped or at an earlier ply", () => {
  app.state = state({ running: true });
  assert.equal(watchMode.canMove(), false);
  app.state = state({ running: true, cursor: 0 });
  assert.equal(watchMode.canMove(), true);
  app.state = state({ running: false });
  assert.equal(watchMode.canMove(), true);
  assert.equal(analyseMode.canMove(), true);
});

test("each shows its own engine lines, and the panel asks the mode the state names", () => {
  app.lines = { 2: { multipv: 2 }, 1: { multipv: 1 }, 10: { multipv: 10 } };
  app.watchLines = { north: { side: "north" } };
  assert.deepEqual(analyseMode.lines().map((info) => info.multipv), [1, 2, 10]);
  assert.deepEqual(watchMode.lines(), [{ side: "north" }]);
  assert.equal(playMode.lines, undefined, "in play the engine's thoughts stay hidden");
  assert.equal(watchMode.lineLabel({ side: "north" }), "North: ");
  app.sessionModes = { play: playMode, analyse: analyseMode, watch: watchMode };
  app.state = state({ mode: "watch" });
  assert.equal(app.session, watchMode);
  app.state = state({});
  assert.equal(app.session.name, "", "a room's state names no session mode");
  assert.equal(analyseMode.analysesCursor && !playMode.analysesCursor, true);
  assert.equal(playMode.speaksToPerson && playMode.resignable && !analyseMode.resignable, true);
});
