-- A slice out of bounds.
-- input: [1, 2, 3]
def main (xs: []i32) = xs[2:5]
-- error: Error at testdata/bad/rt_slice.fut:3:27:
-- error: Index [2:5] out of bounds for array of shape [3].
