/**
 * The assembly texts both assembler fuzzers start from (`npm run fuzz:asm` damages them at
 * random, `npm run fuzz:coverage -- --target asm` hands them to libFuzzer): the project's grammar
 * files (LLVM 1.x's and LLVM 2.0's) and hello module, and the listings of the corpus (`*.dis.ll`,
 * `*.dis19.ll`, `*.via19.ll` of `v0`–`v6`, LLVM 1.x's, and `v7`'s `*.dis.ll`, LLVM 2.0's).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The corpus folders whose listings are assembly (LLVM 1.x's; `v7`'s LLVM 2.0's). */
const LISTING_FOLDERS = ['v0', 'v1', 'v3', 'v5', 'v6', 'v7'];
const LISTING = /\.(dis|dis19|via19)\.ll$/;

/** Paths of the seed texts of at most `maxBytes` each: the project's first, then `corpus`'s. */
export function assemblySeedFiles(project: string, corpus: string, maxBytes: number): string[] {
  return [...projectAssemblyFiles(project, maxBytes), ...corpusListingFiles(corpus, maxBytes)];
}

/** The project's own assembly: the grammar files of the assembler's tests (1.x and 2.0) and `corpus/*.ll`. */
export function projectAssemblyFiles(project: string, maxBytes: number): string[] {
  const out: string[] = [];
  for (const dir of [join(project, 'test/asm/grammar'), join(project, 'test/asm/grammar-2.0'), join(project, 'corpus')]) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.ll') && statSync(join(dir, f)).size <= maxBytes) out.push(join(dir, f));
  }
  return out;
}

/** The listings of a corpus laid out as `../shared/corpus` is. */
export function corpusListingFiles(corpus: string, maxBytes: number): string[] {
  const out: string[] = [];
  for (const folder of LISTING_FOLDERS) {
    const dir = join(corpus, folder);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (LISTING.test(f) && statSync(join(dir, f)).size <= maxBytes) out.push(join(dir, f));
  }
  return out;
}
