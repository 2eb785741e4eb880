// @ts-check
// The board page: draws what its server sends and sends back what the
// person does. `pasang gui`'s server (or the static site's Web Worker)
// runs a session that knows the rules and drives the engine; `pasang
// serve` runs rooms. This module starts the page: it reads the address,
// opens the connection, and hands each message to the mode in charge.
//
// A mode is an object of hooks (every mode module exports one):
//   name                 its name
//   start()              sets it up (page modes: learn, puzzle, room, lobby, friend)
//   canMove()            whether a move may be made now (the game going on)
//   submit(move)         what a legal move chosen on the board does
//   unlisted(text)       a typed move the board does not list; true clears the input
//   deadClick(name)      a click on a point that takes none (optional)
//   decorate(svg)        its own marks on the board (optional; else the analysis arrows)
//   onState()            after each state is drawn (optional)
//   onRoom(message)      a room message (rooms only)
//   onError(message)     a refusal; true once said (optional)
//   onClose(connect)     the connection went (optional; else the page says so)
//   onRestart()          a new engine worker took the game (optional)
//   render()             its part of the panel (optional)
//   hint(), title()      what to do now, the tab's title (optional)
//   playerName(side)     a player's name, if known (optional)
//   keys, browse         whether the arrow keys and the move list move the view
import { MODES, app, ruleKeys } from "./app-state.js";
import { drawBoard, onBoardClick, onBoardHover, onTypedMove, showCaptures } from "./board.js";
import { $, params, roomAddress, roomServer, workerTransport } from "./dom.js";
import { friendMode, setUpFriend } from "./mode-friend.js";
import { learnMode } from "./mode-learn.js";
import { puzzleMode } from "./mode-puzzle.js";
import { reviewMode, setUpReview } from "./mode-review.js";
import { lobbyMode, roomMode, setUpRoom } from "./mode-room.js";
import { analyseMode, playMode, watchMode } from "./mode-session.js";
import { forgetStaleEvaluation, goto, labelRuleValues, render, renderLines, sayError, setUpResign, showClocks, showError, showEval } from "./panel.js";
import { download, renderPicker, setUpRecords } from "./records.js";
import { copyText } from "./sharing.js";
import { setUpSound, soundFor } from "./sound.js";
import { loadJson, loadText, saveJson, saveText } from "./storage.js";
import { LANGUAGES, STRINGS, applyLanguage, currentLanguage, inLanguage, setLanguage, t } from "./strings.js";
import { openTransport, send } from "./transport.js";
import { refusalWords } from "./words.js";

app.sessionModes = { play: playMode, analyse: analyseMode, watch: watchMode, review: reviewMode, friend: friendMode };

/** @typedef {import("./wire-types.js").ServerMessage} ServerMessage */

/** A message of the server (or the worker), handed to its reader by its type. */
function onMessage(/** @type {MessageEvent} */ event) {
  /** @type {ServerMessage} */
  const message = JSON.parse(event.data);
  switch (message.type) {
    case "hello":
      // The rule options the page offers are the engine's, as its hello says.
      app.ruleOptions = message.rules;
      for (const rule of message.rules) {
        const select = /** @type {HTMLSelectElement | null} */ (/** @type {unknown} */ ($(rule.field)));
        if (!select || select.options.length) continue;
        for (const value of rule.values) {
          const option = document.createElement("option");
          option.value = option.textContent = value;
          select.appendChild(option);
        }
        select.value = rule.default;
      }
      labelRuleValues();
      heardHello();
      break;
    case "state":
      if (app.state && (app.state.position !== message.position || app.state.cursor !== message.cursor)) app.selected = null;
      if (!app.state && message.person === "north") app.flipped = true;
      // A review belongs to the moves it judged.
      if (app.state && app.state.moves.join(" ") !== message.moves.join(" ")) app.review = null;
      soundFor(app.state, message);
      app.state = message;
      keepLastGame();
      forgetStaleEvaluation();
      restoreEvaluation();
      if (message.mode === "play" && !app.friend && !app.page) sendPlayerName();
      app.lastError = null;
      showError();
      $("choice").hidden = true;
      render();
      if (app.mode.onState) app.mode.onState();
      break;
    case "search":
      app.searchInfo = message;
      if (message.purpose === "analyse") app.lines = {};
      break;
    case "info":
      if (app.state && app.state.over) break;
      if (app.searchInfo && app.searchInfo.purpose === "move") app.watchLines[message.side] = message;
      else app.lines[message.multipv] = message;
      if (message.multipv === 1) {
        app.evalPly = message.ply;
        showEval(message.score, 100 / (1 + Math.exp(-message.south / 400)));
      }
      renderLines();
      drawBoard();
      break;
    case "room":
      if (app.mode.onRoom) app.mode.onRoom(message);
      break;
    case "review":
      app.review = message;
      if (app.state) render();
      break;
    case "games":
      app.games = message;
      renderPicker();
      break;
    case "record":
      download(message.text, message.annotated);
      break;
    case "error":
      onError(message);
      break;
  }
}

