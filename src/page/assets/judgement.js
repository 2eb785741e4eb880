// @ts-check
// Judgements, pure (what they judge is given, so Node's tests run them):
// the review's of the game on the board (the session's `review` message),
// read by the board, the move list and the graph; a lesson's of a try;
// a puzzle's of a move, and of the solver's rating.
import { t } from "./strings.js";

/** @typedef {import("./wire-types.js").Review} Review */

/** The judgement of ply `ply` (from 1) in `review`, once analysed.
 * Its fields are those of `pasang annotate --json` (docs/review.md).
 * @param {Review | null} review
 * @param {number} ply */
export function reviewPly(review, ply) {
  return review && review.game && review.game.plies[ply - 1] ? review.game.plies[ply - 1] : null;
}
// Where the game stands at `ply` (0: the start): evaluation text and
// South's winning chances.
// While the engine works, the positions searched so far (from the end).
/** @param {Review | null} review
 * @param {number} ply */
export function reviewStanding(review, ply) {
  if (!review) return null;
  if (!review.game) {
    // Worded here (the text is English): the evaluation as the game's judgements give it.
    const known = review.partial && review.partial[ply];
    return known ? { text: known.eval ? evalWords(known.eval) : known.text, win: known.win } : null;
  }
  const at = ply === 0 ? review.game.start : review.game.plies[ply - 1];
  return at ? { text: evalWords(at.eval), win: at.south_win_percent } : null;
}
export const bestMove = (judged) => (judged && judged.best ? judged.best.move : null);

// A judgement of the review (`pasang annotate --json`'s eval) in words:
// a score stays a number; a proven result is said from the table.
export function evalWords(e) {
  if (!e) return "";
  if (e.winner) return t("evalWin", { side: t(e.winner), moves: e.moves });
  if (e.draw) return t("evalDraw");
  if (e.result) return { "1-0": t("evalSouthWon"), "0-1": t("evalNorthWon"), "1/2-1/2": t("evalDrawn") }[e.result] || e.text;
  return e.text;
}

/** Whether `move` is a ka move written without its direction (from and
 * to only: `b4c4`, as a click makes it). */
export function bareKaMove(/** @type {string} */ move) {
  const ka = move.match(/^([a-k](?:1[01]|[1-9]))([a-k](?:1[01]|[1-9]))([nsew]*)$/);
  return Boolean(ka && !ka[3]);
}

/** @typedef {{ accept: string[], wrong?: { move: string, why: any }[] }} LessonStep */

/** A lesson step's wrong try for `move`, or null: a ka move clicked
 * without its direction (from and to only) finds the try with those points.
 * @param {LessonStep} step
 * @param {string} move */
export function wrongTry(step, move) {
  const wrongs = step.wrong || [];
  return wrongs.find((w) => w.move === move)
    || (bareKaMove(move)
      ? wrongs.find((w) => w.move.startsWith(move) && /^[nsew]+$/.test(w.move.slice(move.length)))
      : null)
    || null;
}

/** A lesson step's judgement of a try: right when the step accepts
 * `move`; else wrong, with the step's wrong try for it, if it has one.
 * @param {LessonStep} step
 * @param {string} move */
export function lessonVerdict(step, move) {
  const right = step.accept.includes(move);
  return { right, wrong: right ? null : wrongTry(step, move) };
}

/**
 * A puzzle's judgement of the solver's move at `step` (from 0) of the
 * `solution`: the solution's move is right; at the first step, so is one
 * the puzzle lists in `alternatives` (another proven win), which solves it
 * at once. `solved`: nothing of the solution is left to play.
 * @param {{ alternatives?: string[] }} puzzle
 * @param {string[]} solution
 * @param {number} step
 * @param {string} move
 */
export function puzzleVerdict(puzzle, solution, step, move) {
  const alternative = step === 0 && (puzzle.alternatives || []).includes(move);
  const right = move === solution[step] || alternative;
  return { right, alternative, solved: right && (alternative || step + 1 >= solution.length) };
}

/** The solver's rating after a puzzle rated `puzzleRating` (Elo, K `k`). */
export function ratedAfter(/** @type {number} */ rating, /** @type {number} */ puzzleRating, /** @type {boolean} */ solved, k = 32) {
  const expected = 1 / (1 + 10 ** ((puzzleRating - rating) / 400));
  return Math.round(rating + k * ((solved ? 1 : 0) - expected));
}
