import type { FunctionType, PointerType } from './type.js';
import type { Function, GlobalValue } from './value.js';

/**
 * A new external function declaration of `functionType` (`type` is the pointer to it, as the
 * module knows it), with unnamed arguments — what LLVM's `Module::getOrInsertFunction` and a
 * parsed `declare` made.
 */
export function functionDeclaration(functionType: FunctionType, type: PointerType, name?: string): Function {
  const fn: Function = {
    kind: 'function',
    type,
    functionType,
    linkage: 'external',
    callingConv: 0,
    alignment: 0,
    isDeclaration: true,
    args: functionType.params.map((t, index) => ({ kind: 'argument', type: t, index })),
    blocks: [],
  };
  if (name !== undefined) fn.name = name;
  return fn;
}

/** Whether a global value is only declared here: a function without a body, a variable without an initializer. */
export function isDeclaration(g: GlobalValue): boolean {
  return g.kind === 'function' ? g.isDeclaration : g.initializer === undefined;
}
