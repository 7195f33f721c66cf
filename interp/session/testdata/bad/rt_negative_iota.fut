-- A negative size for iota.
-- input: -3
def main (n: i64) = iota n
-- error: Error at testdata/bad/rt_negative_iota.fut:3:21:
-- error: Range 0..1..<-3 is invalid.
