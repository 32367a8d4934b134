; Every constant expression.
%A = global [4 x int] [ int 1, int 2, int 3, int 4 ]
%S = global { int, sbyte* } { int 1, sbyte* null }
%e1 = global int* getelementptr ([4 x int]* %A, long 0, long 2)
%e2 = global sbyte** getelementptr ({ int, sbyte* }* %S, long 0, uint 1)
%e3 = global long cast (int* getelementptr ([4 x int]* %A, long 0, long 1) to long)
%e4 = global long add (long cast (int* %e5 to long), long 8)
%e5 = global int 0
%e6 = global bool setlt (long cast (int* %e5 to long), long cast (int* %e7 to long))
%e7 = global int 0
%e8 = global long select (bool setlt (long cast (int* %e5 to long), long 0), long 1, long 2)
%e9 = global long shl (long cast (int* %e5 to long), ubyte 1)
%eA = global long shr (long cast (int* %e5 to long), ubyte 1)
%eB = global long sub (long cast (int* %e5 to long), long cast (int* %e7 to long))
%eC = global long mul (long cast (int* %e5 to long), long 3)
%eD = global long and (long cast (int* %e5 to long), long 7)
%eE = global long or (long cast (int* %e5 to long), long 7)
%eF = global long xor (long cast (int* %e5 to long), long 7)
%eG = global long div (long cast (int* %e5 to long), long 7)
%eH = global ulong rem (ulong cast (int* %e5 to ulong), ulong 7)
%eI = global bool seteq (int* %e5, int* %e7)
%eJ = global bool setne (int* %e5, int* null)
%eK = global bool setgt (long cast (int* %e5 to long), long 0)
%eL = global bool setge (long cast (int* %e5 to long), long 0)
%eM = global bool setle (long cast (int* %e5 to long), long 0)
%eN = global int extractelement (<2 x int> < int cast (int* %e5 to int), int 1 >, uint 0)
%eO = global <2 x int> insertelement (<2 x int> < int 0, int cast (int* %e5 to int) >, int 1, uint 0)
%eP = global <2 x int> shufflevector (<2 x int> < int cast (int* %e5 to int), int 2 >, <2 x int> < int 3, int 4 >, <2 x uint> < uint 0, uint 3 >)

implementation
