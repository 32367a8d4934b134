/**
 * Objects with stack maps made by Debian's llc-16 for the tests that compare with llvm-readobj-16:
 * a few fixed IR programs (stackmap, patchpoint with and without anyregcc, statepoints with deopt
 * and gc-live values, large and negative constants, allocas, 64-bit ids, several functions) for
 * every target llc-16 writes stack maps for. Made in a temporary folder on first use, never kept.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { debianLlvm } from './tools.js';

export const LLVM16 = debianLlvm(16);

const COMMON = `
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
define i64 @constants(i64 %a, i32 %b, ptr %p) {
entry:
  %x = alloca [4 x i64]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 12345678901234, i32 0, i64 %a, i32 %b, i64 -1, i64 4294967296, i32 -7, i64 9223372036854775807, ptr %x)
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 -1, i32 20, ptr null, i32 0, i64 %a, ptr %p)
  ret i64 %a
}
define CC i64 @anyreg(i64 %a, i64 %b) {
  %r = call CC i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 5, i32 20, ptr null, i32 2, i64 %a, i64 %b)
  ret i64 %r
}
define void @dynamic(i64 %n) {
  %v = alloca i8, i64 %n
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 6, i32 0, ptr %v, i64 %n)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 4)
  ret void
}
`;

const STATEPOINTS = `
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @callee()
define ptr addrspace(1) @gc(ptr addrspace(1) %obj, ptr addrspace(1) %obj2, i64 %d) gc "statepoint-example" {
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4294967297, i32 0, ptr elementtype(void ()) @callee, i32 0, i32 0, i32 0, i32 0) ["deopt"(i64 %d, i32 3, i64 -5), "gc-live"(ptr addrspace(1) %obj, ptr addrspace(1) %obj2)]
  %r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 1)
  ret ptr addrspace(1) %r
}
`;

/** The targets and containers llc-16 writes stack maps for, and whether statepoints work there. */
export const TARGETS: ReadonlyArray<{ triple: string; statepoints: boolean; container: 'elf' | 'macho' | 'coff' }> = [
  { triple: 'x86_64-linux-gnu', statepoints: true, container: 'elf' },
  { triple: 'x86_64-apple-macosx', statepoints: true, container: 'macho' },
  { triple: 'x86_64-pc-windows-msvc', statepoints: true, container: 'coff' },
  { triple: 'aarch64-linux-gnu', statepoints: true, container: 'elf' },
  { triple: 'aarch64_be-linux-gnu', statepoints: true, container: 'elf' },
  { triple: 'arm64-apple-macosx', statepoints: true, container: 'macho' },
  { triple: 'powerpc64le-linux-gnu', statepoints: false, container: 'elf' },
  { triple: 'powerpc64-linux-gnu', statepoints: false, container: 'elf' },
  { triple: 's390x-linux-gnu', statepoints: false, container: 'elf' },
];

let folder: string | undefined;

/** The object llc-16 makes for `triple` at `-O<opt>` (cached per run). */
export function llcObject(triple: string, opt: 0 | 1 | 2 | 3, statepoints: boolean): { path: string; bytes: Uint8Array } {
  folder ??= mkdtempSync(join(tmpdir(), 'stackmap-llc-'));
  const base = join(folder, `${triple}-O${opt}`);
  try {
    return { path: `${base}.o`, bytes: new Uint8Array(readFileSync(`${base}.o`)) };
  } catch {
    // anyregcc is x86-64's only (llc-16 aborts on it elsewhere).
    const cc = triple.startsWith('x86_64') ? 'anyregcc' : '';
    writeFileSync(`${base}.ll`, COMMON.replaceAll('CC ', cc ? `${cc} ` : '') + (statepoints ? STATEPOINTS : ''));
    execFileSync(LLVM16.path('llc'), [`-mtriple=${triple}`, `-O${opt}`, '-filetype=obj', `${base}.ll`, '-o', `${base}.o`], { stdio: 'pipe' });
    return { path: `${base}.o`, bytes: new Uint8Array(readFileSync(`${base}.o`)) };
  }
}

/** What llvm-readobj-16 --stackmap prints from its version line on. */
export function readobjStackmap(path: string): string {
  const out = execFileSync(LLVM16.path('llvm-readobj'), ['--stackmap', path], { encoding: 'latin1' });
  const at = out.indexOf('LLVM StackMap Version:');
  return at < 0 ? '' : out.slice(at);
}

/** 32-bit values only: what llc-16 takes for i686 (ELF, Mach-O) and Windows on ARM64. */
const SIMPLE = `
declare void @llvm.experimental.stackmap(i64, i32, ...)
define i32 @f(i32 %a, i32 %b) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i32 %a, i32 %b, i32 -1, i64 4294967296)
  ret i32 %a
}
define void @g(i32 %a) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 4, i32 %a)
  ret void
}
`;

/** The stackmap-only targets: 32-bit ELF and Mach-O, and COFF for ARM64. */
export const SIMPLE_TARGETS: ReadonlyArray<{ triple: string; container: 'elf' | 'macho' | 'coff' }> = [
  { triple: 'i686-linux-gnu', container: 'elf' },
  { triple: 'i386-apple-macosx', container: 'macho' },
  { triple: 'aarch64-pc-windows-msvc', container: 'coff' },
];

/** The object llc-16 makes for `triple` from 32-bit values only. */
export function llcSimpleObject(triple: string): { path: string; bytes: Uint8Array } {
  folder ??= mkdtempSync(join(tmpdir(), 'stackmap-llc-'));
  const base = join(folder, `simple-${triple}`);
  writeFileSync(`${base}.ll`, SIMPLE);
  execFileSync(LLVM16.path('llc'), [`-mtriple=${triple}`, '-filetype=obj', `${base}.ll`, '-o', `${base}.o`], { stdio: 'pipe' });
  return { path: `${base}.o`, bytes: new Uint8Array(readFileSync(`${base}.o`)) };
}

/** A universal Mach-O file of the x86-64 and arm64 objects (llvm-lipo-16). */
export function universalObject(): { path: string; bytes: Uint8Array } {
  const x86 = llcObject('x86_64-apple-macosx', 2, true).path;
  const arm = llcObject('arm64-apple-macosx', 2, true).path;
  const out = join(folder!, 'universal.o');
  execFileSync(LLVM16.path('llvm-lipo'), ['-create', x86, arm, '-output', out], { stdio: 'pipe' });
  return { path: out, bytes: new Uint8Array(readFileSync(out)) };
}

/** Writes `bytes` to the temporary folder, for llvm-readobj-16. */
export function tempFile(name: string, bytes: Uint8Array): string {
  folder ??= mkdtempSync(join(tmpdir(), 'stackmap-llc-'));
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
}
