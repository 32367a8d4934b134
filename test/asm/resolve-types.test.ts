/**
 * Named types resolve as LLVM's type system made them: structurally equal types are one type,
 * recursive ones included, and types that differ anywhere down their structure stay apart —
 * however long the chain that tells them apart (the refinement revisits only what changed).
 */
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import type { Type } from '../../src/graph/type.js';

const R = (n: number, line: (i: number) => string): string => Array.from({ length: n }, (_, i) => line(i)).join('');

/** The named types of a module, by name. */
function namedTypes(text: string): ReadonlyMap<string, Type> {
  return parseAssembly(text).typeNames;
}

describe('resolving named types', () => {
  it('two recursive definitions of one structure are one type with two names', () => {
    const types = namedTypes('%A = type { %A* }\n%B = type { %B* }\nimplementation\n');
    expect(types.get('A') === types.get('B')).toBe(true);
  });

  for (const order of ['defined from the top', 'defined from the bottom'] as const) {
    it(`a chain of 3,000 types, each holding a pointer to the next, keeps them apart (${order})`, () => {
      const n = 3000;
      const chain = (name: string): string =>
        order === 'defined from the top'
          ? R(n, (i) => `%${name}${i} = type { %${name}${i + 1}* }\n`) + `%${name}${n} = type int\n`
          : `%${name}${n} = type int\n` + R(n, (i) => `%${name}${n - 1 - i} = type { %${name}${n - i}* }\n`);
      const types = namedTypes(chain('t') + 'implementation\n');
      expect(new Set(types.values()).size).toBe(n + 1);
      // …and a second chain of the same depth is the same types, name for name.
      const twin = namedTypes(chain('t') + chain('u') + 'implementation\n');
      // (Compared as booleans: the assertion library would print a 3,000-deep type.)
      expect(twin.get('u0') === twin.get('t0')).toBe(true);
      expect(twin.get(`u${n - 1}`) === twin.get(`t${n - 1}`)).toBe(true);
      expect(twin.get('u1') === twin.get('t0')).toBe(false);
    });
  }
});
