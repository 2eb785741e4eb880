// pasang gui: draws what the server sends and sends back what the person
// does. The server knows the rules and drives the engine; this page only
// matches clicks and typed moves against the legal moves it was sent, and
// says in words why a move it was not sent cannot be played. Learn mode
// (?mode=learn) is the page's own: it reads the course (lessons.json),
// puts each step's position on the board and checks the person's move
// against the step's task before the session plays it. Friend mode
// (?mode=friend) is the session's: both sides move from the page; the
// page keeps the game in its address and in localStorage, and shares it
// as a link.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijk";
const CELL = 60;
const MARGIN = 40;
const MAX_RECORD_BYTES = 1 << 20;
const MODES = ["play", "analyse", "watch", "review", "friend"];
// The fields of the server's `rules` objects (and the address's rule
// keys), each the id of its select in the page's rules box; the session's
// `hello` gives their values (from the engine's table of rule options),
// and the selects are filled from it.
const RULE_KEYS = [...document.querySelectorAll("#game .rules select")].map((select) => select.id);

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

let socket = null;
let state = null;         // the last "state" message
let flipped = false;      // North at the bottom
let selected = null;      // the origin point chosen in phases 2 and 3
let litColumn = null;     // phase 1: the column under the pointer
let lines = {};           // the current search's lines by multipv
let searchInfo = null;    // the last "search" message
let watchLines = {};      // watch mode: the last line of each side
let evalPly = null;       // the ply of the position the shown evaluation is of
let clockAt = 0;          // when the last state's clock readings were taken
let review = null;        // the last "review" message
let games = null;         // the last "games" message (a file of several)
let addressErrors = [];   // what was wrong with the page's address: stays shown (words, or a function giving them in the page's language)
let addressMovesRefused = false; // a move of the address was refused: the ones after it are not said
let dragging = false;     // a press on the graph that has not been let go
let learn = null;         // Learn mode: the course, the lesson and step, and where the step stands
let friend = null;        // Friend mode: the players' names, the start position, the board's turning

// ---- geometry ----

function pointName(index) { return FILES[index % 11] + (Math.floor(index / 11) + 1); }
function fileOf(name) { return FILES.indexOf(name[0]); }
function rankOf(name) { return parseInt(name.slice(1), 10) - 1; }
function centre(name) {
  const file = fileOf(name), rank = rankOf(name);
  const col = flipped ? 10 - file : file;
  const row = flipped ? rank : 10 - rank;
  return [MARGIN + CELL / 2 + col * CELL, MARGIN + CELL / 2 + row * CELL];
}
function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}
// The points of a passage: a file within one player's half.
function halfFile(file, player) {
  const ranks = player === "south" ? [0, 1, 2, 3, 4] : [6, 7, 8, 9, 10];
  return ranks.map((rank) => FILES[file] + (rank + 1));
}
// A rectangle around a file's stretch in one half.
function stretch(file, player, attrs, parent) {
  const points = halfFile(file, player).map(centre);
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  return el("rect", Object.assign({
    x: Math.min(...xs) - CELL / 2 + 3, y: Math.min(...ys) - CELL / 2 + 3,
    width: CELL - 6, height: Math.max(...ys) - Math.min(...ys) + CELL - 6, rx: 8,
  }, attrs), parent);
}
// Whether North made the game's first move.
const northFirst = () => state.start.split(" ")[1] === "n";
// A ply's move number as the list shows it: `9.` for South, `9...` for North.
function moveNumber(ply) {
  const index = ply - 1 + (northFirst() ? 1 : 0);
  return `${Math.floor(index / 2) + 1}${index % 2 === 0 ? "." : "..."}`;
}
const other = (side) => (side === "south" ? "north" : "south");
// Who played ply `ply` (from 1) of the game.
function moverOf(ply) {
  const first = northFirst() ? "north" : "south";
  return ply % 2 === 1 ? first : other(first);
}

// ---- drawing ----

function drawBoard() {
  const svg = $("board");
  svg.textContent = "";
  el("rect", { x: 0, y: 0, width: 740, height: 740, fill: "#4a3a22", rx: 10 }, svg);
  el("rect", { class: "wood", x: MARGIN, y: MARGIN, width: 660, height: 660 }, svg);
  if (!state) return;
  const board = state.board;
  // Rank 6 belongs to neither player: a darker band.
  const [, y6] = centre("a6");
  el("rect", { class: "half", x: MARGIN, y: y6 - CELL / 2, width: 660, height: CELL }, svg);
  const passages = state.position.split(" ")[4] || "--";
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
  if (state.mode !== "review") drawLastMove(svg);
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
      el("text", { class: "ka-letter", x, y }, g).textContent = c;
    }
    // "origin" picks the stone to move, "target" plays (or asks which line).
    if (marks.legal.has(name)) g.classList.add("legal", marks.legal.get(name) ? "target" : "origin");
    if (name === selected) g.classList.add("selected");
    // In phase 1 a whole column is the target: it is outlined below, and
    // its stones keep their colours.
    if (state.phase !== 1 && (marks.legal.has(name) || name === selected)) {
      el("circle", { class: "mark", cx: x, cy: y, r: c === "." ? 10 : 28 }, g);
    }
  }
  if (state.phase === 1 && marks.legal.size) {
    for (const m of state.legal) {
      stretch(m.file, state.side, { class: "column" + (m.file === litColumn ? " lit" : "") }, svg);
    }
  }
  // A lesson marks the points its task is about.
  if (learn && learn.lesson && (learn.phase === "task" || learn.phase === "right")) {
    for (const name of currentStep().highlight || []) {
      const [x, y] = centre(name);
      el("circle", { class: "lesson-mark", cx: x, cy: y, r: 29, "data-highlight": name }, svg);
    }
  }
  if (state.mode === "review") drawReviewArrows(svg);
  else drawArrows(svg);
  // The kas' letters stay readable above any arrow.
  for (const letter of [...svg.querySelectorAll(".ka-letter")]) svg.appendChild(letter);
}

function drawLastMove(svg) {
  const last = state.last;
  if (!last) return;
  if (last.file !== undefined) {
    stretch(last.file, moverOf(state.cursor), { class: "file-path" }, svg);
  } else {
    const [x1, y1] = centre(last.from), [x2, y2] = centre(last.to);
    el("line", { class: "path", x1, y1, x2, y2 }, svg);
  }
  drawCaptures(svg);
}

// The stones the move that led here took.
function drawCaptures(svg) {
  for (const name of state.last ? state.last.captures : []) {
    const [x, y] = centre(name);
    el("circle", { class: "captured", cx: x, cy: y, r: 12 }, svg);
  }
}

function arrowHead(svg, id, colour) {
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id, markerWidth: 4, markerHeight: 4, refX: 2.5, refY: 2, orient: "auto" }, defs);
  el("path", { d: "M0,0 L4,2 L0,4 z", fill: colour }, marker);
}

// One move as an arrow (a ka move) or an outlined column (a passage);
// returns where a label goes.
function moveArrow(svg, move, mover, lineClass, fileClass, head) {
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
  const best = lines[1];
  if (!state || state.mode !== "analyse" || !best || best.ply !== state.cursor) return;
  arrowHead(svg, "arrowhead", "#2a9d4a");
  let mover = state.side;
  best.pv.slice(0, 3).forEach((move, n) => {
    const label = moveArrow(svg, move, mover, "arrow", "arrow-file", "arrowhead");
    if (label) {
      el("circle", { cx: label[0], cy: label[1], r: 10, fill: "#bfe8c9" }, svg);
      el("text", { class: "arrow-number", x: label[0], y: label[1] }, svg).textContent = n + 1;
    }
    mover = other(mover);
  });
}

// Review: the move that led here (blue) and, where the engine preferred
// another, that one (green), both from the position before it.
function drawReviewArrows(svg) {
  const ply = state.cursor;
  if (ply < 1) return;
  arrowHead(svg, "played-head", "#2f7fd8");
  arrowHead(svg, "best-head", "#2a9d4a");
  const mover = moverOf(ply);
  moveArrow(svg, state.moves[ply - 1], mover, "played", "played-file", "played-head");
  drawCaptures(svg);
  const best = bestMove(reviewPly(ply));
  if (best && best !== state.moves[ply - 1]) moveArrow(svg, best, mover, "arrow", "arrow-file", "best-head");
}

// Which points take a click now, and what a click there does.
function markedPoints() {
  const legal = new Map();
  if (!canMove()) return { legal };
  if (state.phase === 1) {
    for (const m of state.legal) for (const name of halfFile(m.file, state.side)) legal.set(name, [m]);
    return { legal };
  }
  const origins = [...new Set(state.legal.map((m) => m.from))];
  if (!selected && origins.length === 1) selected = origins[0];
  if (!selected) {
    for (const o of origins) legal.set(o, null);
  } else {
    for (const m of state.legal.filter((m) => m.from === selected)) {
      legal.set(m.to, (legal.get(m.to) || []).concat([m]));
    }
    for (const o of origins) if (o !== selected) legal.set(o, null);
  }
  return { legal };
}

function canMove() {
  if (!state || state.over || !state.legal.length) return false;
  // A lesson takes a move while its step waits for one.
  if (learn && (!learn.lesson || learn.phase !== "task")) return false;
  // A puzzle takes the person's move only at the solver's turn.
  if (puzzle && puzzle.phase !== "playing") return false;
  const atEnd = state.cursor === state.moves.length;
  // A review judges the game as played: it is stepped through, not changed.
  if (state.mode === "review") return false;
  if (state.mode === "play" && atEnd && state.side !== state.person) return false;
  if (state.mode === "watch" && state.running && atEnd) return false;
  return true;
}

function onBoardClick(event) {
  const g = event.target.closest("[data-point]");
  if (!g || !state) return;
  const name = g.getAttribute("data-point");
  const { legal } = markedPoints();
  if (!legal.has(name)) {
    // In a lesson every point answers: the move it would make is explained
    // (a second click on the chosen stone only lets go of it).
    if (learning() && name !== selected) explainClick(name);
    // A click elsewhere drops the selection (unless there is one origin).
    selected = null;
    drawBoard();
    return;
  }
  const moves = legal.get(name);
  if (moves === null) {
    selected = name;
    drawBoard();
  } else if (moves.length === 1) {
    submit(moves[0].move);
  } else {
    chooseLine(moves);
  }
}

