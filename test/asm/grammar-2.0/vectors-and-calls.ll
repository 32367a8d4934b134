; Vectors, varargs (C convention only, as the verifier required), calling conventions, attributes on calls, inline asm, aliases (not of aliases: r36867's llvm-dis asserted on one).
%v4 = type <4 x i32>
@base = global i32 0
@a1 = alias i32* @base
@a2 = alias internal i32* @base

declare x86_stdcallcc void @std(i32 inreg)
declare void @cold(i32* sret, ...)
declare extern_weak void @maybe()
declare dllimport void @imported()

define dllexport i32 @vec(<4 x i32> %v, <4 x float> %f) noreturn {
entry:
	%e = extractelement <4 x i32> %v, i32 1
	%i = insertelement <4 x i32> %v, i32 %e, i32 0
	%s = shufflevector <4 x i32> %i, <4 x i32> %v, <4 x i32> < i32 0, i32 5, i32 2, i32 7 >
	%x = xor <4 x i32> %s, < i32 -1, i32 -1, i32 -1, i32 -1 >
	%fa = add <4 x float> %f, %f
	call x86_stdcallcc void @std( i32 %e inreg )
	call void (i32* sret, ...)* @cold( i32* null sret, i8 2, double 3.0 )
	call void asm sideeffect "nop", "~{memory}"( )
	%r = call i32 asm "mov $1, $0", "=r,r"( i32 %e )
	%b = load i32* @a2
	%ap = alloca i8*
	%va = va_arg i8** %ap, i32
	call void @maybe( )
	call void @imported( )
	%y = call i32 @cc42( i32 %b ) nounwind
	ret i32 %y
}

define linkonce cc42 i32 @cc42(i32 %x) nounwind section "text.cc" align 16 {
	ret i32 %x
}

define weak hidden i64 @wide() {
	ret i64 -9223372036854775808
}

define protected i17 @odd(i17 %x) {
	%y = mul i17 %x, 65535
	%z = icmp sge i17 %y, -65536
	%w = zext i1 %z to i17
	ret i17 %w
}
