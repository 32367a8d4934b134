/** nm's symbols and layouts, on modules built in code: every letter, every format. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { formatNm, nmSymbols } from '../../src/nm/index.js';
import { readModule } from '../../src/read.js';

const HELLO = readModule(new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url))));

describe('nmSymbols', () => {
  it('lists functions then globals, declarations as U, definitions as T/D', () => {
    const symbols = nmSymbols(HELLO);
    const fnCount = HELLO.functions.length;
    expect(symbols.slice(0, fnCount).map((s) => s.name)).toEqual(HELLO.functions.map((f) => f.name ?? ''));
    expect(symbols.find((s) => s.name === 'puts')?.letter).toBe('U');
    expect(symbols.find((s) => s.name === 'main')?.letter).toBe('T');
  });

  it('gives linkonce C, weak W, internal t/d', () => {
    const fake = {
      ...HELLO,
      functions: [
        { ...HELLO.functions.find((f) => f.name === 'main')!, name: 'lo', linkage: 'linkonce' as const },
        { ...HELLO.functions.find((f) => f.name === 'main')!, name: 'we', linkage: 'weak' as const },
        { ...HELLO.functions.find((f) => f.name === 'main')!, name: 'in', linkage: 'internal' as const },
      ],
      globals: HELLO.globals.map((g, i) => ({ ...g, name: `g${i}`, linkage: 'internal' as const })),
    };
    expect(nmSymbols(fake).map((s) => s.letter)).toEqual(['C', 'W', 't', ...HELLO.globals.map((g) => (g.initializer ? 'd' : 'U'))]);
  });
});

describe('formatNm', () => {
  const symbols = [
    { name: 'main', letter: 'T' as const },
    { name: 'a_name_longer_than_twenty', letter: 'U' as const },
  ];
  it('bsd: eight spaces for the address, a heading only when asked', () => {
    expect(formatNm('f.bc', symbols)).toBe('         T main\n         U a_name_longer_than_twenty\n');
    expect(formatNm('f.bc', symbols, { heading: true })).toMatch(/^\nf\.bc:\n/);
  });
  it('posix: name, letter, address', () => {
    expect(formatNm('f.bc', symbols, { format: 'posix', heading: true })).toBe('f.bc:\nmain T         \na_name_longer_than_twenty U         \n');
  });
  it('sysv: always a heading, names padded to 20', () => {
    const out = formatNm('f.bc', symbols, { format: 'sysv' });
    expect(out).toContain('\n\nSymbols from f.bc:\n\nName                  Value   Class');
    expect(out).toContain('main                |        |   T  |                  |      |     |\n');
    expect(out).toContain('a_name_longer_than_twenty|        |   U  |');
  });
});
