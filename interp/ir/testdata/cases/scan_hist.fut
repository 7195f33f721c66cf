-- ir: (scan (+) 0 (map (\x -> x * x) xs), hist (+) 0 4 (map (\x -> x % 4) (map i64.i32 xs)) (replicate 6 1))
-- expect: soacs=2
def xs = [3i32, 1, 4, 1, 5, 9]
