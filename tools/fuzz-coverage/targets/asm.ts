/**
 * Jazzer.js fuzz target: the assembler, its input's bytes as latin1 text, checked as
 * `npm run fuzz:asm` checks its inputs (`fuzz-asm-check.ts`; see ../target.ts).
 */
import { fuzzTarget } from '../target.js';

export const fuzz = fuzzTarget('asm');
