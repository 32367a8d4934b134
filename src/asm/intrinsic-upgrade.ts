/**
 * Old intrinsics in 1.8/1.9 text, renamed as LLVM 1.7–1.9's parser renamed them when it finished
 * a module (AutoUpgrade; the rule for which intrinsic becomes which is graph/intrinsic-upgrade.ts).
 *
 * For every function of the module, in order, whose name and type call for it: the new
 * declaration (found, or appended), each call rebuilt before the old one — arguments of another
 * type cast (a constant through the folder, a value by a new `cast` instruction named
 * `autoupgrade_cast`), the new call taking the old call's name where it returns a value, and a
 * cast back to the old return type (under the same name) when the old call's value was used —
 * then the old call and the old declaration deleted. The order of the calls is LLVM's use order:
 * a function's calls from last to first (the parser resolved them at the end, through
 * placeholders, each pushed to the front of the use list). Names are made unique by each
 * function's symbol table (function-symbols.ts), which the varargs rewrite then goes on using.
 * A use of an old intrinsic other than as a call's callee is refused (LLVM left it dangling).
 */
import type { ConstantFolder } from '../fold/index.js';
import { upgradedIntrinsic } from '../graph/intrinsic-upgrade.js';
import { primitiveTypes, type FunctionType, type Type } from '../graph/type.js';
import type { BasicBlock, Constant, Function, Instruction, Value } from '../graph/value.js';
import { BlockEdits } from './block-edits.js';
import type { FunctionSymbolTables } from './function-symbols.js';
import type { AfterParsingHost } from './obsolete-varargs.js';

const isConstant = (v: Value): v is Constant => v.kind !== 'argument' && v.kind !== 'block' && v.kind !== 'instruction';

export function upgradeIntrinsicCalls(host: AfterParsingHost, folder: ConstantFolder, tables: FunctionSymbolTables): void {
  const m = host.module;
  // LLVM walked the function list as it grew; what it appended needs no upgrade.
  for (const f of [...m.functions]) {
    if (f.name === undefined) continue;
    const upgrade =
      upgradedIntrinsic(f.name, f.functionType, { pointerTo: (t) => host.pointerTo(t), functionType: (r, p) => host.functionType(r, p, false) }) ??
      upgradedDebugIntrinsic(f, host);
    if (upgrade === undefined) continue;
    const nf = host.getOrInsertFunction(upgrade.name, upgrade.type);
    const permutation = upgrade.name.startsWith('llvm.dbg.') ? DEBUG_PERMUTATIONS.get(`${upgrade.name}/${f.functionType.params.length}`) : undefined;
    const calls = callsOf(host, f);
    // Made at the end, in one pass (block-edits.ts says why); whether a call's value is used is
    // decided before: rebuilding a call moves its uses to the new one, so the answer holds.
    const edits = new BlockEdits();
    const used = usedValues(host, new Set(calls.map((c) => c.call)));
    for (const { call, fn, block } of calls) rebuildCall(call, f, nf, block, tables.of(fn), folder, host, edits, used.has(call), permutation);
    edits.apply(m);
    if (nf !== f) host.eraseFunction(f);
  }
}

/** The calls of `f`, in LLVM's use order (file comment), with where they are. */
function callsOf(host: AfterParsingHost, f: Function): { call: Instruction; fn: Function; block: BasicBlock }[] {
  const out: { call: Instruction; fn: Function; block: BasicBlock }[] = [];
  for (const fn of host.module.functions) {
    const mine: { call: Instruction; fn: Function; block: BasicBlock }[] = [];
    for (const block of fn.blocks) {
      for (const inst of block.instructions) {
        const uses = inst.operands.filter((o) => o === f).length;
        if (uses === 0) continue;
        if (inst.opcode !== 'call' || inst.operands[0] !== f || uses !== 1) {
          host.fail(
            `the old intrinsic ${f.name ?? ''} is used other than as the function a call calls (in %${fn.name ?? ''}), which LLVM's renaming of old intrinsics could not handle`,
          );
        }
        mine.push({ call: inst, fn, block });
      }
    }
    out.push(...mine.reverse());
  }
  for (const g of host.module.globals) {
    if (g.initializer !== undefined && mentions(g.initializer, f))
      host.fail(`the old intrinsic ${f.name ?? ''} is used in the initializer of %${g.name ?? ''}, which LLVM's renaming of old intrinsics could not handle`);
  }
  return out;
}

