-- Remainder by zero, in u8.
-- input: 0u8
def main (x: u8) = 10 %% x
-- error: Error at testdata/bad/rt_mod_zero.fut:3:23:
-- error: division by zero
