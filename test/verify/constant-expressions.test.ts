/**
 * The operand types of a constant expression (src/verify/constant-expressions.ts): what LLVM's
 * ConstantExpr::get… asserted, so that a damaged file's expression is refused as not valid rather
 * than upgraded into IR that LLVM refuses (the fuzz:upgrade findings upgrade-7-281 and -560).
 */
import { describe, expect, it } from 'vitest';
import { constantExpressionProblem } from '../../src/verify/constant-expressions.js';
import { rulesForVersion } from '../../src/verify/rules.js';
import { integerType, primitiveTypes as P, type Type } from '../../src/graph/type.js';
import type { Constant, ConstantExpr, Opcode } from '../../src/graph/value.js';

const int = (type: Type, value: bigint): Constant => ({ kind: 'int', type, value }) as Constant;
const expr = (opcode: Opcode, type: Type, operands: Constant[]): ConstantExpr => ({ kind: 'expr', opcode, type, operands });
const ptr = (element: Type): Type => ({ kind: 'pointer', element }) as Type;
const null_ = (type: Type): Constant => ({ kind: 'null', type }) as Constant;
const R1 = rulesForVersion(6);
const R7 = rulesForVersion(7);

describe('constant expressions, by the rules of their release', () => {
  it('takes the well-typed forms LLVM wrote', () => {
    expect(constantExpressionProblem(expr('add', P.int, [int(P.int, 1n), int(P.int, 2n)]), R1)).toBeUndefined();
    expect(constantExpressionProblem(expr('setlt', P.bool, [int(P.int, 1n), int(P.int, 2n)]), R1)).toBeUndefined();
    expect(constantExpressionProblem(expr('shl', P.int, [int(P.int, 1n), int(P.ubyte, 2n)]), R1)).toBeUndefined();
    const arr = { kind: 'array', element: P.int, length: 4 } as Type;
    expect(constantExpressionProblem(expr('getelementptr', ptr(P.int), [null_(ptr(arr)), int(P.long, 0n), int(P.long, 1n)]), R1)).toBeUndefined();
    const i32 = integerType(32);
    expect(constantExpressionProblem(expr('lshr', i32, [int(i32, 8n), int(i32, 1n)]), R7)).toBeUndefined();
  });

  it('refuses operands of another type than the operator’s', () => {
    expect(constantExpressionProblem(expr('add', P.int, [int(P.int, 1n), int(P.uint, 2n)]), R1)).toMatch(/the right operand has type uint, expected int/);
    expect(constantExpressionProblem(expr('setge', P.bool, [null_(ptr(P.int)), int(P.int, 1n)]), R1)).toMatch(/the right operand has type int, expected int\*/);
    expect(constantExpressionProblem(expr('setge', ptr(P.ubyte), [int(P.int, 1n), int(P.int, 1n)]), R1)).toMatch(/the result has type ubyte\*, expected bool/);
    expect(constantExpressionProblem(expr('shl', P.int, [int(P.int, 1n), int(P.int, 2n)]), R1)).toMatch(/the shift amount has type int, expected ubyte/);
    expect(constantExpressionProblem(expr('select', P.int, [int(P.int, 1n), int(P.int, 1n), int(P.int, 2n)]), R1)).toMatch(/the condition/);
  });

  it('refuses a getelementptr of a non-pointer, or one whose type is not a pointer to what it selects', () => {
    expect(constantExpressionProblem(expr('getelementptr', ptr(P.ubyte), [int(P.ubyte, 3n), int(P.long, 0n)]), R1)).toMatch(/indexes a ubyte, not a pointer/);
    expect(constantExpressionProblem(expr('getelementptr', ptr(P.short), [null_(ptr(P.int)), int(P.long, 0n)]), R1)).toMatch(
      /is not a pointer to the indexed type int/,
    );
    const pair = { kind: 'struct', elements: [P.int, P.sbyte] } as Type;
    expect(constantExpressionProblem(expr('getelementptr', ptr(P.int), [null_(ptr(pair)), int(P.long, 0n), int(P.ubyte, 5n)]), R1)).toMatch(/selects field 5/);
  });
});
