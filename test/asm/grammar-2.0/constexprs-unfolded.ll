; Folds r36867 made that the assembler does not (yet): a cast of a cast (foldConstantCastPair),
; and a comparison decided by the relation of a global and a getelementptr over it.
@a = global i32 0
@b = global i32 ptrtoint (i8* bitcast (i32* @a to i8*) to i32)
@f = global i1 icmp ult (i32* @a, i32* getelementptr (i32* @a, i32 1))
