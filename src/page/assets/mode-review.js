// @ts-check
// Review mode: the session's engine judges every move of the game on the
// board, as lichess's analysis does; the page draws the judgements, the
// graph of South's winning chances and the summary. The review mode's
// testing contract: the graph carries data-eval-graph and each ply's
// point data-ply; each move in the list data-ply and, when marked,
// data-mark.
import { app } from "./app-state.js";
import { arrowHead, drawCaptures, moveArrow } from "./board.js";
import { $, el } from "./dom.js";
import { moveNumber, moverOf } from "./geometry.js";
import { bestMove, evalWords, reviewPly, reviewStanding } from "./judgement.js";
import { goto, showEval } from "./panel.js";
import { t } from "./strings.js";
import { send } from "./transport.js";

// Review: the move that led here (blue) and, where the engine preferred
// another, that one (green), both from the position before it.
function drawReviewArrows(svg) {
  const ply = app.state.cursor;
  if (ply < 1) return;
  arrowHead(svg, "played-head", "#2f7fd8");
  arrowHead(svg, "best-head", "#2a9d4a");
  const mover = moverOf(ply, app.state.start);
  moveArrow(svg, app.state.moves[ply - 1], mover, "played", "played-file", "played-head");
  drawCaptures(svg);
  const best = bestMove(reviewPly(app.review, ply));
  if (best && best !== app.state.moves[ply - 1]) moveArrow(svg, best, mover, "arrow", "arrow-file", "best-head");
}

function renderReview() {
  const progress = app.review && app.review.running;
  $("review-progress").hidden = !progress;
  if (app.review) {
    $("review-progress-bar").max = String(Math.max(1, app.review.total));
    $("review-progress-bar").value = String(app.review.done);
    $("review-progress-text").textContent = t("reviewProgress", { done: app.review.done, total: app.review.total });
  }
  // The bar shows South's winning chances at the ply on view.
  const standing = reviewStanding(app.review, app.state.cursor);
  if (standing) showEval(standing.text, standing.win);
  drawGraph();
  const players = app.review && app.review.players ? app.review.players : {};
  $("review-title").textContent = app.review
    ? `${players.south || "?"} (${t("south")}) – ${players.north || "?"} (${t("north")}), ${app.review.result || "*"}`
    : "";
  const judged = reviewPly(app.review, app.state.cursor);
  const text = $("review-move");
  if (!app.review) {
    text.textContent = app.state.moves.length ? "" : t("reviewNothing");
  } else if (!app.review.game) {
    text.textContent = t("reviewJudging");
  } else if (!app.state.cursor) {
    text.textContent = t("reviewStart", { eval: standing ? standing.text : "" });
  } else if (judged) {
    const move = app.state.moves[app.state.cursor - 1] + (judged.mark || "");
    let words = `${moveNumber(app.state.cursor, app.state.start)} ${move}: ${evalWords(judged.eval)}`;
    if (judged.best) {
      words += `; ${t("better")} ${judged.best.move} (${evalWords(judged.best.eval)})`;
      if (judged.best.line.length > 1) words += `: ${judged.best.line.join(" ")}`;
    }
    text.textContent = words;
  }
  const body = $("summary").querySelector("tbody");
  body.textContent = "";
  const summary = app.review && app.review.game ? app.review.game.summary : null;
  $("summary").hidden = !summary;
  if (summary) {
    for (const side of ["south", "north"]) {
      const s = summary[side];
      const row = document.createElement("tr");
      row.dataset.side = side;
      const name = (app.review.players && app.review.players[side]) || "";
      const cells = [
        `${t(side)}${name ? " (" + name + ")" : ""}`,
        s.accuracy === null || s.accuracy === undefined ? "–" : `${s.accuracy.toFixed(1)}%`,
        s.inaccuracies, s.mistakes, s.blunders,
      ];
      for (const cell of cells) {
        const td = document.createElement("td");
        td.textContent = cell;
        row.appendChild(td);
      }
      body.appendChild(row);
    }
  }
}

