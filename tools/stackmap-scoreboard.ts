/**
 * `npm run stackmap-scoreboard`: how the stack map library measures against the ground truth
 * (docs/stackmaps-ground-truth.md), per target and version, as a Markdown table:
 *
 * - the generated objects (tools/stackmap-objects.ts: llc-16, version 3; the seeded modules and
 *   each target's reference module at -O0 and -O2, on a row of its own), each checked as the
 *   oracle tests check them (tools/stackmap-compare.ts): `--syntax readobj` text equal to
 *   llvm-readobj-16's, write-back byte-identical, 3 → 2 → 3 and 3 → 1 → 3 identical or refused by
 *   name (a wrong grouping or a wrong refusal counts as a failure);
 * - the fixtures of versions 0–2 and the forks (test/stackmap/fixtures/, assembled by llvm-mc-16):
 *   read (or refused by name, for the forks this library does not read) and written back, and
 *   LLVM's versions 1 and 2 taken to version 3 and back (in the column of their own version).
 *
 * Options: `--count N` objects per target (default 20), `--seed S` (default 1), `--from DIR` (score
 * an existing `stackmap-objects` output instead of generating one), `--verbose` (each failure).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeStackMapSection, encodeStackMapSection, readStackMaps, StackMapError, type StackMap } from '../src/stackmap/index.js';
import { sameBytes } from './same-bytes.js';
import { checkGeneratedObject } from './stackmap-compare.js';
import { assembleStackmapFixture, stackmapFixtureNames, type AssembledFixture } from './stackmap-fixtures.js';
import { STACKMAP_TARGETS } from './stackmap-ir.js';
import { generateStackmapObjects, llvm16Bin, readStackmapManifest, type GeneratedObject } from './stackmap-objects.js';
import { readToolOptions } from './tool-options.js';

export interface ScoreRow {
  target: string;
  version: string;
  objects: number;
  sections: number;
  readobj: string;
  named: string;
  checked: string;
  writeBack: string;
  via2: string;
  via1: string;
}

function tally(pass: number, total: number, extra = ''): string {
  return `${pass}/${total}${extra}`;
}

/** Rows for the generated objects: one per (target, version read). */
export function scoreGenerated(manifest: readonly GeneratedObject[], dir: string, failures: string[]): ScoreRow[] {
  const rows: ScoreRow[] = [];
  for (const target of STACKMAP_TARGETS) {
    const entries = manifest.filter((m) => m.target === target.name);
    if (entries.length === 0) continue;
    const byVersion = new Map<
      string,
      {
        objects: number;
        sections: number;
        readobj: number;
        named: number;
        checked: number;
        writeBack: number;
        via2: number;
        via2Refused: number;
        via1: number;
        via1Refused: number;
        noObject: number;
      }
    >();
    for (const entry of entries) {
      const c = checkGeneratedObject(entry, dir);
      const read =
        entry.status !== 'ok' ? `(${entry.status})` : c.version === undefined ? '(unread)' : `${c.version}${c.variant === 'llvm' ? '' : ` (${c.variant})`}`;
      // The reference modules (fixed IR, functions checked by name) get their own row.
      const version = entry.functionNames !== undefined ? `${read}, reference module` : read;
      const s = byVersion.get(version) ?? {
        objects: 0,
        sections: 0,
        readobj: 0,
        named: 0,
        checked: 0,
        writeBack: 0,
        via2: 0,
        via2Refused: 0,
        via1: 0,
        via1Refused: 0,
        noObject: 0,
      };
      s.objects++;
      if (entry.status === 'ok') s.sections++;
      if (c.readobj) s.readobj++;
      if (c.named) s.named++;
      if (c.checked) s.checked++;
      if (c.writeBack) s.writeBack++;
      if (c.via2 === 'identical') s.via2++;
      if (c.via2 === 'refused') s.via2Refused++;
      if (c.via1 === 'identical') s.via1++;
      if (c.via1 === 'refused') s.via1Refused++;
      byVersion.set(version, s);
      for (const p of entry.status === 'ok' ? c.problems : []) failures.push(`${entry.ll}: ${p}`);
    }
    for (const [version, s] of byVersion) {
      rows.push({
        target: `${target.name} (${target.format}, ${target.endian})`,
        version,
        objects: s.objects,
        sections: s.sections,
        readobj: tally(s.readobj, s.sections),
        named: tally(s.named, s.sections),
        checked: tally(s.checked, s.sections),
        writeBack: tally(s.writeBack, s.sections),
        via2: tally(s.via2 + s.via2Refused, s.sections, ` (${s.via2Refused} refused: a location over 255 bytes)`),
        via1: tally(s.via1 + s.via1Refused, s.sections, ` (${s.via1Refused} refused: a location over 255 bytes, or the grouping not settled)`),
      });
    }
  }
  return rows;
}

