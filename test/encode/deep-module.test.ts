/**
 * The writer refuses a damaged module nested deeper than the call stack allows with an
 * `EncodeError` naming the reason, not a bare `RangeError`.
 */
import { describe, expect, it } from 'vitest';
import { EncodeError } from '../../src/encode/encode-error.js';
import { writeModule } from '../../src/encode/write.js';
import type { Constant } from '../../src/graph/value.js';
import { emptyModule, global, P, ptr } from './helpers.js';

describe('writer on a deeply nested module', () => {
  it('refuses constant expressions nested deeper than the call stack with an EncodeError', () => {
    const m = emptyModule();
    const x = global(P.int, undefined, 'x');
    let c: Constant = x;
    for (let i = 0; i < 100_000; i++) c = { kind: 'expr', type: ptr(P.int), opcode: 'cast', operands: [c] };
    m.globals.push(x, global(ptr(P.int), c, 'deep'));
    for (const verify of [true, false]) {
      expect(() => writeModule(m, { bytecodeVersion: 6, verify })).toThrow(new EncodeError('this module', 6, 'it nests too deeply (the call stack ran out)'));
    }
  });
});