// Phase 1: light the column under the pointer.
function onBoardHover(event) {
  if (!state || state.phase !== 1) return;
  const g = event.target.closest && event.target.closest("[data-point].legal");
  const column = g ? fileOf(g.getAttribute("data-point")) : null;
  if (column !== litColumn) {
    litColumn = column;
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

function showCaptures(names) {
  document.querySelectorAll(".hover-capture").forEach((n) => n.remove());
  for (const name of names) {
    const [x, y] = centre(name);
    el("circle", { class: "hover-capture", cx: x, cy: y, r: 26 }, $("board"));
  }
}

function play(move) {
  selected = null;
  litColumn = null;
  if (room) {
    roomMove(move);
    return;
  }
  send({ type: "move", move });
}

// A move the person chose, by clicks or typed: in a lesson it is held to
// the step's task first.
function submit(move) {
  if (learn) learnTry(move);
  else if (puzzle) puzzleTry(move);
  else play(move);
}

// ---- moves typed, and why a move cannot be played ----

const KA_MOVE = /^([a-k](?:1[01]|[1-9]))([a-k](?:1[01]|[1-9]))([nsew]*)$/;

// A move typed in #move-input: played as its clicks would play it, or
// refused in words (#moves stays as it was).
function onTypedMove(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim().toLowerCase();
  if (!text || !state) return;
  if (learn && (!learn.lesson || learn.phase !== "task")) return;
  let found = canMove() ? state.legal.find((m) => m.move === text) : null;
  // `b4c4` for the one move from b4 to c4, as the engine reads it.
  const ka = text.match(KA_MOVE);
  if (!found && canMove() && ka && !ka[3]) {
    const there = state.legal.filter((m) => m.from === ka[1] && m.to === ka[2]);
    if (there.length === 1) found = there[0];
  }
  if (found) {
    input.value = "";
    submit(found.move);
  } else if (room) {
    // In a room the server referees: it says why (not your turn, a
    // spectator, an illegal move) in words of its kind.
    input.value = "";
    play(text);
  } else if (!learn && !puzzle) {
    // The session referees: its refusal names the rule's reason.
    play(text);
    input.select();
  } else {
    refuse(text, explain(text));
    input.select();
  }
}

// Says why `move` is refused: in a lesson, the step's own reason where it
// has one; elsewhere in #error. `why` is [key, values] of the strings.
function refuse(move, why) {
  if (puzzle && puzzle.phase === "playing") {
    puzzle.feedback = { kind: "wrong", key: why[0], values: why[1] };
    renderPuzzle();
    return;
  }
  if (learning()) {
    const wrong = wrongTry(move);
    learn.feedback = { kind: "wrong", say: wrong ? () => words(wrong.why) : () => t(why[0], why[1]) };
    renderLesson();
    return;
  }
  showError.last = () => t(why[0], why[1]);
  showError();
}

const pointIndex = (name) => rankOf(name) * 11 + fileOf(name);
const mirrorFile = (file) => FILES[10 - FILES.indexOf(file)];
const isStone = (c) => c === "w" || c === "b";

// The points a ka passes going from `from` to `to` (both left out).
function between(from, to) {
  const points = [];
  const df = Math.sign(fileOf(to) - fileOf(from)), dr = Math.sign(rankOf(to) - rankOf(from));
  for (let f = fileOf(from) + df, r = rankOf(from) + dr; f !== fileOf(to) || r !== rankOf(to); f += df, r += dr) {
    points.push(FILES[f] + (r + 1));
  }
  return points;
}

// Why `text` is not a move of the position shown, in a player's words:
// the key of the strings table and its values. The rules are the
// session's; this only reads the board to name the reason.
function explain(text) {
  const move = text.trim().toLowerCase();
  const passage = /^[a-k]$/.test(move);
  const ka = move.match(KA_MOVE);
  if (!passage && !ka) return ["notAMove", { move: text }];
  if (state.mode === "review") return ["reviewNoMoves", {}];
  if (state.over || (!state.legal.length && state.mode !== "play")) return ["gameOverNoMove", {}];
  if (state.mode === "play" && state.side !== state.person) return ["enginesTurnWait", {}];
  if (state.mode === "watch" && state.running && state.cursor === state.moves.length) return ["watchRunning", {}];
  const side = state.side;
  const passages = state.position.split(" ")[4] || "--";
  const at = (name) => state.board[pointIndex(name)];
  if (state.phase === 1) {
    if (!passage) return ["passageFirst", {}];
    const south = passages[0];
    if (side === "north" && south !== "-") {
      if (state.rules.second_column === "any") {
        if (move === mirrorFile(south)) return ["passageMirror", { file: move, south }];
      } else if (south === "f") {
        if (move === "f") return ["passageNotF", {}];
      } else if (move === "f" || (move < "f") === (south < "f")) {
        return ["passageOpposite", { file: south }];
      }
    }
    return ["passageEmpty", { file: move }];
  }
  if (passage) return ["passageTaken", {}];
  const [, from, to, directions] = ka;
  if (state.phase === 2) {
    const file = passages[side === "south" ? 0 : 1];
    const own = side === "south" ? rankOf(to) <= 4 : rankOf(to) >= 6;
    if (FILES[fileOf(to)] !== file || rankOf(to) !== rankOf(from) || !own) return ["entryLands", { file }];
    if (at(to) !== ".") return ["notEmpty", { point: to }];
    if (!isStone(at(from))) return ["entryNoStone", { from }];
    const distance = Math.abs(fileOf(from) - fileOf(to));
    if (distance === 2 && state.rules.ka_entry === "slide") return ["entrySlideOnly", { from }];
    if (distance === 1 && state.rules.ka_entry === "jump") return ["entryJumpOnly", { from }];
    if (distance === 2) {
      const over = FILES[(fileOf(from) + fileOf(to)) / 2] + (rankOf(to) + 1);
      if (!isStone(at(over))) return ["entryJumpEmpty", { over }];
    }
    if (distance !== 1 && distance !== 2) return ["entryTooFar", {}];
  } else {
    const kaPoint = pointName(state.board.indexOf(side === "south" ? "S" : "N"));
    if (from !== kaPoint) return ["onlyKa", { ka: kaPoint }];
    if (from === to || (fileOf(from) !== fileOf(to) && rankOf(from) !== rankOf(to))) return ["rookMove", {}];
    for (const point of [...between(from, to), to]) {
      const c = at(point);
      if (c === "+") {
        if (state.rules.centre !== "open") return ["holeWall", {}];
        if (point === to) return ["holeStop", {}];
      } else if (c !== ".") {
        return ["blocked", { point }];
      }
    }
  }
  const there = state.legal.filter((m) => m.from === from && m.to === to).map((m) => m.move);
  if (there.length && !directions) return ["ambiguous", { to, moves: there.join(", ") }];
  if (there.length) return ["otherLines", { to, moves: there.join(", ") }];
  return ["noCapture", { to }];
}

// A lesson's answer to a click on a point that takes no click: the move
// it would make, explained.
function explainClick(name) {
  if (state.phase === 1) {
    const own = state.side === "south" ? rankOf(name) <= 4 : rankOf(name) >= 6;
    if (!own) {
      learn.feedback = { kind: "wrong", say: () => t("passageHalf") };
      renderLesson();
      return;
    }
    refuse(name[0], explain(name[0]));
  } else if (selected) {
    refuse(selected + name, explain(selected + name));
  } else if (state.phase === 3) {
    refuse(name + name, explain(name + name));
  } else {
    // Phase 2: the stone would enter its rank's passage point.
    const file = (state.position.split(" ")[4] || "--")[state.side === "south" ? 0 : 1];
    refuse(name + file + name.slice(1), explain(name + file + name.slice(1)));
  }
}

// ---- learn ----

// The course's rule options are the protocol's names; the session's
// `new` takes the page's fields.
const OPTION_FIELDS = { "Pattern": "pattern", "Ka Entry": "ka_entry", "Second Column": "second_column", "Centre": "centre" };
const DEFAULT_RULES = { pattern: "1", ka_entry: "slide", second_column: "opposite", centre: "wall" };
// Progress in the browser: { lessonId: { step: next step to do, done: true once finished } }.
const PROGRESS_KEY = "pasang-learn";

// Whether a lesson's step waits for the person's move.
const learning = () => Boolean(learn && learn.lesson && learn.phase === "task");
const currentStep = () => learn.lesson.steps[learn.step];
// A course text ({en, ms}) in the page's language.
const words = (text) => (text && (text[language] || text.en)) || "";

function loadProgress() {
  try {
    const kept = JSON.parse(localStorage.getItem(PROGRESS_KEY));
    return kept && typeof kept === "object" ? kept : {};
  } catch (_) {
    return {};
  }
}

function saveProgress(progress) {
  try { localStorage.setItem(PROGRESS_KEY, JSON.stringify(progress)); } catch (_) { /* no storage */ }
}

// ?mode=learn: the course menu; &lesson=ID one lesson from its first step
// (&step=N from step N, as the menu's Continue links). The session
// analyses, stopped: it only keeps the board and its legal moves.
function startLearn() {
  learn = { course: null, lesson: null, step: 0, phase: "menu", feedback: null, timer: null };
  document.body.classList.add("learning");
  send({ type: "mode", mode: "analyse" });
  send({ type: "run", on: false });
  renderLesson();
  fetch("lessons.json")
    .then((response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return response.json();
    })
    .then((course) => {
      learn.course = course;
      const id = params.get("lesson");
      const lesson = id === null ? null : course.lessons.find((l) => l.id === id);
      // What was wrong with the address stays until the page is reloaded.
      if (id !== null && !lesson) {
        addressErrors.push(() => t("noSuchLesson", { id }));
        showError();
      }
      if (lesson) {
        const step = Math.max(0, Math.min(lesson.steps.length - 1, parseInt(params.get("step"), 10) || 0));
        openLesson(lesson, step);
      } else {
        renderLesson();
      }
    })
    .catch((error) => {
      addressErrors.push(() => t("lessonsMissing", { why: error.message }));
      showError();
    });
}

function openLesson(lesson, step) {
  learn.lesson = lesson;
  learn.step = step;
  loadStep();
}

// Puts the step's position on the board under its rules; the step's task
// starts when the session's state shows it.
function loadStep() {
  const step = currentStep();
  const rules = Object.assign({}, DEFAULT_RULES);
  for (const [name, value] of Object.entries(step.options || {})) {
    if (OPTION_FIELDS[name]) rules[OPTION_FIELDS[name]] = value;
  }
  learn.rules = rules;
  learn.phase = "loading";
  learn.feedback = null;
  selected = null;
  // The side to move plays from the bottom of the board.
  flipped = step.position.split(" ")[1] === "n";
  send({ type: "new", rules, position: step.position });
  renderLesson();
}

// Each state the session sends, in Learn mode: the step's position shown
// starts its task; after the right move, the next step follows.
function onLearnState() {
  if (!learn.lesson) return;
  const step = currentStep();
  const sameRules = Object.keys(learn.rules).every((key) => state.rules[key] === learn.rules[key]);
  if (learn.phase === "loading" && state.start === step.position && sameRules && state.moves.length === 0) {
    learn.phase = "task";
    renderLesson();
    drawBoard();
  } else if (learn.phase === "right" && state.moves.length === 1 && !learn.timer) {
    learn.timer = setTimeout(advance, 1200);
  }
}

// The person's move in a step: one of `accept` moves on (the session
// plays it, the board shows what it took); any other is refused with the
// step's reason, or a general one, and the step stays.
function learnTry(move) {
  if (!learning()) return;
  const step = currentStep();
  selected = null;
  litColumn = null;
  if (step.accept.includes(move)) {
    learn.phase = "right";
    learn.feedback = { kind: "right", say: () => (step.right ? words(step.right) : t("right")) };
    const progress = loadProgress();
    const done = learn.step + 1 >= learn.lesson.steps.length;
    const before = progress[learn.lesson.id] || {};
    progress[learn.lesson.id] = { step: done ? 0 : learn.step + 1, done: done || Boolean(before.done) };
    saveProgress(progress);
    play(move);
  } else {
    const wrong = wrongTry(move);
    learn.feedback = { kind: "wrong", say: wrong ? () => words(wrong.why) : () => t("notThisTask") };
    drawBoard();
  }
  renderLesson();
}

// The step's wrong try for `move`; a move clicked without its direction
// (from and to only) finds the try with those points.
function wrongTry(move) {
  const wrongs = currentStep().wrong || [];
  return wrongs.find((w) => w.move === move)
    || (KA_MOVE.test(move) && !move.match(KA_MOVE)[3]
      ? wrongs.find((w) => w.move.startsWith(move) && /^[nsew]+$/.test(w.move.slice(move.length)))
      : null)
    || null;
}

function advance() {
  learn.timer = null;
  if (learn.step + 1 < learn.lesson.steps.length) {
    learn.step += 1;
    loadStep();
  } else {
    learn.phase = "done";
    renderLesson();
    drawBoard();
  }
}

// The address of a lesson (at a step).
function lessonLink(id, step) {
  return `?mode=learn&lesson=${encodeURIComponent(id)}${step ? `&step=${step}` : ""}`;
}

function node(tag, attrs, text, parent) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) made.setAttribute(key, value);
  if (text !== undefined && text !== null) made.textContent = text;
  if (parent) parent.appendChild(made);
  return made;
}

