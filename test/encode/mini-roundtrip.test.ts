/**
 * Round trip through the test-only mini reader (independent of src/decode): every version 3, 5
 * and 6 corpus file, read by `miniRead` and written back by `writeStream`, gives the file's stream.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeStream } from '../../src/encode/module-block.js';
import { miniRead, moduleBytes } from './mini-reader.js';

const CORPUS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/corpus');

/** The uncompressed stream of a corpus file (`llvm` + module block, decompressed if need be). */
function streamOf(file: Uint8Array): Uint8Array {
  const body = moduleBytes(file);
  const s = new Uint8Array(body.length + 4);
  s.set([0x6c, 0x6c, 0x76, 0x6d]);
  s.set(body, 4);
  return s;
}

for (const version of [6, 5, 3]) {
  const dir = join(CORPUS, `v${version}`);
  describe(`mini reader → writeStream over corpus/v${version} (streams, compressed files decompressed)`, () => {
    if (!existsSync(dir)) {
      it.skip(`corpus folder ${dir} is absent`, () => {});
      return;
    }
    it('reproduces every stream byte for byte', () => {
      const failures: string[] = [];
      let identical = 0;
      let total = 0;
      for (const name of readdirSync(dir).filter((f) => f.endsWith('.bc')).sort()) {
        const file = new Uint8Array(readFileSync(join(dir, name)));
        const expected = streamOf(file);
        total++;
        try {
          const out = writeStream(miniRead(file), version);
          let at = -1;
          for (let i = 0; i < Math.max(out.length, expected.length); i++) if (out[i] !== expected[i]) { at = i; break; }
          if (at === -1) identical++;
          else failures.push(`${name}: differs at ${at} (${out.length} vs ${expected.length})`);
        } catch (e) {
          failures.push(`${name}: ${(e as Error).message}`);
        }
      }
      console.log(`v${version}: ${identical}/${total} identical`);
      expect(failures.slice(0, 30)).toEqual([]);
    });
  });
}

describe('the one sound historical file', () => {
  const path = join(CORPUS, 'historical', 'constexpr.ll.bc-13');
  it.skipIf(!existsSync(path))('constexpr.ll.bc-13, written by the real LLVM 1.3 in 2004, is reproduced at version 3', () => {
    const file = new Uint8Array(readFileSync(path));
    expect(Buffer.from(writeStream(miniRead(file), 3)).toString('hex')).toBe(Buffer.from(file).toString('hex'));
  });
});
