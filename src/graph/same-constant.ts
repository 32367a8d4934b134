/**
 * Structural equality of constants as LLVM's constant uniquing saw it: two constants built apart
 * (as an assembler builds each spelling of a constant expression) are one constant to LLVM when
 * their structure is the same; globals and other values compare by identity.
 */
import type { Type } from './type.js';
import type { Constant } from './value.js';

/**
 * Whether two constants are one in LLVM's uniquing: the same structure, globals by identity.
 * `sameType` says when two types are one (by default the same object; the linker passes its
 * comparison of types across modules).
 */
export function sameConstant(a: Constant, b: Constant, sameType: (x: Type, y: Type) => boolean = (x, y) => x === y): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || !sameType(a.type, b.type)) return false;
  switch (a.kind) {
    case 'bool':
      return a.value === (b as typeof a).value;
    case 'int':
      return a.value === (b as typeof a).value;
    case 'fp':
      return a.bits === (b as typeof a).bits;
    case 'null':
    case 'zeroinitializer':
    case 'undef':
      return true;
    case 'array':
    case 'struct':
    case 'packed': {
      const y = (b as typeof a).elements;
      return a.elements.length === y.length && a.elements.every((e, i) => sameConstant(e, y[i]!, sameType));
    }
    case 'expr': {
      const e = b as typeof a;
      return (
        a.opcode === e.opcode &&
        a.predicate === e.predicate &&
        a.operands.length === e.operands.length &&
        a.operands.every((o, i) => sameConstant(o, e.operands[i]!, sameType))
      );
    }
    case 'inlineasm': {
      const e = b as typeof a;
      return a.asm === e.asm && a.constraints === e.constraints && a.hasSideEffects === e.hasSideEffects;
    }
    default:
      return false;
  }
}
