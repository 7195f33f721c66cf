package syntax

import "strings"

// Printing of types, declarations, modules and module types.

// typ prints a type in a position where any type is allowed.
func (pr *printer) typ(t TypeExp) {
	switch t := t.(type) {
	case *TEArrow:
		if t.Param != "" {
			pr.w("(" + t.Param + ": ")
			pr.typ(t.From)
			pr.w(")")
		} else {
			pr.typeTerm(t.From)
		}
		pr.w(" -> ")
		pr.typ(t.To)
	case *TEExist:
		pr.w("?")
		for _, s := range t.Sizes {
			pr.w("[" + s + "]")
		}
		pr.w(".")
		pr.typ(t.T)
	default:
		pr.typeTerm(t)
	}
}

// typeTerm prints t where an arrow or existential needs parentheses.
func (pr *printer) typeTerm(t TypeExp) {
	switch t := t.(type) {
	case nil:
		pr.w("<nil>")
	case *TEArrow, *TEExist:
		pr.w("(")
		pr.typ(t)
		pr.w(")")
	case *TEUnique:
		pr.w("*")
		pr.typeTerm(t.T)
	case *TESum:
		for i, c := range t.Constrs {
			if i > 0 {
				pr.w(" | ")
			}
			pr.teConstr(c)
		}
	case *TEApply:
		pr.typeAtom(t.Fn, false)
		for _, a := range t.Args {
			pr.w(" ")
			if a.IsSize {
				pr.w("[")
				if a.Dim != nil {
					pr.expr(a.Dim, lvlExp, true)
				}
				pr.w("]")
			} else {
				pr.typeAtom(a.Type, false)
			}
		}
	default:
		pr.typeAtom(t, true)
	}
}

// typeAtom prints t as a type atom; an array type is one only where
// arrays are allowed (not as a type argument, where "[" starts a size).
func (pr *printer) typeAtom(t TypeExp, arrayOK bool) {
	switch t := t.(type) {
	case *TEVar:
		pr.w(t.Name.String())
	case *TEParen:
		pr.w("(")
		pr.typ(t.T)
		pr.w(")")
	case *TETuple:
		pr.w("(")
		for i, e := range t.Elems {
			if i > 0 {
				pr.w(", ")
			}
			pr.typ(e)
		}
		pr.w(")")
	case *TERecord:
		pr.w("{")
		for i, f := range t.Fields {
			if i > 0 {
				pr.w(", ")
			}
			pr.w(f.Name + ": ")
			pr.typ(f.Type)
		}
		pr.w("}")
	case *TEArray:
		if !arrayOK {
			pr.w("(")
			pr.typeAtom(t, true)
			pr.w(")")
			return
		}
		pr.w("[")
		if t.Dim != nil {
			pr.expr(t.Dim, lvlExp, true)
		}
		pr.w("]")
		pr.typeTerm(t.Elem)
	default:
		pr.w("(")
		pr.typ(t)
		pr.w(")")
	}
}

func (pr *printer) teConstr(c *TEConstr) {
	pr.w("#" + c.Name)
	for _, p := range c.Payload {
		pr.w(" ")
		pr.typeAtom(p, true)
	}
}

func (pr *printer) typeParam(p *TypeParam) {
	switch p.Kind {
	case TPSize:
		pr.w("[" + p.Name + "]")
	case TPType:
		pr.w("'" + p.Name)
	case TPSizeLifted:
		pr.w("'~" + p.Name)
	case TPLifted:
		pr.w("'^" + p.Name)
	}
}

func (pr *printer) typeParams(ps []*TypeParam) {
	for _, p := range ps {
		pr.w(" ")
		pr.typeParam(p)
	}
}

func liftedText(l Liftedness) string {
	switch l {
	case SizeLifted:
		return "~"
	case Lifted:
		return "^"
	}
	return ""
}

// Declarations.

func (pr *printer) doc(d string) {
	if d == "" {
		return
	}
	for i, line := range strings.Split(d, "\n") {
		if i == 0 {
			pr.w("-- |")
		} else {
			pr.w("--")
		}
		if line != "" {
			pr.w(" " + line)
		}
		pr.nl()
	}
}

func (pr *printer) program(p *Program) {
	if p.Doc != "" {
		pr.doc(p.Doc)
		pr.nl()
	}
	for i, d := range p.Decls {
		if i > 0 {
			pr.w("\n")
			pr.nl()
		}
		pr.decl(d)
	}
	if len(p.Decls) > 0 {
		pr.nl()
	}
}

func (pr *printer) decl(d Decl) {
	switch d := d.(type) {
	case *ValDecl:
		pr.doc(d.Fun.Doc)
		pr.attrs(d.Fun.Attrs)
		if d.Entry {
			pr.w("entry ")
		} else {
			pr.w("def ")
		}
		pr.funHead(d.Fun)
		pr.w(" =")
		// A short body stays on the line; a long one goes below, indented.
		sub := &printer{indent: pr.indent + 1}
		sub.expr(d.Fun.Body, lvlExp, true)
		body := sub.b.String()
		if !strings.Contains(body, "\n") && pr.lineLen()+len(body) < 80 {
			pr.w(" " + body)
			return
		}
		pr.indent++
		pr.nl()
		pr.w(body)
		pr.indent--
	case *TypeDecl:
		pr.doc(d.Doc)
		pr.w("type" + liftedText(d.Lifted) + " " + d.Name)
		pr.typeParams(d.Params)
		pr.w(" = ")
		pr.typ(d.Def)
	case *ModDecl:
		pr.doc(d.Doc)
		pr.w("module " + d.Name)
		for _, p := range d.Params {
			pr.w(" ")
			pr.modParam(p)
		}
		if d.Sig != nil {
			pr.w(" : ")
			pr.modType(d.Sig)
		}
		pr.w(" = ")
		pr.modExp(d.Body)
	case *ModTypeDecl:
		pr.doc(d.Doc)
		pr.w("module type " + d.Name + " = ")
		pr.modType(d.Def)
	case *OpenDecl:
		pr.w("open ")
		pr.modExp(d.Mod)
	case *ImportDecl:
		pr.w("import " + stringLit(d.Path))
	case *LocalDecl:
		pr.w("local ")
		pr.decl(d.D)
	default:
		pr.wf("<%T>", d)
	}
}

