-- An allocation over the memory limit (1 GiB in the test) by iota, whose
-- result a map and a reduce consume.
-- input: 2000000000
def main (n: i64) = reduce (+) 0 (map (* 2) (iota n))
-- error: Error at testdata/bad/rt_memory_iota.fut:4:46:
-- error: out of memory: an array of 2000000000 elements needs 15 GiB, the limit is 1 GiB (--max-memory)
