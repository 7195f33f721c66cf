package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// patValue rebuilds the value of a loop pattern from the variables it
// names (loop x for … with no initialiser).
func (t *thread) patValue(p syntax.Pat, e *env) (value.Value, error) {
	switch p := p.(type) {
	case *syntax.PId:
		v, ok := e.lookup(p.Name)
		if !ok {
			return nil, t.errf(p.Pos(), "unknown name %s", p.Name)
		}
		return v, nil
	case *syntax.PParen:
		return t.patValue(p.P, e)
	case *syntax.PAscript:
		return t.patValue(p.P, e)
	case *syntax.PAttr:
		return t.patValue(p.P, e)
	case *syntax.PTuple:
		out := make(value.Tuple, len(p.Elems))
		for i, q := range p.Elems {
			v, err := t.patValue(q, e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *syntax.PRecord:
		names := make([]string, len(p.Fields))
		vals := make([]value.Value, len(p.Fields))
		for i, f := range p.Fields {
			q := f.Pat
			if q == nil {
				q = &syntax.PId{Loc: f.Loc, Name: f.Name}
			}
			v, err := t.patValue(q, e)
			if err != nil {
				return nil, err
			}
			names[i], vals[i] = f.Name, v
		}
		return value.NewRecord(names, vals), nil
	}
	return nil, t.errf(p.Pos(), "loop pattern needs an initial value")
}
