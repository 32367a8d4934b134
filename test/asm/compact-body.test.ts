/**
 * The assembler builds function bodies straight into the graph's compact form
 * (src/asm/function-body.ts). What it makes must be the module the objects would have been: the
 * same bytes when written and the same listing when printed, whether the writer and the printer
 * walk the compact form or the objects it materializes into.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectDialect, DIALECT_VERSION, parseAssembly, type Dialect } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { compactBodyOf } from '../../src/graph/compact-body.js';
import type { Module } from '../../src/graph/module.js';
import { printModule } from '../../src/print/index.js';

const GRAMMAR = join(dirname(fileURLToPath(import.meta.url)), 'grammar');

/** Every body turned into objects (reading `blocks` materializes a compact one). */
function materializeAll(m: Module): void {
  for (const f of m.functions) void f.blocks;
}

function expectSameBothWays(text: string, dialect: Dialect): void {
  const compact = parseAssembly(text, { dialect });
  const objects = parseAssembly(text, { dialect });
  materializeAll(objects);
  const version = DIALECT_VERSION[dialect];
  expect(writeModule(compact, { bytecodeVersion: version, compression: 'none' })).toEqual(
    writeModule(objects, { bytecodeVersion: version, compression: 'none' }),
  );
  expect(printModule(compact)).toBe(printModule(objects));
}

describe('bodies assembled into the compact form', () => {
  for (const file of readdirSync(GRAMMAR).filter((f) => f.endsWith('.ll'))) {
    it(`${file}: writes and prints the same as its objects`, () => {
      const text = readFileSync(join(GRAMMAR, file), 'latin1');
      expectSameBothWays(text, detectDialect(text));
    });
  }

  it('keeps a body compact through verifying and writing', () => {
    const m = parseAssembly(readFileSync(join(GRAMMAR, 'instructions.ll'), 'latin1'), { dialect: '1.9' });
    writeModule(m, { compression: 'none' });
    const defined = m.functions.filter((f) => !f.isDeclaration);
    expect(defined.length).toBeGreaterThan(0);
    for (const f of defined) expect(compactBodyOf(f)).toBeDefined();
  });

  const varargs = `
implementation
int %f(sbyte* %ap0) {
entry:
  %ap = alloca sbyte*
  store sbyte* %ap0, sbyte** %ap
  %x = vaarg sbyte** %ap, int
  %next = vanext sbyte** %ap, int
  ret int %x
}
`;

  it('writes the same for pre-1.6 varargs kept (1.3) and expanded (1.9)', () => {
    expectSameBothWays(varargs, '1.3');
    expectSameBothWays(varargs, '1.9');
  });
});
