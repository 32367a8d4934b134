/**
 * What the differential fuzzers (`fuzz:llvm` against LLVM 1.9, `fuzz:upgrade` against today's
 * LLVM) share: small corpus files as seeds, and the small edits that keep most of an edited file
 * readable, so that both sides have something to say about it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unwrapContainer } from '../src/container/index.js';
import { locateCorpus, noCorpusMessage } from './corpus-location.js';

export interface Seed {
  /** `v6/NAME.bc`: where it came from, for messages. */
  readonly name: string;
  /** The uncompressed bytecode stream. */
  readonly stream: Uint8Array;
}

/**
 * The uncompressed streams of the `.bc` files of `folders` (under `corpus`) of at most `maxSize`
 * bytes: small files keep each LLVM run short and most edits meaningful.
 */
export function loadSmallSeeds(corpus: string, folders: readonly string[], maxSize: number): Seed[] {
  const seeds: Seed[] = [];
  for (const folder of folders) {
    const dir = join(corpus, folder);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.bc') || statSync(join(dir, file)).size > maxSize) continue;
      try {
        seeds.push({ name: `${folder}/${file}`, stream: unwrapContainer(new Uint8Array(readFileSync(join(dir, file)))).stream });
      } catch {
        // A file the container refuses (the damaged historical ones) is no seed.
      }
    }
  }
  return seeds;
}

/**
 * The corpus (`--corpus`, else the usual places) and its small seeds of `versions`; without either,
 * says so as `tool` and ends the process with status 1.
 */
export function corpusSeedsOrExit(tool: string, corpusOption: string, versions: readonly number[], maxSize: number): { root: string; seeds: Seed[] } {
  const location = locateCorpus(corpusOption);
  if (!location.present) {
    console.error(`${tool}: ${noCorpusMessage(location)}`);
    process.exit(1);
  }
  const seeds = loadSmallSeeds(
    location.root,
    versions.map((v) => `v${v}`),
    maxSize,
  );
  if (seeds.length === 0) {
    console.error(`${tool}: no seeds of versions ${versions.join(', ')} under ${location.root}`);
    process.exit(1);
  }
  return { root: location.root, seeds };
}

/**
 * One to `most` bytes edited past the signature and version word: a flipped bit, ±1, or any
 * value. Returns the edited copy and where it was edited.
 */
export function smallEdit(stream: Uint8Array, rnd: () => number, most = 2): { bytes: Uint8Array; at: number[] } {
  const bytes = stream.slice();
  const at: number[] = [];
  const edits = 1 + Math.floor(rnd() * most);
  for (let k = 0; k < edits && bytes.length > 12; k++) {
    const i = 12 + Math.floor(rnd() * (bytes.length - 12));
    const how = rnd();
    if (how < 0.5) bytes[i] = bytes[i]! ^ (1 << Math.floor(rnd() * 8));
    else if (how < 0.8) bytes[i] = (bytes[i]! + (rnd() < 0.5 ? 1 : 255)) & 255;
    else bytes[i] = Math.floor(rnd() * 256);
    at.push(i);
  }
  return { bytes, at };
}
