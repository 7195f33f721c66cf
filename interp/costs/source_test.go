package costs

import (
	"reflect"
	"testing"
)

func TestSplitAlternatives(t *testing.T) {
	for in, want := range map[string][]string{
		"1 + 2":                        {"1 + 2"},
		"a | b":                        {"a", "b"},
		"f x|g y | h":                  {"f x", "g y", "h"},
		"x || y | z":                   {"x || y", "z"},
		"xs |> f | (a | b)":            {"xs |> f", "(a | b)"},
		"[1 | 2] | \"|\" | '|'":        {"[1 | 2]", "\"|\"", "'|'"},
		"x' | y -- a comment | here\n": {"x'", "y -- a comment | here"},
	} {
		if got := SplitAlternatives(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitAlternatives(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSubstitute(t *testing.T) {
	got, ok, err := Substitute(`map (\i -> i + n) (iota n) |> M.n |> r.n`, "n", 256)
	if err != nil || !ok || got != `map (\i -> i + 256) (iota 256) |> M.n |> r.n` {
		t.Errorf("Substitute: %q %v %v", got, ok, err)
	}
	if _, ok, err := Substitute(`iota m`, "n", 4); ok || err != nil {
		t.Errorf("n does not occur in iota m: %v %v", ok, err)
	}
	if _, _, err := Substitute(`iota (`, "n", 4); err == nil {
		t.Errorf("a syntax error went unreported")
	}
}

func TestSplitWhere(t *testing.T) {
	e, bs, err := SplitWhere(`dot xs ys where xs = map f64.i64 (iota n), ys = replicate n (1, 2).0`)
	want := []Binding{{"xs", "map f64.i64 (iota n)"}, {"ys", "replicate n (1, 2).0"}}
	if err != nil || e != "dot xs ys" || !reflect.DeepEqual(bs, want) {
		t.Errorf("SplitWhere: %q %q %v", e, bs, err)
	}
	if e, bs, err := SplitWhere(`f nowhere (where)`); err != nil || e != "f nowhere (where)" || bs != nil {
		t.Errorf("SplitWhere without where: %q %v %v", e, bs, err)
	}
	if _, _, err := SplitWhere(`f x where 3`); err == nil {
		t.Errorf("a binding without a name was accepted")
	}
}
