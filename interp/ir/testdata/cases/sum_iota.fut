-- ir: reduce (+) 0 (map (\x -> x * 2 + 1) (iota n))
-- expect: soacs=1
def n : i64 = 1000
