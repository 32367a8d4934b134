/**
 * Type spelling as LLVM 1.x's assembly writer did it. Named types print by name (except pointers
 * to primitive types, which LLVM found too common to abbreviate); other derived types print
 * structurally with named parts by name and cycles as up-references (`\2*`). LLVM cached the text
 * of each type printed at top level and reused it inside later types, so the text of a type can
 * depend on what was printed before it: this class keeps that cache, in the same order.
 */
import type { Module } from '../graph/module.js';
import { isPrimitive, type Type } from '../graph/type.js';
import { PrintError } from './print-error.js';
import { llvmName } from './text.js';
import { byteOrder } from '../held/byte-order.js';

/**
 * The longest text of one type, in characters. Far above any type LLVM 1.x printed (a few
 * kilobytes for the largest structs), yet it stops a damaged type table whose structs each hold
 * the previous one twice: their text doubles with every level, so forty levels would need a
 * terabyte.
 *
 * @category Print
 */
export const MAX_TYPE_TEXT = 1 << 20;

export class TypeNamer {
  /** Text of named types, and cached text of unnamed ones already printed at top level. */
  private readonly names = new Map<Type, string>();

  constructor(module: Module) {
    for (const [name, t] of sortedTypeNames(module)) {
      if (t.kind === 'pointer' && isPrimitive(t.element)) continue;
      if (!this.names.has(t)) this.names.set(t, llvmName(name));
    }
  }

  /** A type as an operand or declaration shows it (LLVM's printTypeInt). */
  name(t: Type): string {
    if (isPrimitive(t)) return t.kind;
    const known = this.names.get(t);
    if (known !== undefined) return known;
    const out: string[] = [];
    this.steps = 0;
    this.calc(t, [], out);
    const text = out.join('');
    this.names.set(t, text);
    return text;
  }

  /** At least one level of structure, even for a named type (the `%T = type ...` lines). */
  body(t: Type): string {
    switch (t.kind) {
      case 'function':
        return (
          this.name(t.returnType) +
          ' (' +
          this.params(
            t.params.map((p) => this.name(p)),
            t.isVarArg,
          ) +
          ')'
        );
      case 'struct':
        return '{ ' + t.elements.map((e) => this.name(e)).join(', ') + ' }';
      case 'pointer':
        return this.name(t.element) + '*';
      case 'array':
        return '[' + t.length + ' x ' + this.name(t.element) + ']';
      case 'packed':
        return '<' + t.length + ' x ' + this.name(t.element) + '>';
      case 'opaque':
        return 'opaque';
      default:
        return this.name(t);
    }
  }

  private params(parts: string[], isVarArg: boolean): string {
    if (isVarArg) parts.push('...');
    return parts.join(', ');
  }

  /** Parts of the type being spelled so far; each adds at least one character. */
  private steps = 0;

  private calc(t: Type, stack: Type[], out: string[]): void {
    if (++this.steps > MAX_TYPE_TEXT) throw new PrintError(`a type's text would exceed ${MAX_TYPE_TEXT} characters`);
    if (isPrimitive(t)) {
      out.push(t.kind);
      return;
    }
    const known = this.names.get(t);
    if (known !== undefined) {
      out.push(known);
      return;
    }
    if (t.kind === 'opaque') {
      out.push('opaque');
      return;
    }
    const at = stack.indexOf(t);
    if (at >= 0) {
      out.push('\\' + (stack.length - at));
      return;
    }
    stack.push(t);
    switch (t.kind) {
      case 'function':
        this.calc(t.returnType, stack, out);
        out.push(' (');
        t.params.forEach((p, i) => {
          if (i > 0) out.push(', ');
          this.calc(p, stack, out);
        });
        if (t.isVarArg) out.push(t.params.length > 0 ? ', ...' : '...');
        out.push(')');
        break;
      case 'struct':
        out.push('{ ');
        t.elements.forEach((e, i) => {
          if (i > 0) out.push(', ');
          this.calc(e, stack, out);
        });
        out.push(' }');
        break;
      case 'pointer':
        this.calc(t.element, stack, out);
        out.push('*');
        break;
      case 'array':
      case 'packed':
        out.push((t.kind === 'array' ? '[' : '<') + t.length + ' x ');
        this.calc(t.element, stack, out);
        out.push(t.kind === 'array' ? ']' : '>');
        break;
    }
    stack.pop();
  }
}

/** The module's named types in LLVM's symbol-table order (by name, byte-wise). */
export function sortedTypeNames(module: Module): [string, Type][] {
  return [...module.typeNames].sort((a, b) => byteOrder(a[0], b[0]));
}
