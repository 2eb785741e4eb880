// The npm package as a web page's author uses it: this file and
// page-worker.mjs are bundled by esbuild from the installed package
// (scripts/release.sh), pasang.wasm is copied beside the bundles, and
// headless Chromium loads index.html. The page posts what it saw to
// /result on the server of check_page.mjs, which judges it.
import { loadPasang } from 'pasang-engine';

const seen = { legalMoves: null, lines: [], error: null };
const shown = document.getElementById('lines');

/** The next line from the worker that `wanted` accepts, or an error after `seconds`. */
function nextLine(worker, wanted, seconds) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${seconds} s`)), seconds * 1000);
    worker.addEventListener('message', function listen(event) {
      if (!wanted(String(event.data))) return;
      clearTimeout(timer);
      worker.removeEventListener('message', listen);
      resolve(String(event.data));
    });
  });
}

try {
  // The typed API from the bundle itself, on the main thread.
  const pasang = await loadPasang(await fetch(new URL('./pasang.wasm', import.meta.url)));
  seen.legalMoves = pasang.board().legalMoves().length;
  // The engine in its worker (the package's worker.mjs, bundled).
  const worker = new Worker(new URL('./page-worker.js', import.meta.url), { type: 'module' });
  worker.addEventListener('message', (event) => {
    seen.lines.push(String(event.data));
    shown.textContent += `${event.data}\n`;
  });
  worker.addEventListener('error', (event) => { seen.error = `worker: ${event.message}`; });
  const uciok = nextLine(worker, (line) => line === 'uciok', 30);
  worker.postMessage('uci');
  await uciok;
  const bestmove = nextLine(worker, (line) => line.startsWith('bestmove'), 60);
  worker.postMessage('position startpos');
  worker.postMessage('go depth 6');
  await bestmove;
} catch (error) {
  seen.error = String(error && error.stack ? error.stack : error);
}
await fetch('/result', { method: 'POST', body: JSON.stringify(seen) });