// A refusal: what was wrong with the address stays until the page is
// reloaded; the mode in charge says its own; any other is said until the
// next state (the position it was refused in stays).
function onError(/** @type {import("./wire-types.js").ErrorMessage} */ message) {
  if (message.tag) {
    // After a refused move of the address the rest are refused too.
    const moves = message.tag.startsWith("moves:");
    // A move's tag is worded in the page's language, the others are the address's own words.
    const where = app.tagWords[message.tag] || (() => message.tag);
    if (!(moves && app.addressMovesRefused)) {
      // Worded now, in every language: the words read the position it was refused in.
      const why = {};
      for (const code of Object.keys(STRINGS)) why[code] = inLanguage(code, () => refusalWords(message));
      app.addressErrors.push(() => t("addressError", { tag: where(), why: why[currentLanguage()] || why.en }));
      app.addressMovesRefused = app.addressMovesRefused || moves;
    }
    showError();
  } else if (!(app.mode.onError && app.mode.onError(message))) {
    sayError(() => refusalWords(message));
  }
}

// The last game in play or with a friend is kept, so that the bare
// address reopens it (a friend game keeps its own, with its names).
const LAST_GAME_KEY = "pasang-last-game";

function keepLastGame() {
  const state = app.state;
  // The session's first state, behind the welcome, is no game of the person's.
  if (app.page || !["play", "friend"].includes(state.mode) || document.body.classList.contains("welcoming")) return;
  saveJson(LAST_GAME_KEY, state.mode === "friend"
    ? { mode: "friend" }
    : { mode: "play", side: state.person, rules: state.rules, position: state.start, moves: state.moves, eval: keptEvaluation() });
}

// The engine's last evaluation in play, kept with the game: a reload
// replays the moves, and the engine (waiting for the person) would not
// say it again.
function keptEvaluation() {
  if (app.evalPly === null || !app.evalShown || !app.evalShown.text) return app.restoreEval || null;
  return { ply: app.evalPly, plies: app.state.moves.length, text: app.evalShown.text, share: app.evalShown.share };
}

// The kept evaluation, shown once the reopened game is back at its end.
function restoreEvaluation() {
  const kept = app.restoreEval;
  const state = app.state;
  if (!kept || state.mode !== "play") return;
  if (state.moves.length !== kept.plies || state.cursor !== kept.plies) return;
  app.restoreEval = null;
  if (app.evalPly === null) {
    app.evalPly = kept.ply;
    showEval(String(kept.text), Number(kept.share) || 50);
  }
}

// Play's name field: the person's name for the record, kept in this
// browser; none is "Anonymous" in the page's language. Sent when it
// changes (the session keeps the last names it was given).
const PLAYER_NAME_KEY = "pasang-player-name";

function sendPlayerName() {
  const name = $("player-name").value.trim() || t("anonymous");
  if (app.sentName === name) return;
  app.sentName = name;
  send({ type: "names", south: name, north: name });
}

// The bare address: the last game kept here, reopened with its moves, or
// on a first visit the ways in (#welcome).
function startBare() {
  const last = loadJson(LAST_GAME_KEY, null);
  if (!last) {
    $("welcome").hidden = false;
    document.body.classList.add("welcoming");
    // The session waits behind the welcome, idle.
    if (!roomServer()) send({ type: "mode", mode: "analyse" });
    send({ type: "run", on: false });
    return;
  }
  if (last.mode === "friend" || roomServer()) {
    friendMode.start();
    return;
  }
  if (last.eval && typeof last.eval === "object") app.restoreEval = last.eval;
  send({ type: "new", rules: last.rules || {}, position: last.position || undefined });
  send({ type: "mode", mode: "analyse" });
  send({ type: "run", on: false });
  for (const move of Array.isArray(last.moves) ? last.moves : []) send({ type: "move", move: String(move) });
  const side = last.side === "north" ? "north" : "south";
  send({ type: "mode", mode: "play", side });
  app.flipped = side === "north";
}

