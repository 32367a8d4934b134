/**
 * The views of a read section:
 * - `readobj`: exactly what `llvm-readobj-16 --stackmap` prints from its `LLVM StackMap Version:`
 *   line on (its StackMapPrinter: unsigned small constants, sizes, live-outs). For versions 1 and 2
 *   the same lines, the record count taken from the section (version 2) or the grouping rule
 *   (version 1; left out when not settled);
 * - `text`: LLVM 3.7's `llvm-readobj -stackmap` text (versions 1 and 2; 4.0's adds the record
 *   counts): no location sizes, a blank line between records;
 * - `human` (the default): function names, register names, the statepoint layout;
 * - JSON (`stackMapJson`).
 */
import { LOCATION_KIND_NAMES, LocationKind, type StackMap, type StackMapLocation, type StackMapRecord } from './model.js';
import { Latin1Pieces, Latin1Writer } from '../binary/latin1-writer.js';
import { decodeLatin1 } from '../binary/latin1.js';
import type { StackMapSection } from './read.js';
import { dwarfRegisterName } from './registers.js';
import { readStatepoint } from './statepoint.js';
import { describeLayout } from './layout.js';
import { constantTableOf, recordTableOf } from './record-table.js';
import { readobjConstantsAndRecords } from './readobj-records.js';
import type { Arch } from './object.js';

export type StackMapSyntax = 'readobj' | 'text' | 'human';

/** Function i's record count as the printers show it: the section's, the grouping's, or none. */
function recordCounts(s: Pick<StackMapSection, 'map' | 'grouping'>): readonly (bigint | undefined)[] {
  return s.map.functions.map((f, i) => f.recordCount ?? (s.grouping.settled ? BigInt(s.grouping.counts[i]!) : undefined));
}

const u32 = (n: number) => n >>> 0;

function constantAt(map: StackMap, index: number): string {
  return index >= 0 && index < map.constants.length ? String(map.constants[index]) : '(no such constant)';
}

/**
 * The readobj and text printers write latin1 bytes into one growing buffer (the bytecode
 * printer's Latin1Writer) rather than concatenating strings: a section of 20,000 records is
 * megabytes of short pieces, and as strings their garbage was most of the time.
 */
function big(w: Latin1Writer, v: bigint): void {
  // Number(v) rounds only above 2^53, where it is then above MAX_SAFE_INTEGER too.
  const n = Number(v);
  if (n <= Number.MAX_SAFE_INTEGER) w.uint(n);
  else w.text(v.toString());
}

/** Bytes the readobj text of a section needs, about (so the buffer rarely grows). */
function estimate(map: StackMap): number {
  let locations = 0;
  for (const r of map.records) locations += r.locations.length;
  return 256 + map.functions.length * 80 + map.constants.length * 30 + map.records.length * 100 + locations * 48;
}

/** The fixed texts of the hot loops, copied four bytes at a time (see Latin1Pieces). */
const P = new Latin1Pieces();
const REGISTER = P.add('Register R#');
const DIRECT = P.add('Direct R#');
const INDIRECT = P.add('Indirect [R#');
const PLUS = P.add(' + ');
const CONSTANT = P.add('Constant ');
const CONSTANT_INDEX = P.add('ConstantIndex #');
const OPEN = P.add(' (');
const LIVE_OUTS_INDENT = P.add('    ');
const LIVE_OUTS = P.add(' live-outs: [ ');
const LIVE_OUT_REG = P.add('R#');
const BYTES_CLOSE = P.add('-bytes) ');
const CLOSE_LIST = P.add(']\n');
const RECORD_ID = P.add('  Record ID: ');
const INSTRUCTION_OFFSET = P.add(', instruction offset: ');
const LOCATIONS_INDENT = P.add('\n    ');
const LOCATIONS = P.add(' locations:\n');
const LOCATION_HASH = P.add('      #');
const COLON = P.add(': ');
const SIZE = P.add(', size: ');

