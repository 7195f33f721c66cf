-- The first element of an empty array.
-- input: empty([0]i32)
def main (xs: []i32) = head xs
-- error: Error at /prelude/array.fut:14:33:
-- error: Index [0] out of bounds for array of shape [0].
