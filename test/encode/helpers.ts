/** Small builders for hand-made module graphs used by the encoder tests. */
import type { FunctionType, PointerType, Type } from '../../src/graph/type.js';
import type { BasicBlock, Constant, Function, GlobalVariable, Instruction, Value } from '../../src/graph/value.js';
import { primitiveTypes as P } from '../../src/graph/type.js';

export { P };

export { emptyModule } from '../../src/graph/describe.js';

export const ptr = (element: Type): PointerType => ({ kind: 'pointer', element });
export const fnType = (returnType: Type, params: Type[], isVarArg = false): FunctionType => ({ kind: 'function', returnType, params, isVarArg });
export const int = (type: Type, value: number | bigint): Constant => ({ kind: 'int', type, value: BigInt(value) });

export function global(valueType: Type, initializer?: Constant, name?: string): GlobalVariable {
  return {
    kind: 'global',
    type: ptr(valueType),
    valueType,
    linkage: 'external',
    isConstant: false,
    alignment: 0,
    ...(initializer !== undefined ? { initializer } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

/** One pointer object per function type, as a decoded module has (types are compared by identity). */
const fnPointers = new WeakMap<FunctionType, PointerType>();

export function func(ft: FunctionType, name?: string, blocks: BasicBlock[] = []): Function {
  let type = fnPointers.get(ft);
  if (!type) fnPointers.set(ft, (type = ptr(ft)));
  return {
    kind: 'function',
    type,
    functionType: ft,
    linkage: 'external',
    callingConv: 0,
    alignment: 0,
    isDeclaration: blocks.length === 0,
    args: ft.params.map((type, index) => ({ kind: 'argument', type, index })),
    blocks,
    ...(name !== undefined ? { name } : {}),
  };
}

export function inst(opcode: Instruction['opcode'], type: Type, operands: Value[], extra: Partial<Instruction> = {}): Instruction {
  return { kind: 'instruction', opcode, type, operands, ...extra };
}

export function block(instructions: Instruction[], name?: string): BasicBlock {
  return { kind: 'block', type: P.label, instructions, ...(name !== undefined ? { name } : {}) };
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
