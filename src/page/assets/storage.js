// @ts-check
// What the page keeps in the browser (localStorage): read and written in
// one place, so that a browser with no storage, or a value that is not
// what it was, costs nothing but the kept value.

/** The JSON object kept under `key`, or `fallback` (none, or not an object). */
export function loadJson(key, fallback) {
  try {
    const kept = JSON.parse(localStorage.getItem(key));
    return kept && typeof kept === "object" ? kept : fallback;
  } catch (_) {
    return fallback;
  }
}

/** Keeps `value` as JSON under `key`. */
export function saveJson(key, value) {
  saveText(key, JSON.stringify(value));
}

/** The text kept under `key`, or "". */
export function loadText(key) {
  try { return localStorage.getItem(key) || ""; } catch (_) { return ""; }
}

/** Keeps `text` under `key`. */
export function saveText(key, text) {
  try { localStorage.setItem(key, text); } catch (_) { /* no storage */ }
}
