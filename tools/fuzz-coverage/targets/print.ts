/** Jazzer.js fuzz target: the 'print' consumer of fuzz-check.ts (see ../target.ts). */
import { fuzzTarget } from '../target.js';

export const fuzz = fuzzTarget('print');