/** Rows for the fixtures: assembled by llvm-mc-16, read (or refused by name) and written back. */
export function scoreFixtures(bin: string, failures: string[]): ScoreRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'stackmap-score-fixtures-'));
  const rows: ScoreRow[] = [];
  try {
    for (const name of stackmapFixtureNames()) {
      const row: ScoreRow = {
        target: `fixture ${name}`,
        version: '?',
        objects: 1,
        sections: 0,
        readobj: 'n/a',
        named: 'n/a',
        checked: 'n/a',
        writeBack: '0/1',
        via2: 'n/a',
        via1: 'n/a',
      };
      let fixture: AssembledFixture;
      try {
        fixture = assembleStackmapFixture(bin, name, dir);
      } catch (e) {
        failures.push(`${name}.s: ${e instanceof Error ? e.message : String(e)}`);
        rows.push(row);
        continue;
      }
      row.target = `fixture ${name} (${fixture.triple})`;
      try {
        const s = readStackMaps(fixture.object).sections[0]!;
        row.version = `${s.map.version}${s.map.variant === 'llvm' ? '' : ` (${s.map.variant})`}`;
        row.sections = 1;
        const same = sameBytes(encodeStackMapSection(s.map), s.found.bytes) && sameBytes(s.found.bytes, fixture.section);
        row.writeBack = tally(same ? 1 : 0, 1);
        if (!same) failures.push(`${name}.s: write-back differs`);
        // LLVM's versions 1 and 2 through version 3 and back: the original bytes, or refused by name.
        if (s.map.variant === 'llvm' && (s.map.version === 1 || s.map.version === 2)) {
          const trip = throughVersion3(s.map, s.found.bytes);
          if (trip.startsWith('differs')) failures.push(`${name}.s: ${s.map.version} → 3 → ${s.map.version} ${trip}`);
          row[s.map.version === 1 ? 'via1' : 'via2'] = `${s.map.version} → 3 → ${s.map.version}: ${trip}`;
        }
      } catch (e) {
        if (e instanceof StackMapError && e.fork !== undefined) {
          row.version = `refused by name: ${e.fork}`;
          row.writeBack = 'n/a';
        } else {
          row.version = '(unread)';
          failures.push(`${name}.s: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      rows.push(row);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** A section of version 1 or 2 written as version 3 and back: 'identical', 'refused (why)' or 'differs'. */
function throughVersion3(map: StackMap, original: Uint8Array): string {
  let up: Uint8Array;
  try {
    up = encodeStackMapSection(map, { version: 3 });
  } catch (e) {
    if (e instanceof StackMapError) return `refused (${e.message})`;
    throw e;
  }
  const back = encodeStackMapSection(decodeStackMapSection(up, { endian: map.endian }), { version: map.version });
  return sameBytes(back, original) ? 'identical' : 'differs';
}

export function formatScoreboard(rows: readonly ScoreRow[]): string {
  const head = [
    'target',
    'version',
    'objects',
    'sections',
    'readobj text equal',
    'functions named',
    '--check clean',
    'write-back identical',
    '3 → 2 → 3 identical or refused',
    '3 → 1 → 3 identical or refused',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows)
    lines.push(`| ${[r.target, r.version, r.objects, r.sections, r.readobj, r.named, r.checked, r.writeBack, r.via2, r.via1].join(' | ')} |`);
  return lines.join('\n');
}

const USAGE = `usage: npm run stackmap-scoreboard -- [--count N] [--seed S] [--from DIR] [--verbose]

Scores the stack map library against llc-16 objects (generated, or --from a stackmap-objects
folder) and the version 0–2 fixtures, per target and version. LLVM 16 is looked for in
LLVM_BYTECODE_LLVM16, else /usr/lib/llvm-16/bin.`;

function main(argv: readonly string[]): number {
  let count = 20;
  let seed = 1;
  let from: string | undefined;
  let verbose = false;
  readToolOptions(argv, USAGE, (option, value) => {
    if (option === '--count') count = Number(value());
    else if (option === '--seed') seed = Number(value());
    else if (option === '--from') from = value();
    else if (option === '--verbose') verbose = true;
    else return false;
    return true;
  });
  if (!Number.isInteger(count) || count < 0) throw new Error('--count must be a whole number');
  const bin = llvm16Bin();
  const dir = from ?? mkdtempSync(join(tmpdir(), 'stackmap-score-'));
  try {
    const manifest = from !== undefined ? readStackmapManifest(from) : generateStackmapObjects({ out: dir, count, seed, bin, reference: [0, 2] });
    const failures: string[] = [];
    const rows = [...scoreGenerated(manifest, dir, failures), ...scoreFixtures(bin, failures)];
    const table = formatScoreboard(rows);
    console.log(table);
    console.log(`\n${failures.length} failing checks${from === undefined ? ` (seed ${seed}, ${count} objects per target)` : ''}`);
    if (verbose) for (const f of failures) console.log(`  ${f}`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    if (from === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    console.error(`stackmap-scoreboard: error: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
