// The typed rules API in Node: legal moves, play, undo, result, bad input.
// Run by tests/web.rs as: node web/tests/board.mjs web/dist <native moves>
// where <native moves> is the native engine's `moves` answer at the start.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = resolve(process.argv[2]);
const nativeStartMoves = process.argv[3].split(' ');
const { loadPasang, PasangError, encodeMove, decodeAction } = await import(pathToFileURL(join(dist, 'pasang.mjs')));
const pasang = await loadPasang(await readFile(join(dist, 'pasang.wasm')));

const board = pasang.board();
assert.deepEqual(board.legalMoves(), nativeStartMoves);
assert.equal(board.turn(), 'south');
assert.equal(board.phase(), 1);
assert.deepEqual(board.scores(), { south: 0, north: 0 });
assert.equal(board.result(), '*');
assert.equal(board.status(), 'none');
const start = board.fen();

// An illegal move throws the engine's message and changes nothing.
assert.throws(() => board.push('a1a2'), error => error instanceof PasangError && /a1a2/.test(error.message));
assert.throws(() => board.push('zz'), PasangError);
assert.equal(board.fen(), start);
assert.throws(() => board.pop(), /no move to undo/);

// Play, undo.
const first = board.legalMoves()[0];
assert.equal(board.push(first), first);
assert.equal(board.turn(), 'north');
assert.deepEqual(board.moveStack(), [first]);
assert.equal(board.pop(), first);
assert.equal(board.fen(), start);

// The rule options come from the engine's table: every board's rules name
// them all, each at its default on a new board.
const options = pasang.ruleOptions();
assert.deepEqual(options.map((o) => o.name), Object.keys(pasang.board().rules()));
for (const option of options) {
  assert.equal(pasang.board().rules()[option.name], option.default);
  assert.ok(option.values.includes(option.default));
}

// Bad boards: a malformed position string, an unknown option or value.
assert.throws(() => pasang.board({ fen: 'not a position' }), PasangError);
assert.throws(() => pasang.board({ rules: { 'Ka Entry': 'sideways' } }), /sideways/);
assert.throws(() => pasang.board({ rules: { Colour: 'blue' } }), /no rule option 'Colour'/);
assert.equal(pasang.board({ rules: { 'Ka Entry': 'jump' } }).rules()['Ka Entry'], 'jump');

// A game to its end, always the first legal move: a result, no moves.
const game = pasang.board({ rules: { Pattern: '2' } });
let plies = 0;
while (!game.isGameOver()) {
  game.push(game.legalMoves()[0]);
  plies += 1;
  assert.ok(plies < 2000, 'the game ends');
}
assert.match(game.result(), /^(1-0|0-1|1\/2-1\/2)$/);
assert.match(game.status(), /^(south|north|draw) (score|suntuk) \d+-\d+$/);
const winner = game.status().split(' ')[0];
assert.equal(game.result(), { south: '1-0', north: '0-1', draw: '1/2-1/2' }[winner]);
assert.deepEqual(game.legalMoves(), []);

// delete() frees a board at once; a deleted board refuses every call.
const gone = pasang.board();
gone.delete();
gone.delete();
assert.throws(() => gone.fen(), /deleted/);

// Memory: 200,000 boards made and deleted leave the module's memory where
// the first few thousand took it. Boards made and forgotten are freed by
// the FinalizationRegistry once collected: after the first round of them
// (WebAssembly memory grows and never shrinks) the next rounds reuse it.
const memory = () => pasang.memoryBytes();
for (let i = 0; i < 5000; i += 1) pasang.board().delete();
const settled = memory();
for (let i = 0; i < 200000; i += 1) { const b = pasang.board(); b.push(b.legalMoves()[0]); b.delete(); }
assert.equal(memory(), settled, 'deleted boards give their memory back');
if (typeof globalThis.gc === 'function') {
  const round = async () => {
    for (let i = 0; i < 50000; i += 1) pasang.board().push('c');
    for (let pass = 0; pass < 3; pass += 1) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await round();
  const highWater = memory();
  for (let i = 0; i < 3; i += 1) await round();
  // Without the registry each round would grow it by a round's worth again.
  const round1 = highWater - settled;
  assert.ok(memory() - highWater < round1 / 4,
    `forgotten boards are freed and their memory reused: ${memory()} bytes after four rounds, ${highWater} after one`);
}
console.log(`board API ok: ${plies} plies to '${game.result()}' (${game.status()}); memory ${memory()} bytes`);

// A game by action ids: each legal move has its own id, and pushAction
// plays the move of the id; an id with no legal move throws.
const byIds = pasang.board({ rules: { 'Ka Entry': 'both' } });
let seed = 57;
while (!byIds.isGameOver()) {
  const moves = byIds.legalMoves();
  const ids = byIds.legalActions();
  assert.equal(new Set(ids).size, moves.length);
  ids.forEach((id, index) => assert.equal(decodeAction(id, byIds), moves[index]));
  seed = (seed * 1103515245 + 12345) % 2147483648;
  const id = ids[seed % ids.length];
  assert.equal(byIds.pushAction(id), moves[ids.indexOf(id)]);
}
const fresh = pasang.board();
assert.throws(() => fresh.pushAction(encodeMove('b4c4n')), /not legal in this position/);
assert.equal(fresh.moveStack().length, 0);
