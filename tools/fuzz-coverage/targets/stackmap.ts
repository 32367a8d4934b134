/**
 * Jazzer.js fuzz target: every stack map consumer (fuzz-stackmap-check.ts) on the input as an
 * object file or bare section and as a bare section in each byte order (see ../target.ts).
 * `npm run fuzz:coverage -- --target stackmap` seeds it with sections and objects
 * (fuzz-stackmap-seeds.ts).
 */
import { fuzzTarget } from '../target.js';

export const fuzz = fuzzTarget('stackmap');
