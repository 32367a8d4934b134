/**
 * Copying values from an input module into the linked module, and LLVM's `replaceAllUsesWith`
 * there. The inputs are never changed: every global, constant of a derived type, argument, block
 * and instruction the linked module holds is its own object, so that the final pass can give
 * every value its canonical type (type-resolver.ts) without touching a caller's module.
 */
import type { Type } from '../graph/type.js';
import type { Argument, BasicBlock, Constant, Function, Instruction, Value } from '../graph/value.js';
import type { Module } from '../graph/module.js';
import { instructionsIn, nameIn, type ModuleView } from '../held/view.js';
import type { TypeResolver } from './type-resolver.js';
import { canonicalConstant } from '../held/constants.js';
import { LinkError } from './link-error.js';

/** Whether a value is a constant (module-level: not an argument, block or instruction). */
export function isConstant(v: Value): v is Constant {
  return v.kind !== 'argument' && v.kind !== 'block' && v.kind !== 'instruction';
}

/**
 * `cast (v to type)` as LLVM's constant folder made it: no cast when the types are one, and a
 * cast of a pointer cast of a pointer is one cast of the original (LLVM never left a cast of a
 * cast between pointers).
 */
export function castTo(types: TypeResolver, v: Constant, type: Type): Constant {
  if (types.same(v.type, type)) return v;
  if (v.kind === 'expr' && v.opcode === 'cast' && isPointer(types, v.type) && isPointer(types, type)) {
    const inner = v.operands[0]!;
    if (isPointer(types, inner.type)) return castTo(types, inner, type);
  }
  return { kind: 'expr', opcode: 'cast', type, operands: [v] };
}

function isPointer(types: TypeResolver, t: Type): boolean {
  return types.resolve(t).kind === 'pointer';
}

/**
 * Maps an input module's constants into the linked module: globals through `globals` (LLVM's
 * ValueMap), everything built from them anew, once per object.
 */
export class ConstantMapper {
  private readonly memo = new Map<Constant, Constant>();

  constructor(
    private readonly globals: ReadonlyMap<Value, Constant>,
    private readonly types: TypeResolver,
    /** The input being linked in, for errors. */
    readonly moduleIndex: number,
  ) {}

  map(c0: Constant): Constant {
    const known = this.memo.get(c0);
    if (known !== undefined) return known;
    // As LLVM 1.9 held it after reading: all-zero aggregates as zeroinitializer, a cast to a
    // pointer to the first element as a getelementptr (files of older releases kept both).
    const c = canonicalConstant(c0, true);
    let out: Constant;
    switch (c.kind) {
      case 'global':
      case 'function': {
        const g = this.globals.get(c);
        // LLVM mapped nothing for a dllimport declaration of a defined function, then crashed.
        if (g === undefined) throw new LinkError(`Couldn't remap value: @${c.name ?? ''}`, this.moduleIndex);
        out = g;
        break;
      }
      case 'array':
      case 'struct':
      case 'packed':
        out = { kind: c.kind, type: c.type, elements: c.elements.map((e) => this.map(e)) };
        break;
      case 'expr': {
        const operands = c.operands.map((o) => this.map(o));
        out = c.opcode === 'cast' ? castTo(this.types, operands[0]!, c.type) : { kind: 'expr', type: c.type, opcode: c.opcode, operands };
        break;
      }
      default:
        // Simple constants: a copy, so that the final pass may give it its canonical type.
        out = { ...c };
        break;
    }
    this.memo.set(c0, out);
    return out;
  }
}

/**
 * Copies `src`'s body (as `view` shows it: what LLVM 1.9 had in memory after reading) into the
 * declaration `dest`: LLVM's LinkFunctionBody, which named `dest`'s arguments after `src`'s and
 * spliced the blocks over.
 */
export function cloneBody(view: ModuleView, src: Function, dest: Function, constants: ConstantMapper): void {
  const local = new Map<Value, Value>();
  src.args.forEach((a, i) => {
    const d = dest.args[i];
    if (d === undefined) return;
    const name = nameIn(view, a);
    if (name !== undefined) d.name = name;
    else delete d.name;
    local.set(a, d);
  });
  const blocks: BasicBlock[] = [];
  const pending: [Instruction, Instruction][] = [];
  for (const b of src.blocks) {
    const nb: BasicBlock = { kind: 'block', type: b.type, instructions: [] };
    const name = nameIn(view, b);
    if (name !== undefined) nb.name = name;
    local.set(b, nb);
    blocks.push(nb);
    for (const i of instructionsIn(view, b)) {
      const ni: Instruction = { ...i, operands: [] };
      const iname = nameIn(view, i);
      if (iname !== undefined) ni.name = iname;
      else delete ni.name;
      if (i.constantRefOperands !== undefined) delete ni.constantRefOperands;
      local.set(i, ni);
      nb.instructions.push(ni);
      pending.push([i, ni]);
    }
  }
  for (const [i, ni] of pending) {
    ni.operands = i.operands.map((o) => {
      const l = local.get(o);
      if (l !== undefined) return l;
      if (isConstant(o)) return constants.map(o);
      throw new LinkError(`Couldn't remap value: an operand of @${src.name ?? ''} is outside its function`, constants.moduleIndex);
    });
  }
  dest.blocks = blocks;
  dest.isDeclaration = false;
}

/** Fresh arguments for a function of `params`, unnamed (LLVM's `new Function`). */
export function freshArgs(params: readonly Type[]): Argument[] {
  return params.map((type, index) => ({ kind: 'argument', type, index }));
}

/**
 * LLVM's `replaceAllUsesWith` of a global in the linked module: every initializer and operand
 * that used `old` uses `replacement` (constants containing it are rebuilt; a cast of it folds).
 */
export function replaceAllUses(module: Module, types: TypeResolver, old: Value, replacement: Constant): void {
  const memo = new Map<Constant, Constant>();
  const mapC = (c: Constant): Constant => {
    if (c === old) return replacement;
    const known = memo.get(c);
    if (known !== undefined) return known;
    let out: Constant = c;
    if (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') {
      const elements = c.elements.map(mapC);
      if (elements.some((e, i) => e !== c.elements[i])) out = { kind: c.kind, type: c.type, elements };
    } else if (c.kind === 'expr') {
      const operands = c.operands.map(mapC);
      if (operands.some((e, i) => e !== c.operands[i])) {
        out = c.opcode === 'cast' ? castTo(types, operands[0]!, c.type) : { kind: 'expr', type: c.type, opcode: c.opcode, operands };
      }
    }
    memo.set(c, out);
    return out;
  };
  for (const g of module.globals) if (g.initializer !== undefined) g.initializer = mapC(g.initializer);
  for (const f of module.functions) {
    for (const b of f.blocks) {
      for (const i of b.instructions) {
        for (let k = 0; k < i.operands.length; k++) {
          const o = i.operands[k]!;
          if (isConstant(o)) i.operands[k] = mapC(o);
        }
      }
    }
  }
}
