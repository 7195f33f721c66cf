package types

// The restrictions Futhark puts on definitions beyond their types: entry
// points, type abbreviations, recursion, refutable patterns and sizes
// that would escape their scope.

import (
	"fut/interp/syntax"
)

func (c *Checker) checkSizeParamsUsed(fb *syntax.FunBind, declSizes []*SizeName, paramTs []Type) {
	for i, sn := range declSizes {
		used := false
		for _, t := range paramTs {
			if mentionsSize(zonk(t), sn) {
				used = true
				break
			}
		}
		if !used {
			var sp syntax.Span
			k := 0
			for _, tp := range fb.TypeParams {
				if tp.Kind == syntax.TPSize {
					if k == i {
						sp = tp.Span
					}
					k++
				}
			}
			c.errorf(sp, "Size parameter \"[%s]\" is not used in the function's type, so its value cannot be known.", sn.Name)
		}
	}
}

func (c *Checker) checkEntry(d *syntax.ValDecl, sch *Scheme) {
	fb := d.Fun
	for _, tp := range fb.TypeParams {
		if tp.Kind != syntax.TPSize {
			continue
		}
		used := false
		t := sch.Type
		for {
			a, ok := Resolve(t).(*Arrow)
			if !ok {
				break
			}
			// Only as the size of an array counts: an argument of an
			// abstract type may be a phantom (as in Futhark).
			w := map[*SizeName]bool{}
			witnessedSizes(dropConArgs(a.From), w)
			for sn := range w {
				if sn.Name == tp.Name {
					used = true
				}
			}
			t = a.To
		}
		if !used {
			c.errorf(tp.Span, "Entry point size parameter \"[%s]\" is only used non-constructively: it must be the size of some array parameter (nonconstructive-entry).", tp.Name)
			break // one is enough, as in Futhark
		}
	}
	for t := Resolve(sch.Type); ; {
		a, ok := t.(*Arrow)
		if !ok {
			break
		}
		for _, u := range a.Exist {
			if c.openExist[u] {
				c.errorf(fb.NameSpan, "Entry point functions must not be size-polymorphic in their return type: nothing decides the size %s of its result, so the caller would have to.", sizeText(u))
				t = nil
				break
			}
		}
		if t == nil {
			break
		}
		t = Resolve(a.To)
	}
	if len(sch.TParams) > 0 {
		c.errorf(fb.NameSpan, "Entry point functions may not be polymorphic, but \"%s\" has type parameters.", fb.Name)
	}
	t := sch.Type
	var params []Type
	for i := 0; ; i++ {
		a, ok := Resolve(t).(*Arrow)
		if !ok {
			break
		}
		if isFunctional(a.From) {
			sp := fb.NameSpan
			if i < len(fb.Params) {
				sp = syntax.SpanOf(fb.Params[i])
			}
			c.errorf(sp, "Entry point functions may not be higher-order, but this parameter has type %s.", quoteT(a.From))
		}
		params = append(params, a.From)
		t = a.To
	}
	if isFunctional(t) {
		c.errorf(fb.NameSpan, "Entry point functions may not be higher-order, but this one returns %s.", quoteT(t))
	}
	var results []Type
	if r, ok := Resolve(t).(*Record); ok && r.IsTuple() && len(r.Fields) > 0 {
		for _, f := range r.Fields {
			results = append(results, f.Type)
		}
	} else {
		results = []Type{t}
	}
	c.entries[fb.Name] = &entryPoint{params: params, results: results}
}

// checkTypeDecl checks type t params = def.
func (c *Checker) checkTypeDecl(d *syntax.TypeDecl, sc *scope, exp *ns) {
	td := c.typeDef(d.Name, d.Lifted, d.Params, d.Def, sc, syntax.SpanOf(d))
	sc.types[d.Name] = td
	if exp != nil {
		exp.types[d.Name] = td
	}
}

