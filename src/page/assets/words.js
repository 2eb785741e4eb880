// @ts-check
// Words from the strings table for what the session and the room server
// send (refusals by their kind and typed reason) and for the clocks. Pure:
// Node's tests run them (panel.js says them on the page).
import { STRINGS, t } from "./strings.js";

/** A rule option's value in the page's language. */
export function ruleValueWords(value) {
  return STRINGS.en[`ruleValue_${value}`] ? t(`ruleValue_${value}`) : value;
}

// Reasons whose key in the table is not their own name in camel case.
const REASON_KEYS = { not_a_move: "notAMove", game_over: "gameOverNoMove" };

/** The strings key and values of a refusal's typed reason (the rules
 * core's `reason` code and its fields). */
export function reasonWords(message) {
  const key = REASON_KEYS[message.reason] || message.reason.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  const values = { ...message, move: message.text || message.move, file: message.file || message.south };
  return [key, values];
}

/** A refusal or failure of the session in the page's words, by its kind;
 * what the rules core or the engine said stays as its detail. */
export function refusalWords(message) {
  switch (message.kind) {
    case "illegal_move":
      return message.reason ? t(...reasonWords(message)) : t("notAMove", { move: message.move });
    case "bad_field": return t("errorBadField", { field: message.field });
    case "bad_position": return t("errorBadPosition", { detail: message.message });
    case "game_over": return t("gameOverNoMove");
    case "no_such_ply": return t("errorNoSuchPly", { ply: message.ply });
    case "bad_record": return t("errorBadRecord", { detail: message.message });
    case "engines_turn": return t("enginesTurnWait");
    case "reviewing": return t("reviewNoMoves");
    case "malformed": return t("errorMalformed");
    case "engine": return t("errorEngine", { detail: message.message });
    case "no_engine": return t("errorNoEngine", { mode: message.mode });
    case "review": return t("errorReview", { detail: message.message });
    default: return message.message;
  }
}

/** A clock's reading: `m:ss`, the seconds rounded up (a clock shows 0:00
 * only once the time is gone).
 * @param {number} milliseconds */
export function clockText(milliseconds) {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
