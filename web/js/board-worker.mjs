// The static page's Web Worker: the board's session (the same Rust code as
// behind `pasang gui`'s WebSocket) with its engine, in WebAssembly. The
// page posts its JSON messages as text and receives the session's.
import { serveInWorker } from './pasang.mjs';

await serveInWorker(new URL('./pasang.wasm', import.meta.url), (pasang, post) => pasang.boardSession(post));
