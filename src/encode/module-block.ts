/**
 * The module block (LLVM 1.8/1.9 `BytecodeWriter` constructor): signature, version word, global
 * type block, global info, module constant pool, function blocks, module symbol table.
 */
import { formatFor, VERSION_WORD_FLAGS } from '../format/format-table.js';
import type { Module } from '../graph/module.js';
import { BinaryWriter } from '../binary/writer.js';
import { beginBlock, endBlock, opcodeNumbersFor, pad, type EncodeContext } from './context.js';
import { writeConstantPool } from './constant-pool.js';
import { EncodeError } from './encode-error.js';
import { writeFunction } from './function-block.js';
import { writeGlobalInfo } from './global-info.js';
import { FIRST_DERIVED_TYPE_ID, SlotCalculator } from './slot-calculator.js';
import { writeSymbolTable } from './symbol-table.js';
import { LegacySlotCalculator } from './legacy-slot-calculator.js';
import { namedConstants } from './symbol-order.js';
import { writeTypes } from './type-pool.js';
import { writeV7Stream } from './v7/module-block.js';

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
  // LLVM 2.0's development writer (version 7) shares little with 1.x's: its own modules.
  if (row.typeIdScheme === 'llvm2') return writeV7Stream(module, row);
  refuseVersion7Only(module, version);
  // Versions 0–3 pad to 32 bits after every block (LLVM 1.1–1.3).
  // Most modules are small: start with 4 KiB and let the buffer double.
  const out = new BinaryWriter({ initialCapacity: 4096, alignAfterBlocks: row.alignmentFill !== null, alignFill: row.alignmentFill ?? 0xab });
  const sc = row.perFunctionConstantPools ? new LegacySlotCalculator(module, row) : new SlotCalculator(module, row);
  const ctx: EncodeContext = { out, sc, row, opcodes: opcodeNumbersFor(row) };

  out.bytes(new Uint8Array([0x6c, 0x6c, 0x76, 0x6d])); // "llvm"
  beginBlock(ctx, 'module');
  const F = VERSION_WORD_FLAGS;
  const flags =
    (module.endianness === 'big' ? F.bigEndian : 0) |
    (module.pointerSize === 64 ? F.pointer64 : 0) |
    (module.endianness === 'any' ? F.noEndianness : 0) |
    (module.pointerSize === 'any' ? F.noPointerSize : 0);
  out.vbr32((version << 4) | flags);

  pad(ctx);

  beginBlock(ctx, 'globalTypePlane');
  writeTypes(ctx, FIRST_DERIVED_TYPE_ID);
  endBlock(ctx);

  writeGlobalInfo(ctx, module);
  writeConstantPool(ctx, false, (s) => writeTypes(ctx, s));
  for (const f of module.functions) writeFunction(ctx, f);
  writeSymbolTable(ctx, module.typeNames, [...module.globals, ...module.functions, ...namedConstants(module.layout)], module.layout);
  endBlock(ctx);
  const stream = out.finish();
  out.release(); // the buffer serves the next write (see BinaryWriter.release)
  return stream;
}

/** What only version 7 could say about globals (its types are refused where they are written). */
function refuseVersion7Only(module: Module, version: number): void {
  if (module.aliases !== undefined && module.aliases.length !== 0) throw new EncodeError('an alias', version, 'aliases came with version 7');
  for (const g of module.globals) {
    if (g.visibility !== undefined && g.visibility !== 'default')
      throw new EncodeError(`${g.visibility} visibility`, version, 'visibility came with version 7');
    if (g.isThreadLocal === true) throw new EncodeError('a thread_local global', version, 'thread_local came with version 7');
  }
  for (const f of module.functions) {
    if (f.visibility !== undefined && f.visibility !== 'default')
      throw new EncodeError(`${f.visibility} visibility`, version, 'visibility came with version 7');
  }
}
