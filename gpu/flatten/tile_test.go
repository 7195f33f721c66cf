package flatten_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/gpu/kernel"
	"fut/gpu/opencl"
	"fut/interp/session"
)

// TestTiling: map nests over folds whose reads rows and columns share
// become Tiled kernels (block and register tiling), agree with the
// reference path (exactly on integers, for operators that do not commute
// too: each point folds in order), and stay segmented reductions where
// the rule says tiling does not pay.
func TestTiling(t *testing.T) {
	device(t)
	s := newSession(t)
	ctx := context.Background()
	for _, d := range []string{
		`def ta = tabulate_2d 130 100 (\i j -> f32.i64 ((i * 7 + j * 3) % 11) - 5)`,
		`def tb = tabulate_2d 100 70 (\i j -> f32.i64 ((i * 5 + j) % 13) / 4)`,
		`def ia = tabulate_2d 200 33 (\i j -> i32.i64 ((i * 7 + j * 3) % 11) - 5)`,
		`def ib = tabulate_2d 33 129 (\i j -> i32.i64 ((i * 5 + j) % 13) - 6)`,
		`def la = tabulate_2d 97 80 (\i j -> (i * 3 + j) % 5 - 2)`,
		`def lb = tabulate_2d 80 65 (\i j -> (i + 2 * j) % 7 - 3)`,
		`def px = map (\i -> f64.i64 (i % 97) / 7) (iota 5000)`,
	} {
		if _, err := s.Enter(ctx, d); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
	}
	for _, c := range []struct {
		name, src string
		tiled     bool
	}{
		{"matmul_f32", `map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose tb)) ta`, true},
		{"matmul_i32", `map (\r -> map (\c -> i32.sum (map2 (*) r c)) (transpose ib)) ia`, true},
		{"by_column", `tabulate_2d 200 129 (\i j -> reduce (+) 0 (map (\k -> ia[i, k] * ib[k, j]) (iota 33)))`, true},
		// composition of affine maps: associative, not commutative
		{"affine", `let rs = map (\r -> map (\c -> reduce (\(a, b) (c, d) -> (a * c, b * c + d)) (1i64, 0i64) (zip r c)) (transpose lb)) la in (map (map (.0)) rs, map (map (.1)) rs)`, true},
		// one buffer read by rows and by columns: not tiled yet
		{"a_at", `map (\r -> map (\c -> i64.sum (map2 (*) r c)) la) la`, false},
		{"pairs", `map (\x -> reduce (+) 0 (map (\y -> f64.abs (x - y)) px)) px`, true},
		// scalar statements after the fold: Euclidean distances
		{"distances", `map (\a -> map (\b -> f32.sqrt (f32.sum (map2 (\x y -> (x - y) * (x - y)) a b))) (transpose tb)) ta`, true},
		{"pairs_scaled", `map (\x -> 2 * reduce (+) 0 (map (\y -> f64.abs (x - y)) px) + x) px`, true},
		{"small", `map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose m)) (transpose m)`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan, _, _, why, err := s.OffloadPlan(c.src)
			if err != nil || why != "" {
				t.Fatalf("not flattened: %v %s", err, why)
			}
			if got := strings.Contains(shapes(plan), "tiled"); got != c.tiled {
				t.Errorf("kernels %s: tiled %v, want %v", shapes(plan), got, c.tiled)
			}
			ref, err := s.EvalExpr(ctx, c.src)
			if err != nil {
				t.Fatal(err)
			}
			v, off, why, err := s.EvalOffload(ctx, c.src)
			if err != nil || !off {
				t.Fatalf("not offloaded: %v %s", err, why)
			}
			if !value.Equal(ref.Value, v, 1e-5) {
				t.Errorf("offloaded %.200s\nreference %.200s", value.String(v), value.String(ref.Value))
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		t.Setenv("FUT_TILING", "off")
		plan, _, _, why, err := s.OffloadPlan(`map (\r -> map (\c -> i32.sum (map2 (*) r c)) (transpose ib)) ia`)
		if err != nil || why != "" {
			t.Fatalf("not flattened: %v %s", err, why)
		}
		if strings.Contains(shapes(plan), "tiled") {
			t.Errorf("FUT_TILING=off and still tiled: %s", shapes(plan))
		}
	})
}

// TestTilingRandom: tiled nests of random sizes around the blocks' edges
// (sizes that are and are not multiples of the block and the step) and
// several bodies (reads by rows, by columns, by the fold's index alone,
// operators that do not commute), on integers, where the device must
// give exactly the reference path's result.
func TestTilingRandom(t *testing.T) {
	device(t)
	s := newSession(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 11))
	bodies := []string{
		// a product, B read by columns through a transpose
		`map (\r -> map (\c -> i64.sum (map2 (*) r c)) (transpose qb)) qa`,
		// B read by columns directly, and a vector read by the fold's index
		`tabulate_2d N M (\i j -> reduce (+) 0 (map (\k -> qa[i, k] * qb[k, j] + qv[k]) (iota K)))`,
		// a fold that does not commute: the last k where the sum is largest
		`let rs = tabulate_2d N M (\i j -> reduce (\(x, a) (y, b) -> if y >= x then (y, b) else (x, a)) (i64.lowest, -1) (map (\k -> (qa[i, k] + qb[k, j], k)) (iota K))) in (map (map (.0)) rs, map (map (.1)) rs)`,
		// statements after the fold, on a component of its result
		`tabulate_2d N M (\i j -> (reduce (\(x, a) (y, b) -> if y >= x then (y, b) else (x, a)) (i64.lowest, -1) (map (\k -> (qa[i, k] + qb[k, j], k)) (iota K))).1 * 3 + i)`,
	}
	for round := 0; round < 4; round++ {
		n, m, k := 64+r.Int64N(100), 64+r.Int64N(100), 16+r.Int64N(80)
		if round == 0 {
			n, m, k = 128, 128, 32 // whole blocks and steps
		}
		for _, d := range []string{
			fmt.Sprintf(`def N = %di64`, n), fmt.Sprintf(`def M = %di64`, m), fmt.Sprintf(`def K = %di64`, k),
			fmt.Sprintf(`def qa = tabulate_2d N K (\i j -> (i * %d + j * %d) %% 19 - 9)`, r.IntN(50)+1, r.IntN(50)+1),
			fmt.Sprintf(`def qb = tabulate_2d K M (\i j -> (i * %d + j * %d) %% 23 - 11)`, r.IntN(50)+1, r.IntN(50)+1),
			fmt.Sprintf(`def qv = map (\i -> i %% %d) (iota K)`, r.IntN(9)+2),
		} {
			if _, err := s.Enter(ctx, d); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
		}
		for bi, src := range bodies {
			plan, _, _, why, err := s.OffloadPlan(src)
			if err != nil || why != "" {
				t.Fatalf("%d×%d×%d, body %d: not flattened: %v %s", n, m, k, bi, err, why)
			}
			if !strings.Contains(shapes(plan), "tiled") {
				t.Errorf("%d×%d×%d, body %d: not tiled: %s", n, m, k, bi, shapes(plan))
			}
			ref, err := s.EvalExpr(ctx, src)
			if err != nil {
				t.Fatal(err)
			}
			v, off, why, err := s.EvalOffload(ctx, src)
			if err != nil || !off {
				t.Fatalf("%d×%d×%d, body %d: not offloaded: %v %s", n, m, k, bi, err, why)
			}
			if !value.Equal(ref.Value, v, 0) {
				t.Errorf("%d×%d×%d, body %d: the device differs from the reference path", n, m, k, bi)
			}
		}
	}
}

