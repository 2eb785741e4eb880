// @ts-check
// The board: drawn from the session's state, and what a click or a typed
// move on it does. The mode in charge (app.mode) decides whether a move
// may be made, what a chosen move does and what it adds to the drawing;
// see app.js for the modes' hooks.
import { app } from "./app-state.js";
import { $, el } from "./dom.js";
import { CELL, FILES, MARGIN, centre as centreAt, fileOf, halfFile, moverOf as moverIn, other, pointName } from "./geometry.js";
import { bareKaMove } from "./judgement.js";
import { t } from "./strings.js";
import { send } from "./transport.js";

// Where a point is drawn, the board turned as it is now.
const centre = (/** @type {string} */ name) => centreAt(name, app.flipped);
// Who played ply `ply` of the game on the board.
const moverOf = (/** @type {number} */ ply) => moverIn(ply, app.state.start);

/** A rectangle around a file's stretch in one half. */
export function stretch(file, player, attrs, parent) {
  const points = halfFile(file, player).map(centre);
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  return el("rect", Object.assign({
    x: Math.min(...xs) - CELL / 2 + 3, y: Math.min(...ys) - CELL / 2 + 3,
    width: CELL - 6, height: Math.max(...ys) - Math.min(...ys) + CELL - 6, rx: 8,
  }, attrs), parent);
}

export function drawBoard() {
  const svg = $("board");
  svg.textContent = "";
  el("rect", { x: 0, y: 0, width: 740, height: 740, fill: "#4a3a22", rx: 10 }, svg);
  el("rect", { class: "wood", x: MARGIN, y: MARGIN, width: 660, height: 660 }, svg);
  if (!app.state) return;
  const board = app.state.board;
  // Rank 6 belongs to neither player: a darker band.
  const [, y6] = centre("a6");
  el("rect", { class: "half", x: MARGIN, y: y6 - CELL / 2, width: 660, height: CELL }, svg);
  const passages = app.state.position.split(" ")[4] || "--";
  ["south", "north"].forEach((player, i) => {
    if (passages[i] !== "-") stretch(FILES.indexOf(passages[i]), player, { class: "passage" }, svg);
  });
  for (let i = 0; i < 11; i++) {
    const [x0, y0] = centre(FILES[i] + "1"), [x1, y1] = centre(FILES[i] + "11");
    el("line", { class: "grid", x1: x0, y1: y0, x2: x1, y2: y1 }, svg);
    const [a, b] = centre("a" + (i + 1)), [c, d] = centre("k" + (i + 1));
    el("line", { class: "grid", x1: a, y1: b, x2: c, y2: d }, svg);
    // Coordinates on all four sides.
    const [fx] = centre(FILES[i] + "1");
    for (const y of [MARGIN / 2, 740 - MARGIN / 2]) el("text", { class: "coord", x: fx, y }, svg).textContent = FILES[i];
    const [, ry] = centre("a" + (i + 1));
    for (const x of [MARGIN / 2, 740 - MARGIN / 2]) el("text", { class: "coord", x, y: ry }, svg).textContent = i + 1;
  }
  if (app.state.mode !== "review") drawLastMove(svg);
  const marks = markedPoints();
  for (let i = 0; i < 121; i++) {
    const name = pointName(i);
    const [x, y] = centre(name);
    const g = el("g", { "data-point": name }, svg);
    el("rect", { class: "cell", x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL }, g);
    const c = board[i];
    if (c === "+") el("circle", { class: "hole", cx: x, cy: y, r: 14 }, g);
    if (c === "w" || c === "b") {
      const colour = c === "w" ? "white" : "black";
      el("circle", { class: "stone-" + colour, cx: x, cy: y, r: 24, "data-stone": colour }, g);
    }
    if (c === "S" || c === "N") {
      const player = c === "S" ? "south" : "north";
      el("rect", { class: "ka-" + player, x: x - 22, y: y - 22, width: 44, height: 44, rx: 8, transform: `rotate(45 ${x} ${y})`, "data-ka": player }, g);
      // The ka's mark in the page's language (Utara's U in Malay).
      el("text", { class: "ka-letter", x, y, "data-ka-letter": player }, g).textContent = t(player === "south" ? "kaLetterSouth" : "kaLetterNorth");
    }
    // "origin" picks the stone to move, "target" plays (or asks which line).
    if (marks.legal.has(name)) g.classList.add("legal", marks.legal.get(name) ? "target" : "origin");
    if (name === app.selected) g.classList.add("selected");
    // In phase 1 a whole column is the target: it is outlined below, and
    // its stones keep their colours.
    if (app.state.phase !== 1 && (marks.legal.has(name) || name === app.selected)) {
      el("circle", { class: "mark", cx: x, cy: y, r: c === "." ? 10 : 28 }, g);
    }
  }
  if (app.state.phase === 1 && marks.legal.size) {
    for (const m of app.state.legal) {
      stretch(m.file, app.state.side, { class: "column" + (m.file === app.litColumn ? " lit" : "") }, svg);
    }
  }
  // The mode's own marks: a lesson's points, a review's arrows.
  if (app.mode.decorate) app.mode.decorate(svg);
  else drawArrows(svg);
  // The kas' letters stay readable above any arrow.
  for (const letter of [...svg.querySelectorAll(".ka-letter")]) svg.appendChild(letter);
}

