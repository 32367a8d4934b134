/**
 * The Function block (docs/format.md §8): linkage, then constant pools or a compaction table,
 * the instruction list (or LLVM 1.0's basic-block blocks) and the symbol table.
 */
import type { BinaryReader } from '../binary/reader.js';
import { readBlockHeader } from '../binary/block-header.js';
import { blockKindFor, hasImplicitNull, NORMALIZED_LABEL_TYPE_ID, type BlockKind, type FormatRow } from '../format/format-table.js';
import { primitiveTypesById, type Type } from '../graph/type.js';
import type { Function, Value } from '../graph/value.js';
import { readConstantPool, type ValueScope } from './constant-pool.js';
import { FunctionScope, type CompactedPlane } from './function-scope.js';
import { LINKAGE_CODES } from './global-info.js';
import { readInstructions } from './instructions.js';
import { nullValueOf } from './planes.js';
import { readFunctionSymbolTable } from './symbol-table.js';
import { installCompactBody } from '../graph/compact-body.js';
import { TYPE_TYPE, TypeTable } from './types.js';
import { readCompactionTable as readCompactionRecords } from './compaction-records.js';
import { blockName, describeType, type ModuleContext } from './context.js';

export function readFunctionBlock(ctx: ModuleContext, fn: Function): void {
  const r: BinaryReader = ctx.r;
  const { row } = ctx;
  const at = r.pos;
  const linkageCode = r.vbr32();
  const maxLinkage = row.hasDllLinkages ? 7 : 4;
  if (linkageCode > maxLinkage) r.fail(`linkage code ${linkageCode} is invalid in version ${row.version}`, at);
  fn.linkage = LINKAGE_CODES[linkageCode]!;
  if (r.atEnd() && row.emptyFunctionBodyIsDeclaration) {
    // A block holding only the linkage: a declaration. Before version 5 every declaration has
    // one; from version 5 on a declaration is flagged instead, so record the block for the writer.
    fn.isDeclaration = true;
    if (!row.declarationsHaveFunctionBlocks) fn.linkageOnlyBlock = true;
    return;
  }
  fn.isDeclaration = false;
  const s = (ctx.functionScope ??= new FunctionScope(ctx));
  s.begin(fn);
  let sawInstructions = false;
  let resolved = false;
  while (!r.atEnd()) {
    const header = readBlockHeader(r, row.longBlockHeaders);
    const blocks = (s.blockKinds ??= new BlockKinds(row));
    const kind = blocks.kind(header.id);
    r.enterBlock(blocks.name(header.id), header.size, header.headerOffset);
    if (r.depth > ctx.limits.maxBlockDepth) r.fail(`blocks nest deeper than the limit of ${ctx.limits.maxBlockDepth}`, header.headerOffset);
    switch (kind) {
      case 'constantPool':
        if (sawInstructions) r.fail('a constant pool after the instructions', header.headerOffset);
        s.placeArguments();
        readConstantPool(ctx, (s.poolScope ??= new FunctionPoolScope(s)), true);
        break;
      case 'compactionTable':
        if (!row.hasCompactionTables) r.fail(`a compaction table in version ${row.version}`, header.headerOffset);
        if (sawInstructions || s.argumentsPlaced) r.fail("a compaction table after the function's values", header.headerOffset);
        readCompactionTable(ctx, s);
        break;
      case 'instructionList':
      case 'basicBlock':
        if (kind === 'basicBlock' && !row.mayHaveBasicBlockBlocks) r.fail(`a basic-block block in version ${row.version}`, header.headerOffset);
        if (kind === 'instructionList' && sawInstructions) r.fail('a second instruction list', header.headerOffset);
        // LLVM wrote the symbol table last; references it resolved cannot be revisited.
        if (resolved) r.fail("instructions after the function's symbol table", header.headerOffset);
        s.placeArguments();
        readInstructions(s, kind === 'basicBlock');
        sawInstructions = true;
        break;
      case 'symbolTable':
        if (!resolved) {
          resolved = true;
          s.resolveForwardReferences();
        }
        readFunctionSymbolTable(ctx, s);
        break;
      default:
        // LLVM skipped blocks it did not expect; so do we (the analyzer reports them).
        break;
    }
    r.leaveBlock();
    if (row.hasAlignment) skipPadding(ctx);
  }
  if (!sawInstructions || s.completedBlocks === 0) r.fail('a function body without instructions', at);
  if (!resolved) s.resolveForwardReferences();
  installCompactBody(fn, s.compactBody(), s.hasSymbolTable);
}

/** Block ids above this are looked up each time (LLVM's are below 32). */
const CACHED_BLOCK_IDS = 64;

