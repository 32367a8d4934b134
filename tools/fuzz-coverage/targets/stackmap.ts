/**
 * Jazzer.js fuzz target for the stack map consumers (fuzz-stackmap-check.ts): run with
 * `npx jazzer dist-tools/tools/fuzz-coverage/targets/stackmap.js CORPUS_DIR -- -max_total_time=N`,
 * seeding CORPUS_DIR with sections and objects (docs/stackmaps.md says how). A failure throws, so
 * libFuzzer saves the input as a crash.
 */
import { checkStackMapInput } from '../../fuzz-stackmap-check.js';

export function fuzz(data: Buffer): void {
  const failure = checkStackMapInput(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  if (failure !== undefined) throw new Error(`stackmap: ${failure}`);
}
