/**
 * `upgrade FILE.ll`: a corpus listing (`*.dis.ll`, in its folder's dialect) assembled and upgraded
 * to LLVM 16 IR gives the same IR as upgrading the `.bc` it was printed from. The `.bc` side is
 * checked against LLVM 16 itself (`llvm-as-16`, `opt-16 -passes=verify`: test/modern/corpus.test.ts),
 * so the same text is accepted by it too. The exceptions are files whose listing lost something the
 * bytecode had, each named below with the reason. Skips, saying so, without the corpus.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAssembly, type Dialect } from '../../src/asm/index.js';
import { printModern } from '../../src/modern/index.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';

const NATIVE_DIALECT: Record<string, Dialect> = { v0: '1.1', v1: '1.2', v3: '1.3', v5: '1.8', v6: '1.9' };

/**
 * LLVM 1.8 and 1.9's `llvm-dis` printed a local that shadows a global with a `_N` suffix
 * (`%Var_1`): the listing's local has that name, the bytecode's the original. Same IR otherwise.
 */
const RENAMED_LOCAL = 'the listing renames a local that shadows a global (`%Var` printed as `%Var_1`), so the upgraded local keeps that name';
/**
 * `llvm-dis` printed an unnamed opaque type as `opaque` at each use, and each `opaque` in text is
 * a new type: the listing has two opaque types where the bytecode had one.
 */
const SPLIT_OPAQUE = 'the listing prints one unnamed opaque type as `opaque` at two places, which text reads as two types';

const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['v5/Assembler__2002-03-08-NameCollision2.bc', RENAMED_LOCAL],
  ['v5/Assembler__2004-12-05-LocalGlobalSymtabConflict.bc', RENAMED_LOCAL],
  ['v5/Feature__alignment.bc', RENAMED_LOCAL],
  ['v5/CodeGen__Alpha__2005-07-12-TwoMallocCalls.bc', SPLIT_OPAQUE],
  ['v6/Assembler__2002-03-08-NameCollision2.bc', RENAMED_LOCAL],
  ['v6/Assembler__2004-12-05-LocalGlobalSymtabConflict.bc', RENAMED_LOCAL],
  ['v6/Feature__alignment.bc', RENAMED_LOCAL],
  ['v6/CodeGen__Alpha__2005-07-12-TwoMallocCalls.bc', SPLIT_OPAQUE],
  ['v6/CodeGen__X86__2006-08-07-CycleInDAG.bc', SPLIT_OPAQUE],
]);

/** The first line says where the module came from (a bytecode version, or text): not compared. */
const withoutHeader = (ir: string): string => ir.replace(/^; Upgraded to LLVM \d+ IR by llvm-bytecode[^\n]*\n/, '');

const upgrade = (make: () => Parameters<typeof printModern>[0]): string => {
  try {
    return withoutHeader(printModern(make()));
  } catch (e) {
    return `refused: ${(e as Error).message}`;
  }
};

describe.skipIf(!CORPUS_PRESENT)('upgrading a listing gives the IR of upgrading its bytecode', NEEDS_CORPUS, () => {
  for (const [folder, dialect] of Object.entries(NATIVE_DIALECT)) {
    const dir = join(CORPUS_ROOT, folder);
    if (!existsSync(dir)) continue;
    it(`${folder}: every .dis.ll`, () => {
      const differing: string[] = [];
      let compared = 0;
      let same = 0;
      for (const f of readdirSync(dir)
        .filter((n) => n.endsWith('.bc'))
        .sort()) {
        const listing = join(dir, `${f.slice(0, -3)}.dis.ll`);
        if (!existsSync(listing)) continue;
        compared++;
        const fromBytecode = upgrade(() => readModule(new Uint8Array(readFileSync(join(dir, f)))));
        const fromText = upgrade(() => parseAssembly(readFileSync(listing, 'latin1'), { dialect }));
        const id = `${folder}/${f}`;
        if (fromText === fromBytecode) same++;
        if ((fromText === fromBytecode) === EXCEPTIONS.has(id)) differing.push(id);
      }
      console.log(`${folder}: ${same} of ${compared} listings upgrade as their bytecode does; the others are the named exceptions`);
      // A file here differs without being a named exception, or is named but no longer differs.
      expect(differing).toEqual([]);
    }, 300_000);
  }
});
