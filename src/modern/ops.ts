/**
 * Opcode choices that depend on operand types, shared by instructions and constant expressions:
 * LLVM 1.x put signedness in the types, modern IR puts it in the opcodes.
 */
import type { Opcode } from '../graph/value.js';
import { isSetccOpcode, opcodeClass } from '../graph/opcodes.js';
import type { Type } from '../graph/type.js';
import { isFP, isSignedInt } from './types.js';
import { UpgradeError } from './upgrade-error.js';

export { UpgradeError };

/**
 * `setcc` → `icmp`/`fcmp`. Integers compare by their signedness (bool and pointers unsigned);
 * floating point uses ordered predicates except `setne`, which LLVM 1.x evaluated as C's `!=`
 * (true when either side is NaN), hence `une`.
 */
export function comparison(op: Opcode, operandType: Type): { inst: 'icmp' | 'fcmp'; pred: string } {
  const row = COMPARISONS.get(op);
  if (!row) throw new UpgradeError(`not a comparison: ${op}`);
  if (isFP(operandType)) return row.fcmp;
  return isSignedInt(operandType) ? row.signed : row.unsigned;
}

/** Each `setcc`'s modern forms: signed, unsigned and floating-point predicates. */
const COMPARISONS = new Map<string, { readonly signed: Comparison; readonly unsigned: Comparison; readonly fcmp: Comparison }>(
  (
    [
      ['seteq', 'eq', 'eq', 'oeq'],
      ['setne', 'ne', 'ne', 'une'],
      ['setlt', 'slt', 'ult', 'olt'],
      ['setgt', 'sgt', 'ugt', 'ogt'],
      ['setle', 'sle', 'ule', 'ole'],
      ['setge', 'sge', 'uge', 'oge'],
    ] as const
  ).map(([op, signed, unsigned, fp]) => [
    op,
    { signed: { inst: 'icmp', pred: signed }, unsigned: { inst: 'icmp', pred: unsigned }, fcmp: { inst: 'fcmp', pred: fp } },
  ]),
);

type Comparison = { readonly inst: 'icmp' | 'fcmp'; readonly pred: string };

export function isComparison(op: Opcode): boolean {
  return isSetccOpcode(op);
}

/** Binary operators: `add`/`sub`/`mul` become `fadd`/`fsub`/`fmul` on floating point; `shr` splits by sign. */
export function binaryOpcode(op: Opcode, operandType: Type): string {
  switch (op) {
    case 'add':
    case 'sub':
    case 'mul':
      return isFP(operandType) ? 'f' + op : op;
    case 'shr':
      return isSignedInt(operandType) ? 'ashr' : 'lshr';
    default: {
      // The rest keep their names: divisions, logic, shl and version 7's lshr/ashr.
      const cls = opcodeClass(op);
      if (cls === 'binary' || cls === 'shift') return op;
      throw new UpgradeError(`not a binary operator: ${op}`);
    }
  }
}