function location(w: Latin1Writer, map: StackMap, l: StackMapLocation): void {
  switch (l.kind) {
    case LocationKind.Register:
      w.pieceUint(P, REGISTER, l.reg);
      return;
    case LocationKind.Direct:
      w.pieceUint(P, DIRECT, l.reg);
      w.piece(P, PLUS);
      w.int(l.offset);
      return;
    case LocationKind.Indirect:
      w.pieceUint(P, INDIRECT, l.reg);
      w.piece(P, PLUS);
      w.int(l.offset);
      w.byte(0x5d);
      return;
    case LocationKind.Constant:
      w.pieceUint(P, CONSTANT, u32(l.offset));
      return;
    case LocationKind.ConstantIndex:
      w.pieceUint(P, CONSTANT_INDEX, u32(l.offset));
      w.piece(P, OPEN);
      w.text(constantAt(map, u32(l.offset)));
      w.byte(0x29);
      return;
    default:
      return; // llvm-readobj's switch prints nothing for an unknown kind
  }
}

function liveOuts(w: Latin1Writer, r: StackMapRecord): void {
  w.pieceUint(P, LIVE_OUTS_INDENT, r.liveOuts.length);
  w.piece(P, LIVE_OUTS);
  for (const lo of r.liveOuts) {
    w.pieceUint(P, LIVE_OUT_REG, lo.reg);
    w.pieceUint(P, OPEN, lo.size);
    w.piece(P, BYTES_CLOSE);
  }
  w.piece(P, CLOSE_LIST);
}

/**
 * What `llvm-readobj-16 --stackmap` prints from its version line on, as latin1 bytes. For
 * versions 1 and 2 the same lines; the record counts are the section's (version 2) or the
 * grouping rule's (version 1, left out when not settled). With `sink`, the text may be handed to
 * it in pieces first (each a view valid until `sink` returns; when the records are still the
 * section's bytes) and the result is then the rest.
 */
export function printReadobjBytes(s: Pick<StackMapSection, 'map' | 'grouping'>, sink?: (chunk: Uint8Array) => void): Uint8Array {
  const { map } = s;
  // Records not yet made are printed from the section's bytes (readobj-records.ts).
  const table = recordTableOf(map);
  const w = new Latin1Writer(table ? 256 + map.functions.length * 80 : estimate(map));
  const counts = recordCounts(s);
  w.text('LLVM StackMap Version: ');
  w.uint(map.version);
  w.text('\nNum Functions: ');
  w.uint(map.functions.length);
  w.byte(10);
  map.functions.forEach((f, i) => {
    w.text('  Function address: ');
    big(w, f.address);
    w.text(', stack size: ');
    big(w, f.stackSize);
    const count = counts[i];
    if (count !== undefined) {
      w.text(', callsite record count: ');
      big(w, count);
    }
    w.byte(10);
  });
  // The constants too, while they have not been made.
  if (table) return readobjConstantsAndRecords(w.takeView(), table, constantTableOf(map) ?? map.constants, sink);
  w.text('Num Constants: ');
  w.uint(map.constants.length);
  w.byte(10);
  map.constants.forEach((c, i) => {
    w.text('  #');
    w.uint(i + 1);
    w.text(': ');
    big(w, c);
    w.byte(10);
  });
  w.text('Num Records: ');
  w.uint(map.records.length);
  w.byte(10);
  for (const r of map.records) {
    w.piece(P, RECORD_ID);
    big(w, r.id);
    w.pieceUint(P, INSTRUCTION_OFFSET, r.instructionOffset);
    w.pieceUint(P, LOCATIONS_INDENT, r.locations.length);
    w.piece(P, LOCATIONS);
    for (let i = 0; i < r.locations.length; i++) {
      const l = r.locations[i]!;
      w.pieceUint(P, LOCATION_HASH, i + 1);
      w.piece(P, COLON);
      location(w, map, l);
      w.pieceUint(P, SIZE, l.size);
      w.byte(10);
    }
    liveOuts(w, r);
  }
  return w.takeView();
}

