package types

// Substitution of rigid type constructors and size names, used to
// instantiate polymorphic values, expand type abbreviations and apply
// parametric modules.

import (
	"fmt"

	"fut/interp/syntax"
)

// TypeDef is what a type name stands for: Body with Params substituted.
// An abstract type's Body is a *Con of its own TypeCon applied to the
// parameters.
type TypeDef struct {
	Name   string
	Params []TypeParam
	Body   Type
	Lifted syntax.Liftedness
	// renameTo, when set, maps an applied constructor to another one with
	// the same arguments (fresh abstract types).
	renameTo *TypeCon
	// absCon, when set, is the abstract type this is the definition of.
	absCon *TypeCon
}

// TypeParam is a parameter of a type abbreviation or a polymorphic value:
// a type (Con set) or a size (Size set).
type TypeParam struct {
	Con  *TypeCon
	Size *SizeName
}

// Scheme is the type of a value: polymorphic in TParams (types) and
// SParams (sizes).
type Scheme struct {
	TParams []*TypeCon
	SParams []*SizeName
	Type    Type
}

type subst struct {
	types map[*TypeCon]*TypeDef
	sizes map[*SizeName]Size
}

func (s *subst) empty() bool { return s == nil || (len(s.types) == 0 && len(s.sizes) == 0) }

func substSize(z Size, s *subst) Size {
	z = resolveSize(z)
	switch z := z.(type) {
	case *SizeName:
		if r, ok := s.sizes[z]; ok {
			return r
		}
	case *SizeExpr:
		if z.Op != "" {
			l, r := substSize(z.L, s), substSize(z.R, s)
			return mkSizeExpr(z.Op, l, r)
		}
	case *SizeTerm:
		args := make([]Size, len(z.Args))
		for i, a := range z.Args {
			args[i] = substSize(a, s)
		}
		return &SizeTerm{Head: z.Head, Name: z.Name, Args: args}
	}
	return z
}

func mkSizeExpr(op string, l, r Size) Size {
	lc, lok := resolveSize(l).(*SizeConst)
	rc, rok := resolveSize(r).(*SizeConst)
	if lok && rok {
		from := &SizeExpr{Op: op, L: l, R: r}
		switch op {
		case "+":
			return &SizeConst{N: lc.N + rc.N, from: from}
		case "-":
			return &SizeConst{N: lc.N - rc.N, from: from}
		case "*":
			return &SizeConst{N: lc.N * rc.N, from: from}
		}
	}
	return &SizeExpr{Op: op, L: l, R: r}
}

func substType(t Type, s *subst) Type {
	if s.empty() {
		return t
	}
	switch t := Resolve(t).(type) {
	case *Prim:
		return t
	case TVar:
		return t
	case *Array:
		return &Array{Unique: t.Unique, Dim: substSize(t.Dim, s), Elem: substType(t.Elem, s)}
	case *Record:
		fs := make([]Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = Field{f.Name, substType(f.Type, s)}
		}
		return &Record{fs}
	case *Sum:
		cs := make([]Constr, len(t.Constrs))
		for i, cn := range t.Constrs {
			ps := make([]Type, len(cn.Payload))
			for j, p := range cn.Payload {
				ps[j] = substType(p, s)
			}
			cs[i] = Constr{cn.Name, ps}
		}
		return &Sum{cs}
	case *Arrow:
		return &Arrow{Param: t.Param, From: substType(t.From, s), To: substType(t.To, s), Exist: t.Exist}
	case *Con:
		args := make([]TypeArg, len(t.Args))
		for i, a := range t.Args {
			if a.Type != nil {
				args[i] = TypeArg{Type: substType(a.Type, s)}
			} else {
				args[i] = TypeArg{Size: substSize(a.Size, s)}
			}
		}
		if d, ok := s.types[t.Con]; ok {
			if d.renameTo != nil {
				return &Con{Con: d.renameTo, Args: args, Unique: t.Unique}
			}
			r := applyTypeDef(d, args)
			if t.Unique {
				if tv, ok := r.(TVar); ok {
					return TVar{&tvar{id: -1, link: tv, level: tv.level, uniq: true}}
				}
				r = setUnique(r, true)
			}
			return r
		}
		return &Con{Con: t.Con, Args: args, Unique: t.Unique}
	}
	return t
}

