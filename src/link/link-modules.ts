/**
 * `linkModules`: LLVM 1.9's `llvm-link` (lib/Linker/LinkModules.cpp) over our module graph.
 *
 * The first module is the destination; each further module is linked into it in turn, as
 * llvm-link did, by LLVM's steps in LLVM's order: named types (opaque types refined, equal types
 * one), global variables (linkage rules, declarations resolved to definitions), function
 * prototypes, initializers, function bodies, then appending arrays concatenated. What LLVM did by
 * accident is part of the result too (a global taken from a later module loses its section, a
 * function its alignment and section; a variable whose type differs is replaced by one of the new
 * type, its old uses going through a cast). The inputs are not changed.
 */
import { isNullValue } from '../fold/scalar.js';
import { isDeclaration } from '../graph/declaration.js';
import { version7Feature } from '../graph/describe.js';
import type { Module } from '../graph/module.js';
import type { ArrayType, FunctionType, PointerType, Type } from '../graph/type.js';
import { emptyModule, nullValue } from '../graph/describe.js';
import type { Constant, Function, GlobalValue, GlobalVariable, Linkage, Value } from '../graph/value.js';
import { TypeNamer } from '../print/type-names.js';
import { byteOrder } from '../held/byte-order.js';
import { upgradeView19 } from '../held/upgrade19.js';
import { nameIn, type ModuleView } from '../held/view.js';
import { isEngineExhaustion, exhaustionWords } from '../errors/exhaustion.js';
import { castTo, cloneBody, ConstantMapper, freshArgs, replaceAllUses } from './clone.js';
import { LinkError } from './link-error.js';
import { ModuleSymbols } from './symbols.js';
import { TypeResolver } from './type-resolver.js';
import { finishTypes } from './finish.js';
import { sameConstant } from '../graph/same-constant.js';

/** @category Link */
export interface LinkOptions {
  /**
   * Each module's identifier, as llvm-link had it (the file name it was read from): after a
   * module is linked in, the library of that name (`dir/libfoo.bc` → `libfoo`) leaves the
   * destination's dependent libraries. Absent: no library is removed.
   */
  identifiers?: readonly (string | undefined)[];
  /** LLVM's warnings (different endianness, pointer size or target triple), as it printed them. */
  onWarning?: (message: string) => void;
}

/**
 * Links `modules` (at least one) into a new module, as LLVM 1.9's `llvm-link A B …` did. Throws a
 * `LinkError` with LLVM's message where LLVM refused.
 *
 * @category Link
 */
export function linkModules(modules: readonly Module[], options: LinkOptions = {}): Module {
  if (modules.length === 0) throw new LinkError('no modules to link', 0);
  modules.forEach((m, i) => {
    // llvm-link 1.9's rules are for LLVM 1.x modules; version 7's signless types are another world.
    const feature = m.source?.bytecodeVersion === 7 ? 'version-7 bytecode' : version7Feature(m);
    if (feature !== undefined)
      throw new LinkError(`input ${i + 1} uses ${feature} (LLVM 2.0 development); link takes LLVM 1.x modules (bytecode versions 0-6)`, i);
  });
  try {
    const linker = new Linker(modules[0]!);
    for (let i = 1; i < modules.length; i++) linker.link(modules[i]!, i, options);
    return linker.finish();
  } catch (e) {
    if (isEngineExhaustion(e)) throw new LinkError(`the modules cannot be linked: ${exhaustionWords(e)}`, 0);
    throw e;
  }
}

/** What LLVM's GetLinkageResult decided. */
interface LinkageResult {
  linkage: Linkage;
  fromSrc: boolean;
}

class Linker {
  private readonly types = new TypeResolver();
  private readonly symbols: ModuleSymbols;
  private readonly dest: Module;
  /** The input being linked in (for errors). */
  private linking = 0;

