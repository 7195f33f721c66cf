package flatten_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/gpu/flatten"
	"fut/gpu/kernel"
	"fut/interp/session"
)

var testSession *session.Session

// session is one session for every test, with a few arrays defined at
// the top level (so that they reach the kernels as uploaded arguments).
func newSession(t *testing.T) *session.Session {
	t.Helper()
	if testSession != nil {
		return testSession
	}
	s, err := session.NewSession(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{
		`def xs = map (\i -> f32.i64 i * 0.25 - 3) (iota 1000)`,
		`def ys = map (\i -> f32.i64 (i % 7) + 0.5) (iota 1000)`,
		`def is = [3i32, -1, 4, 1, -5, 9, 2, -6]`,
		`def a = 2.5f32`,
		`def m = map (\i -> map (\j -> f32.i64 ((i * j) % 11) - 5) (iota 50)) (iota 40)`,
		`def v = map (\j -> f32.i64 j / 10) (iota 50)`,
	} {
		if _, err := s.Enter(context.Background(), d); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
	}
	testSession = s
	return s
}

// device is the offload path's device, or a skip.
func device(t *testing.T) {
	t.Helper()
	d, err := session.OffloadDevice()
	if err != nil {
		t.Skipf("no OpenCL device here (%v): install pocl-opencl-icd to run these tests", err)
	}
	t.Logf("device: %s (%s)", d.Name(), d.Info.Platform.Name)
}

func shapes(p *flatten.Plan) string {
	var ss []string
	for _, k := range p.Kernels() {
		ss = append(ss, kernel.ShapeName(k.Shape))
	}
	return strings.Join(ss, ",")
}

// cases are expressions with the kernels their plans must have.
var cases = []struct {
	name, src, kernels string
}{
	{"map_iota", `map (\x -> x*2+1) (iota 100000)`, "map"},
	{"map_lit_f32", `map (\x -> x*2+1) [1f32, 2.5, -3, 0.125]`, "map"},
	{"map_lit_i32", `map (\x -> x*2+1) [7i32, -2, 0, 1000]`, "map"},
	{"map_def_i32", `map (\x -> x / 2 + x % 3) is`, "map"},
	{"sum_map2", `reduce (+) 0 (map2 (*) xs ys)`, "reduce"},
	{"dotprod", `let dot [n] (a: [n]f32) (b: [n]f32) = reduce (+) 0 (map2 (*) a b) in dot xs ys`, "reduce"},
	{"logsum", `reduce (+) 0 (map (\i -> f32.log (f32.i64 i)) (1...1000000))`, "reduce"},
	{"saxpy", `map2 (\x y -> a*x + y) xs ys`, "map"},
	{"mandelbrot", `map (\i -> let c = f32.i64 i / 64 - 1.5 in (loop (z, k) = (0f32, 0i32) while k < 100 && z*z < 4 do (z*z + c, k+1)).1) (iota 256)`, "map"},
	{"mandel2d", `map (\p -> let (cr, ci) = (f32.i64 (p % 32) / 16 - 1.5, f32.i64 (p / 32) / 16 - 1) in (loop (x, y, k) = (0f32, 0f32, 0i32) while k < 50 && x*x + y*y < 4 do (x*x - y*y + cr, 2*x*y + ci, k+1)).2) (iota 1024)`, "map"},
	{"scan_iota", `scan (+) 0 (iota 100000)`, "scan"},
	{"scan_f32", `scan (+) 0 xs`, "scan"},
	{"max_min", `(reduce i32.max i32.lowest is, reduce i32.min i32.highest is)`, "reduce"},
	{"for_loop", `map (\x -> loop acc = 0f32 for j < 10 do acc + x * f32.i64 j) xs`, "map"},
	{"if_inside", `map (\x -> if x > 0 then x * 2 else -x) is`, "map"},
	{"index_top", `map (\i -> xs[i] + ys[999 - i]) (iota 1000)`, "map"},
	{"map_then_reduce", `let zs = map (\x -> x * x) xs in reduce (+) 0 zs + zs[3]`, "map,reduce,map"},
	{"two_kernels", `let zs = scan (+) 0 ys in map (\z -> z * 0.5) zs`, "scan,map"},
	{"scatter", `scatter (replicate 10 0i32) [1, 3, 20, -1] [5, 6, 7, 8]`, "map,scatter"},
	{"nest_lit", `map (\r -> map (\x -> x * 2 + 1) r) [[1, 2, 3], [4, 5, 6i32]]`, "map"},
	{"nest_iota", `map (\i -> map (\j -> f32.i64 (i * 10 + j) * a) (iota 7)) (iota 5)`, "map"},
	{"nest_3d", `map (\i -> map (\j -> map (\k -> i * 100 + j * 10 + k) (iota 4)) (iota 3)) (iota 2)`, "map"},
	{"nest_rows", `map (\r -> map (\x -> x * a) r) m`, "map"},
	{"matvec", `map (\row -> reduce (+) 0 (map2 (*) row v)) m`, "reduce"},
	{"matmul_mmt", `map (\r -> map (\c -> reduce (+) 0 (map2 (*) r c)) m) m`, "reduce"},
	{"matmul_transpose", `let mt = transpose m in map (\r -> map (\c -> reduce (+) 0 (map2 (*) r c)) (transpose mt)) m`, "map,map,reduce"},
	{"row_sums_seq", `map (\r -> let s = reduce (+) 0 r in s * s) m`, "reduce,map"},
	{"row_index", `map (\r -> r[0] + r[49]) m`, "map"},
	{"irregular_seq", `map (\n -> reduce (+) 0 (iota n)) (iota 100)`, "map"},
	{"filter", `filter (\x -> x > 0) is`, "filter"},
	{"filter_zip", `let (a, b) = unzip (filter (\(x, i) -> x > 0) (zip is (iota 8))) in (a, map (+1) b)`, "filter,map"},
	{"filter_sum", `reduce (+) 0 (filter (\x -> x > 1) xs)`, "filter,reduce"},
	{"filter_none", `filter (\x -> x > 100) is`, "filter"},
	{"loop_map", `loop acc = xs for i < 5 do map (\x -> x * 0.5 + f32.i64 i) acc`, "map"},
	{"loop_while", `(loop (acc, k) = (xs, 0) while k < 4 do (map2 (+) acc ys, k + 1)).0`, "map"},
	{"loop_reduce", `loop s = 0f32 for i < 3 do s + reduce (+) 0 (map (\x -> x * f32.i64 i) xs)`, "reduce"},
	{"loop_converge", `(loop (v, d) = (xs, 1f32) while d > 0.01 do let v' = map (\x -> x * 0.5) v in (v', reduce (+) 0 (map f32.abs (map2 (-) v v'))) ).0`, "map,reduce"},
	{"if_soac", `if xs[0] > 1 then map (\x -> x * 2) xs else map (\x -> x + 1) xs`, "map,map"},
	{"hist", `reduce_by_index (replicate 5 0i32) (+) 0 (map (\i -> i64.i32 (i % 5)) (map i32.abs is)) is`, "map,hist"},
	// arrays built inside a thread (arrays.go)
	{"replicate_in_nest", `map (\r -> map (\x -> replicate 2 x) r) m`, "map"},
	{"scan_then_index", `map (\r -> let t = scan (+) 0 r in t[0] + t[1]) m`, "scan,map"},
	{"norm_rows", `map (\r -> let s = reduce (+) 0 r in map (\x -> x / s) r) m`, "reduce,map"},
	{"scan_scan", `map (\r -> scan (+) 0 (scan (*) 1 r)) m`, "scan,scan"},
	{"loop_array", `map (\x -> loop acc = replicate 4 x for i < 3 do map (\a -> a * 2 + f32.i64 i) acc) xs`, "map"},
	{"loop_update", `map (\r -> loop acc = copy r for i < 5 do acc with [i] = acc[i] * 2 + acc[i + 1]) m`, "map"},
	{"loop_swap", `map (\r -> let (a, b) = loop (a, b) = (r, map (+1) r) for i < 3 do (b, map (*2) a) in map2 (-) a b) m`, "map,map,map,map,map"},
	{"loop_reverse", `map (\r -> loop a = r for i < 3 do map (+1) (reverse a)) m`, "map,map,map"},
	{"if_arrays", `map (\r -> if r[0] > 0 then map (*2) r else reverse r) m`, "map"},
	{"scatter_inside", `map (\r -> scatter (replicate 5 0f32) [0, 2, 7] (take 3 r)) m`, "map,map"},
	// a histogram per row: few wide rows are one histogram over all their
	// elements (segmented.go); many rows, or narrow ones, a thread each
	{"hist_inside", `map (\r -> hist (+) 0f32 4 (map (\x -> i64.f32 (f32.abs x) % 4) r) r) m`, "map,map,hist"},
	{"hist_inside_many", `map (\i -> hist (+) 0i64 4 (map (\j -> (i + j) % 4) (iota 40)) (iota 40)) (iota 20000)`, "map,map"},
	{"hist_inside_narrow", `map (\r -> hist (+) 0f32 4 (map (\x -> i64.f32 (f32.abs x) % 4) r[:8]) r[:8]) m`, "map,map"},
	// a filter per row: few wide rows, segmented (the flags, a segmented
	// scan, the counts and starts, a scatter, then the rows' slices)
	{"filter_inside_seg", `map (\r -> let k = filter (> 0) r in if length k > 2 then k[2] else 0) m`, "map,scan,map,scan,map,map,map,scatter,map"},
	{"filter_inside_count", `map (\r -> length (filter (> 0) r)) m`, "map,scan,map,map"},
	{"filter_inside_many", `map (\i -> let k = filter (\j -> (i + j) % 3 == 0) (iota 40) in if length k > 0 then k[0] else 0) (iota 20000)`, "map"},
	{"hist_inside_dest", `map2 (\r d -> reduce_by_index (copy d) f32.max f32.lowest (map (\x -> i64.f32 (f32.abs x) % 6 - 1) r) r) m (map (\r -> r[:5]) m)`, "map,hist"},
	{"filter_inside", `map (\r -> let f = filter (> 0) r in f32.i64 (length f) + reduce (+) 0 f) m`, "map,scan,map,scan,map,map,map,scatter,map"},
	{"literal_rows", `map (\x -> [[x, 1], [2, x]]) is`, "map"},
	{"concat_inside", `map (\r -> let c = concat (take 3 r) (drop 45 r) in c[1] + c[6]) m`, "map"},
	{"reduce_arrays_inside", `map (\r -> reduce (map2 (+)) (replicate 5 0f32) (unflatten (r :> [10*5]f32))) m`, "map,map"},
	{"scan_arrays_inside", `map (\r -> scan (map2 (+)) (replicate 5 0f32) (unflatten (r :> [10*5]f32))) m`, "map,map"},
	{"reduce_pick_row", `map (\r -> reduce (\a b -> if a[0] >= b[0] then a else b) (replicate 5 f32.lowest) (unflatten (r :> [10*5]f32))) m`, "map,map"},
	{"reduce_columns", `reduce (map2 (+)) (replicate 50 0f32) m`, "reduce"},
	{"reduce_columns_max", `reduce (map2 f32.max) (replicate 50 f32.lowest) (map (map (*2)) m)`, "reduce"},
	{"irregular_scan", `map (\n -> let a = replicate n 1f32 in reduce (+) 0 (scan (+) 0 a)) (iota 300)`, "map"},
	{"irregular_2d", `map (\n -> let a = tabulate_2d n (n % 7) (\i j -> i * j) in reduce (+) 0 (flatten a) + reduce (+) 0 (map (\r -> r[0]) (transpose (copy a)))) (1...200)`, "map"},
	{"irregular_update", `map (\n -> let a = loop a = replicate n 0i64 for i < n do a with [i] = i * a[i / 2] + 1 in a[n - 1]) (1...200)`, "map"},
	{"for_in_rows", `loop acc = v for r in m do map2 (+) acc r`, "map"},
	{"for_in_scalars", `loop acc = xs for k in is do map (\x -> x * 0.5 + f32.i32 k) acc`, "map"},
	{"if_existential", `map (\x -> let a = if x > 0 then iota 3 else iota 5 in reduce (+) 0 (scan (+) 0 a)) (map i64.i32 is)`, "map"},
	{"if_existential_2d", `map (\x -> let a = if x > 0 then replicate 3 (iota 2) else replicate (x + 7) (iota 2) in reduce (+) 0 (flatten (map (scan (+) 0) a))) (map i64.i32 is)`, "map"},
	{"scan_columns", `scan (map2 (+)) (replicate 50 0f32) m`, "map"},
	{"scan_columns_mul", `scan (map2 (*)) (replicate 50 1f32) (map (map (\x -> x / 5 + 1)) m)`, "map"},
	// array statements at the top level run as kernels
	// a transpose of a device array is a tiled kernel (tiles of 32×32 in
	// local memory): sizes not a multiple of the tile, bytes and bools
	{"transpose_tiled", `transpose (map (\i -> map (\j -> i8.i64 (i * 7 + j)) (iota 65)) (iota 33))`, "map,map"},
	{"transpose_tiled_bool", `transpose (map (\i -> map (\j -> (i + j) % 3 == 0) (iota 31)) (iota 70))`, "map,map"},
	{"transpose_tiled_f32", `transpose (map (map (+ 1)) m)`, "map,map"},
	{"transpose_top", `let t = transpose m in map (\r -> reduce (+) 0 r) t`, "map,reduce"},
	{"reverse_slice_top", `let a = map (*2) xs let b = reverse a[100:300] in map (+1) b`, "map,map,map,map"},
	{"concat_top", `let a = map (*2) xs let b = concat a[0:10] (concat ys[0:5] a[990:]) in map (+1) b`, "map,map,map,map,map,map"},
	{"update_top", `let a = map (*2) xs let a[3] = 7 in map (+1) a`, "map,map,map"},
	{"update_row_top", `let a = map (map (*2)) m let a[3] = v in map (map (+1)) a`, "map,map,map"},
	{"iota_top", `let a = iota 1000 in map (\i -> xs[i] * 2) a`, "map"},
	{"variant_neutral", `map (\x -> reduce (+) (x - x) (map (*x) (take 10 xs)) + x) xs`, "map"},
	{"scan_columns_ne", `scan (map2 (+)) (map (*0) v) m`, "map,map"},
	{"scatter_rows", `scatter (copy m) [3, 0, 45, -1] (map (map (*2)) m[10:14])`, "map,map"},
	{"scatter_rows_elems", `let a = map (map (*2)) m in scatter (copy m) [3, 0, 45, -1] a[10:14]`, "map,map,map,map"},
	{"hist_rows", `hist (map2 (+)) (replicate 50 0f32) 7 (map (\i -> i64.f32 (f32.abs i) % 8) xs[0:40]) m`, "map,map,hist"},
	{"hist_rows_max", `reduce_by_index (replicate 7 (replicate 50 f32.lowest)) (map2 f32.max) (replicate 50 f32.lowest) (map (\i -> i % 7) (iota 40)) m`, "map,map,hist"},
	{"filter_rows", `filter (\r -> r[0] > 0) m`, "scan,map,map"},
	{"filter_rows_zip", `let (a, b) = unzip (filter (\(r, x) -> x > 0) (zip m (map (\r -> r[3]) m))) in (map (map (+1)) a, b)`, "scan,map,scatter,map,map"},
	{"fma_mad_ldexp", `map (\x -> f32.fma x 3 1 + f32.mad x x 2 + f32.ldexp x 3 + f32.f64 (f64.fma (f64.f32 x) 2 1)) xs`, "map"},
	// f16, computed in f32 and rounded after each operation
	{"f16_map", `map (\x -> let h = f16.f32 x in f16.sqrt (f16.abs h) * 3 + h / 7) xs`, "map"},
	{"f16_reduce", `reduce (+) 0f16 (map (\x -> f16.f32 x * 0.01) xs)`, "reduce"},
	{"f16_scan_max", `scan f16.max f16.lowest (map f16.f32 xs)`, "scan"},
	{"f16_bits", `map (\x -> f16.to_bits (f16.f32 x) + u16.i32 (i32.f16 (f16.from_bits (f16.to_bits (f16.f32 x))))) xs`, "map"},
	{"f16_hist", `hist (+) 0f16 5 (map (\i -> i % 5) (iota 1000)) (map (\i -> f16.i64 (i % 3)) (iota 1000))`, "map,hist"},
	{"f16_rows", `map (\r -> map (\x -> f16.f32 x * 2) r) m |> map (\r -> reduce (+) 0 r)`, "reduce"},
	// segmented scans: the operator lifted to (flag, value) pairs
	{"segscan", `map (\r -> scan (+) 0 r) m`, "scan"},
	{"segscan_max", `map (scan f32.max f32.lowest) (map (map (\x -> x * x - 3)) m)`, "scan"},
	{"segscan_2d", `map (\i -> map (\r -> scan (+) 0 (map (+ f32.i64 i) r)) m) (iota 3)`, "scan"},
	{"segscan_pairs", `unzip (map (\r -> unzip (scan (\(a, b) (c, d) -> (a + c, b * d)) (0, 1) (zip r (map (\x -> x / 10 + 1) r)))) m)`, "scan"},
	{"segscan_empty_rows", `map (\r -> scan (+) 0 r) (replicate 5 (take 0 v))`, "scan,map"},
	// loop–map interchange
	{"interchange", `map (\r -> loop acc = r for i < 3 do map (\x -> x * 2 + f32.i64 i) acc) m`, "map,map"},
	{"interchange_reduce", `map (\r -> loop (acc, s) = (r, 0f32) for i < 4 do let t = reduce (+) 0 acc in (map (\x -> x - t / 50) acc, s + t)) m |> unzip |> (.1)`, "map,reduce,map,map"},
	// a Screma's later kernels recompute only their own part of the
	// lambda (the array its map part builds is the map kernel's)
	{"scan_beside_array", `let (a, b) = unzip (map (\x -> (x, loop t = replicate 2 x for i < 2 do t with [i] = t[i] + i32.i64 i)) is) in map2 (\s r -> s + r[0] + r[1]) (scan (+) 0 a) b`, "map,scan,map"},
	{"reduce_beside_array", `let (a, b) = unzip (map (\x -> (x * 2, loop t = replicate 3 x for i < 3 do t with [i] = t[i] * 2)) is) let r = reduce (+) 0 a in map (\t -> t[2] + r) b`, "map,reduce,map"},
	// filters and histograms of arrays in a thread
	{"filter_rows_inside", `map (\r -> let f = filter (\p -> p[0] > 0) (unflatten (r :> [25*2]f32)) in reduce (+) 0 (map (\p -> p[1]) f) + f32.i64 (length f)) m`, "map"},
	{"hist_rows_inside", `map (\r -> hist (map2 (+)) (replicate 3 0f32) 4 (map (\x -> i64.f32 (f32.abs x) % 5) r) (map (\x -> [x, 1, x * x]) r)) m`, "map,map,map"},
	{"hist_rows_pick_inside", `map (\r -> hist (\a b -> if a[0] >= b[0] then a else b) (replicate 2 f32.lowest) 3 (map (\x -> i64.f32 (f32.abs x) % 3) r) (map (\x -> [x, x * 2]) r)) m`, "map,map,map"},
	// reductions and scans with an operator on arrays that is not
	// vectorised: chunks folded in threads, then combined (arrayops.go)
	{"reduce_pick_top", `reduce (\a b -> if a[0] >= b[0] then a else b) (replicate 5 f32.lowest) (unflatten (xs :> [200*5]f32))`, "map,map,map"},
	{"reduce_not_neutral", `reduce (\a b -> if a[0] < b[0] then a else b) [f32.lowest, 0] (unflatten (xs :> [500*2]f32))`, "map,map"},
	{"reduce_loop_op", `reduce (\a b -> loop c = copy a for i < 3 do c with [i] = c[i] + b[i]) (replicate 3 0i32) (map (\x -> [x, x + 1, x * 2]) is)`, "map,map,map"},
	{"reduce_arrays_empty", `reduce (\a b -> if a[0] >= b[0] then a else b) (replicate 5 7f32) (unflatten (xs :> [200*5]f32))[3:3]`, "map,map,map"},
	{"scan_pick_top", `scan (\a b -> if a[1] >= b[1] then a else b) (replicate 2 f32.lowest) (unflatten (xs :> [500*2]f32))`, "map,map,map,map"},
	{"scan_segmented_rows", `(unzip (scan (\(f1, x) (f2, y) -> (f1 || f2, if f2 then y else map2 (+) x y)) (false, replicate 50 0f32) (zip (map (\r -> r[0] > 2) m) m))).1`, "map,map,map,map"},
	{"scan_pick_filtered", `let f = filter (\r -> r[0] > 0) (unflatten (xs :> [500*2]f32)) in scan (\a b -> if a[1] >= b[1] then a else b) [f32.lowest, 0] f`, "scan,map,map,map,map,map"},
	{"reduce_pick_filtered", `let f = filter (\r -> r[0] > 100) (unflatten (xs :> [500*2]f32)) in reduce (\a b -> if a[1] >= b[1] then a else b) [f32.lowest, 1] f`, "scan,map,map,map,map"},
	{"hist_pick_filtered", `let f = filter (\r -> r[0] > 0) (unflatten (xs :> [500*2]f32)) in hist (\a b -> if a[0] >= b[0] then a else b) [f32.lowest, 0] 7 (map (\r -> i64.f32 (f32.abs r[1]) % 9) f) f`, "scan,map,map,map,map,map"},
	{"scan_pick_none", `let f = filter (\r -> r[0] > 1000) (unflatten (xs :> [500*2]f32)) in (scan (\a b -> if a[1] >= b[1] then a else b) [f32.lowest, 0] f, reduce (\a b -> if a[1] >= b[1] then a else b) [3, 4] f)`, "scan,map,map,map,map,map,map,map"},
	{"hist_pick_top", `hist (\a b -> if a[0] >= b[0] then a else b) [f32.lowest, 0] 7 (map (\x -> i64.f32 (f32.abs x) % 9) xs) (map (\x -> [x, x * 2]) xs)`, "map,map,map"},
	{"hist_loop_op_top", `reduce_by_index (map (\i -> [i, 0, 1]) (iota 5)) (\a b -> loop c = copy a for i < 3 do c with [i] = c[i] + b[i]) (replicate 3 0) (map (\i -> i % 6) (iota 1000)) (map (\i -> [i, 1, i % 3]) (iota 1000))`, "map,map,map"},
	// loops whose array parameters change size (irregular storage)
	{"loop_growing", `map (\n -> let a = loop a = [n] for i < n do concat a a in reduce (+) 0 (scan (+) 0 a)) (iota 3)`, "map"},
	{"while_growing", `map (\n -> let a = loop a = [1i32] while length a < i64.i32 n do a ++ map (+1) a in i32.sum a) (map (\x -> x * 300) is)`, "map"},
	{"while_shrinking", `map (\x -> let (_, s, _) = loop (i, s, a) = (0, 0, iota x) while i < x do let a' = filter (\t -> t % (i + 2) != 0) a in (i + 1, s + reduce (+) 0 a', a') in s) (map (\x -> i64.i32 (i32.abs x) * 40) is)`, "map"},
	{"loop_swap_growing", `map (\n -> let (a, b) = loop (a, b) = ([n], [n + 1, 2]) for i < 12 do (b, a ++ b) in i64.sum a + i64.sum b) (iota 50)`, "map"},
	{"transpose_inside", `map (\r -> let t = transpose (unflatten (r :> [5*10]f32) :> [5][10]f32) in map (\c -> reduce (+) 0 c) t) m`, "map"},
}

// TestPlans checks which kernels each expression flattens to (no device
// needed: flattening verifies every kernel).
func TestPlans(t *testing.T) {
	s := newSession(t)
	for _, c := range cases {
		plan, _, _, why, err := s.OffloadPlan(c.src)
		if err != nil || why != "" {
			t.Errorf("%s: not flattened: %v %s", c.name, err, why)
			continue
		}
		if got := shapes(plan); got != c.kernels {
			t.Errorf("%s: kernels %s, want %s\n%s", c.name, got, c.kernels, plan)
		}
	}
}

// TestOffloadMatchesReference runs each expression on the reference path
// and through the kernels, and checks the values agree and that the
// expected kernels were launched.
func TestOffloadMatchesReference(t *testing.T) {
	device(t)
	s := newSession(t)
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref, err := s.EvalExpr(ctx, c.src)
			if err != nil {
				t.Fatalf("reference: %v", err)
			}
			plan, args, _, why, err := s.OffloadPlan(c.src)
			if err != nil || why != "" {
				t.Fatalf("not offloaded: %v %s", err, why)
			}
			d, _ := session.OffloadDevice()
			_, stats, err := plan.Run(ctx, d, args)
			if err != nil {
				t.Fatalf("run: %v\n%s", err, plan)
			}
			if !strings.Contains(plan.String(), "host ") && len(stats.Launches) != len(plan.Kernels()) || len(stats.Launches) == 0 {
				t.Errorf("%d launches for %d kernels", len(stats.Launches), len(plan.Kernels()))
			}
			v, off, why, err := s.EvalOffload(ctx, c.src)
			if err != nil || !off {
				t.Fatalf("EvalOffload: offloaded=%v why=%q err=%v", off, why, err)
			}
			if !value.Equal(ref.Value, v, 1e-4) {
				t.Errorf("offloaded %s\nreference %s", value.String(v), value.String(ref.Value))
			}
		})
	}
}

