/**
 * A function's block (LLVM 1.3–1.9 `outputFunction`): linkage, then either its compaction table
 * or (when the slot calculator built none) its constant pool, its instruction list and its
 * symbol table. Before version 5 a declaration has a block holding only its linkage; from
 * version 5 on it has none.
 */
import type { Type } from '../graph/type.js';
import type { Function, Value } from '../graph/value.js';
import type { EncodeContext } from './context.js';
import { beginBlock, endBlock, writeTypeId } from './context.js';
import { writeConstantPool } from './constant-pool.js';
import { encodedLinkage } from './global-info.js';
import { writeInstruction } from './instructions.js';
import { writeSymbolTable } from './symbol-table.js';
import { FIRST_DERIVED_TYPE_ID } from './slot-calculator.js';
import { writeTypes } from './type-pool.js';

const NO_TYPE_NAMES: ReadonlyMap<string, Type> = new Map<string, Type>();

export function writeFunction(ctx: EncodeContext, f: Function): void {
  const { out, sc, row } = ctx;
  if (f.isDeclaration && !row.declarationsHaveFunctionBlocks) return;
  beginBlock(ctx, 'function');
  out.vbr32(encodedLinkage(ctx, f.linkage));
  if (f.isDeclaration) {
    endBlock(ctx);
    return;
  }
  sc.incorporateFunction(f);
  if (sc.compactionTable.length === 0) writeConstantPool(ctx, true, (s) => writeTypes(ctx, s));
  else writeCompactionTable(ctx);

  // The function's symbol table holds its named arguments, blocks and instructions (collected
  // on the way, to walk the body once).
  const named: Value[] = [];
  for (const a of f.args) if (a.name) named.push(a);
  beginBlock(ctx, 'instructionList');
  for (const bb of f.blocks) {
    if (bb.name) named.push(bb);
    const insts = bb.instructions;
    for (let i = 0; i < insts.length; i++) {
      const inst = insts[i]!;
      writeInstruction(ctx, inst);
      if (inst.name) named.push(inst);
    }
  }
  endBlock(ctx);
  writeSymbolTable(ctx, NO_TYPE_NAMES, named, f.layout);
  sc.purgeFunction();
  endBlock(ctx);
}

function writeCompactionTable(ctx: EncodeContext): void {
  const { out, sc } = ctx;
  if (!ctx.row.alwaysWritesCompactionTable && !(sc.compactionTypes.length >= FIRST_DERIVED_TYPE_ID || !sc.compactionTableIsEmpty())) {
    return;
  }
  beginBlock(ctx, 'compactionTable');
  const ctypes = sc.compactionTypes;
  if (ctypes.length === 0) out.vbr32(0);
  else {
    out.vbr32(ctypes.length - FIRST_DERIVED_TYPE_ID);
    for (let i = FIRST_DERIVED_TYPE_ID; i < ctypes.length; i++) writeTypeId(out, sc.globalTypeSlot(ctypes[i]!));
  }
  const ct = sc.compactionTable;
  for (let i = 0; i < ct.length; i++) {
    const plane = ct[i]!;
    const end = sc.getModuleLevel(i);
    if (plane.length === 0 || end === 0) continue;
    const first = 1; // slot 0 is the plane's null value, never listed
    const n = end - first;
    if (n <= 2) out.vbr32(i * 4 + n);
    else {
      out.vbr32(n * 4 + 3);
      writeTypeId(out, i);
    }
    for (let j = first; j < end; j++) out.vbr32(sc.globalSlotOf(plane[j]!));
  }
  endBlock(ctx, true);
}
