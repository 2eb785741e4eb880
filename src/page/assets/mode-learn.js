// @ts-check
// Learn mode (?mode=learn): the page's own. It reads the course
// (lessons.json), puts each step's position on the board and holds the
// person's move to the step's task before the session plays it. A move
// the rules forbid goes to the session, whose typed reason the lesson
// says (or the step's own words for that try). #lesson's data-lesson,
// data-step (from 0) and data-state (menu, loading, task, right, done)
// are the page's testing contract.
import { app, rulesOf } from "./app-state.js";
import { drawBoard, legalMove, sendMove } from "./board.js";
import { $, el, node, params } from "./dom.js";
import { centre, rankOf } from "./geometry.js";
import { lessonVerdict, wrongTry as stepWrongTry } from "./judgement.js";
import { loadJson, saveJson } from "./storage.js";
import { currentLanguage, pointerWords, t } from "./strings.js";
import { send } from "./transport.js";
import { showError } from "./panel.js";
import { reasonWords, refusalWords } from "./words.js";

// Progress in the browser: { lessonId: { step: next step to do, done: true once finished } }.
const PROGRESS_KEY = "pasang-learn";

const currentStep = () => app.learn.lesson.steps[app.learn.step];
// A course text ({en, ms}) in the page's language.
const words = (text) => pointerWords((text && (text[currentLanguage()] || text.en)) || "");
const loadProgress = () => loadJson(PROGRESS_KEY, {});

