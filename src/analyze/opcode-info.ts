/**
 * What the analyzer's walk needs to know of each raw opcode number of a format row, worked out
 * once per row instead of once per instruction: the name the figures count it under (a signless
 * `div`/`rem` by its operand class), whether it ends a basic block, and how LLVM treated it when
 * unknown. Names are interned as small numbers so the per-instruction count is an array slot.
 */
import { decodeOpcode, resolveSignless, shiftInstructionOpcode, type FormatRow } from '../format/format-table.js';

/** The operand classes of LLVM 1.9's signless upgrade, in `OpcodeInfo.ids` order. */
export const UNSIGNED_CLASS = 0;
export const SIGNED_CLASS = 1;
export const FLOAT_CLASS = 2;

export interface OpcodeInfo {
  /** Interned name per operand class (unsigned, signed, float); the same id thrice but for div/rem. */
  readonly ids: readonly [number, number, number];
  /** Neither an instruction nor a pseudo-opcode of the row (LLVM: "Unrecognized instruction!"). */
  readonly unknown: boolean;
  /** Unknown, and rejected earlier by the obsolete-opcode check of the signless versions (v0–v5). */
  readonly obsoleteRejected: boolean;
  /** Ends a basic block. */
  readonly terminator: boolean;
  readonly phi: boolean;
}

const TERMINATORS: ReadonlySet<string> = new Set(['ret', 'br', 'switch', 'invoke', 'unwind', 'unreachable', 'invokeWithCC', 'invokeFastCC']);

const names: string[] = [];
const idOf = new Map<string, number>();

/** The small number standing for `name` (stable for the life of the process). */
export function internName(name: string): number {
  let id = idOf.get(name);
  if (id === undefined) {
    id = names.length;
    names.push(name);
    idOf.set(name, id);
  }
  return id;
}

export function nameOf(id: number): string {
  return names[id]!;
}

/** One opcode's facts (uncached: `opcodeTable` keeps the 64 of an instruction word). */
export function opcodeInfoFor(row: FormatRow, opcode: number): OpcodeInfo {
  const decoded = decodeOpcode(row, opcode, false);
  if (decoded.kind === 'unknown') {
    const shifted = row.signlessInstructions ? shiftInstructionOpcode(row, opcode) : opcode;
    const id = internName(`opcode${opcode}`);
    return { ids: [id, id, id], unknown: true, obsoleteRejected: row.signlessInstructions && shifted !== 35 && shifted !== 36, terminator: false, phi: false };
  }
  const name = decoded.kind === 'instruction' ? decoded.name : decoded.pseudo;
  const ids: [number, number, number] =
    name === 'div' || name === 'rem'
      ? [internName(resolveSignless(name, 'unsigned')), internName(resolveSignless(name, 'signed')), internName(resolveSignless(name, 'float'))]
      : [internName(name), internName(name), internName(name)];
  return { ids, unknown: false, obsoleteRejected: false, terminator: TERMINATORS.has(name), phi: name === 'phi' };
}

const tables = new Map<FormatRow, readonly OpcodeInfo[]>();

/** The 64 opcode numbers an instruction word can hold, for `row`. */
export function opcodeTable(row: FormatRow): readonly OpcodeInfo[] {
  let t = tables.get(row);
  if (!t) {
    t = Array.from({ length: 64 }, (_, op) => opcodeInfoFor(row, op));
    tables.set(row, t);
  }
  return t;
}

/** Counts by interned name, remembering the order names first appeared (the JSON's key order). */
export class NameCounter {
  private readonly counts: number[] = [];
  private readonly order: number[] = [];

  add(id: number): void {
    const c = this.counts[id];
    if (c === undefined) {
      this.order.push(id);
      this.counts[id] = 1;
    } else this.counts[id] = c + 1;
  }

  /** Adds the counts into `into`, names in first-seen order. */
  addTo(into: Record<string, number>): void {
    for (const id of this.order) {
      const name = nameOf(id);
      into[name] = (into[name] ?? 0) + this.counts[id]!;
    }
  }
}