func (c *Checker) typeDef(name string, lifted syntax.Liftedness, params []*syntax.TypeParam, def syntax.TypeExp, sc *scope, sp syntax.Span) *TypeDef {
	inner := newScope(sc)
	td := &TypeDef{Name: name, Lifted: lifted}
	seen := map[string]bool{}
	for _, tp := range params {
		if seen[tp.Name] {
			c.errorf(tp.Span, "Type parameter \"%s\" of \"%s\" is also bound previously in the same list.", tp.Name, name)
		}
		seen[tp.Name] = true
		if tp.Kind == syntax.TPSize {
			sn := c.newSizeName(tp.Name)
			inner.vals[tp.Name] = &valBind{name: tp.Name, scheme: &Scheme{Type: I64}, size: sn, span: tp.Span}
			td.Params = append(td.Params, TypeParam{Size: sn})
			continue
		}
		c.nextID++
		tc := &TypeCon{Name: tp.Name, Lifted: liftedOf(tp.Kind), id: c.nextID}
		inner.types[tp.Name] = &TypeDef{Name: tp.Name, Body: &Con{Con: tc}, Lifted: tc.Lifted}
		td.Params = append(td.Params, TypeParam{Con: tc})
	}
	nerr := len(c.errs)
	body := c.typeExp(def, inner, dimAny)
	td.Body = body
	if len(c.errs) > nerr {
		return td
	}
	if lifted != syntax.Lifted && isFunctional(body) {
		c.errorf(sp, "Non-lifted type abbreviations may not contain functions: \"%s\" is defined as %s (declare it with type^).", name, quoteT(body))
	} else if lifted == syntax.Unlifted && c.namesSizeLifted(def, inner) {
		c.errorf(sp, "Non-size-lifted type abbreviations may not contain size-lifted types: \"%s\" is defined as %s (declare it with type~).", name, quoteT(body))
	}
	for i, p := range td.Params {
		if p.Size != nil && !mentionsSize(body, p.Size) {
			c.errorf(params[i].Span, "Size parameter \"[%s]\" of type \"%s\" is not used in its definition.", p.Size.Name, name)
		}
	}
	if hasAnonSizeInArrow(def, false) {
		c.errorf(sp, "The type \"%s\" has a function type with an anonymous size in it (anonymous-nonconstructive); name the size with a size parameter.", name)
	}
	if lifted == syntax.Unlifted && hasAnonSize(def) {
		c.errorf(sp, "Non-lifted type abbreviations may not contain anonymous sizes: \"%s\" does (declare it with type~).", name)
	}
	return td
}

// namesSizeLifted reports whether the type expression te names a type
// declared size-lifted (type~, or a '~ parameter): as in Futhark, what
// counts is the liftedness each named type is declared with, not what it
// expands to.
func (c *Checker) namesSizeLifted(te syntax.TypeExp, sc *scope) bool {
	found := false
	syntax.Inspect(te, func(n syntax.Node) bool {
		var q syntax.QualName
		switch t := n.(type) {
		case *syntax.TEVar:
			q = t.Name
		case *syntax.TEApply:
			if v, ok := t.Fn.(*syntax.TEVar); ok {
				q = v.Name
			} else {
				return true
			}
		default:
			return true
		}
		if d := c.lookupTypeNameQuiet(q, sc); d != nil && d.Lifted == syntax.SizeLifted {
			found = true
		}
		return true
	})
	return found
}

// dropConArgs is t without the arguments of its type constructors (the
// abstract types and type parameters in it).
func dropConArgs(t Type) Type {
	switch x := Resolve(t).(type) {
	case *Con:
		return &Con{Con: x.Con, Unique: x.Unique}
	case *Array:
		return &Array{Unique: x.Unique, Dim: x.Dim, Elem: dropConArgs(x.Elem)}
	case *Record:
		fs := make([]Field, len(x.Fields))
		for i, f := range x.Fields {
			fs[i] = Field{f.Name, dropConArgs(f.Type)}
		}
		return &Record{fs}
	case *Sum:
		cs := make([]Constr, len(x.Constrs))
		for i, cn := range x.Constrs {
			ps := make([]Type, len(cn.Payload))
			for j, p := range cn.Payload {
				ps[j] = dropConArgs(p)
			}
			cs[i] = Constr{cn.Name, ps}
		}
		return &Sum{cs}
	}
	return t
}

// witnessedSizes is the set of size names that are the size of an array
// in t outside of function types: the sizes a value of t shows.
func witnessedSizes(t Type, out map[*SizeName]bool) {
	switch t := Resolve(t).(type) {
	case *Array:
		if n, ok := resolveSize(t.Dim).(*SizeName); ok {
			out[n] = true
		}
		witnessedSizes(t.Elem, out)
	case *Record:
		for _, f := range t.Fields {
			witnessedSizes(f.Type, out)
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				witnessedSizes(p, out)
			}
		}
	case *Con:
		for _, a := range t.Args {
			if a.Type != nil {
				witnessedSizes(a.Type, out)
			} else if n, ok := resolveSize(a.Size).(*SizeName); ok {
				out[n] = true
			}
		}
	}
}

