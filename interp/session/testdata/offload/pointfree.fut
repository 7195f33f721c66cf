-- Entry points defined without parameters, as a function value: with
-- size parameters (a size-polymorphic constant, whose sizes the
-- arguments fix) and without.
-- ==
-- entry: sums
-- input { [1f32, 2f32] [3f32, 4f32] } output { [4f32, 6f32] }
-- input { empty([0]f32) empty([0]f32) } output { empty([0]f32) }

-- ==
-- entry: scaled
-- input { 2f32 [1f32, 2f32, 3f32] } output { [2f32, 4f32, 6f32] }

def add [n] (xs: [n]f32) (ys: [n]f32) : [n]f32 = map2 (+) xs ys

entry sums [n] : [n]f32 -> [n]f32 -> [n]f32 = add

entry scaled : f32 -> []f32 -> []f32 = \a xs -> map (* a) xs
