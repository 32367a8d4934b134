/**
 * The stack map ground truth's checks of one generated object (tools/stackmap-objects.ts),
 * shared by the oracle tests (test/stackmap/ground-truth.test.ts) and `npm run stackmap-scoreboard`:
 *
 * - `readobj`: our `--syntax readobj` text equals llvm-readobj-16's from its version line on (for
 *   `llc -stackmap-version=1|2` objects, which it refuses on ELF and calls version 3 elsewhere,
 *   from the line after it, and we must read them as the version-3 layout under that byte);
 * - `named`: every function entry is named by its function's symbol, through the relocations;
 * - `checked`: `--check` reports no error in llc-16's own output, and warns of PowerPC's SPE
 *   register numbers exactly when a location names one;
 * - `writeBack`: the section we read writes back byte-identical, from the object and from the bare
 *   section dumped by llvm-objcopy-16 (its byte order given, as `--endian` would);
 * - `via2`: written as version 2 and back as version 3 it is the original bytes, or writing version 2
 *   refuses, naming the location whose size a byte cannot hold (and only then);
 * - `via1`: written as version 1 (which has no record counts) and read back, its records regroup
 *   by the rule with the object's function sizes (from the relocations' symbols) to the original
 *   counts and version 3 gives the original bytes, or the grouping is refused as not settled: it is
 *   never a wrong grouping.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkStackMap,
  decodeStackMapSection,
  encodeStackMapSection,
  groupStackMapRecords as groupRecords,
  printStackMapReadobj as printReadobj,
  readStackMaps,
  StackMapError,
  type StackMap,
  type StackMapSection,
} from '../src/stackmap/index.js';
import { sameBytes } from './same-bytes.js';
import type { GeneratedObject } from './stackmap-objects.js';

export type RoundTrip = 'identical' | 'refused' | 'differs' | 'wrongly refused' | 'wrong grouping';

export interface ObjectCheck {
  /** The section's version byte as we read it (undefined when we could not read it). */
  version: number | undefined;
  /** Its layout variant (`llvm`, or `v3-layout` for llc -stackmap-version=1|2). */
  variant: string | undefined;
  readobj: boolean;
  /** Every function entry is named by its function's symbol (`f0`, `_f0` on Mach-O), from the relocations. */
  named: boolean;
  /**
   * `--check` finds no error in LLVM's own output, and on PowerPC warns of the SPE register numbers
   * (1200–1231) exactly when a location names one.
   */
  checked: boolean;
  writeBack: boolean;
  via2: RoundTrip;
  via1: RoundTrip;
  /** What went wrong, for a failing check (the first difference, an error message). */
  problems: string[];
}

/** llvm-readobj's output from its `LLVM StackMap Version:` line on (the file header lines before it are not ours to print). */
export function fromVersionLine(text: string): string {
  const at = text.indexOf('LLVM StackMap Version:');
  return at < 0 ? '' : text.slice(at).trimEnd();
}

/** The first line where two texts differ, for a readable failure. */
export function firstDifference(ours: string, theirs: string): string {
  const a = ours.split('\n');
  const b = theirs.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: ours ${JSON.stringify(a[i] ?? '(end)')}, llvm-readobj-16 ${JSON.stringify(b[i] ?? '(end)')}`;
  }
  return 'no difference';
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The first location of the map whose size a version-1/2 size byte cannot hold, if any. */
export function oversizedLocation(map: StackMap): string | undefined {
  for (let i = 0; i < map.records.length; i++) {
    const locations = map.records[i]!.locations;
    for (let j = 0; j < locations.length; j++) if (locations[j]!.size > 255) return `record #${i}'s location #${j + 1} (${locations[j]!.size} bytes)`;
  }
  return undefined;
}

