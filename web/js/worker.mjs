// The engine in a Web Worker, as stockfish.wasm runs: post protocol lines
// to it (strings), receive each line it prints as a message.
//   const worker = new Worker('worker.mjs', { type: 'module' });
//   worker.onmessage = event => console.log(event.data);
//   worker.postMessage('uci');
import { serveInWorker } from './pasang.mjs';

await serveInWorker(new URL('./pasang.wasm', import.meta.url), (pasang, post) => pasang.engine(post));
