; A fold r36867 made that the assembler does not (yet): a comparison decided by LLVM's relation of
; a global and a getelementptr over it (evaluateICmpRelation), kept as written.
@a = global i32 0
@f = global i1 icmp ult (i32* @a, i32* getelementptr (i32* @a, i32 1))