// #lesson: the course menu, or the lesson with its step's words, what the
// last try earned and the way on. Its data-lesson, data-step (from 0) and
// data-state (menu, loading, task, right, done) are the page's testing
// contract.
function renderLesson() {
  const box = $("lesson");
  box.hidden = !learn;
  if (!learn) return;
  box.textContent = "";
  const lesson = learn.lesson;
  box.dataset.lesson = lesson ? lesson.id : "";
  box.dataset.step = lesson ? String(learn.step) : "";
  box.dataset.state = lesson ? learn.phase : "menu";
  const progress = loadProgress();
  if (!lesson) {
    node("h2", {}, t("course"), box);
    node("p", {}, t("courseIntro"), box);
    if (!learn.course) return;
    const list = node("ol", { id: "lesson-list" }, null, box);
    for (const l of learn.course.lessons) {
      const kept = progress[l.id] || {};
      const item = node("li", {}, null, list);
      const started = kept.step > 0;
      node("a", { href: lessonLink(l.id, started ? kept.step : 0), "data-lesson-id": l.id }, words(l.title), item);
      let status = t("lessonSteps", { count: l.steps.length });
      if (started) status = t("lessonAt", { step: kept.step + 1, count: l.steps.length });
      else if (kept.done) status = `✓ ${t("lessonDone")}`;
      node("span", { class: "lesson-status" + (kept.done ? " done" : "") }, status, item);
    }
    if (learn.course.lessons.every((l) => (progress[l.id] || {}).done)) node("p", {}, t("courseComplete"), box);
    return;
  }
  node("h2", {}, words(lesson.title), box);
  const count = lesson.steps.length;
  const bar = node("div", { class: "lesson-steps", "aria-hidden": "true" }, null, box);
  for (let i = 0; i < count; i++) {
    const done = i < learn.step || learn.phase === "done" || (i === learn.step && learn.phase === "right");
    node("span", { class: done ? "done" : i === learn.step ? "current" : "" }, null, bar);
  }
  if (learn.phase === "done") {
    node("p", { id: "lesson-text", class: "complete" }, t("lessonComplete"), box);
  } else {
    node("p", { class: "step-count" }, t("stepOf", { step: learn.step + 1, count }), box);
    node("p", { id: "lesson-text" }, words(currentStep().text), box);
  }
  if (learn.feedback && learn.phase !== "done") {
    node("p", { id: "lesson-feedback", class: learn.feedback.kind, role: "alert" }, learn.feedback.say(), box);
  }
  const links = node("p", { class: "lesson-links" }, null, box);
  node("a", { href: "?mode=learn", id: "back-to-course" }, t("backToCourse"), links);
  if (learn.phase === "done") {
    const lessons = learn.course.lessons;
    const next = lessons[lessons.indexOf(lesson) + 1];
    node("a", { href: lessonLink(lesson.id, 0), id: "restart-lesson" }, t("restartLesson"), links);
    if (next) node("a", { href: lessonLink(next.id, 0), id: "next-lesson", class: "primary" }, `${t("nextLesson")}: ${words(next.title)}`, links);
  }
}

// ---- puzzles ----

// Puzzle mode (?mode=puzzle, &id=ID one puzzle): the page's own, as Learn
// mode is. It reads puzzles.jsonl (a puzzle a line), sets up the position
// before the opponent's mistake, plays the mistake, then holds each of the
// person's moves to the solution and plays the replies. The session
// analyses, stopped: it only keeps the board and its legal moves.
// #puzzle's data-id and data-state (loading, mistake, playing, reply,
// solved, shown) are the page's testing contract.

// What is kept in the browser: { rating, streak, best, results: {id: 1 solved | 0 failed}, theme, rules }.
const PUZZLE_KEY = "pasang-puzzles";
// Elo as the puzzle rating: a new player's rating, and how far one puzzle moves it.
const PUZZLE_START_RATING = 1500;
const PUZZLE_K = 32;
// Milliseconds before the page plays a move (the mistake, a reply, the solution's next move).
const PUZZLE_PAUSE = 500;
const RULE_OPTION_NAMES = ["Pattern", "Ka Entry", "Second Column", "Centre"];

let puzzle = null;        // Puzzle mode: the puzzles, the one on the board and where it stands

function loadPuzzleRecord() {
  try {
    const kept = JSON.parse(localStorage.getItem(PUZZLE_KEY));
    if (kept && typeof kept === "object") {
      return Object.assign({ rating: PUZZLE_START_RATING, streak: 0, best: 0, results: {}, theme: "", rules: "" }, kept);
    }
  } catch (_) { /* no storage, or not JSON */ }
  return { rating: PUZZLE_START_RATING, streak: 0, best: 0, results: {}, theme: "", rules: "" };
}

function savePuzzleRecord(record) {
  try { localStorage.setItem(PUZZLE_KEY, JSON.stringify(record)); } catch (_) { /* no storage */ }
}

// A puzzle's rule set as one key: the option values in the protocol's order.
const puzzleRuleSet = (p) => RULE_OPTION_NAMES.map((name) => (p.options || {})[name] || "").join("/");

// The puzzles the filters let through.
function filteredPuzzles(record) {
  return puzzle.all.filter((p) => (!record.theme || p.themes.includes(record.theme))
    && (!record.rules || puzzleRuleSet(p) === record.rules));
}

// The next puzzle: one not tried yet nearest the player's rating (the
// first in the file on a tie), else the nearest of all; null if none.
function nextPuzzle(record, except) {
  const list = filteredPuzzles(record).filter((p) => p.id !== except);
  const fresh = list.filter((p) => !(p.id in record.results));
  const pool = fresh.length ? fresh : list;
  let best = null;
  for (const p of pool) {
    if (!best || Math.abs(p.rating - record.rating) < Math.abs(best.rating - record.rating)) best = p;
  }
  return best;
}

const puzzleLink = (id) => `?mode=puzzle&id=${encodeURIComponent(id)}`;

function startPuzzle() {
  puzzle = { all: [], current: null, solution: [], step: 0, phase: "loading", feedback: null, counted: false, timer: null };
  document.body.classList.add("puzzling");
  send({ type: "mode", mode: "analyse" });
  send({ type: "run", on: false });
  renderPuzzle();
  fetch("puzzles.jsonl")
    .then((response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return response.text();
    })
    .then((text) => {
      puzzle.all = text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
      const id = params.get("id");
      const asked = id === null ? null : puzzle.all.find((p) => p.id === id);
      if (id !== null && !asked) {
        addressErrors.push(() => t("noSuchPuzzle", { id }));
        showError();
      }
      const chosen = asked || nextPuzzle(loadPuzzleRecord(), null);
      if (chosen) openPuzzle(chosen);
      else { puzzle.phase = "empty"; renderPuzzle(); }
    })
    .catch((error) => {
      addressErrors.push(() => t("puzzlesMissing", { why: error.message }));
      showError();
    });
}

// Puts the position before the mistake on the board, under the puzzle's rules.
function openPuzzle(p) {
  clearTimeout(puzzle.timer);
  puzzle.current = p;
  puzzle.solution = p.moves.split(" ").filter(Boolean);
  puzzle.step = 0;
  puzzle.phase = "loading";
  puzzle.feedback = null;
  puzzle.counted = false;
  puzzle.alternative = false;
  const rules = Object.assign({}, DEFAULT_RULES);
  for (const [name, value] of Object.entries(p.options || {})) {
    if (OPTION_FIELDS[name]) rules[OPTION_FIELDS[name]] = value;
  }
  puzzle.rules = rules;
  puzzle.start = p.before && p.mistake ? p.before : p.position;
  puzzle.offset = p.before && p.mistake ? 1 : 0;
  selected = null;
  // The solver plays from the bottom of the board.
  flipped = p.position.split(" ")[1] === "n";
  send({ type: "new", rules, position: puzzle.start });
  renderPuzzle();
}

// The moves of the puzzle on the board so far (the mistake not counted).
const puzzlePlayed = () => state.moves.length - puzzle.offset;

