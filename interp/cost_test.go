package interp

import (
	"context"
	"strconv"
	"testing"

	"fut/eval"
)

// The worked examples of COST_MODEL.md must come out exactly.
func TestCostModelExamples(t *testing.T) {
	s, err := NewSession(Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		src  string
		want eval.Cost
	}{
		{"1 + 2", eval.Cost{Work: 3, Depth: 3, SpaceSeq: 3, SpacePar: 3}},
		{"iota 4", eval.Cost{Work: 5, Depth: 2, SpaceSeq: 6, SpacePar: 6}},
		{`map (\x -> x * 2) (iota 4)`, eval.Cost{Work: 17, Depth: 5, SpaceSeq: 12, SpacePar: 18}},
		{"reduce (+) 0 (iota 4)", eval.Cost{Work: 13, Depth: 6, SpaceSeq: 7, SpacePar: 8}},
	}
	for _, c := range cases {
		r, err := s.EvalExpr(context.Background(), c.src)
		if err != nil {
			t.Errorf("%s: %s", c.src, s.FormatError(err))
			continue
		}
		if r.Cost != c.want {
			t.Errorf("%s: cost %v, want %v", c.src, r.Cost, c.want)
		}
	}
}

// reduce (+) 0 (iota n) costs (3n + 1, 4 + lg n, n + 3, n + 2 + ⌈n/2⌉)
// for a literal n ≥ 2 (COST_MODEL.md).
func TestCostReduceIotaFormula(t *testing.T) {
	s, err := NewSession(Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{2, 3, 5, 8, 100, 1000} {
		r, err := s.EvalExpr(context.Background(), "reduce (+) 0 (iota "+strconv.FormatInt(n, 10)+")")
		if err != nil {
			t.Fatal(s.FormatError(err))
		}
		lg := int64(0)
		for (int64(1) << lg) < n {
			lg++
		}
		want := eval.Cost{Work: 3*n + 1, Depth: 4 + lg, SpaceSeq: n + 3, SpacePar: n + 2 + (n+1)/2}
		if r.Cost != want {
			t.Errorf("n=%d: cost %v, want %v", n, r.Cost, want)
		}
	}
}