  constructor(first: Module) {
    this.symbols = new ModuleSymbols(this.types);
    const view = upgradeView19(first);
    this.dest = {
      kind: 'module',
      endianness: first.endianness,
      pointerSize: first.pointerSize,
      targetTriple: first.targetTriple,
      inlineAsm: first.inlineAsm,
      dependentLibraries: [...first.dependentLibraries],
      types: [],
      typeNames: new Map(first.typeNames),
      globals: [],
      functions: [],
    };
    // The first module is the destination itself: copied whole, names, sections and all.
    const map = new Map<Value, Constant>();
    for (const g of view.globals) {
      const ng: GlobalVariable = {
        kind: 'global',
        type: g.type,
        valueType: g.valueType,
        linkage: g.linkage,
        isConstant: g.isConstant,
        alignment: g.alignment,
      };
      const name = nameIn(view, g);
      if (name !== undefined) ng.name = name;
      if (g.section !== undefined) ng.section = g.section;
      this.dest.globals.push(ng);
      this.symbols.enter(ng);
      map.set(g, ng);
    }
    for (const f of view.functions) {
      const nf = this.newFunction(f.functionType, f.type, f.linkage, f.callingConv);
      nf.alignment = f.alignment;
      if (f.section !== undefined) nf.section = f.section;
      const name = nameIn(view, f);
      if (name !== undefined) nf.name = name;
      this.dest.functions.push(nf);
      this.symbols.enter(nf);
      map.set(f, nf);
    }
    const constants = new ConstantMapper(map, this.types, 0);
    view.globals.forEach((g, i) => {
      if (g.initializer !== undefined) this.dest.globals[i]!.initializer = constants.map(g.initializer);
    });
    view.functions.forEach((f, i) => {
      if (!f.isDeclaration) cloneBody(view, f, this.dest.functions[i]!, constants);
    });
  }

  private newFunction(functionType: FunctionType, type: PointerType, linkage: Linkage, callingConv: number): Function {
    return {
      kind: 'function',
      type,
      functionType,
      linkage,
      callingConv,
      alignment: 0,
      isDeclaration: true,
      args: freshArgs(functionType.params),
      blocks: [],
    };
  }

  /** Linker::LinkModules(Dest, Src). */
  link(src: Module, index: number, options: LinkOptions): void {
    this.linking = index;
    const dest = this.dest;
    const warn = options.onWarning ?? (() => {});
    if (dest.endianness === 'any') dest.endianness = src.endianness;
    if (dest.pointerSize === 'any') dest.pointerSize = src.pointerSize;
    if (dest.targetTriple === '') dest.targetTriple = src.targetTriple;
    if (src.endianness !== 'any' && dest.endianness !== src.endianness) warn('WARNING: Linking two modules of different endianness!');
    if (src.pointerSize !== 'any' && dest.pointerSize !== src.pointerSize) warn('WARNING: Linking two modules of different pointer size!');
    if (src.targetTriple !== '' && dest.targetTriple !== src.targetTriple) warn('WARNING: Linking two modules of different target triples!');
    if (src.inlineAsm !== '') dest.inlineAsm = dest.inlineAsm === '' ? src.inlineAsm : `${dest.inlineAsm}\n${src.inlineAsm}`;
    for (const lib of src.dependentLibraries) if (!dest.dependentLibraries.includes(lib)) dest.dependentLibraries.push(lib);

    const view = upgradeView19(src);
    this.linkTypes(src);

    const valueMap = new Map<Value, Constant>();
    const appending: { name: string; gv: GlobalVariable }[] = [];
    const byName = new Map<string, GlobalValue>();
    for (const g of dest.globals) {
      if (g.linkage === 'appending') appending.push({ name: g.name ?? '', gv: g });
      if (g.linkage !== 'internal' && g.name) byName.set(g.name, g);
    }
    for (const f of dest.functions) if (f.linkage !== 'internal' && f.name) byName.set(f.name, f);

    const cleared = new Set<GlobalVariable>();
    this.linkGlobals(view, index, valueMap, appending, byName, cleared);
    this.linkFunctionProtos(view, src, index, valueMap, byName);
    const constants = new ConstantMapper(valueMap, this.types, index);
    this.linkGlobalInits(view, src, index, valueMap, constants, cleared);
    for (const sf of view.functions) {
      if (sf.isDeclaration) continue;
      const df = valueMap.get(sf);
      if (df === undefined || df.kind !== 'function') throw new LinkError(`function '${nameIn(view, sf) ?? ''}' was not linked`, index);
      if (df.isDeclaration) cloneBody(view, sf, df, constants);
    }
    this.linkAppendingVars(appending, index);

    const id = options.identifiers?.[index];
    if (id !== undefined && id !== '') {
      const base = basename(id);
      const at = dest.dependentLibraries.indexOf(base);
      if (at >= 0) dest.dependentLibraries.splice(at, 1);
    }
  }

