// @ts-check
// The board's points and where they are drawn, and the facts of a game's
// plies that its drawing and its move list need. Pure: what they read is
// given (the board's turning, the game's start), so Node's tests run them.
export const FILES = "abcdefghijk";
export const CELL = 60;
export const MARGIN = 40;

/** @typedef {"south" | "north"} Side */

/** The name of the point at `index` (0: a1, 120: k11). */
export function pointName(/** @type {number} */ index) { return FILES[index % 11] + (Math.floor(index / 11) + 1); }
/** The file of point `name`, from 0 (a). */
export function fileOf(/** @type {string} */ name) { return FILES.indexOf(name[0]); }
/** The rank of point `name`, from 0 (rank 1). */
export function rankOf(/** @type {string} */ name) { return parseInt(name.slice(1), 10) - 1; }
/**
 * Where point `name` is drawn, as [x, y] in the board's SVG: South at the
 * bottom unless `flipped`.
 * @param {string} name
 * @param {boolean} flipped
 * @returns {[number, number]}
 */
export function centre(name, flipped) {
  const file = fileOf(name), rank = rankOf(name);
  const col = flipped ? 10 - file : file;
  const row = flipped ? rank : 10 - rank;
  return [MARGIN + CELL / 2 + col * CELL, MARGIN + CELL / 2 + row * CELL];
}
/** The points of a passage: a file within one player's half.
 * @param {number} file
 * @param {Side} player */
export function halfFile(file, player) {
  const ranks = player === "south" ? [0, 1, 2, 3, 4] : [6, 7, 8, 9, 10];
  return ranks.map((rank) => FILES[file] + (rank + 1));
}
// Whether North made the first move of the game that started at `start`
// (a position string: its second field is the side to move).
const northFirst = (/** @type {string} */ start) => start.split(" ")[1] === "n";
/** A ply's move number as the list shows it: `9.` for South, `9...` for
 * North, in the game from `start`.
 * @param {number} ply
 * @param {string} start */
export function moveNumber(ply, start) {
  const index = ply - 1 + (northFirst(start) ? 1 : 0);
  return `${Math.floor(index / 2) + 1}${index % 2 === 0 ? "." : "..."}`;
}
/** The other side. */
export const other = (/** @type {Side} */ side) => (side === "south" ? "north" : "south");
/** Who played ply `ply` (from 1) of the game from `start`.
 * @param {number} ply
 * @param {string} start
 * @returns {Side} */
export function moverOf(ply, start) {
  const first = northFirst(start) ? "north" : "south";
  return ply % 2 === 1 ? first : other(first);
}
