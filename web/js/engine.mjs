#!/usr/bin/env node
// The WebAssembly engine as a protocol engine on stdin/stdout, so that
// `pasang match --engine "cmd=node web/dist/engine.mjs,name=wasm"` plays it.
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { loadPasang } from './pasang.mjs';

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
