/** Shared checks for the construction API tests: verify, print, and write/read/print again. */
import { expect } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import { verifyModule } from '../../src/verify/verify.js';
import type { Module } from '../../src/graph/module.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';

/** Prints `m` after writing it at `version` (uncompressed) and reading it back. */
export function viaBytes(m: Module, version: number): string {
  return printModule(readModule(writeModule(m, { bytecodeVersion: version, compression: 'none' })));
}

/**
 * The module verifies, prints as `expected`, and prints the same after a write/read cycle at
 * each of `versions`.
 */
export function expectModule(m: Module, expected: string, versions: readonly number[] = [6, 5, 3, 1, 0]): void {
  expect(verifyModule(m)).toEqual([]);
  expect(printModule(m)).toBe(expected);
  for (const v of versions) expect(viaBytes(m, v), `bytecode version ${v}`).toBe(expected);
}

/** LLVM's text is tab-indented; the expected texts below are written with `|` for a tab. */
export function llvm(text: string): string {
  return text.replace(/^\n/, '').replace(/\|/g, '\t');
}
