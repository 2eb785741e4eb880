// pasang gui: draws what the server sends and sends back what the person
// does. The server knows the rules and drives the engine; this page only
// matches clicks against the legal moves it was sent.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijk";
const CELL = 60;
const MARGIN = 40;
const MAX_RECORD_BYTES = 1 << 20;

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

let socket = null;
let state = null;         // the last "state" message
let flipped = false;      // North at the bottom
let selected = null;      // the origin point chosen in phases 2 and 3
let lines = {};           // the current search's lines by multipv
let searchInfo = null;    // the last "search" message
let watchLines = {};      // watch mode: the last line of each side
let clockAt = 0;          // when the last state's clock readings were taken

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
  drawLastMove(svg);
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
    if (marks.legal.has(name) || name === selected) el("circle", { class: "mark", cx: x, cy: y, r: c === "." ? 10 : 28 }, g);
  }
  drawArrows(svg);
}

function drawLastMove(svg) {
  const last = state.last;
  if (!last) return;
  if (last.file !== undefined) {
    const mover = state.side === "south" ? "north" : "south";
    stretch(last.file, mover, { class: "file-path" }, svg);
  } else {
    const [x1, y1] = centre(last.from), [x2, y2] = centre(last.to);
    el("line", { class: "path", x1, y1, x2, y2 }, svg);
  }
  for (const name of last.captures) {
    const [x, y] = centre(name);
    el("circle", { class: "captured", cx: x, cy: y, r: 12 }, svg);
  }
}

// The best line of the analysis as numbered arrows (first three moves).
function drawArrows(svg) {
  const best = lines[1];
  if (!state || state.mode !== "analyse" || !best || best.ply !== state.cursor) return;
  let mover = state.side;
  best.pv.slice(0, 3).forEach((move, n) => {
    let label;
    if (/^[a-k]$/.test(move)) {
      const rect = stretch(FILES.indexOf(move), mover, { class: "arrow-file" }, svg);
      label = [parseFloat(rect.getAttribute("x")) + CELL / 2 - 3, parseFloat(rect.getAttribute("y")) + 12];
    } else {
      const m = move.match(/^([a-k]\d+)([a-k]\d+)/);
      if (!m) return;
      const [x1, y1] = centre(m[1]), [x2, y2] = centre(m[2]);
      el("line", { class: "arrow", x1, y1, x2, y2, "marker-end": "url(#arrowhead)" }, svg);
      label = [(x1 + x2) / 2, (y1 + y2) / 2];
    }
    el("circle", { cx: label[0], cy: label[1], r: 10, fill: "#bfe8c9" }, svg);
    el("text", { class: "arrow-number", x: label[0], y: label[1] }, svg).textContent = n + 1;
    mover = mover === "south" ? "north" : "south";
  });
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrowhead", markerWidth: 4, markerHeight: 4, refX: 2.5, refY: 2, orient: "auto" }, defs);
  el("path", { d: "M0,0 L4,2 L0,4 z", fill: "#2a9d4a" }, marker);
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
  const atEnd = state.cursor === state.moves.length;
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
    play(moves[0].move);
  } else {
    chooseLine(moves);
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
    button.textContent = `${m.move}: takes ${m.captures.join(" ")} (${m.points} point${m.points === 1 ? "" : "s"})`;
    button.onclick = () => { $("choice").hidden = true; play(m.move); };
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
  send({ type: "move", move });
}

// ---- the panel ----

