/**
 * One object per distinct type of a module read back (ir.ts: `===` is type equality), found
 * without building a key string: a type made of other types is looked up by those types'
 * objects, which are interned already (maps by element and length; a trie by member or parameter
 * for structs and function types). Named structs are interned by name.
 */
import type { IrNamedStruct, IrType } from './ir.js';

type SimpleKind = 'void' | 'float' | 'double' | 'ptr' | 'label' | 'metadata' | 'x86_fp80' | 'fp128' | 'half';
export type FunctionType = IrType & { kind: 'function' };

const SIMPLE_KINDS: readonly SimpleKind[] = ['void', 'float', 'double', 'ptr', 'label', 'metadata', 'x86_fp80', 'fp128', 'half'];

/** A node of the trie of type lists: the types interned for the list that leads here. */
class ListNode<T> {
  private next: Map<IrType, ListNode<T>> | undefined;
  /** The type for this list with the flag clear (not packed / not varargs), and with it set. */
  plain: T | undefined;
  flagged: T | undefined;

  child(t: IrType): ListNode<T> {
    const next = (this.next ??= new Map());
    let n = next.get(t);
    if (!n) next.set(t, (n = new ListNode()));
    return n;
  }
}

export class TypeInterner {
  /** The simple types by their keyword (`ptr`, `void`, …) and the integer types read so far by theirs (`i32`). */
  private readonly byWord = new Map<string, IrType>();
  private readonly ints = new Map<number, IrType>();
  private readonly arrays = new Map<IrType, Map<number, IrType>>();
  private readonly vectors = new Map<IrType, Map<number, IrType>>();
  private readonly pointers = new Map<IrType, IrType>();
  private readonly structs = new ListNode<IrType>();
  private readonly functions = new Map<IrType, ListNode<FunctionType>>();
  private readonly named = new Map<string, IrNamedStruct>();
  readonly void: IrType;
  readonly ptr: IrType;
  readonly i1: IrType;

  /** `badWidth` refuses an integer type of a width no type has (`i0`); it does not return. */
  constructor(private readonly badWidth: (bits: number) => never) {
    for (const kind of SIMPLE_KINDS) this.byWord.set(kind, { kind });
    this.void = this.byWord.get('void')!;
    this.ptr = this.byWord.get('ptr')!;
    this.i1 = this.int(1);
  }

  /** The type a keyword names (`void`, `i32`), or undefined when it names none. */
  ofWord(word: string): IrType | undefined {
    const known = this.byWord.get(word);
    if (known) return known;
    if (word.length < 2 || word.charCodeAt(0) !== 105) return undefined;
    for (let i = 1; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (c < 48 || c > 57) return undefined;
    }
    const bits = Number(word.slice(1));
    if (bits < 1 || bits > 8388608) this.badWidth(bits);
    const t = this.int(bits);
    this.byWord.set(word, t);
    return t;
  }

  int(bits: number): IrType {
    let t = this.ints.get(bits);
    if (!t) this.ints.set(bits, (t = { kind: 'int', bits }));
    return t;
  }

  array(length: number, element: IrType): IrType {
    return sized(this.arrays, 'array', length, element);
  }

  vector(length: number, element: IrType): IrType {
    return sized(this.vectors, 'vector', length, element);
  }

  pointer(element: IrType): IrType {
    let t = this.pointers.get(element);
    if (!t) this.pointers.set(element, (t = { kind: 'pointer', element }));
    return t;
  }

  struct(elements: IrType[], packed: boolean): IrType {
    let node = this.structs;
    for (const e of elements) node = node.child(e);
    if (packed) return (node.flagged ??= { kind: 'struct', elements, packed });
    return (node.plain ??= { kind: 'struct', elements, packed });
  }

  /** The function type; `params` is kept by the type when it is new. */
  function(ret: IrType, params: IrType[], varArg: boolean): FunctionType {
    let node = this.functionsReturning(ret);
    for (const p of params) node = node.child(p);
    if (varArg) return (node.flagged ??= { kind: 'function', ret, params, varArg });
    return (node.plain ??= { kind: 'function', ret, params, varArg });
  }

  /** The function type of a call's operands from `first` on (no array made when it is known). */
  functionOfOperands(ret: IrType, operands: readonly { readonly type: IrType }[], first: number): FunctionType {
    let node = this.functionsReturning(ret);
    for (let i = first; i < operands.length; i++) node = node.child(operands[i]!.type);
    if (node.plain) return node.plain;
    const params: IrType[] = [];
    for (let i = first; i < operands.length; i++) params.push(operands[i]!.type);
    return (node.plain = { kind: 'function', ret, params, varArg: false });
  }

  /** The root of the trie of the function types returning `ret`. */
  private functionsReturning(ret: IrType): ListNode<FunctionType> {
    let node = this.functions.get(ret);
    if (!node) this.functions.set(ret, (node = new ListNode()));
    return node;
  }

  /** The identified struct with this name key, opaque until its body is read. */
  namedStruct(key: string): IrNamedStruct {
    let s = this.named.get(key);
    if (!s) this.named.set(key, (s = { kind: 'named', name: key, body: undefined }));
    return s;
  }
}

function sized(map: Map<IrType, Map<number, IrType>>, kind: 'array' | 'vector', length: number, element: IrType): IrType {
  let byLength = map.get(element);
  if (!byLength) map.set(element, (byLength = new Map()));
  let t = byLength.get(length);
  if (!t) byLength.set(length, (t = { kind, length, element }));
  return t;
}
