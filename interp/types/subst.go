package types

// Substitution of rigid type constructors and size names, used to
// instantiate polymorphic values, expand type abbreviations and apply
// parametric modules.

import "fut/interp/syntax"

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
		switch op {
		case "+":
			return &SizeConst{lc.N + rc.N}
		case "-":
			return &SizeConst{lc.N - rc.N}
		case "*":
			return &SizeConst{lc.N * rc.N}
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
		s.sizes[sz] = c.newSizeVar()
	}
	c.info.noteInstance(sp, sc, s) // sizeargs.go
	return substType(sc.Type, s)
}

// zonk resolves every unification variable in t that has been bound.
func zonk(t Type) Type {
	if chainUnique(t) {
		return setUnique(zonk1(Resolve(t)), true)
	}
	return zonk1(t)
}

func zonk1(t Type) Type {
	switch t := Resolve(t).(type) {
	case *Array:
		return &Array{Unique: t.Unique, Dim: zonkSize(t.Dim), Elem: zonk(t.Elem)}
	case *Record:
		fs := make([]Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = Field{f.Name, zonk(f.Type)}
		}
		return &Record{fs}
	case *Sum:
		cs := make([]Constr, len(t.Constrs))
		for i, cn := range t.Constrs {
			ps := make([]Type, len(cn.Payload))
			for j, p := range cn.Payload {
				ps[j] = zonk(p)
			}
			cs[i] = Constr{cn.Name, ps}
		}
		return &Sum{cs}
	case *Arrow:
		return &Arrow{Param: t.Param, From: zonk(t.From), To: zonk(t.To), Exist: t.Exist}
	case *Con:
		args := make([]TypeArg, len(t.Args))
		for i, a := range t.Args {
			if a.Type != nil {
				args[i] = TypeArg{Type: zonk(a.Type)}
			} else {
				args[i] = TypeArg{Size: zonkSize(a.Size)}
			}
		}
		return &Con{Con: t.Con, Args: args, Unique: t.Unique}
	default:
		return t
	}
}

func zonkSize(s Size) Size {
	s = resolveSize(s)
	if e, ok := s.(*SizeExpr); ok && e.Op != "" {
		return &SizeExpr{Op: e.Op, L: zonkSize(e.L), R: zonkSize(e.R)}
	}
	if t, ok := s.(*SizeTerm); ok {
		args := make([]Size, len(t.Args))
		for i, a := range t.Args {
			args[i] = zonkSize(a)
		}
		return &SizeTerm{Head: t.Head, Name: t.Name, Args: args}
	}
	return s
}
