// The page's one state, owned here: what the session last said, what the
// board shows, and each mode's own progress. Modules read and change its
// fields; none keeps state of its own.
import { $ } from "./dom.js";

export const MAX_RECORD_BYTES = 1 << 20;
// The session's modes, as the address names them (`?mode=`).
export const MODES = ["play", "analyse", "watch", "review", "friend"];
// The fields of the server's `rules` objects (and the address's rule
// keys), each the id of its select in the page's rules box; the session's
// `hello` gives their values (from the engine's table of rule options),
// and the selects are filled from it.
export const RULE_KEYS = [...document.querySelectorAll("#game .rules select")].map((select) => select.id);
// The course's and the puzzles' rule options are the protocol's names;
// the session's `new` takes the page's fields.
export const OPTION_FIELDS = { "Pattern": "pattern", "Ka Entry": "ka_entry", "Second Column": "second_column", "Centre": "centre" };
export const DEFAULT_RULES = { pattern: "1", ka_entry: "slide", second_column: "opposite", centre: "wall" };
export const RULE_OPTION_NAMES = Object.keys(OPTION_FIELDS);

/** The rules of `options` (protocol names to values) as the session's `new` takes them. */
export function rulesOf(options) {
  const rules = Object.assign({}, DEFAULT_RULES);
  for (const [name, value] of Object.entries(options || {})) {
    if (OPTION_FIELDS[name]) rules[OPTION_FIELDS[name]] = value;
  }
  return rules;
}

/** The rules chosen in the page's rules box. */
export function chosenRules() {
  const r = {};
  for (const key of RULE_KEYS) r[key] = $(key).value;
  return r;
}

export const app = {
  // The mode the page started in and owns (learn, puzzle, room, lobby),
  // or null: then the session's state.mode chooses (see `mode`).
  page: null,
  // The modes the session's state.mode names, filled by app.js.
  sessionModes: {},
  /** The mode in charge: its hooks decide what a click, a move and a message do. */
  get mode() {
    return this.page || (this.state && this.sessionModes[this.state.mode]) || this.sessionModes.play;
  },
  socket: null,        // the transport to the session or the room
  state: null,         // the last "state" message
  flipped: false,      // North at the bottom
  selected: null,      // the origin point chosen in phases 2 and 3
  litColumn: null,     // phase 1: the column under the pointer
  lines: {},           // the current search's lines by multipv
  searchInfo: null,    // the last "search" message
  watchLines: {},      // watch mode: the last line of each side
  evalPly: null,       // the ply of the position the shown evaluation is of
  evalShown: null,     // the evaluation shown: { text, share } (South's share, percent)
  restoreEval: null,   // a reopened game's kept evaluation, shown once its moves are back
  sentName: null,      // the person's name last sent to the session in play
  clockAt: 0,          // when the last state's clock readings were taken
  review: null,        // the last "review" message
  games: null,         // the last "games" message (a file of several)
  addressErrors: [],   // what was wrong with the page's address: stays shown (words, or a function giving them in the page's language)
  addressMovesRefused: false, // a move of the address was refused: the ones after it are not said
  tagWords: {},        // the address's parts sent with a tag, worded in the page's language
  notice: null,        // a notice that stays (the worker was restarted)
  lastError: null,     // the last refusal, cleared by the next state
  dragging: false,     // a press on the graph that has not been let go
  learn: null,         // Learn mode: the course, the lesson and step, and where the step stands
  friend: null,        // Friend mode: the players' names, the start position, the board's turning
  puzzle: null,        // Puzzle mode: the puzzles, the one on the board and where it stands
  room: null,          // { code, seat, token, presence, game, rematch, names, grace }
  roomTurn: -1,        // the ply whose turn was last told
  roomRetry: 0,        // reconnections tried since the last good one
  roomNamed: false,    // whether the kept name was given to the room
  roomPending: null,   // a move made while the room's socket was down: { move, ply }, sent when it is back
  roomLink: "",        // the room's socket: "" (open or opening), "retrying", "refused"
  roomRefusals: 0,     // refusals in a row that may pass (a limit reached)
};
