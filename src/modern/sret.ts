/**
 * Where the upgrade writes `sret(T)`: LLVM 1.x's `csretcc` put the hidden struct-return pointer
 * first, and version 7 marks it with a parameter attribute. Modern LLVM's verifier takes `sret`
 * only on a function returning `void`, on its first or second parameter, once, and on a pointer
 * to a sized type; LLVM 1.x checked none of this for `csretcc` and r36867 only the first two for
 * its attribute, so a damaged (or odd) file can ask for more. Where modern LLVM would refuse the
 * attribute it is left out: it only says how a caller passes the result, which the call's own
 * types already say.
 */
import type { FunctionType, Type } from '../graph/type.js';
import type { TypePrinter } from './types.js';

/** ` sret(T)` for parameter `index` (0-based) of a function of type `ft` whose type is `type`, or '' where modern LLVM refuses it. */
export function sretAttribute(types: TypePrinter, ft: FunctionType, index: number, type: Type): string {
  if (ft.returnType.kind !== 'void' || index > 1 || type.kind !== 'pointer') return '';
  const el = type.element;
  if (el.kind === 'function' || el.kind === 'opaque' || el.kind === 'void' || el.kind === 'label') return '';
  return ` sret(${types.str(el)})`;
}
