/**
 * LLVM 1.x had one `cast` instruction whose meaning followed from the source and destination
 * types (and the signedness of the source). Modern IR has one opcode per kind of conversion.
 * `planCast` chooses them; the instruction and constant-expression printers both use it.
 *
 * 1.x rules kept here (docs/upgrade.md, "cast"):
 * - integer widening extends by the SOURCE's signedness (sext for sbyte/short/int/long, zext
 *   for unsigned and bool); narrowing truncates; same width is a no-op;
 * - anything to bool is a comparison with zero (`!= 0`, `!= null`, `une 0.0` for floating point),
 *   not a truncation;
 * - int → fp by the source's signedness (sitofp/uitofp); fp → int by the destination's
 *   (fptosi/fptoui);
 * - int → pointer first widens to 64 bits by the source's signedness (so a negative `int`
 *   stays negative), pointer → int is ptrtoint; pointer → pointer is a no-op with opaque pointers.
 */
import { describeType } from '../graph/describe.js';
import type { Type } from '../graph/type.js';
import { UpgradeError } from './upgrade-error.js';
import { intBits, isFP, isSignedInt, scalarOf } from './types.js';

/** One modern conversion: `op` applied to the running value, giving type `to` (a modern spelling or a 1.x type). */
export interface CastStep {
  op: string;
  to: Type | 'i64';
}

export type CastPlan =
  | { kind: 'noop' }
  /** Compare with zero of the source type: `icmp ne` (ints, pointers) or `fcmp une` (fp). */
  | { kind: 'nonzero'; fp: boolean }
  | { kind: 'steps'; steps: CastStep[] };

function scalarKind(t: Type): 'int' | 'bool' | 'fp' | 'ptr' | 'other' {
  const s = scalarOf(t);
  if (s.kind === 'bool') return 'bool';
  if (intBits(s) > 0) return 'int';
  if (s.kind === 'float' || s.kind === 'double') return 'fp';
  if (s.kind === 'pointer') return 'ptr';
  return 'other';
}

function fpBits(t: Type): number {
  return scalarOf(t).kind === 'double' ? 64 : 32;
}

/** The bits of a value of `t` for a bit reinterpretation, or undefined (a pointer, whose width is the target's). */
function reinterpretedBits(t: Type): number | undefined {
  const count = t.kind === 'packed' ? t.length : 1;
  const s = scalarOf(t);
  const bits = s.kind === 'bool' ? 1 : s.kind === 'float' ? 32 : s.kind === 'double' ? 64 : intBits(s);
  return bits > 0 ? bits * count : undefined;
}

export function planCast(src: Type, dst: Type): CastPlan {
  // LLVM 1.x code generators treated a cast involving a packed type as a bit reinterpretation,
  // which needs two types of one size (only a damaged file holds another: LLVM 1.x checked no cast).
  if (src.kind === 'packed' || dst.kind === 'packed') {
    const from = reinterpretedBits(src);
    if (from === undefined || from !== reinterpretedBits(dst))
      throw new UpgradeError(
        `a cast from ${describeType(src)} to ${describeType(dst)}: a cast of a packed type reinterprets its bits, and these types differ in size`,
      );
    return { kind: 'steps', steps: [{ op: 'bitcast', to: dst }] };
  }
  const s = scalarKind(src);
  const d = scalarKind(dst);
  const one = (op: string): CastPlan => ({ kind: 'steps', steps: [{ op, to: dst }] });
  if (d === 'bool') {
    if (s === 'bool') return { kind: 'noop' };
    if (s === 'fp') return { kind: 'nonzero', fp: true };
    return { kind: 'nonzero', fp: false };
  }
  if (d === 'int') {
    if (s === 'int' || s === 'bool') {
      const sb = intBits(scalarOf(src));
      const db = intBits(scalarOf(dst));
      if (sb === db) return { kind: 'noop' };
      if (sb > db) return one('trunc');
      return one(s === 'int' && isSignedInt(src) ? 'sext' : 'zext');
    }
    if (s === 'fp') return one(isSignedInt(dst) ? 'fptosi' : 'fptoui');
    if (s === 'ptr') return one('ptrtoint');
  }
  if (d === 'fp') {
    if (s === 'int' || s === 'bool') return one(s === 'int' && isSignedInt(src) ? 'sitofp' : 'uitofp');
    if (s === 'fp') {
      const sb = fpBits(src);
      const db = fpBits(dst);
      return sb === db ? { kind: 'noop' } : one(sb < db ? 'fpext' : 'fptrunc');
    }
  }
  if (d === 'ptr') {
    if (s === 'ptr') return { kind: 'noop' };
    if (s === 'int' || s === 'bool') {
      const sb = intBits(scalarOf(src));
      if (sb === 64) return one('inttoptr');
      const ext = s === 'int' && isSignedInt(src) ? 'sext' : 'zext';
      return {
        kind: 'steps',
        steps: [
          { op: ext, to: 'i64' },
          { op: 'inttoptr', to: dst },
        ],
      };
    }
  }
  // A pointer to floating point: its address as an unsigned integer, converted (the inverse of the case below).
  if (s === 'ptr' && d === 'fp')
    return {
      kind: 'steps',
      steps: [
        { op: 'ptrtoint', to: 'i64' },
        { op: 'uitofp', to: dst },
      ],
    };
  if (isFP(src) && d === 'ptr')
    return {
      kind: 'steps',
      steps: [
        { op: 'fptoui', to: 'i64' },
        { op: 'inttoptr', to: dst },
      ],
    };
  return one('bitcast');
}
