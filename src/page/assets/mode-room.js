// @ts-check
// Rooms of `pasang serve`: the page came from a room server (its page is
// marked data-rooms) and the address names a room (room=new makes one).
// The server referees and keeps the game; the page sends moves, a
// resignation or a rematch, and draws the `state` it is sent. The seat's
// token is kept in this browser, so a reload (or a new connection after
// the network went) goes back to the same seat. Outside a room, the room
// server's page is the lobby: the room maker.
import { app, ruleKeys } from "./app-state.js";
import { drawBoard } from "./board.js";
import { $, params, roomAddress } from "./dom.js";
import { copyText } from "./sharing.js";
import { loadText, saveText } from "./storage.js";
import { t } from "./strings.js";
import { send } from "./transport.js";
import { sayError, showError } from "./panel.js";
import { reasonWords } from "./words.js";

const roomKey = (code) => `pasang-room-${code}`;
// The name this browser's player gives in rooms, kept for the next room.
const NAME_KEY = "pasang-player-name";

const keptName = () => loadText(NAME_KEY).trim().slice(0, 40);

// pasang serve's page outside a room (the printed address, ?mode=friend,
// or a mode that needs an engine it does not have): the room maker,
// shown at once, with no game to wait for.
function startLobby() {
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
  const rules = Object.fromEntries(ruleKeys(app.ruleOptions).filter((key) => params.has(key)).map((key) => [key, params.get(key)]));
  const side = (params.get("side") || "random").trim().toLowerCase();
  const message = { type: "create", rules, side };
  let good = true;
  if (!["south", "north", "random"].includes(side)) {
    app.addressErrors.push(() => t("addressBadSide", { value: params.get("side") }));
    good = false;
  }
  const text = (params.get("clock") || "").trim();
  const clock = text.match(/^(\d{1,4})(?:\+|\s+)(\d{1,4})$/);
  if (clock) {
    if (Number(clock[1]) > 0 || Number(clock[2]) > 0) message.clock = { minutes: Number(clock[1]), increment: Number(clock[2]) };
  } else if (text !== "" && text.toLowerCase() !== "none") {
    app.addressErrors.push(() => t("addressBadClock", { value: params.get("clock") }));
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
  const code = app.room && app.room.code ? app.room.code : params.get("room");
  if (code === "new") {
    const message = roomCreateMessage();
    if (!message) {
      // Said, and the room maker offered instead.
      document.body.classList.remove("room");
      $("room").hidden = true;
      app.page = lobbyMode;
      startLobby();
      return;
    }
    send(message);
  } else {
    const token = loadText(roomKey(code));
    send({ type: "join", room: code, token: token || undefined });
  }
  app.room = app.room || { code: null };
}

// The `room` message: the seat, who is here, the rematch offers. The
// first one gives the room's address to this page and to the invitation.
function onRoomMessage(message) {
  const first = !app.room || !app.room.code;
  const turned = !app.room || app.room.seat !== message.seat;
  app.room = { ...message, code: message.room };
  app.roomRetry = 0;
  app.roomRefusals = 0;
  app.roomLink = "";
  showConnection("", "");
  if (message.token) {
    saveText(roomKey(app.room.code), message.token);
  }
  const link = `${location.origin}${location.pathname}?mode=friend&room=${encodeURIComponent(app.room.code)}`;
  $("room-link").value = link;
  if (first) {
    try { history.replaceState(null, "", link); } catch (_) { /* a page from file: */ }
  }
  if (turned) {
    app.flipped = app.room.seat === "north";
    if (app.state) drawBoard();
  }
  // A player's kept name goes to the room once its seat is known.
  const index = { south: 0, north: 1 }[app.room.seat];
  if (index !== undefined && keptName() && (app.room.names || [])[index] !== keptName() && !app.roomNamed) {
    app.roomNamed = true;
    send({ type: "name", name: keptName() });
  }
  renderRoom();
}

function renderRoom() {
  if (!app.room || !app.room.code) return;
  $("seat").dataset.seat = app.room.seat;
  $("seat").textContent = t("seat_" + app.room.seat);
  const presence = app.room.presence;
  const other = app.room.seat === "north" ? "south" : "north";
  let note = "";
  if (!presence.south_taken || !presence.north_taken) note = t("roomWaiting");
  else if (app.room.seat !== "spectator" && !presence[other + "_here"] && app.state && !app.state.over) {
    note = t("roomAway", { side: t(other), grace: app.room.grace });
  }
  $("room-note").textContent = note;
  $("room-note").hidden = !note;
  const names = app.room.names || [];
  $("room-players").textContent = t("roomPlayers", { south: names[0] || t("nobody"), north: names[1] || t("nobody") });
  const player = app.room.seat !== "spectator";
  $("room-name-field").hidden = !player;
  if (player && document.activeElement !== $("room-name")) $("room-name").value = names[app.room.seat === "south" ? 0 : 1] || "";
  const over = Boolean(app.state && app.state.over);
  $("resign").hidden = !player || over || !presence.south_taken || !presence.north_taken;
  $("rematch").hidden = !player || !over;
  // The finished game's record, from the server's records, for a review
  // in pasang gui or any reader of the project's records.
  $("room-record").hidden = !over;
  if (over) {
    const link = /** @type {HTMLAnchorElement} */ (/** @type {unknown} */ ($("room-record")));
    link.href = `/record?room=${encodeURIComponent(app.room.code)}&game=${app.room.game}`;
    link.download = `pasang-${app.room.code}-${app.room.game}.pgn`;
  }
  const mine = app.room.rematch[app.room.seat === "south" ? 0 : 1];
  const theirs = app.room.rematch[app.room.seat === "south" ? 1 : 0];
  $("rematch").textContent = mine ? t("rematchOffered") : theirs ? t("rematchAccept") : t("rematch");
  $("rematch").disabled = Boolean(mine);
}

// Each state in a room: the turn told (in the title, and by a
// notification when the tab is in the background), the room's panel.
function onRoomState() {
  const mine = app.room && app.room.seat === app.state.side && !app.state.over && app.state.legal.length > 0;
  if (mine) {
    document.title = `● ${t("yourTurn")}: ${document.title}`;
    if (app.roomTurn !== app.state.moves.length && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification("Pasang", { body: t("yourTurn") }); } catch (_) { /* not allowed here */ }
    }
    app.roomTurn = app.state.moves.length;
  }
  // A finished game may be stepped through, by this page alone.
  document.body.classList.toggle("room-over", Boolean(app.state.over));
  sendPending();
  renderRoom();
}

