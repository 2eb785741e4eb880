// The page's messages, both ways, as the Rust types write and read them.
// Written by `cargo test --lib wire_d_ts` (src/page/wire.rs) with
// PASANG_WRITE_WIRE_TS=1; do not edit: a test fails when it is stale.

export type Inbound = { 
/**
 * The tag, if given and not blank.
 */
tag?: string, } & ({ "type": "new", 
/**
 * Rule options by page field (`ka_entry`, ...).
 */
rules?: { [key in string]: string }, 
/**
 * The start position.
 */
position?: string, } | { "type": "move", 
/**
 * The move.
 */
move: string, } | { "type": "goto", 
/**
 * The ply.
 */
ply: number, } | { "type": "takeback", } | { "type": "resign", } | { "type": "mode", 
/**
 * The mode.
 */
mode: ModeName, 
/**
 * The person's side in play.
 */
side?: SideName, } | { "type": "settings", 
/**
 * The engine's skill level, 0 to 20.
 */
skill?: number, 
/**
 * Time per engine move without a clock, 10 to 60,000 ms.
 */
movetime?: number, 
/**
 * Lines shown in analysis, 1 to 5.
 */
multipv?: number, 
/**
 * The clock's minutes per side, 0 (no clock) to 180.
 */
clock_minutes?: number, 
/**
 * The clock's increment, 0 to 60 seconds.
 */
clock_increment?: number, } | { "type": "run", 
/**
 * Whether it runs.
 */
on: boolean, } | { "type": "load", 
/**
 * The file's text.
 */
text: string, 
/**
 * Whether to review it.
 */
review?: boolean, } | { "type": "pick", 
/**
 * The game's number.
 */
game?: number, } | { "type": "save", } | { "type": "names", 
/**
 * South's player.
 */
south?: string, 
/**
 * North's player.
 */
north?: string, });

export type SessionMessage = { "type": "new", 
/**
 * Rule options by page field (`ka_entry`, ...).
 */
rules?: { [key in string]: string }, 
/**
 * The start position.
 */
position?: string, } | { "type": "move", 
/**
 * The move.
 */
move: string, } | { "type": "goto", 
/**
 * The ply.
 */
ply: number, } | { "type": "takeback", } | { "type": "resign", } | { "type": "mode", 
/**
 * The mode.
 */
mode: ModeName, 
/**
 * The person's side in play.
 */
side?: SideName, } | { "type": "settings", 
/**
 * The engine's skill level, 0 to 20.
 */
skill?: number, 
/**
 * Time per engine move without a clock, 10 to 60,000 ms.
 */
movetime?: number, 
/**
 * Lines shown in analysis, 1 to 5.
 */
multipv?: number, 
/**
 * The clock's minutes per side, 0 (no clock) to 180.
 */
clock_minutes?: number, 
/**
 * The clock's increment, 0 to 60 seconds.
 */
clock_increment?: number, } | { "type": "run", 
/**
 * Whether it runs.
 */
on: boolean, } | { "type": "load", 
/**
 * The file's text.
 */
text: string, 
/**
 * Whether to review it.
 */
review?: boolean, } | { "type": "pick", 
/**
 * The game's number.
 */
game?: number, } | { "type": "save", } | { "type": "names", 
/**
 * South's player.
 */
south?: string, 
/**
 * North's player.
 */
north?: string, };

export type SideName = "south" | "north";

export type ModeName = "play" | "analyse" | "watch" | "review" | "friend";

export type PageMessage = { "type": "hello", 
/**
 * The engine's name, as it gave it.
 */
engine: string, 
/**
 * The rule options the page offers, from the one table that
 * spells them ([`crate::rules::RULE_OPTIONS`]).
 */
rules: Array<RuleChoice>, } | { "type": "state" } & StateMessage | { "type": "error" } & ErrorMessage | { "type": "search", 
/**
 * Why it searches.
 */
purpose: SearchPurpose, 
/**
 * The side to move there (the scores to come are its view).
 */
side: SideName, 
/**
 * The ply searched.
 */
ply: number, } | { "type": "info" } & InfoMessage | { "type": "record", 
/**
 * The record's text.
 */
text: string, 
/**
 * Whether it is the review's annotated record (left out if not).
 */
annotated?: boolean, } | { "type": "games", 
/**
 * Each game of the file.
 */
games: Array<GameEntry>, 
/**
 * The game on the board (from 1), once one is chosen.
 */
chosen: number | null, } | { "type": "review" } & ReviewMessage;

