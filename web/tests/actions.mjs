// The JavaScript package's action ids, one line per id (its text), for
// tests/web.rs to compare with the core's: node web/tests/actions.mjs
// needs no WebAssembly (the ids are plain JavaScript).
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const { ACTIONS, encodeMove, describeAction, PasangError } = await import(
  pathToFileURL(resolve(process.argv[2] ?? 'web/js/pasang.mjs'))
);
const lines = [];
for (let id = 0; id < ACTIONS; id++) {
  const text = describeAction(id);
  assert.equal(encodeMove(text), id);
  lines.push(text);
}
assert.throws(() => describeAction(ACTIONS), PasangError);
assert.throws(() => encodeMove('b4b6n'), /legal in no position/);
assert.equal(encodeMove('B4C4N'), encodeMove('b4c4n'));
assert.equal(encodeMove('c4c7we'), encodeMove('c4c7ew'));
process.stdout.write(lines.join('\n') + '\n');
