/**
 * `npm run build` (after tsc): bundles the CLI into dist/cli/main.js, the package's `bin`, with
 * esbuild. One file for everything a start needs (argument parsing, the batch machinery, the
 * reader) instead of some sixty modules resolved and read one by one; the engines a command needs
 * only sometimes (printer, analyzer, upgrader, writer, the bzip2 WebAssembly) are split into
 * chunks beside it that `import()` loads on demand. The library itself (dist/index.js) stays as
 * tsc writes it: importers bundle it their own way.
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
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  // Smaller text parses faster; names are kept since error names and messages use them.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  // Loaded from node_modules as they are: the emscripten loader of libbzip2-wasm looks for files
  // beside itself, and seek-bzip's `new Buffer()` draws Node's deprecation warning outside
  // node_modules.
  external: ['libbzip2-wasm', 'seek-bzip'],
  sourcemap: 'linked',
  logLevel: 'warning',
});
