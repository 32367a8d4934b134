/**
 * The coverage-guided fuzz targets (run by Jazzer.js in `npm run fuzz:coverage`) are plain
 * functions: each runs its consumer on every seed of the project's corpus and on every saved
 * regression without a finding, and a failing input is saved where `FUZZ_FINDINGS` says. The
 * `asm` target takes text: its seeds are the project's assembly files and the corpus's listings.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { corpusListingFiles, projectAssemblyFiles } from '../../tools/asm-seeds.js';
import { consumers } from '../../tools/fuzz-check.js';
import { fuzzTarget, inputExtension, targets } from '../../tools/fuzz-coverage/target.js';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';

const ROOT = new URL('../../', import.meta.url);
const REGRESSIONS = new URL('test/fuzz-regressions/', ROOT);
const inputs: [string, Buffer][] = [
  ['corpus/hello.bc', readFileSync(new URL('corpus/hello.bc', ROOT))],
  ...readdirSync(REGRESSIONS)
    .filter((n) => n.endsWith('.bc'))
    .map((n): [string, Buffer] => [n, readFileSync(new URL(n, REGRESSIONS))]),
];

describe('coverage-guided fuzz targets', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('has one target per consumer, the differential oracle included', () => {
    expect(consumers.map((c) => c.name)).toEqual(['read', 'print', 'write', 'analyze', 'upgrade', 'upgrade-bitcode', 'roundtrip', 'link', 'archive']);
  });

  for (const { name } of consumers) {
    it(`${name}: every seed runs without a finding`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'fuzz-target-test-'));
      vi.stubEnv('FUZZ_FINDINGS', dir);
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        const fuzz = fuzzTarget(name);
        for (const [, bytes] of inputs) fuzz(bytes);
        expect(stderr).not.toHaveBeenCalled();
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        stderr.mockRestore();
      }
    });
  }

  it('refuses an unknown target name', () => {
    expect(() => fuzzTarget('nope')).toThrow(/no consumer 'nope'/);
  });
});

const PROJECT = fileURLToPath(ROOT);
const ASM_REGRESSIONS = new URL('test/fuzz-regressions/asm/', ROOT);
/** Seeds are capped as the driver caps them (its MAX_SEED). */
const MAX_SEED = 64 * 1024;

/** Whether bytes are assembly text: no NUL and no control character but tab, newline, return. */
function isText(bytes: Uint8Array): boolean {
  return bytes.every((b) => b >= 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
}

describe('the archive and stackmap targets', () => {
  it('take archives, and objects or stack map sections, named .a and .bin', () => {
    expect(targets.find((t) => t.name === 'archive')?.input).toBe('archive');
    expect(targets.find((t) => t.name === 'stackmap')?.input).toBe('stackmap');
    expect([inputExtension('archive'), inputExtension('stackmap')]).toEqual(['.a', '.bin']);
  });
});

describe('the asm target (the assembler on text)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is known after the consumers, and takes assembly text', () => {
    expect(targets.map((t) => t.name)).toEqual([...consumers.map((c) => c.name), 'asm', 'stackmap']);
    expect(targets.find((t) => t.name === 'asm')?.input).toBe('assembly');
    expect(targets.filter((t) => t.input === 'assembly').map((t) => t.name)).toEqual(['asm']);
    expect(inputExtension('assembly')).toBe('.ll');
  });

  it("is seeded with the project's own assembly: the grammar files and corpus/hello.ll, all text", () => {
    const seeds = projectAssemblyFiles(PROJECT, MAX_SEED);
    const names = seeds.map((f) => basename(f));
    expect(names).toContain('hello.ll');
    expect(names).toContain('instructions.ll');
    for (const f of seeds) {
      expect(f.endsWith('.ll'), f).toBe(true);
      expect(isText(readFileSync(f)), f).toBe(true);
    }
  });

  it.skipIf(!CORPUS_PRESENT)("is seeded with the corpus's listings, 1.x and v7's 2.0 (not the bytecode)", NEEDS_CORPUS, () => {
    const seeds = corpusListingFiles(CORPUS_ROOT, MAX_SEED);
    expect(seeds.length).toBeGreaterThan(1000);
    for (const f of seeds) expect(f, f).toMatch(/\/(v[01356]\/[^/]+\.(dis|dis19|via19)|v7\/[^/]+\.dis)\.ll$/);
    expect(seeds.some((f) => f.includes('/v7/'))).toBe(true);
    for (const f of seeds.filter((_, i) => i % 50 === 0)) expect(isText(readFileSync(f)), f).toBe(true);
  });

  it('runs every project seed and every saved asm regression without a finding', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-target-test-'));
    vi.stubEnv('FUZZ_FINDINGS', dir);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const fuzz = fuzzTarget('asm');
      const regressions = existsSync(ASM_REGRESSIONS)
        ? readdirSync(ASM_REGRESSIONS)
            .filter((n) => n.endsWith('.ll'))
            .map((n) => fileURLToPath(new URL(n, ASM_REGRESSIONS)))
        : [];
      for (const f of [...projectAssemblyFiles(PROJECT, MAX_SEED), ...regressions]) fuzz(readFileSync(f));
      expect(stderr).not.toHaveBeenCalled();
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      stderr.mockRestore();
    }
  });

  it('saves an input that breaks the check as a .ll finding', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-target-test-'));
    vi.stubEnv('FUZZ_FINDINGS', dir);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const asm = await import('../../src/asm/index.js');
    const parse = vi.spyOn(asm, 'parseAssembly');
    try {
      parse.mockImplementation(() => {
        throw new TypeError('boom');
      });
      fuzzTarget('asm')(Buffer.from('implementation\n', 'latin1'));
    } finally {
      parse.mockRestore();
      stderr.mockRestore();
    }
    const saved = readdirSync(dir).filter((n) => n.endsWith('.ll'));
    expect(saved).toHaveLength(1);
    expect(readFileSync(join(dir, 'findings.txt'), 'latin1')).toContain('asm: TypeError: boom');
  });
});
