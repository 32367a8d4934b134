/**
 * `npm run build` (after tsc): bundles the CLI into one CommonJS file, dist/cli/cli-bundle.cjs,
 * with esbuild. The package's `bin`, dist/cli/llvm-bytecode.cjs (src/cli/llvm-bytecode.cts, which
 * tsc compiles), runs it through `vm.Script` with V8's code cache: a start then neither parses nor
 * compiles the functions it ran last time, which is most of what `dis` of a small file costs.
 *
 * One file, not ESM chunks loaded with `import()`: with the code cache, the parts a command never
 * runs (the writer, the analyzer, the assembler for `dis`) are never compiled, only read as text;
 * esbuild wraps each module reached by `import()` in a function run on first use, so they are not
 * evaluated either. CommonJS, because a `vm.Script` cannot hold ESM. (Measured, `dis` of a 29-byte
 * file: ESM chunks as before, 259 M instructions; this bundle, 105 M; bare `node -e ''`, 78 M.
 * The chunks turned into CommonJS functions of one script made `--version` cheaper but `dis`
 * dearer: esbuild's getters between chunks cost more than the smaller cache saved.)
 *
 * The bundle is a function expression (the loader calls it with `module`, `require`, the paths,
 * and an object whose `url` is what `import.meta.url` stands for) whose exports start the command
 * or a batch worker thread (src/cli/main.ts); it ends with its build id, which names its caches.
 * dist/cli/main.js becomes a small ESM entry that starts the same loader, for those who run
 * `node dist/cli/main.js` from a checkout. The library itself (dist/index.js) stays as tsc writes
 * it: importers bundle it their own way.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { PROJECT_ROOT } from './corpus-location.js';

const PROJECT = PROJECT_ROOT;
const OUT = join(PROJECT, 'dist/cli');
const BUNDLE = join(OUT, 'cli-bundle.cjs');

/**
 * Modules the CLI's code imports at its start but needs only for some inputs or commands:
 * node:worker_threads for a batch's threads (loading it costs a start 7.8 M instructions, as much
 * as reading the whole bundle twice), node:v8 for a batch's tier-up setting (it loads Node's whole
 * stream library, for its heap snapshot stream: some 8 M instructions), node:os for a batch's
 * default thread count, node:tty for `isatty` (asked only when standard input is read or bytecode
 * is written; loading it loads node:net and Node's stream library, a quarter of `dis` of a 29-byte
 * file's CPU time beyond bare Node), pako for zlib-compressed (`llvc1`) files and for writing
 * them. Each is
 * given to the CLI's modules as an
 * object of getters that load the real module on first use. (esbuild reads an imported name from
 * a CommonJS module at each use, so nothing is loaded by the import itself.) The getters are made
 * for every name the real module exports, as listed here at build time.
 */
const LAZY_MODULES = /^(node:worker_threads|worker_threads|node:v8|node:os|node:tty|pako)$/;
const buildRequire = createRequire(join(PROJECT, 'package.json'));
const lazyModules: Plugin = {
  name: 'lazy-modules',
  setup(b) {
    // The getters' own `require` of the real module is left to esbuild.
    b.onResolve({ filter: LAZY_MODULES }, (args) =>
      args.namespace === 'lazy' ? undefined : { path: args.path.replace(/^worker_threads$/, 'node:worker_threads'), namespace: 'lazy' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => {
      const names = Object.keys(buildRequire(args.path) as object).filter((n) => n !== 'default' && n !== '__esModule');
      return {
        contents: `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(args.path)}));
for (const name of ${JSON.stringify(names)})
  Object.defineProperty(module.exports, name, { enumerable: true, get: () => load()[name] });`,
        loader: 'js',
        resolveDir: PROJECT,
      };
    });
  },
};

// What earlier builds left: the ESM chunks of before, and code caches of bundles that are gone.
for (const name of readdirSync(OUT)) if (name.startsWith('chunk-')) rmSync(join(OUT, name));
rmSync(join(OUT, 'code-cache'), { recursive: true, force: true });

const result = await build({
  entryPoints: [join(PROJECT, 'src/cli/main.ts')],
  outfile: BUNDLE,
  write: false,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // The loader reads the text as latin1 (one byte a character, the cheapest string for V8).
  charset: 'ascii',
  // A `vm.Script` has no `import()` of its own: lazy modules are bundled in (see lazyModules).
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': 'importMeta.url' },
  banner: { js: '(function (exports, require, module, __filename, __dirname, importMeta) {' },
  footer: { js: '})' },
  // Smaller text is read faster. Identifiers stay as they are, so that stack traces stay readable:
  // Node does not apply source maps to a `vm.Script`. (Minified identifiers would save 2 % of `dis`
  // of a 29-byte file, 109.0 M instructions against 107.0 M, V8 keeping the names in its cache.)
  // keepNames is not needed for readable names and would wrap every function in a call that runs
  // each time a closure is made (measured: 1 % of a batch).
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [lazyModules],
  // A map for the checkout's bundle; none for the package (`npm run build:package`, run by `npm
  // pack`), which ships no sources for a map to point to.
  sourcemap: process.argv.includes('--no-source-map') ? false : 'linked',
  logLevel: 'warning',
});

for (const file of result.outputFiles) {
  if (file.path !== BUNDLE) {
    writeFileSync(file.path, file.contents);
    continue;
  }
  // The id goes last, after the source map's comment, so no mapped line moves.
  const id = createHash('sha256').update(file.contents).digest('hex').slice(0, 16);
  writeFileSync(BUNDLE, `${file.text}\n//build:${id}\n`, 'latin1');
}

writeFileSync(
  join(OUT, 'main.js'),
  `// The CLI for \`node dist/cli/main.js\`: the package's bin, llvm-bytecode.cjs, does the work.
import { createRequire } from 'node:module';
createRequire(import.meta.url)('./llvm-bytecode.cjs').runCli();
`,
);
rmSync(join(OUT, 'main.js.map'), { force: true });