export type StateMessage = { 
/**
 * The mode's name.
 */
mode: ModeName, 
/**
 * The person's side in play mode.
 */
person: SideName | null, 
/**
 * Whether analysis or watching runs.
 */
running: boolean, 
/**
 * The engine's skill level in play.
 */
skill: number, 
/**
 * Time per engine move without a clock, ms.
 */
movetime: number, 
/**
 * Lines shown in analysis.
 */
multipv: number, 
/**
 * Whether the engine can be asked to search.
 */
engine_ok: boolean, 
/**
 * The clocks, if play has one.
 */
clock: ClockState | null, 
/**
 * Whether the engine is searching for a move.
 */
thinking: boolean, 
/**
 * The 121 points, a character each (as `d` shows them).
 */
board: string, 
/**
 * The side to move.
 */
side: SideName, 
/**
 * The phase (1, 2 or 3).
 */
phase: number, 
/**
 * South's and North's points.
 */
scores: [number, number], 
/**
 * The shown position's string.
 */
position: string, 
/**
 * The start position's string.
 */
start: string, 
/**
 * Every move of the game.
 */
moves: Array<string>, 
/**
 * The ply on view.
 */
cursor: number, 
/**
 * The moves the page may offer (none when they are not the
 * person's, or the game is over).
 */
legal: Array<MoveState>, 
/**
 * The move that led to the shown position.
 */
last: MoveState | null, 
/**
 * How the game ended, if it did.
 */
over: Over | null, 
/**
 * The status in words ("South to move", the result).
 */
status: string, 
/**
 * Each rule option's value by its page field.
 */
rules: { [key in string]: string }, };

export type ErrorMessage = { 
/**
 * What went wrong, in the session's (English) words.
 */
message: string, 
/**
 * The tag of the request refused (the part of the page's address it
 * came from), if it had one.
 */
tag?: string, } & ({ "kind": "malformed" } | { "kind": "bad_field", 
/**
 * The field's name in the message.
 */
field: string, } | { "kind": "bad_position" } | { "kind": "illegal_move", 
/**
 * The move as sent.
 */
move: string, } & ({ "reason": "not_a_move", 
/**
 * The text, shortened.
 */
text: string, } | { "reason": "game_over" } | { "reason": "passage_first" } | { "reason": "passage_mirror", 
/**
 * The file asked for.
 */
file: string, 
/**
 * South's file.
 */
south: string, } | { "reason": "passage_not_f" } | { "reason": "passage_opposite", 
/**
 * South's file.
 */
south: string, } | { "reason": "passage_empty", 
/**
 * The file asked for.
 */
file: string, } | { "reason": "passage_taken" } | { "reason": "entry_lands", 
/**
 * The passage's file.
 */
file: string, } | { "reason": "not_empty", 
/**
 * The point.
 */
point: string, } | { "reason": "entry_no_stone", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_slide_only", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_jump_only", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_jump_empty", 
/**
 * The point jumped over.
 */
over: string, } | { "reason": "entry_too_far" } | { "reason": "only_ka", 
/**
 * Where the ka stands.
 */
ka: string, } | { "reason": "rook_move" } | { "reason": "hole_wall" } | { "reason": "hole_stop" } | { "reason": "blocked", 
/**
 * The first point in the way.
 */
point: string, } | { "reason": "ambiguous", 
/**
 * The landing point.
 */
to: string, 
/**
 * The legal moves there, comma-separated.
 */
moves: string, } | { "reason": "other_lines", 
/**
 * The landing point.
 */
to: string, 
/**
 * The legal moves there, comma-separated.
 */
moves: string, } | { "reason": "even_line", 
/**
 * The landing point.
 */
to: string, } | { "reason": "no_capture", 
/**
 * The landing point.
 */
to: string, }) | { "kind": "game_over" } | { "kind": "no_such_ply", 
/**
 * The ply asked for.
 */
ply: number, } | { "kind": "bad_record" } | { "kind": "engines_turn" } | { "kind": "reviewing" } | { "kind": "no_engine", 
/**
 * The mode asked for (`review` for a record's review).
 */
mode: string, } | { "kind": "engine" } | { "kind": "review" });

