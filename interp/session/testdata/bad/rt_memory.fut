-- An allocation over the memory limit (1 GiB in the test).
-- input: 40000000000
def main (n: i64) = length (replicate n 1u8)
-- error: Error at testdata/bad/rt_memory.fut:3:29:
-- error: out of memory: an array of 40000000000 elements needs 37 GiB, the limit is 1 GiB (--max-memory)
