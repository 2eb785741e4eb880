// The static page's Web Worker: the board's session (the same Rust code as
// behind `pasang gui`'s WebSocket) with its engine, in WebAssembly. The
// page posts its JSON messages as text and receives the session's.
import { loadPasang } from './pasang.mjs';

// Messages posted while the module loads wait for it, in order.
const early = [];
let session = null;
self.onmessage = event => (session ? session.send(String(event.data)) : early.push(String(event.data)));
const pasang = await loadPasang(await fetch(new URL('./pasang.wasm', import.meta.url)));
session = pasang.boardSession(message => postMessage(message));
for (const message of early.splice(0)) session.send(message);