/** llvm-readobj-16's lines for a section (from the version line on), as a string. */
export function printReadobj(s: Pick<StackMapSection, 'map' | 'grouping'>): string {
  const b = printReadobjBytes(s);
  return decodeLatin1(b, 0, b.length);
}

/** LLVM 3.7's (version 1) and 4.0's (version 2, with record counts) `llvm-readobj -stackmap` text, as latin1 bytes. */
export function printTextBytes(s: Pick<StackMapSection, 'map' | 'grouping'>): Uint8Array {
  const { map } = s;
  const w = new Latin1Writer(estimate(map));
  w.text('LLVM StackMap Version: ');
  w.uint(map.version);
  w.text('\nNum Functions: ');
  w.uint(map.functions.length);
  for (const f of map.functions) {
    w.text('\n  Function address: ');
    big(w, f.address);
    w.text(', stack size: ');
    big(w, f.stackSize);
    if (f.recordCount !== undefined) {
      w.text(', callsite record count: ');
      big(w, f.recordCount);
    }
  }
  w.text('\nNum Constants: ');
  w.uint(map.constants.length);
  map.constants.forEach((c, i) => {
    w.text('\n  #');
    w.uint(i + 1);
    w.text(': ');
    big(w, c);
  });
  w.text('\nNum Records: ');
  w.uint(map.records.length);
  for (const r of map.records) {
    w.text('\n  Record ID: ');
    big(w, r.id);
    w.text(', instruction offset: ');
    w.uint(r.instructionOffset);
    w.text('\n    ');
    w.uint(r.locations.length);
    w.text(' locations:');
    for (let i = 0; i < r.locations.length; i++) {
      w.text('\n      #');
      w.uint(i + 1);
      w.text(': ');
      location(w, map, r.locations[i]!);
    }
    w.byte(10);
    liveOuts(w, r);
  }
  w.byte(10);
  return w.takeView();
}

/** LLVM 3.7's and 4.0's text, as a string. */
export function printText(s: Pick<StackMapSection, 'map' | 'grouping'>): string {
  const b = printTextBytes(s);
  return decodeLatin1(b, 0, b.length);
}

function reg(arch: Arch, n: number): string {
  // PowerPC64 has no SPE: LLVM's SPE numbers there are a bug naming a plain GPR (see check.ts).
  if (arch === 'ppc64' && n >= 1200 && n <= 1231) return `r${n - 1200} (written as SPE's ${n})`;
  return dwarfRegisterName(arch, n) ?? `R#${n}`;
}

function humanLocation(map: StackMap, arch: Arch, l: StackMapLocation): string {
  const size = l.size ? `, ${l.size} bytes` : '';
  const off = (o: number) => (o < 0 ? ` - ${-o}` : ` + ${o}`);
  switch (l.kind) {
    case LocationKind.Register:
      return `register ${reg(arch, l.reg)}${size}`;
    case LocationKind.Direct:
      return `address ${reg(arch, l.reg)}${off(l.offset)}${size}`;
    case LocationKind.Indirect:
      return `memory [${reg(arch, l.reg)}${off(l.offset)}]${size}`;
    case LocationKind.Constant:
      return `constant ${l.offset}${size}`;
    case LocationKind.ConstantIndex:
      return `constant ${constantAt(map, l.offset)} (pool #${l.offset})${size}`;
    default:
      return `unknown kind ${l.kind} (register ${l.reg}, offset ${l.offset})${size}`;
  }
}

const UINT64_MAX = (1n << 64n) - 1n;

