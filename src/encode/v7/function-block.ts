/**
 * Version 7's function block (r36867 `outputFunction`): the linkage word with the visibility in
 * bits 16 and up, the instruction list, the function's value symbol table. A declaration has no
 * block.
 *
 * Why its own: r36867's numbering (`slot-calculator.ts`) keeps no compact bodies, no function
 * constant pools and no compaction tables, so a body is written from the graph's instructions
 * (`instructions.ts`) rather than through 1.x's body views; the symbol table, the linkage and
 * visibility codes are the shared writers' (`../symbol-table.ts`, `../global-info.ts`).
 */
import type { Function, Value } from '../../graph/value.js';
import { beginBlock, endBlock } from '../context.js';
import { encodedLinkage, encodedVisibility } from '../global-info.js';
import { NO_TYPE_NAMES, writeSymbolTable } from '../symbol-table.js';
import { writeV7Instruction, type V7EncodeContext } from './instructions.js';

export type { V7EncodeContext } from './instructions.js';

export function writeV7Function(ctx: V7EncodeContext, f: Function): void {
  if (f.isDeclaration) return;
  const { out, sc } = ctx;
  beginBlock(ctx, 'function');
  out.vbr32(encodedVisibility(f.visibility) * 65536 + encodedLinkage(ctx, f.linkage));
  sc.incorporateFunction(f);
  // Named values in the order an assembler named them (a block at its first mention), which
  // decides LLVM's StringMap order when the module records no layout.
  const named: Value[] = [];
  const seenBlocks = new Set<Value>();
  const mention = (bb: Value): void => {
    if (seenBlocks.has(bb)) return;
    seenBlocks.add(bb);
    if ((bb as { name?: string }).name) named.push(bb);
  };
  for (const a of f.args) if (a.name) named.push(a);
  beginBlock(ctx, 'instructionList');
  for (const bb of f.blocks) {
    mention(bb);
    for (const inst of bb.instructions) {
      writeV7Instruction(ctx, inst);
      for (const o of inst.operands) if (o.kind === 'block') mention(o);
      if (inst.name) named.push(inst);
    }
  }
  endBlock(ctx);
  writeSymbolTable(ctx, NO_TYPE_NAMES, named, f.layout);
  sc.purgeFunction();
  endBlock(ctx);
}
