/**
 * Which records belong to which function.
 *
 * Versions 2 and 3 (and Manticore's 1) say it: each function entry has a record count, and the
 * records follow in function order. Version 1 does not, and this is the rule used instead
 * (GROUPING_RULE): LLVM 3.5–3.9 made a function's entry when it recorded the function's first
 * record, so the functions are in the order of their first records, each has at least one, and
 * each function's records are one contiguous run; within a run the instruction offsets never
 * decrease (records are emitted in code order); and when the object gives the functions' sizes,
 * every record's offset lies inside its function. The grouping is settled only when exactly one
 * division of the records meets all of these; otherwise nothing is guessed.
 */
import type { StackMap } from './model.js';
import { instructionOffsets, recordCountOf } from './record-table.js';

export const GROUPING_RULE =
  "version 1 has no record counts: functions are in the order of their first records, each has at least one, each function's records are one contiguous run whose instruction offsets never decrease, and lie inside the function when its size is known; the grouping is settled only when exactly one division meets these";

export type Grouping =
  | { readonly settled: true; readonly counts: readonly number[]; readonly how: 'counts' | 'rule' }
  | { readonly settled: false; readonly reason: string };

/** Bytes of the DP table above which the rule is not tried (the grouping is then not settled). */
export const MAX_GROUPING_CELLS = 16_000_000;

/**
 * Groups the records. `functionSizes[i]`, when known, is function i's code size in bytes (from
 * the object's symbol table): a record of it has a smaller instruction offset.
 */
export function groupRecords(map: StackMap, functionSizes: readonly (number | undefined)[] = []): Grouping {
  const F = map.functions.length;
  const R = recordCountOf(map);
  if (map.functions.every((f) => f.recordCount !== undefined) && (F > 0 || R === 0)) {
    let sum = 0n;
    for (const f of map.functions) sum += f.recordCount!;
    if (sum !== BigInt(R)) return { settled: false, reason: `the functions' record counts sum to ${sum}, the section has ${R} records` };
    return { settled: true, counts: map.functions.map((f) => Number(f.recordCount!)), how: 'counts' };
  }
  if (F === 0) return { settled: false, reason: `there are ${R} records and no function entries` };
  if (R < F) return { settled: false, reason: `${F} functions but only ${R} records (each function has at least one)` };
  if (F === R) return { settled: true, counts: new Array<number>(F).fill(1), how: 'rule' };
  if ((F + 1) * (R + 1) > MAX_GROUPING_CELLS) return { settled: false, reason: `${F} functions and ${R} records are too many to settle by the rule` };
  const offsets = instructionOffsets(map);
  // runStart[i]: the first index k such that offsets[k..i] never decrease.
  const runStart = new Int32Array(R);
  for (let i = 1; i < R; i++) runStart[i] = offsets[i]! < offsets[i - 1]! ? i : runStart[i - 1]!;
  // ways[j][i] in {0, 1, 2 = two or more}: divisions of records [0, i) among functions [0, j).
  const ways: Uint8Array[] = [new Uint8Array(R + 1)];
  ways[0]![0] = 1;
  for (let j = 1; j <= F; j++) {
    const prev = ways[j - 1]!;
    const row = new Uint8Array(R + 1);
    const size = functionSizes[j - 1];
    // prefix counts over prev: how many k < x have prev[k] > 0, and whether any has 2.
    const positive = new Int32Array(R + 2);
    const many = new Int32Array(R + 2);
    for (let k = 0; k <= R; k++) {
      positive[k + 1] = positive[k]! + (prev[k]! > 0 ? 1 : 0);
      many[k + 1] = many[k]! + (prev[k]! > 1 ? 1 : 0);
    }
    let lastOutside = -1; // the last record index (so far) whose offset is outside function j-1
    for (let i = 1; i <= R; i++) {
      if (size !== undefined && offsets[i - 1]! >= size) lastOutside = i - 1;
      const lo = Math.max(runStart[i - 1]!, lastOutside + 1); // the run [k, i) must start at k >= lo
      const hi = i - 1;
      if (lo > hi) continue;
      const p = positive[hi + 1]! - positive[lo]!;
      const m = many[hi + 1]! - many[lo]!;
      row[i] = p === 0 ? 0 : p > 1 || m > 0 ? 2 : 1;
    }
    ways.push(row);
  }
  const total = ways[F]![R]!;
  if (total === 0) return { settled: false, reason: 'no division of the records meets the grouping rule' };
  if (total > 1) return { settled: false, reason: 'more than one division of the records meets the grouping rule' };
  // Unique: walk back, each function's run start is the one k with ways[j-1][k] === 1 in range.
  const counts = new Array<number>(F);
  let end = R;
  for (let j = F; j >= 1; j--) {
    const size = functionSizes[j - 1];
    let lo = runStart[end - 1]!;
    if (size !== undefined)
      for (let k = end - 1; k >= lo; k--)
        if (offsets[k]! >= size) {
          lo = k + 1;
          break;
        }
    let start = -1;
    for (let k = end - 1; k >= lo; k--)
      if (ways[j - 1]![k]! > 0) {
        start = k;
        break;
      }
    counts[j - 1] = end - start;
    end = start;
  }
  return { settled: true, counts, how: 'rule' };
}
