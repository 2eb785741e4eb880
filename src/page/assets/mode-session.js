// @ts-check
// The session's own modes: play against the engine, analyse, watch the
// engine play itself. The session referees and drives the engine; the
// page sends the person's moves. Each is an object of hooks, as every
// mode is (see app.js); the panel asks them what to show.
import { app } from "./app-state.js";
import { sendMove } from "./board.js";
import { t } from "./strings.js";

// Whether the board is at the game's last ply.
const atEnd = () => app.state.cursor === app.state.moves.length;

// The hooks the three share: the session referees, so a move the board
// does not list goes to it and its refusal names the rule's reason.
const shared = {
  submit: sendMove,
  unlisted: (/** @type {string} */ move) => { sendMove(move); return false; },
  keys: true,
};

/** Play against the engine: the person moves at their turn only; the
 * panel speaks to them ("your move") and the game may be resigned.
 * @type {import("./app-state.js").Mode} */
export const playMode = {
  ...shared,
  name: "play",
  titleKey: "titlePlay",
  canMove: () => !atEnd() || app.state.side === app.state.person,
  speaksToPerson: true,
  resignable: true,
  yourSide: () => app.state.person || null,
};

/** Analyse: any move at any time; the engine's lines belong to the ply
 * on view, shown by their rank.
 * @type {import("./app-state.js").Mode} */
export const analyseMode = {
  ...shared,
  name: "analyse",
  titleKey: "titleAnalyse",
  canMove: () => true,
  analysesCursor: true,
  lines: () => Object.keys(app.lines).sort((a, b) => Number(a) - Number(b)).map((k) => app.lines[k]),
};

/** Watch the engine play itself: a move only while it is stopped or the
 * board is at an earlier ply; each side's last line is shown.
 * @type {import("./app-state.js").Mode} */
export const watchMode = {
  ...shared,
  name: "watch",
  titleKey: "titleWatch",
  canMove: () => !(app.state.running && atEnd()),
  lines: () => ["south", "north"].map((side) => app.watchLines[side]).filter(Boolean),
  lineLabel: (info) => t(info.side) + ": ",
};
