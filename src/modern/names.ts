/**
 * Names for modern LLVM IR. LLVM 1.x kept one symbol table per type plane, so two values of
 * different types could share a name (`%x` of int and `%x` of float, or a block and a value);
 * modern IR has one namespace per function (locals) and one per module (globals). Clashes are
 * resolved by keeping the first holder's name and suffixing later ones (`x.1`, `x.2`, …) with a
 * suffix no value of the scope already uses, so every original name stays recognisable.
 */

import { UpgradeError } from './upgrade-error.js';

/** Characters modern LLVM accepts in an unquoted name: `[-a-zA-Z$._][-a-zA-Z$._0-9]*`. */
const BARE_NAME = /^[-a-zA-Z$._][-a-zA-Z$._0-9]*$/;

/** Escapes a string for a double-quoted LLVM string (`\XX` for `"`, `\`, and non-printables). */
export function escapeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) out += s[i];
    else out += '\\' + (c & 0xff).toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/**
 * `name` with its sigil, quoted when modern syntax needs it (digits first, odd characters). A
 * name holding a NUL byte (only a damaged file's) has no spelling: LLVM's parser refuses one
 * ("Null bytes are not allowed in names").
 */
export function formatName(sigil: '%' | '@', name: string): string {
  if (BARE_NAME.test(name)) return sigil + name;
  if (name.includes('\0')) throw new UpgradeError(`the name ${sigil}"${escapeString(name)}" holds a NUL byte, which no LLVM name may hold`);
  return `${sigil}"${escapeString(name)}"`;
}

/**
 * Hands out unique names within one scope. `claim` keeps a requested name when it is free and
 * otherwise derives `name.N`; `reserve` marks names that must never be derived (every original
 * name of the scope, so a suffixed name cannot steal a later value's own name).
 */
export class NameScope {
  private readonly taken = new Set<string>();
  private readonly reserved = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();

  reserve(name: string): void {
    this.reserved.add(name);
  }

  /** The name itself if free (or reserved for this very claim), else a fresh `name.N`. */
  claim(name: string): string {
    if (!this.taken.has(name)) {
      this.taken.add(name);
      return name;
    }
    return this.fresh(name);
  }

  /** `name` itself when nobody holds or will hold it, else a fresh `name.N`. */
  derive(name: string): string {
    if (this.taken.has(name) || this.reserved.has(name)) return this.fresh(name);
    this.taken.add(name);
    return name;
  }

  /** The base `fresh` was last asked for, and its next suffix (most calls ask for the same base). */
  private lastBase: string | undefined;
  private lastNext = 1;

  /** A name derived from `base` that nobody holds or will hold. */
  fresh(base: string): string {
    let n: number;
    if (base === this.lastBase) n = this.lastNext;
    else {
      if (this.lastBase !== undefined) this.nextSuffix.set(this.lastBase, this.lastNext);
      n = this.nextSuffix.get(base) ?? 1;
      this.lastBase = base;
    }
    let candidate = `${base}.${n}`;
    while (this.taken.has(candidate) || this.reserved.has(candidate)) candidate = `${base}.${++n}`;
    this.lastNext = n + 1;
    this.taken.add(candidate);
    return candidate;
  }
}
