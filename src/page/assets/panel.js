// @ts-check
// The panel beside the board: the status, scores and clocks, the hint,
// the move list, the engine's lines and evaluation, and the controls each
// mode shows; the mode in charge draws its own part (app.mode.render).
import { app, ruleKeys } from "./app-state.js";
import { canMove, drawBoard } from "./board.js";
import { $ } from "./dom.js";
import { moveNumber, moverOf } from "./geometry.js";
import { evalWords } from "./judgement.js";
import { currentLanguage, t } from "./strings.js";
import { send } from "./transport.js";
import { clockText, ruleValueWords } from "./words.js";

/** Draws the page from the last state. */
export function render() {
  $("status").textContent = statusText();
  $("score-south").textContent = String(app.state.scores[0]);
  $("score-north").textContent = String(app.state.scores[1]);
  $("phase").textContent = String(app.state.phase);
  $("thinking").hidden = !app.state.thinking;
  const mode = app.mode, session = app.session;
  const sessionTitle = session.titleKey ? t(session.titleKey) : app.state.mode;
  document.title = mode.title ? mode.title() : `Pasang: ${statusText()} (${sessionTitle})`;
  document.querySelectorAll("#modes button").forEach((/** @type {HTMLElement} */ b) => b.classList.toggle("active", !app.learn && !app.puzzle && b.dataset.mode === session.name));
  $("learn-link").classList.toggle("active", Boolean(app.learn));
  $("puzzle-link").classList.toggle("active", Boolean(app.puzzle));
  const friendly = Boolean(session.friendBox);
  document.body.classList.toggle("friend", friendly);
  $("friend").hidden = !friendly || !app.friend;
  document.querySelectorAll("#settings [class]").forEach((/** @type {HTMLElement} */ node) => {
    node.hidden = !node.classList.contains("for-" + session.name);
  });
  // A finished game has nothing to stop, and its engines' lines are old.
  if (app.state.over) {
    $("run").hidden = true;
    app.lines = {};
    app.watchLines = {};
  }
  $("run").textContent = app.state.running ? t("stop") : t("start");
  if (app.state.person) $("side").value = app.state.person;
  // A room's state has no engine part: its settings stay as they are.
  if (app.state.skill !== undefined) $("skill").value = String(app.state.skill);
  if (app.state.movetime !== undefined) $("movetime").value = String(app.state.movetime);
  if (app.state.multipv !== undefined) $("multipv").value = String(app.state.multipv);
  $("clock").value = app.state.clock ? `${app.state.clock.minutes}+${app.state.clock.increment}` : "0+0";
  $("save").textContent = session.saveWords ? session.saveWords() : t("save");
  $("takeback").hidden = session.takesBack === false;
  // A game in play or between friends may be resigned (a room's says
  // more: its render follows).
  $("resign").hidden = !session.resignable || Boolean(app.state.over);
  app.clockAt = performance.now();
  showClocks();
  for (const key of ruleKeys(app.ruleOptions)) if ($(key)) $(key).value = app.state.rules[key];
  if (document.activeElement !== $("fen")) $("fen").value = app.state.position;
  renderHint();
  renderMoves();
  renderLines();
  $("review").hidden = !session.reviewBox;
  if (mode.render) mode.render();
  markBoard();
  drawBoard();
}

// The board's facts as data attributes on #board, for scripts and checks
// that read the page: the session's mode, the side to move, the result,
// whether analysis or watching is on, whether the engine is thinking of a
// move, and the legal moves (space-separated).
function markBoard() {
  const board = $("board").dataset;
  const state = app.state;
  board.gameMode = state.mode || "";
  board.toMove = state.side;
  board.over = state.over ? { south: "1-0", north: "0-1" }[state.over.winner] || "1/2-1/2" : "";
  board.running = String(Boolean(state.running));
  board.thinking = String(Boolean(state.thinking));
  board.cursor = String(state.cursor);
  board.legal = canMove() ? state.legal.map((m) => m.move).join(" ") : "";
}

