-- ir: (reduce_stream (+) (\_ c -> reduce (+) 0 c) (map (\x -> x * x) xs), map_stream (\k (c: [k]i64) -> map (+1) c) (map (*2) xs))
-- expect: soacs=4
-- A map fused into the streams' folds, and then into the folds' own SOACs.
def xs = map (\i -> i % 7) (iota 3000)
