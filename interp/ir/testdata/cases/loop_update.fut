-- ir: loop a = replicate n 0 for i < n do a with [i] = i * i
-- expect: soacs=0
def n : i64 = 10
