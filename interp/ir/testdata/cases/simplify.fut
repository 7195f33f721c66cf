-- ir: let k = 2 * 3 + 1 let y = k in map (\x -> x * f64.i64 y + f64.sqrt c + f64.sqrt c) xs
-- expect: soacs=1
def c = 16.0
def xs = [1.0, 2.0]