// TestTilingSplit: a one-dimensional tiled kernel whose points share
// threads (nsplit ranges of the fold each, set by FUT_TILE_SPLIT here, by
// the device's size otherwise) gives the reference path's result exactly
// on integers, also for an operator that does not commute, with points
// and fold lengths that are not multiples of the group or of the ranges.
func TestTilingSplit(t *testing.T) {
	device(t)
	s := newSession(t)
	ctx := context.Background()
	for _, d := range []string{
		`def sx = map (\i -> (i * 37) % 101 - 50) (iota 4103)`,
		`def sy = map (\i -> (i * 13) % 29 - 14) (iota 777)`,
	} {
		if _, err := s.Enter(ctx, d); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
	}
	bodies := []string{
		`map (\x -> reduce (+) 0 (map (\y -> i64.abs (x - y)) sx)) sx`,
		// the last index where x + y is largest: associative, not commutative
		`unzip (map (\x -> reduce (\(a, i) (b, j) -> if b >= a then (b, j) else (a, i)) (i64.lowest, -1) (map2 (\y k -> (x * y % 17, k)) sy (iota 777))) sx)`,
	}
	for _, ns := range []string{"1", "2", "4", "8", "32"} {
		t.Run("nsplit"+ns, func(t *testing.T) {
			t.Setenv("FUT_TILE_SPLIT", ns)
			for bi, src := range bodies {
				plan, _, _, why, err := s.OffloadPlan(src)
				if err != nil || why != "" {
					t.Fatalf("body %d: not flattened: %v %s", bi, err, why)
				}
				if !strings.Contains(shapes(plan), "tiled") {
					t.Errorf("body %d: not tiled: %s", bi, shapes(plan))
				}
				ref, err := s.EvalExpr(ctx, src)
				if err != nil {
					t.Fatal(err)
				}
				v, off, why, err := s.EvalOffload(ctx, src)
				if err != nil || !off {
					t.Fatalf("body %d: not offloaded: %v %s", bi, err, why)
				}
				if !value.Equal(ref.Value, v, 0) {
					t.Errorf("body %d: the device differs from the reference path: %.300s\n%.300s", bi, value.String(v), value.String(ref.Value))
				}
			}
		})
	}
}

