package eval

import "testing"

func TestWorkedExamples(t *testing.T) {
	s := newSession(t, true)
	cases := []struct {
		src  string
		want Cost
	}{
		{"1 + 2", Cost{3, 3, 3, 3}},
		{"iota 4", Cost{5, 2, 6, 6}},
		{"map (\\x -> x * 2) (iota 4)", Cost{17, 5, 12, 18}},
		{"reduce (+) 0 (iota 4)", Cost{13, 6, 7, 8}},
	}
	for _, c := range cases {
		_, got, err := s.run(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got != c.want {
			t.Errorf("cost of %s = %v, want %v", c.src, got, c.want)
		}
	}
	// reduce (+) 0 (iota n) costs (3n + 1, 4 + lg n, n + 3, n + 2 + ⌈n/2⌉)
	for _, n := range []int64{2, 3, 5, 8, 17, 100} {
		src := "reduce (+) 0 (iota " + itoa(n) + ")"
		_, got, err := s.run(src)
		if err != nil {
			t.Fatal(err)
		}
		want := Cost{3*n + 1, 4 + lg(n), n + 3, n + 2 + (n+1)/2}
		if got != want {
			t.Errorf("cost of %s = %v, want %v", src, got, want)
		}
	}
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// Empty inputs still cost one unit of work per step, so that D ≤ W
// (COST_MODEL.md's invariant) holds for them too.
func TestEmptyCostsKeepDepthBelowWork(t *testing.T) {
	s := newSession(t, true)
	cases := []struct {
		src  string
		want Cost
	}{
		{"[] : []i32", Cost{1, 1, 1, 1}},
		{"reduce (+) 0 ([] : []i32)", Cost{3, 3, 0, 0}},
	}
	for _, c := range cases {
		_, got, err := s.run(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got.Work != c.want.Work || got.Depth != c.want.Depth {
			t.Errorf("cost of %s = %v, want W=%d D=%d", c.src, got, c.want.Work, c.want.Depth)
		}
	}
	for _, src := range []string{"iota 0", "replicate 0 1i32", "0..<0", "map (+1) (iota 0)",
		"scan (+) 0 (iota 0)", "filter (>0) (iota 0)", "concat (iota 0) (iota 0)",
		"reduce (+) 0 ([] : []i32)", "([] : [0][3]i32)", "transpose ([] : [0][2]i32)"} {
		_, got, err := s.run(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got.Depth > got.Work {
			t.Errorf("cost of %s = %v: D > W", src, got)
		}
	}
}
