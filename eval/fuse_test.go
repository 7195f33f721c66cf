package eval

import (
	"testing"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// TestFusedPathByResolution checks that the map-reduce fast path finds
// the prelude's reduce and map by what the checker resolved their bodies'
// names to, and that a user's definitions of the same names do not fool
// it: a shadowing map that is not the prelude's wrapper takes the general
// path (and gives its own answer).
func TestFusedPathByResolution(t *testing.T) {
	s := newSession(t, true)
	if s.check == nil {
		t.Skip("no checker in this session")
	}
	fused := fusedIn(t, s)
	if !fused(`reduce (+) 0 (map (\x -> x * 2) (iota 10))`) {
		t.Error("reduce of a map does not take the fused path")
	}
	if _, _, err := s.run(`def map (f: i64 -> i64) (xs: []i64) : []i64 = reverse xs`); err != nil {
		t.Fatal(err)
	}
	if fused(`reduce (+) 0 (map (\x -> x * 2) (iota 10))`) {
		t.Error("a user's map shadowing the prelude's takes the fused path")
	}
	if got := s.val(`reduce (+) 0 (map (\x -> x * 2) (iota 10))`); got != "45i64" {
		t.Errorf("with the user's map: got %s, want 45i64", got)
	}
}

// TestFusedPathByIdentity: the fusion takes a function for the prelude's
// map or reduce by the declaration it was made from, not by what its body
// looks like: a user's definitions that wrap the same intrinsics as the
// prelude's do are other functions, and take the general path, while the
// prelude's, reached by another name, are still the prelude's.
func TestFusedPathByIdentity(t *testing.T) {
	s := newSession(t, true)
	if s.check == nil {
		t.Skip("no checker in this session")
	}
	fused := fusedIn(t, s)
	for _, def := range []string{
		`def pmap 'a 'x (f: a -> x) (as: []a) : []x = map f as`,
		`def pred 'a (op: a -> a -> a) (ne: a) (as: []a) : a = reduce op ne as`,
		`def pmap2 = map2`,
		`def red = reduce`,
	} {
		if _, _, err := s.run(def); err != nil {
			t.Fatal(err)
		}
	}
	if !fused(`red (+) 0 (map2 (*) (iota 10) (iota 10))`) {
		t.Error("the prelude's reduce and map2 under other names do not take the fused path")
	}
	if !fused(`reduce (+) 0 (pmap2 (*) (iota 10) (iota 10))`) {
		t.Error("the prelude's map2 under another name does not take the fused path")
	}
	if fused(`reduce (+) 0 (pmap (\x -> x * 2) (iota 10))`) || fused(`pred (+) 0 (map (\x -> x * 2) (iota 10))`) {
		t.Error("a user's function that calls the prelude's is taken for it")
	}
	// the user's own wrappers of the intrinsics, under the prelude's names
	for _, def := range []string{
		`def map 'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x = intrinsics.map f as`,
		`def reduce [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a = intrinsics.reduce op ne as`,
	} {
		if _, _, err := s.run(def); err != nil {
			t.Skipf("a user's program cannot name intrinsics: %v", err)
		}
	}
	if fused(`reduce (+) 0 (map2 (*) (iota 10) (iota 10))`) || fused(`red (+) 0 (map (\x -> x * 2) (iota 10))`) {
		t.Error("a user's reduce or map that wraps the intrinsic as the prelude's does is taken for the prelude's")
	}
	if !fused(`red (+) 0 (pmap2 (*) (iota 10) (iota 10))`) {
		t.Error("the prelude's reduce and map2 no longer fuse once the names are shadowed")
	}
	if got := s.val(`reduce (+) 0 (map (\x -> x * 2) (iota 10))`); got != "90i64" {
		t.Errorf("with the user's map and reduce: got %s, want 90i64", got)
	}
}

// TestPreludeSOACsWrap checks what the fusion assumes of the prelude's
// functions that it knows by identity (fusedSOACs): map, reduce and
// reduce_comm apply the intrinsic of their name to their parameters in
// order, and map2 is intrinsics.map (\(a, b) -> f a b) (intrinsics.zip
// as bs), as the checker resolved the names in their bodies. A prelude
// whose definitions did more would be priced wrongly by the fused loop.
func TestPreludeSOACsWrap(t *testing.T) {
	s := newSession(t, true)
	r, ok := s.in.info.(Resolver)
	if !ok {
		t.Skip("no resolution in this session")
	}
	intrinsic := func(x syntax.Expr, name string) bool {
		v, ok := unparen(x).(*syntax.Var)
		if !ok {
			return false
		}
		obj, ok := r.Use(v)
		return ok && obj.Kind == types.ObjIntrinsic && obj.Name == name
	}
	local := func(x syntax.Expr, name string) bool {
		v, ok := unparen(x).(*syntax.Var)
		return ok && len(v.Name.Quals) == 0 && v.Name.Name == name && name != ""
	}
	found := map[string]bool{}
	for fb, name := range s.in.preludeSOACs {
		found[name] = true
		if fb.Name != name {
			t.Errorf("the declaration of %s is recorded as the prelude's %s", fb.Name, name)
		}
		var ps []string
		for _, p := range fb.Params {
			n, ok := simplePat(p)
			if !ok {
				t.Fatalf("%s: parameter %d is not a name", name, len(ps))
			}
			ps = append(ps, n)
		}
		body, ok := unparen(fb.Body).(*syntax.Apply)
		if !ok {
			t.Errorf("%s's body is not an application", name)
			continue
		}
		if name != "map2" {
			ok := intrinsic(body.Fn, name) && len(body.Args) == len(ps)
			for i := 0; ok && i < len(ps); i++ {
				ok = local(body.Args[i], ps[i])
			}
			if !ok {
				t.Errorf("%s does not apply intrinsics.%s to its parameters in order", name, name)
			}
			continue
		}
		ok = len(ps) == 3 && intrinsic(body.Fn, "map") && len(body.Args) == 2
		if ok {
			lam, ok1 := unparen(body.Args[0]).(*syntax.Lambda)
			zip, ok2 := unparen(body.Args[1]).(*syntax.Apply)
			ok = ok1 && ok2 && len(lam.Params) == 1 && intrinsic(zip.Fn, "zip") && len(zip.Args) == 2 &&
				local(zip.Args[0], ps[1]) && local(zip.Args[1], ps[2])
			if ok {
				ab, ok1 := tuplePat(lam.Params[0])
				call, ok2 := unparen(lam.Body).(*syntax.Apply)
				ok = ok1 && ok2 && len(ab) == 2 && local(call.Fn, ps[0]) && len(call.Args) == 2 &&
					local(call.Args[0], ab[0]) && local(call.Args[1], ab[1])
			}
		}
		if !ok {
			t.Errorf("map2 is not intrinsics.map (\\(a, b) -> f a b) (intrinsics.zip as bs)")
		}
	}
	for _, name := range fusedSOACs {
		if !found[name] {
			t.Errorf("the prelude's %s is not recorded", name)
		}
	}
}

// fusedIn reports whether an expression, checked in s, takes the fused
// map–reduce path.
func fusedIn(t *testing.T, s *session) func(src string) bool {
	return func(src string) bool {
		t.Helper()
		_, e, err := syntax.ParseEntry(s.fset, "<test>", []byte(src))
		if err != nil || e == nil {
			t.Fatalf("parse %q: %v", src, err)
		}
		if _, err := s.check.CheckExpr(e); err != nil {
			t.Fatalf("check %q: %v", src, s.fset.FormatAll(err))
		}
		th := s.in.newThread(t.Context())
		x, isApply := unparen(e).(*syntax.Apply)
		if !isApply || !mayFuse(x) {
			return false
		}
		inner := unparen(x.Args[2]).(*syntax.Apply)
		parts := append([]syntax.Expr{x.Fn, inner.Fn, x.Args[0], x.Args[1]}, inner.Args...)
		_, ok, err := th.fusedMapReduceBy(x, inner, func(k int) (value.Value, error) {
			return th.evalCompiled(parts[k], rootEnv(s.in.top))
		})
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		return ok
	}
}

// tuplePat returns the names of a pattern (p1, …, pk) of simple patterns.
func tuplePat(p syntax.Pat) ([]string, bool) {
	switch q := p.(type) {
	case *syntax.PParen:
		return tuplePat(q.P)
	case *syntax.PAscript:
		return tuplePat(q.P)
	case *syntax.PTuple:
		names := make([]string, len(q.Elems))
		for i, el := range q.Elems {
			n, ok := simplePat(el)
			if !ok {
				return nil, false
			}
			names[i] = n
		}
		return names, len(names) > 1
	}
	return nil, false
}

// simplePat returns the name a pattern binds when it binds one scalar
// name (or none, for _).
func simplePat(p syntax.Pat) (string, bool) {
	switch p := p.(type) {
	case *syntax.PId:
		return p.Name, true
	case *syntax.PWild:
		return "", true
	case *syntax.PParen:
		return simplePat(p.P)
	case *syntax.PAscript:
		return simplePat(p.P)
	case *syntax.PAttr:
		return simplePat(p.P)
	}
	return "", false
}
