/**
 * The verifier's memory of compact bodies it found clean (see verify.ts's file comment): a body
 * read from a file never changes, so a clean verdict holds while what the check relied on
 * outside the body (the function's type and arguments, the kinds, types and integer values of
 * the values it names, the rules it was checked under) is unchanged.
 */
import type { CompactBody } from '../graph/compact-body.js';
import { materializeBody } from '../graph/compact-body.js';
import type { FunctionType, Type } from '../graph/type.js';
import type { Argument, Function, Value } from '../graph/value.js';
import type { VerifierRules } from './rules.js';

/** What a clean check of a compact body relied on outside the body (see the file comment). */
export interface BodyVerdict {
  /** The rules the body was found clean under. */
  readonly rules: VerifierRules;
  readonly type: Type;
  readonly functionType: FunctionType;
  readonly args: readonly Argument[];
  readonly argTypes: readonly Type[];
  readonly valueTypes: readonly Type[];
  readonly valueKinds: readonly Value['kind'][];
  /** Integer constants' values (a getelementptr's structure index selects a field by it). */
  readonly intValues: readonly (bigint | undefined)[];
}

/**
 * Whether a value a body names can be invalid while its kind and type (and an integer's value)
 * are as they were: a global or function (no longer in the module?) or a constant made of others.
 */
export function namesOthers(x: Value): boolean {
  switch (x.kind) {
    case 'global':
    case 'function':
    case 'alias':
    case 'expr':
    case 'array':
    case 'struct':
    case 'packed':
      return true;
    default:
      return false;
  }
}

/** Clean verdicts on compact bodies (which never change), by body. */
export const VERDICTS = new WeakMap<CompactBody, BodyVerdict>();

export function verdictFor(f: Function, body: CompactBody, rules: VerifierRules): BodyVerdict {
  return {
    rules,
    type: f.type,
    functionType: f.functionType,
    args: f.args.slice(),
    argTypes: f.args.map((a) => a.type),
    valueTypes: body.values.map((v) => v.type),
    valueKinds: body.values.map((v) => v.kind),
    intValues: body.values.map((v) => (v.kind === 'int' ? v.value : undefined)),
  };
}

/**
 * A stand-in for `f` whose body is objects built from `body` for one check (`f` itself keeps its
 * compact body). It has what the checks read of a function.
 */
export function transientFunction(f: Function, body: CompactBody): Function {
  const { blocks } = materializeBody(body);
  return {
    kind: 'function',
    type: f.type,
    functionType: f.functionType,
    ...(f.name !== undefined ? { name: f.name } : {}),
    linkage: f.linkage,
    callingConv: f.callingConv,
    alignment: f.alignment,
    isDeclaration: f.isDeclaration,
    args: f.args,
    blocks,
  };
}
