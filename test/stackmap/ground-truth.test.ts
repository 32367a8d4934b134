/**
 * The stack map library against LLVM 16 itself, over a seeded set of objects llc-16 compiles for
 * every target that writes stack maps (tools/stackmap-objects.ts; docs/stackmaps-ground-truth.md):
 * our `--syntax readobj` text is llvm-readobj-16's from its version line on, every section writes
 * back byte for byte, version 3 → 2 → 3 and 3 → 1 → 3 give the original bytes or refuse by name.
 *
 * llvm-readobj-16 checks the version on ELF only, but llc-16 writes version 3, which is what it
 * parses everywhere: so it is trusted here on ELF, Mach-O and COFF alike for these objects (the
 * historic version-1 Mach-O object, which it misreads, is test/stackmap/fixtures.test.ts's).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { checkGeneratedObject, firstDifference, fromVersionLine, oversizedLocation, type ObjectCheck } from '../../tools/stackmap-compare.js';
import { readStackMaps } from '../../src/stackmap/index.js';
import { memoryIo } from '../cli/memory-io.js';
import { STACKMAP_TARGETS } from '../../tools/stackmap-ir.js';
import { generateStackmapObjects, type GeneratedObject } from '../../tools/stackmap-objects.js';
import { debianLlvm, needs } from '../support/tools.js';

const LLVM16 = debianLlvm(16);
/** Modest, so that the suite stays quick on two cores; `npm run stackmap-scoreboard` runs more. */
const OBJECTS_PER_TARGET = 7;
const SEED = 31;

