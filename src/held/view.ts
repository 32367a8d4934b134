/**
 * What the printer prints: the module as LLVM had it in memory after reading, which is the graph
 * plus a few differences the reading release made on purpose (intrinsic upgrade, renamed locals).
 * A view states those differences without touching the graph, which the writer needs unchanged.
 */
import type { Module } from '../graph/module.js';
import type { BasicBlock, Function, GlobalVariable, Instruction, Value } from '../graph/value.js';

export interface ModuleView {
  readonly module: Module;
  readonly globals: readonly GlobalVariable[];
  /** Functions in printing order (LLVM appended the functions it created while reading). */
  readonly functions: readonly Function[];
  /** Names that differ from the graph's; `''` means unnamed. */
  readonly names: Map<Value, string>;
  /** Instruction lists that differ from the graph's. */
  readonly bodies: Map<BasicBlock, Instruction[]>;
}

export function plainView(module: Module): ModuleView {
  return { module, globals: module.globals, functions: module.functions, names: new Map(), bodies: new Map() };
}

/** The name `v` has in `view`, or undefined when it is unnamed. */
export function nameIn(view: ModuleView, v: Value): string | undefined {
  const override = view.names.size === 0 ? undefined : view.names.get(v);
  const name = override !== undefined ? override : (v as { name?: string }).name;
  return name === undefined || name === '' ? undefined : name;
}

export function instructionsIn(view: ModuleView, b: BasicBlock): readonly Instruction[] {
  return view.bodies.size === 0 ? b.instructions : (view.bodies.get(b) ?? b.instructions);
}
