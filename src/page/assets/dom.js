// @ts-check
// The page's elements: found by id, made (HTML and SVG), and what the
// page's address and its server say.
const SVG = "http://www.w3.org/2000/svg";

/**
 * The page's element with id `id`. Typed as an input, the widest of the
 * kinds the page looks up by id (its selects, buttons and links are cast
 * where a property of theirs alone is read).
 * @param {string} id
 * @returns {HTMLInputElement}
 */
export const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** The page's address's query (empty outside a browser: the unit tests). */
export const params = new URLSearchParams(typeof location === "undefined" ? "" : location.search);

/** An SVG element with `attrs`, appended to `parent` if given. */
export function el(tag, attrs, parent) {
  const made = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) made.setAttribute(key, value);
  if (parent) parent.appendChild(made);
  return made;
}

/** An HTML element with `attrs` and `text`, appended to `parent` if given. */
export function node(tag, attrs, text, parent) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) made.setAttribute(key, value);
  if (text !== undefined && text !== null) made.textContent = text;
  if (parent) parent.appendChild(made);
  return made;
}

/** Whether the page came from a room server (`pasang serve` marks it data-rooms). */
export function roomServer() {
  return document.documentElement.dataset.rooms !== undefined;
}

/** Whether the page's session is the static site's Web Worker. */
export function workerTransport() {
  return document.documentElement.dataset.transport === "worker";
}

/** Whether the address names a room of this room server (room=new makes one). */
export function roomAddress() {
  return roomServer() && params.has("room") && (params.get("mode") || "").toLowerCase() === "friend";
}
