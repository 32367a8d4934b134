/**
 * One seed for every fast-check property of `npm test` (a vitest setup file): a fixed one, so that
 * a run in CI tests what the last run tested and a failure is the same failure again, unless
 * `LLVM_BYTECODE_SEED` names another (`LLVM_BYTECODE_SEED=random` takes a fresh one, printed).
 * fast-check prints the seed with every counterexample (`{ seed: N, path: ... }`); rerun it with
 * `LLVM_BYTECODE_SEED=N npx vitest run FILE`. The long searches with fresh seeds are the fuzzers'
 * business (`npm run fuzz`, `fuzz:asm`, `fuzz:coverage`, `fuzz:llvm`), not the test suite's.
 */
import fc from 'fast-check';

/** The seed when `LLVM_BYTECODE_SEED` is unset: any fixed number; this one is the date. */
export const DEFAULT_PROPERTY_SEED = 20261128;

/** The seed `LLVM_BYTECODE_SEED` asks for (a 32-bit integer, or `random`), else the default. */
export function propertySeed(env: string | undefined): number {
  if (env === undefined || env.trim() === '') return DEFAULT_PROPERTY_SEED;
  if (env.trim() === 'random') return (Date.now() ^ (Math.random() * 2 ** 31)) | 0;
  const n = Number(env);
  if (!Number.isSafeInteger(n) || n < -(2 ** 31) || n >= 2 ** 32) throw new Error(`LLVM_BYTECODE_SEED=${env}: expected a 32-bit integer or 'random'`);
  return n | 0;
}

const seed = propertySeed(process.env.LLVM_BYTECODE_SEED);
if (process.env.LLVM_BYTECODE_SEED?.trim() === 'random') console.log(`fast-check properties run with LLVM_BYTECODE_SEED=${seed}`);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
