// Serves a folder (the bundled page of scripts/release/page/) on
// 127.0.0.1, loads its index.html in headless Chromium and waits for the
// page to post what it saw: the engine in its worker must answer `uci`
// and `go depth 6`. Run by scripts/release.sh:
//   node check_page.mjs FOLDER
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';

const folder = path.resolve(process.argv[2] ?? '.');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
let answer;
const report = new Promise((resolve) => { answer = resolve; });

const server = createServer(async (request, response) => {
  if (request.method === 'POST' && request.url === '/result') {
    let body = '';
    for await (const chunk of request) body += chunk;
    response.end('ok');
    answer(body);
    return;
  }
  const name = new URL(request.url, 'http://page').pathname.replace(/^\/$/, '/index.html');
  const file = path.join(folder, path.normalize(name));
  try {
    if (!file.startsWith(folder + path.sep)) throw new Error('outside');
    const bytes = await readFile(file);
    response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    response.end(bytes);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const profile = await mkdtemp(path.join(tmpdir(), 'pasang-page-'));
const browser = spawn(process.env.CHROMIUM ?? 'chromium', [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--user-data-dir=${profile}`, url,
], { stdio: ['ignore', 'ignore', 'pipe'] });
let browserErrors = '';
browser.stderr.on('data', (data) => { browserErrors = (browserErrors + data).slice(-4000); });
const exited = new Promise((resolve) => browser.on('exit', (code) => resolve(`chromium exited (${code}): ${browserErrors}`)));
let timer;
const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve('no report from the page in 120 s'), 120000); });

const body = await Promise.race([report, exited.then((e) => { throw new Error(e); }), timeout.then((e) => { throw new Error(e); })])
  .finally(async () => {
    clearTimeout(timer);
    browser.kill();
    server.close();
    await rm(profile, { recursive: true, force: true }).catch(() => {});
  });

const seen = JSON.parse(body);
const lines = seen.lines ?? [];
const fail = (why) => { console.error(`the bundled page: ${why}\n${lines.join('\n')}`); process.exit(1); };
if (seen.error) fail(seen.error);
if (seen.legalMoves !== 11) fail(`the typed API gave ${seen.legalMoves} legal moves at the start, not South's 11 passages`);
const id = lines.find((line) => line.startsWith('id name pasang '));
if (!id || !lines.includes('uciok')) fail('uci got no id name and uciok');
if (!lines.some((line) => / depth 6 /.test(line))) fail('go depth 6 printed no depth 6 line');
const best = lines.find((line) => line.startsWith('bestmove '));
if (!best) fail('go depth 6 gave no bestmove');
console.log(`the bundled page in Chromium: 11 legal moves; ${id}; at depth 6: ${best}`);
process.exit(0);
