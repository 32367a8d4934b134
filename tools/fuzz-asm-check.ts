/**
 * One fuzz input through the assembler and what consumes its result: the answer is `undefined`
 * when everything ended well (a module, or a typed refusal), or a description of the failure.
 * Shared by `fuzz-asm.ts`, the coverage-guided target `asm` (`fuzz-coverage/targets/asm.ts`) and
 * the regression test that replays saved failures.
 */
import { AssemblyError, detectDialect, DIALECT_VERSION, parseAssembly } from '../src/asm/index.js';
import { EncodeError } from '../src/encode/encode-error.js';
import { writeModule } from '../src/encode/write.js';
import { BytecodeError } from '../src/errors/bytecode-error.js';
import { printModule } from '../src/print/index.js';

/** An input that takes longer than this is a failure (a hang in the making). */
export const SLOW_INPUT_MS = 1000;

/**
 * `slowMs` is the wall time past which an input that ended well is still a failure; the
 * coverage-guided target passes `Infinity` and applies its own limit, in CPU time and scaled for
 * instrumented code.
 */
export function checkAssemblyInput(text: string, slowMs: number = SLOW_INPUT_MS): string | undefined {
  const started = performance.now();
  try {
    const dialect = detectDialect(text);
    const m = parseAssembly(text, { dialect });
    printModule(m);
    try {
      // LLVM 2.0 text becomes version 7 (its own writer and verifier), 1.x text version 6.
      writeModule(m, { bytecodeVersion: dialect === '2.0' ? DIALECT_VERSION['2.0'] : 6, compression: 'none' });
    } catch (e) {
      if (!(e instanceof EncodeError) && !(e instanceof BytecodeError)) throw e;
    }
  } catch (e) {
    if (!(e instanceof AssemblyError)) return `${e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]}` : String(e)}`;
  }
  const ms = performance.now() - started;
  return ms > slowMs ? `took ${Math.round(ms)} ms` : undefined;
}
