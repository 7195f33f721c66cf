package testrun

import (
	"fmt"
	"strings"

	"fut/eval/value"
)

// mismatch says where got first differs from want: the result, the index
// of the first differing element (row-major) and the two values there, or
// the shapes when they differ. A long array is never printed whole.
func mismatch(result int, want, got value.Value, tol float64) string {
	path, w, g := firstDiff(want, got, tol)
	if path == "" {
		return fmt.Sprintf("result %d differs: expected %s, got %s", result, w, g)
	}
	return fmt.Sprintf("result %d differs at %s: expected %s, got %s", result, path, w, g)
}

// firstDiff finds the first place where a and b differ: a path (.k for a
// tuple component, [i, j] for an element) and what each holds there.
func firstDiff(a, b value.Value, tol float64) (path, want, got string) {
	switch x := a.(type) {
	case value.Tuple:
		if y, ok := b.(value.Tuple); ok && len(x) == len(y) {
			for i := range x {
				if !value.Equal(x[i], y[i], tol) {
					p, w, g := firstDiff(x[i], y[i], tol)
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
			if !value.Equal(ex, ey, tol) {
				p, w, g := firstDiff(ex, ey, tol)
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
	if value.Equal(want, got, tol) {
		return ""
	}
	path, w, g := firstDiff(want, got, tol)
	if path == "" {
		return fmt.Sprintf("value %d differs: %s against %s", which, w, g)
	}
	return fmt.Sprintf("value %d differs at %s: %s against %s", which, path, w, g)
}