export type ErrorKind = { "kind": "malformed" } | { "kind": "bad_field", 
/**
 * The field's name in the message.
 */
field: string, } | { "kind": "bad_position" } | { "kind": "illegal_move", 
/**
 * The move as sent.
 */
move: string, } & ({ "reason": "not_a_move", 
/**
 * The text, shortened.
 */
text: string, } | { "reason": "game_over" } | { "reason": "passage_first" } | { "reason": "passage_mirror", 
/**
 * The file asked for.
 */
file: string, 
/**
 * South's file.
 */
south: string, } | { "reason": "passage_not_f" } | { "reason": "passage_opposite", 
/**
 * South's file.
 */
south: string, } | { "reason": "passage_empty", 
/**
 * The file asked for.
 */
file: string, } | { "reason": "passage_taken" } | { "reason": "entry_lands", 
/**
 * The passage's file.
 */
file: string, } | { "reason": "not_empty", 
/**
 * The point.
 */
point: string, } | { "reason": "entry_no_stone", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_slide_only", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_jump_only", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_jump_empty", 
/**
 * The point jumped over.
 */
over: string, } | { "reason": "entry_too_far" } | { "reason": "only_ka", 
/**
 * Where the ka stands.
 */
ka: string, } | { "reason": "rook_move" } | { "reason": "hole_wall" } | { "reason": "hole_stop" } | { "reason": "blocked", 
/**
 * The first point in the way.
 */
point: string, } | { "reason": "ambiguous", 
/**
 * The landing point.
 */
to: string, 
/**
 * The legal moves there, comma-separated.
 */
moves: string, } | { "reason": "other_lines", 
/**
 * The landing point.
 */
to: string, 
/**
 * The legal moves there, comma-separated.
 */
moves: string, } | { "reason": "even_line", 
/**
 * The landing point.
 */
to: string, } | { "reason": "no_capture", 
/**
 * The landing point.
 */
to: string, }) | { "kind": "game_over" } | { "kind": "no_such_ply", 
/**
 * The ply asked for.
 */
ply: number, } | { "kind": "bad_record" } | { "kind": "engines_turn" } | { "kind": "reviewing" } | { "kind": "no_engine", 
/**
 * The mode asked for (`review` for a record's review).
 */
mode: string, } | { "kind": "engine" } | { "kind": "review" };

export type Illegal = { "reason": "not_a_move", 
/**
 * The text, shortened.
 */
text: string, } | { "reason": "game_over" } | { "reason": "passage_first" } | { "reason": "passage_mirror", 
/**
 * The file asked for.
 */
file: string, 
/**
 * South's file.
 */
south: string, } | { "reason": "passage_not_f" } | { "reason": "passage_opposite", 
/**
 * South's file.
 */
south: string, } | { "reason": "passage_empty", 
/**
 * The file asked for.
 */
file: string, } | { "reason": "passage_taken" } | { "reason": "entry_lands", 
/**
 * The passage's file.
 */
file: string, } | { "reason": "not_empty", 
/**
 * The point.
 */
point: string, } | { "reason": "entry_no_stone", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_slide_only", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_jump_only", 
/**
 * The point.
 */
from: string, } | { "reason": "entry_jump_empty", 
/**
 * The point jumped over.
 */
over: string, } | { "reason": "entry_too_far" } | { "reason": "only_ka", 
/**
 * Where the ka stands.
 */
ka: string, } | { "reason": "rook_move" } | { "reason": "hole_wall" } | { "reason": "hole_stop" } | { "reason": "blocked", 
/**
 * The first point in the way.
 */
point: string, } | { "reason": "ambiguous", 
/**
 * The landing point.
 */
to: string, 
/**
 * The legal moves there, comma-separated.
 */
moves: string, } | { "reason": "other_lines", 
/**
 * The landing point.
 */
to: string, 
/**
 * The legal moves there, comma-separated.
 */
moves: string, } | { "reason": "even_line", 
/**
 * The landing point.
 */
to: string, } | { "reason": "no_capture", 
/**
 * The landing point.
 */
to: string, };

