; What LLVM 1.9's parser still took from older releases and upgraded.
%x = uninitialized global int

implementation

int %old(int %a, uint %b, float %f) begin
	%d = div int %a, 2
	%ud = div uint %b, 2
	%fd = div float %f, 2.0
	%r = rem int %a, 2
	%n = not int %a
	%nb = not bool true
	%s = add int %d, %r
	%i = invoke int %old( int 1, uint 2, float 3.0 ) to label %ok except label %bad
ok:
	ret int %s
bad:
	unwind
end
