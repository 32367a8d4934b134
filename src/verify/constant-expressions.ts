/**
 * The operand types of a constant expression. LLVM built every constant expression through
 * `ConstantExpr::get…`, which asserted these (1.x: `getTy`, `getGetElementPtrTy`, `getSelectTy`;
 * r36867 the same and its parser's messages), so no file LLVM wrote breaks them; the reader takes
 * what a file holds, and only a damaged file can hold, say, a `setge` of a pointer and an `int`
 * or a getelementptr of an integer. Checked here so that such a module is refused as not valid
 * instead of reaching the upgrade, whose IR LLVM would then refuse.
 *
 * The instruction forms' checks are verify.ts's; an expression has no block, name or position,
 * and its operands are constants, so the rules it shares with them are few enough to state again
 * here over the expression's own fields.
 */
import { describeType } from '../graph/describe.js';
import { opcodeClass } from '../graph/opcodes.js';
import { primitiveTypes, sameType, type Type } from '../graph/type.js';
import type { ConstantExpr, Value } from '../graph/value.js';
import type { VerifierRules } from './rules.js';

/** What is wrong with the operand types of `c` (its operands are checked by the caller), or undefined. */
export function constantExpressionProblem(c: ConstantExpr, rules: VerifierRules): string | undefined {
  const ops = c.operands;
  const t = c.type;
  const operandIs = (i: number, want: Type, what: string): string | undefined => {
    const op = ops[i];
    return op === undefined || sameType(op.type, want) ? undefined : `${what} has type ${describeType(op.type)}, expected ${describeType(want)}`;
  };
  switch (opcodeClass(c.opcode)) {
    case 'binary':
      return operandIs(0, t, 'the left operand') ?? operandIs(1, t, 'the right operand');
    case 'setcc':
      if (!sameType(t, rules.bool)) return `the result has type ${describeType(t)}, expected ${describeType(rules.bool)}`;
      return ops.length === 2 ? operandIs(1, ops[0]!.type, 'the right operand') : undefined;
    case 'compare':
      return ops.length === 2 ? operandIs(1, ops[0]!.type, 'the right operand') : undefined;
    case 'shift':
      return operandIs(0, t, 'the shifted value') ?? operandIs(1, rules.shiftAmount === 'ubyte' ? primitiveTypes.ubyte : t, 'the shift amount');
    default:
      break;
  }
  if (c.opcode === 'select') return operandIs(0, rules.bool, 'the condition') ?? operandIs(1, t, 'the true value') ?? operandIs(2, t, 'the false value');
  if (c.opcode === 'getelementptr') return getElementPtrProblem(c, rules);
  return undefined;
}

/** A constant getelementptr: a pointer indexed by valid indices, giving a pointer to what they select. */
function getElementPtrProblem(c: ConstantExpr, rules: VerifierRules): string | undefined {
  const base = c.operands[0]!.type;
  // A constant getelementptr's base is a pointer even with no index (ConstantExpr::getGetElementPtr asserted it).
  if (base.kind !== 'pointer') return `indexes a ${describeType(base)}, not a pointer`;
  let first: string | undefined;
  const cur = indexedType(c.operands, rules, (problem) => {
    first ??= problem;
  });
  if (first !== undefined || cur === undefined) return first;
  if (c.operands.length > 1 && (c.type.kind !== 'pointer' || !sameType(c.type.element, cur)))
    return `its type ${describeType(c.type)} is not a pointer to the indexed type ${describeType(cur)}`;
  return undefined;
}

/**
 * The type a getelementptr's indices select (`ops[0]` the pointer, the rest indices), saying each
 * problem to `report` as LLVM's checks found it: a sequential index of the wrong type is said and
 * the walk goes on; any other problem ends it (undefined). The instruction check (verify.ts) and
 * the constant-expression check share it. With no index the pointer's own type.
 */
export function indexedType(ops: readonly Value[], rules: VerifierRules, report: (problem: string) => void): Type | undefined {
  let cur: Type = ops[0]!.type;
  if (ops.length === 1) return cur;
  if (cur.kind !== 'pointer') {
    report(`indexes a ${describeType(cur)}, not a pointer`);
    return undefined;
  }
  for (let i = 1; i < ops.length; i++) {
    const idx = ops[i]!;
    if (cur.kind === 'pointer' || cur.kind === 'array' || cur.kind === 'packed') {
      if (i > 1 && cur.kind === 'pointer') {
        report(`index ${i} steps through a pointer inside the indexed type`);
        return undefined;
      }
      if (!rules.sequentialIndex(idx.type)) report(`index ${i} has type ${describeType(idx.type)}, expected ${rules.sequentialIndexWords}`);
      cur = cur.element;
    } else if (cur.kind === 'struct') {
      if (idx.kind !== 'int' || !rules.structIndex(idx.type)) {
        report(`index ${i} into a structure must be a ${rules.structIndexWords} constant`);
        return undefined;
      }
      const field: Type | undefined = cur.elements[Number(idx.value)];
      if (field === undefined) {
        report(`index ${i} selects field ${idx.value} of a structure with ${cur.elements.length}`);
        return undefined;
      }
      cur = field;
    } else {
      report(`index ${i} indexes into ${describeType(cur)}`);
      return undefined;
    }
  }
  return cur;
}
