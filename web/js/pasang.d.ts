// Types of pasang.mjs: the pasang engine and rules in WebAssembly.

/** The error a board call throws, with the engine's own message. */
export class PasangError extends Error {}

/** Rule options by their protocol names, as `setoption` takes them (written by web/js/build-site.mjs from the engine's table). */
export interface RuleOptions {
  // RULE_OPTIONS
}

/** The protocol engine: lines in, lines out, as the native engine. */
export interface Engine {
  /** Sends one protocol line (or several, separated by newlines). */
  send(line: string): void;
  /** Resolves once the engine has carried out `quit`. */
  readonly ended: Promise<void>;
}

/** A game: the rules as ffish.js gives chess's, in the project's notation. */
export class Board {
  legalMoves(): string[];
  /** Plays a move and returns it as the engine writes it; throws PasangError if illegal (board unchanged). */
  push(move: string): string;
  /** Takes back the last move and returns it; throws PasangError when there is none. */
  pop(): string;
  /** The position string. */
  fen(): string;
  turn(): 'south' | 'north';
  /** 1 passage, 2 ka entry, 3 ka move. */
  phase(): 1 | 2 | 3;
  scores(): { south: number; north: number };
  /** As records write it: '1-0' South won, '0-1' North won, '1/2-1/2', '*' while in play. */
  result(): '1-0' | '0-1' | '1/2-1/2' | '*';
  /** 'none' while in play, else e.g. 'south score 10-4', 'north suntuk 6-9' or 'draw score 5-5'. */
  status(): string;
  isGameOver(): boolean;
  /** Frees the board now (ffish.js's `delete()`); any later call throws. Dropped boards are freed when collected. */
  delete(): void;
  moveStack(): string[];
  rules(): Required<RuleOptions>;
  /** The ids of the legal moves in the fixed action space (`encodeMove`). */
  legalActions(): number[];
  /** Plays the legal move with id `action` and returns it; throws PasangError if none has it (board unchanged). */
  pushAction(action: number): string;
}

/** The number of ids of the fixed action space (docs/rl.md). */
export const ACTIONS: number;
/** The id of a move (with its directions), with no board; throws PasangError for a move legal in no position. */
export function encodeMove(move: string): number;
/** What an id stands for, in the move notation, with no board. */
export function describeAction(action: number): string;
/** The legal move of `board` with id `action`; throws PasangError when none has it. */
export function decodeAction(action: number, board: Board): string;

export interface Pasang {
  /** The protocol engine (one per loaded module); `listener` gets each line it prints. */
  engine(listener: (line: string) => void): Engine;
  /** The board page's session (one per loaded module); `listener` gets each message for the page. */
  boardSession(listener: (json: string) => void): BoardSession;
  /** The rules page and its pictures, as `pasang gui` serves them under /rules. */
  rulesPage(): { html: string; spec: string; pictures: Record<string, string> };
  /** A board from the start (or `fen`), under `rules`; throws PasangError on bad input. */
  board(options?: { fen?: string; rules?: RuleOptions }): Board;
  /** The rule options from the engine's own table, in the protocol's order. */
  ruleOptions(): { name: string; values: string[]; default: string }[];
  /** The bytes of the module's memory (WebAssembly memory grows and never shrinks): to watch for leaks. */
  memoryBytes(): number;
}

/** The board page's session with its engine (what the static page's worker runs). */
export interface BoardSession {
  /** Takes one page message (JSON text); resolves when it has been handled. */
  send(json: string): Promise<void>;
  /** Stops the session's clock ticks. */
  close(): void;
}

/**
 * In a Web Worker: runs the face `start` returns, fed the worker's
 * messages; messages posted while the module loads are kept in order.
 */
export function serveInWorker(
  wasmUrl: URL | string,
  start: (pasang: Pasang, post: (text: string) => void) => { send(text: string): unknown },
): Promise<void>;

/** Loads the module from its bytes or a fetch Response. */
export function loadPasang(source: BufferSource | Response): Promise<Pasang>;
