/**
 * The writer's specification against the project's reader: reading an LLVM 1.2 / 1.3 / 1.8 / 1.9 / 2.0-dev (v7) file
 * with `readModule` and writing it back with `writeModule` at the same bytecode version
 * reproduces the file byte for byte, container included (llvc0 up to 64 KiB, bzip2 llvc2 above,
 * bare `llvm` for versions 1 and 3).
 *
 * Exceptions are listed with their reasons; the test fails if one of them starts passing (so the
 * list stays honest) or if any other file differs. (mini-roundtrip.test.ts checks the writer the
 * same way through a test-only reader, independently of src/decode.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';
import { loadBzip2 } from '../../src/container/index.js';
import { writeModule } from '../../src/encode/write.js';
import type { Module } from '../../src/graph/module.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CORPUS = CORPUS_ROOT;
const READER = resolve(HERE, '../../src/read.ts');

/** Files that do not round-trip, with the reason. Keep this small and justified. */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map<string, string>([]);

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

let readModule: ((bytes: Uint8Array) => Module) | undefined;

beforeAll(async () => {
  if (existsSync(READER)) {
    // Imported by path so that this file compiles before src/read.ts exists.
    const path = '../../src/read.js';
    readModule = ((await import(/* @vite-ignore */ path)) as { readModule: (bytes: Uint8Array) => Module }).readModule;
  }
  await loadBzip2();
});

for (const version of [7, 6, 5, 3, 1, 0]) {
  const dir = join(CORPUS, `v${version}`);
  describe(`writeModule(readModule(f), { bytecodeVersion: ${version} }) over corpus/v${version}`, () => {
    if (!existsSync(dir)) {
      it.skip(`corpus folder ${dir} is absent: skipping the round-trip corpus test`, NEEDS_CORPUS, () => {});
      return;
    }
    if (!existsSync(READER)) {
      it.skip('src/read.ts (readModule) does not exist yet: skipping', () => {});
      return;
    }
    const files = readdirSync(dir).filter((f) => f.endsWith('.bc')).sort();
    const listed = [...EXCEPTIONS.keys()].filter((k) => k.startsWith(`v${version}/`)).length;

    it(`reproduces every file byte for byte (except ${listed} listed)`, () => {
      const failures: string[] = [];
      let identical = 0;
      for (const name of files) {
        const key = `v${version}/${name}`;
        const bytes = new Uint8Array(readFileSync(join(dir, name)));
        let detail: string;
        try {
          const out = writeModule(readModule!(bytes), { bytecodeVersion: version });
          const at = firstDifference(out, bytes);
          if (at === -1) {
            identical++;
            if (EXCEPTIONS.has(key)) failures.push(`${key}: listed as an exception but now identical`);
            continue;
          }
          detail = `differs at byte ${at} (wrote ${out.length} bytes, file has ${bytes.length})`;
        } catch (e) {
          detail = `threw ${(e as Error).message}`;
        }
        if (!EXCEPTIONS.has(key)) failures.push(`${key}: ${detail}`);
      }
      console.log(`v${version}: ${identical}/${files.length} identical through readModule`);
      expect(failures.slice(0, 20), `${failures.length} unexpected result(s); ${identical}/${files.length} identical`).toEqual([]);
      expect(identical).toBe(files.length - listed);
    });
  });
}