// Each state the session sends, in Puzzle mode: the mistake is played
// once the position is shown; the reply once the person's move is.
function onPuzzleState() {
  const p = puzzle.current;
  if (!p) return;
  if (puzzle.phase === "loading") {
    const sameRules = Object.keys(puzzle.rules).every((key) => state.rules[key] === puzzle.rules[key]);
    if (state.start !== puzzle.start || !sameRules || state.moves.length !== 0) return;
    if (puzzle.offset) {
      puzzle.phase = "mistake";
      puzzle.timer = setTimeout(() => play(p.mistake), PUZZLE_PAUSE);
    } else {
      puzzle.phase = "playing";
    }
  } else if (puzzle.phase === "mistake" && state.moves.length === 1) {
    puzzle.phase = "playing";
  } else if (puzzle.phase === "moving" && puzzlePlayed() === puzzle.step) {
    if (puzzle.step >= puzzle.solution.length || puzzle.alternative) {
      puzzle.phase = "solved";
      if (!puzzle.alternative) puzzle.feedback = { kind: "right", key: "puzzleSolved" };
      countPuzzle(true);
    } else {
      // The reply counts at once: a state that comes before it is played
      // does not end the wait.
      puzzle.phase = "reply";
      puzzle.step += 1;
      const reply = puzzle.solution[puzzle.step - 1];
      puzzle.timer = setTimeout(() => play(reply), PUZZLE_PAUSE);
    }
  } else if (puzzle.phase === "reply" && puzzlePlayed() === puzzle.step) {
    puzzle.phase = "playing";
  } else if (puzzle.phase === "shown" && puzzlePlayed() === puzzle.step && puzzle.step < puzzle.solution.length) {
    puzzle.step += 1;
    const move = puzzle.solution[puzzle.step - 1];
    puzzle.timer = setTimeout(() => play(move), PUZZLE_PAUSE);
  }
  renderPuzzle();
  drawBoard();
}

// The person's move: the solution's next move is played (the reply
// follows); a first move the puzzle lists in `alternatives` (another
// proven win) is played and solves it at once; any other is refused, and
// the board and #moves stay.
function puzzleTry(move) {
  if (!puzzle.current || puzzle.phase !== "playing") return;
  selected = null;
  litColumn = null;
  const alternative = puzzle.step === 0 && (puzzle.current.alternatives || []).includes(move);
  if (move === puzzle.solution[puzzle.step] || alternative) {
    puzzle.step += 1;
    puzzle.phase = "moving";
    puzzle.alternative = alternative;
    puzzle.feedback = alternative
      ? { kind: "right", key: "puzzleAlternative", values: { move: puzzle.solution[0] } }
      : { kind: "right", key: puzzle.step >= puzzle.solution.length ? "puzzleSolved" : "puzzleGood" };
    play(move);
  } else {
    puzzle.feedback = { kind: "wrong", key: "notTheMove" };
    countPuzzle(false);
    drawBoard();
  }
  renderPuzzle();
}

// The rest of the solution, played for the person (the puzzle counts as missed).
function showSolution() {
  if (!puzzle.current || puzzle.phase !== "playing") return;
  countPuzzle(false);
  puzzle.phase = "shown";
  puzzle.feedback = { kind: "wrong", key: "puzzleShown" };
  puzzle.step += 1;
  play(puzzle.solution[puzzle.step - 1]);
  renderPuzzle();
}

// The first result of a puzzle counts: the rating (Elo against the
// puzzle's rating) and the streak of puzzles solved at the first try.
function countPuzzle(solved) {
  if (puzzle.counted) return;
  puzzle.counted = true;
  const record = loadPuzzleRecord();
  const expected = 1 / (1 + 10 ** ((puzzle.current.rating - record.rating) / 400));
  record.rating = Math.round(record.rating + PUZZLE_K * ((solved ? 1 : 0) - expected));
  record.streak = solved ? record.streak + 1 : 0;
  record.best = Math.max(record.best, record.streak);
  record.results[puzzle.current.id] = solved ? 1 : 0;
  savePuzzleRecord(record);
}

// A filter changed: kept, and the next puzzle it lets through opened.
function onPuzzleFilter() {
  const record = loadPuzzleRecord();
  record.theme = $("puzzle-theme").value;
  record.rules = $("puzzle-rules").value;
  savePuzzleRecord(record);
  const next = nextPuzzle(record, null);
  if (next) {
    try { history.replaceState(null, "", puzzleLink(next.id)); } catch (_) { /* a page from file: */ }
    openPuzzle(next);
  } else {
    puzzle.current = null;
    puzzle.phase = "empty";
    renderPuzzle();
  }
}

// A select of #puzzle's filters: "all", then each value with its label.
function puzzleSelect(id, label, all, values, chosen, parent) {
  const wrap = node("label", {}, `${label} `, parent);
  const select = node("select", { id }, null, wrap);
  node("option", { value: "" }, all, select);
  for (const [value, text] of values) node("option", { value }, text, select);
  select.value = values.some(([value]) => value === chosen) ? chosen : "";
  select.onchange = onPuzzleFilter;
}

// #puzzle: the task, what the last try earned, the player's rating and
// streak, the puzzle's facts once it is over, the filters and the way on.
function renderPuzzle() {
  const box = $("puzzle");
  if (!box) return;
  box.hidden = !puzzle;
  if (!puzzle) return;
  box.textContent = "";
  const p = puzzle.current;
  box.dataset.id = p ? p.id : "";
  box.dataset.state = puzzle.phase;
  const record = loadPuzzleRecord();
  node("h2", {}, t("puzzles"), box);
  node("p", { id: "puzzle-rating" }, t("puzzleRecord", { rating: record.rating, streak: record.streak, best: record.best }), box);
  if (p) {
    const solver = p.position.split(" ")[1] === "n" ? "north" : "south";
    const over = puzzle.phase === "solved" || puzzle.phase === "shown";
    let task = t(p.themes.includes("save") ? "puzzleTaskSave" : "puzzleTaskWin", { side: t(solver) });
    if (p.mistake && !over) task = `${t("puzzleMistake", { side: t(other(solver)), move: p.mistake })} ${task}`;
    node("p", { id: "puzzle-text" }, task, box);
    if (puzzle.feedback) node("p", { id: "puzzle-feedback", class: puzzle.feedback.kind, role: "alert" }, t(puzzle.feedback.key, puzzle.feedback.values), box);
    if (over) {
      const themes = p.themes.map((theme) => t(`theme-${theme}`)).join(", ");
      node("p", { class: "puzzle-facts" }, t("puzzleFacts", { id: p.id, rating: p.rating, themes }), box);
    }
    const actions = node("p", { class: "lesson-links" }, null, box);
    if (puzzle.phase === "playing") {
      const button = node("button", { type: "button", id: "puzzle-solution" }, t("showSolution"), actions);
      button.onclick = showSolution;
    }
    const next = nextPuzzle(record, p.id);
    if (next) node("a", { href: puzzleLink(next.id), id: "puzzle-next", class: over ? "primary" : "" }, t(over ? "nextPuzzle" : "skipPuzzle"), actions);
  } else if (puzzle.phase === "empty") {
    node("p", { id: "puzzle-text" }, t("noPuzzles"), box);
  }
  if (!puzzle.all.length) return;
  const filters = node("div", { class: "puzzle-filters" }, null, box);
  const themes = [...new Set(puzzle.all.flatMap((q) => q.themes))].sort();
  puzzleSelect("puzzle-theme", t("puzzleTheme"), t("allThemes"),
    themes.map((theme) => [theme, t(`theme-${theme}`)]), record.theme, filters);
  const sets = [...new Set(puzzle.all.map(puzzleRuleSet))].sort();
  puzzleSelect("puzzle-rules", t("puzzleRules"), t("allRuleSets"),
    sets.map((set) => [set, set.split("/").map((value) => STRINGS.en[`ruleValue_${value}`] ? t(`ruleValue_${value}`) : value).join(" · ")]), record.rules, filters);
}

// ---- friend ----

// The friend game kept in this browser: { rules, position, moves, names, turn }.
const FRIEND_KEY = "pasang-friend";

function loadFriend() {
  try {
    const kept = JSON.parse(localStorage.getItem(FRIEND_KEY));
    return kept && typeof kept === "object" ? kept : null;
  } catch (_) {
    return null;
  }
}

// What a friend game starts from: the address's game where it gives one
// (a shared link), else the game kept in this browser, else a new one.
// Sends the game to the session; the mode follows.
function startFriend() {
  const fromAddress = ["moves", "position", "south", "north", ...RULE_KEYS].some((key) => params.has(key));
  const kept = fromAddress ? null : loadFriend();
  friend = {
    names: {
      south: (kept ? (kept.names || {}).south : params.get("south")) || "",
      north: (kept ? (kept.names || {}).north : params.get("north")) || "",
    },
    position: (kept ? kept.position : params.get("position")) || null,
    turn: Boolean(kept ? kept.turn : (loadFriend() || {}).turn),
  };
  document.body.classList.add("friend");
  $("room-create").hidden = !roomServer();
  $("south-name").value = friend.names.south;
  $("north-name").value = friend.names.north;
  $("turn-board").checked = friend.turn;
  sendNames();
  // The engine keeps out from the first move on.
  send({ type: "mode", mode: "friend" });
  if (kept) {
    send({ type: "new", rules: kept.rules || DEFAULT_RULES, position: kept.position || undefined });
    for (const move of Array.isArray(kept.moves) ? kept.moves : []) send({ type: "move", move: String(move) });
  }
}

function sendNames() {
  send({ type: "names", south: friend.names.south, north: friend.names.north });
}

// Each state in Friend mode: the game kept (in this browser and in the
// page's address, so that a reload keeps it) and the share link.
function onFriendState() {
  if (state.mode !== "friend") return;
  const kept = { rules: state.rules, position: friend.position, moves: state.moves, names: friend.names, turn: friend.turn };
  try { localStorage.setItem(FRIEND_KEY, JSON.stringify(kept)); } catch (_) { /* no storage */ }
  const link = shareLink();
  $("share-link").value = link;
  try { history.replaceState(null, "", link); } catch (_) { /* a page from file: */ }
  if (friend.turn) flipped = state.side === "north";
}

// The game's address: its rules (the page's keys, the protocol's
// values), its start position if it was set up, its moves in full,
// space-separated in one parameter, and the players' names.
function shareLink() {
  const query = new URLSearchParams();
  query.set("mode", "friend");
  for (const key of RULE_KEYS) query.set(key, state.rules[key]);
  if (friend.position) query.set("position", friend.position);
  if (state.moves.length) query.set("moves", state.moves.join(" "));
  for (const side of ["south", "north"]) if (friend.names[side]) query.set(side, friend.names[side]);
  return `${location.origin}${location.pathname}?${query}`;
}

