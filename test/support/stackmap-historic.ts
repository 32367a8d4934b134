/**
 * The real version-1 stack map object (../shared/stackmaps/historic, from
 * microsoft/DirectXShaderCompiler's test/Object/Inputs, written by an LLVM 3.7-era compiler) and
 * that repository's expected text for it (test/Object/stackmap-dump.test; its fork renamed the
 * tool's heading to "LLVM37", LLVM 3.7 printed "LLVM StackMap Version"). One place for both, so
 * every test finds the object by the same rule: LLVM_BYTECODE_STACKMAPS, else ../shared/stackmaps.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STACKMAPS_DIR = resolve(process.env['LLVM_BYTECODE_STACKMAPS'] ?? fileURLToPath(new URL('../../../shared/stackmaps', import.meta.url)));
export const HISTORIC_DIR = join(STACKMAPS_DIR, 'historic');
export const HISTORIC_OBJECT = join(HISTORIC_DIR, 'v1-dxc-stackmap-test.macho-x86-64');
export const HAVE_HISTORIC = existsSync(HISTORIC_OBJECT);

/** What LLVM 3.7's llvm-readobj -stackmap printed for the historic object (no final newline). */
export const DXC_EXPECTED = `LLVM StackMap Version: 1
Num Functions: 1
  Function address: 0, stack size: 16
Num Constants: 1
  #1: 10000000000
Num Records: 1
  Record ID: 2, instruction offset: 1
    5 locations:
      #1: Register R#5
      #2: Constant 10
      #3: ConstantIndex #0 (10000000000)
      #4: Direct R#4 + -8
      #5: Indirect [R#6 + -16]
    1 live-outs: [ R#7 (8-bytes) ]`;
