/**
 * Version 7's function block (r36867 `outputFunction`): the linkage word with the visibility in
 * bits 16 and up, the instruction list, the function's value symbol table. A declaration has no
 * block.
 *
 * Why its own: r36867's numbering (`slot-calculator.ts`) keeps no compact bodies, no function
 * constant pools and no compaction tables, so a body is written from the graph's instructions
 * (the shared encoder's `writeGraphInstruction`) rather than through 1.x's body views, and its
 * symbol table is named in the order an assembler named the values (for the StringMap order).
 * The instruction encoding, the symbol table, the linkage and visibility codes are the shared
 * writers' (`../instructions.ts`, `../symbol-table.ts`, `../global-info.ts`).
 */
import type { Function, Value } from '../../graph/value.js';
import { beginBlock, endBlock } from '../context.js';
import { encodedLinkage, encodedVisibility } from '../global-info.js';
import { NO_TYPE_NAMES, writeSymbolTable } from '../symbol-table.js';
import { writeGraphInstruction } from '../instructions.js';
import type { ModuleEncodeContext } from '../context.js';
import type { V7SlotCalculator } from './slot-calculator.js';

/** The writers' shared context, with r36867's numbering. */
export interface V7EncodeContext extends ModuleEncodeContext {
  readonly sc: V7SlotCalculator;
}

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
      writeGraphInstruction(ctx, inst);
      for (const o of inst.operands) if (o.kind === 'block') mention(o);
      if (inst.name) named.push(inst);
    }
  }
  endBlock(ctx);
  writeSymbolTable(ctx, NO_TYPE_NAMES, named, f.layout);
  sc.purgeFunction();
  endBlock(ctx);
}