// The Share button: the Web Share API where there is one (phones), the
// clipboard elsewhere; the link stays in #share-link to copy by hand.
function share() {
  if (!state) return;
  const url = shareLink();
  $("share-link").value = url;
  const note = (key) => { $("share-note").textContent = t(key); $("share-note").hidden = false; };
  const copy = () => (navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject(new Error("no clipboard")))
    .then(() => note("linkCopied"))
    .catch(() => {
      $("share-link").select();
      note(document.execCommand && document.execCommand("copy") ? "linkCopied" : "linkSelect");
    });
  if (navigator.share) {
    navigator.share({ title: document.title, text: t("shareText", { side: t(state.side) }), url })
      .then(() => note("linkShared"))
      .catch((error) => { if (!error || error.name !== "AbortError") copy(); });
  } else {
    copy();
  }
}

// The name of `side`'s player, if given (in a room, as the room has it).
const playerName = (side) => {
  if (room && Array.isArray(room.names)) return room.names[side === "south" ? 0 : 1] || "";
  return (friend && friend.names[side]) || "";
};

// ---- rooms (pasang serve) ----

// A room of `pasang serve`: the page came from a room server (its page is
// marked data-rooms) and the address names a room (room=new makes one).
// The server referees and keeps the game; the page sends moves, a
// resignation or a rematch, and draws the `state` it is sent. The seat's
// token is kept in this browser, so a reload (or a new connection after
// the network went) goes back to the same seat.
let room = null;          // { code, seat, token, presence, game, rematch, names, grace }
let roomTurn = -1;        // the ply whose turn was last told
let roomRetry = 0;        // reconnections tried since the last good one
let roomNamed = false;    // whether the kept name was given to the room
let roomPending = null;   // a move made while the room's socket was down: { move, ply }, sent when it is back
let roomLink = "";        // the room's socket: "" (open or opening), "retrying", "refused"
let roomRefusals = 0;     // refusals in a row that may pass (a limit reached)
let lobby = false;        // pasang serve's page outside a room: Friend mode's room maker
const roomKey = (code) => `pasang-room-${code}`;
// The name this browser's player gives in rooms, kept for the next room.
const NAME_KEY = "pasang-player-name";

function keptName() {
  try { return (localStorage.getItem(NAME_KEY) || "").trim().slice(0, 40); } catch (_) { return ""; }
}

function roomServer() {
  return document.documentElement.dataset.rooms !== undefined;
}

function roomAddress() {
  return roomServer() && params.has("room") && (params.get("mode") || "").toLowerCase() === "friend";
}

// pasang serve's page outside a room (the printed address, ?mode=friend,
// or a mode that needs an engine it does not have): the room maker,
// shown at once, with no game to wait for.
function startLobby() {
  lobby = true;
  document.body.classList.add("friend", "lobby");
  $("friend").hidden = false;
  $("room-create").hidden = false;
  $("status").textContent = t("lobbyStatus");
  showError();
}

// What `create` says of the address's clock=M+S and side=: a raw `+`
// in an address reads as a space, so "3 2" is 3+2 too. Something else
// is refused, naming the parameter, and no room is made.
function roomCreateMessage() {
  const rules = Object.fromEntries(RULE_KEYS.filter((key) => params.has(key)).map((key) => [key, params.get(key)]));
  const side = (params.get("side") || "random").trim().toLowerCase();
  const message = { type: "create", rules, side };
  let good = true;
  if (!["south", "north", "random"].includes(side)) {
    addressErrors.push(() => t("addressBadSide", { value: params.get("side") }));
    good = false;
  }
  const text = (params.get("clock") || "").trim();
  const clock = text.match(/^(\d{1,4})(?:\+|\s+)(\d{1,4})$/);
  if (clock) {
    if (Number(clock[1]) > 0 || Number(clock[2]) > 0) message.clock = { minutes: Number(clock[1]), increment: Number(clock[2]) };
  } else if (text !== "" && text.toLowerCase() !== "none") {
    addressErrors.push(() => t("addressBadClock", { value: params.get("clock") }));
    good = false;
  }
  return good ? message : null;
}

// Creates the room (room=new: the address's rule keys, clock=M+S and
// side=south|north|random) or joins it with the seat's token if this
// browser has one.
function startRoom() {
  document.body.classList.add("friend", "room");
  $("room").hidden = false;
  const code = room && room.code ? room.code : params.get("room");
  if (code === "new") {
    const message = roomCreateMessage();
    if (!message) {
      // Said, and the room maker offered instead.
      document.body.classList.remove("room");
      $("room").hidden = true;
      startLobby();
      return;
    }
    send(message);
  } else {
    let token = null;
    try { token = localStorage.getItem(roomKey(code)); } catch (_) { /* no storage */ }
    send({ type: "join", room: code, token: token || undefined });
  }
  room = room || { code: null };
}

// The `room` message: the seat, who is here, the rematch offers. The
// first one gives the room's address to this page and to the invitation.
function onRoomMessage(message) {
  const first = !room || !room.code;
  const turned = !room || room.seat !== message.seat;
  room = { ...message, code: message.room };
  roomRetry = 0;
  roomRefusals = 0;
  roomLink = "";
  showConnection("", "");
  if (message.token) {
    try { localStorage.setItem(roomKey(room.code), message.token); } catch (_) { /* no storage */ }
  }
  const link = `${location.origin}${location.pathname}?mode=friend&room=${encodeURIComponent(room.code)}`;
  $("room-link").value = link;
  if (first) {
    try { history.replaceState(null, "", link); } catch (_) { /* a page from file: */ }
  }
  if (turned) {
    flipped = room.seat === "north";
    if (state) drawBoard();
  }
  // A player's kept name goes to the room once its seat is known.
  const index = { south: 0, north: 1 }[room.seat];
  if (index !== undefined && keptName() && (room.names || [])[index] !== keptName() && !roomNamed) {
    roomNamed = true;
    send({ type: "name", name: keptName() });
  }
  renderRoom();
}

function renderRoom() {
  if (!room || !room.code) return;
  $("seat").dataset.seat = room.seat;
  $("seat").textContent = t("seat_" + room.seat);
  const presence = room.presence;
  const other = room.seat === "north" ? "south" : "north";
  let note = "";
  if (!presence.south_taken || !presence.north_taken) note = t("roomWaiting");
  else if (room.seat !== "spectator" && !presence[other + "_here"] && state && !state.over) {
    note = t("roomAway", { side: t(other), grace: room.grace });
  }
  $("room-note").textContent = note;
  $("room-note").hidden = !note;
  const names = room.names || [];
  $("room-players").textContent = t("roomPlayers", { south: names[0] || t("nobody"), north: names[1] || t("nobody") });
  const player = room.seat !== "spectator";
  $("room-name-field").hidden = !player;
  if (player && document.activeElement !== $("room-name")) $("room-name").value = names[room.seat === "south" ? 0 : 1] || "";
  const over = Boolean(state && state.over);
  $("resign").hidden = !player || over || !presence.south_taken || !presence.north_taken;
  $("rematch").hidden = !player || !over;
  // The finished game's record, from the server's records, for a review
  // in pasang gui or any reader of the project's records.
  $("room-record").hidden = !over;
  if (over) {
    $("room-record").href = `/record?room=${encodeURIComponent(room.code)}&game=${room.game}`;
    $("room-record").download = `pasang-${room.code}-${room.game}.pgn`;
  }
  const mine = room.rematch[room.seat === "south" ? 0 : 1];
  const theirs = room.rematch[room.seat === "south" ? 1 : 0];
  $("rematch").textContent = mine ? t("rematchOffered") : theirs ? t("rematchAccept") : t("rematch");
  $("rematch").disabled = Boolean(mine);
}

// Each state in a room: the turn told (in the title, and by a
// notification when the tab is in the background), the room's panel.
function onRoomState() {
  const mine = room && room.seat === state.side && !state.over && state.legal.length > 0;
  if (mine) {
    document.title = `● ${t("yourTurn")}: ${document.title}`;
    if (roomTurn !== state.moves.length && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification("Pasang", { body: t("yourTurn") }); } catch (_) { /* not allowed here */ }
    }
    roomTurn = state.moves.length;
  }
  sendPending();
  renderRoom();
}

// A move in a room: sent with the ply it makes (so that it is never
// played twice), or, while the socket is down, kept and sent when it is
// back, and said either way.
function roomMove(move) {
  const ply = state ? state.moves.length + 1 : undefined;
  if (socket && socket.open && !roomLink) {
    send({ type: "move", move, ply });
    return;
  }
  roomPending = { move, ply };
  showConnection(roomLink || "retrying", t("roomPendingKept", { move }));
}

// The kept move, once the room's state is back: sent if the game is
// where it was made, else said to be not sent.
function sendPending() {
  if (!roomPending || !socket || !socket.open) return;
  const { move, ply } = roomPending;
  roomPending = null;
  if (state.moves.length + 1 === ply && state.legal.some((m) => m.move === move)) {
    send({ type: "move", move, ply });
  } else {
    showError.last = () => t("roomPendingDropped", { move });
    showError();
  }
}

// The room's connection in words (#connection, its data-state "retrying"
// or "refused"; hidden while the socket is fine).
function showConnection(kind, words) {
  const node = $("connection");
  node.dataset.state = kind;
  node.textContent = words;
  node.hidden = !words;
}

// The connection went, or was never let in. A browser hides the status of
// a refused upgrade, so the page asks the server's /ws-check why: a page
// of another origin is refused for good (said, not retried); a limit
// reached may pass (retried slowly, a few times); anything else (a
// sleeping phone, a changed network, a restarted server) is a plain
// reconnection, more slowly each try, with no reload needed.
function roomReconnect() {
  if (roomLink === "refused") return;
  const code = room && room.code ? room.code : roomAddress() && params.get("room") !== "new" ? params.get("room") : null;
  const retry = (kind, key, seconds, values = {}) => {
    roomLink = kind;
    const pending = roomPending ? ` ${t("roomPendingKept", { move: roomPending.move })}` : "";
    showConnection(kind, t(key, { seconds, ...values }) + pending);
    setTimeout(connect, seconds * 1000);
  };
  const plain = () => {
    roomRetry += 1;
    retry("retrying", "connRetrying", Math.min(10, Math.ceil(roomRetry / 2)));
  };
  const refuse = (words) => {
    roomLink = "refused";
    showConnection("refused", words);
    if (!state && !lobby) $("status").textContent = words;
  };
  fetch(`/ws-check${code ? `?room=${encodeURIComponent(code)}` : ""}`, { cache: "no-store" })
    .then((response) => {
      // The check itself over a limit: the server counts every socket.
      if (response.status === 429) return { admitted: false, why: "address" };
      if (response.status === 503) return { admitted: false, why: "busy" };
      return response.ok ? response.json() : null;
    })
    .then((check) => {
      if (!check) return plain();
      if (check.origin && check.origin !== location.origin) {
        return refuse(t("connOrigin", { server: check.origin, page: location.origin }));
      }
      if (code && check.room === false) return refuse(t("room_no_such_room"));
      if (!check.admitted) {
        roomRefusals += 1;
        if (roomRefusals > 8) return refuse(t("connGaveUp", { tries: roomRefusals - 1 }));
        return retry("retrying", check.why === "address" ? "connAddress" : "connBusy", 15);
      }
      return plain();
    })
    .catch(plain);
}