// TestTileCandidates: every candidate of the tile search (each forced in
// turn by FUT_TILE) gives the reference path's result, on products and
// all-pairs folds of sizes that are not multiples of the blocks, the
// steps or the groups, and the candidates give one another's results bit
// for bit where the fold cannot contract (they fold in the same order).
func TestTileCandidates(t *testing.T) {
	device(t)
	d, _ := session.OffloadDevice()
	s := newSession(t)
	ctx := context.Background()
	for _, def := range []string{
		`def ca = tabulate_2d 130 100 (\i j -> f32.i64 ((i * 7 + j * 3) % 11) - 5.25)`,
		`def cb = tabulate_2d 100 70 (\i j -> f32.i64 ((i * 5 + j) % 13) / 4)`,
		`def qa = tabulate_2d 97 45 (\i j -> (i * 7 + j * 3) % 19 - 9)`,
		`def qb = tabulate_2d 45 131 (\i j -> (i * 5 + j * 11) % 23 - 11)`,
		`def qv = map (\i -> i % 5) (iota 45)`,
		`def sx = map (\i -> (i * 37) % 101 - 50) (iota 4103)`,
		`def px = map (\i -> f64.i64 (i % 97) / 7) (iota 4099)`,
	} {
		if _, err := s.Enter(ctx, def); err != nil {
			t.Fatalf("%s: %v", def, err)
		}
	}
	for _, c := range []struct {
		name, src string
		exact     bool // the candidates agree bit for bit
		split     string
	}{
		{"matmul_f32", `map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose cb)) ca`, false, ""},
		{"by_column_vector", `tabulate_2d 97 131 (\i j -> reduce (+) 0 (map (\k -> qa[i, k] * qb[k, j] + qv[k]) (iota 45)))`, true, ""},
		// 16 bytes a point: the candidates of 4×4 points a thread
		{"last_max", `let rs = tabulate_2d 97 131 (\i j -> reduce (\(x, a) (y, b) -> if y >= x then (y, b) else (x, a)) (i64.lowest, -1) (map (\k -> (qa[i, k] + qb[k, j], k)) (iota 45))) in (map (map (.0)) rs, map (map (.1)) rs)`, true, ""},
		{"pairs", `map (\x -> reduce (+) 0 (map (\y -> i64.abs (x - y)) sx)) sx`, true, ""},
		{"pairs_split", `map (\x -> reduce (+) 0 (map (\y -> i64.abs (x - y)) sx)) sx`, true, "8"},
		{"pairs_f64_split", `map (\x -> 2 * reduce (+) 0 (map (\y -> f64.abs (x - y)) px) + x) px`, true, "4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("FUT_TILE_SPLIT", c.split)
			plan, _, _, why, err := s.OffloadPlan(c.src)
			if err != nil || why != "" {
				t.Fatalf("not flattened: %v %s", err, why)
			}
			var tiled *kernel.Tiled
			for _, k := range plan.Kernels() {
				if tl, ok := k.Shape.(*kernel.Tiled); ok {
					tiled = tl
				}
			}
			if tiled == nil {
				t.Fatalf("not tiled: %s", shapes(plan))
			}
			ref, err := s.EvalExpr(ctx, c.src)
			if err != nil {
				t.Fatal(err)
			}
			cands := opencl.TileCandidates(tiled)
			if len(cands) < 4 {
				t.Errorf("only %d candidates: %v", len(cands), cands)
			}
			var first value.Value
			for _, tc := range cands {
				t.Setenv("FUT_TILE", tc.String())
				v, off, why, err := s.EvalOffload(ctx, c.src)
				if err != nil || !off {
					t.Fatalf("%s: not offloaded: %v %s", tc, err, why)
				}
				if got := d.LastTile(); got != tc {
					t.Errorf("FUT_TILE=%s ran %s", tc, got)
				}
				if !value.Equal(ref.Value, v, 1e-9) {
					t.Errorf("%s: the device differs from the reference path: %.200s\n%.200s", tc, value.String(v), value.String(ref.Value))
				}
				if first == nil {
					first = v
				} else if c.exact && !value.Equal(first, v, 0) {
					t.Errorf("%s differs from %s", tc, cands[0])
				}
			}
		})
	}
}
