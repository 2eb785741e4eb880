// @ts-check
// The page's one state, owned here: what the session last said, what the
// board shows, and each mode's own progress. Modules read and change its
// fields; none keeps state of its own.

export const MAX_RECORD_BYTES = 1 << 20;
// The session's modes, as the address names them (`?mode=`).
export const MODES = ["play", "analyse", "watch", "review", "friend"];
/** @typedef {import("./wire-types.js").RuleChoice} RuleChoice */

/** The page's fields of the rule options (`ka_entry`), each the id of its
 * select in the rules box and a key of the address. */
export const ruleKeys = (/** @type {RuleChoice[]} */ table) => table.map((option) => option.field);

/** The default rules, by the page's fields. */
export function defaultRules(/** @type {RuleChoice[]} */ table) {
  return Object.fromEntries(table.map((option) => [option.field, option.default]));
}

/** The rules of `options` (protocol names to values, as lessons and
 * puzzles write them) as the session's `new` takes them: the page's fields,
 * each at its default unless given.
 * @param {RuleChoice[]} table
 * @param {Record<string, any> | undefined} options
 * @returns {Record<string, any>}
 */
export function rulesOf(table, options) {
  const rules = defaultRules(table);
  for (const option of table) {
    if (options && options[option.name] !== undefined) rules[option.field] = options[option.name];
  }
  return rules;
}

/** The strings table's key of a rule option's name: its field in camel case. */
export const optionWordsKey = (/** @type {string} */ field) => field.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/**
 * A mode: an object of hooks (see app.js for what each does).
 * @typedef {object} Mode
 * @property {string} name
 * @property {() => void} [start]
 * @property {() => boolean} [canMove]
 * @property {(move: any) => void} [submit]
 * @property {(text: string) => boolean} [unlisted]
 * @property {(name: string) => void} [deadClick]
 * @property {(svg: Element) => void} [decorate]
 * @property {() => void} [onState]
 * @property {(message: import("./wire-types.js").Room) => void} [onRoom]
 * @property {(message: import("./wire-types.js").ErrorMessage) => boolean} [onError]
 * @property {(connect: () => void) => void} [onClose]
 * @property {() => void} [onRestart]
 * @property {() => void} [render]
 * @property {() => string | undefined} [hint]
 * @property {() => string} [title]
 * @property {(side: string) => string} [playerName]
 * @property {() => string | null} [yourSide]
 * @property {boolean} [keys]
 * @property {boolean} [browse]
 * The session's modes (the state's `mode` names one) tell the panel:
 * @property {string} [titleKey] the strings key of its name in the tab's title
 * @property {boolean} [speaksToPerson] the hint speaks to the person ("your move"), at their turn only
 * @property {boolean} [resignable] its game may be resigned
 * @property {boolean} [takesBack] false: no take-back
 * @property {() => string} [saveWords] the Save button's words
 * @property {boolean} [reviewBox] it shows the review's box
 * @property {(ply: number) => any} [judgement] the judgement of a ply, for the move list
 * @property {boolean} [friendBox] it shows the friend game's box, and names the player to move
 * @property {boolean} [analysesCursor] the engine's lines and score belong to the ply on view
 * @property {() => import("./wire-types.js").Info[]} [lines] the engine's lines it shows
 * @property {(info: import("./wire-types.js").Info) => string} [lineLabel] what a line is headed with
 */

// The session's mode of a state that names none (a room's): no hooks.
/** @type {Mode} */
const NO_SESSION_MODE = { name: "" };

/** The page's one state. */
export const app = {
  // The engine's table of rule options, from the server's `hello` (none
  // before it): the only list of them the page has.
  /** @type {RuleChoice[]} */
  ruleOptions: [],
  // The mode the page started in and owns (learn, puzzle, room, lobby),
  // or null: then the session's state.mode chooses (see `mode`).
  /** @type {Mode | null} */
  page: null,
  // The modes the session's state.mode names, filled by app.js.
  /** @type {Record<string, Mode>} */
  sessionModes: {},
  /** The mode in charge: its hooks decide what a click, a move and a message do. */
  /** The session's mode the last state names: what the panel shows of
   * the game (a page's own mode may be in charge beside it).
   * @returns {Mode} */
  get session() {
    return (this.state && this.sessionModes[this.state.mode]) || NO_SESSION_MODE;
  },
  /** @returns {Mode} */
  get mode() {
    return this.page || (this.state && this.sessionModes[this.state.mode]) || this.sessionModes.play;
  },
  /** @type {any} */
  socket: null,        // the transport to the session or the room
  /** @type {import("./wire-types.js").State | null} */
  state: null,         // the last "state" message
  flipped: false,      // North at the bottom
  selected: null,      // the origin point chosen in phases 2 and 3
  litColumn: null,     // phase 1: the column under the pointer
  /** @type {Record<number, import("./wire-types.js").Info>} */
  lines: {},           // the current search's lines by multipv
  /** @type {import("./wire-types.js").Search | null} */
  searchInfo: null,    // the last "search" message
  /** @type {Record<string, import("./wire-types.js").Info>} */
  watchLines: {},      // watch mode: the last line of each side
  /** @type {number | null} */
  evalPly: null,       // the ply of the position the shown evaluation is of
  /** @type {{ text: string, share: number } | null} */
  evalShown: null,     // the evaluation shown: { text, share } (South's share, percent)
  restoreEval: null,   // a reopened game's kept evaluation, shown once its moves are back
  sentName: null,      // the person's name last sent to the session in play
  clockAt: 0,          // when the last state's clock readings were taken
  /** @type {import("./wire-types.js").Review | null} */
  review: null,        // the last "review" message
  /** @type {import("./wire-types.js").Games | null} */
  games: null,         // the last "games" message (a file of several)
  /** @type {(string | (() => string))[]} */
  addressErrors: [],   // what was wrong with the page's address: stays shown (words, or a function giving them in the page's language)
  addressMovesRefused: false, // a move of the address was refused: the ones after it are not said
  /** @type {Record<string, () => string>} */
  tagWords: {},        // the address's parts sent with a tag, worded in the page's language
  /** @type {string | (() => string) | null} */
  notice: null,        // a notice that stays (the worker was restarted)
  /** @type {string | (() => string) | null} */
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
