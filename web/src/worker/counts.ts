import type { Module } from '../../../src/graph/module.js';
import type { Analysis } from './library.js';

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The figures the summary shows from the module graph (what the file holds). */
export function moduleCounts(module: Module): [string, string][] {
  const defined = module.functions.filter((f) => !f.isDeclaration);
  let blocks = 0;
  let instructions = 0;
  for (const f of defined) {
    blocks += f.blocks.length;
    for (const b of f.blocks) instructions += b.instructions.length;
  }
  const rows: [string, string][] = [
    ['Types', fmt(module.types.length)],
    ['Named types', fmt(module.typeNames.size)],
    ['Global variables', fmt(module.globals.length)],
    ['Functions', `${fmt(defined.length)} defined, ${fmt(module.functions.length - defined.length)} declared`],
    ['Basic blocks', fmt(blocks)],
    ['Instructions', fmt(instructions)],
  ];
  if (module.targetTriple) rows.push(['Target triple', module.targetTriple]);
  rows.push(['Endianness / pointers', `${module.endianness} / ${module.pointerSize}`]);
  return rows;
}

/** Figures only the analyzer knows (how the bytes are spent). */
export function analysisCounts(analysis: Analysis): [string, string][] {
  const c = analysis.counts;
  return [
    ['Blocks', fmt(c.blocks)],
    ['Constants', fmt(c.constants)],
    ['Symbol tables', fmt(c.symbolTables)],
    ['Compaction tables', fmt(c.compactionTables)],
  ];
}
