// The board's points and where they are drawn, and the facts of a game's
// plies that its drawing and its move list need.
import { app } from "./app-state.js";
import { el } from "./dom.js";
export const FILES = "abcdefghijk";
export const CELL = 60;
export const MARGIN = 40;

export function pointName(index) { return FILES[index % 11] + (Math.floor(index / 11) + 1); }
export function fileOf(name) { return FILES.indexOf(name[0]); }
export function rankOf(name) { return parseInt(name.slice(1), 10) - 1; }
export function centre(name) {
  const file = fileOf(name), rank = rankOf(name);
  const col = app.flipped ? 10 - file : file;
  const row = app.flipped ? rank : 10 - rank;
  return [MARGIN + CELL / 2 + col * CELL, MARGIN + CELL / 2 + row * CELL];
}
// The points of a passage: a file within one player's half.
export function halfFile(file, player) {
  const ranks = player === "south" ? [0, 1, 2, 3, 4] : [6, 7, 8, 9, 10];
  return ranks.map((rank) => FILES[file] + (rank + 1));
}
// A rectangle around a file's stretch in one half.
export function stretch(file, player, attrs, parent) {
  const points = halfFile(file, player).map(centre);
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  return el("rect", Object.assign({
    x: Math.min(...xs) - CELL / 2 + 3, y: Math.min(...ys) - CELL / 2 + 3,
    width: CELL - 6, height: Math.max(...ys) - Math.min(...ys) + CELL - 6, rx: 8,
  }, attrs), parent);
}
// Whether North made the game's first move.
const northFirst = () => app.state.start.split(" ")[1] === "n";
// A ply's move number as the list shows it: `9.` for South, `9...` for North.
export function moveNumber(ply) {
  const index = ply - 1 + (northFirst() ? 1 : 0);
  return `${Math.floor(index / 2) + 1}${index % 2 === 0 ? "." : "..."}`;
}
export const other = (side) => (side === "south" ? "north" : "south");
// Who played ply `ply` (from 1) of the game.
export function moverOf(ply) {
  const first = northFirst() ? "north" : "south";
  return ply % 2 === 1 ? first : other(first);
}
