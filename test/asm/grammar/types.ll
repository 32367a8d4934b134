; Types: named, numbered, recursive, up-references, forward references, opaque, packed, functions.
%list = type { %list*, int }
%pair = type { \2*, float }
%opq = type opaque
%fwd = type { %later* }
%later = type { int, [4 x %later*] }
type { int, uint }
%same1 = type { int }
%same2 = type { int }
%fn = type int (int, sbyte*, ...)
%vec = type <4 x float>
%nest = type [2 x [3 x { short, ushort, ubyte, sbyte, bool, ulong, long, double }]]

%a = global %list* null
%b = global %pair* null
%c = external global %opq
%d = global %fwd* null
%e = global { int, uint }* null
%f = global %same1 { int 1 }
%g = global %same2 { int 2 }
%h = global %fn* null
%i = global %vec zeroinitializer
%j = global %nest zeroinitializer
%k = global %0* null

implementation