/** Version 3 → 2 → 3. */
export function roundTripVia2(section: StackMapSection, original: Uint8Array): { result: RoundTrip; problem?: string } {
  const tooBig = oversizedLocation(section.map);
  let v2: Uint8Array;
  try {
    v2 = encodeStackMapSection(section.map, { version: 2, variant: 'llvm' });
  } catch (e) {
    if (tooBig === undefined) return { result: 'wrongly refused', problem: `version 2 refused: ${message(e)}` };
    // Refused by name: the message must say which location and that its size is the reason.
    return /location/.test(message(e)) && /\b\d+ bytes\b/.test(message(e))
      ? { result: 'refused' }
      : { result: 'differs', problem: `version 2 refused without naming the location: ${message(e)}` };
  }
  if (tooBig !== undefined) return { result: 'differs', problem: `version 2 written although ${tooBig} does not fit its size byte` };
  try {
    const back = encodeStackMapSection(decodeStackMapSection(v2, { endian: section.map.endian }), { version: 3 });
    return sameBytes(back, original) ? { result: 'identical' } : { result: 'differs', problem: 'version 3 → 2 → 3 changed the bytes' };
  } catch (e) {
    return { result: 'differs', problem: `version 2 → 3: ${message(e)}` };
  }
}

/**
 * Version 3 → 1 → 3: version 1 drops the record counts; they come back from the grouping rule with
 * the functions' sizes the object's symbols give (the relocations name each entry's function).
 */
export function roundTripVia1(section: StackMapSection, original: Uint8Array): { result: RoundTrip; problem?: string } {
  const truth = section.map.functions.map((f) => f.recordCount);
  let v1: Uint8Array;
  try {
    v1 = encodeStackMapSection(section.map, { version: 1, variant: 'llvm' });
  } catch (e) {
    if (oversizedLocation(section.map) !== undefined) return { result: 'refused' };
    return { result: 'wrongly refused', problem: `version 1 refused: ${message(e)}` };
  }
  const map = decodeStackMapSection(v1, { endian: section.map.endian });
  const sizes = section.functionNames.map((n) => (n === undefined ? undefined : section.found.symbolSizes.get(n)));
  const grouping = groupRecords(map, sizes);
  if (!grouping.settled) {
    // Not settled: writing version 3 from the bare version 1 must refuse too, not guess.
    try {
      encodeStackMapSection(map, { version: 3 });
    } catch (e) {
      return e instanceof StackMapError ? { result: 'refused' } : { result: 'differs', problem: `untyped error: ${message(e)}` };
    }
    // The rule without sizes may settle what it could not with them only if it agrees.
    return { result: 'differs', problem: 'version 3 written from version 1 although the grouping with sizes is not settled' };
  }
  if (grouping.counts.some((c, i) => BigInt(c) !== truth[i]))
    return { result: 'wrong grouping', problem: `grouped ${grouping.counts.join(',')}, the object says ${truth.join(',')}` };
  const regrouped: StackMap = { ...map, functions: map.functions.map((f, i) => ({ ...f, recordCount: BigInt(grouping.counts[i]!) })) };
  const back = encodeStackMapSection(regrouped, { version: 3 });
  return sameBytes(back, original) ? { result: 'identical' } : { result: 'differs', problem: 'version 3 → 1 → 3 changed the bytes' };
}

