/**
 * `rewrite` means byte for byte (issue 30, item 7): without `--compress`, a file rewritten at its
 * own version keeps its container (bare, llvc0, zlib, bzip2), so a compressed version-7 file comes
 * back compressed as it was; at another version, LLVM's own choice for that version.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { loadBzip2, unwrapContainer, wrapContainer } from '../../src/container/index.js';
import { readModule } from '../../src/read.js';
import { memoryIo } from './memory-io.js';
import { CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';

const HELLO = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));

async function rewrite(input: Uint8Array, extra: string[] = []): Promise<Uint8Array> {
  const io = memoryIo({ 'in.bc': input });
  const code = await run(['rewrite', 'in.bc', '-o', 'out.bc', ...extra], io);
  expect(io.err()).toBe('');
  expect(code).toBe(0);
  return io.files.get('out.bc')!;
}

/** hello.bc as a version-7 file in the given container. */
async function version7(container: 'none' | 'null' | 'zlib' | 'bzip2'): Promise<Uint8Array> {
  await loadBzip2();
  const bare = await rewrite(HELLO, ['--bytecode-version', '7', '--compress', 'none']);
  return wrapContainer(unwrapContainer(bare).stream, container);
}

describe('rewrite keeps the container of a file written at its own version', () => {
  for (const container of ['bzip2', 'null', 'zlib', 'none'] as const) {
    it(`a version-7 file in container '${container}' comes back byte for byte`, async () => {
      const file = await version7(container);
      const out = await rewrite(file);
      expect(readModule(out).source).toMatchObject({ bytecodeVersion: 7, compression: container });
      expect(Buffer.from(out).equals(Buffer.from(file))).toBe(true);
    });
  }

  it('a bzip2 version-6 file written by LLVM comes back byte for byte', async () => {
    const bz = await rewrite(HELLO, ['--compress', 'bzip2']);
    expect(Buffer.from(await rewrite(bz)).equals(Buffer.from(bz))).toBe(true);
  });

  it.skipIf(!CORPUS_PRESENT)('Large__big-bf.bc (bzip2, as LLVM 1.9 wrote it) comes back byte for byte', NEEDS_CORPUS, async () => {
    const big = readCorpusFile('v6', 'Large__big-bf.bc');
    expect(Buffer.from(await rewrite(big)).equals(Buffer.from(big))).toBe(true);
  });

  it("at another version, LLVM's choice for that version; --compress still decides when given", async () => {
    const bz6 = await rewrite(HELLO, ['--compress', 'bzip2']);
    // Version 5 of a small module: LLVM 1.8 wrote llvc0 below 64 KiB, whatever the file had.
    expect(readModule(await rewrite(bz6, ['--bytecode-version', '5'])).source).toMatchObject({ bytecodeVersion: 5, compression: 'null' });
    const bz7 = await version7('bzip2');
    expect(readModule(await rewrite(bz7, ['--compress', 'none'])).source).toMatchObject({ bytecodeVersion: 7, compression: 'none' });
    expect(readModule(await rewrite(bz7, ['--compress', 'auto'])).source).toMatchObject({ bytecodeVersion: 7, compression: 'none' });
  });
});
