/**
 * The assembly texts both assembler fuzzers start from (`npm run fuzz:asm` damages them at
 * random, `npm run fuzz:coverage -- --target asm` hands them to libFuzzer): the project's grammar
 * files and hello module, and the LLVM 1.x listings of the corpus (`*.dis.ll`, `*.dis19.ll`,
 * `*.via19.ll` of `v0`–`v6`; `v7`'s listings are LLVM 2.0's syntax, which the assembler refuses
 * at once and so would only teach the fuzzers the first line).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The corpus folders whose listings are LLVM 1.x assembly. */
const LISTING_FOLDERS = ['v0', 'v1', 'v3', 'v5', 'v6'];
const LISTING = /\.(dis|dis19|via19)\.ll$/;

/** Paths of the seed texts of at most `maxBytes` each: the project's first, then `corpus`'s. */
export function assemblySeedFiles(project: string, corpus: string, maxBytes: number): string[] {
  return [...projectAssemblyFiles(project, maxBytes), ...corpusListingFiles(corpus, maxBytes)];
}

/** The project's own assembly: the grammar files of the assembler's tests and `corpus/*.ll`. */
export function projectAssemblyFiles(project: string, maxBytes: number): string[] {
  const out: string[] = [];
  for (const dir of [join(project, 'test/asm/grammar'), join(project, 'corpus')]) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.ll') && statSync(join(dir, f)).size <= maxBytes) out.push(join(dir, f));
  }
  return out;
}

/** The LLVM 1.x listings of a corpus laid out as `../shared/corpus` is. */
export function corpusListingFiles(corpus: string, maxBytes: number): string[] {
  const out: string[] = [];
  for (const folder of LISTING_FOLDERS) {
    const dir = join(corpus, folder);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (LISTING.test(f) && statSync(join(dir, f)).size <= maxBytes) out.push(join(dir, f));
  }
  return out;
}