// applyTypeDef substitutes args for d's parameters in its body. Missing
// arguments are left as they are.
func applyTypeDef(d *TypeDef, args []TypeArg) Type {
	if len(d.Params) == 0 {
		return d.Body
	}
	s := &subst{types: map[*TypeCon]*TypeDef{}, sizes: map[*SizeName]Size{}}
	for i, p := range d.Params {
		if i >= len(args) {
			break
		}
		if p.Con != nil && args[i].Type != nil {
			s.types[p.Con] = &TypeDef{Name: p.Con.Name, Body: args[i].Type}
		} else if p.Size != nil && args[i].Size != nil {
			s.sizes[p.Size] = args[i].Size
		}
	}
	return substType(d.Body, s)
}

// setUnique marks the arrays of t (at the top, in records) unique or not.
func setUnique(t Type, u bool) Type {
	switch t := Resolve(t).(type) {
	case *Array:
		if t.Unique == u {
			return t
		}
		return &Array{Unique: u, Dim: t.Dim, Elem: t.Elem}
	case *Record:
		fs := make([]Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = Field{f.Name, setUnique(f.Type, u)}
		}
		return &Record{fs}
	case *Con:
		if t.Unique == u {
			return t
		}
		return &Con{Con: t.Con, Args: t.Args, Unique: u}
	case *Sum:
		cs := make([]Constr, len(t.Constrs))
		for i, cn := range t.Constrs {
			ps := make([]Type, len(cn.Payload))
			for j, p := range cn.Payload {
				ps[j] = setUnique(p, u)
			}
			cs[i] = Constr{cn.Name, ps}
		}
		return &Sum{cs}
	}
	return t
}

// isUnique reports whether t has a unique array (or abstract value) in it.
func isUnique(t Type) bool {
	if chainUnique(t) {
		return true
	}
	switch t := Resolve(t).(type) {
	case *Array:
		return t.Unique
	case *Record:
		for _, f := range t.Fields {
			if isUnique(f.Type) {
				return true
			}
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				if isUnique(p) {
					return true
				}
			}
		}
	case *Con:
		return t.Unique
	}
	return false
}

// instantiate gives a fresh copy of sc's type: new unification variables
// for its type parameters and new size variables for its size parameters.
func (c *Checker) instantiate(sc *Scheme, sp syntax.Span) Type {
	if len(sc.TParams) == 0 && len(sc.SParams) == 0 {
		return sc.Type
	}
	s := &subst{types: map[*TypeCon]*TypeDef{}, sizes: map[*SizeName]Size{}}
	for _, tp := range sc.TParams {
		v := c.newTVar(sp)
		v.lifted = tp.Lifted
		s.types[tp] = &TypeDef{Name: tp.Name, Body: v}
	}
	for _, sz := range sc.SParams {
		v := c.newSizeVar()
		s.sizes[sz] = v
		if c.instSizes != nil && !inParamResult(sc.Type, sz) {
			*c.instSizes = append(*c.instSizes, instSize{v, sz.Name, sp})
		}
	}
	c.info.noteInstance(sp, sc, s) // sizeargs.go
	return substType(sc.Type, s)
}

// instSize is a size variable made for a size parameter of a function
// at one of its uses, to be decided by the definition it is in.
type instSize struct {
	v    SizeVar
	name string
	sp   syntax.Span
}

// inParamResult reports whether the size sz occurs in what a function
// parameter of t returns (f: a -> []b): fut makes such a size a size
// parameter where Futhark has a size of the parameter's own, which no use
// need decide.
func inParamResult(t Type, sz *SizeName) bool {
	for {
		a, ok := Resolve(t).(*Arrow)
		if !ok {
			return false
		}
		if pa, ok := Resolve(a.From).(*Arrow); ok {
			r := Type(pa)
			for {
				ra, ok := Resolve(r).(*Arrow)
				if !ok {
					break
				}
				r = ra.To
			}
			if mentionsSize(r, sz) {
				return true
			}
		}
		t = a.To
	}
}

// checkAmbiguousSizes reports a size parameter of a function, at a use in
// the definition just checked, that nothing decided and that the
// definition's type does not mention: as in Futhark, its value cannot be
// known (f (\xs -> xs[0]) with f [n] (g: [n]i64 -> i64)).
func (c *Checker) checkAmbiguousSizes(uses []instSize, t Type) {
	for _, u := range uses {
		open, ok := resolveSize(u.v).(SizeVar)
		if !ok {
			continue // decided
		}
		inType := false
		walkSizes(zonk(t), func(z Size) {
			if sizeOccurs(open.svar, z) {
				inType = true
			}
		})
		if inType {
			continue
		}
		why := ""
		if open.stands != "" {
			why = fmt.Sprintf(": it is the parameter \"%s\" of a function type, which the function here does not name", open.stands)
		}
		c.errorf(u.sp, "Ambiguous size \"%s\" (the instantiated size parameter of \"%s\", from its use as function argument here): nothing decides it%s (ambiguous-size); add a type annotation.", u.name, c.srcText(u.sp), why)
		return
	}
}