  // ---- types ---------------------------------------------------------------------------------

  /** LLVM's ResolveTypes: true when the two cannot be linked (yet). */
  private resolveTypes(destTy: Type | undefined, srcTy: Type, name: string): boolean {
    const t = this.types;
    if (destTy !== undefined && t.same(destTy, srcTy)) return false; // one type already
    if (destTy !== undefined && !t.isOpaque(destTy)) {
      if (t.isOpaque(srcTy)) t.refine(srcTy, destTy);
      else return !t.same(destTy, srcTy);
    } else if (destTy !== undefined) {
      t.refine(destTy, srcTy);
    } else if (name !== '') {
      this.dest.typeNames.set(name, srcTy);
    }
    return false;
  }

  /** LLVM's RecursiveResolveTypes: true when the two cannot be made one. */
  private recursiveResolve(destTy: Type, srcTy: Type, name: string, pointers: Map<Type, Type> = new Map()): boolean {
    const t = this.types;
    const d = t.resolve(destTy);
    const s = t.resolve(srcTy);
    if (t.same(d, s)) return false;
    if (d.kind === 'opaque' || s.kind === 'opaque') return this.resolveTypes(d, s, name);
    if (d.kind !== s.kind) return true;
    switch (d.kind) {
      case 'function': {
        const sf = s as FunctionType;
        if (d.isVarArg !== sf.isVarArg || d.params.length !== sf.params.length) return true;
        const dc = [d.returnType, ...d.params];
        const sc = [sf.returnType, ...sf.params];
        for (let i = 0; i < dc.length; i++) if (this.recursiveResolve(dc[i]!, sc[i]!, '', pointers)) return true;
        return false;
      }
      case 'struct': {
        const ss = s as typeof d;
        if (d.elements.length !== ss.elements.length) return true;
        for (let i = 0; i < d.elements.length; i++) if (this.recursiveResolve(d.elements[i]!, ss.elements[i]!, '', pointers)) return true;
        return false;
      }
      case 'array': {
        const sa = s as ArrayType;
        if (d.length !== sa.length) return true;
        return this.recursiveResolve(d.element, sa.element, '', pointers);
      }
      case 'pointer': {
        // A pointer pair already being resolved: a recursive type, cut off here (LLVM kept the
        // pairs in a vector; the destination object identifies the pair).
        const pending = pointers.get(d);
        if (pending !== undefined) return !t.same(pending, s);
        pointers.set(d, s);
        const result = this.recursiveResolve(d.element, (s as PointerType).element, '', pointers);
        pointers.delete(d);
        return result;
      }
      default:
        // LLVM asserted here (packed types were never resolved recursively) and aborted.
        throw new LinkError('Unexpected type!', this.linking);
    }
  }

  /** LLVM's LinkTypes: the source's named types, in name order. */
  private linkTypes(src: Module): void {
    const names = [...src.typeNames.keys()].sort(byteOrder);
    const destNames = this.dest.typeNames;
    const delayed: string[] = [];
    for (const name of names) if (this.resolveTypes(destNames.get(name), src.typeNames.get(name)!, name)) delayed.push(name);
    while (delayed.length !== 0) {
      const oldSize = delayed.length;
      for (let i = 0; i < delayed.length; i++) {
        const name = delayed[i]!;
        if (!this.resolveTypes(destNames.get(name), src.typeNames.get(name)!, name)) delayed.splice(i--, 1);
      }
      if (delayed.length === oldSize) {
        for (let i = 0; i < delayed.length; i++) {
          const name = delayed[i]!;
          if (!this.recursiveResolve(destNames.get(name)!, src.typeNames.get(name)!, name)) {
            delayed.splice(i, 1);
            break;
          }
        }
        if (delayed.length === oldSize) delayed.pop();
      }
    }
  }

