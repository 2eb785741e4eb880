#!/usr/bin/env node
// The WebAssembly engine as a protocol engine on stdin/stdout, so that
// `pasang match --engine "cmd=node web/dist/engine.mjs,name=wasm"` plays it.
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import v8 from 'node:v8';
import { loadPasang } from './pasang.mjs';

// Compile the module whole with V8's optimising compiler before the first
// command, instead of its baseline compiler and a tier-up while searching:
// 0.3 s more at start, and the first searches about 20% faster
// (docs/web.md).
v8.setFlagsFromString('--no-liftoff');
v8.setFlagsFromString('--no-wasm-lazy-compilation');

const pasang = await loadPasang(await readFile(new URL('./pasang.wasm', import.meta.url)));
// A closed pipe: the GUI is gone; end quietly, as the native engine does.
process.stdout.on('error', () => process.exit(0));
const engine = pasang.engine(line => process.stdout.write(line + '\n'));
const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', line => engine.send(line));
// End of input is `quit`, as natively.
input.on('close', () => engine.send('quit'));
await engine.ended;
process.stdout.write('', () => process.exit(0));
