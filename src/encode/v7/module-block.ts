/**
 * A version-7 stream as r36867's `BytecodeWriter` wrote it: signature, module block (long header)
 * holding the bare version word 7, the global type block, module global info, the module constant
 * pool, one block per defined function (linkage and visibility, instructions, value symbol
 * table), the type symbol table and the module's value symbol table.
 *
 * Why its own: the module block's order and contents are r36867's (type symbol table block,
 * no compaction tables, no function constant pools).
 */
import type { FormatRow } from '../../format/format-table.js';
import type { Module } from '../../graph/module.js';
import type { Function, Value } from '../../graph/value.js';
import { BinaryWriter } from '../../binary/writer.js';
import { opcodeNumbersFor } from '../context.js';
import { writeV7ConstantPool } from './constants.js';
import type { V7EncodeContext } from './context.js';
import { encodedV7Linkage, encodedVisibility, writeV7GlobalInfo } from './global-info.js';
import { writeV7Instruction } from './instructions.js';
import { V7SlotCalculator } from './slot-calculator.js';
import { writeV7TypeSymbolTable, writeV7ValueSymbolTable } from './symbol-tables.js';
import { writeV7Types } from './types.js';

export function writeV7Stream(module: Module, row: FormatRow): Uint8Array {
  const out = new BinaryWriter({ initialCapacity: 4096 });
  const ctx: V7EncodeContext = { out, sc: new V7SlotCalculator(module), row, opcodes: opcodeNumbersFor(row) };
  out.bytes(new Uint8Array([0x6c, 0x6c, 0x76, 0x6d])); // "llvm"
  out.beginBlock(row.blockIds.module!, true);
  out.vbr32(row.version);
  out.beginBlock(row.blockIds.globalTypePlane!, false);
  writeV7Types(ctx);
  out.endBlock();
  writeV7GlobalInfo(ctx, module);
  writeV7ConstantPool(ctx);
  for (const f of module.functions) writeFunction(ctx, f);
  writeV7TypeSymbolTable(ctx, module.typeNames);
  writeV7ValueSymbolTable(ctx, [...module.globals, ...module.functions, ...(module.aliases ?? [])], module.layout);
  out.endBlock();
  return out.finish();
}

function writeFunction(ctx: V7EncodeContext, f: Function): void {
  if (f.isDeclaration) return;
  const { out, sc, row } = ctx;
  out.beginBlock(row.blockIds.function!, false);
  out.vbr32(encodedVisibility(f.visibility) * 65536 + encodedV7Linkage(f.linkage));
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
  out.beginBlock(row.blockIds.instructionList!, false);
  for (const bb of f.blocks) {
    mention(bb);
    for (const inst of bb.instructions) {
      writeV7Instruction(ctx, inst);
      for (const o of inst.operands) if (o.kind === 'block') mention(o);
      if (inst.name) named.push(inst);
    }
  }
  out.endBlock();
  writeV7ValueSymbolTable(ctx, named, f.layout);
  sc.purgeFunction();
  out.endBlock();
}