// TestFallbackReasons checks that what cannot run as kernels says why.
func TestFallbackReasons(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct{ src, why string }{
		{`1 + 2`, "no SOAC"},
		{`#some (reduce (+) 0 is) : (#some i32 | #none)`, "not rebuilt"},
	} {
		_, off, why, err := s.EvalOffload(context.Background(), c.src)
		if err != nil || off {
			t.Fatalf("%s: offloaded=%v err=%v", c.src, off, err)
		}
		if !strings.Contains(why, c.why) {
			t.Errorf("%s: why = %q, want it to mention %q", c.src, why, c.why)
		}
	}
}

// TestHostSteps checks which array statements over host arrays stay on
// the host (with the reason the plan gives) and which the device does.
func TestHostSteps(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct{ src, host, not string }{
		// a kernel reads the transpose: the device makes it
		{`let t = transpose m in map (\r -> reduce (+) 0 r) t`, "", "host: let"},
		{`scatter (copy is) [1, 3] [5, 6]`, "k1_array_copy", "host: let (copy"},
		// nothing on the device reads the copy
		{`let c = copy is in (c, map (+1) is)`, "no kernel reads the result", ""},
		// a view of a host array costs nothing on the host
		{`map (+1) (flatten m)`, "a view of a host array", ""},
	} {
		plan, _, _, why, err := s.OffloadPlan(c.src)
		if err != nil || why != "" {
			t.Errorf("%s: not flattened: %v %s", c.src, err, why)
			continue
		}
		text := plan.String()
		if c.host != "" && !strings.Contains(text, c.host) {
			t.Errorf("%s: the plan does not say %q:\n%s", c.src, c.host, text)
		}
		if c.not != "" && strings.Contains(text, c.not) {
			t.Errorf("%s: the plan has %q:\n%s", c.src, c.not, text)
		}
	}
}

