/** What every block decoder of one module shares. */
import { BLOCK_NAMES, type BlockKind } from '../binary/block-header.js';
import type { BinaryReader } from '../binary/reader.js';
import type { FormatRow } from '../format/format-table.js';
import type { Limits } from '../limits.js';
import type { Module } from '../graph/module.js';
import type { PointerType, Type } from '../graph/type.js';
import type { Function, GlobalVariable, Value } from '../graph/value.js';
import type { ModulePlanes } from './planes.js';
import type { TypeTable } from './types.js';
import type { TypeRegistry } from './type-identity.js';
import type { SymbolNaming } from './symbol-naming.js';
import type { NameInterner } from './name-interner.js';
import type { FunctionScope } from './function-scope.js';

export interface ModuleContext {
  readonly r: BinaryReader;
  readonly row: FormatRow;
  readonly limits: Limits;
  readonly module: Module;
  /** Module-level types by normalized id. */
  readonly types: TypeTable;
  readonly planes: ModulePlanes;
  /** Functions whose Function block is still to come, in file order. */
  readonly bodiesToRead: Function[];
  /**
   * For each of `bodiesToRead`, its index in `module.functions`: a Function block is named
   * `Function #N` by that index in error paths, as the analyzer and the web page's tree number it.
   */
  readonly bodyFunctionIndexes: number[];
  /** Global variables whose initializer slot waits for the constant pool. */
  readonly pendingInitializers: { global: GlobalVariable; slot: number; offset: number }[];
  /** Pointer types by pointee, for results of getelementptr and the like. */
  readonly pointerTypes: Map<Type, PointerType>;
  /** One object per structural type across every pool of the module (see type-identity.ts). */
  readonly typeRegistry: TypeRegistry;
  /** Symbol-table names, shared when repeated (see name-interner.ts). */
  readonly names: NameInterner;
  /** The state of the function body being read, reused by the module's next functions (made at the first). */
  functionScope?: FunctionScope;
  /**
   * Names a function's symbol table gave module values (globals, functions: only a damaged file
   * has such entries), value then name, in file order. LLVM read function bodies after the
   * module's symbol table, so these named last (`applyLateNames`, symbol-table.ts).
   */
  lateNames?: (Value | string)[];
  /** LLVM's naming of the module's values, once a clash may have arisen (symbol-table.ts). */
  moduleNaming?: SymbolNaming<Value>;
}

export { describeType } from '../graph/describe.js';

/**
 * Makes types of a module-level pool the module's objects for their structures: later pools'
 * equal definitions become them, and `pointerTo` returns the file's own pointer types.
 */
export function registerTypes(ctx: ModuleContext, added: readonly Type[]): void {
  for (const t of added) ctx.typeRegistry.register(t);
}

/** The pointer type to `t`, reusing the file's own when it has one. */
export function pointerTo(ctx: ModuleContext, t: Type): PointerType {
  let p = ctx.pointerTypes.get(t);
  if (p === undefined) {
    p = { kind: 'pointer', element: t };
    ctx.pointerTypes.set(t, p);
  }
  return p;
}

/** The name of a block in error paths: LLVM's name for its kind, or its raw id when unknown. */
export function blockName(kind: BlockKind | undefined, id: number): string {
  return (kind && BLOCK_NAMES.get(kind)) ?? `UnknownBlock(id ${id})`;
}