/** All the checks of one generated object. */
export function checkGeneratedObject(entry: GeneratedObject, outDir: string): ObjectCheck {
  const check: ObjectCheck = {
    version: undefined,
    variant: undefined,
    readobj: false,
    named: false,
    checked: false,
    writeBack: false,
    via2: 'differs',
    via1: 'differs',
    problems: [],
  };
  if (entry.status !== 'ok' || entry.object === undefined || entry.section === undefined || entry.readobj === undefined) {
    check.problems.push(`no object: ${entry.status}`);
    return check;
  }
  const object = new Uint8Array(readFileSync(join(outDir, entry.object)));
  const raw = new Uint8Array(readFileSync(join(outDir, entry.section)));
  const theirs = fromVersionLine(readFileSync(join(outDir, entry.readobj), 'utf8'));
  let section: StackMapSection;
  try {
    const file = readStackMaps(object);
    if (file.sections.length !== 1) throw new Error(`${file.sections.length} stack map sections`);
    section = file.sections[0]!;
  } catch (e) {
    check.problems.push(`read: ${message(e)}`);
    return check;
  }
  check.version = section.map.version;
  check.variant = section.map.variant;
  const ours = printReadobj(section).trimEnd();
  if (entry.stackmapVersion !== undefined && entry.format === 'elf') {
    // llvm-readobj-16 refuses a version other than 3 on ELF (a warning, no text): we must read it,
    // as the version-3 layout under its byte.
    check.readobj = theirs === '' && section.map.version === entry.stackmapVersion && section.map.variant === 'v3-layout';
    if (!check.readobj)
      check.problems.push(
        `readobj: -stackmap-version=${entry.stackmapVersion} read as version ${section.map.version} (${section.map.variant})${theirs === '' ? '' : ', and llvm-readobj-16 printed it'}`,
      );
  } else if (entry.stackmapVersion !== undefined) {
    // On Mach-O and COFF llvm-readobj-16 parses it as version 3 without looking, and prints
    // "Version: 3" over byte 1 or 2: everything after that line must be ours.
    const rest = (t: string) => t.slice(t.indexOf('\n'));
    check.readobj =
      theirs.startsWith('LLVM StackMap Version: 3\n') && ours.startsWith(`LLVM StackMap Version: ${entry.stackmapVersion}\n`) && rest(ours) === rest(theirs);
    if (!check.readobj) check.problems.push(`readobj: ${firstDifference(ours, theirs)}`);
  } else {
    check.readobj = ours === theirs;
    if (!check.readobj) check.problems.push(`readobj: ${firstDifference(ours, theirs)}`);
  }
  if (entry.functionNames !== undefined) {
    // A reference module: its functions, exactly and in order (Mach-O's symbols have a leading _).
    const names = section.functionNames.map((n) => n?.replace(/^_/, ''));
    check.named = names.join() === entry.functionNames.join() && names.every((n) => n !== undefined);
    if (!check.named)
      check.problems.push(
        `names: function entries named ${names.map((n) => n ?? '(unnamed)').join(', ')}, the module's functions are ${entry.functionNames.join(', ')}`,
      );
  } else {
    const unnamed = section.functionNames.map((n, i) => [n, i] as const).filter(([n]) => n === undefined || !/^_?f\d+$/.test(n));
    check.named = unnamed.length === 0 && section.functionNames.length > 0;
    if (!check.named)
      check.problems.push(`names: function entries ${unnamed.map(([n, i]) => `#${i} (${n ?? 'unnamed'})`).join(', ')} not named by their symbols`);
  }
  const diagnostics = checkStackMap({ map: section.map, grouping: section.grouping, arch: section.found.arch });
  const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
  const spe = section.map.records.some((r) => r.locations.some((l) => l.kind !== 4 && l.kind !== 5 && l.reg >= 1200 && l.reg <= 1231));
  const speWarned = diagnostics.some((d) => d.severity === 'warning' && /SPE/.test(d.message));
  const isPpc = section.found.arch === 'ppc64' || section.found.arch === 'ppc';
  check.checked = errors.length === 0 && (!isPpc || spe === speWarned);
  if (errors.length > 0) check.problems.push(`check: errors in llc-16's own output: ${errors.slice(0, 3).join('; ')}`);
  if (isPpc && spe !== speWarned)
    check.problems.push(`check: ${spe ? 'no SPE warning although a location names register 1200-1231' : 'an SPE warning without such a register'}`);
  try {
    const fromObject = encodeStackMapSection(section.map);
    const bare = decodeStackMapSection(raw, { endian: entry.endian });
    check.writeBack = sameBytes(fromObject, raw) && sameBytes(encodeStackMapSection(bare), raw);
    if (!check.writeBack) check.problems.push('write-back: the bytes differ from llvm-objcopy-16 --dump-section');
  } catch (e) {
    check.problems.push(`write-back: ${message(e)}`);
  }
  // The conversions end in LLVM's version 3, which for a -stackmap-version=1|2 section is its own
  // bytes with byte 0 set to 3.
  const asV3 = raw.slice();
  if (entry.stackmapVersion !== undefined) asV3[0] = 3;
  const via2 = roundTripVia2(section, asV3);
  check.via2 = via2.result;
  if (via2.problem) check.problems.push(`3 → 2 → 3: ${via2.problem}`);
  try {
    const via1 = roundTripVia1(section, asV3);
    check.via1 = via1.result;
    if (via1.problem) check.problems.push(`3 → 1 → 3: ${via1.problem}`);
  } catch (e) {
    check.problems.push(`3 → 1 → 3: ${message(e)}`);
  }
  return check;
}
