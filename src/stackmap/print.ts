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
import { LOCATION_KIND_NAMES, LocationKind, type StackMap, type StackMapLocation } from './model.js';
import type { StackMapSection } from './read.js';
import { dwarfRegisterName } from './registers.js';
import { readStatepoint } from './statepoint.js';
import { describeLayout } from './layout.js';
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

/** llvm-readobj-16's lines for a section (from the version line on). */
export function printReadobj(s: Pick<StackMapSection, 'map' | 'grouping'>): string {
  const { map } = s;
  const out: string[] = [];
  const counts = recordCounts(s);
  out.push(`LLVM StackMap Version: ${map.version}\n`, `Num Functions: ${map.functions.length}\n`);
  map.functions.forEach((f, i) => {
    const count = counts[i];
    out.push(`  Function address: ${f.address}, stack size: ${f.stackSize}${count === undefined ? '' : `, callsite record count: ${count}`}\n`);
  });
  out.push(`Num Constants: ${map.constants.length}\n`);
  map.constants.forEach((c, i) => out.push(`  #${i + 1}: ${c}\n`));
  out.push(`Num Records: ${map.records.length}\n`);
  for (const r of map.records) {
    out.push(`  Record ID: ${r.id}, instruction offset: ${r.instructionOffset}\n`, `    ${r.locations.length} locations:\n`);
    r.locations.forEach((l, i) => out.push(`      #${i + 1}: ${readobjLocation(map, l)}, size: ${l.size}\n`));
    out.push(`    ${r.liveOuts.length} live-outs: [ ${r.liveOuts.map((lo) => `R#${lo.reg} (${lo.size}-bytes) `).join('')}]\n`);
  }
  return out.join('');
}

function readobjLocation(map: StackMap, l: StackMapLocation): string {
  switch (l.kind) {
    case LocationKind.Register:
      return `Register R#${l.reg}`;
    case LocationKind.Direct:
      return `Direct R#${l.reg} + ${l.offset}`;
    case LocationKind.Indirect:
      return `Indirect [R#${l.reg} + ${l.offset}]`;
    case LocationKind.Constant:
      return `Constant ${u32(l.offset)}`;
    case LocationKind.ConstantIndex:
      return `ConstantIndex #${u32(l.offset)} (${constantAt(map, u32(l.offset))})`;
    default:
      return ''; // llvm-readobj's switch prints nothing for an unknown kind
  }
}

/** LLVM 3.7's (version 1) and 4.0's (version 2, with record counts) `llvm-readobj -stackmap` text. */
export function printText(s: Pick<StackMapSection, 'map' | 'grouping'>): string {
  const { map } = s;
  let o = `LLVM StackMap Version: ${map.version}\nNum Functions: ${map.functions.length}`;
  for (const f of map.functions) o += `\n  Function address: ${f.address}, stack size: ${f.stackSize}${f.recordCount === undefined ? '' : `, callsite record count: ${f.recordCount}`}`;
  o += `\nNum Constants: ${map.constants.length}`;
  map.constants.forEach((c, i) => (o += `\n  #${i + 1}: ${c}`));
  o += `\nNum Records: ${map.records.length}`;
  for (const r of map.records) {
    o += `\n  Record ID: ${r.id}, instruction offset: ${r.instructionOffset}\n    ${r.locations.length} locations:`;
    r.locations.forEach((l, i) => (o += `\n      #${i + 1}: ${readobjLocation(map, l)}`));
    o += `\n    ${r.liveOuts.length} live-outs: [ ${r.liveOuts.map((lo) => `R#${lo.reg} (${lo.size}-bytes) `).join('')}]\n`;
  }
  return `${o}\n`;
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
      locations: r.locations.map((l) => ({ kind: LOCATION_KIND_NAMES[l.kind] ?? l.kind, size: l.size, register: l.reg, registerName: dwarfRegisterName(s.found.arch, l.reg) ?? null, offset: l.offset })),
      liveOuts: r.liveOuts.map((lo) => ({ register: lo.reg, registerName: dwarfRegisterName(s.found.arch, lo.reg) ?? null, size: lo.size })),
      statepoint: readStatepoint(map, r) ? true : undefined,
    })),
  };
}
