#!/usr/bin/env node
/**
 * The `llvm-bytecode` command (the package's `bin`, dist/cli/llvm-bytecode.cjs): starts the CLI
 * bundle (dist/cli/cli-bundle.cjs, see tools/bundle-cli.ts) with V8's code cache.
 *
 * Why: `dis` of a small file is mostly Node starting and V8 compiling our JavaScript. Node 20 has
 * no compile cache of its own for packages (`module.enableCompileCache` came with Node 22), so the
 * bundle is compiled here, through `vm.Script`, from the bytecode V8 saved the last time: no
 * parsing, no compiling of the functions that run saved then. Measured (`dis` of a 29-byte file,
 * whole processes against bare `node -e ''`): 2.7× as ESM chunks, about 1.3× this way.
 *
 * The cache is V8's, so it is valid for one build of the bundle and one Node (V8 version, flags):
 * its file name carries the bundle's build id, the Node version and the architecture, and V8
 * itself refuses data made with other flags (`cachedDataRejected`), which is then written anew.
 * One cache per command, made by that command's first run, so that each holds the functions its
 * command runs (`--help` first would otherwise leave `dis` compiling its printer every time).
 *
 * A command given one large input file (see `LARGE_INPUT`) is a run of another kind, with a cache
 * of its own (`dis-large`): it runs without TurboFan's inlining (and without lazy feedback
 * allocation: see `tuneForLargeInput`). Its run is spent mostly before
 * V8 has optimized the reader and the printer, and inlining made each optimization costly: the
 * printer's largest functions took 40 to 90 ms each to compile, on threads that share the
 * machine's two cores with the main one (half the CPU time of a cold `dis` of big-bf). Without
 * inlining, that `dis` took 0.70 to 0.75 times the CPU time (whole processes, 10 to 15
 * alternating pairs, load 12), `as` of big-bf.dis.ll 0.78 times (8 pairs). The optimized code is
 * slower, which only a run longer than a file's feels; a batch (threads, warm engines) keeps
 * V8's default. The flag changes V8's flag hash, which a cache must match: hence the separate
 * cache, which also keeps a small file's cache small (one made by a large file holds more
 * functions, which a small file's run pays to deserialize).
 *
 * Where: `code-cache/` beside the bundle (whoever can write there can change the bundle itself),
 * else the user's cache folder; never a shared folder such as /tmp, as V8 trusts the cached
 * bytecode it is given. Written once, when missing or refused, at exit; a cache that cannot be
 * read or written only costs the compile it would have saved, never a failure.
 *
 * batch-worker.cts starts the batch mode's worker threads through the same loader.
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/** What the bundle exports (src/cli/main.ts). */
interface CliBundle {
  startCli(workerScript: () => URL, onBatch?: () => void): void;
  startBatchWorker(): void;
}

/** What the bundle evaluates to (see bundle-cli.ts): its module code, run when called. */
type BundleFunction = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
  importMeta: { readonly url: string },
) => void;

const BUNDLE = join(__dirname, 'cli-bundle.cjs');
/** The bundle ends with this marker and its build id (a hash of its text). */
const BUILD_MARKER = '\n//build:';
/** Commands with caches of their own; anything else (help, version, mistakes) shares one. */
const CACHED_COMMANDS = new Set(['dis', 'as', 'analyze', 'upgrade', 'rewrite', 'ar', 'nm', 'link', 'stackmap']);
/** Commands that read one file, for which a large one is a run of its own kind. */
const FILE_COMMANDS = new Set(['dis', 'analyze', 'upgrade', 'rewrite', 'as', 'stackmap']);
/**
 * The size on disk from which an input is large: big-bf (67 KB compressed, 0.42 MB of bytecode)
 * is; a small file's run ends before TurboFan has much to do.
 */
const LARGE_INPUT = 32 * 1024;
/**
 * The file commands' options that take a value as the next argument, so that the value is not
 * taken for the input. (Only for choosing the kind of run: a guess that is wrong costs time, never
 * a wrong output; run.ts parses the arguments for real.) Kept here, as the loader loads nothing of
 * the CLI; test/cli/loader-options.test.ts checks it against the commands' own option lists.
 */
export const VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '-o',
  '--output',
  '-j',
  '--jobs',
  '--limit',
  '--syntax',
  '--bytecode-version',
  '--compress',
  '--dialect',
  '--triple',
  '--exceptions',
  '--endian',
  '--to-version',
  '--llvm',
  '--emit',
]);