export type SearchPurpose = "move" | "analyse";

export type InfoMessage = { 
/**
 * The line's number (1 the best).
 */
multipv: number, 
/**
 * The depth searched.
 */
depth: number, 
/**
 * Nodes per second, if the engine said.
 */
nps: number | null, 
/**
 * The score as South sees it (`+1.50`, `-#2`).
 */
score: string, 
/**
 * The score for the evaluation bar (mates as +-100,000).
 */
south: number, 
/**
 * The line's legal moves.
 */
pv: Array<string>, 
/**
 * The side to move in the searched position.
 */
side: SideName, 
/**
 * The ply searched.
 */
ply: number, };

export type GameEntry = { 
/**
 * Its number, from 1.
 */
game: number, 
/**
 * Who played South.
 */
south: string | null, 
/**
 * Who played North.
 */
north: string | null, 
/**
 * The event.
 */
event: string | null, 
/**
 * Its result token.
 */
result: string, 
/**
 * Its length in plies.
 */
plies: number, 
/**
 * Whether it carries a review.
 */
annotated: boolean, };

export type ReviewMessage = { 
/**
 * The players' names.
 */
players: Players, 
/**
 * The game's result token.
 */
result: string, 
/**
 * Whether the search still runs.
 */
running: boolean, 
/**
 * Positions searched.
 */
done: number, 
/**
 * Positions to search.
 */
total: number, 
/**
 * While it runs, what is known of each position (per ply from 0).
 */
partial: Array<Standing | null> | null, 
/**
 * Once done, the review as `pasang annotate --json` gives it (that
 * command's own JSON, [`crate::review::ReviewJson`]).
 */
game: ReviewJson | null, };

export type Players = { 
/**
 * South's.
 */
south: string | null, 
/**
 * North's.
 */
north: string | null, };

export type Standing = { 
/**
 * South's winning chances, percent to a tenth.
 */
win: number, 
/**
 * The evaluation in words (English).
 */
text: string, 
/**
 * The evaluation as `pasang annotate --json` gives it, for the page
 * to word in its language.
 */
eval: EvalJson, };

export type ReviewJson = { 
/**
 * Each move of the game, judged.
 */
plies: Array<PlyJson>, 
/**
 * The game's result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
 */
result: string, 
/**
 * The start position and its evaluation.
 */
start: StartJson, 
/**
 * Each side's figures.
 */
summary: SummaryJson, 
/**
 * The annotated record's tags, by name.
 */
tags: { [key in string]: string }, };

export type PlyJson = { 
/**
 * Its accuracy, 0-100 (`null` for a book ply).
 */
accuracy: number | null, 
/**
 * The engine's choice where it is strictly better than the move
 * played (`null` where the drop is 0).
 */
best: BestJson | null, 
/**
 * Whether the record calls it an opening (book) move.
 */
book: boolean, 
/**
 * The depth of the evaluation after it (0: the game ended).
 */
depth: number, 
/**
 * The mover's fall in winning chances, in points.
 */
drop: number, 
/**
 * The evaluation after it.
 */
eval: EvalJson, 
/**
 * Its mark: `?!`, `?` or `??`, or `null`.
 */
mark: string | null, 
/**
 * The move, in the notation.
 */
move: string, 
/**
 * The ply, from 1.
 */
ply: number, 
/**
 * Who played it: `south` or `north`.
 */
side: string, 
/**
 * South's winning chances after it, in percent.
 */
south_win_percent: number, };

export type BestJson = { 
/**
 * The evaluation with it.
 */
eval: EvalJson, 
/**
 * The engine's line, starting with the move.
 */
line: Array<string>, 
/**
 * The move.
 */
move: string, };

export type StartJson = { 
/**
 * The depth of its evaluation.
 */
depth: number, 
/**
 * Its evaluation.
 */
eval: EvalJson, 
/**
 * Its position string.
 */
position: string, 
/**
 * South's winning chances there, in percent.
 */
south_win_percent: number, };