// The graph: South's winning chances after each ply, 100% at the top.
function graphGeometry() {
  const svg = $("graph");
  const width = Math.max(60, svg.clientWidth || svg.getBoundingClientRect().width);
  const height = 110;
  const plies = Math.max(1, app.state.moves.length);
  const pad = 6;
  const x = (ply) => pad + (ply * (width - 2 * pad)) / plies;
  const y = (win) => 4 + ((100 - win) * (height - 8)) / 100;
  return { svg, width, height, plies, x, y };
}

function drawGraph() {
  const { svg, width, height, x, y } = graphGeometry();
  svg.textContent = "";
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  el("rect", { class: "north-area", x: 0, y: 0, width, height }, svg);
  const known = [];
  for (let ply = 0; ply <= app.state.moves.length; ply++) {
    const standing = reviewStanding(app.review, ply);
    if (standing) known.push([ply, standing.win]);
  }
  if (known.length) {
    const points = known.map(([ply, win]) => `${x(ply).toFixed(1)},${y(win).toFixed(1)}`);
    const last = known[known.length - 1][0];
    el("path", { class: "south-area", d: `M${x(known[0][0])},${height} L${points.join(" L")} L${x(last)},${height} Z` }, svg);
    el("polyline", { class: "curve", points: points.join(" ") }, svg);
  }
  el("line", { class: "midline", x1: 0, y1: y(50), x2: width, y2: y(50) }, svg);
  el("line", { class: "cursor", x1: x(app.state.cursor), y1: 0, x2: x(app.state.cursor), y2: height }, svg);
  // Every ply has its point; marked moves are larger dots of their colour.
  app.state.moves.forEach((_, i) => {
    const judged = reviewPly(app.review, i + 1);
    const standing = reviewStanding(app.review, i + 1);
    const win = standing ? standing.win : 50;
    const attrs = { cx: x(i + 1), cy: y(win), r: judged && judged.mark ? 4.5 : 1.5, "data-ply": i + 1 };
    if (judged && judged.mark) attrs["data-mark"] = judged.mark;
    const dot = el("circle", attrs, svg);
    if (judged) el("title", {}, dot).textContent = `${i + 1}. ${app.state.moves[i]}${judged.mark || ""} ${evalWords(judged.eval)}`;
  });
}

// The ply under a pointer on the graph.
function graphPly(event) {
  const { svg, width, plies, x } = graphGeometry();
  const box = svg.getBoundingClientRect();
  const at = ((event.clientX - box.left) * width) / Math.max(1, box.width);
  const ply = Math.round(((at - x(0)) * plies) / (x(plies) - x(0)));
  return Math.max(0, Math.min(app.state.moves.length, ply));
}

function onGraphPointer(event) {
  if (!app.state || app.state.mode !== "review") return;
  if (event.type === "pointerdown") {
    app.dragging = true;
    if ($("graph").setPointerCapture) $("graph").setPointerCapture(event.pointerId);
  }
  if (event.type === "pointerup" || event.type === "pointercancel") {
    app.dragging = false;
    return;
  }
  if (!app.dragging) return;
  goto(graphPly(event));
}

/** The graph's pointer and size handlers. */
export function setUpReview() {
  for (const kind of ["pointerdown", "pointermove", "pointerup", "pointercancel"]) {
    $("graph").addEventListener(kind, onGraphPointer);
  }
  window.addEventListener("resize", () => { if (app.state && app.state.mode === "review") drawGraph(); });
}

/** Review mode's hooks (see app.js): the game is stepped through, not changed. */
/** @type {import("./app-state.js").Mode} */
export const reviewMode = {
  name: "review",
  titleKey: "titleReview",
  takesBack: false,
  reviewBox: true,
  hint: () => t("hintReview"),
  saveWords: () => (app.review && app.review.game ? t("saveAnnotated") : t("save")),
  judgement: (ply) => reviewPly(app.review, ply),
  canMove: () => false,
  submit: () => {},
  unlisted: (move) => { send({ type: "move", move }); return false; },
  decorate: drawReviewArrows,
  render: renderReview,
  // The game's players keep their names in review: a friend game's as
  // they were given here, else as the review's record names them.
  playerName: (side) => {
    const given = app.friend && app.friend.names ? app.friend.names[side] : "";
    const named = app.review && app.review.players ? app.review.players[side] : "";
    return given || (named && named !== "?" ? named : "");
  },
  keys: true,
};