/** Runs the command named in `process.argv`. */
export function runCli(): void {
  const command = process.argv[2];
  let key = command !== undefined && CACHED_COMMANDS.has(command) ? command : 'other';
  if (FILE_COMMANDS.has(key) && isLargeInput(process.argv.slice(3))) {
    tuneForLargeInput();
    key += '-large';
  }
  let batch = false;
  // Only a run that succeeded on one file makes the cache its command's next runs start from: one
  // that failed early never compiled the printer, a batch's main thread leaves the reading and
  // printing to its threads, and a batch changes V8's settings (see batch.ts), which a cache
  // carries.
  loadBundle(key, () => !batch && !process.exitCode).startCli(
    () => pathToFileURL(join(__dirname, 'batch-worker.cjs')),
    () => {
      batch = true;
    },
  );
}

/** True when `args` (a file command's) name exactly one input, a file of `LARGE_INPUT` bytes or more. */
function isLargeInput(args: readonly string[]): boolean {
  let input: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (arg === '--') {
      if (args.length !== i + 2 || input !== undefined) return false;
      input = args[i + 1];
      break;
    } else if (arg === '-' || !arg.startsWith('-')) {
      if (input !== undefined) return false; // several inputs: a batch
      input = arg;
    }
  }
  if (input === undefined || input === '-') return false;
  try {
    const stat = statSync(input, { throwIfNoEntry: false });
    return stat !== undefined && stat.isFile() && stat.size >= LARGE_INPUT;
  } catch {
    return false; // unreadable: the command will say so
  }
}

/**
 * V8's settings for one large input (see above), made before the bundle is compiled, as the cache
 * of this kind of run was made with them. node:v8 is loaded only here: loading it loads Node's
 * stream library (some 8 M instructions, a fifth of a small file's whole run beyond Node's start).
 */
function tuneForLargeInput(): void {
  // Feedback vectors from a function's first call, not after some budget: code that runs once
  // per instruction of a large body is optimized that much sooner (2026-11-28, alternated whole
  // processes: upgrade of big-bf to bitcode 0.95x the wall time, dis 0.98x, analyze and as 0.99x).
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--no-turbo-inlining --no-lazy-feedback-allocation');
}

/** Serves a batch from a worker thread. */
export function startBatchWorker(): void {
  loadBundle('worker', () => true).startBatchWorker();
}

/**
 * Compiles the bundle (from the cache named by `key` when there is a valid one) and runs it. With
 * no valid cache, one is written at exit if `worthKeeping` then says so.
 */
function loadBundle(key: string, worthKeeping: () => boolean): CliBundle {
  const source = readFileSync(BUNDLE, 'latin1'); // esbuild writes ASCII (charset: 'ascii')
  const name = cacheName(source, key);
  const cachedData = readCache(name);
  const script = new Script(source, { filename: BUNDLE, ...(cachedData ? { cachedData } : {}) });
  // At exit, the cache holds every function this run compiled.
  if (cachedData === undefined || script.cachedDataRejected === true) process.once('exit', () => void (worthKeeping() && writeCache(script, name)));
  const module = { exports: {} };
  // `import.meta.url` in the bundle (the URL of the bundle), made only when asked for.
  const importMeta = {
    get url(): string {
      return pathToFileURL(BUNDLE).href;
    },
  };
  (script.runInThisContext() as BundleFunction)(module.exports, require, module, BUNDLE, __dirname, importMeta);
  return module.exports as CliBundle;
}

function cacheName(source: string, key: string): string {
  const at = source.lastIndexOf(BUILD_MARKER);
  const build = at < 0 ? 'unknown' : source.slice(at + BUILD_MARKER.length).trim();
  return `${build}-${process.version}-${process.arch}-${key}.v8cache`;
}

/** The folders a cache may live in, the preferred first (the second is worked out only if needed). */
function* cacheFolders(): Generator<string, void, undefined> {
  yield join(__dirname, 'code-cache');
  const { homedir } = require('node:os') as typeof import('node:os');
  let user: string;
  try {
    user = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  } catch {
    return; // no home folder (homedir() throws when the user has none)
  }
  yield join(user, 'llvm-bytecode');
}

function readCache(name: string): Buffer | undefined {
  for (const folder of cacheFolders()) {
    try {
      return readFileSync(join(folder, name));
    } catch {
      // Missing or unreadable: the next folder, or a compile from source.
    }
  }
  return undefined;
}

/**
 * Saves V8's code for what has been compiled so far; the first folder that takes it wins. The
 * temporary file is opened first, so that where no folder can be written (a read-only install,
 * no home) no run pays for serializing a cache that cannot be kept.
 */
function writeCache(script: Script, name: string): void {
  for (const folder of cacheFolders()) {
    // Written whole under a temporary name, then renamed: a reader (another process, a worker
    // thread) never sees half a cache.
    const temporary = join(folder, `.${name}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
    let fd: number;
    try {
      mkdirSync(folder, { recursive: true });
      fd = openSync(temporary, 'wx');
    } catch {
      continue;
    }
    try {
      try {
        writeFileSync(fd, script.createCachedData());
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, join(folder, name));
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Nothing more to do: a stray temporary file costs nothing but its space.
      }
    }
    return;
  }
}

if (require.main === module) runCli();