// zonk resolves every unification variable in t that has been bound.
func zonk(t Type) Type {
	var z zonker
	return z.zonk(t)
}

// zonker zonks types that share parts once: a declared sum or record type
// is one object however many expressions have it, so a match over a sum
// of n constructors, whose n cases each have that type, costs n, not n²
// (a memo keyed by the object), and a type with no bound variable in it
// is returned as it is, not copied. The memo is valid while no variable
// is bound, so one zonker serves one pass over the side tables.
type zonker struct {
	memo map[Type]Type
}

func (z *zonker) zonk(t Type) Type {
	if chainUnique(t) {
		return setUnique(z.zonk1(Resolve(t)), true)
	}
	return z.zonk1(t)
}

func (z *zonker) zonk1(t Type) Type {
	t = Resolve(t)
	switch t.(type) {
	case *Array, *Record, *Sum, *Arrow, *Con:
	default:
		return t
	}
	if r, ok := z.memo[t]; ok {
		return r
	}
	r := z.zonkNew(t)
	if z.memo == nil {
		z.memo = map[Type]Type{}
	}
	z.memo[t] = r
	return r
}

// zonkNew zonks the parts of t (resolved, composite) and rebuilds it only
// when one of them changed.
func (z *zonker) zonkNew(t Type) Type {
	switch t := t.(type) {
	case *Array:
		d, e := zonkSize(t.Dim), z.zonk(t.Elem)
		if d == t.Dim && e == t.Elem {
			return t
		}
		return &Array{Unique: t.Unique, Dim: d, Elem: e}
	case *Record:
		var fs []Field
		for i, f := range t.Fields {
			ft := z.zonk(f.Type)
			if fs == nil && ft != f.Type {
				fs = append(make([]Field, 0, len(t.Fields)), t.Fields[:i]...)
			}
			if fs != nil {
				fs = append(fs, Field{f.Name, ft})
			}
		}
		if fs == nil {
			return t
		}
		return &Record{fs}
	case *Sum:
		var cs []Constr
		for i, cn := range t.Constrs {
			ps := z.zonkList(cn.Payload)
			if cs == nil && ps != nil {
				cs = append(make([]Constr, 0, len(t.Constrs)), t.Constrs[:i]...)
			}
			if cs != nil {
				if ps == nil {
					ps = cn.Payload
				}
				cs = append(cs, Constr{cn.Name, ps})
			}
		}
		if cs == nil {
			return t
		}
		return &Sum{cs}
	case *Arrow:
		from, to := z.zonk(t.From), z.zonk(t.To)
		if from == t.From && to == t.To {
			return t
		}
		return &Arrow{Param: t.Param, From: from, To: to, Exist: t.Exist}
	case *Con:
		var args []TypeArg
		for i, a := range t.Args {
			var na TypeArg
			if a.Type != nil {
				na = TypeArg{Type: z.zonk(a.Type)}
			} else {
				na = TypeArg{Size: zonkSize(a.Size)}
			}
			if args == nil && (na.Type != a.Type || na.Size != a.Size) {
				args = append(make([]TypeArg, 0, len(t.Args)), t.Args[:i]...)
			}
			if args != nil {
				args = append(args, na)
			}
		}
		if args == nil {
			return t
		}
		return &Con{Con: t.Con, Args: args, Unique: t.Unique}
	}
	return t
}

// zonkList zonks ts; nil when nothing changed.
func (z *zonker) zonkList(ts []Type) []Type {
	var out []Type
	for i, p := range ts {
		q := z.zonk(p)
		if out == nil && q != p {
			out = append(make([]Type, 0, len(ts)), ts[:i]...)
		}
		if out != nil {
			out = append(out, q)
		}
	}
	return out
}

func zonkSize(s Size) Size {
	s = resolveSize(s)
	if e, ok := s.(*SizeExpr); ok && e.Op != "" {
		l, r := zonkSize(e.L), zonkSize(e.R)
		if l == e.L && r == e.R {
			return e
		}
		return &SizeExpr{Op: e.Op, L: l, R: r}
	}
	if t, ok := s.(*SizeTerm); ok {
		args := make([]Size, len(t.Args))
		same := true
		for i, a := range t.Args {
			args[i] = zonkSize(a)
			same = same && args[i] == a
		}
		if same {
			return t
		}
		return &SizeTerm{Head: t.Head, Name: t.Name, Args: args}
	}
	return s
}
