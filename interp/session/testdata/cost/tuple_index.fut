-- Indexing an array of tuples or records is one step in the source; the
-- IR keeps one array per field, and reads the first field's with a step,
-- the others implicitly.
-- ==
-- input { [1, 2, 3] [1.5, 2.5, 3.5] [true, false, true] 1i64 }
-- output { 2 2.5 false }

entry main (a: []i32) (b: []f64) (c: []bool) (i: i64) : (i32, f64, bool) =
  let rs = map3 (\x y z -> {x, y, z}) a b c
  let r = rs[i]
  in (r.x, r.y, r.z)
