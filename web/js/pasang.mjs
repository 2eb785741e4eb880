// The pasang engine and rules in WebAssembly: a loader and two faces.
//
//   const pasang = await loadPasang(bytesOrResponse);
//   const engine = pasang.engine(line => console.log(line));  // protocol text
//   engine.send('uci');
//   const board = pasang.board({ fen, rules: { 'Ka Entry': 'jump' } });
//
// The module speaks a plain C interface (web/src/lib.rs): arguments are
// UTF-8 written into its memory, answers are read back from it. A search
// pauses every ~20 ms through the import `host.pause_for_page`; binaryen's
// asyncify (web/build.sh) unwinds the call there, the event loop runs, and
// the call is rewound, so `stop` and `isready` are heard while it searches.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Room for the search's saved stack while it is paused (bytes). */
const PAUSE_STACK_BYTES = 1 << 20;

/** A turn of the event loop, without the 4 ms clamp of nested timers. */
function nextTurn() {
  if (typeof setImmediate === 'function') return new Promise(resolve => setImmediate(resolve));
  return new Promise(resolve => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(0);
  });
}

/** The error a board call throws: the engine's own message. */
export class PasangError extends Error {
  constructor(message) { super(message); this.name = 'PasangError'; }
}

/**
 * Instantiates the module from bytes (ArrayBuffer, typed array) or a
 * Response (fetch), and returns its two faces.
 */
