-- The cases of a match differ in type.
def main (x: i32) = match x case 0 -> true case _ -> 1
-- error: testdata/bad/ty_match_types.fut:2:54: The branches of this match differ in type.
-- error: Expected: bool
-- error: Actual:   (a numeric type)
-- error: Cannot unify "bool" with a numeric type: it is not one of the types allowed here.
