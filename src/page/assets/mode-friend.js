// @ts-check
// Friend mode (?mode=friend): the session's; both sides move from the
// page. The page keeps the game in its address and in localStorage, and
// shares it as a link.
import { app, defaultRules, ruleKeys } from "./app-state.js";
import { drawBoard, sendMove } from "./board.js";
import { $, params, roomServer } from "./dom.js";
import { render } from "./panel.js";
import { shareUrl } from "./sharing.js";
import { loadJson, saveJson } from "./storage.js";
import { t } from "./strings.js";
import { send } from "./transport.js";

// The friend game kept in this browser: { rules, position, moves, names, turn }.
const FRIEND_KEY = "pasang-friend";

// What a friend game starts from: the address's game where it gives one
// (a shared link), else the game kept in this browser, else a new one.
// Sends the game to the session; the mode follows.
function start() {
  const fromAddress = ["moves", "position", "south", "north", ...ruleKeys(app.ruleOptions)].some((key) => params.has(key));
  const kept = fromAddress ? null : loadJson(FRIEND_KEY, null);
  app.friend = {
    names: {
      south: (kept ? (kept.names || {}).south : params.get("south")) || "",
      north: (kept ? (kept.names || {}).north : params.get("north")) || "",
    },
    position: (kept ? kept.position : params.get("position")) || null,
    turn: Boolean(kept ? kept.turn : (loadJson(FRIEND_KEY, null) || {}).turn),
  };
  document.body.classList.add("friend");
  $("room-create").hidden = !roomServer();
  $("south-name").value = app.friend.names.south;
  $("north-name").value = app.friend.names.north;
  $("turn-board").checked = app.friend.turn;
  sendNames();
  // The engine keeps out from the first move on.
  send({ type: "mode", mode: "friend" });
  if (kept) {
    send({ type: "new", rules: kept.rules || defaultRules(app.ruleOptions), position: kept.position || undefined });
    for (const move of Array.isArray(kept.moves) ? kept.moves : []) send({ type: "move", move: String(move) });
  }
}

function sendNames() {
  send({ type: "names", south: app.friend.names.south, north: app.friend.names.north });
}

// Each state in Friend mode: the game kept (in this browser and in the
// page's address, so that a reload keeps it) and the share link.
function onFriendState() {
  if (!app.friend) return;
  const kept = { rules: app.state.rules, position: app.friend.position, moves: app.state.moves, names: app.friend.names, turn: app.friend.turn };
  saveJson(FRIEND_KEY, kept);
  const link = shareLink();
  $("share-link").value = link;
  try { history.replaceState(null, "", link); } catch (_) { /* a page from file: */ }
  if (app.friend.turn && app.flipped !== (app.state.side === "north")) {
    app.flipped = app.state.side === "north";
    drawBoard();
  }
}

// The game's address: its rules (the page's keys, the protocol's
// values), its start position if it was set up, its moves in full,
// space-separated in one parameter, and the players' names.
function shareLink() {
  const query = new URLSearchParams();
  query.set("mode", "friend");
  for (const key of ruleKeys(app.ruleOptions)) query.set(key, app.state.rules[key]);
  if (app.friend.position) query.set("position", app.friend.position);
  if (app.state.moves.length) query.set("moves", app.state.moves.join(" "));
  for (const side of ["south", "north"]) if (app.friend.names[side]) query.set(side, app.friend.names[side]);
  return `${location.origin}${location.pathname}?${query}`;
}

// The Share button: the Web Share API where there is one (phones), the
// clipboard elsewhere; the link stays in #share-link to copy by hand.
function share() {
  if (!app.state) return;
  const url = shareLink();
  $("share-link").value = url;
  shareUrl(url, document.title, t("shareText", { side: t(app.state.side) }), $("share-link")).then((how) => {
    if (!how) return;
    $("share-note").textContent = t({ shared: "linkShared", copied: "linkCopied", select: "linkSelect" }[how]);
    $("share-note").hidden = false;
  });
}

/** Friend mode's controls: the players' names, the board's turning, Share. */
export function setUpFriend() {
  $("share").onclick = share;
  for (const side of ["south", "north"]) {
    $(`${side}-name`).onchange = () => {
      if (!app.friend) return;
      app.friend.names[side] = $(`${side}-name`).value.trim().slice(0, 40);
      sendNames();
      if (app.state) { onFriendState(); render(); }
    };
  }
  $("turn-board").onchange = () => {
    if (!app.friend) return;
    app.friend.turn = $("turn-board").checked;
    if (app.state) { onFriendState(); drawBoard(); }
  };
}

/** Friend mode's hooks (see app.js): both sides move from this page, and
 * the session referees. */
/** @type {import("./app-state.js").Mode} */
export const friendMode = {
  name: "friend",
  titleKey: "titleFriend",
  resignable: true,
  friendBox: true,
  start,
  canMove: () => true,
  submit: sendMove,
  unlisted: (move) => { sendMove(move); return false; },
  onState: onFriendState,
  playerName: (side) => (app.friend && app.friend.names[side]) || "",
  keys: true,
  onRestart: () => { if (app.friend) sendNames(); },
};