// A move in a room: sent with the ply it makes (so that it is never
// played twice), or, while the socket is down, kept and sent when it is
// back, and said either way.
function roomMove(move) {
  const ply = app.state ? app.state.moves.length + 1 : undefined;
  if (app.socket && app.socket.open && !app.roomLink) {
    send({ type: "move", move, ply });
    return;
  }
  app.roomPending = { move, ply };
  showConnection(app.roomLink || "retrying", t("roomPendingKept", { move }));
}

// The kept move, once the room's state is back: sent if the game is
// where it was made, else said to be not sent.
function sendPending() {
  if (!app.roomPending || !app.socket || !app.socket.open) return;
  const { move, ply } = app.roomPending;
  app.roomPending = null;
  if (app.state.moves.length + 1 === ply && app.state.legal.some((m) => m.move === move)) {
    send({ type: "move", move, ply });
  } else {
    sayError(() => t("roomPendingDropped", { move }));
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
function roomReconnect(connect) {
  if (app.roomLink === "refused") return;
  const code = app.room && app.room.code ? app.room.code : roomAddress() && params.get("room") !== "new" ? params.get("room") : null;
  const retry = (kind, key, seconds, values = {}) => {
    app.roomLink = kind;
    const pending = app.roomPending ? ` ${t("roomPendingKept", { move: app.roomPending.move })}` : "";
    showConnection(kind, t(key, { seconds, ...values }) + pending);
    setTimeout(connect, seconds * 1000);
  };
  const plain = () => {
    app.roomRetry += 1;
    retry("retrying", "connRetrying", Math.min(10, Math.ceil(app.roomRetry / 2)));
  };
  const refuse = (words) => {
    app.roomLink = "refused";
    showConnection("refused", words);
    if (!app.state && app.page !== lobbyMode) $("status").textContent = words;
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
      if (code && check.room === false && !(app.room && app.room.code)) {
        app.roomLink = "refused";
        return offerRoomMaker(() => t("room_no_such_room"));
      }
      if (code && check.room === false) return refuse(t("room_no_such_room"));
      if (!check.admitted) {
        app.roomRefusals += 1;
        if (app.roomRefusals > 8) return refuse(t("connGaveUp", { tries: app.roomRefusals - 1 }));
        return retry("retrying", check.why === "address" ? "connAddress" : "connBusy", 15);
      }
      return plain();
    })
    .catch(plain);
}

/** The room maker's and the room's controls. */
export function setUpRoom() {
  $("create-room").onclick = () => {
    const query = new URLSearchParams({ mode: "friend", room: "new" });
    for (const key of ruleKeys(app.ruleOptions)) if ($(key) && $(key).value) query.set(key, $(key).value);
    query.set("clock", $("room-clock").value);
    query.set("side", $("room-side").value);
    location.search = `?${query}`;
  };
  $("copy-room").onclick = () => {
    copyText($("room-link").value, $("room-link"));
  };
  $("room-name").onchange = () => {
    const name = $("room-name").value.trim().slice(0, 40);
    saveText(NAME_KEY, name);
    send({ type: "name", name });
  };
  $("rematch").onclick = () => send({ type: "rematch" });
  // The turn is told in the background only if the person allows it.
  $("board").addEventListener("click", () => {
    if (app.room && "Notification" in window && Notification.permission === "default") Notification.requestPermission().catch(() => {});
  }, { once: true });
}

// A list of values in the page's language: "1 or 2", "slide, jump or both".
function oneOf(values) {
  return values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")} ${t("listOr")} ${values[values.length - 1]}`;
}

// An address that makes or opens no room: its sentence, and the room
// maker in its place.
function offerRoomMaker(words) {
  app.addressErrors.push(words);
  document.body.classList.remove("room");
  $("room").hidden = true;
  app.page = lobbyMode;
  startLobby();
}

// A room server's refusal, worded from the table by its kind (an illegal
// move by its typed reason). A rule choice the server refuses came from
// the address: it is named, and the room maker is offered instead.
function onError(message) {
  const beforeRoom = !(app.room && app.room.code);
  if (message.kind === "rules" && message.option && message.value !== undefined && beforeRoom) {
    const values = { option: message.option, value: message.value, expected: oneOf(message.expected || []) };
    offerRoomMaker(() => t("addressBadRule", values));
  } else if (beforeRoom && (message.kind === "clock" || message.kind === "no_such_room")) {
    // The address's clock, or its room, is refused: said, and the room
    // maker offered, instead of "Connecting…" over an empty board.
    offerRoomMaker(() => t("room_" + message.kind));
  } else if (message.kind === "illegal_move" && message.reason) sayError(() => t(...reasonWords(message)));
  else if (message.kind && t("room_" + message.kind) !== "room_" + message.kind) sayError(() => t("room_" + message.kind));
  else return false;
  return true;
}

// The end of a game: a room server has no engine to review with; the
// game is stepped through in the room, and a rematch offered.
function hint() {
  const state = app.state;
  return state.over && state.moves.length ? t("hintOverRoom") : undefined;
}

/** A room's hooks (see app.js). */
export const roomMode = {
  name: "room",
  start: startRoom,
  canMove: () => true,
  submit: roomMove,
  // The server referees: it says why (not your turn, a spectator, an
  // illegal move) in words of its kind.
  unlisted: (move) => { roomMove(move); return true; },
  onState: onRoomState,
  onRoom: onRoomMessage,
  onError,
  onClose: roomReconnect,
  render: renderRoom,
  hint,
  // A seated player's result says "you".
  yourSide: () => (app.room && ["south", "north"].includes(app.room.seat) ? app.room.seat : null),
  playerName: (side) => (Array.isArray((app.room || {}).names) ? app.room.names[side === "south" ? 0 : 1] || "" : ""),
  // A room's game is the server's: it is shown at its last move while it
  // is played; once over, each page steps through it on its own.
  get keys() { return Boolean(app.state && app.state.over); },
  get browse() { return Boolean(app.state && app.state.over); },
};

/** The lobby's hooks: the room maker, shown at once, with no game to wait
 * for; the socket only brings the rule options' values. */
export const lobbyMode = {
  name: "lobby",
  start: startLobby,
  canMove: () => false,
  submit: () => {},
  unlisted: () => false,
  keys: false,
  onClose: (connect) => { if (!app.ruleOptions.length) roomReconnect(connect); },
  render: () => { if (!app.state) $("status").textContent = t("lobbyStatus"); },
};