function drawLastMove(svg) {
  const last = app.state.last;
  if (!last) return;
  if (last.file !== undefined) {
    stretch(last.file, moverOf(app.state.cursor), { class: "file-path" }, svg);
  } else {
    const [x1, y1] = centre(last.from), [x2, y2] = centre(last.to);
    el("line", { class: "path", x1, y1, x2, y2 }, svg);
  }
  drawCaptures(svg);
}

// The stones the move that led here took.
export function drawCaptures(svg) {
  for (const name of app.state.last ? app.state.last.captures : []) {
    const [x, y] = centre(name);
    el("circle", { class: "captured", cx: x, cy: y, r: 12 }, svg);
  }
}

export function arrowHead(svg, id, colour) {
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id, markerWidth: 4, markerHeight: 4, refX: 2.5, refY: 2, orient: "auto" }, defs);
  el("path", { d: "M0,0 L4,2 L0,4 z", fill: colour }, marker);
}

// One move as an arrow (a ka move) or an outlined column (a passage);
// returns where a label goes.
export function moveArrow(svg, move, mover, lineClass, fileClass, head) {
  if (/^[a-k]$/.test(move)) {
    const rect = stretch(FILES.indexOf(move), mover, { class: fileClass }, svg);
    return [parseFloat(rect.getAttribute("x")) + CELL / 2 - 3, parseFloat(rect.getAttribute("y")) + 12];
  }
  const m = move.match(/^([a-k]\d+)([a-k]\d+)/);
  if (!m) return null;
  const [x1, y1] = centre(m[1]), [x2, y2] = centre(m[2]);
  el("line", { class: lineClass, x1, y1, x2, y2, "marker-end": `url(#${head})` }, svg);
  return [(x1 + x2) / 2, (y1 + y2) / 2];
}

// The best line of the analysis as numbered arrows (first three moves).
function drawArrows(svg) {
  const best = app.lines[1];
  if (!app.state || app.state.mode !== "analyse" || !best || best.ply !== app.state.cursor) return;
  arrowHead(svg, "arrowhead", "#2a9d4a");
  let mover = app.state.side;
  best.pv.slice(0, 3).forEach((move, n) => {
    const label = moveArrow(svg, move, mover, "arrow", "arrow-file", "arrowhead");
    if (label) {
      el("circle", { cx: label[0], cy: label[1], r: 10, fill: "#bfe8c9" }, svg);
      el("text", { class: "arrow-number", x: label[0], y: label[1] }, svg).textContent = n + 1;
    }
    mover = other(mover);
  });
}

// Which points take a click now, and what a click there does.
function markedPoints() {
  const legal = new Map();
  if (!canMove()) return { legal };
  if (app.state.phase === 1) {
    for (const m of app.state.legal) for (const name of halfFile(m.file, app.state.side)) legal.set(name, [m]);
    return { legal };
  }
  const origins = [...new Set(app.state.legal.map((m) => m.from))];
  if (!app.selected && origins.length === 1) app.selected = origins[0];
  if (!app.selected) {
    for (const o of origins) legal.set(o, null);
  } else {
    for (const m of app.state.legal.filter((m) => m.from === app.selected)) {
      legal.set(m.to, (legal.get(m.to) || []).concat([m]));
    }
    for (const o of origins) if (o !== app.selected) legal.set(o, null);
  }
  return { legal };
}

