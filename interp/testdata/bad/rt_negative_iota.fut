-- A negative size for iota.
-- input: -3
def main (n: i64) = iota n
-- error: Error at /prelude/array.fut:51:31:
-- error: iota: negative size -3
