/**
 * Names read from files are data, never keys of plain objects: symbols called `__proto__`,
 * `constructor` or `toString` survive a write/read cycle unchanged and change nothing else.
 */
import { describe, expect, it } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, readCorpusFile, NEEDS_CORPUS } from '../support/corpus.js';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];

describe.skipIf(!CORPUS_PRESENT)('names that are JavaScript property names', NEEDS_CORPUS, () => {
  it('survive as type, global, function and local names', () => {
    const m = readModule(readCorpusFile('v6', 'Feature__globalvars.bc'));
    m.globals.forEach((g, i) => (g.name = HOSTILE[i % HOSTILE.length]! + i));
    m.globals[0]!.name = '__proto__';
    const [firstType] = m.types;
    expect(firstType).toBeDefined();
    m.typeNames = new Map([
      ['__proto__', firstType!],
      ['constructor', m.types[1] ?? firstType!],
    ]);
    const f = m.functions.find((fn) => !fn.isDeclaration)!;
    f.name = 'toString';
    const back = readModule(writeModule(m, { bytecodeVersion: 6, compression: 'none' }));
    expect(back.globals.map((g) => g.name)).toEqual(m.globals.map((g) => g.name));
    expect([...back.typeNames.keys()].sort()).toEqual(['__proto__', 'constructor']);
    expect(back.functions.find((fn) => !fn.isDeclaration)!.name).toBe('toString');
    expect(Object.getPrototypeOf(back.typeNames)).toBe(Map.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