function setUpRoom() {
  $("create-room").onclick = () => {
    const query = new URLSearchParams({ mode: "friend", room: "new" });
    for (const key of RULE_KEYS) if ($(key).value) query.set(key, $(key).value);
    query.set("clock", $("room-clock").value);
    query.set("side", $("room-side").value);
    location.search = `?${query}`;
  };
  $("copy-room").onclick = () => {
    const text = $("room-link").value;
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject())
      .catch(() => { $("room-link").select(); document.execCommand("copy"); });
  };
  $("room-name").onchange = () => {
    const name = $("room-name").value.trim().slice(0, 40);
    try { localStorage.setItem(NAME_KEY, name); } catch (_) { /* no storage */ }
    send({ type: "name", name });
  };
  $("resign").onclick = () => send({ type: "resign" });
  $("rematch").onclick = () => send({ type: "rematch" });
  // The turn is told in the background only if the person allows it.
  $("board").addEventListener("click", () => {
    if (room && "Notification" in window && Notification.permission === "default") Notification.requestPermission().catch(() => {});
  }, { once: true });
}

// ---- the panel ----

function render() {
  $("status").textContent = statusText();
  $("score-south").textContent = state.scores[0];
  $("score-north").textContent = state.scores[1];
  $("phase").textContent = state.phase;
  $("thinking").hidden = !state.thinking;
  document.title = learn ? `Pasang: ${t("learn")}` : puzzle ? `Pasang: ${t("puzzles")}` : `Pasang: ${statusText()} (${modeTitle(state.mode)})`;
  document.querySelectorAll("#modes button").forEach((b) => b.classList.toggle("active", !learn && !puzzle && b.dataset.mode === state.mode));
  $("learn-link").classList.toggle("active", Boolean(learn));
  $("puzzle-link").classList.toggle("active", Boolean(puzzle));
  const friendly = state.mode === "friend";
  document.body.classList.toggle("friend", friendly);
  $("friend").hidden = !friendly || !friend;
  document.querySelectorAll("#settings [class]").forEach((node) => {
    node.hidden = !node.classList.contains("for-" + state.mode);
  });
  // A finished game has nothing to stop, and its engines' lines are old.
  if (state.over) {
    $("run").hidden = true;
    lines = {};
    watchLines = {};
  }
  $("run").textContent = state.running ? t("stop") : t("start");
  if (state.person) $("side").value = state.person;
  // A room's state has no engine part: its settings stay as they are.
  if (state.skill !== undefined) $("skill").value = state.skill;
  if (state.movetime !== undefined) $("movetime").value = String(state.movetime);
  if (state.multipv !== undefined) $("multipv").value = String(state.multipv);
  $("clock").value = state.clock ? `${state.clock.minutes}+${state.clock.increment}` : "0+0";
  $("save").textContent = state.mode === "review" && review && review.game ? t("saveAnnotated") : t("save");
  $("takeback").hidden = state.mode === "review";
  clockAt = performance.now();
  showClocks();
  for (const key of RULE_KEYS) $(key).value = state.rules[key];
  if (document.activeElement !== $("fen")) $("fen").value = state.position;
  renderHint();
  renderMoves();
  renderLines();
  renderReview();
  drawBoard();
}

function modeTitle(mode) {
  const key = { play: "titlePlay", analyse: "titleAnalyse", watch: "titleWatch", review: "titleReview", friend: "titleFriend" }[mode];
  return key ? t(key) : mode;
}

// What to do now, said in words under the board.
function renderHint() {
  let text = "";
  if (learn) {
    // The lesson says what to do.
  } else if (state.mode === "review") {
    text = t("hintReview");
  } else if (state.over && state.moves.length && state.cursor === state.moves.length) {
    // A room server has no engine to review with: the room offers a rematch.
    text = t(room ? "hintOverRoom" : "hintOver");
  } else if (canMove() && (state.mode !== "play" || state.side === state.person)) {
    const you = state.mode === "play" ? t("yourMove") : t("toMove", { side: t(state.side) });
    // Outside play the page speaks of the side to move, not to the person.
    const suffix = state.mode === "play" ? "" : "Other";
    const key = ["hintPassage", "hintEntry", "hintKa"][state.phase - 1];
    text = t(key + suffix, { who: you });
  }
  $("hint").textContent = text;
  $("hint").hidden = !text;
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  state.moves.forEach((move, i) => {
    const span = document.createElement("span");
    const mover = moverOf(i + 1);
    span.textContent = move;
    span.className = mover;
    span.dataset.ply = i + 1;
    const judged = state.mode === "review" ? reviewPly(i + 1) : null;
    if (judged && judged.mark) span.dataset.mark = judged.mark;
    if (judged) span.title = evalWords(judged.eval) + (judged.best ? `; ${t("better")} ${judged.best.move}` : "");
    // Numbered: South's moves, and the first if North made it.
    if (mover === "south" || i === 0) span.dataset.number = moveNumber(i + 1);
    if (i + 1 === state.cursor) span.classList.add("current");
    span.onclick = () => goto(i + 1);
    list.appendChild(span);
  });
  // The list scrolls to the current move; the page itself does not move
  // (on a phone the board would slide away).
  const current = list.querySelector(".current");
  if (current && (current.offsetTop < list.scrollTop || current.offsetTop + current.offsetHeight > list.scrollTop + list.clientHeight)) {
    list.scrollTop = current.offsetTop - list.clientHeight / 2;
  }
}

function speed(nps) {
  if (!nps) return "";
  if (nps >= 1e6) return ` ${(nps / 1e6).toFixed(1)} Mn/s`;
  if (nps >= 1e3) return ` ${Math.round(nps / 1e3)} kn/s`;
  return ` ${nps} n/s`;
}

function renderLines() {
  const list = $("lines");
  list.textContent = "";
  // In play the engine's thoughts stay hidden (its score shows in #eval).
  let shown = [];
  if (state && state.mode === "watch") shown = ["south", "north"].map((side) => watchLines[side]).filter(Boolean);
  if (state && state.mode === "analyse") shown = Object.keys(lines).sort((a, b) => a - b).map((k) => lines[k]);
  for (const info of shown) {
    const li = document.createElement("li");
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = info.score;
    li.appendChild(score);
    const depth = document.createElement("span");
    depth.className = "depth";
    depth.textContent = `d${info.depth}${speed(info.nps)}`;
    li.appendChild(depth);
    const who = state.mode === "watch" ? t(info.side) + ": " : "";
    li.appendChild(document.createTextNode(`${who}${info.pv.join(" ")}`));
    const facts = { score: info.score, depth: info.depth, nps: info.nps, pv: info.pv.join(" ") };
    li.title = t(info.nps ? "lineTitleSpeed" : "lineTitle", facts);
    list.appendChild(li);
  }
}

// The clocks count down here between states; the server keeps the time.
function showClocks() {
  const clock = state && state.clock;
  $("clocks").hidden = !clock;
  if (!clock) return;
  for (const side of ["south", "north"]) {
    const running = clock.running === side ? performance.now() - clockAt : 0;
    const seconds = Math.max(0, Math.ceil((clock[side] - running) / 1000));
    $("clock-" + side).textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    $("clock-box-" + side).classList.toggle("running", clock.running === side);
    $("you-" + side).hidden = state.person !== side;
  }
}

// An evaluation or lines of another position than the one on view are
// not shown: analysis lines belong to the ply they searched; in play the
// engine's last score stands until a take-back goes before it; a game
// over shows its result in the bar, not a score.
function forgetStaleEvaluation() {
  if (state.mode === "analyse" && Object.values(lines).some((info) => info.ply !== state.cursor)) lines = {};
  if (state.over) {
    evalPly = null;
    const winner = state.over.winner;
    showEval("", winner === "south" ? 100 : winner === "north" ? 0 : 50);
  } else if (evalPly !== null && (state.cursor < evalPly || (state.mode === "analyse" && state.cursor !== evalPly))) {
    evalPly = null;
    showEval("", 50);
  }
  renderLines();
}

// The evaluation in words and, in the bar, South's share (percent).
function showEval(text, southShare) {
  $("eval").textContent = text;
  $("evalfill").style.height = southShare.toFixed(1) + "%";
}

// ---- the review ----

// The judgement of ply `ply` (from 1), once analysed.
// Its fields are those of `pasang annotate --json` (docs/review.md).
function reviewPly(ply) {
  return review && review.game && review.game.plies[ply - 1] ? review.game.plies[ply - 1] : null;
}
// Where the game stands at `ply` (0: the start): evaluation text and
// South's winning chances.
// While the engine works, the positions searched so far (from the end).
function reviewStanding(ply) {
  if (!review) return null;
  if (!review.game) return review.partial && review.partial[ply] ? review.partial[ply] : null;
  const at = ply === 0 ? review.game.start : review.game.plies[ply - 1];
  return at ? { text: evalWords(at.eval), win: at.south_win_percent } : null;
}
const bestMove = (judged) => (judged && judged.best ? judged.best.move : null);

