/**
 * LLVM 2.0's `InlineAsm::Verify` (r36867): the check llvm-upgrade's `InlineAsm::get` asserted, so
 * a constraint string it fails made LLVM's path refuse the module. LLVM 1.x wrote an indirect
 * output as `==m`; 2.0 spells it `=*m` and reads `==m` as a second direct output, which it does
 * not allow: such 1.x asm has no version-7 form that LLVM made.
 */
import type { FunctionType } from '../graph/type.js';

type Kind = 'input' | 'output' | 'clobber';

interface Constraint {
  kind: Kind;
  isIndirect: boolean;
}

/** One comma-separated constraint (`ConstraintInfo::Parse`), or undefined where 2.0 rejected it. */
function parseOne(text: string, soFar: readonly Constraint[]): Constraint | undefined {
  let i = 0;
  let kind: Kind = 'input';
  if (text[i] === '~') {
    kind = 'clobber';
    i++;
  } else if (text[i] === '=') {
    kind = 'output';
    i++;
  }
  let isIndirect = false;
  if (text[i] === '*') {
    isIndirect = true;
    i++;
  }
  if (i === text.length) return undefined; // only a prefix
  let earlyClobber = false;
  let commutative = false;
  for (;;) {
    const c = text[i];
    if (c === '&') {
      if (kind !== 'output' || earlyClobber) return undefined;
      earlyClobber = true;
    } else if (c === '%') {
      if (kind === 'clobber' || commutative) return undefined;
      commutative = true;
    } else if (c === '#' || c === '*') {
      return undefined; // not supported by 2.0
    } else {
      break;
    }
    i++;
    if (i === text.length) return undefined; // only prefixes and modifiers
  }
  while (i < text.length) {
    const c = text[i]!;
    if (c === '{') {
      const end = text.indexOf('}', i + 1);
      if (end < 0) return undefined;
      i = end + 1;
    } else if (c >= '0' && c <= '9') {
      let j = i;
      while (j < text.length && text[j]! >= '0' && text[j]! <= '9') j++;
      const n = Number(text.slice(i, j));
      if (n >= soFar.length || soFar[n]!.kind !== 'output' || kind !== 'input') return undefined;
      i = j;
    } else {
      i++;
    }
  }
  return { kind, isIndirect };
}

/** Whether LLVM 2.0 accepted `constraints` for inline asm of type `type`. */
export function verifiesInLlvm20(type: FunctionType, constraints: string): boolean {
  if (type.isVarArg) return false;
  const parsed: Constraint[] = [];
  if (constraints !== '') {
    for (let start = 0; ; ) {
      const comma = constraints.indexOf(',', start);
      const end = comma < 0 ? constraints.length : comma;
      const one = end === start ? undefined : parseOne(constraints.slice(start, end), parsed);
      if (one === undefined) return false;
      parsed.push(one);
      if (comma < 0) break;
      start = comma + 1;
      if (start === constraints.length) return false; // "xyz,"
    }
  }
  let outputs = 0;
  let inputs = 0;
  let clobbers = 0;
  for (const c of parsed) {
    if (c.kind === 'output' && !c.isIndirect) {
      if (inputs !== 0 || clobbers !== 0) return false;
      outputs++;
    } else if (c.kind === 'clobber') {
      clobbers++;
    } else {
      if (clobbers !== 0) return false;
      inputs++;
    }
  }
  if (outputs > 1) return false;
  if ((type.returnType.kind !== 'void') !== (outputs === 1)) return false;
  return type.params.length === inputs;
}
