-- Programs that fail at run time, each at one source position, on every
-- path: the reference evaluator, the fused core IR and OpenCL must name
-- the same file:line:col and message (errors_test.go in interp runs them;
-- only one element fails, so that the message is the same whichever
-- thread of a kernel finds it first).

-- an index in a map (a kernel's read)
entry map_index (xs: []i32) (k: i64) : []i32 =
  map (\i -> xs[i + k]) (iota (length xs))

-- an index of a row, in a map over rows
entry row_index (xss: [][]i32) (j: i64) : []i32 =
  map (\row -> row[j]) xss

-- a row index then an element index, written in two steps
entry two_steps (xss: [][]i32) (i: i64) : []i32 =
  map (\j -> xss[i][j]) (iota 2)

-- a division by zero in one element
entry map_div (xs: []i32) : []i32 =
  map (\x -> 100 / (x - 3)) xs

-- an integer power with a negative exponent
entry map_pow (xs: []i32) : []i32 =
  map (\x -> 2 ** (x - 3)) xs

-- an assertion inside a map
entry map_assert (xs: []i32) : []i32 =
  map (\x -> assert (x != 3) (x * 2)) xs

-- an update inside a map, out of bounds
entry map_update (xss: [][]i32) (j: i64) : [][]i32 =
  map (\row -> copy row with [j] = 0) xss

-- an index of a reversed array
entry rev_index (xs: []i32) (k: i64) : []i32 =
  let ys = reverse xs
  in map (\i -> ys[i * k]) (iota (length xs))

-- an index of a transposed array
entry tr_index (xss: [][]i32) (k: i64) : []i32 =
  let t = transpose xss
  in map (\i -> t[i, k]) (iota (length t))

-- an error inside a prelude function: reported at the call
entry prelude_call (xss: [][]i32) (k: i64) : []i32 =
  map (\row -> head (drop k row)) xss

-- an index in a loop inside a map
entry loop_index (xs: []i32) (n: i64) : []i32 =
  map (\x -> loop acc = x for i < n do acc + xs[i]) xs

-- an index of a kernel's result on the host
entry host_index (xs: []i32) (k: i64) : i32 =
  let ys = map (+1) xs
  in ys[k] + 1