// UsesSizeConstructively reports whether the size name n is the size of
// an array in te outside of function types (or an argument of a type
// constructor), as an existential size must be.
func UsesSizeConstructively(te syntax.TypeExp, n string) bool {
	switch te := te.(type) {
	case *syntax.TEArray:
		if v, ok := te.Dim.(*syntax.Var); ok && len(v.Name.Quals) == 0 && v.Name.Name == n {
			return true
		}
		return UsesSizeConstructively(te.Elem, n)
	case *syntax.TEParen:
		return UsesSizeConstructively(te.T, n)
	case *syntax.TEUnique:
		return UsesSizeConstructively(te.T, n)
	case *syntax.TEExist:
		return UsesSizeConstructively(te.T, n)
	case *syntax.TETuple:
		for _, e := range te.Elems {
			if UsesSizeConstructively(e, n) {
				return true
			}
		}
	case *syntax.TERecord:
		for _, f := range te.Fields {
			if UsesSizeConstructively(f.Type, n) {
				return true
			}
		}
	case *syntax.TESum:
		for _, k := range te.Constrs {
			for _, p := range k.Payload {
				if UsesSizeConstructively(p, n) {
					return true
				}
			}
		}
	case *syntax.TEApply:
		for _, a := range te.Args {
			if a.IsSize {
				if v, ok := a.Dim.(*syntax.Var); ok && len(v.Name.Quals) == 0 && v.Name.Name == n {
					return true
				}
			} else if UsesSizeConstructively(a.Type, n) {
				return true
			}
		}
	}
	return false
}

// hasAnonSize reports whether a type expression has [] outside of
// function types.
func hasAnonSize(te syntax.TypeExp) bool {
	switch te := te.(type) {
	case *syntax.TEArray:
		return te.Dim == nil || hasAnonSize(te.Elem)
	case *syntax.TEParen:
		return hasAnonSize(te.T)
	case *syntax.TEUnique:
		return hasAnonSize(te.T)
	case *syntax.TETuple:
		for _, e := range te.Elems {
			if hasAnonSize(e) {
				return true
			}
		}
	case *syntax.TERecord:
		for _, f := range te.Fields {
			if hasAnonSize(f.Type) {
				return true
			}
		}
	case *syntax.TESum:
		for _, k := range te.Constrs {
			for _, p := range k.Payload {
				if hasAnonSize(p) {
					return true
				}
			}
		}
	case *syntax.TEApply:
		for _, a := range te.Args {
			if a.IsSize && a.Dim == nil {
				return true
			}
			if !a.IsSize && hasAnonSize(a.Type) {
				return true
			}
		}
	}
	return false
}

// checkParamScope reports parameters whose types speak of sizes bound
// inside the function (a scope violation).
func (c *Checker) checkParamScope(fb *syntax.FunBind, paramTs []Type, allowed map[*SizeName]bool, outer int) {
	for i, pt := range paramTs {
		bad := ""
		walkSizes(zonk(pt), func(z Size) {
			if sn, ok := resolveSize(z).(*SizeName); ok && bad == "" {
				if lvl, local := c.localSizes[sn]; local && lvl > outer && !allowed[sn] {
					bad = sn.Name
				}
			}
		})
		if bad != "" {
			c.errorf(syntax.SpanOf(fb.Params[i]), "The type of this parameter would refer to the size \"%s\", which is bound inside the function (scope-violation).", bad)
		}
	}
}

// checkLaterParams reports a parameter whose type speaks of the value of
// itself or of a later parameter (def f xs n = zip xs (iota n)): its size
// would not be in scope where the parameter is introduced.
func (c *Checker) checkLaterParams(params []syntax.Pat, paramTs []Type) {
	later := map[*SizeName]string{}
	for i := len(params) - 1; i >= 0; i-- {
		for _, id := range patNames(params[i]) {
			if vb := c.patBinds[id]; vb != nil && vb.size != nil {
				later[vb.size] = vb.name
			}
		}
		if i >= len(paramTs) || len(later) == 0 {
			continue
		}
		bad := ""
		var in func(z Size)
		in = func(z Size) {
			switch z := resolveSize(z).(type) {
			case *SizeName:
				if bad == "" {
					bad = later[z]
				}
			case *SizeExpr:
				if z.Op != "" {
					in(z.L)
					in(z.R)
				}
			case *SizeTerm:
				for _, a := range z.Args {
					in(a)
				}
			}
		}
		walkSizes(zonk(paramTs[i]), in)
		if bad != "" {
			c.errorf(syntax.SpanOf(params[i]), "The type of this parameter refers to the size \"%s\", which is not in scope where the parameter is introduced: it is bound by this or a later parameter (scope-violation).", bad)
		}
	}
}