function renderReview() {
  const on = state.mode === "review";
  $("review").hidden = !on;
  if (!on) return;
  const progress = review && review.running;
  $("review-progress").hidden = !progress;
  if (review) {
    $("review-progress-bar").max = Math.max(1, review.total);
    $("review-progress-bar").value = review.done;
    $("review-progress-text").textContent = t("reviewProgress", { done: review.done, total: review.total });
  }
  // The bar shows South's winning chances at the ply on view.
  const standing = reviewStanding(state.cursor);
  if (standing) showEval(standing.text, standing.win);
  drawGraph();
  const players = review && review.players ? review.players : {};
  $("review-title").textContent = review
    ? `${players.south || "?"} (${t("south")}) – ${players.north || "?"} (${t("north")}), ${review.result || "*"}`
    : "";
  const judged = reviewPly(state.cursor);
  const text = $("review-move");
  if (!review) {
    text.textContent = state.moves.length ? "" : t("reviewNothing");
  } else if (!review.game) {
    text.textContent = t("reviewJudging");
  } else if (!state.cursor) {
    text.textContent = t("reviewStart", { eval: standing ? standing.text : "" });
  } else if (judged) {
    const move = state.moves[state.cursor - 1] + (judged.mark || "");
    let words = `${moveNumber(state.cursor)} ${move}: ${evalWords(judged.eval)}`;
    if (judged.best) {
      words += `; ${t("better")} ${judged.best.move} (${evalWords(judged.best.eval)})`;
      if (judged.best.line.length > 1) words += `: ${judged.best.line.join(" ")}`;
    }
    text.textContent = words;
  }
  const body = $("summary").querySelector("tbody");
  body.textContent = "";
  const summary = review && review.game ? review.game.summary : null;
  $("summary").hidden = !summary;
  if (summary) {
    for (const side of ["south", "north"]) {
      const s = summary[side];
      const row = document.createElement("tr");
      row.dataset.side = side;
      const name = (review.players && review.players[side]) || "";
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
  const plies = Math.max(1, state.moves.length);
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
  for (let ply = 0; ply <= state.moves.length; ply++) {
    const standing = reviewStanding(ply);
    if (standing) known.push([ply, standing.win]);
  }
  if (known.length) {
    const points = known.map(([ply, win]) => `${x(ply).toFixed(1)},${y(win).toFixed(1)}`);
    const last = known[known.length - 1][0];
    el("path", { class: "south-area", d: `M${x(known[0][0])},${height} L${points.join(" L")} L${x(last)},${height} Z` }, svg);
    el("polyline", { class: "curve", points: points.join(" ") }, svg);
  }
  el("line", { class: "midline", x1: 0, y1: y(50), x2: width, y2: y(50) }, svg);
  el("line", { class: "cursor", x1: x(state.cursor), y1: 0, x2: x(state.cursor), y2: height }, svg);
  // Every ply has its point; marked moves are larger dots of their colour.
  state.moves.forEach((_, i) => {
    const judged = reviewPly(i + 1);
    const standing = reviewStanding(i + 1);
    const win = standing ? standing.win : 50;
    const attrs = { cx: x(i + 1), cy: y(win), r: judged && judged.mark ? 4.5 : 1.5, "data-ply": i + 1 };
    if (judged && judged.mark) attrs["data-mark"] = judged.mark;
    const dot = el("circle", attrs, svg);
    if (judged) el("title", {}, dot).textContent = `${i + 1}. ${state.moves[i]}${judged.mark || ""} ${evalWords(judged.eval)}`;
  });
}

// The ply under a pointer on the graph.
function graphPly(event) {
  const { svg, width, plies, x } = graphGeometry();
  const box = svg.getBoundingClientRect();
  const at = ((event.clientX - box.left) * width) / Math.max(1, box.width);
  const ply = Math.round(((at - x(0)) * plies) / (x(plies) - x(0)));
  return Math.max(0, Math.min(state.moves.length, ply));
}

function onGraphPointer(event) {
  if (!state || state.mode !== "review") return;
  if (event.type === "pointerdown") {
    dragging = true;
    if ($("graph").setPointerCapture) $("graph").setPointerCapture(event.pointerId);
  }
  if (event.type === "pointerup" || event.type === "pointercancel") {
    dragging = false;
    return;
  }
  if (!dragging) return;
  goto(graphPly(event));
}

function renderPicker() {
  const box = $("picker-games");
  box.textContent = "";
  $("picker").hidden = !games || games.games.length < 2;
  if (!games) return;
  $("picker-count").textContent = games.games.length;
  for (const g of games.games) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.game = g.game;
    const names = `${g.south || "?"} – ${g.north || "?"}`;
    button.textContent = t(g.annotated ? "pickerAnnotated" : "pickerGame", { game: g.game, names, result: g.result, plies: g.plies });
    button.classList.toggle("active", g.game === games.chosen);
    button.onclick = () => send({ type: "pick", game: g.game });
    box.appendChild(button);
  }
}

// ---- words from the table for what the session sends ----

// The rule selects' values in the page's language (each option's value
// stays the protocol's).
function labelRuleValues() {
  for (const key of RULE_KEYS) {
    for (const option of $(key).options) {
      option.textContent = STRINGS.en[`ruleValue_${option.value}`] ? t(`ruleValue_${option.value}`) : option.value;
    }
  }
}

// A judgement of the review (`pasang annotate --json`'s eval) in words:
// a score stays a number; a proven result is said from the table.
function evalWords(e) {
  if (!e) return "";
  if (e.winner) return t("evalWin", { side: t(e.winner), moves: e.moves });
  if (e.draw) return t("evalDraw");
  if (e.result) return { "1-0": t("evalSouthWon"), "0-1": t("evalNorthWon"), "1/2-1/2": t("evalDrawn") }[e.result] || e.text;
  return e.text;
}

// `words()` as the page says them in the language `code`.
function inLanguage(code, words) {
  const kept = language;
  language = code;
  try { return words(); } finally { language = kept; }
}

// The strings key and values of a refusal's typed reason (the rules
// core's `reason` code and its fields).
const REASON_KEYS = { not_a_move: "notAMove", game_over: "gameOverNoMove" };
function reasonWords(message) {
  const key = REASON_KEYS[message.reason] || message.reason.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  const values = { ...message, move: message.text || message.move, file: message.file || message.south };
  return [key, values];
}

// A refusal or failure of the session in the page's words, by its kind;
// what the rules core or the engine said stays as its detail.
function refusalWords(message) {
  switch (message.kind) {
    case "illegal_move":
      if (message.reason) return t(...reasonWords(message));
      return state ? t(...explain(message.move)) : t("notAMove", { move: message.move });
    case "bad_field": return t("errorBadField", { field: message.field });
    case "bad_position": return t("errorBadPosition", { detail: message.message });
    case "game_over": return t("gameOverNoMove");
    case "no_such_ply": return t("errorNoSuchPly", { ply: message.ply });
    case "bad_record": return t("errorBadRecord", { detail: message.message });
    case "engines_turn": return t("enginesTurnWait");
    case "reviewing": return t("reviewNoMoves");
    case "malformed": return t("errorMalformed");
    case "engine": return t("errorEngine", { detail: message.message });
    case "review": return t("errorReview", { detail: message.message });
    default: return message.message;
  }
}

// ---- the connection ----

function send(message) {
  if (socket && socket.open) socket.send(JSON.stringify(message));
}

// The session behind the page: `pasang gui`'s, over its WebSocket, or, on
// the static site (data-transport="worker"), the same session compiled to
// WebAssembly in a Web Worker. Both take and give the same messages.
function openTransport() {
  const transport = { open: false, onopen: null, onmessage: null, onclose: null, onrestart: null };
  if (document.documentElement.dataset.transport === "worker") {
    // A worker that dies (a trap in the engine, the browser reclaiming it)
    // is replaced, and the page plays its game into the new one; one that
    // dies again at once is given up on, and the page says so.
    let restarts = [];
    const start = () => {
      const worker = new Worker("board-worker.mjs", { type: "module" });
      transport.send = (text) => worker.postMessage(text);
      worker.onmessage = (event) => transport.onmessage(event);
      worker.onerror = (event) => {
        if (event && event.preventDefault) event.preventDefault();
        worker.terminate();
        const now = Date.now();
        restarts = restarts.filter((when) => now - when < 10000);
        if (restarts.length >= 3) { transport.open = false; transport.onclose(); return; }
        restarts.push(now);
        start();
        transport.onrestart();
      };
    };
    start();
    // The worker keeps what is posted while it loads.
    transport.open = true;
    setTimeout(() => transport.onopen(), 0);
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});
    return transport;
  }
  // A room's socket names its room in its address, so that a reverse
  // proxy in front of several room servers can route it by the code.
  const code = room && room.code ? room.code : roomAddress() ? params.get("room") : null;
  const query = code && code !== "new" ? `?room=${encodeURIComponent(code)}` : "";
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${query}`);
  transport.url = ws.url; // for checks: the address it opened
  transport.send = (text) => ws.send(text);
  ws.onmessage = (event) => transport.onmessage(event);
  ws.onopen = () => { transport.open = true; transport.onopen(); };
  ws.onclose = () => { transport.open = false; transport.onclose(); };
  return transport;
}

function showError() {
  // Each is words, or a function that words it in the page's language.
  const text = [...addressErrors, ...(showError.notice ? [showError.notice] : []), ...(showError.last ? [showError.last] : [])]
    .map((words) => (typeof words === "function" ? words() : words)).join("\n");
  $("error").textContent = text;
  $("error").hidden = !text;
}

function onMessage(event) {
  const message = JSON.parse(event.data);
  switch (message.type) {
    case "hello":
      for (const rule of message.rules) {
        const select = $(rule.field);
        if (!select || select.options.length) continue;
        for (const value of rule.values) {
          const option = document.createElement("option");
          option.value = option.textContent = value;
          select.appendChild(option);
        }
        select.value = rule.default;
      }
      labelRuleValues();
      break;
    case "state":
      if (state && (state.position !== message.position || state.cursor !== message.cursor)) selected = null;
      if (!state && message.person === "north") flipped = true;
      // A review belongs to the moves it judged.
      if (state && state.moves.join(" ") !== message.moves.join(" ")) review = null;
      state = message;
      forgetStaleEvaluation();
      showError.last = null;
      showError();
      $("choice").hidden = true;
      if (friend) onFriendState();
      render();
      if (learn) onLearnState();
      if (puzzle) onPuzzleState();
      if (room) onRoomState();
      break;
    case "search":
      searchInfo = message;
      if (message.purpose === "analyse") lines = {};
      break;
    case "info":
      if (state && state.over) break;
      if (searchInfo && searchInfo.purpose === "move") watchLines[message.side] = message;
      else lines[message.multipv] = message;
      if (message.multipv === 1) {
        evalPly = message.ply;
        showEval(message.score, 100 / (1 + Math.exp(-message.south / 400)));
      }
      renderLines();
      drawBoard();
      break;
    case "room":
      onRoomMessage(message);
      break;
    case "review":
      review = message;
      if (state) render();
      break;
    case "games":
      games = message;
      renderPicker();
      break;
    case "record":
      download(message.text, message.annotated);
      break;
    case "error":
      // What was wrong with the address stays until the page is reloaded.
      if (message.tag) {
        // After a refused move of the address the rest are refused too.
        const moves = message.tag.startsWith("moves=");
        if (!(moves && addressMovesRefused)) {
          // Worded now: the explanation reads the position it was refused in.
          const why = {};
          for (const code of Object.keys(STRINGS)) why[code] = inLanguage(code, () => refusalWords(message));
          addressErrors.push(() => t("addressError", { tag: message.tag, why: why[language] || why.en }));
          addressMovesRefused = addressMovesRefused || moves;
        }
      } else if (learn && learn.phase === "right") {
        // The session refused the lesson's move (it should not): the step
        // waits again, and says what the session said.
        learn.phase = "task";
        learn.feedback = { kind: "wrong", say: () => refusalWords(message) };
        renderLesson();
      } else if (room && message.kind === "illegal_move" && message.reason) {
        showError.last = () => t(...reasonWords(message));
      } else if (room && message.kind && t("room_" + message.kind) !== "room_" + message.kind) {
        // A room server's refusal, worded from the table by its kind.
        showError.last = () => t("room_" + message.kind);
      } else {
        // Cleared by the next state: the position it was refused in stays.
        showError.last = () => refusalWords(message);
      }
      showError();
      break;
  }
}

function download(text, annotated) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = annotated ? "pasang-game-annotated.pgn" : "pasang-game.pgn";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function rules() {
  const r = {};
  for (const key of RULE_KEYS) r[key] = $(key).value;
  return r;
}

// The mode the address asks for; American spelling as the command line
// takes it. A wrong one is said, not ignored.
function addressMode() {
  if (!params.has("mode")) return null;
  const asked = params.get("mode");
  const mode = asked.toLowerCase() === "analyze" ? "analyse" : asked.toLowerCase();
  if (MODES.includes(mode) || mode === "learn" || mode === "puzzle") return mode;
  addressErrors.push(() => t("addressNoMode", { mode: asked }));
  showError();
  return null;
}

function connect() {
  socket = openTransport();
  socket.onmessage = onMessage;
  socket.onopen = () => {
    // A room of pasang serve: the server keeps the game.
    if (roomAddress()) {
      startRoom();
      return;
    }
    // Outside a room pasang serve has only the room maker (shown already).
    if (lobby) return;
    // The address may start a game: ?mode=play&side=north, ?mode=analyse&position=...
    // Each part carries a tag, so that the server's error says which.
    const settings = { type: "settings", tag: "" };
    for (const key of ["skill", "movetime", "multipv"]) {
      if (params.has(key)) {
        const text = params.get(key);
        const value = Number(text);
        if (text.trim() === "" || !Number.isInteger(value)) {
          addressErrors.push(() => t("addressNotNumber", { key, value: text }));
        } else {
          settings[key] = value;
          settings.tag += `${settings.tag ? "&" : ""}${key}=${text}`;
        }
      }
    }
    showError();
    send(settings);
    // Learn mode puts each step's position on the board itself.
    const mode = addressMode();
    if (mode === "learn") {
      startLearn();
      return;
    }
    // Puzzle mode too.
    if (mode === "puzzle") {
      startPuzzle();
      return;
    }
    // Friend mode: the game of a shared link, or the one kept here.
    if (mode === "friend") startFriend();
    // The rule options (the page's keys) and the position start a game.
    const given = RULE_KEYS.filter((key) => params.has(key));
    if (params.has("position") || given.length) {
      const rules = Object.fromEntries(given.map((key) => [key, params.get(key)]));
      const tag = [...given, ...(params.has("position") ? ["position"] : [])].map((key) => `${key}=${params.get(key)}`).join("&");
      send({ type: "new", rules, position: params.get("position") || undefined, tag });
    }
    // ?moves=c j b4c4n plays those moves first (from the position, if given).
    const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
    if (moves.length) {
      // Idle while they are played: no side is the engine's, no search runs.
      if (mode !== "friend") {
        send({ type: "mode", mode: "analyse" });
        send({ type: "run", on: false });
      }
      // Only the first refused move is said: the ones after it cannot follow.
      moves.forEach((move, i) => send({ type: "move", move, tag: `moves=${params.get("moves")} (move ${i + 1}, '${move}')` }));
    }
    const side = params.get("side");
    if (mode) {
      send({ type: "mode", mode, side: side || "south", tag: `mode=${params.get("mode")}${side ? "&side=" + side : ""}` });
      if (mode === "play" && side === "north") flipped = true;
    }
  };
  socket.onclose = () => {
    // The room maker needs its socket only for the rule options' values.
    if (roomAddress() || (lobby && !$(RULE_KEYS[0]).options.length)) {
      roomReconnect();
      return;
    }
    $("status").textContent = document.documentElement.dataset.transport === "worker" ? t("stoppedWorker") : t("disconnected");
  };
  // A new engine worker: the game so far, its rules, its settings and its
  // mode are played into it, and the page says what happened.
  socket.onrestart = () => {
    // Kept on the page: the player should know, whatever comes next.
    showError.notice = () => t("restartedWorker");
    showError();
    if (!state) { socket.onopen(); return; }
    send({ type: "settings", skill: state.skill, movetime: state.movetime, multipv: state.multipv });
    send({ type: "new", rules: state.rules, position: state.start });
    send({ type: "mode", mode: "analyse" });
    send({ type: "run", on: false });
    for (const move of state.moves) send({ type: "move", move });
    send({ type: "goto", ply: state.cursor });
    send({ type: "mode", mode: state.mode, side: state.person || "south" });
    // A lesson's board stays idle: no search runs in Learn mode.
    if (learn || puzzle) send({ type: "run", on: false });
    if (friend) sendNames();
  };
}

function openRecord() {
  const file = $("load").files[0];
  if (!file) return;
  if (file.size > MAX_RECORD_BYTES) {
    showError.last = () => t("tooLarge");
    showError();
    return;
  }
  games = null;
  renderPicker();
  file.text().then((text) => send({ type: "load", text, review: true }));
  $("load").value = "";
}

// The status in the page's language: the session's own words in English;
// in another language, made from the state's facts with the table's words.
function statusText() {
  // A friend game names the player to move.
  if (state.mode === "friend" && !state.over && playerName(state.side)) {
    return t("toMove", { side: `${t(state.side)} (${playerName(state.side)})` });
  }
  if (language === "en") return state.status;
  const points = t("points", { south: state.scores[0], north: state.scores[1] });
  if (!state.over) return t("toMove", { side: t(state.side) });
  const winner = state.over.winner;
  if (!winner) return t("draw", { points });
  const loser = winner === "south" ? "north" : "south";
  const key = { points: "winsOnPoints", suntuk: "winsSuntuk", time: "winsOnTime", resignation: "winsResign", abandonment: "winsAbandon" }[state.over.reason] || "winsOnPoints";
  return t(key, { winner: t(winner), loser: t(loser), points });
}

function setUp() {
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    $("language").appendChild(option);
  }
  $("language").value = language;
  $("language").onchange = () => {
    setLanguage($("language").value);
    $("moves").dataset.empty = t("noMoves");
    labelRuleValues();
    renderPicker();
    showError();
    if (state) { render(); renderReview(); }
    renderLesson();
    renderPuzzle();
    renderRoom();
    if (lobby) $("status").textContent = t("lobbyStatus");
  };
  applyLanguage();
  $("moves").dataset.empty = t("noMoves");
  for (let i = 0; i <= 20; i++) {
    const option = document.createElement("option");
    option.value = option.textContent = i;
    $("skill").appendChild(option);
  }
  $("skill").value = 5;
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("pointermove", onBoardHover);
  $("board").addEventListener("pointerleave", () => { if (litColumn !== null) { litColumn = null; drawBoard(); } });
  document.querySelectorAll("#modes button").forEach((b) => {
    b.onclick = () => {
      // From a lesson, another mode is another page; so is a friend game
      // (the one kept in this browser, or a new one).
      if (learn || room || lobby || (b.dataset.mode === "friend" && !friend)) location.search = `?mode=${b.dataset.mode}`;
      else send({ type: "mode", mode: b.dataset.mode, side: $("side").value });
    };
  });
  $("move-form").addEventListener("submit", onTypedMove);
  $("side").onchange = () => send({ type: "mode", mode: "play", side: $("side").value });
  for (const key of ["skill", "movetime", "multipv"]) {
    $(key).onchange = () => send({ type: "settings", [key]: Number($(key).value) });
  }
  $("clock").onchange = () => {
    const [minutes, increment] = $("clock").value.split("+").map(Number);
    send({ type: "settings", clock_minutes: minutes, clock_increment: increment });
  };
  setInterval(showClocks, 200);
  $("run").onclick = () => send({ type: "run", on: !state.running });
  $("first").onclick = () => goto(0);
  $("back").onclick = () => goto(state.cursor - 1);
  $("forward").onclick = () => goto(state.cursor + 1);
  $("last").onclick = () => goto(state.moves.length);
  $("takeback").onclick = () => send({ type: "takeback" });
  $("flip").onclick = () => { flipped = !flipped; drawBoard(); };
  $("new").onclick = () => { if (friend) friend.position = null; lines = {}; watchLines = {}; games = null; renderPicker(); send({ type: "new", rules: rules() }); };
  $("setup").onclick = () => { if (friend) friend.position = $("fen").value.trim() || null; lines = {}; send({ type: "new", rules: rules(), position: $("fen").value }); };
  $("copy").onclick = () => {
    const text = state ? state.position : "";
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject())
      .catch(() => { $("fen").value = text; $("fen").select(); document.execCommand("copy"); });
  };
  $("save").onclick = () => send({ type: "save" });
  $("share").onclick = share;
  for (const side of ["south", "north"]) {
    $(`${side}-name`).onchange = () => {
      if (!friend) return;
      friend.names[side] = $(`${side}-name`).value.trim().slice(0, 40);
      sendNames();
      if (state) { onFriendState(); render(); }
    };
  }
  $("turn-board").onchange = () => {
    if (!friend) return;
    friend.turn = $("turn-board").checked;
    if (state) { onFriendState(); drawBoard(); }
  };
  $("load").onchange = openRecord;
  for (const kind of ["pointerdown", "pointermove", "pointerup", "pointercancel"]) {
    $("graph").addEventListener(kind, onGraphPointer);
  }
  window.addEventListener("resize", () => { if (state && state.mode === "review") drawGraph(); });
  $("choice-cancel").onclick = () => { $("choice").hidden = true; showCaptures([]); };
  document.addEventListener("keydown", (event) => {
    if (!state || learn || event.target.closest("input, select, textarea")) return;
    const to = { ArrowLeft: state.cursor - 1, ArrowRight: state.cursor + 1, Home: 0, End: state.moves.length }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      goto(to);
    }
  });
  setUpRoom();
  drawBoard();
  // pasang serve outside a room: the room maker at once (no engine's
  // modes; Learn and Puzzles keep their own pages).
  if (roomServer() && !roomAddress()) {
    const asked = (params.get("mode") || "").toLowerCase();
    if (asked !== "learn" && asked !== "puzzle") {
      if (asked && asked !== "friend") addressErrors.push(() => t("roomsNoEngine", { mode: params.get("mode") }));
      startLobby();
    }
  }
  connect();
}

function goto(ply) {
  // A room's game is the server's: it is shown at its last move.
  if (room) return;
  if (state && ply >= 0 && ply <= state.moves.length && ply !== state.cursor) send({ type: "goto", ply });
}

setUp();
