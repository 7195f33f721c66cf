-- ir: scatter (replicate 5 0) (map (\i -> 4 - i) (iota 5)) (map (\i -> i * 10) (iota 5))
-- expect: soacs=1
def unused = 0