  // ---- globals -------------------------------------------------------------------------------

  private linkageResult(d: GlobalValue | undefined, s: GlobalValue, sName: string, index: number): LinkageResult | undefined {
    if (d === undefined) return { fromSrc: true, linkage: s.linkage };
    if (isDeclaration(s)) {
      if (s.linkage === 'dllimport') return isDeclaration(d) ? { fromSrc: true, linkage: s.linkage } : undefined;
      return { fromSrc: false, linkage: d.linkage };
    }
    if (isDeclaration(d) && d.linkage !== 'dllimport') return { fromSrc: true, linkage: s.linkage };
    if (s.linkage === 'appending' || d.linkage === 'appending') {
      if (s.linkage !== d.linkage)
        throw new LinkError(`Linking globals named '${sName}': can only link appending global with another appending global!`, index);
      return { fromSrc: true, linkage: s.linkage };
    }
    if (s.linkage === 'weak' || s.linkage === 'linkonce') {
      if (d.linkage === 'linkonce' && s.linkage === 'weak') return { fromSrc: true, linkage: s.linkage };
      return { fromSrc: false, linkage: d.linkage };
    }
    if (d.linkage === 'weak' || d.linkage === 'linkonce') return { fromSrc: true, linkage: 'external' };
    throw new LinkError(`Linking globals named '${sName}': symbol multiply defined!`, index);
  }

  private linkGlobals(
    view: ModuleView,
    index: number,
    valueMap: Map<Value, Constant>,
    appending: { name: string; gv: GlobalVariable }[],
    byName: ReadonlyMap<string, GlobalValue>,
    cleared: Set<GlobalVariable>,
  ): void {
    const dest = this.dest;
    for (const sgv of view.globals) {
      const sName = nameIn(view, sgv) ?? '';
      let dgv: GlobalVariable | undefined;
      if (sName !== '' && sgv.linkage !== 'internal') {
        const found = this.symbols.lookup(sgv.type, sName);
        dgv = found !== undefined && found.kind === 'global' && found.linkage !== 'internal' ? found : undefined;
        if (dgv === undefined) {
          const e = byName.get(sName);
          if (e !== undefined && e.kind === 'global') {
            dgv = e;
            this.recursiveResolve(sgv.type, dgv.type, '');
          }
        }
      }
      if (dgv !== undefined && dgv.linkage === 'internal') dgv = undefined;
      // LLVM's dllimport case that decides nothing leaves LinkFromSrc and the linkage unset.
      const result = this.linkageResult(dgv, sgv, sName, index) ?? { fromSrc: false, linkage: dgv!.linkage };

      if (dgv === undefined) {
        const ng: GlobalVariable = {
          kind: 'global',
          type: sgv.type,
          valueType: sgv.valueType,
          linkage: sgv.linkage,
          isConstant: sgv.isConstant,
          alignment: sgv.alignment,
        };
        dest.globals.push(ng);
        this.symbols.setName(ng, sName);
        if (ng.name !== undefined && ng.name !== sName && ng.linkage !== 'internal') this.symbols.forceName(ng, sName);
        valueMap.set(sgv, ng);
        if (sgv.linkage === 'appending') appending.push({ name: sName, gv: ng });
      } else if (dgv.linkage === 'appending') {
        const ng: GlobalVariable = {
          kind: 'global',
          type: sgv.type,
          valueType: sgv.valueType,
          linkage: sgv.linkage,
          isConstant: sgv.isConstant,
          alignment: Math.max(dgv.alignment, sgv.alignment),
        };
        dest.globals.push(ng);
        valueMap.set(sgv, ng);
        appending.push({ name: sName, gv: ng });
      } else {
        dgv.alignment = Math.max(dgv.alignment, sgv.alignment);
        if (!this.types.same(sgv.type, dgv.type) && result.fromSrc) {
          // A variable of the source's type replaces the destination's, whose uses get a cast.
          const ng: GlobalVariable = {
            kind: 'global',
            type: sgv.type,
            valueType: sgv.valueType,
            linkage: dgv.linkage,
            isConstant: dgv.isConstant,
            alignment: dgv.alignment,
          };
          dest.globals.splice(dest.globals.indexOf(dgv), 1, ng);
          this.symbols.remove(dgv);
          replaceAllUses(dest, this.types, dgv, castTo(this.types, ng, dgv.type));
          this.symbols.setName(ng, sName);
          dgv = ng;
        }
        dgv.linkage = result.linkage;
        if (result.fromSrc) {
          dgv.isConstant = sgv.isConstant;
          delete dgv.initializer;
        } else {
          if (sgv.isConstant && !dgv.isConstant && dgv.initializer === undefined) dgv.isConstant = true;
          cleared.add(sgv);
        }
        valueMap.set(sgv, castTo(this.types, dgv, sgv.type));
      }
    }
  }

