/**
 * r36867's rules on a module's global values, aliases and function signatures
 * (lib/VMCore/Verifier.cpp `visitGlobalValue`, `visitGlobalAlias`, `visitFunction`, and what its
 * grammar allowed of parameter attributes). Each function returns the problems it finds, worded
 * as r36867 said them, for the verifier to place and report. Rules LLVM 1.x's Verifier shared
 * (declarations' linkage, initializer types, argument types) stay in verify.ts for every version.
 */
import { describeType } from '../graph/describe.js';
import type { Module } from '../graph/module.js';
import { isFirstClassType, PARAM_ATTRIBUTE_BITS, sameType, type FunctionType, type Type } from '../graph/type.js';
import type { Function, GlobalAlias, GlobalVariable } from '../graph/value.js';
import { isIntrinsicName } from './intrinsics.js';

const firstClass = (t: Type): boolean => t.kind !== 'label' && isFirstClassType(t);

/** r36867 visitGlobalValue (LLVM 1.9's too): dllimport only on declarations, appending only on global arrays; and its grammar's extern_weak. */
export function globalValueProblems(g: GlobalVariable | Function): string[] {
  const problems: string[] = [];
  const declaration = g.kind === 'global' ? g.initializer === undefined : g.isDeclaration;
  if (g.linkage === 'dllimport' && !declaration) problems.push('Global is marked as dllimport, but not external');
  // (r36867's grammar, not its Verifier: extern_weak is a declaration's linkage only, GVExternalLinkage/FunctionDeclareLinkage.)
  if (g.linkage === 'extern_weak' && !declaration) problems.push('extern_weak linkage on a definition (r36867 took it only on a declaration)');
  if (g.linkage === 'appending') {
    if (g.kind !== 'global') problems.push('Only global variables can have appending linkage!');
    else if (g.valueType.kind !== 'array') problems.push('Only global arrays can have appending linkage!');
  }
  return problems;
}

/** r36867 visitGlobalAlias (aliases are version 7's, from 2007-04). */
export function aliasProblems(a: GlobalAlias, inModule: (v: GlobalAlias['aliasee']) => boolean): string[] {
  const problems: string[] = [];
  if (a.name === undefined || a.name === '') problems.push('Alias name cannot be empty!');
  if (a.linkage !== 'external' && a.linkage !== 'internal' && a.linkage !== 'weak') problems.push('Alias should have external or external weak linkage!');
  const target = a.aliasee;
  if (!sameType(a.type, target.type)) problems.push(`Alias and aliasee types should match! (${describeType(a.type)}, aliasee ${describeType(target.type)})`);
  const global = (v: GlobalAlias['aliasee']): boolean => v.kind === 'global' || v.kind === 'function' || v.kind === 'alias';
  const base = target.kind === 'expr' && target.opcode === 'bitcast' ? target.operands[0] : target;
  if (base === undefined || !global(base)) problems.push('Aliasee should be either GlobalValue or bitcast of GlobalValue');
  else if (!inModule(base)) problems.push(`the aliasee ${base.kind} ${'name' in base && base.name ? `@${base.name}` : '(unnamed)'} is not in the module`);
  return problems;
}

/** r36867 visitFunction's rules on a signature (LLVM 1.9 had all but the struct-return one). */
export function signatureProblems(f: Function): string[] {
  const problems: string[] = [];
  const ft = f.functionType;
  if (ft.returnType.kind !== 'void' && !firstClass(ft.returnType)) problems.push(`Functions cannot return aggregate values! (${describeType(ft.returnType)})`);
  if (isStructReturn(ft) && !(ft.returnType.kind === 'void' && ft.params.length > 0 && ft.params[0]!.kind === 'pointer')) {
    problems.push('Invalid struct-return function!');
  }
  // CallingConv::Fast (8), Cold (9), X86_FastCall (65).
  if (ft.isVarArg && (f.callingConv === 8 || f.callingConv === 9 || f.callingConv === 65)) problems.push('Varargs functions must have C calling conventions!');
  for (let i = 0; i < f.args.length; i++) {
    if (!firstClass(f.args[i]!.type))
      problems.push(`Functions cannot take aggregates as arguments by value! (argument ${i}: ${describeType(f.args[i]!.type)})`);
  }
  if (!f.isDeclaration && isIntrinsicName(f.name)) problems.push('llvm intrinsics cannot be defined!');
  return problems;
}

/** `FunctionType::isStructReturn`: the first parameter carries `sret`. */
function isStructReturn(ft: FunctionType): boolean {
  return ft.paramAttributes?.some((a) => a.index === 1 && (a.attributes & PARAM_ATTRIBUTE_BITS.sret) !== 0) === true;
}

const RESULT_BITS = Object.values(PARAM_ATTRIBUTE_BITS).reduce((a, b) => a | b, 0);
const PARAMETER_BITS = PARAM_ATTRIBUTE_BITS.zext | PARAM_ATTRIBUTE_BITS.sext | PARAM_ATTRIBUTE_BITS.inreg | PARAM_ATTRIBUTE_BITS.sret;

/**
 * What r36867's grammar allowed of a function type's parameter attributes: the function's
 * (index 0) any of zext, sext, inreg, sret, noreturn, nounwind; a parameter's only zext, sext,
 * inreg, sret; one entry per index, ascending, naming a parameter the type has, never empty.
 */
export function paramAttributeProblems(ft: FunctionType): string[] {
  const list = ft.paramAttributes;
  if (list === undefined) return [];
  const problems: string[] = [];
  let last = -1;
  for (const { index, attributes } of list) {
    if (!Number.isInteger(index) || index <= last || index > ft.params.length) {
      problems.push(`parameter attributes at index ${index}: the indices must ascend, each at most the parameter count (${ft.params.length})`);
      break;
    }
    last = index;
    const allowed = index === 0 ? RESULT_BITS : PARAMETER_BITS;
    if (attributes === 0 || (attributes & ~allowed) !== 0) {
      problems.push(
        `parameter attributes 0x${attributes.toString(16)} at index ${index}: ${index === 0 ? 'the result takes zext, sext, inreg, sret, noreturn, nounwind' : 'a parameter takes zext, sext, inreg, sret'}`,
      );
    }
  }
  return problems;
}

/** The function types of a module's own signatures and its type pool (checked once each). */
export function moduleFunctionTypes(m: Module): Set<FunctionType> {
  const out = new Set<FunctionType>();
  for (const t of m.types) if (t.kind === 'function') out.add(t);
  for (const f of m.functions) out.add(f.functionType);
  return out;
}
