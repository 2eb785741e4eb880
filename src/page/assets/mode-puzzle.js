// @ts-check
import { app, optionWordsKey, rulesOf } from "./app-state.js";
import { drawBoard, legalMove, sendMove } from "./board.js";
import { $, node, params } from "./dom.js";
import { moverOf, other } from "./geometry.js";
import { puzzleVerdict, ratedAfter } from "./judgement.js";
import { loadJson, saveJson } from "./storage.js";
import { t } from "./strings.js";
import { send } from "./transport.js";
import { showError } from "./panel.js";
import { reasonWords, ruleValueWords } from "./words.js";

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

function loadPuzzleRecord() {
  const fresh = { rating: PUZZLE_START_RATING, streak: 0, best: 0, results: {}, theme: "", rules: "" };
  return Object.assign(fresh, loadJson(PUZZLE_KEY, {}));
}

const savePuzzleRecord = (record) => saveJson(PUZZLE_KEY, record);

// A puzzle's rule set as one key: the option values in the protocol's order.
const puzzleRuleSet = (p) => app.ruleOptions.map((option) => (p.options || {})[option.name] || "").join("/");

// The puzzles the filters let through.
function filteredPuzzles(record) {
  return app.puzzle.all.filter((p) => (!record.theme || p.themes.includes(record.theme))
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

function start() {
  app.puzzle = { all: [], current: null, solution: [], step: 0, phase: "loading", feedback: null, counted: false, timer: null };
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
      app.puzzle.all = text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
      const id = params.get("id");
      const asked = id === null ? null : app.puzzle.all.find((p) => p.id === id);
      if (id !== null && !asked) {
        app.addressErrors.push(() => t("noSuchPuzzle", { id }));
        showError();
      }
      const chosen = asked || nextPuzzle(loadPuzzleRecord(), null);
      if (chosen) openPuzzle(chosen);
      else { app.puzzle.phase = "empty"; renderPuzzle(); }
    })
    .catch((error) => {
      app.addressErrors.push(() => t("puzzlesMissing", { why: error.message }));
      showError();
    });
}

// Puts the position before the mistake on the board, under the puzzle's rules.
function openPuzzle(p) {
  clearTimeout(app.puzzle.timer);
  app.puzzle.current = p;
  app.puzzle.solution = p.moves.split(" ").filter(Boolean);
  app.puzzle.step = 0;
  app.puzzle.phase = "loading";
  app.puzzle.feedback = null;
  app.puzzle.counted = false;
  app.puzzle.alternative = false;
  const rules = rulesOf(app.ruleOptions, p.options);
  app.puzzle.rules = rules;
  app.puzzle.start = p.before && p.mistake ? p.before : p.position;
  app.puzzle.offset = p.before && p.mistake ? 1 : 0;
  app.selected = null;
  // The solver plays from the bottom of the board.
  app.flipped = p.position.split(" ")[1] === "n";
  send({ type: "new", rules, position: app.puzzle.start });
  renderPuzzle();
}

// The moves of the puzzle on the board so far (the mistake not counted).
const puzzlePlayed = () => app.state.moves.length - app.puzzle.offset;

// Each state the session sends, in Puzzle mode: the mistake is played
// once the position is shown; the reply once the person's move is.
function onPuzzleState() {
  const p = app.puzzle.current;
  if (!p) return;
  if (app.puzzle.phase === "loading") {
    const sameRules = Object.keys(app.puzzle.rules).every((key) => app.state.rules[key] === app.puzzle.rules[key]);
    if (app.state.start !== app.puzzle.start || !sameRules || app.state.moves.length !== 0) return;
    if (app.puzzle.offset) {
      app.puzzle.phase = "mistake";
      app.puzzle.timer = setTimeout(() => sendMove(p.mistake), PUZZLE_PAUSE);
    } else {
      app.puzzle.phase = "playing";
    }
  } else if (app.puzzle.phase === "mistake" && app.state.moves.length === 1) {
    app.puzzle.phase = "playing";
  } else if (app.puzzle.phase === "moving" && puzzlePlayed() === app.puzzle.step) {
    if (app.puzzle.step >= app.puzzle.solution.length || app.puzzle.alternative) {
      app.puzzle.phase = "solved";
      if (!app.puzzle.alternative) app.puzzle.feedback = { kind: "right", key: "puzzleSolved" };
      countPuzzle(true);
    } else {
      // The reply counts at once: a state that comes before it is played
      // does not end the wait.
      app.puzzle.phase = "reply";
      app.puzzle.step += 1;
      const reply = app.puzzle.solution[app.puzzle.step - 1];
      app.puzzle.timer = setTimeout(() => sendMove(reply), PUZZLE_PAUSE);
    }
  } else if (app.puzzle.phase === "reply" && puzzlePlayed() === app.puzzle.step) {
    app.puzzle.phase = "playing";
  } else if (app.puzzle.phase === "shown" && puzzlePlayed() === app.puzzle.step && app.puzzle.step < app.puzzle.solution.length) {
    app.puzzle.step += 1;
    const move = app.puzzle.solution[app.puzzle.step - 1];
    app.puzzle.timer = setTimeout(() => sendMove(move), PUZZLE_PAUSE);
  }
  renderPuzzle();
  drawBoard();
}

