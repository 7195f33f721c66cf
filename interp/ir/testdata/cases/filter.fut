-- ir: reduce (+) 0 (map (\x -> x * 2) (filter (> 1) (map (*3) xs)))
-- expect: soacs=2
-- The map before a filter fuses into the filter; the map after it into
-- the reduction (a filter is never a producer: its size is known only
-- once it has run).
def xs = [3i32, -1, 4, 1, 5, -9, 2, 6]
