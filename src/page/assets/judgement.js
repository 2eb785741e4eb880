// The review's judgements of the game on the board (the session's
// `review` message), read by the board, the move list and the graph.
import { app } from "./app-state.js";
import { t } from "./strings.js";

// The judgement of ply `ply` (from 1), once analysed.
// Its fields are those of `pasang annotate --json` (docs/review.md).
export function reviewPly(ply) {
  return app.review && app.review.game && app.review.game.plies[ply - 1] ? app.review.game.plies[ply - 1] : null;
}
// Where the game stands at `ply` (0: the start): evaluation text and
// South's winning chances.
// While the engine works, the positions searched so far (from the end).
export function reviewStanding(ply) {
  if (!app.review) return null;
  if (!app.review.game) {
    // Worded here (the text is English): the evaluation as the game's judgements give it.
    const known = app.review.partial && app.review.partial[ply];
    return known ? { text: known.eval ? evalWords(known.eval) : known.text, win: known.win } : null;
  }
  const at = ply === 0 ? app.review.game.start : app.review.game.plies[ply - 1];
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