  private linkGlobalInits(
    view: ModuleView,
    src: Module,
    index: number,
    valueMap: ReadonlyMap<Value, Constant>,
    constants: ConstantMapper,
    cleared: ReadonlySet<GlobalVariable>,
  ): void {
    for (const sgv of view.globals) {
      if (sgv.initializer === undefined || cleared.has(sgv)) continue;
      const init = constants.map(sgv.initializer);
      const dgv = valueMap.get(sgv);
      if (dgv === undefined || dgv.kind !== 'global') throw new LinkError(`global '${nameIn(view, sgv) ?? ''}' was not linked`, index);
      if (dgv.initializer === undefined) {
        dgv.initializer = init;
      } else if (sgv.linkage === 'external' && !sameConstant(dgv.initializer, init, (x, y) => this.types.same(x, y))) {
        const typeText = this.typeText(src, sgv.type);
        throw new LinkError(`Global Variable Collision on '${typeText}':%${nameIn(view, sgv) ?? ''} - Global variables have different initializers`, index);
      }
    }
  }

  // ---- functions -----------------------------------------------------------------------------

  private linkFunctionProtos(view: ModuleView, src: Module, index: number, valueMap: Map<Value, Constant>, byName: ReadonlyMap<string, GlobalValue>): void {
    for (const sf of view.functions) {
      const sName = nameIn(view, sf) ?? '';
      let df: Function | undefined;
      if (sName !== '' && sf.linkage !== 'internal') {
        const found = this.symbols.lookup(sf.type, sName);
        df = found !== undefined && found.kind === 'function' ? found : undefined;
        if (df === undefined) {
          const e = byName.get(sName);
          if (e !== undefined && e.kind === 'function') df = this.recursiveResolve(sf.type, e.type, '') ? undefined : e;
        }
      }
      if (df === undefined || sf.linkage === 'internal' || df.linkage === 'internal') {
        const nf = this.newFunction(sf.functionType, sf.type, sf.linkage, sf.callingConv);
        this.dest.functions.push(nf);
        this.symbols.setName(nf, sName);
        if (nf.name !== undefined && nf.name !== sName && nf.linkage !== 'internal') this.symbols.forceName(nf, sName);
        valueMap.set(sf, nf);
      } else if (sf.isDeclaration) {
        if (sf.linkage === 'dllimport') {
          if (df.isDeclaration) {
            valueMap.set(sf, df);
            df.linkage = sf.linkage;
          }
        } else {
          valueMap.set(sf, df);
        }
      } else if (df.isDeclaration && df.linkage !== 'dllimport') {
        valueMap.set(sf, df);
        df.linkage = sf.linkage;
      } else if (sf.linkage === 'weak' || sf.linkage === 'linkonce') {
        valueMap.set(sf, df);
        if (df.linkage === 'linkonce' && sf.linkage === 'weak') df.linkage = sf.linkage;
      } else if (df.linkage === 'weak' || df.linkage === 'linkonce') {
        valueMap.set(sf, df);
        df.linkage = sf.linkage; // (LLVM: unless linkonce, which the case above took)
      } else if (sf.linkage !== df.linkage) {
        throw new LinkError(`Functions named '${sName}' have different linkage specifiers!`, index);
      } else {
        const typeText = this.typeText(src, sf.functionType);
        throw new LinkError(`Function '${typeText}':"${sName}" - Function is already defined!`, index);
      }
    }
  }

