-- An error in a function called from main names the place in the function.
-- input: 5
def get (xs: []i32) (i: i64) = xs[i]
def main (n: i64) = get (iota n |> map i32.i64) (n + 1)
-- error: Error at testdata/bad/rt_in_function.fut:3:35:
-- error: Index [6] out of bounds for array of shape [5].