func (pr *printer) attrs(as []*AttrInfo) {
	for _, a := range as {
		pr.w("#[")
		pr.attrInfo(a)
		pr.w("] ")
	}
}

// funHead prints name, type parameters, parameters and return type.
func (pr *printer) funHead(f *FunBind) {
	if f.IsOp || f.Name != "" && isOpStart(f.Name[0]) {
		pr.w("(" + f.Name + ")")
	} else {
		pr.w(f.Name)
	}
	pr.typeParams(f.TypeParams)
	for _, p := range f.Params {
		pr.w(" ")
		pr.paramPat(p)
	}
	if f.RetType != nil {
		pr.w(": ")
		pr.typ(f.RetType)
	}
}

func (pr *printer) funBind(f *FunBind) {
	pr.w("def ")
	pr.funHead(f)
	pr.w(" = ")
	pr.expr(f.Body, lvlExp, true)
}

func (pr *printer) modParam(p *ModParam) {
	pr.w("(" + p.Name + ": ")
	pr.modType(p.Sig)
	pr.w(")")
}

func (pr *printer) modExp(m ModExp) {
	switch m := m.(type) {
	case *ModAscript:
		if _, ok := m.M.(*ModLambda); ok {
			pr.w("(")
			pr.modExp(m.M)
			pr.w(")")
		} else {
			pr.modExp(m.M)
		}
		pr.w(" : ")
		pr.modType(m.Sig)
	case *ModLambda:
		pr.w(`\`)
		pr.modParam(m.Param)
		if m.Sig != nil {
			pr.w(": ")
			switch m.Sig.(type) {
			case *SigVar, *SigParen:
				pr.modType(m.Sig)
			default:
				pr.w("(")
				pr.modType(m.Sig)
				pr.w(")")
			}
		}
		pr.w(" -> ")
		pr.modExp(m.Body)
	case *ModImport:
		pr.w("import " + stringLit(m.Path))
	case *ModApply:
		switch m.Fn.(type) {
		case *ModApply, *ModVar, *ModParen, *ModStruct:
			pr.modExp(m.Fn)
		default:
			pr.modAtom(m.Fn)
		}
		pr.w(" ")
		pr.modAtom(m.Arg)
	default:
		pr.modAtom(m)
	}
}

func (pr *printer) modAtom(m ModExp) {
	switch m := m.(type) {
	case *ModVar:
		pr.w(m.Name.String())
	case *ModParen:
		pr.w("(")
		pr.modExp(m.M)
		pr.w(")")
	case *ModStruct:
		pr.w("{")
		if len(m.Decls) == 0 {
			pr.w("}")
			return
		}
		pr.indent++
		for i, d := range m.Decls {
			if i > 0 {
				pr.w("\n")
			}
			pr.nl()
			pr.decl(d)
		}
		pr.indent--
		pr.nl()
		pr.w("}")
	default:
		pr.w("(")
		pr.modExp(m)
		pr.w(")")
	}
}

func (pr *printer) modType(s ModTypeExp) {
	switch s := s.(type) {
	case *SigArrow:
		if s.Param != "" {
			pr.w("(" + s.Param + ": ")
			pr.modType(s.From)
			pr.w(")")
		} else if _, ok := s.From.(*SigArrow); ok {
			pr.w("(")
			pr.modType(s.From)
			pr.w(")")
		} else {
			pr.modType(s.From)
		}
		pr.w(" -> ")
		pr.modType(s.To)
	case *SigWith:
		switch s.S.(type) {
		case *SigArrow:
			pr.w("(")
			pr.modType(s.S)
			pr.w(")")
		default:
			pr.modType(s.S)
		}
		pr.w(" with " + s.Path.String())
		pr.typeParams(s.Params)
		pr.w(" = ")
		pr.typ(s.Type)
	case *SigVar:
		pr.w(s.Name.String())
	case *SigParen:
		pr.w("(")
		pr.modType(s.S)
		pr.w(")")
	case *SigSpecs:
		pr.w("{")
		if len(s.Specs) == 0 {
			pr.w("}")
			return
		}
		pr.indent++
		for _, sp := range s.Specs {
			pr.nl()
			pr.spec(sp)
		}
		pr.indent--
		pr.nl()
		pr.w("}")
	default:
		pr.wf("<%T>", s)
	}
}

func (pr *printer) spec(s Spec) {
	switch s := s.(type) {
	case *ValSpec:
		pr.doc(s.Doc)
		if s.IsOp {
			pr.w("val (" + s.Name + ")")
		} else {
			pr.w("val " + s.Name)
		}
		pr.typeParams(s.TypeParams)
		pr.w(": ")
		pr.typ(s.Type)
	case *TypeSpec:
		pr.doc(s.Doc)
		pr.w("type" + liftedText(s.Lifted) + " " + s.Name)
		pr.typeParams(s.Params)
		if s.Def != nil {
			pr.w(" = ")
			pr.typ(s.Def)
		}
	case *ModSpec:
		pr.w("module " + s.Name + ": ")
		pr.modType(s.Sig)
	case *IncludeSpec:
		pr.w("include ")
		pr.modType(s.S)
	default:
		pr.wf("<%T>", s)
	}
}
