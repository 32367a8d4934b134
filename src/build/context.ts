/**
 * What the module builder and its instruction builders share while a module is being built: the
 * type and constant builders, the module itself, which function owns each argument, block and
 * instruction (so an instruction cannot use a value of another function), and each function's
 * local names (so two values never share one: the writer would refuse it).
 *
 * This bookkeeping lives beside the graph, in maps, so the graph itself stays plain objects.
 */
import { emptyModule } from '../graph/describe.js';
import type { Module } from '../graph/module.js';
import type { Argument, BasicBlock, Function, GlobalValue, Instruction } from '../graph/value.js';
import { ConstantBuilder } from './constants.js';
import { TypeBuilder } from './types.js';

interface LocalNames {
  used: Set<string>;
  /** The last number appended to make a name unique (one counter per function, as LLVM had). */
  counter: number;
}

export class BuildContext {
  readonly types = new TypeBuilder();
  readonly constants = new ConstantBuilder(this.types);
  readonly module: Module = emptyModule();
  readonly owner = new WeakMap<Argument | BasicBlock | Instruction, Function>();
  readonly moduleValues = new Set<GlobalValue>();
  private readonly locals = new WeakMap<Function, LocalNames>();

  /**
   * `name` if no other value of `fn` has it, else `name` followed by a number (`tmp` → `tmp1`),
   * as LLVM renamed clashing names. Undefined or empty: no name.
   */
  localName(fn: Function, name: string | undefined): string | undefined {
    if (name === undefined || name === '') return undefined;
    let l = this.locals.get(fn);
    if (l === undefined) this.locals.set(fn, (l = { used: new Set(), counter: 0 }));
    let n = name;
    while (l.used.has(n)) n = name + String(++l.counter);
    l.used.add(n);
    return n;
  }
}
