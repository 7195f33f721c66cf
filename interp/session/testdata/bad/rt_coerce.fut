-- A size coercion that does not hold at run time.
-- input: [1, 2, 3, 4, 5]
def main (xs: []i32) = map (+ 1) (xs :> [6]i32)
-- error: Error at testdata/bad/rt_coerce.fut:3:35:
-- error: Value of shape [5] cannot match shape of type "[6]i32".
