/**
 * What the verifier's two paths share about a function's body: the numbering of its own values
 * (object form), each block's successors (object and compact form), and the pieces the in-place
 * check of a compact body reuses (see verify.ts `compactBodyValid`).
 */
import { LAST_TERMINATOR_NUMBER, isTerminatorOpcode } from '../graph/opcodes.js';
import { OPCODES, TAG_BLOCK, type CompactBody } from '../graph/compact-body.js';
import { primitiveTypes } from '../graph/type.js';
import type { BasicBlock, Value } from '../graph/value.js';

const isTerminator = isTerminatorOpcode;

/**
 * A function's own values, numbered: an instruction by its position in the function (0, 1, …,
 * in order; `instBlock[pos]` is its block), an argument `ARG`, a block `-2 - index`.
 */
export const ARG = -1;
export const blockCode = (bi: number): number => -2 - bi;
export const isBlockCode = (code: number): boolean => code <= -2;
export const blockOfCode = (code: number): number => -2 - code;

/** `isTerminator` of a compact body's opcode number (graph/opcodes.ts `LAST_TERMINATOR_NUMBER`). */
export function isTerminatorNumber(number: number): boolean {
  return number <= LAST_TERMINATOR_NUMBER;
}

/** The block every block operand of a compact body stands for while it is checked in place. */
export const COMPACT_BLOCK: BasicBlock = { kind: 'block', type: primitiveTypes.label, instructions: [] };

/** Operand arrays reused by the in-place check, one per length (an instruction's operands are read only during its own check). */
const OPERAND_ARRAYS: Value[][] = [];

export function operandArray(length: number): Value[] {
  let a = OPERAND_ARRAYS[length];
  if (a === undefined) {
    a = new Array<Value>(length);
    if (length < 64) OPERAND_ARRAYS[length] = a;
  }
  return a;
}

/**
 * Whether a compact body is shaped as the compact form promises: blocks that cover the
 * instructions in order, operand sections in order and inside `data`, result types and opcodes
 * that exist. (A body that is not is checked over its objects, whatever they turn out to be.)
 */
export function compactShapeValid(body: CompactBody): boolean {
  const n = body.instructionCount;
  const nb = body.blockCount;
  const data = body.data;
  const operandBase = 2 * n + nb;
  if (data.length < operandBase) return false;
  let prev = 0;
  for (let b = 0; b < nb; b++) {
    const end = data[2 * n + b]!;
    if (end < prev || end > n) return false;
    prev = end;
  }
  if (prev !== n) return false;
  prev = 0;
  for (let i = 0; i < n; i++) {
    const word = data[i]!;
    const end = data[n + i]!;
    if (end < prev || operandBase + end > data.length || (word & 63) >= OPCODES.length || body.types[word >>> 6] === undefined) return false;
    prev = end;
  }
  return true;
}

/** Appends a block's successors to `out`: the blocks its terminator names (indices into the function's blocks). */
export function addSuccessors(bb: BasicBlock, locals: Map<Value, number>, out: number[]): void {
  const insts = bb.instructions;
  const term = insts[insts.length - 1];
  if (term === undefined || !isTerminator(term.opcode)) return;
  const ops = term.operands;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (op !== undefined && op !== null && op.kind === 'block') {
      const code = locals.get(op);
      // (Repeats are harmless to the walks above.)
      if (code !== undefined && isBlockCode(code)) out.push(blockOfCode(code));
    }
  }
}

/** `addSuccessors` for block `b` of a compact body (one `compactBodyValid` has found well formed). */
export function addCompactSuccessors(body: CompactBody, b: number, out: number[]): void {
  const n = body.instructionCount;
  const data = body.data;
  const first = b === 0 ? 0 : data[2 * n + b - 1]!;
  const end = data[2 * n + b]!;
  if (end === first || !isTerminator(OPCODES[data[end - 1]! & 63]!)) return;
  const operandBase = 2 * n + body.blockCount;
  for (let k = operandBase + (end === 1 ? 0 : data[n + end - 2]!), last = operandBase + data[n + end - 1]!; k < last; k++) {
    const code = data[k]!;
    if (code >= 0 && (code & 3) === TAG_BLOCK && code >>> 2 < body.blockCount) out.push(code >>> 2);
  }
}