// What to do now, said in words under the board.
function renderHint() {
  let text = app.mode.hint ? app.mode.hint() : undefined;
  const personal = app.session.speaksToPerson;
  if (text !== undefined) {
    // The mode says what to do (a lesson says it in its panel, a review its own).
  } else if (app.state.over && app.state.moves.length && app.state.cursor === app.state.moves.length) {
    text = t("hintOver");
  } else if (canMove() && (!personal || app.state.side === app.state.person)) {
    const you = personal ? t("yourMove") : t("toMove", { side: t(app.state.side) });
    // Outside play the page speaks of the side to move, not to the person.
    const suffix = personal ? "" : "Other";
    const key = ["hintPassage", "hintEntry", "hintKa"][app.state.phase - 1];
    text = t(key + suffix, { who: you });
  }
  $("hint").textContent = text || "";
  $("hint").hidden = !text;
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  app.state.moves.forEach((move, i) => {
    const span = document.createElement("span");
    const mover = moverOf(i + 1, app.state.start);
    span.textContent = move;
    span.className = mover;
    span.dataset.ply = String(i + 1);
    const judged = app.session.judgement ? app.session.judgement(i + 1) : null;
    if (judged && judged.mark) span.dataset.mark = judged.mark;
    if (judged) span.title = evalWords(judged.eval) + (judged.best ? `; ${t("better")} ${judged.best.move}` : "");
    // Numbered: South's moves, and the first if North made it.
    if (mover === "south" || i === 0) span.dataset.number = moveNumber(i + 1, app.state.start);
    if (i + 1 === app.state.cursor) span.classList.add("current");
    span.onclick = () => goto(i + 1);
    list.appendChild(span);
  });
  // The list scrolls to the current move; the page itself does not move
  // (on a phone the board would slide away).
  const current = /** @type {HTMLElement | null} */ (list.querySelector(".current"));
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

export function renderLines() {
  const list = $("lines");
  list.textContent = "";
  // In play the engine's thoughts stay hidden (its score shows in #eval).
  const session = app.session;
  const shown = session.lines ? session.lines() : [];
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
    const who = session.lineLabel ? session.lineLabel(info) : "";
    li.appendChild(document.createTextNode(`${who}${info.pv.join(" ")}`));
    const facts = { score: info.score, depth: info.depth, nps: info.nps, pv: info.pv.join(" ") };
    li.title = t(info.nps ? "lineTitleSpeed" : "lineTitle", facts);
    list.appendChild(li);
  }
}

// The clocks count down here between states; the server keeps the time.
export function showClocks() {
  const clock = app.state && app.state.clock;
  $("clocks").hidden = !clock;
  if (!clock) return;
  for (const side of ["south", "north"]) {
    const running = clock.running === side ? performance.now() - app.clockAt : 0;
    $("clock-" + side).textContent = clockText(clock[side] - running);
    $("clock-box-" + side).classList.toggle("running", clock.running === side);
    $("you-" + side).hidden = app.state.person !== side;
  }
}

// An evaluation or lines of another position than the one on view are
// not shown: analysis lines belong to the ply they searched; in play the
// engine's last score stands until a take-back goes before it; a game
// over shows its result in the bar, not a score.
export function forgetStaleEvaluation() {
  const analyses = app.session.analysesCursor;
  if (analyses && Object.values(app.lines).some((info) => info.ply !== app.state.cursor)) app.lines = {};
  if (app.state.over) {
    app.evalPly = null;
    const winner = app.state.over.winner;
    showEval("", winner === "south" ? 100 : winner === "north" ? 0 : 50);
  } else if (app.evalPly !== null && (app.state.cursor < app.evalPly || (analyses && app.state.cursor !== app.evalPly))) {
    app.evalPly = null;
    showEval("", 50);
  }
  renderLines();
}

// The evaluation in words and, in the bar, South's share (percent).
export function showEval(text, southShare) {
  app.evalShown = { text, share: southShare };
  $("eval").textContent = text;
  $("evalfill").style.height = southShare.toFixed(1) + "%";
}

