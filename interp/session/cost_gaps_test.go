package session

import (
	"context"
	"testing"

	"fut/eval"
	"fut/eval/value"
)

// Constructs whose fused plan once cost more than the program as written
// (docs/cost.md, "The fused plan"), each a program of testdata/cost: the
// four figures as written and fused, exactly, with fused W ≤ written W
// and fused D ≤ written D. The values are checked by the programs' test
// blocks (interp/testrun's TestCostInvariants runs them).
func TestCostGapsClosed(t *testing.T) {
	for _, c := range []struct {
		file, entry    string
		args           []string
		written, fused eval.Cost
	}{
		{"hoisted_check.fut", "main", []string{"2i64", "2i64"}, eval.Cost{Work: 23, Depth: 9, SpaceSeq: 22, SpacePar: 29}, eval.Cost{Work: 16, Depth: 4, SpaceSeq: 16, SpacePar: 21}},
		// an update of a slice: (1, 1, 0) as written, one step fused (was
		// W 22 D 11, W 51 D 17 and W 5 D 5: a scatter of the elements)
		{"slice_update.fut", "upd1", []string{"[1, 2, 3, 4, 5, 6]", "[8, 9, 10]", "2i64"}, eval.Cost{Work: 2, Depth: 2, SpaceSeq: 1, SpacePar: 1}, eval.Cost{Work: 1, Depth: 1}},
		{"slice_update.fut", "upd2", []string{"[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]", "[[1, 2], [3, 4]]", "1i64", "3i64"}, eval.Cost{Work: 1, Depth: 1}, eval.Cost{Work: 1, Depth: 1}},
		{"slice_update.fut", "len", []string{"[1, 2, 3, 4, 5]", "1i64", "4i64"}, eval.Cost{Work: 2, Depth: 2}, eval.Cost{Work: 1, Depth: 1}},
		// a strided or inner slice: a view as written, one step for the
		// plan's gather (was W 15 D 4, W 24 D 8, W 34 D 5), and no more
		// than the source's map and reduction where they fuse it
		{"strided_slice.fut", "stride", []string{"[1, 2, 3, 4, 5, 6, 7]", "1i64", "6i64", "2i64"}, eval.Cost{Work: 1, Depth: 1}, eval.Cost{Work: 1, Depth: 1, SpaceSeq: 4, SpacePar: 4}},
		{"strided_slice.fut", "inner", []string{"[[1, 2, 3], [4, 5, 6]]", "1i64", "3i64"}, eval.Cost{Work: 2, Depth: 2, SpaceSeq: 1, SpacePar: 1}, eval.Cost{Work: 1, Depth: 1, SpaceSeq: 9, SpacePar: 12}},
		{"strided_slice.fut", "backwards", []string{"[[1, 2, 3], [4, 5, 6]]"}, eval.Cost{Work: 2, Depth: 2, SpaceSeq: 1, SpacePar: 1}, eval.Cost{Work: 1, Depth: 1, SpaceSeq: 12, SpacePar: 16}},
		{"strided_slice.fut", "summed", []string{"[1, 2, 3, 4, 5, 6, 7]"}, eval.Cost{Work: 17, Depth: 9, SpaceSeq: 7, SpacePar: 11}, eval.Cost{Work: 8, Depth: 4, SpaceSeq: 1, SpacePar: 4}},
		// rotate: one step per element, (n, 1) (was W 23 D 7 fused)
		{"rotate.fut", "main", []string{"1i64", "[1, 2, 3, 4]"}, eval.Cost{Work: 4, Depth: 1, SpaceSeq: 5, SpacePar: 5}, eval.Cost{Work: 4, Depth: 1, SpaceSeq: 5, SpacePar: 5}},
		// a match: one step for the cases tried (was W 6 D 6 fused for
		// the third of four literal cases, W 9 D 9 for a sum type's third
		// constructor); == and != on arrays, one step each (was W 27 D 13)
		{"match_eq.fut", "pick", []string{"3"}, eval.Cost{Work: 2, Depth: 2, SpaceSeq: 1, SpacePar: 1}, eval.Cost{Work: 1, Depth: 1}},
		{"match_eq.fut", "area", []string{"2i32", "3.0", "4.0"}, eval.Cost{Work: 8, Depth: 8, SpaceSeq: 2, SpacePar: 2}, eval.Cost{Work: 6, Depth: 6, SpaceSeq: 6, SpacePar: 6}},
		{"match_eq.fut", "same", []string{"[[1, 2], [3, 4]]", "[[1, 2], [3, 5]]"}, eval.Cost{Work: 2, Depth: 2, SpaceSeq: 2, SpacePar: 2}, eval.Cost{Work: 2, Depth: 2, SpaceSeq: 1, SpacePar: 1}},
		// an element of an array of records: one read (was D 3 fused, one
		// read per field)
		{"tuple_index.fut", "main", []string{"[1, 2, 3]", "[1.5, 2.5, 3.5]", "[true, false, true]", "1i64"}, eval.Cost{Work: 4, Depth: 2, SpaceSeq: 13, SpacePar: 13}, eval.Cost{Work: 1, Depth: 1, SpaceSeq: 1, SpacePar: 1}},
		// concat in a loop, its length a changing size (was W 34 D 9 fused)
		{"concat_loop.fut", "main", []string{"3", "[1, 2]"}, eval.Cost{Work: 32, Depth: 7, SpaceSeq: 26, SpacePar: 26}, eval.Cost{Work: 31, Depth: 6, SpaceSeq: 24, SpacePar: 24}},
		// vjp of a histogram with max: the unit tangent's reads are
		// covered by the pass's unit vector (was D 418 fused)
		{"ad_hist.fut", "main", []string{"[5f32, 1f32, 2f32, 3f32, 4f32]", "[0i64, 0i64, 1i64, 1i64, 0i64]", "[4f32, 3f32, 2f32, 1f32, 6f32]"}, eval.Cost{Work: 580, Depth: 401, SpaceSeq: 19, SpacePar: 19}, eval.Cost{Work: 506, Depth: 368, SpaceSeq: 24, SpacePar: 35}},
		// constants holding a function or a value of a sum type: computed
		// once, as the reference path does at load (the plan recomputed
		// them on every call: was W 56 D 10, W 503 D 12, W 20 fused)
		{"fun_const.fut", "scaled", []string{"2"}, eval.Cost{Work: 9, Depth: 3, SpaceSeq: 7, SpacePar: 10}, eval.Cost{Work: 9, Depth: 3, SpaceSeq: 7, SpacePar: 10}},
		{"fun_const.fut", "shifted", []string{"[1, 2]"}, eval.Cost{Work: 4, Depth: 2, SpaceSeq: 4, SpacePar: 5}, eval.Cost{Work: 4, Depth: 2, SpaceSeq: 4, SpacePar: 5}},
		{"fun_const.fut", "perimeter", []string{"2.0"}, eval.Cost{Work: 12, Depth: 7, SpaceSeq: 2, SpacePar: 4}, eval.Cost{Work: 10, Depth: 5, SpaceSeq: 2, SpacePar: 2}},
		// a scalar hoisted out of a SOAC's function in a loop: charged
		// where an element first needs it, so not over no elements (was
		// W 12 D 12 and W 9 D 9 fused: once per iteration)
		{"hoisted_empty.fut", "shifted", []string{"[] : [0]i32", "4"}, eval.Cost{Work: 8, Depth: 8, SpaceSeq: 2, SpacePar: 2}, eval.Cost{Work: 8, Depth: 8, SpaceSeq: 1, SpacePar: 1}},
		{"hoisted_empty.fut", "sieved", []string{"[] : [0]i32", "3"}, eval.Cost{Work: 6, Depth: 6, SpaceSeq: 2, SpacePar: 2}, eval.Cost{Work: 6, Depth: 6, SpaceSeq: 3, SpacePar: 3}},
		{"hoisted_empty.fut", "sieved", []string{"[2, 3, 4, 5, 6, 7, 8, 9]", "3"}, eval.Cost{Work: 214, Depth: 55, SpaceSeq: 28, SpacePar: 54}, eval.Cost{Work: 138, Depth: 42, SpaceSeq: 19, SpacePar: 39}},
	} {
		s, err := NewSession(Options{Cost: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if err := s.LoadFile(ctx, "testdata/cost/"+c.file); err != nil {
			t.Fatalf("%s: %s", c.file, s.FormatError(err))
		}
		args := make([]value.Value, len(c.args))
		for i, a := range c.args {
			r, err := s.EvalExpr(ctx, a)
			if err != nil {
				t.Fatalf("%s: %s", a, s.FormatError(err))
			}
			args[i] = r.Value
		}
		_, w, err := s.CallEntry(ctx, c.entry, args)
		if err != nil {
			t.Fatalf("%s %s: %s", c.file, c.entry, s.FormatError(err))
		}
		f, err := s.EntryFusedCost(ctx, c.entry, args)
		if err != nil {
			t.Fatalf("%s %s: fused: %v", c.file, c.entry, err)
		}
		if w != c.written || f != c.fused {
			t.Errorf("%s %s: as written %+v, fused %+v; want %+v and %+v", c.file, c.entry, w, f, c.written, c.fused)
		}
		if f.Work > w.Work || f.Depth > w.Depth {
			t.Errorf("%s %s: fused (W %d, D %d) dearer than written (W %d, D %d)", c.file, c.entry, f.Work, f.Depth, w.Work, w.Depth)
		}
	}
}
