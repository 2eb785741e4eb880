// The static site's last step (run by web/build.sh with Node): the board
// page from src/page/assets set to talk to a Web Worker, the rules page and
// its pictures from the engine itself, the web app manifest, and a service
// worker that caches every file of the site.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile, copyFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { loadPasang } from './pasang.mjs';

const [assets, dist] = process.argv.slice(2);
const pasang = await loadPasang(await readFile(join(dist, 'pasang.wasm')));

// Every change to a served file goes through here and fails loudly when
// what it replaces is not there (a page edited without this script
// would otherwise ship unchanged, and break only on the static site).
function patch(text, what, pairs) {
  for (const [from, to, all] of pairs) {
    if (!text.includes(from)) throw new Error(`build-site: ${what} has no ${JSON.stringify(from)} to replace`);
    text = all ? text.replaceAll(from, to) : text.replace(from, to);
  }
  return text;
}

// The board page: the same files as `pasang gui` serves, with the worker
// as transport, the manifest, and links relative to wherever it is hosted.
let index = await readFile(join(assets, 'index.html'), 'utf8');
index = patch(index, 'index.html', [
  ['<html lang="en">', '<html lang="en" data-transport="worker">'],
  ['<link rel="icon" href="data:,">', '<link rel="icon" href="icon.svg">\n<link rel="manifest" href="manifest.webmanifest">\n<meta name="theme-color" content="#2b2622">'],
  ['href="/rules"', 'href="rules/"'],
]);
await writeFile(join(dist, 'index.html'), index);
// The course of Learn mode (lessons.json) and Puzzle mode's puzzles
// (puzzles.jsonl) are read by the page at the site's top; their files are
// learn's and puzzles' (src/learn/, src/puzzles/), beside the assets.
// The page's scripts are ES modules (app.js imports the others).
const scripts = (await readdir(assets)).filter((file) => file.endsWith('.js'));
if (!scripts.includes('app.js')) throw new Error(`build-site: ${assets} has no app.js`);
for (const file of [...scripts, 'style.css']) await copyFile(join(assets, file), join(dist, file));
for (const file of ['learn/lessons.json', 'puzzles/puzzles.jsonl']) await copyFile(join(assets, '../..', file), join(dist, basename(file)));

// The package's types: the rule options from the engine's own table, so
// that they are spelled once (src/rules.rs).
const options = pasang.ruleOptions()
  .map((option) => `  ${/^[A-Za-z]+$/.test(option.name) ? option.name : `'${option.name}'`}?: ${option.values.map((value) => `'${value}'`).join(' | ')};`)
  .join('\n');
const types = await readFile(join(dist, 'pasang.d.ts'), 'utf8');
if (!types.includes('  // RULE_OPTIONS')) throw new Error('pasang.d.ts has no RULE_OPTIONS marker');
await writeFile(join(dist, 'pasang.d.ts'), types.replace('  // RULE_OPTIONS', options));

// The rules, as `pasang gui` serves them at /rules (the players' page,
// whose words come from strings.js) and /rules/spec (the specification),
// with relative links.
const { html, spec, pictures } = pasang.rulesPage();
await mkdir(join(dist, 'rules', 'spec'), { recursive: true });
await writeFile(join(dist, 'rules', 'index.html'), patch(html, 'the rules page', [
  ['src="/rules/', 'src="', true],
  ['from "/strings.js"', 'from "../strings.js"'],
  ['href="/rules/spec"', 'href="spec/"'],
  ['<a href="/"', '<a href="../"'],
]));
await writeFile(join(dist, 'rules', 'spec', 'index.html'), patch(spec, 'the specification', [
  ['src="/rules/', 'src="../', true],
  ['<a href="/rules">', '<a href="../">'],
  ['<a href="/">', '<a href="../../">'],
]));
for (const [path, svg] of Object.entries(pictures)) {
  await mkdir(join(dist, 'rules', path, '..'), { recursive: true });
  await writeFile(join(dist, 'rules', path), svg);
}

await writeFile(join(dist, 'icon.svg'),
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="10" fill="#c89b5a"/>'
  + '<circle cx="22" cy="22" r="9" fill="#fff"/><circle cx="42" cy="22" r="9" fill="#222"/>'
  + '<circle cx="22" cy="42" r="9" fill="#222"/><circle cx="42" cy="42" r="9" fill="#fff"/></svg>\n');
await writeFile(join(dist, 'manifest.webmanifest'), JSON.stringify({
  name: 'Pasang',
  short_name: 'Pasang',
  description: 'Pasang, the capture game of Brunei, against the pasang engine: in the browser, offline.',
  start_url: './',
  scope: './',
  display: 'standalone',
  background_color: '#2b2622',
  theme_color: '#2b2622',
  icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml' }],
}, null, 2) + '\n');

// The service worker caches every file; its name carries their hash, so a
// new build replaces the old cache.
async function files(folder) {
  const found = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...await files(path));
    else found.push(path);
  }
  return found;
}
const cached = (await files(dist))
  .map(path => relative(dist, path).split('\\').join('/'))
  .filter(path => !['sw.js', 'engine.mjs', 'build-site.mjs', 'package.json', 'README.md', 'pasang.d.ts'].includes(path))
  .sort();
const hash = createHash('sha256');
for (const path of cached) hash.update(path).update(await readFile(join(dist, path)));
const version = hash.digest('hex').slice(0, 12);
const sw = await readFile(new URL('./sw.js', import.meta.url), 'utf8');
// A folder's index is also asked for by the folder's own address (the
// board's Rules link opens `rules/`): cache both.
const folders = cached.filter(path => path.endsWith('/index.html')).map(path => `./${path.slice(0, -'index.html'.length)}`);
const urls = ['./', ...folders, ...cached.map(path => `./${path}`)];
await writeFile(join(dist, 'sw.js'), patch(sw, 'sw.js', [
  ['__VERSION__', version],
  ['__FILES__', JSON.stringify(urls, null, 2)],
]));
console.log(`web/dist/: ${urls.length} addresses cached by the service worker (cache ${version})`);
