// The rules as a typed API, in Node: node web/examples/rules.mjs
// (after web/build.sh, from the repository's top folder).
import { readFile } from 'node:fs/promises';
import { loadPasang, PasangError } from '../dist/pasang.mjs';

const pasang = await loadPasang(await readFile(new URL('../dist/pasang.wasm', import.meta.url)));
const board = pasang.board({ rules: { 'Ka Entry': 'jump' } });
console.log('legal moves at the start:', board.legalMoves().join(' '));
board.push('e');
console.log('after e:', board.turn(), 'to move,', board.fen());
console.log('undone:', board.pop());
try {
  board.push('a1a2');
} catch (error) {
  if (!(error instanceof PasangError)) throw error;
  console.log('refused:', error.message);
}
// A game of first legal moves, to its end.
while (!board.isGameOver()) board.push(board.legalMoves()[0]);
console.log(`${board.moveStack().length} plies: ${board.result()} (${board.status()})`);
board.delete();
