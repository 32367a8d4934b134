/**
 * Stack maps in the other shapes users hold them, against LLVM 16 (and GNU ld where present):
 * universal Mach-O files (llvm-lipo-16 of an x86-64 and an arm64 object: llvm-readobj-16 prints
 * each slice), linked executables (real function addresses, named from the symbol table), and bare
 * sections whose byte order must be found from their sizes alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeStackMapSection, printStackMapReadobj, readStackMaps } from '../../src/stackmap/index.js';
import { firstDifference, fromVersionLine } from '../../tools/stackmap-compare.js';
import { generateStackmapObjects, universalMachO, type GeneratedObject } from '../../tools/stackmap-objects.js';
import { debianLlvm, needs } from '../support/tools.js';

const LLVM16 = debianLlvm(16);
const GNU_LD = '/usr/bin/ld';
const COUNT = 3;

function tool(path: string, args: string[]): string {
  const r = spawnSync(path, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${path} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** llvm-readobj's output for each file or slice it printed, from the version line on. */
function readobjBlocks(text: string): string[] {
  return text
    .split(/\nFile: /)
    .map(fromVersionLine)
    .filter((t) => t !== '');
}

describe.skipIf(!LLVM16.present)('stack maps in universal files, linked executables and bare sections', needs(LLVM16), () => {
  let dir = '';
  let manifest: GeneratedObject[] = [];
  const ok = (target: string) => manifest.filter((m) => m.target === target && m.status === 'ok' && m.stackmapVersion === undefined);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stackmap-containers-'));
    manifest = generateStackmapObjects({ out: dir, count: COUNT, seed: 77, bin: LLVM16.dir });
  });
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('a universal Mach-O file (x86-64 + arm64) gives one section per slice, each printed as llvm-readobj-16 prints it', () => {
    const x86 = ok('x86-64-macho');
    const arm = ok('arm64-macho');
    expect(x86.length).toBeGreaterThan(0);
    for (let i = 0; i < Math.min(x86.length, arm.length); i++) {
      const fat = join(dir, `fat-${i}.o`);
      const bytes = universalMachO(LLVM16.dir, [join(dir, x86[i]!.object!), join(dir, arm[i]!.object!)], fat);
      const theirs = readobjBlocks(tool(LLVM16.path('llvm-readobj'), ['--stackmap', fat]));
      const file = readStackMaps(bytes);
      expect(file.container).toBe('macho');
      expect(file.sections.map((s) => s.found.arch)).toEqual(['x86-64', 'aarch64']);
      const ours = file.sections.map((s) => printStackMapReadobj(s).trimEnd());
      expect(ours.length).toBe(theirs.length);
      ours.forEach((text, k) => expect(text, firstDifference(text, theirs[k]!)).toBe(theirs[k]));
    }
  });

  it.skipIf(!existsSync(GNU_LD))(
    'a linked x86-64 executable has real function addresses, printed as llvm-readobj-16 prints them and named from its symbols',
    () => {
      for (const m of ok('x86-64-elf')) {
        const exe = join(dir, `${m.name}.exe`);
        tool(GNU_LD, ['-o', exe, join(dir, m.object!), '-e', 'f0', '--unresolved-symbols=ignore-all']);
        const theirs = fromVersionLine(tool(LLVM16.path('llvm-readobj'), ['--stackmap', exe]));
        const section = readStackMaps(new Uint8Array(readFileSync(exe))).sections[0]!;
        const ours = printStackMapReadobj(section).trimEnd();
        expect(ours, firstDifference(ours, theirs)).toBe(theirs);
        expect(section.map.functions.every((f) => f.address !== 0n)).toBe(true);
        expect(section.functionNames.every((n) => n !== undefined && /^f\d+$/.test(n))).toBe(true);
      }
    },
  );

  it('a bare section is read in its byte order without being told it (found from the sizes), on every target', () => {
    const wrong: string[] = [];
    for (const m of manifest.filter((e) => e.status === 'ok')) {
      const bytes = new Uint8Array(readFileSync(join(dir, m.section!)));
      const found = decodeStackMapSection(bytes);
      if (found.endian !== m.endian) wrong.push(`${m.ll}: read as ${found.endian}-endian, the target is ${m.endian}`);
      const bare = readStackMaps(bytes);
      expect(bare.container).toBe('bare');
      const fromObject = readStackMaps(new Uint8Array(readFileSync(join(dir, m.object!)))).sections[0]!;
      if (
        JSON.stringify(bare.sections[0]!.map, (_, v) => (typeof v === 'bigint' ? String(v) : v)) !==
        JSON.stringify(fromObject.map, (_, v) => (typeof v === 'bigint' ? String(v) : v))
      )
        wrong.push(`${m.ll}: the bare section reads otherwise than the object's`);
    }
    expect(wrong).toEqual([]);
  });
});
