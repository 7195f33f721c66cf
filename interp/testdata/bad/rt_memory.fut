-- An allocation over the memory limit (1 GiB in the test).
-- input: 40000000000
def main (n: i64) = length (replicate n 1u8)
-- error: Error at testdata/bad/rt_memory.fut:3:29:
-- error: allocating an array of 40000000000 elements (40000000000 bytes) exceeds the memory limit of 1073741824 bytes
