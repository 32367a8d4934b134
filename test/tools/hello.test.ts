/**
 * `corpus/hello.bc` is ours: regenerating it from `buildHelloModule()` must give the committed
 * bytes, and reading it back must give a module that writes the same bytes again.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';
import { helloBytes } from '../../tools/make-hello.js';

const committed = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));

describe('corpus/hello.bc', () => {
  it('is what the writer makes from buildHelloModule() (run `npm run make-hello` after a deliberate change)', () => {
    expect(Buffer.from(helloBytes()).toString('hex')).toBe(Buffer.from(committed).toString('hex'));
  });

  it('reads back as a version 6 module that writes the same bytes', () => {
    const m = readModule(committed);
    expect(m.source).toMatchObject({ signature: 'llvc0', bytecodeVersion: 6 });
    expect(m.functions.map((f) => f.name)).toEqual(['puts', 'printf', 'sum', 'main']);
    expect(m.globals.map((g) => g.name)).toEqual(['.str', 'fmt', 'state']);
    const again = writeModule(m, { bytecodeVersion: 6, compression: 'auto' });
    expect(Buffer.from(again).equals(Buffer.from(committed))).toBe(true);
  });
});