// checkIrrefutable reports literal patterns where every value must match
// (function parameters and let bindings).
func (c *Checker) checkIrrefutable(p syntax.Pat) {
	switch p := p.(type) {
	case *syntax.PLit:
		c.errorf(p.Span, "Refutable pattern: a literal pattern is not allowed here, as it may fail to match.")
	case *syntax.PParen:
		c.checkIrrefutable(p.P)
	case *syntax.PAttr:
		c.checkIrrefutable(p.P)
	case *syntax.PAscript:
		c.checkIrrefutable(p.P)
	case *syntax.PTuple:
		for _, e := range p.Elems {
			c.checkIrrefutable(e)
		}
	case *syntax.PRecord:
		for _, f := range p.Fields {
			c.checkIrrefutable(f.Pat)
		}
	case *syntax.PConstr:
		for _, a := range p.Args {
			c.checkIrrefutable(a)
		}
	}
}

// checkRecursion enforces Futhark's restrictions on recursive functions:
// every recursive reference is a saturated call, higher-order parameters
// are passed on unchanged, and the result is first-order.
func (c *Checker) checkRecursion(fb *syntax.FunBind, self *valBind, paramTs []Type, inner *scope) {
	calls := map[*syntax.Var]*syntax.Apply{}
	var selfUses []*syntax.Var
	syntax.Inspect(fb.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Apply:
			if v, ok := unparenExpr(n.Fn).(*syntax.Var); ok && c.uses[v] == self {
				calls[v] = n
			}
		case *syntax.Var:
			if c.uses[n] == self {
				selfUses = append(selfUses, n)
			}
		}
		return true
	})
	if len(selfUses) == 0 {
		return
	}
	if r := Resolve(c.resultType(self.scheme.Type, len(fb.Params))); isFunctional(r) {
		c.errorf(fb.NameSpan, "Return type of recursive function \"%s\" is not first-order: %s (make the function's arguments further parameters).", fb.Name, quoteT(r))
	}
	higherOrder := false
	for _, t := range paramTs {
		if isFunctional(t) {
			higherOrder = true
		}
	}
	for _, v := range selfUses {
		call, ok := calls[v]
		if !ok || len(call.Args) < len(fb.Params) {
			if !higherOrder {
				continue
			}
			c.errorf(v.Span, "Recursive call of \"%s\" is not fully saturated: it has a higher-order parameter, so it must be given all %d arguments.", fb.Name, len(fb.Params))
			continue
		}
		for i, p := range fb.Params {
			if !isFunctional(paramTs[i]) {
				continue
			}
			id, isID := unparenPat(stripAscript(p)).(*syntax.PId)
			av, isVar := unparenExpr(call.Args[i]).(*syntax.Var)
			if !isID || !isVar || c.uses[av] == nil || c.uses[av] != c.patBinds[id] {
				c.errorf(syntax.SpanOf(call.Args[i]), "The higher-order parameter \"%s\" of the recursive function \"%s\" must be passed unchanged in recursive calls.", patString(p), fb.Name)
			}
		}
	}
}

func (c *Checker) resultType(t Type, n int) Type {
	for i := 0; i < n; i++ {
		a, ok := Resolve(t).(*Arrow)
		if !ok {
			return t
		}
		t = a.To
	}
	return t
}

func patString(p syntax.Pat) string {
	if id, ok := unparenPat(stripAscript(p)).(*syntax.PId); ok {
		return id.Name
	}
	return "(pattern)"
}

// hasAnonSizeInArrow reports whether a type expression has [] inside a
// function type.
func hasAnonSizeInArrow(te syntax.TypeExp, inArrow bool) bool {
	switch te := te.(type) {
	case *syntax.TEArray:
		return (te.Dim == nil && inArrow) || hasAnonSizeInArrow(te.Elem, inArrow)
	case *syntax.TEParen:
		return hasAnonSizeInArrow(te.T, inArrow)
	case *syntax.TEUnique:
		return hasAnonSizeInArrow(te.T, inArrow)
	case *syntax.TEArrow:
		return hasAnonSizeInArrow(te.From, true) || hasAnonSizeInArrow(te.To, true)
	case *syntax.TETuple:
		for _, e := range te.Elems {
			if hasAnonSizeInArrow(e, inArrow) {
				return true
			}
		}
	case *syntax.TERecord:
		for _, f := range te.Fields {
			if hasAnonSizeInArrow(f.Type, inArrow) {
				return true
			}
		}
	}
	return false
}

// checkDefaultEntry treats def main as the entry point of a program that
// declares none.
func (c *Checker) checkDefaultEntry(p *syntax.Program, sc *scope) {
	var main *syntax.ValDecl
	for _, d := range p.Decls {
		if vd, ok := d.(*syntax.ValDecl); ok {
			if vd.Entry {
				return
			}
			if vd.Fun.Name == "main" {
				main = vd
			}
		}
	}
	if main == nil {
		return
	}
	if sch, ok := c.info.Defs[main.Fun]; ok && len(c.errs) == 0 {
		c.checkEntry(main, sch)
	}
}
