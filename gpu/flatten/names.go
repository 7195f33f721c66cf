package flatten

import "fut/interp/ir"

// stmNames lists every variable name a statement mentions (its operands,
// arrays, the dimensions of its types, and names bound inside its
// bodies): a superset of its free variables, since IR names are bound
// once.
func stmNames(s *ir.Stm) []string {
	var ns []string
	add := func(n string) {
		if n != "" {
			ns = append(ns, n)
		}
	}
	w := &walker{add: add}
	for _, p := range s.Pat {
		w.typ(p.T)
	}
	w.exp(s.E)
	return ns
}

type walker struct{ add func(string) }

func (w *walker) atoms(as ...ir.Atom) {
	for _, a := range as {
		w.add(a.Name)
	}
}

func (w *walker) names(ns ...string) {
	for _, n := range ns {
		w.add(n)
	}
}

func (w *walker) typ(t ir.Type) { w.atoms(t.Shape...) }

func (w *walker) params(ps []ir.Param) {
	for _, p := range ps {
		w.typ(p.T)
	}
}

func (w *walker) body(b *ir.Body) {
	if b == nil {
		return
	}
	for _, s := range b.Stms {
		w.params(s.Pat)
		w.exp(s.E)
	}
	w.atoms(b.Res...)
}

func (w *walker) lambda(l *ir.Lambda) {
	if l == nil {
		return
	}
	w.params(l.Params)
	for _, t := range l.Ret {
		w.typ(t)
	}
	w.body(l.Body)
}

func (w *walker) segops(ops ...*ir.SegOp) {
	for _, op := range ops {
		if op != nil {
			w.lambda(op.Lam)
			w.atoms(op.Nes...)
		}
	}
}

func (w *walker) exp(e ir.Exp) {
	switch e := e.(type) {
	case *ir.AtomE:
		w.atoms(e.X)
	case *ir.BinOpE:
		w.atoms(e.X, e.Y)
	case *ir.UnOpE:
		w.atoms(e.Args...)
	case *ir.ConvE:
		w.atoms(e.X)
	case *ir.AssertE:
		w.atoms(e.Cond)
	case *ir.IfE:
		w.atoms(e.Cond)
		w.body(e.Then)
		w.body(e.Else)
		for _, t := range e.Ret {
			w.typ(t)
		}
	case *ir.LoopE:
		w.params(e.Params)
		w.atoms(e.Init...)
		w.atoms(e.Bound)
		w.body(e.While)
		w.body(e.Body)
		w.params(e.Elems)
		w.names(e.Over...)
	case *ir.IndexE:
		w.names(e.Arr)
		w.atoms(e.Idx...)
	case *ir.UpdateE:
		w.names(e.Arr)
		w.atoms(e.Idx...)
		w.atoms(e.X)
	case *ir.SliceE:
		w.names(e.Arr)
		w.atoms(e.Start, e.Len)
	case *ir.IotaE:
		w.atoms(e.N, e.Start)
	case *ir.ReplicateE:
		w.atoms(e.N, e.X)
	case *ir.ArrayE:
		w.typ(e.Elem)
		w.atoms(e.Elems...)
	case *ir.TransposeE:
		w.names(e.Arr)
	case *ir.ConcatE:
		w.atoms(e.N)
		w.names(e.Arrs...)
	case *ir.ReshapeE:
		w.names(e.Arr)
		w.atoms(e.Shape...)
	case *ir.ReverseE:
		w.names(e.Arr)
	case *ir.CopyE:
		w.names(e.Arr)
	case *ir.ScremaE:
		w.atoms(e.W)
		w.names(e.Arrs...)
		w.segops(e.Scans...)
		w.segops(e.Reds...)
		w.lambda(e.Map)
	case *ir.StreamE:
		w.atoms(e.W)
		w.names(e.Arrs...)
		w.lambda(e.Red)
		w.lambda(e.Fold)
	case *ir.FilterE:
		w.atoms(e.W)
		w.names(e.Arrs...)
		w.lambda(e.Map)
	case *ir.ScatterE:
		w.names(e.Dest)
		w.atoms(e.W)
		w.names(e.Arrs...)
		w.lambda(e.Map)
	case *ir.HistE:
		w.names(e.Dest)
		w.atoms(e.W)
		w.names(e.Arrs...)
		w.segops(e.Op)
		w.lambda(e.Map)
	}
}