export type SummaryJson = { 
/**
 * North's.
 */
north: SideJson, 
/**
 * South's.
 */
south: SideJson, };

export type SideJson = { 
/**
 * Game accuracy, 0-100 (`null`: no judged move).
 */
accuracy: number | null, 
/**
 * Moves marked `??`.
 */
blunders: number, 
/**
 * Moves marked `?!`.
 */
inaccuracies: number, 
/**
 * Moves marked `?`.
 */
mistakes: number, 
/**
 * The side's name from the record's tags, if it has one.
 */
name: string | null, };

export type EvalJson = { 
/**
 * 100 x the expected final point margin, South minus North.
 */
cp: number, 
/**
 * The score in words.
 */
text: string, } | { 
/**
 * The winner's moves still to play.
 */
moves: number, 
/**
 * The win in words.
 */
text: string, 
/**
 * `south` or `north`.
 */
winner: string, } | { 
/**
 * Always `true`.
 */
draw: boolean, 
/**
 * The draw in words.
 */
text: string, } | { 
/**
 * Its result token.
 */
result: string, 
/**
 * The result in words.
 */
text: string, };

export type RuleChoice = { 
/**
 * The page field, e.g. `ka_entry`.
 */
field: string, 
/**
 * Its values, as the protocol writes them.
 */
values: Array<string>, 
/**
 * The value it has unless chosen.
 */
default: string, 
/**
 * The protocol's option name, e.g. `Ka Entry`, as lessons and
 * puzzles name their options (the page maps them to fields by it).
 */
name: string, 
/**
 * Its name in English and Malay.
 */
words: Words, 
/**
 * Each value's words, in the order of `values`.
 */
value_words: Array<Words>, };

export type Words = { 
/**
 * English.
 */
en: string, 
/**
 * Malay.
 */
ms: string, };

export type BoardState = { 
/**
 * The 121 points, a character each (as `d` shows them).
 */
board: string, 
/**
 * The side to move.
 */
side: SideName, 
/**
 * The phase (1, 2 or 3).
 */
phase: number, 
/**
 * South's and North's points.
 */
scores: [number, number], 
/**
 * The shown position's string.
 */
position: string, 
/**
 * The start position's string.
 */
start: string, 
/**
 * Every move of the game.
 */
moves: Array<string>, 
/**
 * The ply on view.
 */
cursor: number, 
/**
 * The moves the page may offer (none when they are not the
 * person's, or the game is over).
 */
legal: Array<MoveState>, 
/**
 * The move that led to the shown position.
 */
last: MoveState | null, 
/**
 * How the game ended, if it did.
 */
over: Over | null, 
/**
 * The status in words ("South to move", the result).
 */
status: string, 
/**
 * Each rule option's value by its page field.
 */
rules: { [key in string]: string }, };

export type MoveState = { 
/**
 * Its notation.
 */
move: string, 
/**
 * The points whose stones it takes.
 */
captures: Array<string>, 
/**
 * The points it scores.
 */
points: number, } & ({ 
/**
 * The file, from 0.
 */
file: number, } | { 
/**
 * The point left.
 */
from: string, 
/**
 * The point reached.
 */
to: string, });

export type MovePlace = { 
/**
 * The file, from 0.
 */
file: number, } | { 
/**
 * The point left.
 */
from: string, 
/**
 * The point reached.
 */
to: string, };

export type Over = { 
/**
 * The winner (none for a draw).
 */
winner: SideName | null, 
/**
 * Why it ended.
 */
reason: OverReason, };

export type OverReason = "points" | "suntuk" | "time" | "resignation" | "abandonment";

export type ClockState = { 
/**
 * South's time left, ms.
 */
south: number, 
/**
 * North's time left, ms.
 */
north: number, 
/**
 * The running clock's side.
 */
running: SideName | null, 
/**
 * The time control's minutes per side.
 */
minutes: number, 
/**
 * Its increment, seconds.
 */
increment: number, };

