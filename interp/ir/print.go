package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"fut/eval/value"
)

// The text form, one statement a line:
//
//	prog (xs: [3]f64, ys: [3]f64) : (f64) {
//	  let (r: f64) = screma 3i64 (xs, ys) {
//	    reduce \(a: f64, b: f64) : (f64) { let (c: f64) = a + b  return (c) } (0f64)
//	    map \(x: f64, y: f64) : (f64) { let (p: f64) = x * y  return (p) }
//	  }
//	  return (r)
//	}
//
// Parse reads exactly what String writes.

func (p *Prog) String() string {
	var pr printer
	pr.s("prog (")
	pr.params(p.Params)
	pr.s(") : ")
	pr.types(p.Ret)
	pr.s(" ")
	pr.body(p.Body)
	pr.s("\n")
	return pr.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
}

func (pr *printer) s(s string) { pr.b.WriteString(s) }
func (pr *printer) nl() {
	pr.b.WriteByte('\n')
	for i := 0; i < pr.indent; i++ {
		pr.b.WriteString("  ")
	}
}

func (pr *printer) params(ps []Param) {
	for i, p := range ps {
		if i > 0 {
			pr.s(", ")
		}
		pr.s(p.Name + ": " + p.T.String())
	}
}

func (pr *printer) types(ts []Type) {
	pr.s("(")
	for i, t := range ts {
		if i > 0 {
			pr.s(", ")
		}
		pr.s(t.String())
	}
	pr.s(")")
}

func (pr *printer) atoms(as []Atom) {
	pr.s("(")
	for i, a := range as {
		if i > 0 {
			pr.s(", ")
		}
		pr.s(a.String())
	}
	pr.s(")")
}

func (pr *printer) names(ns []string) {
	pr.s("(" + strings.Join(ns, ", ") + ")")
}

func (pr *printer) body(b *Body) {
	pr.s("{")
	pr.indent++
	for _, st := range b.Stms {
		pr.nl()
		pr.s("let ")
		if st.Hoisted {
			pr.s("hoisted ")
		}
		pr.s("(")
		pr.params(st.Pat)
		pr.s(") = ")
		pr.exp(st.E)
		if st.Where != "" {
			pr.s(" @ " + strconv.Quote(st.Where))
		}
	}
	pr.nl()
	pr.s("return ")
	pr.atoms(b.Res)
	pr.indent--
	pr.nl()
	pr.s("}")
}

func (pr *printer) lambda(l *Lambda) {
	pr.s(`\(`)
	pr.params(l.Params)
	pr.s(") : ")
	pr.types(l.Ret)
	pr.s(" ")
	pr.body(l.Body)
}

func (pr *printer) header(w Atom, arrs []string, index string, gens int) {
	pr.s(w.String() + " ")
	pr.names(arrs)
	if index != "" {
		pr.s(" index " + index)
	}
	if gens != 0 {
		pr.s(" gens " + strconv.Itoa(gens))
	}
}