export async function loadPasang(source) {
  let onLine = () => {};
  let exports;
  // Asyncify: 'normal', 'unwinding' (paused, stack saved), 'rewinding'.
  let pauseState = 'normal';
  let pauseData = 0;
  const imports = {
    host: {
      now_ms: () => performance.now(),
      date_now_ms: () => Date.now(),
      write: (ptr, len) => onLine(decoder.decode(new Uint8Array(exports.memory.buffer, ptr, len))),
      pause_for_page: () => {
        // A call made while another is paused runs to its end: one saved
        // stack at a time.
        if (pauseState === 'paused') return;
        if (pauseState === 'rewinding') {
          exports.asyncify_stop_rewind();
          pauseState = 'normal';
          return;
        }
        const header = new Int32Array(exports.memory.buffer, pauseData, 2);
        header[0] = pauseData + 8;
        header[1] = pauseData + 8 + PAUSE_STACK_BYTES;
        exports.asyncify_start_unwind(pauseData);
        pauseState = 'unwinding';
      },
    },
  };
  let instance;
  if (typeof Response !== 'undefined' && source instanceof Response) {
    ({ instance } = await WebAssembly.instantiateStreaming(source, imports));
  } else {
    ({ instance } = await WebAssembly.instantiate(source, imports));
  }
  exports = instance.exports;
  pauseData = exports.pasang_alloc(8 + PAUSE_STACK_BYTES);

  /** Calls `f` with `text` in the module's memory. */
  function withText(text, f) {
    const bytes = encoder.encode(text);
    const ptr = exports.pasang_alloc(bytes.length);
    new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
    try { return f(ptr, bytes.length); } finally { exports.pasang_free(ptr, bytes.length); }
  }
  function answer() {
    return decoder.decode(new Uint8Array(exports.memory.buffer, exports.pasang_text_ptr(), exports.pasang_text_len()));
  }

  /**
   * Runs `call` (an export that may pause) to its end, letting the event
   * loop turn at each pause; `call` is made again, with the same
   * arguments, to rewind.
   */
  async function pausable(call) {
    for (;;) {
      const result = call();
      if (pauseState !== 'unwinding') return result;
      exports.asyncify_stop_unwind();
      pauseState = 'paused';
      await nextTurn();
      exports.asyncify_start_rewind(pauseData);
      pauseState = 'rewinding';
    }
  }
  /** Copies `text` into the module's memory: [ptr, len]. */
  function put(text) {
    const bytes = encoder.encode(text);
    const ptr = exports.pasang_alloc(bytes.length);
    new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  }

  let engineMade = false;
  let sessionMade = false;
  // A board dropped without delete() is freed once it is collected, as
  // emscripten-built libraries such as ffish.js cannot do by themselves.
  const boards = new FinalizationRegistry((handle) => exports.board_free(handle));
  function freeBoard(board, handle) {
    boards.unregister(board);
    exports.board_free(handle);
  }

  return {
    /**
     * The protocol engine (one a module): `send(line)` takes a line as
     * the native engine reads it; `listener(line)` gets each line it
     * prints. `ended` resolves once it has carried out `quit`.
     */
    engine(listener) {
      if (engineMade) throw new PasangError('this module already runs an engine');
      engineMade = true;
      onLine = listener;
      const seed = new Uint32Array(2);
      globalThis.crypto.getRandomValues(seed);
      exports.engine_start(seed[0], seed[1]);
      let running = false;
      let quit = false;
      let endedResolve;
      const ended = new Promise(resolve => { endedResolve = resolve; });
      // Lines that come while a run is under way (paused, or finishing)
      // are queued in the module; the run goes round again for them.
      let again = false;
      async function run() {
        if (running) { again = true; return; }
        running = true;
        let goingOn;
        do {
          again = false;
          goingOn = await pausable(() => exports.engine_run());
        } while (again && goingOn);
        running = false;
        if (!goingOn && !quit) { quit = true; endedResolve(); }
      }
      return {
        send(line) {
          if (quit) return;
          for (const one of String(line).split(/\r?\n/)) withText(one, (ptr, len) => exports.engine_input(ptr, len));
          run();
        },
        ended,
      };
    },

    /**
     * The board page's session with its engine, as `pasang gui` runs it
     * behind its WebSocket: `send(json)` takes a page message (text);
     * `listener(json)` gets each message for the page.
     */
    boardSession(listener) {
      if (sessionMade) throw new PasangError('this module already runs a board session');
      sessionMade = true;
      const seed = new Uint32Array(2);
      globalThis.crypto.getRandomValues(seed);
      exports.page_start(seed[0], seed[1]);
      const deliver = () => {
        if (exports.page_take() === 0) return;
        for (const message of answer().split('\n')) listener(message);
      };
      deliver();
      const tick = async () => {
        await pausable(() => exports.page_tick());
        deliver();
      };
      // The clock, the review and the engine's lines, several times a second.
      const timer = setInterval(tick, 50);
      return {
        async send(text) {
          const [ptr, len] = put(String(text));
          try { await pausable(() => exports.page_message(ptr, len)); } finally { exports.pasang_free(ptr, len); }
          deliver();
        },
        close() { clearInterval(timer); },
      };
    },

    /**
     * The rules pages and their pictures, for the site's build: { html (the
     * players' page), spec (the specification), pictures: {path: svg} }.
     */
    rulesPage() {
      exports.page_rules();
      const html = answer();
      exports.page_rules_spec();
      const spec = answer();
      const pictures = {};
      for (const [, path] of (html + spec).matchAll(/src="\/rules\/([^"]+)"/g)) {
        if (withText(path, (ptr, len) => exports.page_rules_picture(ptr, len)) === 0) pictures[path] = answer();
      }
      return { html, spec, pictures };
    },

    /**
     * A board: `{ fen, rules }` with `fen` a position string (the start
     * when absent) and `rules` the rule options by their protocol names.
     */
    /** The rule options from the engine's own table: [{ name, values, default }], in the protocol's order. */
    ruleOptions() {
      exports.pasang_rule_options();
      return answer().split('\n').filter(Boolean).map((line) => {
        const [name, values, fallback] = line.split('\t');
        return { name, values: values.split(','), default: fallback };
      });
    },

    /** The bytes of the module's memory (it grows, never shrinks): to watch for leaks. */
    memoryBytes() { return exports.memory.buffer.byteLength; },

    board(options = {}) {
      const spec = [options.fen ?? ''];
      for (const [name, value] of Object.entries(options.rules ?? {})) spec.push(`${name}=${value}`);
      const handle = withText(spec.join('\n'), (ptr, len) => exports.board_new(ptr, len));
      if (handle < 0) throw new PasangError(answer());
      const board = new Board(handle, call, freeBoard);
      boards.register(board, handle, board);
      return board;
    },
  };


  function call(handle, text) {
    const status = withText(text, (ptr, len) => exports.board_call(handle, ptr, len));
    const text_ = answer();
    if (status !== 0) throw new PasangError(text_);
    return text_;
  }
}

