package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled indexing, a[i, j:k] (eval_index.go): the index expressions
// are compiled and handed to evalIndicesBy and updatePathBy, which check
// them against the shape in the order they ask for them.

// cindices are the compiled index expressions of slices (their fixed
// indices, starts, ends and strides), by the expression each is.
type cindices []cindex

type cindex struct {
	x syntax.Expr
	c cexpr
}

// indices appends the compiled index expressions of ds to ps.
func (cc *ccomp) indices(ps cindices, ds []*syntax.DimIndex, sc *cscope) cindices {
	for _, d := range ds {
		for _, ix := range []syntax.Expr{d.Fix, d.Start, d.End, d.Stride} {
			if ix != nil {
				ps = append(ps, cindex{ix, cc.expr(ix, sc)})
			}
		}
	}
	return ps
}

// by evaluates the index expression ix in the frame at bp, as
// evalIndicesBy and updatePathBy ask for it.
func (ps cindices) by(t *thread, bp int, sc *cscope) func(ix syntax.Expr) (int64, error) {
	return func(ix syntax.Expr) (int64, error) {
		for _, p := range ps {
			if p.x == ix {
				v, err := p.c(t, bp)
				if err != nil {
					return 0, err
				}
				return t.indexInt(ix, v)
			}
		}
		return 0, t.errf(ix.Pos(), "cannot evaluate %T in an index", ix) // by asks for the parts only
	}
}

// index compiles a[i, j:k] (indexBy, eval_index.go).
func (cc *ccomp) index(x *syntax.Index, sc *cscope) cexpr {
	arr := cc.expr(x.X, sc)
	parts := cc.indices(nil, x.Indices, sc)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		v, err := arr(t, bp)
		if err != nil {
			return nil, err
		}
		a, ok := v.(*value.Array)
		if !ok {
			return nil, t.errf(x.Pos(), "indexing a value that is not an array")
		}
		ds, err := t.evalIndicesBy(x.Indices, a.FullShape(), parts.by(t, bp, sc), x.Pos())
		if err != nil {
			return nil, err
		}
		r := indexArray(a, ds)
		t.indexStep(base, r)
		return r, nil
	}
}
