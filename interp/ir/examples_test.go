package ir_test

import (
	"context"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/lower"
)

// The seed programs' entry points, lowered whole with concrete arguments,
// run through every pass, and compared with the reference evaluator. The
// ones the IR cannot take yet must say why and where.
func TestExamples(t *testing.T) {
	cases := []struct {
		file    string
		inputs  []string
		soacs   int    // SOAC statements after fusion, nested included
		lowered string // "" when it lowers, else a fragment of the reason
	}{
		{"dotprod", []string{"[1.0, 2.0, 3.0]", "[4.0, 5.0, 6.0]"}, 1, ""},
		{"blackscholes", []string{"[100f32, 50f32]", "[100f32, 60f32]", "[1f32, 0.5f32]", "0.02f32", "0.3f32"}, 1, ""},
		{"matmul", []string{"[[1, 2], [3, 4]]", "[[5, 6], [7, 8]]"}, 3, ""},
		{"nbody", []string{"[0f32, 1f32, 2f32]", "[0f32, 0f32, 1f32]", "[0f32, 0f32, 3f32]", "[1f32, 2f32, 3f32]"}, 2, ""},
		{"histogram", []string{"4i64", "[0, 1, 1, 3, 3, 3, 7, -1]"}, 1, ""},
		{"logsum", []string{"10i64"}, 1, ""},
		{"sum_logsums", []string{"10i64"}, 2, ""},
		{"prefix_sums", []string{"[1, 2, 3, 4, 5]"}, 1, ""},
		{"mandelbrot", []string{"4i64", "4i64", "16i32"}, 2, ""},
		{"filter", []string{"[1.0f32, -2.0f32, 3.0f32]"}, 1, ""},
		{"spmv", []string{"[0i64, 2i64, 3i64, 5i64]", "[0i64, 2i64, 1i64, 0i64, 2i64]", "[1.0, 2.0, 3.0, 4.0, 5.0]", "[1.0, 2.0, 3.0]"}, 2, ""},
		{"kmeans", []string{"2i64", "5i32", "[[0f32, 0f32], [10f32, 10f32], [0f32, 1f32], [10f32, 11f32], [1f32, 0f32]]"}, 7, ""},
		{"radix_sort", []string{"[5u32, 3u32, 9u32]"}, 1, ""}, // one partition per pass
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			s := newSession(t, "../../examples/"+c.file+".fut")
			var args []value.Value
			for _, in := range c.inputs {
				r, err := s.EvalExpr(ctx, in)
				if err != nil {
					t.Fatal(s.FormatError(err))
				}
				args = append(args, r.Value)
			}
			p, irArgs, err := s.LowerEntryIR("main", args)
			if c.lowered != "" {
				if err == nil || !lower.IsNotLowered(err) || !strings.Contains(err.Error(), c.lowered) || !strings.Contains(err.Error(), ".fut:") {
					t.Fatalf("want a not-lowered error about %q with a position, got %v", c.lowered, err)
				}
				t.Log(err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := s.CallEntry(ctx, "main", args)
			if err != nil {
				t.Fatal(s.FormatError(err))
			}
			final, stages, err := ir.Run(p, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range stages {
				q, err := ir.Parse(st.Text)
				if err != nil {
					t.Fatalf("%s: %v", st.Name, err)
				}
				got, err := ir.EvalAll(ctx, q, irArgs)
				if err != nil {
					t.Fatalf("%s: %v", st.Name, err)
				}
				if !close(value.Tuple(got), value.Tuple(flat(want))) {
					t.Errorf("%s: got %v, want %v", st.Name, got, want)
				}
			}
			if n := countSOACs(final); n != c.soacs {
				t.Errorf("%d SOACs after fusion, want %d\n%s", n, c.soacs, final)
			}
		})
	}
}

// flat spreads tuple results the way the IR returns them.
func flat(vs []value.Value) []value.Value {
	var out []value.Value
	for _, v := range vs {
		if tup, ok := v.(value.Tuple); ok {
			out = append(out, flat(tup)...)
			continue
		}
		out = append(out, v)
	}
	return out
}