/**
 * The kind and name of each block id of a format row, found once per module: two map lookups
 * for every block cost a module of thousands of small functions about 2% of its read.
 */
export class BlockKinds {
  /** By id: the kind, null for an id of no kind, undefined not looked up yet. */
  private readonly kinds: (BlockKind | null | undefined)[] = [];
  private readonly names: string[] = [];

  constructor(private readonly row: FormatRow) {}

  kind(id: number): BlockKind | undefined {
    if (id >= CACHED_BLOCK_IDS) return blockKindFor(this.row, id);
    let k = this.kinds[id];
    if (k === undefined) {
      k = blockKindFor(this.row, id) ?? null;
      this.kinds[id] = k;
      this.names[id] = blockName(k ?? undefined, id);
    }
    return k ?? undefined;
  }

  /** The name of block id `id` (after `kind(id)`). */
  name(id: number): string {
    return id >= CACHED_BLOCK_IDS ? blockName(blockKindFor(this.row, id), id) : this.names[id]!;
  }
}

/** Where a function's constant pool looks values up and puts its constants. */
class FunctionPoolScope implements ValueScope {
  constructor(private readonly s: FunctionScope) {}

  get types(): TypeTable {
    return this.s.types;
  }

  typesToDefine(): TypeTable {
    return this.s.ownTypes();
  }

  lookup(t: Type, slot: number): Value | undefined {
    return this.s.valueAt(t, slot);
  }

  define(t: Type, v: Value): void {
    this.s.plane(t).push(this.s.valueCode(v));
  }

  registerTypes(added: readonly Type[]): void {
    this.s.registerTypes(added);
  }
}

/** Skips 0xAB alignment padding, which may be absent at the very end of an enclosing block. */
export function skipPadding(ctx: ModuleContext): void {
  const r: BinaryReader = ctx.r;
  const pad = (4 - (r.pos & 3)) & 3;
  r.pos += Math.min(pad, r.end - r.pos);
}

/**
 * The CompactionTable block (docs/format.md §10, read by `compaction-records.ts`): the function's
 * own numbering of types (v2+: a list first; v1: the type-type plane) and of the module values
 * it uses.
 */
function readCompactionTable(ctx: ModuleContext, s: FunctionScope): void {
  const r: BinaryReader = ctx.r;
  const { row, limits } = ctx;
  const moduleTypes = ctx.types;
  let compactedTypes: Type[] | null = null;
  let list: Type[] = [];
  let prefix: CompactedPlane = { generation: 0, values: [], length: 0 };
  let modulePlane: readonly (Value | undefined)[] = [];
  let length = 0;
  let plane: Type = primitiveTypesById[0]!;
  readCompactionRecords(r, row, {
    typeCount: (n, at) => r.checkCount(n, 1, limits.maxCompactionTableEntries, 'compacted types', at),
    types: (count, at) => {
      if (compactedTypes !== null) r.fail('a second list of compacted types', at);
      list = new Array(count);
    },
    type: (i, id) => {
      list[i] = compactedModuleType(ctx, moduleTypes, id);
    },
    typesEnd: (count) => {
      if (count === 0 && row.typeDerivedFromValue === false) return;
      compactedTypes = list;
      s.useTypes(new TypeTable([...primitiveTypesById, ...list]));
      s.registerTypes(list);
    },
    planeHeader: (count, at) => r.checkCount(count, 1, limits.maxCompactionTableEntries, 'compaction table entries', at),
    valuePlane: (_count, planeId, at) => {
      const t = (plane = s.types.at(r, planeId, at));
      if (planeId === NORMALIZED_LABEL_TYPE_ID || t.kind === 'void') r.fail(`a compaction table plane of type ${describeType(t)}`, at);
      if (s.isCompacted(t)) r.fail(`two compaction table planes for type ${describeType(t)}`, at);
      const withNull = hasImplicitNull(row, moduleTypes.planeTypeId(t), t.kind === 'opaque');
      modulePlane = ctx.planes.plane(t);
      prefix = s.compactedPlane(t);
      length = 0;
      if (withNull) prefix.values[length++] = modulePlane[0] ?? nullValueOf(t);
    },
    entry: (_i, slot, at) => {
      const v = modulePlane[slot];
      if (v === undefined) r.fail(`compaction table names module slot ${slot} of type ${describeType(plane)}, which is not defined`, at);
      prefix.values[length++] = v;
    },
    valuePlaneEnd: () => {
      prefix.length = length;
    },
  });
}

function compactedModuleType(ctx: ModuleContext, moduleTypes: TypeTable, id: number): Type {
  if (id === TYPE_TYPE) ctx.r.fail('the type type cannot be compacted');
  return moduleTypes.at(ctx.r, id);
}
