-- | Least-significant-bit-first radix sort of unsigned 32-bit keys, one
-- bit per pass; each pass is a stable partition by that bit.
--
-- Cost growth for n keys of b bits: work Θ(b·n), depth Θ(b·log n)
-- (each pass is a scan), space Θ(n).
--
-- cost of main xs
--   where xs = map (\i -> u32.i64 ((i * 7919) % 10007)) (iota n)
--   for n = 2^6..2^10
--   as written: W n, D log n, S1 n, S∞ n
-- ==
-- input { [5u32, 3u32, 9u32, 1u32, 3u32, 0u32] }
-- output { [0u32, 1u32, 3u32, 3u32, 5u32, 9u32] }
-- input { empty([0]u32) }
-- output { empty([0]u32) }
-- input { [4294967295u32, 0u32, 2147483648u32] }
-- output { [0u32, 2147483648u32, 4294967295u32] }

def radix_pass [n] (bit: i32) (xs: [n]u32) : [n]u32 =
  let is_one x = (x >> u32.i32 bit) & 1 == 1
  let (zeros, ones) = partition (\x -> !(is_one x)) xs
  in (zeros ++ ones) :> [n]u32

entry main [n] (xs: [n]u32) : [n]u32 =
  loop xs for bit < 32 do radix_pass bit xs
