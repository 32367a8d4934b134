/**
 * getelementptr indices across versions. Structure indices were `ubyte` constants before LLVM 1.3
 * and `uint` constants since; LLVM 1.3+ read the old ones as `uint` (LLVM 1.9's listing of an old
 * file shows `uint`). A writer for either side writes the index with the type its version takes,
 * so converting a module between them keeps its meaning and its LLVM 1.9 listing.
 */
import type { FormatRow } from '../format/format-table.js';
import { primitiveTypes as P, type Type } from '../graph/type.js';
import type { ConstantInt, Value } from '../graph/value.js';
import { TAG_VALUE, UNRESOLVED, type CompactBody } from '../graph/compact-body.js';
import { typeOfCode } from './body-view.js';

/** What a getelementptr operand indexes: a sequential type (pointer, array, packed), a structure, or nothing (the pointer itself, or past a bad index). */
export type GepIndexKind = 'sequential' | 'struct' | 'none';

/**
 * The kind of each getelementptr operand (0 is the pointer). Sequential indices carry the
 * index-type tag in their low two bits (versions 2+); structure indices are constants whose type
 * depends on the version (`structIndexFor`).
 */
export function gepIndexKinds(ops: readonly Value[]): GepIndexKind[] {
  const kinds: GepIndexKind[] = ['none'];
  let cur: Type | undefined = ops[0]!.type;
  for (let i = 1; i < ops.length; i++) {
    if (cur === undefined) {
      kinds.push('none');
    } else if (cur.kind === 'pointer' || cur.kind === 'array' || cur.kind === 'packed') {
      kinds.push('sequential');
      cur = cur.element;
    } else if (cur.kind === 'struct') {
      kinds.push('struct');
      const idx = ops[i]!;
      cur = idx.kind === 'int' ? cur.elements[Number(idx.value)] : cur.elements[0];
    } else {
      kinds.push('none');
      cur = undefined;
    }
  }
  return kinds;
}

const UBYTE_INDEX: (ConstantInt | undefined)[] = [];
const UINT_INDEX: (ConstantInt | undefined)[] = [];

/** A structure index as `row`'s version writes it (`ubyte` before version 2, `uint` after). */
function structIndexFor(row: FormatRow, op: Value): Value {
  if (op.kind !== 'int' || row.gepIndexEncoding === 'asTyped') return op;
  const toUbyte = row.restrictedGEPTypes;
  if (op.type.kind !== (toUbyte ? 'uint' : 'ubyte') || op.value < 0n || op.value > 255n) return op;
  const cache = toUbyte ? UBYTE_INDEX : UINT_INDEX;
  const n = Number(op.value);
  return (cache[n] ??= { kind: 'int', type: toUbyte ? P.ubyte : P.uint, value: op.value });
}

/** The operands of a getelementptr (instruction or constant expression) as `row`'s version writes them. */
export function gepOperandsFor(row: FormatRow, ops: readonly Value[], kinds: readonly GepIndexKind[] = gepIndexKinds(ops)): readonly Value[] {
  let out: Value[] | undefined;
  for (let i = 1; i < ops.length; i++) {
    if (kinds[i] !== 'struct') continue;
    const written = structIndexFor(row, ops[i]!);
    if (written !== ops[i]) (out ??= ops.slice())[i] = written;
  }
  return out ?? ops;
}

/**
 * `operands`, or for a getelementptr the operands as `row`'s version writes them. (The same walk
 * as `gepIndexKinds` + `gepOperandsFor`, without building the kinds: this runs on every
 * instruction of the module, and most getelementptrs need no rewriting.)
 */
/**
 * The operands LLVM's constant objects carry, as `row`'s version writes them (they are numbered
 * before the constant itself): an aggregate's elements, a constant expression's operands.
 */
export function writtenConstantOperands(row: FormatRow, v: Value): readonly Value[] {
  switch (v.kind) {
    case 'array':
    case 'struct':
    case 'packed':
      return v.elements;
    case 'expr':
      return writtenOperands(row, v.opcode, v.operands);
    default:
      return [];
  }
}

export function writtenOperands(row: FormatRow, opcode: string, operands: readonly Value[]): readonly Value[] {
  if (opcode !== 'getelementptr' || operands.length < 2) return operands;
  let out: Value[] | undefined;
  let cur: Type | undefined = operands[0]!.type;
  for (let i = 1; i < operands.length && cur !== undefined; i++) {
    if (cur.kind === 'pointer' || cur.kind === 'array' || cur.kind === 'packed') {
      cur = cur.element;
    } else if (cur.kind === 'struct') {
      const idx = operands[i]!;
      cur = idx.kind === 'int' ? cur.elements[Number(idx.value)] : cur.elements[0];
      const written = structIndexFor(row, idx);
      if (written !== idx) (out ??= operands.slice())[i] = written;
    } else {
      cur = undefined;
    }
  }
  return out ?? operands;
}

/**
 * `gepIndexKinds` over a body's operand codes (see body-view.ts): operand `k` of the
 * getelementptr whose codes are `codes[start .. end)`. Writes the kinds into `out` (0 is the
 * pointer) and returns it.
 */
export function gepIndexKindsOfCodes(body: CompactBody, operandBase: number, start: number, end: number, out: GepIndexKind[]): GepIndexKind[] {
  const data = body.data;
  out.length = end - start;
  if (end === start) return out;
  out[0] = 'none';
  let cur: Type | undefined = typeOfCode(body, data[operandBase + start]!);
  for (let k = 1; k < end - start; k++) {
    if (cur === undefined) {
      out[k] = 'none';
    } else if (cur.kind === 'pointer' || cur.kind === 'array' || cur.kind === 'packed') {
      out[k] = 'sequential';
      cur = cur.element;
    } else if (cur.kind === 'struct') {
      out[k] = 'struct';
      const code = data[operandBase + start + k]!;
      const idx = code !== UNRESOLVED && (code & 3) === TAG_VALUE ? body.values[code >>> 2] : undefined;
      cur = idx !== undefined && idx.kind === 'int' ? cur.elements[Number(idx.value)] : cur.elements[0];
    } else {
      out[k] = 'none';
      cur = undefined;
    }
  }
  return out;
}

/** The value a structure index of a getelementptr is written as in `row`'s version (see `structIndexFor`). */
export function writtenStructIndex(row: FormatRow, op: Value): Value {
  return structIndexFor(row, op);
}
