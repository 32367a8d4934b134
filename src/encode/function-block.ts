/**
 * A function's block (LLVM 1.3–1.9 `outputFunction`): linkage, then either its compaction table
 * or (when the slot calculator built none) its constant pool, its instruction list and its
 * symbol table. Before version 5 a declaration has a block holding only its linkage; from
 * version 5 on it has none, unless the file it was read from gave it one (`linkageOnlyBlock`).
 */
import type { Function, Value } from '../graph/value.js';
import type { EncodeContext } from './context.js';
import { beginBlock, endBlock, fileTypeId, writeTypeId } from './context.js';
import { writeConstantPool } from './constant-pool.js';
import { encodedLinkage } from './global-info.js';
import { writeInstructions } from './instructions.js';
import { writeFunctionSymbolTable } from './symbol-table.js';
import { FIRST_DERIVED_TYPE_ID } from './slot-calculator.js';
import { writeTypes } from './type-pool.js';

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

  // The body as the slot numbering walked it: compact as read, or converted (body-view.ts).
  const body = sc.viewOf(f)?.body;
  beginBlock(ctx, 'instructionList');
  if (body !== undefined) writeInstructions(ctx, body);
  endBlock(ctx);
  writeFunctionSymbolTable(ctx, f, body);
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
    // (Below the module level a plane holds module values only.)
    for (let j = first; j < end; j++) out.vbr32(sc.globalSlotOf(plane[j] as Value));
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
