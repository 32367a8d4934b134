/**
 * `npm run make-hello [-- --check]`: writes `corpus/hello.bc` from `buildHelloModule()` with our
 * writer (version 6, as LLVM 1.9 would lay it out). `--check` only compares, exiting 1 when the
 * committed file differs (test/tools/hello.test.ts does the same on every `npm test`).
 *
 * `corpus/hello.ll` beside it is written by hand, not by our printer: it is what LLVM 1.9's
 * llvm-dis prints for this module, and the printer is tested against it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeModule } from '../src/encode/write.js';
import { buildHelloModule } from './hello-module.js';
import { PROJECT_ROOT } from './corpus-location.js';

const TARGET = join(PROJECT_ROOT, 'corpus/hello.bc');

/** The bytes of `corpus/hello.bc` as this project writes them today. */
export function helloBytes(): Uint8Array {
  return writeModule(buildHelloModule(), { bytecodeVersion: 6, compression: 'auto' });
}

function main(argv: string[]): number {
  const bytes = helloBytes();
  if (argv.includes('--check')) {
    const committed = new Uint8Array(readFileSync(TARGET));
    const same = committed.length === bytes.length && committed.every((b, i) => b === bytes[i]);
    console.log(same ? 'corpus/hello.bc is up to date' : 'corpus/hello.bc differs from what the writer makes now');
    return same ? 0 : 1;
  }
  writeFileSync(TARGET, bytes);
  console.log(`wrote corpus/hello.bc (${bytes.length} bytes)`);
  return 0;
}

// Run only as a script, not when a test imports helloBytes().
if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) process.exitCode = main(process.argv.slice(2));
