/**
 * `npm run build` (after tsc): bundles the CLI into dist/cli/main.js, the package's `bin`, with
 * esbuild. One file for everything a start needs (argument parsing, the batch machinery, the
 * reader) instead of some sixty modules resolved and read one by one; the engines a command needs
 * only sometimes (printer, analyzer, upgrader, writer, the bzip2 WebAssembly) are split into
 * chunks beside it that `import()` loads on demand. The library itself (dist/index.js) stays as
 * tsc writes it: importers bundle it their own way.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = join(PROJECT, 'dist/cli');

/**
 * seek-bzip (the bzip2 decoder the reader needs for `llvc2` files) allocates with `new Buffer(n)`,
 * which Node warns about (DEP0005) when the call is outside node_modules, as it is once bundled.
 * Every such call in it passes a size, for which `Buffer.alloc(n)` is the same zero-filled buffer.
 * (Left unbundled instead, importing a CommonJS package from ESM costs a start its export scan.)
 */
const modernBuffers: Plugin = {
  name: 'seek-bzip-buffer-alloc',
  setup(b) {
    b.onLoad({ filter: /[\\/]seek-bzip[\\/]lib[\\/][^\\/]+\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      return { contents: source.replace(/new Buffer\(/g, 'Buffer.alloc('), loader: 'js' };
    });
  },
};

// Chunk names carry content hashes: drop the previous build's so none lingers in the package.
for (const name of readdirSync(OUT)) if (name.startsWith('chunk-')) rmSync(join(OUT, name));

await build({
  entryPoints: { main: join(PROJECT, 'src/cli/main.ts') },
  outdir: OUT,
  bundle: true,
  splitting: process.env.SPLIT === "1",
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
  plugins: [modernBuffers],
  sourcemap: 'linked',
  logLevel: 'warning',
});
