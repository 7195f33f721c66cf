-- A negative size for replicate.
-- input: -5
def main (n: i64) = replicate n 0i32
-- error: Error at /prelude/array.fut:60:44:
-- error: replicate: negative size -5
