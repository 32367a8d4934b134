/** The benchmark's generated module is a valid module that survives a write/read cycle. */
import { describe, expect, it } from 'vitest';
import { verifyModule } from '../../src/verify/verify.js';
import { writeModule } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { syntheticModule } from '../../tools/synthetic-module.js';

describe('syntheticModule', () => {
  it('verifies, and reads back to the same listing', () => {
    const m = syntheticModule(5);
    expect(verifyModule(m)).toEqual([]);
    const bytes = writeModule(m, { bytecodeVersion: 6, compression: 'none' });
    expect(printModule(readModule(bytes))).toBe(printModule(m));
  });
});
