; Every instruction, with forward references to values and blocks, and unnamed values.
%G = global int 0

implementation

int %ops(int %a, uint %b, float %f, double %d, bool %c, <4 x int> %v) {
entry:
	%p = alloca int, align 4
	%q = malloc int, uint 4
	%q2 = malloc [4 x sbyte]
	%q3 = alloca int, uint %b, align 16
	store int 5, int* %p
	%l = volatile load int* %p
	volatile store int %l, int* %p
	%add = add int %a, %l
	%sub = sub uint %b, 1
	%mul = mul float %f, 2.0
	%sdiv = sdiv int %a, 3
	%udiv = udiv uint %b, 3
	%fdiv = fdiv double %d, 3.0
	%srem = srem int %a, 3
	%urem = urem uint %b, 3
	%frem = frem float %f, 3.0
	%and = and int %a, 255
	%or = or uint %b, 1
	%xor = xor bool %c, true
	%shl = shl int %a, ubyte 2
	%shr = shr uint %b, ubyte 1
	%ashr = shr int %a, ubyte 1
	%eq = seteq int %a, 0
	%ne = setne uint %b, 0
	%lt = setlt float %f, 0.0
	%gt = setgt double %d, 1.0
	%le = setle int %a, 1
	%ge = setge uint %b, 1
	%cast = cast float %f to int
	%cast2 = cast int* %p to long
	%sel = select bool %c, int %a, int %add
	%gep = getelementptr { int, [2 x float] }* null, long 1, uint 1, long 1
	%gep2 = getelementptr int* %G, long 0
	%vaddv = add <4 x int> %v, %v
	%ext = extractelement <4 x int> %v, uint 0
	%ins = insertelement <4 x int> %v, int %a, uint 1
	%shuf = shufflevector <4 x int> %v, <4 x int> %ins, <4 x uint> < uint 0, uint 5, uint 2, uint 7 >
	free int* %q
	free [4 x sbyte]* %q2
	br bool %c, label %then, label %else
then:
	%fwd = add int %a, 1
	br label %join
else:
	%later = add int %a, 2
	br label %join
join:
	%phi = phi int [ %fwd, %then ], [ %later, %else ], [ %next, %join ]
	%next = add int %phi, 1
	%again = setlt int %next, 10
	br bool %again, label %join, label %tail
tail:
	add int %phi, 1
	add int %0, 2
	switch int %phi, label %out [
		int 1, label %one
		int 2, label %out
	]
one:
	%iv = invoke int %ops2( int 1 )
			to label %out unwind label %bad
out:
	ret int %1
bad:
	unwind
}

int %ops2(int %x) {
	%va = alloca sbyte*
	%ap = load sbyte** %va
	%next = va_arg sbyte* %ap, int
	%asm = call int asm sideeffect "movl $1, $0", "=r,r"( int 1 )
	%asm2 = call int asm "nop", "=r"( )
	%bb = getelementptr [2 x int]* null, int 0, int %x
	unreachable
}

void %unnamedblocks() {
	br label %2
	ret void
	br label %1
}
