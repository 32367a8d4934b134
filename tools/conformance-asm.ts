/**
 * The assembler against the corpus: each text LLVM printed for a file (LLVM 1.x's, and r36867's
 * LLVM 2.0-development listings of `v7`), assembled and printed again in the same dialect, must
 * come back exactly (the `; ModuleID` line aside, which names the input
 * stream); and the release's own listing (`.dis.ll`), assembled at the file's version, must give
 * the file's bytes. Where the bytes differ only in the order of a symbol table's type planes —
 * LLVM's own `llvm-as` ordered them by heap address, which no text records — that is its own
 * outcome, `asmOrder`.
 */
import { parseAssembly, type Dialect } from '../src/asm/index.js';
import { writeModule } from '../src/encode/write.js';
import type { Module } from '../src/graph/module.js';
import { printModule } from '../src/print/index.js';
import type { Syntax } from '../src/print/dialect.js';
import { sameBytesInOrderOf } from './plane-order.js';
import { sameBytes } from './same-bytes.js';

export type AsmOutcome = 'pass' | 'fail' | 'crash' | 'n/a';

export interface AsmResult {
  /** Every reference text assembles and prints back identically. */
  asmText: AsmOutcome;
  /** `.dis.ll` assembled at the file's version is the file, byte for byte. */
  asmBytes: AsmOutcome;
  /** Not byte-identical, but the same but for symbol-table plane order (`pass`), or not (`fail`). */
  asmOrder: AsmOutcome;
  notes: Partial<Record<'asmText' | 'asmBytes' | 'asmOrder', string>>;
}

/** Where the assembler's checks spent their time (see `--timings`); each called once a stage ends. */
export interface AsmClock {
  /** Parsing and printing back the texts. */
  asmText(): void;
  /** Writing `.dis.ll`'s module and comparing it with the file. */
  asmBytes(): void;
  /** Writing `.dis.ll`'s module again in the file's symbol-table order, for `asmOrder`. */
  asmOrder(): void;
}

export interface AsmInputs {
  /** The corpus folder (it fixes `.dis.ll`'s dialect and version). */
  folder: string;
  /** The `.bc` file. */
  bytes: Uint8Array;
  /** Each reference suffix's text (absent ones left out). */
  texts: ReadonlyMap<string, string>;
  clock?: AsmClock;
}

/** The dialect each folder's `.dis.ll` was printed in, and the version its `llvm-as` wrote. */
const NATIVE: Record<string, { dialect: Dialect; version: number }> = {
  v0: { dialect: '1.1', version: 0 },
  v1: { dialect: '1.2', version: 1 },
  v3: { dialect: '1.3', version: 3 },
  v5: { dialect: '1.8', version: 5 },
  v6: { dialect: '1.9', version: 6 },
  // r36867's listings (LLVM 2.0-development text), which its llvm-as made version 7 of.
  v7: { dialect: '2.0', version: 7 },
};

const withoutModuleId = (s: string): string => s.replace(/^; ModuleID = [^\n]*\n/, '');

function isTyped(e: unknown): boolean {
  return e instanceof Error && (e.name === 'AssemblyError' || e.name === 'EncodeError' || e.name === 'BytecodeError');
}

/**
 * Checks the texts of one corpus file. `texts` maps a reference suffix to its contents (absent
 * ones left out); `bytes` is the `.bc` file.
 */
export function checkAssembly(folder: string, bytes: Uint8Array, texts: ReadonlyMap<string, string>): AsmResult {
  return checkAssemblyOf({ folder, bytes, texts });
}

/** `checkAssembly`, reusing what the caller already has (see `AsmInputs`) and timing its stages. */
export function checkAssemblyOf(inputs: AsmInputs): AsmResult {
  const { folder, bytes, texts, clock } = inputs;
  const result: AsmResult = { asmText: 'n/a', asmBytes: 'n/a', asmOrder: 'n/a', notes: {} };
  const native = NATIVE[folder];
  if (native === undefined) return result;
  // `.dis.ll`'s module, assembled (and verified) once: printed back here, then written below.
  // Printing leaves a module as it found it, as writing does.
  let disModule: Module | undefined;
  for (const [suffix, text] of texts) {
    const dialect: Dialect = suffix === '.dis.ll' ? native.dialect : '1.9';
    try {
      const m = parseAssembly(text, { dialect, fileName: suffix });
      if (suffix === '.dis.ll') disModule = m;
      // A version-7 module prints in LLVM 2.0's syntax only (the printer knows it by the module).
      const again = printModule(m, dialect === '2.0' ? {} : { syntax: dialect as Syntax });
      if (withoutModuleId(again) !== withoutModuleId(text)) {
        result.asmText = 'fail';
        result.notes.asmText ??= `${suffix} prints back differently`;
      } else if (result.asmText === 'n/a') result.asmText = 'pass';
    } catch (e) {
      result.asmText = isTyped(e) ? 'fail' : 'crash';
      result.notes.asmText ??= `${suffix}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
    }
  }
  clock?.asmText();
  const dis = texts.get('.dis.ll');
  if (dis === undefined) return result;
  try {
    // Not assembled above (it failed there): again, for the message as this check words it (no file name).
    const m = disModule ?? parseAssembly(dis, { dialect: native.dialect });
    // parseAssembly ran the verifier on it (and nothing has changed it since): the writer's own
    // run would be the same verdict again.
    const written = writeModule(m, { bytecodeVersion: native.version, compression: 'auto', verify: false });
    if (sameBytes(written, bytes)) {
      result.asmBytes = 'pass';
      clock?.asmBytes();
      return result;
    }
    result.asmBytes = 'fail';
    clock?.asmBytes();
    // Written in the file's symbol-table order, it must be the file (tools/plane-order.ts).
    result.asmOrder = sameBytesInOrderOf(m, bytes, { bytecodeVersion: native.version, compression: 'auto', verify: false }) ? 'pass' : 'fail';
    if (result.asmOrder === 'fail') result.notes.asmOrder = `sizes ${written.length} vs ${bytes.length}`;
    clock?.asmOrder();
  } catch (e) {
    result.asmBytes = isTyped(e) ? 'fail' : 'crash';
    result.notes.asmBytes = e instanceof Error ? e.message.split('\n')[0] : String(e);
    clock?.asmBytes();
  }
  return result;
}
