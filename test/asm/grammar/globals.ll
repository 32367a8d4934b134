; Globals: linkages, constants, sections, alignment, initializers of every kind.
target endian = big
target pointersize = 64
target triple = "sparcv9-sun-solaris2.8"
deplibs = [ "c", "m", "crtend" ]
module asm "  .text"
module asm "  .align 4"

%g1 = global int 5, section "data.g1", align 16
%g2 = internal constant [4 x sbyte] c"a\0Ab\00"
%g3 = weak global long -9223372036854775808
%g4 = linkonce global ulong 18446744073709551615
%g5 = appending global [2 x int*] [ int* %g1, int* null ]
%g6 = global int* getelementptr ([3 x int]* %arr, long 0, long 1)
%arr = global [3 x int] [ int 1, int 2, int 3 ]
%g7 = global long cast (int* %g1 to long)
%g8 = global <4 x float> < float 1.0, float -2.5, float 0x3FF8000000000000, float 4.0 >
%g9 = external global int
%gA = uninitialized global short
%gB = global bool true
%gC = global double 1.0e10
%gD = global float 0x36A0000000000000
%gE = global { sbyte, ushort, { ubyte } } { sbyte -128, ushort 65535, { ubyte } { ubyte 255 } }
%gF = constant [0 x int] zeroinitializer
%gG = global [2 x int] [ int 0, int 0 ]
%gH = dllexport global int 3
%gI = dllimport global int
%gJ = extern_weak global int
"quoted name" = global int 7
%gK = global int* "quoted name"
global int 9

implementation
