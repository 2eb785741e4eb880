// @ts-check
// The session's own modes: play against the engine, analyse, watch the
// engine play itself. The session referees and drives the engine; the
// page sends the person's moves.
import { app } from "./app-state.js";
import { sendMove } from "./board.js";

// Whether the person may move now: in play only at their turn, in watch
// only while the engine is stopped or the board is at an earlier ply.
function canMove() {
  const state = app.state;
  const atEnd = state.cursor === state.moves.length;
  if (state.mode === "play" && atEnd && state.side !== state.person) return false;
  if (state.mode === "watch" && state.running && atEnd) return false;
  return true;
}

/** The hooks of play, analyse and watch (see app.js). */
export const sessionMode = {
  name: "session",
  canMove,
  submit: sendMove,
  // The session referees: its refusal names the rule's reason.
  unlisted: (move) => { sendMove(move); return false; },
  keys: true,
};