export type ClientMessage = { "type": "create", 
/**
 * Rule options by page field (missing ones keep the default).
 */
rules?: { [key in string]: string }, 
/**
 * The clock, or none.
 */
clock?: ClockControl, 
/**
 * The creator's seat.
 */
side?: SideChoice, } | { "type": "join", 
/**
 * The room's code.
 */
room: string, 
/**
 * A seat token kept from before.
 */
token?: string, } | { "type": "move", 
/**
 * The move in the project's notation.
 */
move: string, 
/**
 * The ply it makes, from 1.
 */
ply?: number, } | { "type": "resign", } | { "type": "rematch", } | { "type": "name", 
/**
 * The name.
 */
name: string, } | { "type": "goto", 
/**
 * The ply to show.
 */
ply: number, };

export type SideChoice = "south" | "north" | "random";

export type ClockControl = { 
/**
 * Minutes per side, 1 to 180.
 */
minutes: number, 
/**
 * Seconds added after each move, 0 to 180.
 */
increment: number, };

export type ServerMessage = { "type": "hello", 
/**
 * No engine plays in a room.
 */
engine: string, 
/**
 * The rule options the page offers.
 */
rules: Array<RuleChoice>, } | { "type": "room", 
/**
 * The room's code.
 */
room: string, 
/**
 * This connection's seat.
 */
seat: SeatName, 
/**
 * The seat's token (to the seat's own connection only).
 */
token?: string, 
/**
 * The game's number in the room, from 1.
 */
game: number, 
/**
 * Who is here.
 */
presence: Presence, 
/**
 * Rematch offers: South's, North's.
 */
rematch: [boolean, boolean], 
/**
 * The players' names where given: South's, North's.
 */
names: [string | null, string | null], 
/**
 * The grace an absent player has, seconds.
 */
grace: number, } | { "type": "state" } & RoomState | { "type": "error", 
/**
 * The kind of refusal (`not_your_turn`, `spectator`, ...).
 */
kind: string, 
/**
 * What was wrong, in words.
 */
message: string, };

export type SeatName = "south" | "north" | "spectator";

export type Side = "south" | "north";

export type Presence = { 
/**
 * Whether South's seat is taken.
 */
south_taken: boolean, 
/**
 * Whether North's seat is taken.
 */
north_taken: boolean, 
/**
 * Whether South's player is connected.
 */
south_here: boolean, 
/**
 * Whether North's player is connected.
 */
north_here: boolean, 
/**
 * Spectators connected.
 */
spectators: number, };

export type RuleRefusal = { 
/**
 * The option as the page names it (`pattern`, `ka_entry`, ...).
 */
option: string, 
/**
 * The value given (absent when the option itself is unknown).
 */
value?: string, 
/**
 * The values the option takes (empty when it is unknown).
 */
expected: Array<string>, };

export type RoomState = { 
/**
 * Always `friend`.
 */
mode: ModeName, 
/**
 * The connection's seat (none for a spectator).
 */
person: Side | null, 
/**
 * The clocks, if the room has one.
 */
clock: ClockState | null, 
/**
 * The 121 points, a character each (as `d` shows them).
 */
board: string, 
/**
 * The side to move.
 */
side: SideName, 
/**
 * The phase (1, 2 or 3).
 */
phase: number, 
/**
 * South's and North's points.
 */
scores: [number, number], 
/**
 * The shown position's string.
 */
position: string, 
/**
 * The start position's string.
 */
start: string, 
/**
 * Every move of the game.
 */
moves: Array<string>, 
/**
 * The ply on view.
 */
cursor: number, 
/**
 * The moves the page may offer (none when they are not the
 * person's, or the game is over).
 */
legal: Array<MoveState>, 
/**
 * The move that led to the shown position.
 */
last: MoveState | null, 
/**
 * How the game ended, if it did.
 */
over: Over | null, 
/**
 * The status in words ("South to move", the result).
 */
status: string, 
/**
 * Each rule option's value by its page field.
 */
rules: { [key in string]: string }, };

/** A room's `error` with what its kind carries beside: an `illegal_move`'s `reason` and fields, a `rules` refusal's option. */
export type RoomError = Extract<ServerMessage, { type: "error" }> & (Illegal | {}) & (RuleRefusal | {});
