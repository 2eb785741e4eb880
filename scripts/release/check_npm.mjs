// Run by scripts/release.sh in an empty folder where the npm tarball was
// installed: the package as a user gets it, no repository around.
// A game to its end through the typed API, then the engine's bestmove at
// depth 6.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadPasang, PasangError } from 'pasang-engine';

const wasm = fileURLToPath(new URL('./pasang.wasm', import.meta.resolve('pasang-engine')));
const pasang = await loadPasang(await readFile(wasm));

// A game of seeded random moves (a fixed game), to its end.
const board = pasang.board();
let seed = 7;
while (!board.isGameOver()) {
  const moves = board.legalMoves();
  seed = (seed * 1103515245 + 12345) % 2147483648;
  board.push(moves[seed % moves.length]);
}
if (board.result() === '*') throw new Error(`the game is over but its result is '*'`);
try {
  board.push('a1a2');
  throw new Error('a move after the end was taken');
} catch (error) {
  if (!(error instanceof PasangError)) throw error;
}
console.log(`a game of ${board.moveStack().length} plies: ${board.result()} (${board.status()})`);
board.delete();

// The engine: lines in, lines out.
const lines = [];
let answer;
const bestmove = new Promise(resolve => { answer = resolve; });
const engine = pasang.engine(line => {
  lines.push(line);
  if (line.startsWith('bestmove')) answer(line);
});
engine.send('uci');
engine.send('position startpos moves c j');
engine.send('go depth 6');
const timeout = setTimeout(() => { throw new Error(`no bestmove in 60 s:\n${lines.join('\n')}`); }, 60000);
const best = await bestmove;
clearTimeout(timeout);
if (!lines.some(line => line.startsWith('id name pasang '))) throw new Error('no id name line');
if (!lines.some(line => / depth 6 /.test(line))) throw new Error(`no depth 6 line:\n${lines.join('\n')}`);
console.log(`${lines.find(line => line.startsWith('id name'))}; at depth 6: ${best}`);
engine.send('quit');
await engine.ended;