// The person's move: the solution's next move is played (the reply
// follows); a first move the puzzle lists in `alternatives` (another
// proven win) is played and solves it at once; any other is refused, and
// the board and #moves stay.
function puzzleTry(move) {
  if (!app.puzzle.current || app.puzzle.phase !== "playing") return;
  const { right, alternative, solved } = puzzleVerdict(app.puzzle.current, app.puzzle.solution, app.puzzle.step, move);
  if (right) {
    app.puzzle.step += 1;
    app.puzzle.phase = "moving";
    app.puzzle.alternative = alternative;
    app.puzzle.feedback = alternative
      ? { kind: "right", key: "puzzleAlternative", values: { move: app.puzzle.solution[0] } }
      : { kind: "right", key: solved ? "puzzleSolved" : "puzzleGood" };
    sendMove(move);
  } else {
    app.puzzle.feedback = { kind: "wrong", key: "notTheMove" };
    countPuzzle(false);
    drawBoard();
  }
  renderPuzzle();
}

// Why the solution wins, once it is on the board: what the solver's
// last move took, the points, and what its themes say of the win.
function puzzleWhy(p, solver) {
  const state = app.state;
  const words = [];
  const played = state.moves.length;
  const solverMoved = played > 0 && moverOf(played, app.state.start) === solver;
  if (state.last && solverMoved) {
    const taken = state.last.captures.length;
    const key = taken === 1 ? "puzzleWhyTookOne" : taken ? "puzzleWhyTook" : "puzzleWhyQuiet";
    words.push(t(key, { move: state.last.move, count: taken, points: state.last.points }));
  }
  words.push(t("puzzleWhyScore", { south: state.scores[0], north: state.scores[1] }));
  const sides = { solver: t(solver), loser: t(other(solver)) };
  // What the opponent can still do: few moves left is the point of many
  // puzzles (a game over says its own reason below).
  const left = state.over ? 0 : state.legal.length;
  if (left && left <= 3) words.push(t(left === 1 ? "puzzleWhyOneLeft" : "puzzleWhyLeft", { loser: sides.loser, count: left }));
  for (const theme of p.themes) {
    const key = `why-${theme}`;
    if (t(key) !== key) words.push(t(key, sides));
  }
  return words.join(" ");
}

// The rest of the solution, played for the person (the puzzle counts as missed).
function showSolution() {
  if (!app.puzzle.current || app.puzzle.phase !== "playing") return;
  countPuzzle(false);
  app.puzzle.phase = "shown";
  app.puzzle.feedback = { kind: "wrong", key: "puzzleShown" };
  app.puzzle.step += 1;
  sendMove(app.puzzle.solution[app.puzzle.step - 1]);
  renderPuzzle();
}

