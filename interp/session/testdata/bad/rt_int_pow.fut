-- An integer power with a negative exponent.
-- input: -2
def main (x: i32) = 2 ** x
-- error: Error at testdata/bad/rt_int_pow.fut:3:23:
-- error: negative exponent in integer power
