/**
 * The assembler: LLVM 1.x assembly text in, the same module graph `readModule` returns out, so
 * the printer, the writer, the analyzer and `upgrade` take it unchanged.
 */
import type { Module } from '../graph/module.js';
import { verifyModule } from '../verify/verify.js';
import { type AssemblyError, SourceText } from './assembly-error.js';
import { buildModule } from './build-module.js';
import { detectDialect, type Dialect } from './dialect.js';
import { DEFAULT_ASSEMBLY_LIMITS, parseModuleText, type AssemblyLimits } from './parser.js';
import { buildModule2 } from './llvm2/build.js';
import { parseModule2 } from './llvm2/parser.js';

export { AssemblyError } from './assembly-error.js';
export { DEFAULT_ASSEMBLY_LIMITS, type AssemblyLimits } from './parser.js';
export { llvm2ModuleForVersion } from './llvm2/versions.js';
export { detectDialect, dialectForVersion, isLlvm2Text, DIALECT_NAMES, DIALECT_VERSION, type Dialect } from './dialect.js';

/** @category Assemble */
export interface AssemblyOptions {
  /** Shown in error messages (`FILE:LINE:COL: error: …`); `<input>` by default. */
  fileName?: string;
  /** Run LLVM's verifier on the result, as `llvm-as` did (default true). */
  verify?: boolean;
  limits?: Partial<AssemblyLimits>;
  /** Whose assembly this is (see `detectDialect`, the default). */
  dialect?: Dialect;
}

/**
 * Parses LLVM 1.x assembly, or LLVM 2.0-development assembly (r36867's, which became bytecode
 * version 7), one character per byte (read files as latin1), into a module graph.
 * Throws `AssemblyError` with the line and column of the first problem.
 *
 * @category Assemble
 */
export function parseAssembly(text: string, options: AssemblyOptions = {}): Module {
  if (typeof text !== 'string') throw new TypeError('parseAssembly expects the assembly text as a string');
  const source = new SourceText(text, options.fileName);
  const limits = { ...DEFAULT_ASSEMBLY_LIMITS, ...options.limits };
  const dialect = options.dialect ?? detectDialect(text);
  let module: Module;
  try {
    module = dialect === '2.0' ? buildModule2(parseModule2(source, limits), source) : buildModule(parseModuleText(source, limits), source, dialect);
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw source.error('the text nests too deeply to assemble', 0);
    throw e;
  }
  // r36867's llvm-as verified what it parsed under its own rules, as 1.x's did under theirs.
  if (options.verify !== false) {
    const problems = verifyModule(module, dialect === '2.0' ? { bytecodeVersion: 7 } : {});
    if (problems.length > 0) throw locateProblem(source, problems[0]!);
  }
  return module;
}

/** A verifier message names the function; point at that function's header where we can. */
function locateProblem(source: SourceText, problem: string): AssemblyError {
  const fn = /function '?%?([^' :]+)'?/.exec(problem)?.[1];
  let at = 0;
  if (fn !== undefined) {
    const i = source.text.search(new RegExp(`[%@]${fn.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\(`));
    if (i >= 0) at = source.text.lastIndexOf('\n', i) + 1;
  }
  return source.error(problem, at);
}