// The first result of a puzzle counts: the rating (Elo against the
// puzzle's rating) and the streak of puzzles solved at the first try.
function countPuzzle(solved) {
  if (app.puzzle.counted) return;
  app.puzzle.counted = true;
  const record = loadPuzzleRecord();
  record.rating = ratedAfter(record.rating, app.puzzle.current.rating, solved, PUZZLE_K);
  record.streak = solved ? record.streak + 1 : 0;
  record.best = Math.max(record.best, record.streak);
  record.results[app.puzzle.current.id] = solved ? 1 : 0;
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
    app.puzzle.current = null;
    app.puzzle.phase = "empty";
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
  box.hidden = !app.puzzle;
  if (!app.puzzle) return;
  box.textContent = "";
  const p = app.puzzle.current;
  box.dataset.id = p ? p.id : "";
  box.dataset.state = app.puzzle.phase;
  const record = loadPuzzleRecord();
  node("h2", {}, t("puzzles"), box);
  node("p", { id: "puzzle-rating" }, t("puzzleRecord", { rating: record.rating, streak: record.streak, best: record.best }), box);
  if (p) {
    const solver = p.position.split(" ")[1] === "n" ? "north" : "south";
    const over = app.puzzle.phase === "solved" || app.puzzle.phase === "shown";
    let task = t(p.themes.includes("save") ? "puzzleTaskSave" : "puzzleTaskWin", { side: t(solver) });
    if (p.mistake && !over) task = `${t("puzzleMistake", { side: t(other(solver)), move: p.mistake })} ${task}`;
    node("p", { id: "puzzle-text" }, task, box);
    if (app.puzzle.feedback) node("p", { id: "puzzle-feedback", class: app.puzzle.feedback.kind, role: "alert" }, t(app.puzzle.feedback.key, app.puzzle.feedback.values), box);
    if (over) {
      node("p", { id: "puzzle-why" }, puzzleWhy(p, solver), box);
      const themes = p.themes.map((theme) => t(`theme-${theme}`)).join(", ");
      node("p", { class: "puzzle-facts" }, t("puzzleFacts", { id: p.id, rating: p.rating, themes }), box);
    }
    const actions = node("p", { class: "lesson-links" }, null, box);
    if (app.puzzle.phase === "playing") {
      const button = node("button", { type: "button", id: "puzzle-solution" }, t("showSolution"), actions);
      button.onclick = showSolution;
    }
    const next = nextPuzzle(record, p.id);
    if (next) node("a", { href: puzzleLink(next.id), id: "puzzle-next", class: over ? "primary" : "" }, t(over ? "nextPuzzle" : "skipPuzzle"), actions);
  } else if (app.puzzle.phase === "empty") {
    node("p", { id: "puzzle-text" }, t("noPuzzles"), box);
  }
  if (!app.puzzle.all.length) return;
  const filters = node("div", { class: "puzzle-filters" }, null, box);
  // Each filter offers only what holds a puzzle under the other's choice.
  const themes = [...new Set(app.puzzle.all.filter((q) => !record.rules || puzzleRuleSet(q) === record.rules).flatMap((q) => q.themes))].sort();
  puzzleSelect("puzzle-theme", t("puzzleTheme"), t("allThemes"),
    themes.map((theme) => [theme, t(`theme-${theme}`)]), record.theme, filters);
  const sets = [...new Set(app.puzzle.all.filter((q) => !record.theme || q.themes.includes(record.theme)).map(puzzleRuleSet))].sort();
  puzzleSelect("puzzle-rules", t("puzzleRules"), t("allRuleSets"),
    sets.map((set) => [set, set.split("/").map((value, i) => `${t(optionWordsKey(app.ruleOptions[i].field))} ${ruleValueWords(value)}`).join(" · ")]), record.rules, filters);
}

// A move the board does not list: the session is asked, and its
// refusal's typed reason is said.
function tryUnlisted(move) {
  if (!app.puzzle.current || app.puzzle.phase !== "playing") return false;
  const listed = legalMove(move);
  if (listed) {
    puzzleTry(listed.move);
    return true;
  }
  app.puzzle.asked = move;
  send({ type: "move", move });
  return false;
}

function onError(message) {
  if (!app.puzzle.asked || message.kind !== "illegal_move") return false;
  app.puzzle.asked = null;
  const [key, values] = message.reason ? reasonWords(message) : ["notAMove", { move: message.move }];
  app.puzzle.feedback = { kind: "wrong", key, values };
  renderPuzzle();
  return true;
}

/** Puzzle mode's hooks (see app.js). */
export const puzzleMode = {
  name: "puzzle",
  start,
  canMove: () => app.puzzle.phase === "playing",
  submit: puzzleTry,
  unlisted: tryUnlisted,
  onState: onPuzzleState,
  onError,
  render: renderPuzzle,
  decorate: () => {},
  title: () => `Pasang: ${t("puzzles")}`,
  keys: true,
  onRestart: () => send({ type: "run", on: false }),
};