// The mode the address asks for; American spelling as the command line
// takes it. A wrong one is said, not ignored.
function addressMode() {
  if (!params.has("mode")) return null;
  const asked = params.get("mode");
  const mode = asked.toLowerCase() === "analyze" ? "analyse" : asked.toLowerCase();
  if (MODES.includes(mode) || mode === "learn" || mode === "puzzle") return mode;
  app.addressErrors.push(() => t("addressNoMode", { mode: asked }));
  showError();
  return null;
}

// The address may start a game: ?mode=play&side=north, ?mode=analyse&position=...
// Each part carries a tag, so that the server's error says which.
function startFromAddress() {
  const settings = { type: "settings", tag: "" };
  for (const key of ["skill", "movetime", "multipv"]) {
    if (params.has(key)) {
      const text = params.get(key);
      const value = Number(text);
      if (text.trim() === "" || !Number.isInteger(value)) {
        app.addressErrors.push(() => t("addressNotNumber", { key, value: text }));
      } else {
        settings[key] = value;
        settings.tag += `${settings.tag ? "&" : ""}${key}=${text}`;
      }
    }
  }
  showError();
  send(settings);
  // lang= alone (the page's language) still leaves the address bare.
  if ([...params.keys()].every((key) => key === "lang")) {
    startBare();
    return;
  }
  let mode = addressMode();
  // A room server has no engine: its page is a friend game on this device
  // beside the room maker, unless the address asks for Learn or Puzzles.
  if (roomServer() && mode !== "learn" && mode !== "puzzle") {
    if (mode && mode !== "friend") app.addressErrors.push(() => t("roomsNoEngine", { mode: params.get("mode") }));
    showError();
    mode = "friend";
  }
  // Learn and Puzzle modes put each position on the board themselves.
  if (mode === "learn" || mode === "puzzle") {
    app.page = mode === "learn" ? learnMode : puzzleMode;
    app.page.start();
    return;
  }
  // Friend mode: the game of a shared link, or the one kept here.
  if (mode === "friend") friendMode.start();
  // The rule options (the page's keys) and the position start a game.
  const given = ruleKeys(app.ruleOptions).filter((key) => params.has(key));
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
    moves.forEach((move, i) => {
      const tag = `moves:${i + 1}`;
      app.tagWords[tag] = () => t("addressMoveTag", { moves: params.get("moves"), n: i + 1, move });
      send({ type: "move", move, tag });
    });
  }
  const side = params.get("side");
  if (mode) {
    send({ type: "mode", mode, side: side || "south", tag: `mode=${params.get("mode")}${side ? "&side=" + side : ""}` });
    if (mode === "play" && side === "north") app.flipped = true;
  }
}

// The rules box's choices, by the page's fields.
function chosenRules() {
  return Object.fromEntries(ruleKeys(app.ruleOptions).map((key) => [key, $(key).value]));
}

// The first hello: the page knows the rule options, and may start what
// the address asks (which reads them).
/** @type {() => void} */
let heardHello;
const helloHeard = new Promise((resolve) => { heardHello = () => resolve(undefined); });

// The socket to open: a room's names its room in its address, so that a
// reverse proxy in front of several room servers can route it by the
// code; elsewhere a room server gives a session with the rules only.
function socketPath() {
  if (app.page === roomMode || app.page === lobbyMode) {
    const room = app.room && app.room.code ? app.room.code : params.get("room");
    return room && room !== "new" ? `/ws?room=${encodeURIComponent(room)}` : "/ws";
  }
  return roomServer() ? "/session" : "/ws";
}

/** Opens the connection (again, after a room's socket went). */
function connect() {
  app.socket = openTransport(socketPath());
  app.socket.onmessage = onMessage;
  app.socket.onopen = () => helloHeard.then(() => {
    if (app.page === roomMode) roomMode.start();
    // Outside a room pasang serve has only the room maker (shown already).
    else if (app.page !== lobbyMode) startFromAddress();
  });
  app.socket.onclose = () => {
    if (app.mode.onClose) app.mode.onClose(connect);
    else $("status").textContent = workerTransport() ? t("stoppedWorker") : t("disconnected");
  };
  // A new engine worker: the game so far, its rules, its settings and its
  // mode are played into it, and the page says what happened.
  app.socket.onrestart = () => {
    // Kept on the page: the player should know, whatever comes next.
    app.notice = () => t("restartedWorker");
    app.sentName = null;
    showError();
    const state = app.state;
    if (!state) { app.socket.onopen(); return; }
    send({ type: "settings", skill: state.skill, movetime: state.movetime, multipv: state.multipv });
    send({ type: "new", rules: state.rules, position: state.start });
    send({ type: "mode", mode: "analyse" });
    send({ type: "run", on: false });
    for (const move of state.moves) send({ type: "move", move });
    send({ type: "goto", ply: state.cursor });
    send({ type: "mode", mode: state.mode, side: state.person || "south" });
    for (const mode of new Set([app.page, friendMode])) if (mode && mode.onRestart) mode.onRestart();
  };
}

