/**
 * Statepoint records read as LLVM (since 3.8's gc.statepoint) lays out their locations: three
 * Constant locations (calling convention, flags, the number N of deopt locations), N deopt
 * locations, then (base, derived) pairs of GC pointers. The section does not mark which records
 * are statepoints, so a record is read so only when its locations have exactly this shape.
 */
import { LocationKind, type StackMap, type StackMapLocation, type StackMapRecord } from './model.js';

export interface StatepointView {
  readonly callingConvention: number;
  readonly flags: number;
  readonly deopt: readonly StackMapLocation[];
  readonly gcPairs: ReadonlyArray<{ readonly base: StackMapLocation; readonly derived: StackMapLocation }>;
}

function constantValue(map: StackMap, l: StackMapLocation): bigint | undefined {
  if (l.kind === LocationKind.Constant) return BigInt(l.offset);
  if (l.kind === LocationKind.ConstantIndex) return l.offset >= 0 && l.offset < map.constants.length ? map.constants[l.offset] : undefined;
  return undefined;
}

/** The record as a statepoint, or undefined when its locations do not have a statepoint's shape. */
export function readStatepoint(map: StackMap, record: StackMapRecord): StatepointView | undefined {
  const locs = record.locations;
  if (locs.length < 3) return undefined;
  const cc = constantValue(map, locs[0]!);
  const flags = constantValue(map, locs[1]!);
  const n = constantValue(map, locs[2]!);
  if (cc === undefined || flags === undefined || n === undefined) return undefined;
  if (n < 0n || flags < 0n || flags > 3n || cc < 0n || cc > 1023n) return undefined;
  const deoptCount = Number(n);
  const rest = locs.length - 3 - deoptCount;
  if (rest < 0 || rest % 2 !== 0) return undefined;
  const deopt = locs.slice(3, 3 + deoptCount);
  const gcPairs = [];
  for (let i = 3 + deoptCount; i < locs.length; i += 2) gcPairs.push({ base: locs[i]!, derived: locs[i + 1]! });
  return { callingConvention: Number(cc), flags: Number(flags), deopt, gcPairs };
}