// TestRunsAgain runs each plan again, one run after another and then
// from several goroutines at once: every run must give the first run's
// values exactly. The runs of a plan share what finished runs leave for
// later ones (the map of variables, slots and buffers, runScratch) and
// the memo of the scalar host statements.
func TestRunsAgain(t *testing.T) {
	device(t)
	s := newSession(t)
	ctx := context.Background()
	d, _ := session.OffloadDevice()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan, args, _, why, err := s.OffloadPlan(c.src)
			if err != nil || why != "" {
				t.Fatalf("not offloaded: %v %s", err, why)
			}
			first, _, err := plan.Run(ctx, d, args)
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			same := func(vs []value.Value) error {
				if len(vs) != len(first) {
					return fmt.Errorf("%d results, then %d", len(first), len(vs))
				}
				for i := range vs {
					if !value.Equal(first[i], vs[i], 0) {
						return fmt.Errorf("result %d: %s, then %s", i, value.String(first[i]), value.String(vs[i]))
					}
				}
				return nil
			}
			// runs whose results stay on the device until the last has run
			var kept []*flatten.Results
			for range 3 {
				res, _, err := plan.RunOn(ctx, d, args, nil, true)
				if err != nil {
					t.Fatalf("run again: %v", err)
				}
				kept = append(kept, res)
			}
			for _, res := range kept {
				vs, err := res.Download()
				res.Release()
				if err == nil {
					err = same(vs)
				}
				if err != nil {
					t.Fatalf("run again: %v", err)
				}
			}
			errs := make(chan error, 3)
			for range 3 {
				go func() {
					vs, _, err := plan.Run(ctx, d, args)
					if err == nil {
						err = same(vs)
					}
					errs <- err
				}()
			}
			for range 3 {
				if err := <-errs; err != nil {
					t.Errorf("run at once with others: %v", err)
				}
			}
		})
	}
}
