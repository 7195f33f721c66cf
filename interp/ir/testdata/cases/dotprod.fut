-- ir: reduce (+) 0 (map2 (*) xs ys)
-- expect: soacs=1
def xs = [1.0, 2.0, 3.0]
def ys = [4.0, 5.0, 6.0]