function render() {
  $("status").textContent = state.status;
  $("score-south").textContent = state.scores[0];
  $("score-north").textContent = state.scores[1];
  $("phase").textContent = state.phase;
  $("thinking").hidden = !state.thinking;
  document.querySelectorAll("#modes button").forEach((b) => b.classList.toggle("active", b.dataset.mode === state.mode));
  document.querySelectorAll("#settings [class]").forEach((node) => {
    node.hidden = !node.classList.contains("for-" + state.mode);
  });
  $("run").textContent = state.running ? "Stop" : "Start";
  if (state.person) $("side").value = state.person;
  $("skill").value = state.skill;
  $("movetime").value = String(state.movetime);
  $("multipv").value = String(state.multipv);
  $("clock").value = state.clock ? `${state.clock.minutes}+${state.clock.increment}` : "0+0";
  clockAt = performance.now();
  showClocks();
  for (const key of ["pattern", "ka_entry", "second_column", "centre"]) $(key).value = state.rules[key];
  if (document.activeElement !== $("fen")) $("fen").value = state.position;
  renderMoves();
  renderLines();
  drawBoard();
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  const northFirst = state.start.split(" ")[1] === "n";
  state.moves.forEach((move, i) => {
    const span = document.createElement("span");
    const ply = i + (northFirst ? 1 : 0);
    span.textContent = move;
    span.className = ply % 2 === 0 ? "south" : "north";
    if (ply % 2 === 0) span.dataset.number = (ply / 2 + 1) + ".";
    else if (i === 0) span.dataset.number = ((ply - 1) / 2 + 1) + "...";
    if (i + 1 === state.cursor) span.classList.add("current");
    span.onclick = () => send({ type: "goto", ply: i + 1 });
    list.appendChild(span);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
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
    const who = state.mode === "watch" ? info.side + ": " : "";
    li.appendChild(document.createTextNode(`${who}${info.pv.join(" ")}`));
    li.title = `depth ${info.depth}`;
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
  }
}

function showEval(info) {
  $("eval").textContent = info.score;
  const share = 100 / (1 + Math.exp(-info.south / 400));
  $("evalfill").style.height = share.toFixed(1) + "%";
}

// ---- the connection ----

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function onMessage(event) {
  const message = JSON.parse(event.data);
  switch (message.type) {
    case "hello":
      document.title = "pasang: " + message.engine;
      break;
    case "state":
      if (state && (state.position !== message.position || state.cursor !== message.cursor)) selected = null;
      if (!state && message.person === "north") flipped = true;
      state = message;
      $("error").hidden = true;
      $("choice").hidden = true;
      render();
      break;
    case "search":
      searchInfo = message;
      if (message.purpose === "analyse") lines = {};
      break;
    case "info":
      if (searchInfo && searchInfo.purpose === "move") watchLines[message.side] = message;
      else lines[message.multipv] = message;
      if (message.multipv === 1) showEval(message);
      renderLines();
      drawBoard();
      break;
    case "record":
      download(message.text);
      break;
    case "error":
      $("error").textContent = message.message;
      $("error").hidden = false;
      break;
  }
}

function download(text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = "pasang-game.pgn";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function rules() {
  const r = {};
  for (const key of ["pattern", "ka_entry", "second_column", "centre"]) r[key] = $(key).value;
  return r;
}

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws`);
  socket.onmessage = onMessage;
  socket.onopen = () => {
    // The address may start a game: ?mode=play&side=north, ?mode=analyse&position=...
    const settings = { type: "settings" };
    for (const key of ["skill", "movetime", "multipv"]) {
      if (params.has(key)) settings[key] = Number(params.get(key));
    }
    send(settings);
    if (params.has("position")) send({ type: "new", position: params.get("position") });
    // ?moves=c j b4c4n plays those moves first (from the position, if given).
    const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
    if (moves.length) {
      // Idle while they are played: no side is the engine's, no search runs.
      send({ type: "mode", mode: "analyse" });
      send({ type: "run", on: false });
      for (const move of moves) send({ type: "move", move });
    }
    const mode = params.get("mode");
    if (mode === "play" || mode === "analyse" || mode === "watch") {
      send({ type: "mode", mode, side: params.get("side") || "south" });
      if (mode === "play" && params.get("side") === "north") flipped = true;
    }
  };
  socket.onclose = () => {
    $("status").textContent = "Disconnected from the server: reload the page to start again.";
  };
}

function setUp() {
  for (let i = 0; i <= 20; i++) {
    const option = document.createElement("option");
    option.value = option.textContent = i;
    $("skill").appendChild(option);
  }
  $("skill").value = 20;
  $("board").addEventListener("click", onBoardClick);
  document.querySelectorAll("#modes button").forEach((b) => {
    b.onclick = () => send({ type: "mode", mode: b.dataset.mode, side: $("side").value });
  });
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
  $("new").onclick = () => { lines = {}; watchLines = {}; send({ type: "new", rules: rules() }); };
  $("setup").onclick = () => { lines = {}; send({ type: "new", rules: rules(), position: $("fen").value }); };
  $("copy").onclick = () => {
    const text = state ? state.position : "";
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject())
      .catch(() => { $("fen").value = text; $("fen").select(); document.execCommand("copy"); });
  };
  $("save").onclick = () => send({ type: "save" });
  $("load").onchange = () => {
    const file = $("load").files[0];
    if (!file) return;
    if (file.size > MAX_RECORD_BYTES) {
      $("error").textContent = "That file is too large for a game record.";
      $("error").hidden = false;
      return;
    }
    file.text().then((text) => send({ type: "load", text }));
    $("load").value = "";
  };
  $("choice-cancel").onclick = () => { $("choice").hidden = true; showCaptures([]); };
  document.addEventListener("keydown", (event) => {
    if (!state || event.target.closest("input, select, textarea")) return;
    const to = { ArrowLeft: state.cursor - 1, ArrowRight: state.cursor + 1, Home: 0, End: state.moves.length }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      goto(to);
    }
  });
  drawBoard();
  connect();
}

function goto(ply) {
  if (state && ply >= 0 && ply <= state.moves.length && ply !== state.cursor) send({ type: "goto", ply });
}

setUp();
