-- An index out of bounds.
-- input: [1, 2, 3] 7
def main (xs: []i32) (i: i64) = xs[i]
-- error: Error at testdata/bad/rt_index.fut:3:36:
-- error: Index [7] out of bounds for array of shape [3].