  /**
   * LLVM's ToStr (WriteTypeSymbolic, which began with a space): `t` as the source module names
   * types, both as they are now (an opaque type refined while linking prints as what it became,
   * and a name that now stands for a primitive type is not used).
   */
  private typeText(src: Module, t: Type): string {
    this.types.canonicalize([t, ...src.typeNames.values()]);
    const names = new Map<string, Type>();
    for (const [name, named] of src.typeNames) names.set(name, this.types.canonical(named));
    return ' ' + new TypeNamer({ ...emptyModule(), typeNames: names }).name(this.types.canonical(t));
  }

  // ---- appending arrays ----------------------------------------------------------------------

  /** LLVM's LinkAppendingVars: same-named appending arrays become one, in name order. */
  private linkAppendingVars(vars: { name: string; gv: GlobalVariable }[], index: number): void {
    const dest = this.dest;
    const t = this.types;
    // std::multimap order: by name, equal names in insertion order (Array.prototype.sort is stable).
    const list = [...vars].sort((a, b) => byteOrder(a.name, b.name));
    while (list.length > 1) {
      const first = list[0]!;
      const second = list[1]!;
      if (first.name === second.name) {
        const g1 = first.gv;
        const g2 = second.gv;
        const t1 = t.resolve(g1.valueType) as ArrayType;
        const t2 = t.resolve(g2.valueType) as ArrayType;
        if (t1.kind !== 'array' || t2.kind !== 'array') throw new LinkError('Appending variables must be arrays!', index);
        if (!t.same(t1.element, t2.element)) throw new LinkError('Appending variables with different element types need to be linked!', index);
        if (g1.isConstant !== g2.isConstant) throw new LinkError("Appending variables linked with different const'ness!", index);
        const newType: ArrayType = { kind: 'array', element: t1.element, length: t1.length + t2.length };
        this.symbols.setName(g1, '');
        const ng: GlobalVariable = {
          kind: 'global',
          type: { kind: 'pointer', element: newType },
          valueType: newType,
          linkage: g1.linkage,
          isConstant: g1.isConstant,
          alignment: 0,
        };
        dest.globals.push(ng);
        this.symbols.setName(ng, first.name);
        const elements = [...this.arrayElements(g1, t1, index), ...this.arrayElements(g2, t2, index)];
        ng.initializer = elements.every(isNullValue) ? { kind: 'zeroinitializer', type: newType } : { kind: 'array', type: newType, elements };
        replaceAllUses(dest, t, g1, castTo(t, ng, g1.type));
        replaceAllUses(dest, t, g2, castTo(t, ng, g2.type));
        for (const g of [g1, g2]) {
          dest.globals.splice(dest.globals.indexOf(g), 1);
          this.symbols.remove(g);
        }
        second.gv = ng;
      }
      list.shift();
    }
  }

  private arrayElements(g: GlobalVariable, type: ArrayType, index: number): Constant[] {
    const init = g.initializer;
    if (init === undefined) throw new LinkError("GV doesn't have initializer!", index); // LLVM's assertion (it aborted)
    if (init.kind === 'array') return init.elements;
    const zero = nullValue(this.types.resolve(type.element));
    return Array.from({ length: type.length }, () => zero);
  }

  finish(): Module {
    finishTypes(this.dest, this.types);
    return this.dest;
  }
}

/** sys::Path::getBasename: the file name without its directory and last suffix. */
function basename(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}
