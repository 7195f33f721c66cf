-- An assertion that fails.
-- input: -1
def main (x: i32) = assert (x >= 0) (x + 1)
-- error: Error at testdata/bad/rt_assert.fut:3:21:
-- error: Assertion is false: x >= 0
