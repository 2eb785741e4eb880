// The board's geometry (src/page/assets/geometry.js), under Node's test
// runner: point names, where points are drawn, passages, move numbers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CELL, MARGIN, centre, fileOf, halfFile, moveNumber, moverOf, other, pointName, rankOf } from "../../src/page/assets/geometry.js";

const SOUTH_FIRST = "11 s 0 0 -";
const NORTH_FIRST = "11 n 0 0 -";

test("the 121 points are named a1 to k11, each once", () => {
  const names = Array.from({ length: 121 }, (_, i) => pointName(i));
  assert.equal(names[0], "a1");
  assert.equal(names[10], "k1");
  assert.equal(names[11], "a2");
  assert.equal(names[120], "k11");
  assert.equal(new Set(names).size, 121);
  for (const [i, name] of names.entries()) assert.equal(fileOf(name) + 11 * rankOf(name), i, name);
});

test("South is drawn at the bottom, and at the top when the board is turned", () => {
  const low = MARGIN + CELL / 2, high = MARGIN + CELL / 2 + 10 * CELL;
  assert.deepEqual(centre("a1", false), [low, high]);
  assert.deepEqual(centre("k11", false), [high, low]);
  assert.deepEqual(centre("a1", true), [high, low]);
  assert.deepEqual(centre("f6", true), centre("f6", false), "the centre stays");
});

test("a passage is a file within one half", () => {
  assert.deepEqual(halfFile(2, "south"), ["c1", "c2", "c3", "c4", "c5"]);
  assert.deepEqual(halfFile(0, "north"), ["a7", "a8", "a9", "a10", "a11"]);
});

test("move numbers and movers follow who moved first", () => {
  assert.equal(moveNumber(1, SOUTH_FIRST), "1.");
  assert.equal(moveNumber(2, SOUTH_FIRST), "1...");
  assert.equal(moveNumber(3, SOUTH_FIRST), "2.");
  assert.equal(moveNumber(1, NORTH_FIRST), "1...");
  assert.equal(moveNumber(2, NORTH_FIRST), "2.");
  assert.equal(moverOf(1, SOUTH_FIRST), "south");
  assert.equal(moverOf(2, SOUTH_FIRST), "north");
  assert.equal(moverOf(1, NORTH_FIRST), "north");
  assert.equal(other("south"), "north");
  assert.equal(other("north"), "south");
});
