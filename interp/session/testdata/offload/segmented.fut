-- Histograms and filters inside maps on the device: a map over few wide
-- rows whose body is a histogram is one histogram over all the rows'
-- elements, and a filter in such a map is segmented operations (a scan of
-- the flags per row, the rows' counts and starts, one scatter of the kept
-- elements), then a slice per row (gpu/flatten/segmented.go); many rows
-- are a thread each. TestOffloadedPrograms checks that every case ran on
-- OpenCL, and flatten's tests which kernels the plans have.
-- ==
-- entry: per_row
-- input { 3i32 } output { [[-500i32, 9305i32, 14610i32, 4866i32, 17352i32, 21980i32, 25530i32, 23835i32, 22140i32, 16156i32, -500i32, 8677i32, 14860i32, 4966i32, 23136i32, 27475i32], [-6920i32, -13796i32, -15152i32, -3977i32, 0i32, 0i32, 23184i32, 17070i32, 13680i32, 12761i32, -7070i32, -17245i32, -18940i32, 0i32, 0i32, 5935i32], [-12100i32, -13795i32, -12592i32, -17685i32, -5156i32, -2500i32, -5070i32, -818i32, -8460i32, -10155i32, -9680i32, -14045i32, -15740i32, -17435i32, -5356i32, -3125i32], [-8900i32, 3067i32, 4528i32, 3715i32, 2020i32, 325i32, -1370i32, -2652i32, -5260i32, -6955i32, -8650i32, 2917i32, 5660i32, 3965i32, 1616i32, 75i32], [12500i32, 10805i32, 9110i32, 5732i32, 5220i32, 3525i32, 1830i32, 135i32, 15216i32, 14445i32, 12750i32, 8644i32, 8860i32, 7165i32, 5470i32, 3775i32]] }
-- entry: per_row_f32
-- input { 3i32 } output { [[0.59375f32, 1.75f32, 3.1953125f32, 4.859375f32, 5.875f32, 0.0f32], [0.46875f32, 2.015625f32, 3.2109375f32, 4.9140625f32, 5.4453125f32, 0.0f32], [0.6484375f32, 1.8203125f32, 3.1640625f32, 4.5703125f32, 5.3984375f32, 0.0f32], [0.6640625f32, 1.8203125f32, 3.515625f32, 3.8359375f32, 6.2109375f32, 0.0f32]] }
-- entry: row_dest
-- input { 3i32 } output { [[696i32, 21373i32, 15839i32, 17709i32, 19914i32, 18084i32, 10755i32, 28321i32], [-5108i32, -15874i32, -10675i32, -15449i32, -14238i32, -17267i32, -14906i32, -17427i32], [-405i32, -7035i32, -1680i32, -3376i32, -3047i32, -3051i32, -330i32, -7385i32]] }
-- entry: with_index
-- input { 3i32 } output { [[40488i32, 11705i32, 39493i32, 4567i32, 0i32], [-47140i32, -48978i32, -61700i32, -7298i32, -40360i32], [-39840i32, -5676i32, -7830i32, -16875i32, -29670i32], [59840i32, 40752i32, 30720i32, 14544i32, -1280i32]] }
-- entry: maxh
-- input { 3i32 } output { [[5734i32, 5834i32, 5934i32, 5395i32, 5684i32, 5784i32, 5884i32], [-1943i32, -1843i32, 5646i32, 5935i32, -1993i32, -1893i32, 5596i32], [-386i32, -286i32, -186i32, -86i32, -436i32, -336i32, -236i32]] }
-- entry: many_rows
-- input { 3i32 } output { 2407513i32 }
-- entry: count_first
-- input { 3i32 } output { [87i64, 42i64, 2i64, 44i64, 91i64, 100i64] [5634i32, 5935i32, 5897i32, 1271i32, 3028i32, 4785i32] }
-- entry: hash_kept
-- input { 3i32 } output { [948627028i32, 64870829i32, 1171585670i32, -3654191i32, 1126773777i32] }
-- entry: pairs
-- input { 3i32 } output { [-98041i32, 69804i32, 42733i32, -18576i32] }
-- entry: none_kept
-- input { 3i32 } output { [0i64, 0i64, 0i64] }
-- entry: with_iota
-- input { 3i32 } output { [1i64, 3i64, 3i64, 1i64, 3i64, 3i64, 1i64, 3i64, 3i64, 1i64] }
-- entry: sliced
-- input { 3i32 } output { [275037.0f32, 67874.0f32, 0.0f32, 22344.0f32] }
-- entry: two_filters
-- input { 3i32 } output { [24i64, -48i64, -50i64, 38i64, 50i64, 50i64, 0i64] [-3889i32, -3988i32, -2231i32, -474i32, 0i32, 0i32, -3709i32] }
-- entry: fails
-- input { 3i32 } error: Index \[100\] out of bounds

