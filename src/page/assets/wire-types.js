// @ts-check
// The wire's messages to the page, as JSDoc types for the type checker
// (`tsc --noEmit`, tests/page_script.rs): the session's (src/session/
// message.rs, src/page/wire.rs) and the room server's (src/serve/
// protocol.rs). Written by hand from those definitions, in one module, so
// that declarations generated from the Rust types can replace it. No code
// lives here: the modules import these types with `import("./wire-types.js")`.

/** @typedef {"south" | "north"} Side */

/**
 * One rule option of the engine's table, as `hello` carries it.
 * @typedef {object} RuleChoice
 * @property {string} field the page's field and the id of its select: `ka_entry`
 * @property {string} name the protocol's name, as lessons and puzzles write it: `Ka Entry`
 * @property {string[]} values its values, as the protocol writes them
 * @property {string} default its value unless chosen
 */

/**
 * The first message of a session or a room's socket.
 * @typedef {object} Hello
 * @property {"hello"} type
 * @property {string} engine the engine's name ("" where none plays)
 * @property {RuleChoice[]} rules every rule option, in the protocol's order
 */

/**
 * A move as the state lists it (legal, or the last played).
 * @typedef {object} MoveState
 * @property {string} move the move in full notation
 * @property {string[]} captures the points it captures
 * @property {number} points
 * @property {number} [file] a passage's file (phase 1)
 * @property {string} [from] a move's origin (phases 2 and 3)
 * @property {string} [to] a move's destination
 */

/**
 * @typedef {object} Over
 * @property {Side | null} winner
 * @property {"points" | "suntuk" | "time" | "resignation" | "abandonment"} reason
 */

/**
 * @typedef {object} ClockState
 * @property {number} south milliseconds left
 * @property {number} north
 * @property {Side | null} running
 * @property {number} minutes
 * @property {number} increment
 */

/**
 * Everything the page draws: the board (both servers) and, from a
 * session, its engine's settings.
 * @typedef {object} State
 * @property {"state"} type
 * @property {string} board
 * @property {Side} side the side to move
 * @property {number} phase 1, 2 or 3
 * @property {number[]} scores South's and North's points
 * @property {string} position the position on view
 * @property {string} start the game's start position
 * @property {string[]} moves
 * @property {number} cursor the ply on view
 * @property {MoveState[]} legal
 * @property {MoveState | null} last
 * @property {Over | null} over
 * @property {string} status the session's words (English)
 * @property {Record<string, string>} rules the page's fields to values
 * @property {string} [mode] play, analyse, watch, review, friend
 * @property {Side | null} [person]
 * @property {boolean} [running]
 * @property {number} [skill]
 * @property {number} [movetime]
 * @property {number} [multipv]
 * @property {boolean} [engine_ok]
 * @property {ClockState | null} [clock]
 * @property {boolean} [thinking]
 */

/**
 * The engine starts to search the position after `ply`.
 * @typedef {object} Search
 * @property {"search"} type
 * @property {"analyse" | "move"} purpose
 * @property {Side} side
 * @property {number} ply
 */

/**
 * One line of the engine's search.
 * @typedef {object} Info
 * @property {"info"} type
 * @property {number} multipv
 * @property {number} depth
 * @property {number | null} [nps]
 * @property {string} score
 * @property {number} south South's view of the score, centipoints
 * @property {string[]} pv
 * @property {Side} side
 * @property {number} ply
 */

/**
 * A refusal or a failure, by its `kind`; an illegal move carries the
 * rules core's typed `reason` (src/illegal.rs) and its fields.
 * @typedef {object} ErrorMessage
 * @property {"error"} type
 * @property {string} kind
 * @property {string} message the server's words (English)
 * @property {string} [tag] the part of the page's address refused
 * @property {string} [reason] an illegal move's reason, snake case
 * @property {string} [move]
 * @property {string} [field]
 * @property {number} [ply]
 * @property {string} [mode]
 */

/**
 * @typedef {object} RecordMessage
 * @property {"record"} type
 * @property {string} text
 * @property {boolean} [annotated]
 */

/**
 * @typedef {object} GameEntry
 * @property {number} game
 * @property {string | null} south
 * @property {string | null} north
 * @property {string | null} event
 * @property {string} result
 * @property {number} plies
 * @property {boolean} annotated
 */

/**
 * @typedef {object} Games
 * @property {"games"} type
 * @property {GameEntry[]} games
 * @property {number | null} chosen
 */

/**
 * How far the review has come; `game` is `pasang annotate --json`'s once done.
 * @typedef {object} Review
 * @property {"review"} type
 * @property {{ south: string | null, north: string | null }} players
 * @property {string} result
 * @property {boolean} running
 * @property {number} done
 * @property {number} total
 * @property {any[] | null} [partial]
 * @property {any} [game]
 */

/**
 * A room as this connection sees it (`pasang serve`).
 * @typedef {object} Room
 * @property {"room"} type
 * @property {string} room the code
 * @property {"south" | "north" | "spectator"} seat
 * @property {string} [token]
 * @property {number} game
 * @property {object} presence
 * @property {boolean[]} rematch
 * @property {(string | null)[]} names
 * @property {number} grace seconds a seat may be gone
 */

/** @typedef {Hello | State | Search | Info | ErrorMessage | RecordMessage | Games | Review | Room} ServerMessage */

export {};
