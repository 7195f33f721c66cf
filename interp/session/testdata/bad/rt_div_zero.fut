-- Division by zero.
-- input: 0
def main (x: i32) = 10 / x
-- error: Error at testdata/bad/rt_div_zero.fut:3:24:
-- error: division by zero
