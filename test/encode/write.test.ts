import { readFileSync, existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';
import { loadBzip2 } from '../../src/container/index.js';
import { EncodeError, writeModule } from '../../src/index.js';
import { writeModuleAsync } from '../../src/encode/write.js';
import { emptyModule, global, hex, int, P } from './helpers.js';
import { readModule } from '../../src/read.js';

const CORPUS = CORPUS_ROOT;

describe('writeModule containers', () => {
  const m = emptyModule();
  m.globals.push(global(P.int, int(P.int, 3670016)));

  it('wraps small version 5/6 output as llvc0, as LLVM 1.4+ did below 64 KiB', () => {
    const out = writeModule(m);
    expect(hex(out.subarray(0, 5))).toBe(hex(new TextEncoder().encode('llvc0')));
    expect(hex(writeModule(m, { bytecodeVersion: 5 }).subarray(0, 5))).toBe(hex(new TextEncoder().encode('llvc0')));
  });

  it("writes the bare llvm stream with compression 'none', and always for version 3", () => {
    expect(hex(writeModule(m, { compression: 'none' }).subarray(0, 4))).toBe('6c6c766d');
    expect(hex(writeModule(m, { bytecodeVersion: 3 }).subarray(0, 4))).toBe('6c6c766d');
  });

  it('refuses bzip2 for version 3 (LLVM 1.3 never compressed)', () => {
    expect(() => writeModule(m, { bytecodeVersion: 3, compression: 'bzip2' })).toThrow(EncodeError);
  });

  it('refuses versions it cannot write, naming them', () => {
    expect(() => writeModule(m, { bytecodeVersion: 2 })).toThrow(/bytecode version 2/);
    expect(() => writeModule(m, { bytecodeVersion: 4 })).toThrow(/bytecode version 4/);
  });
});

describe('writeModule over the two bzip2-compressed corpus files (whole file identity)', () => {
  beforeAll(async () => {
    await loadBzip2();
  });
  for (const [v, name] of [
    [6, 'Large__big-bf'],
    [6, 'Bytecode__slow'],
    [5, 'Large__big-bf'],
    [5, 'Bytecode__slow'],
  ] as const) {
    const path = `${CORPUS}/v${v}/${name}.bc`;
    it.skipIf(!existsSync(path))(`v${v}/${name}.bc (skipped when the corpus is absent)`, NEEDS_CORPUS, async () => {
      const file = new Uint8Array(readFileSync(path));
      const m2 = readModule(file);
      expect(hex(writeModule(m2, { bytecodeVersion: v }))).toBe(hex(file));
      expect(hex(await writeModuleAsync(m2, { bytecodeVersion: v }))).toBe(hex(file));
    });
  }
});
