// @ts-check
// The page's one connection: the session behind it (`pasang gui`'s, over
// its WebSocket, or, on the static site, the same session compiled to
// WebAssembly in a Web Worker), or a room server's socket. All take and
// give JSON messages.
import { app } from "./app-state.js";
import { workerTransport } from "./dom.js";

/** Sends `message` if the connection is open (else it is dropped: the
 * page sends its game again when it reconnects). */
export function send(message) {
  if (app.socket && app.socket.open) app.socket.send(JSON.stringify(message));
}

/**
 * Opens the connection: the server's socket at `path` (`/ws`, a room's
 * `/ws?room=CODE`, or a room server's rules session `/session`), or the
 * static site's worker. The caller sets onopen, onmessage, onclose and
 * onrestart (a worker replaced).
 */
export function openTransport(path) {
  const transport = { open: false, onopen: null, onmessage: null, onclose: null, onrestart: null };
  if (workerTransport()) {
    // A worker that dies (a trap in the engine, the browser reclaiming it)
    // is replaced, and the page plays its game into the new one; one that
    // dies again at once is given up on, and the page says so.
    let restarts = [];
    const start = () => {
      const worker = new Worker("board-worker.mjs", { type: "module" });
      transport.send = (text) => worker.postMessage(text);
      worker.onmessage = (event) => transport.onmessage(event);
      worker.onerror = (event) => {
        if (event && event.preventDefault) event.preventDefault();
        worker.terminate();
        const now = Date.now();
        restarts = restarts.filter((when) => now - when < 10000);
        if (restarts.length >= 3) { transport.open = false; transport.onclose(); return; }
        restarts.push(now);
        start();
        transport.onrestart();
      };
    };
    start();
    // The worker keeps what is posted while it loads.
    transport.open = true;
    setTimeout(() => transport.onopen(), 0);
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});
    return transport;
  }
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`);
  transport.send = (text) => ws.send(text);
  ws.onmessage = (event) => transport.onmessage(event);
  ws.onopen = () => { transport.open = true; transport.onopen(); };
  ws.onclose = () => { transport.open = false; transport.onclose(); };
  return transport;
}