/** The default view: per function, named, with register names and statepoints read. */
export function printHuman(s: StackMapSection): string {
  const { map, found } = s;
  const arch = found.arch;
  const lines: string[] = [];
  const where = found.container === 'bare' ? 'bare section' : `${found.sectionName} in ${found.format}`;
  lines.push(`Stack map ${describeLayout(map.version, map.variant)}, ${map.endian}-endian (${where})`);
  lines.push(`${map.functions.length} functions, ${map.constants.length} constants, ${map.records.length} records`);
  const counts = recordCounts(s);
  let next = 0;
  const recordLines = (from: number, to: number, fn: string | undefined) => {
    for (let i = from; i < to; i++) {
      const r = map.records[i]!;
      const at = fn ? `${fn}+${r.instructionOffset}` : `offset ${r.instructionOffset}`;
      const invalid = r.id === UINT64_MAX && r.locations.length === 0 ? ' (LLVM could not encode this record: more than 65535 locations)' : '';
      lines.push(`  record #${i} id ${r.id} at ${at}${invalid}`);
      const sp = readStatepoint(map, r);
      const loc = (l: StackMapLocation) => humanLocation(map, arch, l);
      if (sp) {
        lines.push(`    statepoint: calling convention ${sp.callingConvention}, flags ${sp.flags}`);
        lines.push(`    deopt (${sp.deopt.length}):${sp.deopt.length ? '' : ' none'}`);
        sp.deopt.forEach((l, k) => lines.push(`      ${k + 1}: ${loc(l)}`));
        lines.push(`    gc pointers (${sp.gcPairs.length} base, derived pairs):${sp.gcPairs.length ? '' : ' none'}`);
        sp.gcPairs.forEach((p, k) => lines.push(`      ${k + 1}: base ${loc(p.base)}; derived ${loc(p.derived)}`));
      } else {
        r.locations.forEach((l, k) => lines.push(`    ${k + 1}: ${loc(l)}`));
      }
      if (r.liveOuts.length) lines.push(`    live-outs: ${r.liveOuts.map((lo) => `${reg(arch, lo.reg)} (${lo.size} bytes)`).join(', ')}`);
    }
  };
  map.functions.forEach((f, i) => {
    const name = s.functionNames[i];
    const stack = f.stackSize === UINT64_MAX ? 'variable-sized or realigned frame' : `stack size ${f.stackSize}`;
    const count = counts[i];
    lines.push('', `function ${name ?? `#${i}`} (address ${f.address}, ${stack})${count === undefined ? '' : `: ${count} records`}`);
    if (count !== undefined && s.grouping.settled) {
      const n = Number(count);
      recordLines(next, Math.min(next + n, map.records.length), name);
      next += n;
    }
  });
  if (next < map.records.length) {
    lines.push('', s.grouping.settled || map.functions.length === 0 ? 'records:' : `records (not grouped per function: ${s.grouping.reason}):`);
    recordLines(next, map.records.length, undefined);
  }
  return `${lines.join('\n')}\n`;
}

/** The section as JSON-ready data: 64-bit values as decimal strings. */
export function stackMapJson(s: StackMapSection): unknown {
  const { map } = s;
  const names = s.functionNames;
  return {
    container: s.found.container,
    format: s.found.format,
    section: s.found.sectionName,
    fileOffset: s.found.fileOffset,
    version: map.version,
    layout: describeLayout(map.version, map.variant),
    variant: map.variant,
    endian: map.endian,
    functions: map.functions.map((f, i) => ({
      name: names[i] ?? null,
      address: String(f.address),
      stackSize: String(f.stackSize),
      recordCount: f.recordCount === undefined ? (s.grouping.settled ? s.grouping.counts[i] : null) : String(f.recordCount),
    })),
    grouping: s.grouping.settled ? { settled: true, by: s.grouping.how } : { settled: false, reason: s.grouping.reason },
    constants: map.constants.map(String),
    records: map.records.map((r) => ({
      id: String(r.id),
      instructionOffset: r.instructionOffset,
      locations: r.locations.map((l) => ({
        kind: LOCATION_KIND_NAMES[l.kind] ?? l.kind,
        size: l.size,
        register: l.reg,
        registerName: dwarfRegisterName(s.found.arch, l.reg) ?? null,
        offset: l.offset,
      })),
      liveOuts: r.liveOuts.map((lo) => ({ register: lo.reg, registerName: dwarfRegisterName(s.found.arch, lo.reg) ?? null, size: lo.size })),
      statepoint: readStatepoint(map, r) ? true : undefined,
    })),
  };
}
