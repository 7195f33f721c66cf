package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled indexing, a[i, j:k] (eval_index.go): an index evaluates its
// parts by its form (form.go) and hands their values to evalIndicesBy;
// an update's are compiled and handed to updatePathBy, which checks them
// against the shape in the order it asks for them.

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

// index compiles a[i, j:k] by its form: the array, then the parts of
// its dimensions (indexParts), each an integer, which evalIndicesBy
// checks against the shape, then the form's rule (indexStep).
func (cc *ccomp) index(x *syntax.Index, sc *cscope) cexpr {
	fm, _ := formOf(x)
	arr, parts := cc.expr(fm.head, sc), cc.exprs(fm.ops, sc)
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
		var buf [4]int64
		is := buf[:0]
		for k, p := range parts {
			pv, err := p(t, bp)
			if err != nil {
				return nil, err
			}
			i, err := t.indexInt(fm.ops[k], pv)
			if err != nil {
				return nil, err
			}
			is = append(is, i)
		}
		ds, err := t.evalIndicesBy(x.Indices, a.FullShape(), func(ix syntax.Expr) (int64, error) {
			for k, y := range fm.ops {
				if y == ix {
					return is[k], nil
				}
			}
			return 0, t.errf(ix.Pos(), "cannot evaluate %T in an index", ix) // it asks for the parts only
		}, x.Pos())
		if err != nil {
			return nil, err
		}
		r := indexArray(a, ds)
		if fm.rule == stepIndex {
			t.indexStep(base, r) // a slice's step holds no space
		} else {
			t.after(fm.rule, base)
		}
		return r, nil
	}
}
