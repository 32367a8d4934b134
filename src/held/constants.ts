/**
 * Constants as LLVM held them after reading: LLVM never kept an aggregate whose elements are all
 * zero (ConstantArray/Struct/Packed::get returned `zeroinitializer` instead, as for an empty one),
 * while the graph keeps what the file listed. `canonicalConstant` gives the value LLVM printed.
 */
import { primitiveTypes } from '../graph/type.js';
import { firstElementIndices, isNullValue } from '../fold/index.js';
import type { Constant, ConstantExpr, ConstantZero } from '../graph/value.js';

const zeroOf = new WeakMap<Constant, ConstantZero>();
const gepOf = new WeakMap<Constant, ConstantExpr | null>();
const INT_ZERO: Constant = { kind: 'int', type: primitiveTypes.int, value: 0n };
const UINT_ZERO: Constant = { kind: 'int', type: primitiveTypes.uint, value: 0n };

/** LLVM's isNullValue, after canonicalization (so all-zero aggregates are null too). */
export const isNullConstant = isNullValue;

/**
 * `c`, or what LLVM turned it into when building it: `zeroinitializer` for all-zero aggregates
 * (with `zeros`; LLVM 1.1 kept them as listed) and, with `foldCasts` (the dialect's `foldsCastToFirstElement`), a getelementptr for a cast to
 * a pointer to the first element.
 */
export function canonicalConstant(c: Constant, foldCasts: boolean, zeros = true): Constant {
  if (zeros && (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') && c.elements.every(isNullConstant)) {
    let z = zeroOf.get(c);
    if (z === undefined) {
      z = { kind: 'zeroinitializer', type: c.type };
      zeroOf.set(c, z);
    }
    return z;
  }
  if (foldCasts && c.kind === 'expr' && c.opcode === 'cast') {
    let g = gepOf.get(c);
    if (g === undefined) {
      g = castToFirstElement(c);
      gepOf.set(c, g);
    }
    if (g !== null) return g;
  }
  return c;
}

/**
 * LLVM 1.9 folded a cast from a pointer to an aggregate into a pointer to its first element (at
 * any depth) into `getelementptr (p, int 0, ...)` when it built the constant, so files from
 * releases that did not (LLVM 1.3) print that way through LLVM 1.9. Casts of casts and of
 * all-zero getelementptrs were folded otherwise and are left alone here.
 */
function castToFirstElement(c: ConstantExpr): ConstantExpr | null {
  const v = c.operands[0];
  if (v === undefined || v.type === c.type || v.type.kind !== 'pointer' || c.type.kind !== 'pointer') return null;
  if (v.kind === 'expr' && (v.opcode === 'cast' || (v.opcode === 'getelementptr' && v.operands.slice(1).every(isNullConstant)))) return null;
  if (v.kind === 'undef') return null;
  const indices = firstElementIndices(v.type.element, c.type.element, INT_ZERO, UINT_ZERO);
  return indices === undefined ? null : { kind: 'expr', opcode: 'getelementptr', type: c.type, operands: [v, ...indices] };
}