/** Whether a click or a typed move may move now: the game goes on and
 * the mode in charge takes a move. */
export function canMove() {
  if (!app.state || app.state.over || !app.state.legal.length) return false;
  return app.mode.canMove();
}

export function onBoardClick(event) {
  const g = event.target.closest("[data-point]");
  if (!g || !app.state) return;
  const name = g.getAttribute("data-point");
  const { legal } = markedPoints();
  if (!legal.has(name)) {
    // In a lesson every point answers (a second click on the chosen
    // stone only lets go of it).
    if (app.mode.deadClick && name !== app.selected) app.mode.deadClick(name);
    // A click elsewhere drops the selection (unless there is one origin).
    app.selected = null;
    drawBoard();
    return;
  }
  const moves = legal.get(name);
  if (moves === null) {
    app.selected = name;
    drawBoard();
  } else if (moves.length === 1) {
    submit(moves[0].move);
  } else {
    chooseLine(moves);
  }
}

// Phase 1: light the column under the pointer.
export function onBoardHover(event) {
  if (!app.state || app.state.phase !== 1) return;
  const g = event.target.closest && event.target.closest("[data-point].legal");
  const column = g ? fileOf(g.getAttribute("data-point")) : null;
  if (column !== app.litColumn) {
    app.litColumn = column;
    drawBoard();
  }
}

// One landing point, several capture lines: the person picks one.
function chooseLine(moves) {
  const box = $("choice-buttons");
  box.textContent = "";
  for (const m of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("data-move", m.move);
    const value = m.points === 1 ? t("pointValue") : t("pointsValue", { n: m.points });
    button.textContent = t("choiceTakes", { move: m.move, points: m.captures.join(" "), value });
    button.onclick = () => { $("choice").hidden = true; showCaptures([]); submit(m.move); };
    button.onmouseenter = () => showCaptures(m.captures);
    button.onmouseleave = () => showCaptures([]);
    box.appendChild(button);
  }
  $("choice").hidden = false;
}

export function showCaptures(names) {
  document.querySelectorAll(".hover-capture").forEach((n) => n.remove());
  for (const name of names) {
    const [x, y] = centre(name);
    el("circle", { class: "hover-capture", cx: x, cy: y, r: 26 }, $("board"));
  }
}

/** Sends `move` to the session as the board's move. */
export function sendMove(move) {
  app.selected = null;
  app.litColumn = null;
  send({ type: "move", move });
}

// A move the person chose, by clicks or typed: the mode in charge says
// what it does (in a lesson it is held to the step's task first).
function submit(move) {
  app.selected = null;
  app.litColumn = null;
  app.mode.submit(move);
}

const KA_MOVE = /^([a-k](?:1[01]|[1-9]))([a-k](?:1[01]|[1-9]))([nsew]*)$/;


/** The legal move that `text` names: in full, or `b4c4` for the one move
 * from b4 to c4, as the engine reads it; null if none. */
export function legalMove(text) {
  if (!app.state) return null;
  const found = app.state.legal.find((m) => m.move === text);
  if (found || !bareKaMove(text)) return found || null;
  const ka = text.match(KA_MOVE);
  const there = app.state.legal.filter((m) => m.from === ka[1] && m.to === ka[2]);
  return there.length === 1 ? there[0] : null;
}

// A move typed in #move-input: played as its clicks would play it; one
// that is not a legal move here goes to the mode in charge, which has the
// session or the room refuse it in words (#moves stays as it was).
export function onTypedMove(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim().toLowerCase();
  if (!text || !app.state) return;
  const found = canMove() ? legalMove(text) : null;
  if (found) {
    input.value = "";
    submit(found.move);
  } else if (app.mode.unlisted(text)) {
    input.value = "";
  } else {
    input.select();
  }
}
