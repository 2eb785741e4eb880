// The engine in a Web Worker, as stockfish.wasm runs: post protocol lines
// to it (strings), receive each line it prints as a message.
//   const worker = new Worker('worker.mjs', { type: 'module' });
//   worker.onmessage = event => console.log(event.data);
//   worker.postMessage('uci');
import { loadPasang } from './pasang.mjs';

// Lines posted while the module loads wait for it.
const early = [];
let engine = null;
self.onmessage = event => (engine ? engine.send(String(event.data)) : early.push(String(event.data)));
const pasang = await loadPasang(await fetch(new URL('./pasang.wasm', import.meta.url)));
engine = pasang.engine(line => postMessage(line));
for (const line of early.splice(0)) engine.send(line);
