/**
 * The seeds of the coverage-guided stack map target (`npm run fuzz:coverage -- --target stackmap`),
 * written as files into a folder: objects of every container and bare sections, so that libFuzzer
 * starts from both shapes of input.
 *
 * - generated sections of every version and byte order, the forks' variants and ELF32/ELF64
 *   objects around them (fuzz-stackmap-seeds.ts), always;
 * - with LLVM 16 (`LLVM_BYTECODE_LLVM16`, else /usr/lib/llvm-16/bin): llc-16's objects of every
 *   target (ELF of both classes and byte orders, Mach-O 32/64, COFF) and their bare sections
 *   (stackmap-objects.ts), a universal Mach-O file, and the fixtures of versions 0–2 and the forks
 *   assembled by llvm-mc-16 (stackmap-fixtures.ts), as objects and sections;
 * - the real version-1 object of ../shared/stackmaps/historic when it is there.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from './corpus-location.js';
import { stackMapSeeds } from './fuzz-stackmap-seeds.js';
import { seededRandom } from './seeded-random.js';
import { assembleStackmapFixture, stackmapFixtureNames } from './stackmap-fixtures.js';
import { generateStackmapObjects, llvm16Bin, universalMachO } from './stackmap-objects.js';

/** The real version-1 object, found by the tests' rule (LLVM_BYTECODE_STACKMAPS, else ../shared/stackmaps). */
export function historicStackMapObject(): string {
  return join(resolve(process.env['LLVM_BYTECODE_STACKMAPS'] ?? join(PROJECT_ROOT, '../shared/stackmaps')), 'historic', 'v1-dxc-stackmap-test.macho-x86-64');
}

/** llc-16 objects per target among the seeds: enough for every container's shape, few enough to start fast. */
const OBJECTS_PER_TARGET = 2;

/** Writes the seeds into `dir` (`seed-N.bin`); returns how many, and what was left out and why. */
export function writeStackMapSeeds(dir: string, maxBytes: number): { count: number; notes: string[] } {
  mkdirSync(dir, { recursive: true });
  const notes: string[] = [];
  let count = 0;
  const add = (bytes: Uint8Array): void => {
    if (bytes.length <= maxBytes) writeFileSync(join(dir, `seed-${count++}.bin`), bytes);
  };
  for (const s of stackMapSeeds(seededRandom(1))) add(s.bytes);
  const bin = llvm16Bin();
  if (existsSync(join(bin, 'llc'))) {
    const work = mkdtempSync(join(tmpdir(), 'stackmap-seeds-'));
    try {
      const manifest = generateStackmapObjects({ out: work, count: OBJECTS_PER_TARGET, seed: 1, bin, reference: [2] });
      for (const m of manifest) {
        if (m.status !== 'ok') continue;
        add(new Uint8Array(readFileSync(join(work, m.object!))));
        add(new Uint8Array(readFileSync(join(work, m.section!))));
      }
      const slices = ['x86-64-macho', 'arm64-macho'].map((t) => manifest.find((m) => m.status === 'ok' && m.target === t));
      if (slices.every((m) => m !== undefined))
        add(
          universalMachO(
            bin,
            slices.map((m) => join(work, m!.object!)),
            join(work, 'universal.o'),
          ),
        );
      for (const name of stackmapFixtureNames()) {
        const { object, section } = assembleStackmapFixture(bin, name, work);
        add(object);
        add(section);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  } else {
    notes.push(`no llc-16 objects or fixtures (LLVM 16 not found in ${bin}: apt-get install llvm-16, or set LLVM_BYTECODE_LLVM16=DIR)`);
  }
  const historic = historicStackMapObject();
  if (existsSync(historic)) add(new Uint8Array(readFileSync(historic)));
  else notes.push(`no historic object (${historic} not found)`);
  return { count, notes };
}
