/**
 * The module block (LLVM 1.1–1.9's and r36867's `BytecodeWriter` constructor): signature, version
 * word, global type block, global info, module constant pool, function blocks, (version 7) the
 * type symbol table, the module symbol table. Every version's: what differs is in the row, and
 * the slot numbering with its function writer is the one the row names (`slotNumbering`).
 */
import { formatFor, VERSION_WORD_FLAGS } from '../format/format-table.js';
import type { FormatRow } from '../format/format-table.js';
import type { Module } from '../graph/module.js';
import type { Function } from '../graph/value.js';
import { BinaryWriter } from '../binary/writer.js';
import { beginBlock, endBlock, opcodeNumbersFor, pad, type EncodeContext, type ModuleEncodeContext } from './context.js';
import { writeConstantPool } from './constant-pool.js';
import { EncodeError } from './encode-error.js';
import { writeFunction } from './function-block.js';
import { writeGlobalInfo } from './global-info.js';
import { SlotCalculator } from './slot-calculator.js';
import { NO_TYPE_NAMES, writeSymbolTable, writeTypeSymbolTable } from './symbol-table.js';
import { LegacySlotCalculator } from './legacy-slot-calculator.js';
import { namedConstants } from './symbol-order.js';
import { writeTypes } from './type-pool.js';
import { V7SlotCalculator } from './v7/slot-calculator.js';
import { writeV7Function, type V7EncodeContext } from './v7/function-block.js';

/**
 * One small instance of each class a write creates, kept for the life of the program. V8 keeps
 * a class's hidden classes only while an instance lives: once a write's slot numbering and output
 * buffer are collected (at the next full GC), their hidden classes go too, and every optimized
 * function of the writer that depended on them is thrown away ("weak objects") and recompiled
 * during the next write, which then runs several times slower (measured: big-bf written right
 * after a full GC, 100+ ms instead of ~20). These keep the shapes, and the compiled writer, alive.
 */
const EMPTY_MODULE: Module = {
  kind: 'module',
  endianness: 'little',
  pointerSize: 32,
  targetTriple: '',
  inlineAsm: '',
  dependentLibraries: [],
  types: [],
  typeNames: new Map(),
  globals: [],
  functions: [],
};
export const KEPT_SHAPES: readonly object[] = [
  new BinaryWriter({ initialCapacity: 16 }),
  new SlotCalculator(EMPTY_MODULE, formatFor(6)!),
  new LegacySlotCalculator(EMPTY_MODULE, formatFor(0)!),
];

/**
 * Bytecode versions the writer can produce.
 *
 * @category Read, write, convert
 */
export const SUPPORTED_VERSIONS: ReadonlySet<number> = new Set([0, 1, 3, 5, 6, 7]);

/** The uncompressed stream (`llvm` signature + module block) LLVM would have written. */
export function writeStream(module: Module, version = 6): Uint8Array {
  const row = formatFor(version);
  if (row === undefined || !SUPPORTED_VERSIONS.has(version)) {
    throw new EncodeError('a module', version, `the writer supports bytecode versions ${[...SUPPORTED_VERSIONS].join(', ')}`);
  }
  refuseVersion7Only(module, row);
  // Versions 0–3 pad to 32 bits after every block (LLVM 1.1–1.3).
  // Most modules are small: start with 4 KiB and let the buffer double.
  const out = new BinaryWriter({ initialCapacity: 4096, alignAfterBlocks: row.alignmentFill !== null, alignFill: row.alignmentFill ?? 0xab });
  const { ctx, writeFunction } = numberingFor(module, row, out);

  out.bytes(new Uint8Array([0x6c, 0x6c, 0x76, 0x6d])); // "llvm"
  beginBlock(ctx, 'module');
  if (row.versionWordHasFlags) {
    const F = VERSION_WORD_FLAGS;
    const flags =
      (module.endianness === 'big' ? F.bigEndian : 0) |
      (module.pointerSize === 64 ? F.pointer64 : 0) |
      (module.endianness === 'any' ? F.noEndianness : 0) |
      (module.pointerSize === 'any' ? F.noPointerSize : 0);
    out.vbr32((version << 4) | flags);
  } else {
    out.vbr32(version);
  }

  pad(ctx);

  beginBlock(ctx, 'globalTypePlane');
  writeTypes(ctx, row.firstWrittenTypeSlot);
  endBlock(ctx);

  writeGlobalInfo(ctx, module);
  writeConstantPool(ctx, false, (s) => writeTypes(ctx, s));
  for (const f of module.functions) writeFunction(f);
  const values = [...module.globals, ...module.functions, ...(module.aliases ?? []), ...namedConstants(module.layout)];
  if (row.blockIds.typeSymbolTable !== null) {
    writeTypeSymbolTable(ctx, module.typeNames);
    writeSymbolTable(ctx, NO_TYPE_NAMES, values, module.layout);
  } else {
    writeSymbolTable(ctx, module.typeNames, values, module.layout);
  }
  endBlock(ctx);
  const stream = out.finish();
  out.release(); // the buffer serves the next write (see BinaryWriter.release)
  return stream;
}

/**
 * The slot numbering the row names (`slotNumbering`), with the context the writers share and the
 * function writer that goes with it: version 7's function blocks are r36867's (v7/function-block.ts).
 */
function numberingFor(module: Module, row: FormatRow, out: BinaryWriter): { ctx: ModuleEncodeContext; writeFunction: (f: Function) => void } {
  const opcodes = opcodeNumbersFor(row);
  if (row.slotNumbering === 'r36867') {
    const ctx: V7EncodeContext = { out, sc: new V7SlotCalculator(module), row, opcodes };
    return { ctx, writeFunction: (f) => writeV7Function(ctx, f) };
  }
  const sc = row.slotNumbering === 'llvm1.1' ? new LegacySlotCalculator(module, row) : new SlotCalculator(module, row);
  const ctx: EncodeContext = { out, sc, row, opcodes };
  return { ctx, writeFunction: (f) => writeFunction(ctx, f) };
}

/** What only version 7 could say about globals (its types are refused where they are written). */
function refuseVersion7Only(module: Module, row: FormatRow): void {
  const version = row.version;
  if (!row.hasAliases && module.aliases !== undefined && module.aliases.length !== 0) throw new EncodeError('an alias', version, 'aliases came with version 7');
  for (const g of module.globals) {
    if (!row.hasVisibility && g.visibility !== undefined && g.visibility !== 'default')
      throw new EncodeError(`${g.visibility} visibility`, version, 'visibility came with version 7');
    if (!row.hasThreadLocal && g.isThreadLocal === true) throw new EncodeError('a thread_local global', version, 'thread_local came with version 7');
  }
  if (row.hasVisibility) return;
  for (const f of module.functions) {
    if (f.visibility !== undefined && f.visibility !== 'default')
      throw new EncodeError(`${f.visibility} visibility`, version, 'visibility came with version 7');
  }
}
