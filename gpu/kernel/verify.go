package kernel

import "fmt"

// Verify checks that every variable is bound before use and bound once,
// that reads and writes name buffer parameters with the right number of
// indices, and that the shape's parts agree in number. Type agreement of
// operators is checked by code generation.
func Verify(k *Kernel) error {
	v := &verifier{k: k, bound: map[string]bool{}, bufs: map[*Param]bool{}}
	for _, p := range k.Params {
		if v.bound[p.Name] {
			return fmt.Errorf("kernel %s: parameter %s declared twice", k.Name, p.Name)
		}
		v.bound[p.Name] = true
		if p.Buffer {
			v.bufs[p] = true
		}
	}
	for _, p := range k.Params {
		for _, e := range p.Shape {
			v.exp(e)
		}
	}
	switch s := k.Shape.(type) {
	case *Map:
		if len(s.Dims) != len(s.Idx) || len(s.Dims) == 0 {
			v.fail("map with %d dimensions and %d indices", len(s.Dims), len(s.Idx))
		}
		v.exps(s.Dims)
		for _, i := range s.Idx {
			v.bind(i)
		}
		v.stmts(s.Body)
	case *Reduce:
		if s.Segments != nil {
			v.exp(s.Segments)
			v.bind(s.Seg)
		}
		v.exp(s.N)
		v.bind(s.I)
		v.stmts(s.Body)
		v.exps(s.Elems)
		v.exps(s.Neutral)
		v.lambda(s.Op, len(s.Elems))
		v.outs(s.Out, len(s.Elems))
	case *Tiled:
		if len(s.Dims) != len(s.Idx) || len(s.Dims) == 0 || len(s.Dims) > 2 {
			v.fail("tiled map with %d dimensions and %d indices", len(s.Dims), len(s.Idx))
		}
		v.exps(s.Dims)
		v.exp(s.K)
		for _, i := range s.Idx {
			v.bind(i)
		}
		v.bind(s.T)
		v.stmts(s.Body)
		v.exps(s.Elems)
		v.exps(s.Neutral)
		v.lambda(s.Op, len(s.Elems))
		if s.PostRes != nil {
			if len(s.PostIn) != len(s.Elems) {
				v.fail("tiled map: %d inputs of its last statements for %d components", len(s.PostIn), len(s.Elems))
			}
			for _, x := range s.PostIn {
				v.bind(x)
			}
			v.stmts(s.Post)
			v.exps(s.PostRes)
			v.outs(s.Out, len(s.PostRes))
		} else {
			v.outs(s.Out, len(s.Elems))
		}
		for _, t := range s.Tiles {
			if !v.bufs[t] {
				v.fail("tile of %s, not a buffer parameter", t.Name)
			}
		}
	case *Scan:
		v.exp(s.N)
		v.bind(s.I)
		v.stmts(s.Body)
		v.exps(s.Elems)
		v.exps(s.Neutral)
		v.lambda(s.Op, len(s.Elems))
		if k := s.Keep; k != nil {
			if len(s.Elems) != 1 || !s.Elems[0].Type().IsInt() || len(s.Out) != 0 {
				v.fail("a compacting scan needs one integer flag and no scan output")
			}
			v.exps(k.Vals)
			if len(k.Dest) != len(k.Vals) {
				v.fail("a compaction with %d destinations for %d values", len(k.Dest), len(k.Vals))
			}
			v.outs(k.Dest, len(k.Dest))
			if k.Count == nil || k.Count.T != I64 {
				v.fail("a compaction without its i64 count")
			} else {
				v.outs([]*Param{k.Count}, 1)
			}
		} else {
			v.outs(s.Out, len(s.Elems))
		}
	case *Scatter:
		v.exp(s.N)
		v.bind(s.I)
		v.stmts(s.Body)
		if len(s.Dest) != len(s.Idx) || len(s.Dest) != len(s.Vals) {
			v.fail("scatter with %d destinations, %d indices and %d values", len(s.Dest), len(s.Idx), len(s.Vals))
		}
		v.exps(s.Idx)
		v.exps(s.Vals)
		v.outs(s.Dest, len(s.Dest))
	case *Hist:
		v.exp(s.N)
		v.bind(s.I)
		v.stmts(s.Body)
		v.exp(s.Bin)
		v.exp(s.Val)
		v.exp(s.Neutral)
		v.lambda(s.Op, 1)
		v.outs([]*Param{s.Dest}, 1)
	default:
		v.fail("no shape")
	}
	return v.err
}

type verifier struct {
	k     *Kernel
	bound map[string]bool
	bufs  map[*Param]bool
	err   error
}