describe.skipIf(!LLVM16.present)('stack maps of llc-16 objects, against llvm-readobj-16', needs(LLVM16), () => {
  let dir = '';
  let manifest: GeneratedObject[] = [];
  const checks = new Map<string, ObjectCheck>();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stackmap-truth-'));
    manifest = generateStackmapObjects({ out: dir, count: OBJECTS_PER_TARGET, seed: SEED, bin: LLVM16.dir });
    for (const entry of manifest) if (entry.status === 'ok') checks.set(`${entry.target}/${entry.name}`, checkGeneratedObject(entry, dir));
  });
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  /** The objects of one target with their checks, failing loudly when llc made none. */
  const of = (target: string): [GeneratedObject, ObjectCheck][] => {
    const entries = manifest.filter((m) => m.target === target);
    const failed = entries.filter((m) => m.status !== 'ok').map((m) => `${m.name}: ${m.status} ${m.message ?? ''}`);
    expect(failed, 'llc-16 compiled every generated module').toEqual([]);
    expect(entries.length).toBe(OBJECTS_PER_TARGET);
    return entries.map((m) => [m, checks.get(`${m.target}/${m.name}`)!]);
  };
  const failures = (target: string, pass: (c: ObjectCheck) => boolean, topic: string): string[] =>
    of(target)
      .filter(([, c]) => !pass(c))
      .map(([m, c]) => `${m.ll}: ${c.problems.filter((p) => p.startsWith(topic)).join('; ') || c.problems.join('; ')}`);

  for (const target of STACKMAP_TARGETS) {
    describe(`${target.name} (${target.triple})`, () => {
      it('reads version 3 and prints exactly what llvm-readobj-16 --stackmap prints from the version line on', () => {
        // -stackmap-version=1|2 objects (every seventh) carry that byte over the version-3 layout.
        expect(of(target.name).map(([m, c]) => [c.version, m.stackmapVersion ?? 3])).toEqual(
          of(target.name).map(([m]) => [m.stackmapVersion ?? 3, m.stackmapVersion ?? 3]),
        );
        expect(failures(target.name, (c) => c.readobj, 'readobj')).toEqual([]);
      });
      it('names every function entry by its symbol, from the relocations', () => {
        expect(failures(target.name, (c) => c.named, 'names')).toEqual([]);
      });
      it("--check finds no error in llc-16's output (and on PowerPC warns of the SPE register numbers exactly where they are)", () => {
        expect(failures(target.name, (c) => c.checked, 'check')).toEqual([]);
      });
      it("writes every section back byte for byte (from the object and from llvm-objcopy-16's bare dump)", () => {
        expect(failures(target.name, (c) => c.writeBack, 'write-back')).toEqual([]);
      });
      it('goes 3 → 2 → 3 to the original bytes, or refuses version 2 naming the location too big for its size byte', () => {
        expect(failures(target.name, (c) => c.via2 === 'identical' || c.via2 === 'refused', '3 → 2')).toEqual([]);
      });
      it("the CLI's `stackmap --syntax readobj` prints llvm-readobj-16's text, and `--to-version 2` then `--to-version 3` gives the section back", async () => {
        const problems: string[] = [];
        for (const [m] of of(target.name)) {
          if (m.stackmapVersion !== undefined) continue; // llvm-readobj-16 does not read these as they are (see stackmap-compare.ts)
          const object = new Uint8Array(readFileSync(join(dir, m.object!)));
          const io = memoryIo({ 'in.o': object });
          const status = await run(['stackmap', '--syntax', 'readobj', 'in.o'], io);
          const theirs = fromVersionLine(readFileSync(join(dir, m.readobj!), 'utf8'));
          if (status !== 0 || io.out().trimEnd() !== theirs)
            problems.push(`${m.ll}: exit ${status} ${io.err()} ${firstDifference(io.out().trimEnd(), theirs)}`);
          const section = new Uint8Array(readFileSync(join(dir, m.section!)));
          const tooBig = oversizedLocation(readStackMaps(object).sections[0]!.map) !== undefined;
          const down = memoryIo({ 'in.o': object });
          const downStatus = await run(['stackmap', '--to-version', '2', '-o', 'v2.bin', 'in.o'], down);
          if (tooBig) {
            if (downStatus !== 1 || !/location/.test(down.err()))
              problems.push(`${m.ll}: --to-version 2 of a location over 255 bytes: exit ${downStatus}, ${down.err()}`);
            continue;
          }
          const up = memoryIo({ 'v2.bin': down.files.get('v2.bin') ?? new Uint8Array() });
          const upStatus = await run(['stackmap', '--to-version', '3', '--endian', m.endian, '-o', 'v3.bin', 'v2.bin'], up);
          const back = up.files.get('v3.bin');
          if (downStatus !== 0 || upStatus !== 0 || back === undefined || !Buffer.from(back).equals(section))
            problems.push(`${m.ll}: --to-version 2 (exit ${downStatus} ${down.err()}) then 3 (exit ${upStatus} ${up.err()}) did not give the section back`);
        }
        expect(problems).toEqual([]);
      });
      it('goes 3 → 1 → 3 regrouping by the rule with the functions the relocations name, or refuses: never a wrong grouping', () => {
        expect(failures(target.name, (c) => c.via1 === 'identical' || c.via1 === 'refused', '3 → 1')).toEqual([]);
      });
    });
  }

  // A user asking for version 2 means LLVM 4.0's layout, also of the version-3 layout labelled 2.
  it("`--to-version 2` of an llc -stackmap-version=2 object writes LLVM 4.0's version 2 (8-byte locations), not the same bytes", async () => {
    const m = manifest.find((e) => e.status === 'ok' && e.stackmapVersion === 2 && e.format === 'elf');
    expect(m, 'a -stackmap-version=2 ELF object in the set').toBeDefined();
    const object = new Uint8Array(readFileSync(join(dir, m!.object!)));
    const io = memoryIo({ 'in.o': object });
    expect(await run(['stackmap', '--to-version', '2', '-o', 'out', 'in.o'], io)).toBe(0);
    const out = io.files.get('out')!;
    const section = readStackMaps(out).sections[0]!;
    expect(section.map.version).toBe(2);
    expect(section.map.variant).toBe('llvm');
  });

  it('the set exercises what it is meant to: big locations, dynamic frames, large constants, wide ids, every intrinsic', () => {
    const ok = manifest.filter((m) => m.status === 'ok');
    const sum = (f: (m: GeneratedObject) => number) => ok.reduce((n, m) => n + f(m), 0);
    expect(sum((m) => m.features?.bigVectors ?? 0)).toBeGreaterThan(0);
    expect(sum((m) => (m.features?.dynamicAlloca ? 1 : 0))).toBeGreaterThan(0);
    expect(sum((m) => m.features?.largeConstants ?? 0)).toBeGreaterThan(0);
    expect(sum((m) => m.features?.wideIds ?? 0)).toBeGreaterThan(0);
    expect(sum((m) => m.features?.anyreg ?? 0)).toBeGreaterThan(0);
    for (const kind of ['stackmap', 'patchpoint.void', 'patchpoint.i64', 'statepoint'] as const)
      expect(
        sum((m) => m.features?.calls[kind] ?? 0),
        kind,
      ).toBeGreaterThan(0);
    // Some section must have been refused as version 2 (a location of 256 bytes or more), some not.
    const via2 = [...checks.values()].map((c) => c.via2);
    expect(via2).toContain('refused');
    expect(via2).toContain('identical');
  });
});