function mentions(c: Constant, f: Function, seen = new Set<Constant>()): boolean {
  if (c === f) return true;
  if (seen.has(c)) return false;
  seen.add(c);
  if (c.kind === 'expr') return c.operands.some((o) => mentions(o, f, seen));
  if (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') return c.elements.some((o) => mentions(o, f, seen));
  return false;
}

/**
 * LLVM 1.9's AutoUpgrade of the debugger intrinsics of LLVM 1.3–1.6, which the parser applied
 * like the others (the reader's twin, graph/intrinsic-upgrade.ts, leaves them out: LLVM 1.9's
 * reader failed on the files that had them): each became `void` of `{}*` descriptors, keeping
 * its name, wherever its return type was not `void` or a parameter not the new one (a parameter
 * it lacks counts as another: LLVM read past the end of the list).
 */
function upgradedDebugIntrinsic(f: Function, host: AfterParsingHost): { name: string; type: FunctionType } | undefined {
  const shape = DEBUG_INTRINSICS[f.name ?? ''];
  if (shape === undefined || !Object.hasOwn(DEBUG_INTRINSICS, f.name!)) return undefined;
  const esp = host.pointerTo(host.structType([]));
  const ft = f.functionType;
  const params = shape.map((p) => (p === 'esp' ? esp : primitiveTypes.uint));
  const stale = ft.returnType.kind !== 'void' || params.some((p, i) => p === esp && ft.params[i] !== esp);
  return stale ? { name: f.name!, type: host.functionType(primitiveTypes.void, params, false) } : undefined;
}

/** Each debugger intrinsic's new parameters (`esp`: `{}*`, `uint`). */
const DEBUG_INTRINSICS: Readonly<Record<string, readonly ('esp' | 'uint')[]>> = {
  'llvm.dbg.stoppoint': ['uint', 'uint', 'esp'],
  'llvm.dbg.func.start': ['esp'],
  'llvm.dbg.region.start': ['esp'],
  'llvm.dbg.region.end': ['esp'],
  'llvm.dbg.declare': ['esp', 'esp'],
};

/**
 * LLVM's `getArgumentPermutation`, by new name and the old parameter count: which of the old
 * call's operands (1 = its first argument) each new argument is, 0 for `undef`.
 */
const DEBUG_PERMUTATIONS: ReadonlyMap<string, readonly number[]> = new Map([
  ['llvm.dbg.stoppoint/4', [2, 3, 4]],
  ['llvm.dbg.region.start/0', [0]],
  ['llvm.dbg.region.end/0', [0]],
  ['llvm.dbg.declare/0', [0, 0]],
]);

/** LLVM's `UpgradeIntrinsicCall`. */
function rebuildCall(
  ci: Instruction,
  f: Function,
  nf: Function,
  block: BasicBlock,
  names: ReturnType<FunctionSymbolTables['of']>,
  folder: ConstantFolder,
  host: AfterParsingHost,
  edits: BlockEdits,
  isUsed: boolean,
  permutation: readonly number[] | undefined,
): void {
  const insertBefore = (inst: Instruction, name: string | undefined): Instruction => {
    if (name !== undefined && name !== '') inst.name = names.insert(inst.type, name);
    edits.insertBefore(block, ci, inst);
    return inst;
  };
  const cast = (v: Value, to: Type): Value => {
    if (v.type === to) return v;
    if (isConstant(v)) return folder.cast(v, to);
    return insertBefore({ kind: 'instruction', opcode: 'cast', type: to, operands: [v] }, 'autoupgrade_cast');
  };
  const nft = nf.functionType;
  let args: Value[];
  if (permutation !== undefined) {
    args = nft.params.map((t, k) => {
      const p = permutation[k]!;
      if (p === 0 || p >= ci.operands.length)
        return p === 0
          ? ({ kind: 'undef', type: t } as Value)
          : host.fail(`a call of ${f.name ?? ''} with ${ci.operands.length - 1} arguments, which LLVM's upgrade could not handle`);
      return cast(edits.current(ci.operands[p]!), t);
    });
  } else {
    // LLVM asserted here ("Upgraded function needs permutation") and its llvm-as died.
    if (nft.params.length !== ci.operands.length - 1)
      host.fail(
        `a call of ${f.name ?? ''} with ${ci.operands.length - 1} arguments, which LLVM's upgrade to ${nf.name ?? ''} (${nft.params.length} parameters) could not handle: LLVM 1.9's llvm-as failed an assertion on it`,
      );
    args = nft.params.map((t, k) => cast(edits.current(ci.operands[k + 1]!), t));
  }
  const newIsVoid = nft.returnType.kind === 'void';
  const call: Instruction = {
    kind: 'instruction',
    opcode: 'call',
    type: nft.returnType,
    operands: [nf, ...args],
    callingConv: ci.callingConv ?? 0,
    isTailCall: ci.isTailCall === true,
  };
  insertBefore(call, newIsVoid ? undefined : ci.name);
  if (isUsed) {
    let result: Value;
    if (newIsVoid) result = { kind: 'undef', type: ci.type };
    else if (f.functionType.returnType !== nft.returnType)
      result = insertBefore({ kind: 'instruction', opcode: 'cast', type: f.functionType.returnType, operands: [call] }, call.name);
    else result = call;
    edits.replaceAllUses(ci, result);
  }
  edits.remove(block, ci);
  if (ci.name !== undefined) names.remove(ci.type, ci.name);
}

/** Which of `candidates` an instruction of the module uses, in one walk of the bodies. */
function usedValues(host: AfterParsingHost, candidates: ReadonlySet<Value>): Set<Value> {
  const used = new Set<Value>();
  for (const fn of host.module.functions) {
    for (const b of fn.blocks) for (const i of b.instructions) for (const o of i.operands) if (candidates.has(o)) used.add(o);
  }
  return used;
}