// The status in the page's language: the session's own words in English;
// in another language, or where the players have names (a friend game, a
// room), made from the state's facts with the table's words.
function statusText() {
  const state = app.state;
  const named = (side) => {
    const name = playerName(app.mode, side);
    return name ? `${t(side)} (${name})` : t(side);
  };
  const names = Boolean(playerName(app.mode, "south") || playerName(app.mode, "north"));
  // A friend game names the player to move.
  if (app.session.friendBox && !state.over && playerName(app.mode, state.side)) {
    return t("toMove", { side: named(state.side) });
  }
  const you = state.over ? yourSide() : null;
  if (currentLanguage() === "en" && !(names && state.over) && !you) return state.status;
  const points = t("points", { south: state.scores[0], north: state.scores[1] });
  if (!state.over) return t("toMove", { side: t(state.side) });
  const winner = state.over.winner;
  const reason = { points: "Points", suntuk: "Suntuk", time: "Time", resignation: "Resign", abandonment: "Abandon" }[state.over.reason] || "Points";
  // The player's own game speaks to them, as lichess's "You won" does;
  // the other side keeps its name.
  if (you && !winner) return t("youDrew", { points });
  if (you) {
    const other = you === "south" ? "north" : "south";
    return t((winner === you ? "youWon" : "youLost") + reason, { loser: named(other), points });
  }
  if (!winner) return t("draw", { points });
  const loser = winner === "south" ? "north" : "south";
  const key = { Points: "winsOnPoints", Suntuk: "winsSuntuk", Time: "winsOnTime", Resign: "winsResign", Abandon: "winsAbandon" }[reason];
  return t(key, { winner: named(winner), loser: named(loser), points });
}

// The side the person at this page played, where the page knows it: the
// person's side against the engine, a room's seat. A friend game on one
// device has two players, so none.
function yourSide() {
  const mode = app.mode.yourSide ? app.mode : app.session;
  return mode.yourSide ? mode.yourSide() || null : null;
}

// The name of `side`'s player, if the mode knows it (in a room, as the room has it).
const playerName = (mode, side) => (mode.playerName ? mode.playerName(side) : "");

/** Shows the position after ply `ply` (a room's game is the server's:
 * it is shown at its last move). */
export function goto(ply) {
  if (app.mode.browse === false) return;
  if (app.state && ply >= 0 && ply <= app.state.moves.length && ply !== app.state.cursor) send({ type: "goto", ply });
}

/** The Resign button: a first tap asks again (a phone's tap is easily
 * made), a second within a few seconds resigns; the room server and the
 * session take the same message. */
export function setUpResign() {
  const button = $("resign");
  let timer = null;
  const calm = () => {
    clearTimeout(timer);
    button.dataset.confirm = "false";
    button.textContent = t("resign");
  };
  button.onclick = () => {
    if (button.dataset.confirm === "true") {
      calm();
      send({ type: "resign" });
      return;
    }
    button.dataset.confirm = "true";
    button.textContent = t("resignConfirm");
    timer = setTimeout(calm, 4000);
  };
}

/** The rule selects' values in the page's language (each option's value
 * stays the protocol's). */
export function labelRuleValues() {
  for (const key of ruleKeys(app.ruleOptions)) {
    const select = /** @type {HTMLSelectElement | null} */ (/** @type {unknown} */ ($(key)));
    if (select) for (const option of select.options) option.textContent = ruleValueWords(option.value);
  }
}

/** Says in #error what was wrong with the address, the standing notice and
 * the last refusal; each is words, or a function that words them in the
 * page's language. */
export function showError() {
  const text = [...app.addressErrors, app.notice, app.lastError].filter(Boolean)
    .map((words) => (typeof words === "function" ? words() : words)).join("\n");
  $("error").textContent = text;
  $("error").hidden = !text;
}

/** Says `words` (or a function giving them) in #error until the next state. */
export function sayError(words) {
  app.lastError = words;
  showError();
}
