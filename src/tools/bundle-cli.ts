/**
 * `npm run build` (after tsc): bundles the CLI into dist/cli/main.js, the package's `bin`, with
 * esbuild. The entry holds what every start needs (argument parsing, the batch machinery) instead
 * of a dozen modules resolved and read one by one; the engines (reader, printer, analyzer,
 * upgrader, writer, the bzip2 WebAssembly) are split into chunks beside it that `import()` loads
 * when a command needs them, so `dis` never compiles the writer or the analyzer. The entry is also
 * the batch mode's worker script. The library itself (dist/index.js) stays as tsc writes it:
 * importers bundle it their own way.
 */
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = join(PROJECT, 'dist/cli');

// Chunk names carry content hashes: drop the previous build's so none lingers in the package.
for (const name of readdirSync(OUT)) if (name.startsWith('chunk-')) rmSync(join(OUT, name));

await build({
  entryPoints: { main: join(PROJECT, 'src/cli/main.ts') },
  outdir: OUT,
  bundle: true,
  // Measured (callgrind, `dis` of a 29-byte file): split, 133 M instructions beyond bare
  // `node -e ''`; one file with the lazy parts inlined, 225 M: compiling the writer, analyzer and
  // upgrader that `dis` never runs costs more than opening a few more files.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  // Smaller text parses faster. Identifiers stay as they are (so stack traces stay readable);
  // keepNames is not needed for that and would wrap every function in a call that runs each time
  // a closure is made (measured: 1 % of a batch).
  minifyWhitespace: true,
  minifySyntax: true,
  // Loaded from node_modules as it is: its emscripten loader looks for files beside itself (and
  // only `rewrite` needs it, to compress).
  external: ['libbzip2-wasm'],
  sourcemap: 'linked',
  logLevel: 'warning',
});
