-- ir: map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
-- expect: soacs=3
def a = [[1, 2, 3], [4, 5, 6]]
def b = [[1, 2], [3, 4], [5, 6]]