// The language switch: the page's words, and every part drawn in words.
function setUpLanguage() {
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    $("language").appendChild(option);
  }
  $("language").value = currentLanguage();
  $("language").onchange = () => {
    setLanguage($("language").value);
    $("moves").dataset.empty = t("noMoves");
    labelRuleValues();
    renderPicker();
    showError();
    // "Anonymous" in the new language.
    if (app.state && app.state.mode === "play" && !app.friend && !app.page) sendPlayerName();
    if (app.state) render();
    else if (app.mode.render) app.mode.render();
  };
  applyLanguage();
  $("moves").dataset.empty = t("noMoves");
}

// The session's controls: modes, settings, navigation, a new game.
function setUpControls() {
  for (let i = 0; i <= 20; i++) {
    const option = document.createElement("option");
    option.value = option.textContent = String(i);
    $("skill").appendChild(option);
  }
  $("skill").value = "5";
  document.querySelectorAll("#modes button").forEach((/** @type {HTMLButtonElement} */ b) => {
    b.onclick = () => {
      // From a page's own mode, another mode is another page; so is a
      // friend game (the one kept in this browser, or a new one).
      if (app.page || (b.dataset.mode === "friend" && !app.friend)) location.search = `?mode=${b.dataset.mode}`;
      else send({ type: "mode", mode: b.dataset.mode, side: $("side").value });
    };
  });
  $("side").onchange = () => send({ type: "mode", mode: "play", side: $("side").value });
  for (const key of ["skill", "movetime", "multipv"]) {
    $(key).onchange = () => send({ type: "settings", [key]: Number($(key).value) });
  }
  $("clock").onchange = () => {
    const [minutes, increment] = $("clock").value.split("+").map(Number);
    send({ type: "settings", clock_minutes: minutes, clock_increment: increment });
  };
  $("player-name").value = loadText(PLAYER_NAME_KEY) || "";
  $("player-name").onchange = () => {
    saveText(PLAYER_NAME_KEY, $("player-name").value.trim());
    if (app.state && app.state.mode === "play" && !app.friend && !app.page) sendPlayerName();
  };
  setInterval(showClocks, 200);
  $("run").onclick = () => send({ type: "run", on: !app.state.running });
  $("first").onclick = () => goto(0);
  $("back").onclick = () => goto(app.state.cursor - 1);
  $("forward").onclick = () => goto(app.state.cursor + 1);
  $("last").onclick = () => goto(app.state.moves.length);
  $("takeback").onclick = () => send({ type: "takeback" });
  $("flip").onclick = () => { app.flipped = !app.flipped; drawBoard(); };
  const fresh = () => { app.lines = {}; app.watchLines = {}; };
  $("new").onclick = () => {
    if (app.friend) app.friend.position = null;
    fresh();
    app.games = null;
    renderPicker();
    send({ type: "new", rules: chosenRules() });
  };
  // New game under the board: the rules box's New game, within reach.
  $("new-game").onclick = () => $("new").click();
  $("setup").onclick = () => {
    if (app.friend) app.friend.position = $("fen").value.trim() || null;
    fresh();
    send({ type: "new", rules: chosenRules(), position: $("fen").value });
  };
  $("copy").onclick = () => copyText(app.state ? app.state.position : "", $("fen"));
  document.addEventListener("keydown", (event) => {
    if (!app.state || app.mode.keys === false || /** @type {Element} */ (event.target).closest("input, select, textarea")) return;
    const to = { ArrowLeft: app.state.cursor - 1, ArrowRight: app.state.cursor + 1, Home: 0, End: app.state.moves.length }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      goto(to);
    }
  });
}

function setUp() {
  setUpLanguage();
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("pointermove", onBoardHover);
  $("board").addEventListener("pointerleave", () => { if (app.litColumn !== null) { app.litColumn = null; drawBoard(); } });
  $("move-form").addEventListener("submit", onTypedMove);
  $("choice-cancel").onclick = () => { $("choice").hidden = true; showCaptures([]); };
  setUpControls();
  setUpResign();
  setUpSound();
  setUpRecords();
  setUpReview();
  setUpFriend();
  setUpRoom();
  drawBoard();
  if (roomAddress()) app.page = roomMode;
  connect();
}

setUp();
