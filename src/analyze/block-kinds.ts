/**
 * Block kinds by the id a file's block header holds, under a format row's numbering (the row's
 * `blockIds` turned around once, instead of searched for every block).
 */
import type { BlockKind, FormatRow } from '../format/format-table.js';

const byRow = new Map<FormatRow, readonly (BlockKind | undefined)[]>();

export function blockKinds(row: FormatRow): readonly (BlockKind | undefined)[] {
  let kinds = byRow.get(row);
  if (!kinds) {
    const table: (BlockKind | undefined)[] = [];
    for (const [kind, id] of Object.entries(row.blockIds) as [BlockKind, number | null][]) if (id !== null) table[id] = kind;
    kinds = table;
    byRow.set(row, kinds);
  }
  return kinds;
}
