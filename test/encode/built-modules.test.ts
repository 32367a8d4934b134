/**
 * Modules built in code (no layout recorded): writing is deterministic, and what is written reads
 * back (through the library's reader, src/read.ts) into a module that writes the same bytes again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeStream } from '../../src/encode/module-block.js';
import type { Module } from '../../src/graph/module.js';
import type { Instruction, Value } from '../../src/graph/value.js';
import { block, emptyModule, fnType, func, global, hex, inst, int, P } from './helpers.js';
import { readModule } from '../../src/read.js';

/** A module of named int globals and one function adding constants and arguments in a chain. */
function build(globalNames: string[], constants: number[], ops: ('add' | 'sub' | 'mul' | 'sdiv')[], named: boolean[]): Module {
  const m = emptyModule();
  const seen = new Set<string>();
  for (const [i, name] of globalNames.entries()) {
    if (seen.has(name)) continue;
    seen.add(name);
    m.globals.push(global(P.int, int(P.int, constants[i % constants.length] ?? 0), name));
  }
  const f = func(fnType(P.int, [P.int, P.int]), 'chain', []);
  f.args[0]!.name = 'a';
  let acc: Value = f.args[0]!;
  const body: Instruction[] = [];
  ops.forEach((op, i) => {
    const rhs: Value = i % 2 ? f.args[1]! : int(P.int, constants[i % constants.length] ?? 1);
    const next = inst(op, P.int, [acc, rhs], named[i] ? { name: `t${i}` } : {});
    body.push(next);
    acc = next;
  });
  body.push(inst('ret', P.void, [acc]));
  f.blocks.push(block(body, 'entry'));
  f.isDeclaration = false;
  m.functions.push(f);
  return m;
}

describe('modules built in code', () => {
  it('write deterministically and survive a read/write cycle unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z][a-z0-9_.]{0,6}$/), { maxLength: 6 }),
        fc.array(fc.integer({ min: -100000, max: 100000 }), { minLength: 1, maxLength: 80 }),
        fc.array(fc.constantFrom('add' as const, 'sub' as const, 'mul' as const, 'sdiv' as const), { maxLength: 90 }),
        fc.array(fc.boolean(), { maxLength: 90 }),
        (names, constants, ops, named) => {
          const m = build(names, constants, ops, named);
          const once = writeStream(m, 6);
          expect(hex(writeStream(m, 6))).toBe(hex(once));
          expect(hex(writeStream(readModule(once), 6))).toBe(hex(once));
          const v5 = writeStream(m, 5);
          expect(hex(writeStream(readModule(v5), 5))).toBe(hex(v5));
        },
      ),
      { numRuns: 200 },
    );
  });
});