// The fixed action space of pasang.rl (docs/rl.md), without the module:
// 0-10 the passages on files a-k, then every ka triple (origin, landing
// point, captured directions) that can be legal, in order of origin
// index (a1 = 0, b1 = 1, ..., k11 = 120), landing index, then direction
// set n, s, ns, e, w, ew. Built by the rule of the core's
// src/rl/action.rs; tests/web.rs checks the two give every id alike.

/** The number of action ids. */
export const ACTIONS = 7291;
const SIZE = 11;
const HOLE = 60;
const [N, S, E, W] = [1, 2, 4, 8];
const DIRECTION_SETS = [N, S, N | S, E, W, E | W];
let actionTable = null;

function beyond(rank, file, flag) {
  return flag === N ? rank < SIZE - 1 : flag === S ? rank > 0 : flag === E ? file < SIZE - 1 : file > 0;
}

/** Whether the ka triple can be legal (docs/rl.md's rule). */
function possible(from, to, directions) {
  if (from === to || from === HOLE || to === HOLE) return false;
  const [fromRank, fromFile, rank, file] = [Math.floor(from / SIZE), from % SIZE, Math.floor(to / SIZE), to % SIZE];
  const flags = [N, S, E, W].filter((flag) => directions & flag);
  const alongFile = (directions & (N | S)) !== 0;
  if (fromFile === file) return !alongFile && flags.every((flag) => beyond(rank, file, flag));
  if (fromRank !== rank) return false;
  if (alongFile) return flags.every((flag) => beyond(rank, file, flag));
  const distance = Math.abs(fromFile - file);
  if (rank === 5 || distance > 2) return false;
  const towards = fromFile > file ? E : W;
  return flags.every((flag) =>
    flag === towards && distance === 1 ? beyond(fromRank, fromFile, flag) : beyond(rank, file, flag));
}

function pointName(index) {
  return String.fromCharCode(97 + (index % SIZE)) + String(Math.floor(index / SIZE) + 1);
}

function directionLetters(directions) {
  return [[N, 'n'], [S, 's'], [E, 'e'], [W, 'w']].filter(([flag]) => directions & flag).map(([, letter]) => letter).join('');
}

/** The ids' texts and the ids by text, built once. */
function actions() {
  if (actionTable) return actionTable;
  const texts = [];
  for (let file = 0; file < SIZE; file++) texts.push(String.fromCharCode(97 + file));
  for (let from = 0; from < SIZE * SIZE; from++) {
    for (let to = 0; to < SIZE * SIZE; to++) {
      for (const directions of DIRECTION_SETS) {
        if (possible(from, to, directions)) texts.push(pointName(from) + pointName(to) + directionLetters(directions));
      }
    }
  }
  actionTable = { texts, ids: new Map(texts.map((text, id) => [text, id])) };
  return actionTable;
}

/** A move's text in canonical form: lower case, directions in the order n, s, e, w. */
function canonical(move) {
  const text = String(move).trim().toLowerCase();
  const match = /^([a-k][0-9]{1,2}[a-k][0-9]{1,2})([nsew]+)$/.exec(text);
  if (!match) return text;
  const flags = [...match[2]].reduce((set, letter) => set | { n: N, s: S, e: E, w: W }[letter], 0);
  return match[1] + directionLetters(flags);
}

/** The id of a move (its text, with its directions), with no board; throws PasangError for a move legal in no position. */
export function encodeMove(move) {
  const id = actions().ids.get(canonical(move));
  if (id === undefined) throw new PasangError(`move '${move}' is legal in no position, so it has no action id`);
  return id;
}

