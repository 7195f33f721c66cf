-- concat charges the elements of its result; its length is part of that
-- rule, also where it is the changing size of a loop's array.
-- ==
-- input { 3 [1, 2] }
-- output { 16i64 }
-- input { 0 [1, 2] }
-- output { 2i64 }

entry main (n: i32) (xs: []i32) : i64 =
  let ys = loop ys = xs for _i < n do ys ++ ys
  in length ys