// ?mode=learn: the course menu; &lesson=ID one lesson from its first step
// (&step=N from step N, as the menu's Continue links). The session
// analyses, stopped: it only keeps the board and its legal moves.
function start() {
  app.learn = { course: null, lesson: null, step: 0, phase: "menu", feedback: null };
  document.body.classList.add("learning");
  // The lesson's words above the board: on a phone, a wrong tap's reason
  // shows beside the board, not a screen below it.
  document.querySelector("main").insertBefore($("lesson"), $("board-area"));
  send({ type: "mode", mode: "analyse" });
  send({ type: "run", on: false });
  renderLesson();
  fetch("lessons.json")
    .then((response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return response.json();
    })
    .then((course) => {
      app.learn.course = course;
      const id = params.get("lesson");
      const lesson = id === null ? null : course.lessons.find((l) => l.id === id);
      // What was wrong with the address stays until the page is reloaded.
      if (id !== null && !lesson) {
        app.addressErrors.push(() => t("noSuchLesson", { id }));
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
      app.addressErrors.push(() => t("lessonsMissing", { why: error.message }));
      showError();
    });
}

function openLesson(lesson, step) {
  app.learn.lesson = lesson;
  app.learn.step = step;
  loadStep();
}

// Puts the step's position on the board under its rules; the step's task
// starts when the session's state shows it.
function loadStep() {
  const step = currentStep();
  const rules = rulesOf(app.ruleOptions, step.options);
  app.learn.rules = rules;
  app.learn.phase = "loading";
  app.learn.feedback = null;
  app.selected = null;
  // The side to move plays from the bottom of the board.
  app.flipped = step.position.split(" ")[1] === "n";
  send({ type: "new", rules, position: step.position });
  renderLesson();
}

// Each state the session sends, in Learn mode: the step's position shown
// starts its task; after the right move, the next step follows.
function onLearnState() {
  if (!app.learn.lesson) return;
  const step = currentStep();
  const sameRules = Object.keys(app.learn.rules).every((key) => app.state.rules[key] === app.learn.rules[key]);
  if (app.learn.phase === "loading" && app.state.start === step.position && sameRules && app.state.moves.length === 0) {
    app.learn.phase = "task";
    renderLesson();
    drawBoard();
  }
}

// The current step's wrong try for `move`, or null.
const wrongTry = (move) => stepWrongTry(currentStep(), move);

// The person's move in a step: one of `accept` moves on (the session
// plays it, the board shows what it took); any other is refused with the
// step's reason, or a general one, and the step stays.
function learnTry(move) {
  if (app.learn.phase !== "task") return;
  const step = currentStep();
  const verdict = lessonVerdict(step, move);
  if (verdict.right) {
    app.learn.phase = "right";
    app.learn.feedback = { kind: "right", say: () => (step.right ? words(step.right) : t("right")) };
    const progress = loadProgress();
    const done = app.learn.step + 1 >= app.learn.lesson.steps.length;
    const before = progress[app.learn.lesson.id] || {};
    progress[app.learn.lesson.id] = { step: done ? 0 : app.learn.step + 1, done: done || Boolean(before.done) };
    saveJson(PROGRESS_KEY, progress);
    sendMove(move);
  } else {
    const wrong = verdict.wrong;
    app.learn.feedback = { kind: "wrong", say: wrong ? () => words(wrong.why) : () => t("notThisTask") };
    drawBoard();
  }
  renderLesson();
}

// The player goes on after a right move (its words stay until then).
function advance() {
  if (app.learn.step + 1 < app.learn.lesson.steps.length) {
    app.learn.step += 1;
    loadStep();
  } else {
    app.learn.phase = "done";
    renderLesson();
    drawBoard();
  }
}

// The address of a lesson (at a step).
function lessonLink(id, step) {
  return `?mode=learn&lesson=${encodeURIComponent(id)}${step ? `&step=${step}` : ""}`;
}

// #lesson: the course menu, or the lesson with its step's words, what the
// last try earned and the way on. Its data-lesson, data-step (from 0) and
// data-state (menu, loading, task, right, done) are the page's testing
// contract.
function renderLesson() {
  const box = $("lesson");
  box.hidden = !app.learn;
  if (!app.learn) return;
  box.textContent = "";
  const lesson = app.learn.lesson;
  box.dataset.lesson = lesson ? lesson.id : "";
  box.dataset.step = lesson ? String(app.learn.step) : "";
  box.dataset.state = lesson ? app.learn.phase : "menu";
  const progress = loadProgress();
  if (!lesson) {
    node("h2", {}, t("course"), box);
    node("p", {}, t("courseIntro"), box);
    if (!app.learn.course) return;
    const list = node("ol", { id: "lesson-list" }, null, box);
    for (const l of app.learn.course.lessons) {
      const kept = progress[l.id] || {};
      const item = node("li", {}, null, list);
      const started = kept.step > 0;
      node("a", { href: lessonLink(l.id, started ? kept.step : 0), "data-lesson-id": l.id }, words(l.title), item);
      let status = t("lessonSteps", { count: l.steps.length });
      if (started) status = t("lessonAt", { step: kept.step + 1, count: l.steps.length });
      else if (kept.done) status = `✓ ${t("lessonDone")}`;
      node("span", { class: "lesson-status" + (kept.done ? " done" : "") }, status, item);
    }
    if (app.learn.course.lessons.every((l) => (progress[l.id] || {}).done)) node("p", {}, t("courseComplete"), box);
    return;
  }
  node("h2", {}, words(lesson.title), box);
  const count = lesson.steps.length;
  const bar = node("div", { class: "lesson-steps", "aria-hidden": "true" }, null, box);
  for (let i = 0; i < count; i++) {
    const done = i < app.learn.step || app.learn.phase === "done" || (i === app.learn.step && app.learn.phase === "right");
    node("span", { class: done ? "done" : i === app.learn.step ? "current" : "" }, null, bar);
  }
  if (app.learn.phase === "done") {
    node("p", { id: "lesson-text", class: "complete" }, t("lessonComplete"), box);
  } else {
    node("p", { class: "step-count" }, t("stepOf", { step: app.learn.step + 1, count }), box);
    stepText(box);
    // The answer's room is kept, empty or not: the board does not move
    // when a try's feedback or the way on appears.
    const answer = node("div", { class: "lesson-answer" }, null, box);
    if (app.learn.feedback) {
      node("p", { id: "lesson-feedback", class: app.learn.feedback.kind, role: "alert" }, app.learn.feedback.say(), answer);
    }
    if (app.learn.phase === "right") {
      const last = app.learn.step + 1 >= lesson.steps.length;
      const next = node("button", { type: "button", id: "lesson-next", class: "primary" }, t(last ? "lessonFinish" : "lessonNext"), answer);
      next.onclick = advance;
    }
  }
  const links = node("p", { class: "lesson-links" }, null, box);
  node("a", { href: "?mode=learn", id: "back-to-course" }, t("backToCourse"), links);
  if (app.learn.phase === "done") {
    const lessons = app.learn.course.lessons;
    const next = lessons[lessons.indexOf(lesson) + 1];
    node("a", { href: lessonLink(lesson.id, 0), id: "restart-lesson" }, t("restartLesson"), links);
    if (next) node("a", { href: lessonLink(next.id, 0), id: "next-lesson", class: "primary" }, `${t("nextLesson")}: ${words(next.title)}`, links);
  }
}

// The step's words: five lines, and the rest behind "more" (#lesson-more)
// where they run longer; the choice holds for the step.
function stepText(box) {
  const text = node("p", { id: "lesson-text" }, words(currentStep().text), box);
  const key = `${app.learn.lesson.id}/${app.learn.step}`;
  const open = app.learn.moreOpen === key;
  text.classList.toggle("clamped", !open);
  // Laid out by now (the box is in the page): a clamped text that hides
  // lines is taller inside than it shows.
  if (open || text.scrollHeight > text.clientHeight + 2) {
    const more = node("a", { href: "#", id: "lesson-more", role: "button", "aria-expanded": String(open) }, t(open ? "lessonLess" : "lessonMore"), box);
    more.onclick = (event) => {
      event.preventDefault();
      app.learn.moreOpen = open ? null : key;
      renderLesson();
    };
  }
}

// A move the board does not list, typed or clicked: the step's own words
// for that try where it has them, else the session is asked, and its
// refusal's typed reason is said (a move the board lists is a try).
function tryUnlisted(move) {
  if (app.learn.phase !== "task") return false;
  const listed = legalMove(move);
  if (listed) {
    learnTry(listed.move);
    return true;
  }
  const wrong = wrongTry(move);
  if (wrong) {
    app.learn.feedback = { kind: "wrong", say: () => words(wrong.why) };
    renderLesson();
    return false;
  }
  app.learn.asked = move;
  send({ type: "move", move });
  return false;
}

// A click on a point that takes no click: the move it would make is
// tried, and so explained.
function deadClick(name) {
  if (app.learn.phase !== "task") return;
  const state = app.state;
  if (state.phase === 1) {
    const own = state.side === "south" ? rankOf(name) <= 4 : rankOf(name) >= 6;
    if (!own) {
      app.learn.feedback = { kind: "wrong", say: () => t("passageHalf") };
      renderLesson();
      return;
    }
    tryUnlisted(name[0]);
  } else if (app.selected) {
    tryUnlisted(app.selected + name);
  } else if (state.phase === 3) {
    tryUnlisted(name + name);
  } else {
    // Phase 2: the stone would enter its rank's passage point.
    const file = (state.position.split(" ")[4] || "--")[state.side === "south" ? 0 : 1];
    tryUnlisted(name + file + name.slice(1));
  }
}

// A refusal of the session: the answer to a try the lesson asked about,
// or (it should not happen) of the step's own move, after which the step
// waits again.
function onError(message) {
  if (app.learn.phase === "right") {
    app.learn.phase = "task";
    app.learn.feedback = { kind: "wrong", say: () => refusalWords(message) };
  } else if (app.learn.asked && message.kind === "illegal_move") {
    app.learn.asked = null;
    const wrong = wrongTry(message.move);
    const reason = message.reason ? reasonWords(message) : ["notAMove", { move: message.move }];
    app.learn.feedback = { kind: "wrong", say: wrong ? () => words(wrong.why) : () => t(...reason) };
  } else {
    return false;
  }
  renderLesson();
  return true;
}

// A lesson marks the points its task is about.
function decorate(svg) {
  if (!app.learn.lesson || (app.learn.phase !== "task" && app.learn.phase !== "right")) return;
  for (const name of currentStep().highlight || []) {
    const [x, y] = centre(name, app.flipped);
    el("circle", { class: "lesson-mark", cx: x, cy: y, r: 29, "data-highlight": name }, svg);
  }
}

/** Learn mode's hooks (see app.js). */
export const learnMode = {
  name: "learn",
  start,
  canMove: () => app.learn.phase === "task",
  submit: learnTry,
  unlisted: tryUnlisted,
  deadClick,
  decorate,
  onState: onLearnState,
  onError,
  render: renderLesson,
  hint: () => "",
  title: () => `Pasang: ${t("learn")}`,
  keys: false,
  // The lesson's board stays idle: no search runs in Learn mode.
  onRestart: () => send({ type: "run", on: false }),
};