func (v *verifier) fail(format string, args ...any) {
	if v.err == nil {
		v.err = fmt.Errorf("kernel %s: %s", v.k.Name, fmt.Sprintf(format, args...))
	}
}

func (v *verifier) bind(x Var) {
	if x.Name == "" {
		v.fail("a variable without a name")
	} else if v.bound[x.Name] {
		v.fail("%s is bound twice", x.Name)
	}
	v.bound[x.Name] = true
}

func (v *verifier) outs(ps []*Param, n int) {
	if len(ps) != n {
		v.fail("%d outputs for %d results", len(ps), n)
	}
	for _, p := range ps {
		if p == nil || !v.bufs[p] {
			v.fail("output is not a buffer parameter of the kernel")
		}
	}
}

// lambda checks an operator in its own scope (its names may repeat
// across operators but not clash with the kernel's).
func (v *verifier) lambda(l Lambda, n int) {
	if len(l.X) != n || len(l.Y) != n || len(l.Res) != n {
		v.fail("operator on %d components has %d, %d parameters and %d results", n, len(l.X), len(l.Y), len(l.Res))
	}
	v.scoped(func() {
		for _, x := range append(append([]Var(nil), l.X...), l.Y...) {
			v.bind(x)
		}
		v.stmts(l.Body)
		v.exps(l.Res)
	})
}

// scoped runs f and then forgets what f bound (a C block).
func (v *verifier) scoped(f func()) {
	saved := make(map[string]bool, len(v.bound))
	for k, b := range v.bound {
		saved[k] = b
	}
	f()
	v.bound = saved
}

func (v *verifier) stmts(ss []Stmt) {
	for _, s := range ss {
		switch s := s.(type) {
		case *Let:
			v.exp(s.E)
			v.bind(s.V)
		case *Write:
			v.access(s.Buf, s.Idx)
			v.exp(s.V)
		case *Assert:
			v.exp(s.Cond)
			v.exps(s.Idx)
			v.exps(s.Shape)
			if len(s.Idx) > len(s.Shape) {
				v.fail("a bounds check of %d indices against %d dimensions", len(s.Idx), len(s.Shape))
			}
			if s.Cond.Type() != Bool {
				v.fail("assert of a %v", s.Cond.Type())
			}
		case *If:
			v.exp(s.Cond)
			if len(s.ThenRes) != len(s.Res) || len(s.ElseRes) != len(s.Res) {
				v.fail("if with %d results and %d/%d branch results", len(s.Res), len(s.ThenRes), len(s.ElseRes))
			}
			v.scoped(func() { v.stmts(s.Then); v.exps(s.ThenRes) })
			v.scoped(func() { v.stmts(s.Else); v.exps(s.ElseRes) })
			for _, r := range s.Res {
				v.bind(r)
			}
		case *Loop:
			if len(s.Init) != len(s.Params) || len(s.Next) != len(s.Params) {
				v.fail("loop with %d parameters, %d initial and %d next values", len(s.Params), len(s.Init), len(s.Next))
			}
			v.exps(s.Init)
			for _, p := range s.Params {
				v.bind(p)
			}
			if s.While == nil {
				v.exp(s.N)
			}
			v.scoped(func() {
				if s.While != nil {
					v.exp(s.While)
				} else {
					v.bind(s.I)
				}
				v.stmts(s.Body)
				v.exps(s.Next)
			})
		case nil:
			v.fail("nil statement")
		}
	}
}

func (v *verifier) access(p *Param, idx []Exp) {
	if p == nil || !v.bufs[p] {
		v.fail("access to a buffer that is not a parameter of the kernel")
		return
	}
	if len(idx) != len(p.Shape) {
		v.fail("%s has rank %d, indexed with %d indices", p.Name, len(p.Shape), len(idx))
	}
	v.exps(idx)
}

func (v *verifier) exps(es []Exp) {
	for _, e := range es {
		v.exp(e)
	}
}

func (v *verifier) exp(e Exp) {
	switch e := e.(type) {
	case Var:
		if !v.bound[e.Name] {
			v.fail("%s is not bound", e.Name)
		}
	case Const:
	case BinOp:
		v.exp(e.X)
		v.exp(e.Y)
	case UnOp:
		v.exp(e.X)
	case Conv:
		v.exp(e.X)
	case Call:
		v.exps(e.Args)
	case Select:
		v.exp(e.C)
		v.exp(e.T)
		v.exp(e.F)
	case Read:
		v.access(e.Buf, e.Idx)
	case nil:
		v.fail("missing expression")
	default:
		v.fail("unknown expression %T", e)
	}
}
