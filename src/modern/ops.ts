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
  const fp = isFP(operandType);
  const signed = isSignedInt(operandType);
  const table: Record<string, [string, string, string]> = {
    seteq: ['eq', 'eq', 'oeq'],
    setne: ['ne', 'ne', 'une'],
    setlt: ['slt', 'ult', 'olt'],
    setgt: ['sgt', 'ugt', 'ogt'],
    setle: ['sle', 'ule', 'ole'],
    setge: ['sge', 'uge', 'oge'],
  };
  const row = table[op];
  if (!row) throw new UpgradeError(`not a comparison: ${op}`);
  if (fp) return { inst: 'fcmp', pred: row[2] };
  return { inst: 'icmp', pred: signed ? row[0] : row[1] };
}

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
