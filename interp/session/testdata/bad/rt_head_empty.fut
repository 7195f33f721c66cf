-- The first element of an empty array.
-- input: empty([0]i32)
def main (xs: []i32) = head xs
-- error: Error at testdata/bad/rt_head_empty.fut:3:24:
-- error: Index [0] out of bounds for array of shape [0].