/** What `action` stands for, in the move notation, with no board. */
export function describeAction(action) {
  const text = Number.isInteger(action) ? actions().texts[action] : undefined;
  if (text === undefined) throw new PasangError(`action ${action} is out of range: ids are 0 to ${ACTIONS - 1}`);
  return text;
}

/** The legal move of `board` with id `action`; throws PasangError when none has it. */
export function decodeAction(action, board) {
  const text = describeAction(action);
  const move = board.legalMoves().find((legal) => legal === text);
  if (move === undefined) throw new PasangError(`action ${action} (${text}) is not legal in this position`);
  return move;
}

/** A game on the board: the rules as ffish.js gives chess's. */
export class Board {
  #handle;
  #call;
  #free;
  constructor(handle, call, free) {
    this.#handle = handle;
    this.#free = free;
    this.#call = (h, text) => {
      if (this.#handle === null) throw new PasangError('this board was deleted');
      return call(h, text);
    };
  }
  /**
   * Frees the board's memory now (as ffish.js's `delete()`); any later call
   * throws. A board that is only dropped is freed when it is collected.
   */
  delete() {
    if (this.#handle === null) return;
    this.#free(this, this.#handle);
    this.#handle = null;
  }
  /** The legal moves, in the project's notation. */
  legalMoves() { const text = this.#call(this.#handle, 'moves'); return text ? text.split(' ') : []; }
  /** Plays `move`; returns it as the engine writes it. Throws if illegal (the board unchanged). */
  push(move) { return this.#call(this.#handle, `push ${move}`); }
  /** Takes back the last move and returns it; throws when there is none. */
  pop() { return this.#call(this.#handle, 'pop'); }
  /** The position string. */
  fen() { return this.#call(this.#handle, 'fen'); }
  /** 'south' or 'north'. */
  turn() { return this.#call(this.#handle, 'turn'); }
  /** 1 (passage), 2 (ka entry) or 3 (ka move). */
  phase() { return Number(this.#call(this.#handle, 'phase')); }
  /** Points captured: { south, north }. */
  scores() { const [south, north] = this.#call(this.#handle, 'scores').split(' ').map(Number); return { south, north }; }
  /** The result as records write it: '1-0' (South won), '0-1', '1/2-1/2', or '*' while in play. */
  result() { return this.#call(this.#handle, 'result'); }
  /** How the game stands in words, as the protocol's `result`: 'none' while in play, else e.g. 'south score 10-4' or 'north suntuk 6-9'. */
  status() { return this.#call(this.#handle, 'status'); }
  /** Whether the game is over. */
  isGameOver() { return this.result() !== '*'; }
  /** The moves played since the board was made. */
  moveStack() { const text = this.#call(this.#handle, 'history'); return text ? text.split(' ') : []; }
  /** The ids of the legal moves (the fixed action space, `encodeMove`). */
  legalActions() { return this.legalMoves().map(encodeMove); }
  /** Plays the legal move with id `action` and returns it; throws PasangError if none has it (board unchanged). */
  pushAction(action) { return this.push(decodeAction(action, this)); }
  /** The rule options, by protocol name. */
  rules() {
    const rules = {};
    for (const line of this.#call(this.#handle, 'rules').split('\n').filter(Boolean)) {
      const at = line.indexOf('=');
      rules[line.slice(0, at)] = line.slice(at + 1);
    }
    return rules;
  }
}

/**
 * Runs a face of the module in a Web Worker: the worker's messages (text)
 * go to its `send`, what it gives goes back with `postMessage`. Messages
 * posted while the module loads are kept, in order.
 */
export async function serveInWorker(wasmUrl, start) {
  const early = [];
  let face = null;
  self.onmessage = (event) => (face ? face.send(String(event.data)) : early.push(String(event.data)));
  const pasang = await loadPasang(await fetch(wasmUrl));
  face = start(pasang, (text) => postMessage(text));
  for (const text of early.splice(0)) face.send(text);
}
