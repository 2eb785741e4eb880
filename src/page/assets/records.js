// @ts-check
// Records: a record file opened (a file of several games offers a
// choice), and the game saved, as the session writes it.
import { MAX_RECORD_BYTES, app } from "./app-state.js";
import { $ } from "./dom.js";
import { t } from "./strings.js";
import { send } from "./transport.js";
import { sayError } from "./panel.js";

export function renderPicker() {
  const box = $("picker-games");
  box.textContent = "";
  $("picker").hidden = !app.games || app.games.games.length < 2;
  if (!app.games) return;
  $("picker-count").textContent = String(app.games.games.length);
  for (const g of app.games.games) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.game = String(g.game);
    const names = `${g.south || "?"} – ${g.north || "?"}`;
    button.textContent = t(g.annotated ? "pickerAnnotated" : "pickerGame", { game: g.game, names, result: g.result, plies: g.plies });
    button.classList.toggle("active", g.game === app.games.chosen);
    button.onclick = () => send({ type: "pick", game: g.game });
    box.appendChild(button);
  }
}

export function download(text, annotated) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = annotated ? "pasang-game-annotated.pgn" : "pasang-game.pgn";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function openRecord() {
  const file = $("load").files[0];
  if (!file) return;
  if (file.size > MAX_RECORD_BYTES) {
    sayError(() => t("tooLarge"));
    return;
  }
  app.games = null;
  renderPicker();
  file.text().then((text) => send({ type: "load", text, review: true }));
  $("load").value = "";
}

/** The record controls: open a file, save the game. */
export function setUpRecords() {
  $("load").onchange = openRecord;
  $("save").onclick = () => send({ type: "save" });
}
