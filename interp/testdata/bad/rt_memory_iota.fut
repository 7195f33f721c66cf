-- An allocation over the memory limit (1 GiB in the test) by iota, whose
-- result a map and a reduce consume.
-- input: 2000000000
def main (n: i64) = reduce (+) 0 (map (* 2) (iota n))
-- error: Error at testdata/bad/rt_memory_iota.fut:4:46:
-- error: allocating an array of 2000000000 elements (16000000000 bytes) exceeds the memory limit of 1073741824 bytes