func (pr *printer) exp(e Exp) {
	switch e := e.(type) {
	case *AtomE:
		pr.s(e.X.String())
	case *BinOpE:
		if e.Implicit {
			pr.s("implicit ")
		}
		pr.s(e.X.String() + " " + e.Op + " " + e.Y.String())
	case *UnOpE:
		pr.s("un " + e.Op + " ")
		pr.atoms(e.Args)
	case *ConvE:
		kw := "conv "
		if e.Implicit {
			kw = "cast "
		}
		pr.s(kw + e.To.String() + " " + e.X.String())
	case *AssertE:
		pr.s("assert " + e.Cond.String() + " " + strconv.Quote(e.Msg) + " " + strconv.Quote(e.Where))
		if e.Approx {
			pr.s(" approx")
		}
	case *IfE:
		if e.Implicit {
			pr.s("if implicit " + e.Cond.String() + " then ")
		} else {
			pr.s("if " + e.Cond.String() + " then ")
		}
		pr.body(e.Then)
		pr.s(" else ")
		pr.body(e.Else)
		pr.s(" : ")
		pr.types(e.Ret)
	case *LoopE:
		pr.s("loop (")
		for i, p := range e.Params {
			if i > 0 {
				pr.s(", ")
			}
			pr.s(p.Name + ": " + p.T.String() + " = " + e.Init[i].String())
		}
		if e.While != nil {
			pr.s(") while ")
			pr.body(e.While)
			pr.s(" do ")
		} else {
			pr.s(") for " + e.I + " < " + e.Bound.String() + " ")
			if len(e.Over) > 0 {
				pr.s("over (")
				for i, p := range e.Elems {
					if i > 0 {
						pr.s(", ")
					}
					pr.s(p.Name + ": " + p.T.String() + " in " + e.Over[i])
				}
				pr.s(") ")
			}
		}
		pr.body(e.Body)
	case *IndexE:
		if e.Implicit {
			pr.s("implicit ")
		}
		pr.s(e.Arr)
		pr.idx(e.Idx)
	case *UpdateE:
		pr.s(e.Arr + " with ")
		pr.idx(e.Idx)
		pr.s(" = " + e.X.String())
	case *SliceE:
		pr.s("slice " + e.Arr + " " + e.Start.String() + " " + e.Len.String())
	case *IotaE:
		pr.s("iota " + e.N.String())
		if e.Start != (Atom{}) {
			pr.s(" from " + e.Start.String())
		}
	case *ReplicateE:
		pr.s("replicate " + e.N.String() + " " + e.X.String())
	case *ArrayE:
		pr.s("array ")
		pr.idx(e.Elems)
		pr.s(" : " + e.Elem.String())
	case *TransposeE:
		pr.s("transpose " + e.Arr)
	case *CopyE:
		if e.Part {
			pr.s("copy_part " + e.Arr)
		} else {
			pr.s("copy " + e.Arr)
		}
	case *ConcatE:
		pr.s("concat " + e.N.String() + " ")
		pr.names(e.Arrs)
	case *ReshapeE:
		if e.Coerce {
			pr.s("coerce ")
		} else {
			pr.s("reshape ")
		}
		pr.idx(e.Shape)
		pr.s(" " + e.Arr)
	case *ReverseE:
		pr.s("reverse " + e.Arr)
	case *ScremaE:
		if e.View {
			pr.s("gather ")
		} else {
			pr.s("screma ")
		}
		pr.header(e.W, e.Arrs, e.Index, e.Gens)
		pr.s(" {")
		pr.indent++
		for _, op := range e.Scans {
			pr.nl()
			pr.s("scan ")
			pr.segop(op)
		}
		for _, op := range e.Reds {
			pr.nl()
			pr.s("reduce ")
			pr.segop(op)
		}
		pr.nl()
		pr.s("map ")
		pr.lambda(e.Map)
		pr.indent--
		pr.nl()
		pr.s("}")
	case *StreamE:
		pr.s("stream " + e.W.String() + " ")
		pr.names(e.Arrs)
		if e.Red != nil {
			pr.s(" reduce ")
			pr.lambda(e.Red)
		}
		pr.s(" fold ")
		pr.lambda(e.Fold)
	case *FilterE:
		if e.Partition {
			pr.s("partition ")
		} else {
			pr.s("filter ")
		}
		pr.header(e.W, e.Arrs, e.Index, e.Gens)
		pr.s(" map ")
		pr.lambda(e.Map)
	case *ScatterE:
		kw := "scatter"
		if e.Slice {
			kw += "_slice"
		}
		if e.Part {
			kw += "_part"
		}
		pr.s(kw + " " + e.Dest + " ")
		pr.header(e.W, e.Arrs, e.Index, e.Gens)
		pr.s(" map ")
		pr.lambda(e.Map)
	case *HistE:
		pr.s("hist " + e.Dest + " ")
		pr.header(e.W, e.Arrs, e.Index, e.Gens)
		pr.s(" op ")
		pr.segop(e.Op)
		pr.s(" map ")
		pr.lambda(e.Map)
	default:
		panic(fmt.Sprintf("ir: cannot print %T", e))
	}
}

func (pr *printer) segop(op *SegOp) {
	pr.lambda(op.Lam)
	pr.s(" ")
	pr.atoms(op.Nes)
}

func (pr *printer) idx(as []Atom) {
	pr.s("[")
	for i, a := range as {
		if i > 0 {
			pr.s(", ")
		}
		pr.s(a.String())
	}
	pr.s("]")
}

// String prints a type: *[n][3]f32.
func (t Type) String() string {
	var b strings.Builder
	if t.Unique {
		b.WriteByte('*')
	}
	for _, d := range t.Shape {
		b.WriteString("[" + d.String() + "]")
	}
	b.WriteString(t.Elem.String())
	return b.String()
}

// String prints an atom: a name, or a constant with its type suffix.
func (a Atom) String() string {
	if a.Name != "" {
		return a.Name
	}
	return ConstString(a.Val)
}

// ConstString prints a scalar constant so that Parse reads it back exactly.
func ConstString(p value.Prim) string {
	t := p.T
	switch {
	case t == value.Bool:
		if p.Bool() {
			return "true"
		}
		return "false"
	case t.IsFloat():
		f := p.Float()
		switch {
		case math.IsNaN(f):
			return t.String() + ".nan"
		case math.IsInf(f, 1):
			return t.String() + ".inf"
		case math.IsInf(f, -1):
			return "-" + t.String() + ".inf"
		}
		bits := 64
		if t == value.F32 {
			bits = 32
		}
		return strconv.FormatFloat(f, 'g', -1, bits) + t.String()
	case t.IsUnsigned():
		return strconv.FormatUint(p.Uint(), 10) + t.String()
	default:
		return strconv.FormatInt(p.AsInt64(), 10) + t.String()
	}
}
