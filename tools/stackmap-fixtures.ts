/**
 * The stack map fixtures (test/stackmap/fixtures/*.s: sections of versions 0–2 and the forks
 * rebuilt from LLVM's own tests, docs/stackmaps-ground-truth.md) assembled by llvm-mc-16 into
 * objects, with the section's bytes as llvm-objcopy-16 --dump-section gives them. One assembler
 * for the fixture tests, the scoreboard and the fuzzers' seeds.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './corpus-location.js';

/** Where the fixtures are. */
export const STACKMAP_FIXTURES = join(PROJECT_ROOT, 'test/stackmap/fixtures');

/** The fixtures' names (without `.s`), sorted. */
export function stackmapFixtureNames(): string[] {
  return readdirSync(STACKMAP_FIXTURES)
    .filter((f) => f.endsWith('.s'))
    .map((f) => f.slice(0, -2))
    .sort();
}

export interface AssembledFixture {
  /** The triple it was assembled for. */
  triple: string;
  object: Uint8Array;
  /** The section's bytes as llvm-objcopy-16 --dump-section gives them. */
  section: Uint8Array;
}

/** The triple a fixture names in its `# triple:` line. */
export function fixtureTriple(text: string, name: string): string {
  const own = /^# triple: (\S+)$/m.exec(text)?.[1];
  if (own === undefined) throw new Error(`${name}.s names no triple`);
  return own;
}

/** A fixture's Mach-O directives as ELF ones (for the big-endian twins). */
export function fixtureAsElf(text: string): string {
  return text
    .replace(/^\t\.section\t__TEXT,__text,regular,pure_instructions$/m, '\t.text')
    .replace(/^\t\.section\t__LLVM_STACKMAPS,__llvm_stackmaps$/m, '\t.section\t.llvm_stackmaps,"a",@progbits')
    .replace(/^\t\.subsections_via_symbols$/m, '');
}

function tool(bin: string, name: string, args: string[]): void {
  const r = spawnSync(join(bin, name), args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${name} ${args.join(' ')}: ${(r.stderr ?? '').split('\n')[0] ?? `exit ${r.status}`}`);
}

/**
 * Assembles fixtures/NAME.s with `bin`'s llvm-mc into `dir` (files `NAME[_TRIPLE].*`): for its own
 * `# triple:`, or as ELF for `elfTriple` (the big-endian twins).
 */
export function assembleStackmapFixture(bin: string, name: string, dir: string, elfTriple?: string): AssembledFixture {
  let text = readFileSync(join(STACKMAP_FIXTURES, `${name}.s`), 'utf8');
  const own = fixtureTriple(text, name);
  if (elfTriple !== undefined) text = fixtureAsElf(text);
  const triple = elfTriple ?? own;
  const base = join(dir, `${name}${elfTriple === undefined ? '' : `_${elfTriple.replace(/\W+/g, '_')}`}`);
  writeFileSync(`${base}.s`, text);
  tool(bin, 'llvm-mc', ['-filetype=obj', `-triple=${triple}`, `${base}.s`, '-o', `${base}.o`]);
  const section = triple.includes('apple') ? '__LLVM_STACKMAPS,__llvm_stackmaps' : '.llvm_stackmaps';
  tool(bin, 'llvm-objcopy', [`--dump-section=${section}=${base}.bin`, `${base}.o`, `${base}.out`]);
  return { triple, object: new Uint8Array(readFileSync(`${base}.o`)), section: new Uint8Array(readFileSync(`${base}.bin`)) };
}
