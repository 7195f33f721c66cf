package syntax

import "reflect"

// Inspect traverses the tree rooted at n in depth-first pre-order: it calls
// f(n); if that returns true, Inspect visits each child of n, then calls
// f(nil), as go/ast.Inspect does. Index lists, update paths and type
// arguments are not nodes themselves; the expressions and types in them
// are visited as children of the node that holds them.
func Inspect(n Node, f func(Node) bool) {
	if isNil(n) || !f(n) {
		return
	}
	walkChildren(n, func(c Node) { Inspect(c, f) })
	f(nil)
}

func isNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// walkChildren calls visit on each direct child of n, in source order.
func walkChildren(n Node, visit func(Node)) {
	v := func(c Node) {
		if !isNil(c) {
			visit(c)
		}
	}
	exprs := func(es []Expr) {
		for _, e := range es {
			v(e)
		}
	}
	pats := func(ps []Pat) {
		for _, p := range ps {
			v(p)
		}
	}
	dims := func(ds []*DimIndex) {
		for _, d := range ds {
			if d == nil {
				continue
			}
			v(d.Fix)
			v(d.Start)
			v(d.End)
			v(d.Stride)
		}
	}
	path := func(ps []PathElem) {
		for _, p := range ps {
			dims(p.Indices)
		}
	}
	tparams := func(ps []*TypeParam) {
		for _, p := range ps {
			v(p)
		}
	}
	attrs := func(as []*AttrInfo) {
		for _, a := range as {
			v(a)
		}
	}
	switch n := n.(type) {
	case *Program:
		for _, d := range n.Decls {
			v(d)
		}
	// Expressions.
	case *IntLit, *FloatLit, *BoolLit, *CharLit, *StringLit, *Var, *Hole,
		*OpSection, *ProjectSection, *Ident, *SizeBinder, *PId, *PWild,
		*TypeParam, *TEVar, *ModVar, *ModImport, *SigVar, *ImportDecl:
	case *Paren:
		v(n.X)
	case *TupleLit:
		exprs(n.Elems)
	case *RecordLit:
		for _, f := range n.Fields {
			v(f)
		}
	case *RecordField:
		v(n.Value)
	case *ArrayLit:
		exprs(n.Elems)
	case *Range:
		v(n.Start)
		v(n.Second)
		v(n.Stop)
	case *Project:
		v(n.X)
	case *QualParen:
		v(n.X)
	case *Binary:
		v(n.L)
		v(n.R)
	case *Negate:
		v(n.X)
	case *Not:
		v(n.X)
	case *Apply:
		v(n.Fn)
		exprs(n.Args)
	case *Constr:
		exprs(n.Args)
	case *LeftSection:
		v(n.L)
	case *RightSection:
		v(n.R)
	case *IndexSection:
		path(n.Path)
	case *Lambda:
		pats(n.Params)
		v(n.RetType)
		v(n.Body)
	case *If:
		v(n.Cond)
		v(n.Then)
		v(n.Else)
	case *LetIn:
		for _, s := range n.Sizes {
			v(s)
		}
		v(n.Pat)
		v(n.Value)
		v(n.Body)
	case *LetFun:
		v(n.Fun)
		v(n.Body)
	case *LetWith:
		v(n.Dest)
		path(n.Path)
		v(n.Value)
		v(n.Body)
	case *Update:
		v(n.X)
		path(n.Path)
		v(n.Value)
	case *Index:
		v(n.X)
		dims(n.Indices)
	case *Loop:
		for _, s := range n.Sizes {
			v(s)
		}
		v(n.Pat)
		v(n.Init)
		v(n.Form)
		v(n.Body)
	case *For:
		v(n.I)
		v(n.Bound)
	case *ForIn:
		v(n.Pat)
		v(n.Arr)
	case *While:
		v(n.Cond)
	case *Match:
		v(n.X)
		for _, c := range n.Cases {
			v(c)
		}
	case *Case:
		v(n.Pat)
		v(n.Body)
	case *Assert:
		v(n.Cond)
		v(n.X)
	case *Ascript:
		v(n.X)
		v(n.Type)
	case *Coerce:
		v(n.X)
		v(n.Type)
	case *Attr:
		v(n.Attr)
		v(n.X)
	case *AttrInfo:
		attrs(n.Args)
	// Patterns.
	case *PTuple:
		pats(n.Elems)
	case *PRecord:
		for _, f := range n.Fields {
			v(f)
		}
	case *PField:
		v(n.Pat)
	case *PParen:
		v(n.P)
	case *PAscript:
		v(n.P)
		v(n.Type)
	case *PLit:
		v(n.Lit)
	case *PConstr:
		pats(n.Args)
	case *PAttr:
		v(n.Attr)
		v(n.P)
	// Types.
	case *TEParen:
		v(n.T)
	case *TETuple:
		for _, t := range n.Elems {
			v(t)
		}
	case *TERecord:
		for _, f := range n.Fields {
			v(f)
		}
	case *TEField:
		v(n.Type)
	case *TEArray:
		v(n.Dim)
		v(n.Elem)
	case *TEUnique:
		v(n.T)
	case *TEArrow:
		v(n.From)
		v(n.To)
	case *TESum:
		for _, c := range n.Constrs {
			v(c)
		}
	case *TEConstr:
		for _, t := range n.Payload {
			v(t)
		}
	case *TEApply:
		v(n.Fn)
		for _, a := range n.Args {
			v(a.Dim)
			v(a.Type)
		}
	case *TEExist:
		v(n.T)
	// Declarations.
	case *FunBind:
		attrs(n.Attrs)
		tparams(n.TypeParams)
		pats(n.Params)
		v(n.RetType)
		v(n.Body)
	case *ValDecl:
		v(n.Fun)
	case *TypeDecl:
		tparams(n.Params)
		v(n.Def)
	case *ModDecl:
		for _, p := range n.Params {
			v(p)
		}
		v(n.Sig)
		v(n.Body)
	case *ModParam:
		v(n.Sig)
	case *ModTypeDecl:
		v(n.Def)
	case *OpenDecl:
		v(n.Mod)
	case *LocalDecl:
		v(n.D)
	// Modules.
	case *ModParen:
		v(n.M)
	case *ModStruct:
		for _, d := range n.Decls {
			v(d)
		}
	case *ModApply:
		v(n.Fn)
		v(n.Arg)
	case *ModAscript:
		v(n.M)
		v(n.Sig)
	case *ModLambda:
		v(n.Param)
		v(n.Sig)
		v(n.Body)
	// Module types.
	case *SigParen:
		v(n.S)
	case *SigSpecs:
		for _, s := range n.Specs {
			v(s)
		}
	case *SigWith:
		v(n.S)
		tparams(n.Params)
		v(n.Type)
	case *SigArrow:
		v(n.From)
		v(n.To)
	case *ValSpec:
		tparams(n.TypeParams)
		v(n.Type)
	case *TypeSpec:
		tparams(n.Params)
		v(n.Def)
	case *ModSpec:
		v(n.Sig)
	case *IncludeSpec:
		v(n.S)
	}
}
