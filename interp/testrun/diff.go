package testrun

import (
	"fmt"
	"math"
	"strings"

	"fut/eval/value"
)

// Results are compared with expected values as futhark test compares
// them: integers and bools exactly, and the floats of each expected value
// (a scalar, or an array whole) within one absolute tolerance, tol or tol
// times the largest magnitude among its finite elements where that is
// larger. An element near zero is then compared at the scale of its
// array: a transform's -5.5e-15 where the array holds 45 (Futhark's
// fourier.fut) is matched by 5.8e-6, which a tolerance relative to each
// element would reject. (futhark scales by the largest element, not the
// largest magnitude, so an array of large negative values keeps tol
// there.) NaN matches NaN, and an infinity one of its sign.

// floatTol is the absolute tolerance for floats compared with want.
func floatTol(want value.Value, tol float64) float64 {
	t := tol
	seen := func(x float64) {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			t = max(t, tol*math.Abs(x))
		}
	}
	switch w := want.(type) {
	case value.Prim:
		if w.T.IsFloat() {
			seen(w.Float())
		}
	case *value.Array:
		if w.Kind == value.KPrim && w.T.IsFloat() {
			for i := range int(w.NumElems()) {
				seen(value.DataGet(w.T, w.Data, i).Float())
			}
		}
	}
	return t
}

// closeEnough reports whether got matches want (see above); values that
// are neither floats nor arrays of floats compare as value.Equal does.
func closeEnough(got, want value.Value, tol float64) bool {
	switch w := want.(type) {
	case value.Tuple:
		g, ok := got.(value.Tuple)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !closeEnough(g[i], w[i], tol) {
				return false
			}
		}
		return true
	case value.Prim:
		g, ok := got.(value.Prim)
		if w.T.IsFloat() && ok && g.T == w.T {
			return value.FloatWithin(g.Float(), w.Float(), floatTol(w, tol))
		}
	case *value.Array:
		g, ok := got.(*value.Array)
		if w.Kind == value.KPrim && w.T.IsFloat() && ok && g.Kind == value.KPrim && g.T == w.T {
			if value.ShapeString(g.FullShape()) != value.ShapeString(w.FullShape()) {
				return false
			}
			abstol := floatTol(w, tol)
			for i := range int(w.NumElems()) {
				if !value.FloatWithin(value.DataGet(g.T, g.Data, i).Float(), value.DataGet(w.T, w.Data, i).Float(), abstol) {
					return false
				}
			}
			return true
		}
	}
	return value.Equal(got, want, tol)
}

// mismatch says where got first differs from want: the result, the index
// of the first differing element (row-major) and the two values there, or
// the shapes when they differ. A long array is never printed whole.
func mismatch(result int, want, got value.Value, tol float64) string {
	path, w, g := firstDiff(want, got, tol, -1)
	if path == "" {
		return fmt.Sprintf("result %d differs: expected %s, got %s", result, w, g)
	}
	return fmt.Sprintf("result %d differs at %s: expected %s, got %s", result, path, w, g)
}

// firstDiff finds the first place where a (expected) and b differ: a
// path (.k for a tuple component, [i, j] for an element) and what each
// holds there. abstol is the float tolerance of the expected value that
// a is part of (-1: a is a whole expected value).
func firstDiff(a, b value.Value, tol, abstol float64) (path, want, got string) {
	if abstol < 0 {
		abstol = floatTol(a, tol)
	}
	differ := func(x, y value.Value) bool {
		if xp, ok := x.(value.Prim); ok && xp.T.IsFloat() {
			yp, ok := y.(value.Prim)
			return !ok || yp.T != xp.T || !value.FloatWithin(yp.Float(), xp.Float(), abstol)
		}
		return !closeEnough(y, x, tol)
	}
	switch x := a.(type) {
	case value.Tuple:
		if y, ok := b.(value.Tuple); ok && len(x) == len(y) {
			for i := range x {
				if !closeEnough(y[i], x[i], tol) {
					p, w, g := firstDiff(x[i], y[i], tol, -1)
					return fmt.Sprintf(".%d%s", i, p), w, g
				}
			}
		}
	case *value.Array:
		y, ok := b.(*value.Array)
		if !ok {
			break
		}
		xs, ys := x.FullShape(), y.FullShape()
		if value.ShapeString(xs) != value.ShapeString(ys) {
			return "", "an array of shape " + value.ShapeString(xs), "one of shape " + value.ShapeString(ys)
		}
		if x.Len() == 0 {
			break
		}
		for i := int64(0); i < x.Len(); i++ {
			ex, ey := x.Index(i), y.Index(i)
			if differ(ex, ey) {
				p, w, g := firstDiff(ex, ey, tol, abstol)
				if strings.HasPrefix(p, "[") {
					// fold nested indices into one: [i, j]
					return fmt.Sprintf("[%d, %s", i, p[1:]), w, g
				}
				return fmt.Sprintf("[%d]%s", i, p), w, g
			}
		}
	}
	return "", short(a), short(b)
}

// Mismatch is where got first differs from want (floats within tol), for
// fut datacmp: "" when they are equal.
func Mismatch(which int, want, got value.Value, tol float64) string {
	if closeEnough(got, want, tol) {
		return ""
	}
	path, w, g := firstDiff(want, got, tol, -1)
	if path == "" {
		return fmt.Sprintf("value %d differs: %s against %s", which, w, g)
	}
	return fmt.Sprintf("value %d differs at %s: %s against %s", which, path, w, g)
}
