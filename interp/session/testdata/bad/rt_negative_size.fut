-- A negative size for replicate.
-- input: -5
def main (n: i64) = replicate n 0i32
-- error: Error at testdata/bad/rt_negative_size.fut:3:21:
-- error: replicate: negative size -5
