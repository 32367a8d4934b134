/**
 * Hand-made LLVM 1.x modules with one of each constant expression LLVM 17–22 removed (over
 * addresses, so that LLVM 1.x's folder left them as expressions), shared by
 * llvm-versions.test.ts and llvm-versions-oracle.test.ts.
 */

/** A function using each removed expression as an operand, one in a phi, and an integer cast to a pointer. */
export const HAND_MADE = `
%g = global int 0
%h = global int 1
%lit = global sbyte* cast (int -12345678 to sbyte*)
declare void %use(long)
declare void %useu(ulong)
declare void %usef(float)
declare void %usedouble(double)
declare void %useb(bool)
declare void %usei(int)

int %main() {
entry:
  call void %use(long cast (int cast (int* %g to int) to long))
  call void %use(long cast (uint cast (int* %g to uint) to long))
  call void %use(long mul (long cast (int* %g to long), long 3))
  call void %use(long and (long cast (int* %g to long), long 3))
  call void %use(long or (long cast (int* %g to long), long 3))
  call void %use(long shl (long cast (int* %g to long), ubyte 3))
  call void %use(long shr (long cast (int* %g to long), ubyte 3))
  call void %use(long cast (ulong shr (ulong cast (int* %g to ulong), ubyte 3) to long))
  call void %usef(float cast (double cast (long cast (int* %g to long) to double) to float))
  call void %usedouble(double cast (float cast (ulong cast (int* %g to ulong) to float) to double))
  call void %use(long cast (double cast (long cast (int* %g to long) to double) to long))
  call void %useu(ulong cast (double cast (long cast (int* %g to long) to double) to ulong))
  call void %useb(bool setlt (int* %g, int* %h))
  call void %useb(bool setgt (double cast (long cast (int* %g to long) to double), double 1.0))
  call void %usei(int select (bool setlt (int* %g, int* %h), int 1, int 2))
  call void %use(long cast (int* getelementptr (int* %g, uint cast (int* %h to uint)) to long))
  br label %next
next:
  %p = phi long [ cast (int cast (int* %g to int) to long), %entry ]
  ret int 0
}
`;

/** An initializer that cannot fold: its 1.x spelling and type, and what it would be in LLVM 16. */
export interface RefusedInitializer {
  readonly oldType: string;
  readonly old: string;
  readonly modernType: string;
  readonly modern: string;
}

/** Globals whose initializer LLVM 22 cannot take and the upgrade cannot fold (a pointer's bits are known only at link time). */
export const REFUSED_GLOBALS: ReadonlyMap<string, RefusedInitializer> = new Map([
  ['@ext', { oldType: 'long', old: 'cast (int cast (int* %g to int) to long)', modernType: 'i64', modern: 'sext (i32 ptrtoint (ptr @g to i32) to i64)' }],
  ['@masked', { oldType: 'long', old: 'and (long cast (int* %g to long), long 7)', modernType: 'i64', modern: 'and (i64 ptrtoint (ptr @g to i64), i64 7)' }],
  ['@scaled', { oldType: 'long', old: 'mul (long cast (int* %g to long), long 3)', modernType: 'i64', modern: 'mul (i64 ptrtoint (ptr @g to i64), i64 3)' }],
  ['@less', { oldType: 'bool', old: 'setlt (int* %g, int* %h)', modernType: 'i1', modern: 'icmp ult (ptr @g, ptr @h)' }],
]);
