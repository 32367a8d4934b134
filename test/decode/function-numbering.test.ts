/**
 * Functions are numbered the same way everywhere (issue 15): `Function #N` in a reader error, in
 * the analyzer's error and in its block tree is N, the function's index in `module.functions`
 * (declarations included), whichever order the bodies come in.
 */
import { describe, expect, it } from 'vitest';
import { analyzeBytes } from '../../src/analyze/index.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { readModule } from '../../src/read.js';
import { readFileSync } from 'node:fs';
import { corpusFiles, CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';

const HELLO = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));

function readerError(bytes: Uint8Array): BytecodeError | undefined {
  try {
    readModule(bytes);
  } catch (e) {
    if (e instanceof BytecodeError) return e;
    throw e;
  }
  return undefined;
}

/** Damages each byte of every function body in turn; returns [reader path, analyzer path] pairs that name a function. */
function functionPaths(bytes: Uint8Array, step = 1): [string, string][] {
  const analysis = analyzeBytes(bytes);
  const pairs: [string, string][] = [];
  for (const block of analysis.blocks[0]?.children ?? []) {
    if (block.kind !== 'function') continue;
    for (let o = block.offset + block.headerSize; o < block.offset + block.headerSize + block.bodySize; o += step) {
      const bad = bytes.slice();
      bad[o] ^= 0xff;
      const read = readerError(bad);
      const analyzed = analyzeBytes(bad).error;
      const fromReader = read?.blockPath[1];
      if (fromReader?.startsWith('Function #') && analyzed?.blockPath[1]?.startsWith('Function #') && read!.offset === analyzed.offset) {
        pairs.push([fromReader, analyzed.blockPath[1]]);
      }
    }
  }
  return pairs;
}

describe('Function #N is the index in module.functions, in the reader and the analyzer alike', () => {
  it('hello.bc: a damaged body of main (after two declarations and sum) is Function #3 in both', () => {
    const pairs = functionPaths(HELLO);
    expect(pairs.length).toBeGreaterThan(5);
    for (const [reader, analyzer] of pairs) expect(reader).toBe(analyzer);
    expect(pairs.map(([r]) => r)).toContain('Function #3');
    expect(pairs.map(([r]) => r)).not.toContain('Function #0'); // puts and printf have no body
  });

  it.skipIf(!CORPUS_PRESENT)('damaged corpus files of every version', NEEDS_CORPUS, () => {
    let compared = 0;
    for (const folder of ['v0', 'v1', 'v3', 'v5', 'v6']) {
      for (const name of corpusFiles(folder).slice(0, 12)) {
        for (const [reader, analyzer] of functionPaths(readCorpusFile(folder, name), 3)) {
          expect(`${folder}/${name}: ${reader}`).toBe(`${folder}/${name}: ${analyzer}`);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});
