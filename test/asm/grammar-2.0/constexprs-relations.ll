; Comparisons r36867 decided by the relation of two constants (evaluateICmpRelation): a global
; and a getelementptr over it, two getelementptrs over one global, casts of globals against null.
@a = global [4 x i32] zeroinitializer
@b = global i32 0
@w = extern_weak global i32
@f = global i1 icmp ult (i32* @b, i32* getelementptr (i32* @b, i32 1))
@g = global i1 icmp slt (i32* getelementptr ([4 x i32]* @a, i32 0, i32 1), i32* getelementptr ([4 x i32]* @a, i32 0, i32 3))
@h = global i1 icmp ne (i64 0, i64 ptrtoint (i32* @b to i64))
@i = global i1 icmp uge (i32* getelementptr (i32* @w, i32 1), i32* null)
@j = global i1 icmp eq (i32* getelementptr (i32* null, i32 0), i32* null)
@k = global i1 icmp ne (i8* bitcast (i32* @b to i8*), i8* null)
@l = global i1 icmp ugt (i32* getelementptr (i32* @b, i32 1), i32* @b)
@m = global i1 icmp eq (i32* getelementptr (i32* @b, i32 1), i32* @w)
