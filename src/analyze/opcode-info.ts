/**
 * What the analyzer's walk needs to know of each raw opcode number of a format row, worked out
 * once per row instead of once per instruction: the name the figures count it under (a signless
 * `div`/`rem` by its operand class), whether it ends a basic block, and how LLVM treated it when
 * unknown. Names are interned as small numbers so the per-instruction count is an array slot.
 */
import { decodeOpcode, PSEUDO_OPCODE_BASE, resolveSignless, shiftInstructionOpcode, type FormatRow } from '../format/format-table.js';
import { isTerminatorOpcode } from '../graph/opcodes.js';

/** The operand classes of LLVM 1.9's signless upgrade, in `OpcodeInfo.ids` order. */
export const UNSIGNED_CLASS = 0;
export const SIGNED_CLASS = 1;
export const FLOAT_CLASS = 2;

export interface OpcodeInfo {
  /** Name per operand class (unsigned, signed, float); the same name thrice but for div/rem. */
  readonly names: readonly [string, string, string];
  /** The names interned (`internName`); -1 for an opcode beyond the 64 an instruction word holds. */
  readonly ids: readonly [number, number, number];
  /** Neither an instruction nor a pseudo-opcode of the row (LLVM: "Unrecognized instruction!"). */
  readonly unknown: boolean;
  /** Unknown, and rejected earlier by the obsolete-opcode check of the signless versions (v0–v5). */
  readonly obsoleteRejected: boolean;
  /** Ends a basic block. */
  readonly terminator: boolean;
  readonly phi: boolean;
}

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

/**
 * One opcode's facts (uncached: `opcodeTable` keeps the 64 of an instruction word). Only those 64
 * names are interned: a long-form opcode beyond them is unknown, and a damaged file can hold any
 * number of such names.
 */
export function opcodeInfoFor(row: FormatRow, opcode: number): OpcodeInfo {
  const decoded = decodeOpcode(row, opcode, false);
  const intern = (n: string): number => (opcode < 64 ? internName(n) : -1);
  if (decoded.kind === 'unknown') {
    const shifted = row.signlessInstructions ? shiftInstructionOpcode(row, opcode) : opcode;
    const name = `opcode${opcode}`;
    const id = intern(name);
    return {
      names: [name, name, name],
      ids: [id, id, id],
      unknown: true,
      obsoleteRejected: row.signlessInstructions && shifted !== 35 && shifted !== 36,
      terminator: false,
      phi: false,
    };
  }
  const name = decoded.kind === 'instruction' ? decoded.name : decoded.pseudo;
  const names: [string, string, string] =
    name === 'div' || name === 'rem'
      ? [resolveSignless(name, 'unsigned'), resolveSignless(name, 'signed'), resolveSignless(name, 'float')]
      : [name, name, name];
  return {
    names,
    ids: [intern(names[0]), intern(names[1]), intern(names[2])],
    unknown: false,
    obsoleteRejected: false,
    terminator: isTerminatorOpcode(decoded.kind === 'instruction' ? name : PSEUDO_OPCODE_BASE[decoded.pseudo]),
    phi: name === 'phi',
  };
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

/**
 * Counts by name, remembering the order names first appeared (the JSON's key order): interned
 * names (small numbers) in an array, any other name in a map.
 */
export class NameCounter {
  private readonly counts: number[] = [];
  private readonly others = new Map<string, number>();
  private readonly order: (number | string)[] = [];

  add(name: number | string): void {
    if (typeof name === 'string') {
      const c = this.others.get(name);
      if (c === undefined) this.order.push(name);
      this.others.set(name, (c ?? 0) + 1);
      return;
    }
    const c = this.counts[name];
    if (c === undefined) {
      this.order.push(name);
      this.counts[name] = 1;
    } else this.counts[name] = c + 1;
  }

  /** Adds the counts into `into`, names in first-seen order. */
  addTo(into: Record<string, number>): void {
    for (const key of this.order) {
      const [name, n] = typeof key === 'string' ? [key, this.others.get(key)!] : [nameOf(key), this.counts[key]!];
      into[name] = (into[name] ?? 0) + n;
    }
  }
}
