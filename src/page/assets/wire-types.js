// @ts-check
// The wire's messages to the page, as JSDoc types for the type checker
// (`tsc --noEmit`, tests/page_script.rs). They are the declarations
// generated from the Rust types (wire.d.ts, kept current by the unit
// test `wire_d_ts_is_current`), named here as the page's modules use
// them: the session's messages (`PageMessage`) and the room server's
// (`ServerMessage`). No code lives here.

/** @typedef {import("./wire").PageMessage} SessionMessage */
/** @typedef {import("./wire").ServerMessage} RoomMessage */
/** @typedef {import("./wire").Side} Side */
/** @typedef {import("./wire").RuleChoice} RuleChoice */
/**
 * A move as the state lists it; its place (a passage's file, or a move's
 * origin and destination) is one of two shapes, read by which is there.
 * @typedef {import("./wire").MoveState & Partial<{ file: number, from: string, to: string }>} MoveState
 */
/** @typedef {import("./wire").Over} Over */
/** @typedef {import("./wire").ClockState} ClockState */
/** @typedef {import("./wire").GameEntry} GameEntry */
/** @typedef {Extract<SessionMessage, { type: "hello" }> | Extract<RoomMessage, { type: "hello" }>} Hello */
/**
 * Everything the page draws: the board (both servers) and, from a
 * session, its engine's settings (absent in a room's state).
 * @typedef {{ type: "state", legal: MoveState[], last: MoveState | null } & Omit<import("./wire").RoomState, "legal" | "last"> & Partial<Omit<import("./wire").StateMessage, keyof import("./wire").RoomState>>} State
 */
/** @typedef {Extract<SessionMessage, { type: "search" }>} Search */
/** @typedef {{ type: "info" } & import("./wire").InfoMessage} Info */
/**
 * A refusal, from either server: the session's carry the typed reason
 * and its fields, the room's its kind and words.
 * @typedef {Extract<SessionMessage, { type: "error" }> | (import("./wire").RoomError & { tag?: undefined })} ErrorMessage
 */
/** @typedef {Extract<SessionMessage, { type: "record" }>} RecordMessage */
/** @typedef {Extract<SessionMessage, { type: "games" }>} Games */
/** @typedef {{ type: "review" } & import("./wire").ReviewMessage} Review */
/** @typedef {Extract<RoomMessage, { type: "room" }>} Room */
/** @typedef {Hello | State | Search | Info | ErrorMessage | RecordMessage | Games | Review | Room} ServerMessage */

export {};
