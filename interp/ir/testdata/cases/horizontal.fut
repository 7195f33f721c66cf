-- ir: (reduce (+) 0 xs, reduce f64.max (-f64.inf) xs, map (\x -> x / 2) xs)
-- expect: soacs=1
def xs = [1.5, -2.0, 7.25, 3.0]