def gen (m: i64) (n: i64) (s: i32) : [m][n]i32 =
  tabulate_2d m n (\i j -> i32.i64 ((i * 7919 + j * 104729) % 1000003) * (s + 1) % 9973 - 4000)

-- one histogram per row, its destination made in the row
entry per_row (s: i32) : [][]i32 =
  map (\xs -> hist (+) 0 16 (map (\x -> i64.i32 (x % 20)) xs) xs) (gen 5 100 s)

entry per_row_f32 (s: i32) : [][]f32 =
  map (\xs -> hist (+) 0 6 (map (\x -> i64.f32 (x * 10)) xs) xs)
      (map (map (\x -> f32.i32 (x % 64) / 128)) (gen 4 64 s))

-- the destination is a row of an array the map goes over
entry row_dest (s: i32) : [][8]i32 =
  map2 (\xs ds -> reduce_by_index (copy ds) (+) 0 (map (\x -> i64.i32 (x & 7)) xs) xs) (gen 3 50 s) (gen 3 8 (s + 1))

-- the row's index and a value computed from it
entry with_index (s: i32) : [][]i32 =
  let xss = gen 4 40 s in
  map2 (\i xs -> let t = i32.i64 i + 1 in hist (+) 0 5 (map (\x -> i64.i32 ((x + t) % 5)) xs) (map (*t) xs)) (indices xss) xss

-- max, with buckets below 0 skipped
entry maxh (s: i32) : [][]i32 =
  map (\xs -> hist i32.max i32.lowest 7 (map (\x -> i64.i32 (x % 9) - 1) xs) xs) (gen 3 60 s)

-- many rows: one thread per row (the rule), checked all the same
entry many_rows (s: i32) : i32 =
  let h = map (\xs -> hist (+) 0 4 (map (\x -> i64.i32 (x & 3)) xs) xs) (gen 20000 40 s)
  in i32.sum (map (\r -> r[0] - r[3]) h)

-- filters: the count and the first kept element of each row
entry count_first (s: i32) : ([]i64, []i32) =
  unzip (map (\xs -> let ys = filter (> 0) xs
                     in (length ys, if length ys > 0 then ys[0] else -1)) (gen 6 100 s))

-- a loop over what the filter kept, in the row's thread
entry hash_kept (s: i32) : []i32 =
  map (\xs -> let ys = filter (\x -> x % 3 == 0) xs
              in loop h = 7 for y in ys do h * 31 + y) (gen 5 80 s)

-- two kept values and the row's index
entry pairs (s: i32) : []i32 =
  let xss = gen 4 64 s
  in map2 (\i xs -> let (as, bs) = unzip (filter (\(a, _) -> a % 2 == i32.i64 i % 2) (zip xs (map (* 2) xs)))
                    in i32.sum as - i32.sum bs + i32.i64 (length as)) (indices xss) xss

-- nothing kept in some rows
entry none_kept (s: i32) : []i64 =
  map (\xs -> length (filter (> 4000 * (s + 1))  xs)) (gen 3 40 s)

entry with_iota (s: i32) : []i64 =
  map (\r -> let ys = filter (\j -> (r * j + i64.i32 s) % 3 == 0) (iota 100) in if length ys > 1 then ys[1] else -1) (iota 10)

entry sliced (s: i32) : []f32 =
  map (\xs -> let zs = xs[10:] in f32.sum (map f32.i32 (filter (> 0) zs))) (gen 4 70 s)

entry two_filters (s: i32) : ([]i64, []i32) = unzip <|
  map (\xs -> let a = filter (> 0) xs
              let b = filter (< 0) xs
              in (length a - length b, if length b > 0 then b[length b - 1] else 0)) (gen 7 50 s)

entry fails (s: i32) : []i64 =
  map (\xs -> length (filter (\x -> xs[i64.i32 (x % 200) + 100] > 0) xs)) (gen 3 100 s)
