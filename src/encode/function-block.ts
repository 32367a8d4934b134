/**
 * A function's block (LLVM 1.3–1.9 `outputFunction`): linkage, then either its compaction table
 * or (when the slot calculator built none) its constant pool, its instruction list and its
 * symbol table. Before version 5 a declaration has a block holding only its linkage; from
 * version 5 on it has none, unless the file it was read from gave it one (`linkageOnlyBlock`).
 */
import type { Type } from '../graph/type.js';
import type { Function, Value } from '../graph/value.js';
import type { EncodeContext } from './context.js';
import { beginBlock, endBlock, fileTypeId, writeTypeId } from './context.js';
import { writeConstantPool } from './constant-pool.js';
import { encodedLinkage } from './global-info.js';
import { writeInstruction } from './instructions.js';
import { writeSymbolTable } from './symbol-table.js';
import { namedConstants } from './symbol-order.js';
import { FIRST_DERIVED_TYPE_ID } from './slot-calculator.js';
import { writeTypes } from './type-pool.js';

const NO_TYPE_NAMES: ReadonlyMap<string, Type> = new Map<string, Type>();

export function writeFunction(ctx: EncodeContext, f: Function): void {
  const { out, sc, row } = ctx;
  if (f.isDeclaration && !row.declarationsHaveFunctionBlocks && f.linkageOnlyBlock !== true) return;
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
  writeSymbolTable(ctx, NO_TYPE_NAMES, [...named, ...namedConstants(f.layout)], f.layout);
  sc.purgeFunction();
  endBlock(ctx);
}

function writeCompactionTable(ctx: EncodeContext): void {
  const { out, sc, row } = ctx;
  const ctypes = sc.compactionTypes;
  const typeType = row.typeTypePlaneId;
  // Whether compacted types are listed: from version 2 whenever types are compacted; in version 1
  // (LLVM 1.2) they are the type-type plane of the table, written like any other plane, so only
  // when it holds derived types. The block is left out when it would hold nothing (but LLVM 1.3
  // always wrote it).
  const listsTypes = typeType !== null ? ctypes.length > FIRST_DERIVED_TYPE_ID : ctypes.length >= FIRST_DERIVED_TYPE_ID;
  if (!row.alwaysWritesCompactionTable && !listsTypes && sc.compactionTableIsEmpty()) return;
  beginBlock(ctx, 'compactionTable');
  if (typeType !== null) {
    if (listsTypes) {
      writePlaneHeader(ctx, typeType, ctypes.length - FIRST_DERIVED_TYPE_ID);
      for (let i = FIRST_DERIVED_TYPE_ID; i < ctypes.length; i++) out.vbr32(fileTypeId(ctx, sc.globalTypeSlot(ctypes[i]!)));
    }
  } else if (ctypes.length === 0) {
    out.vbr32(0);
  } else {
    out.vbr32(ctypes.length - FIRST_DERIVED_TYPE_ID);
    for (let i = FIRST_DERIVED_TYPE_ID; i < ctypes.length; i++) writeTypeId(ctx, fileTypeId(ctx, sc.globalTypeSlot(ctypes[i]!)));
  }
  const ct = sc.compactionTable;
  for (let i = 0; i < ct.length; i++) {
    const plane = ct[i]!;
    const end = sc.getModuleLevel(i);
    if (plane.length === 0 || end === 0) continue;
    const first = 1; // slot 0 is the plane's null value, never listed
    writePlaneHeader(ctx, fileTypeId(ctx, i), end - first);
    for (let j = first; j < end; j++) out.vbr32(sc.globalSlotOf(plane[j]!));
  }
  endBlock(ctx, true);
}

/** A compaction-table plane's header: one vbr (plane << 2 | n) for up to two entries, else two. */
function writePlaneHeader(ctx: EncodeContext, planeId: number, n: number): void {
  if (n <= 2) ctx.out.vbr32(planeId * 4 + n);
  else {
    ctx.out.vbr32(n * 4 + 3);
    writeTypeId(ctx, planeId);
  }
}
