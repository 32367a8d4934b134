/** Jazzer.js fuzz target: the 'upgrade-bitcode' consumer of fuzz-check.ts (see ../target.ts). */
import { fuzzTarget } from '../target.js';

export const fuzz = fuzzTarget('upgrade-bitcode');
