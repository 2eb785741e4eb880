// @ts-check
// The page's named actions, as lichess's ctrl has them: each changes the
// page's shared state (app-state.js) and then redraws once, so that no
// view writes what it draws. The redraws are the views' own, handed over
// by app.js at start (so this module imports no view): the page from the
// state; the analysis (the engine's lines, the evaluation, the board); the
// board alone, for what the pointer changes; the errors; the record
// picker. A mode's own progress (app.learn, app.puzzle, app.friend, the
// room's fields) is written by that mode's module.
import { app } from "./app-state.js";

/** @typedef {import("./wire-types.js").State} State */
/** @typedef {string | (() => string)} Words words, or a function giving them in the page's language */

/** The views' redraws (set once by app.js). */
const views = {
  rules: () => {},
  page: () => {},
  analysis: () => {},
  board: () => {},
  errors: () => {},
  picker: () => {},
};

/** Hands over the views' redraws.
 * @param {typeof views} redraws */
export function setViews(redraws) {
  Object.assign(views, redraws);
}

/** The session's modes by the names a state gives (set once by app.js).
 * @param {Record<string, import("./app-state.js").Mode>} modes */
export function setSessionModes(modes) {
  app.sessionModes = modes;
}

/** The connection to the session or the room is (again) this one. */
export function connected(/** @type {any} */ transport) {
  app.socket = transport;
}

/** The server's hello: its table of rule options is the page's. */
export function receiveHello(/** @type {import("./wire-types.js").Hello} */ message) {
  app.ruleOptions = message.rules;
  views.rules();
}

/** A state from the server: what it changes of the view (the selection,
 * the board's turning for a person who plays North, a review of other
 * moves, engine lines and a score of another position), then the page is
 * redrawn from it.
 * @param {State} message */
export function receiveState(message) {
  const before = app.state;
  if (before && (before.position !== message.position || before.cursor !== message.cursor)) app.selected = null;
  if (!before && message.person === "north") app.flipped = true;
  // A review belongs to the moves it judged.
  if (before && before.moves.join(" ") !== message.moves.join(" ")) app.review = null;
  app.state = message;
  forgetStaleEvaluation();
  restoreEvaluation();
  // A finished game has nothing to stop, and its engines' lines are old.
  if (message.over) {
    app.lines = {};
    app.watchLines = {};
  }
  app.lastError = null;
  // The clocks count down from here until the next state.
  app.clockAt = performance.now();
  views.page();
}

// An evaluation or lines of another position than the one on view are
// not shown: analysis lines belong to the ply they searched; in play the
// engine's last score stands until a take-back goes before it; a game
// over shows its result in the bar, not a score.
function forgetStaleEvaluation() {
  const state = app.state;
  const analyses = app.session.analysesCursor;
  if (analyses && Object.values(app.lines).some((info) => info.ply !== state.cursor)) app.lines = {};
  if (state.over) {
    app.evalPly = null;
    const winner = state.over.winner;
    app.evalShown = { text: "", share: winner === "south" ? 100 : winner === "north" ? 0 : 50 };
  } else if (app.evalPly !== null && (state.cursor < app.evalPly || (analyses && state.cursor !== app.evalPly))) {
    app.evalPly = null;
    app.evalShown = { text: "", share: 50 };
  }
}

// A reopened game's kept evaluation, shown once it is back at its end.
function restoreEvaluation() {
  const kept = app.restoreEval;
  const state = app.state;
  if (!kept || state.mode !== "play") return;
  if (state.moves.length !== kept.plies || state.cursor !== kept.plies) return;
  app.restoreEval = null;
  if (app.evalPly === null) {
    app.evalPly = kept.ply;
    app.evalShown = { text: String(kept.text), share: Number(kept.share) || 50 };
  }
}

/** The engine starts a search: an analysis's lines start afresh.
 * (Nothing shown changes until its first line.)
 * @param {import("./wire-types.js").Search} message */
export function receiveSearch(message) {
  app.searchInfo = message;
  if (message.purpose === "analyse") app.lines = {};
}

/** A line of the engine's search: a side's line when it plays, an
 * analysis line by its rank; the first line's score is the evaluation.
 * @param {import("./wire-types.js").Info} message */
export function receiveInfo(message) {
  if (app.state && app.state.over) return;
  if (app.searchInfo && app.searchInfo.purpose === "move") app.watchLines[message.side] = message;
  else app.lines[message.multipv] = message;
  if (message.multipv === 1) {
    app.evalPly = message.ply;
    app.evalShown = { text: message.score, share: 100 / (1 + Math.exp(-message.south / 400)) };
  }
  views.analysis();
}

/** How far the review has come. */
export function receiveReview(/** @type {import("./wire-types.js").Review} */ message) {
  app.review = message;
  if (app.state) views.page();
}

/** The games of a record file (null: none open). */
export function receiveGames(/** @type {import("./wire-types.js").Games | null} */ message) {
  app.games = message;
  views.picker();
}

/** A new game asked for: the engine's lines of the old one go. */
export function freshGame() {
  app.lines = {};
  app.watchLines = {};
}

/** The kept evaluation of a reopened game (shown once its moves are back). */
export function keepEvaluation(/** @type {any} */ kept) {
  app.restoreEval = kept;
}

/** Turns the board (North at the bottom, or South). */
export function flip(/** @type {boolean} */ flipped = !app.flipped) {
  app.flipped = flipped;
  views.board();
}

/** A new position of the mode's own (a lesson's step, a puzzle): no
 * origin chosen, and the board turned so that `flipped` says. */
export function setUpBoard(/** @type {boolean} */ flipped) {
  app.selected = null;
  app.flipped = flipped;
  views.board();
}

/** Chooses the origin of a move (null: lets go). */
export function select(/** @type {string | null} */ name) {
  app.selected = name;
  views.board();
}

/** Phase 1: lights the column under the pointer (null: none). */
export function lightColumn(/** @type {number | null} */ column) {
  if (column === app.litColumn) return;
  app.litColumn = column;
  views.board();
}

/** A move is made: the selection and the lit column go. (The board is
 * drawn again by the state the move brings.) */
export function moveMade() {
  app.selected = null;
  app.litColumn = null;
}

/** Says `words` in #error until the next state. */
export function sayError(/** @type {Words} */ words) {
  app.lastError = words;
  views.errors();
}

/** Says what was wrong with the page's address: it stays shown. A
 * refused move of the address (`moves`) leaves the ones after it unsaid.
 * @param {Words} words
 * @param {boolean} [moves] */
export function addressError(words, moves = false) {
  app.addressErrors.push(words);
  app.addressMovesRefused = app.addressMovesRefused || moves;
  views.errors();
}

/** How a part of the address sent with `tag` is said. */
export function nameTag(/** @type {string} */ tag, /** @type {() => string} */ words) {
  app.tagWords[tag] = words;
}

/** The person's name as the session was last given it (null: not yet). */
export function nameSent(/** @type {string | null} */ name) {
  app.sentName = name;
}

/** A notice that stays (the engine's worker was restarted). */
export function notice(/** @type {Words} */ words) {
  app.notice = words;
  views.errors();
}

/** The mode the page starts in and owns (learn, puzzle, a room, the lobby). */
export function enterPage(/** @type {import("./app-state.js").Mode} */ mode) {
  app.page = mode;
}
