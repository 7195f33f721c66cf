// Package types is fut's type checker.
//
// Input: parsed programs, declarations and expressions (package syntax),
// checked in order against one growing environment (the intrinsics module,
// the prelude, the user's files, then REPL entries).
// Output: side tables (Info) giving the type of every expression, the
// resolved primitive type of every overloaded literal, and the types of
// entry points; and a syntax.ErrorList of everything wrong, each error at
// the node that caused it.
// Invariants: the AST is never edited; after a top-level definition is
// checked, every type recorded for it in Info is fully resolved (no
// unification variables left; overloaded literals defaulted).
//
// The checker reads as phases per top-level value definition: inference
// (infer_expr.go, infer_bind.go, patterns.go, typeexp.go, with unify.go,
// sizes.go and loop_sizes.go), defaulting and generalisation (decls.go), the
// restrictions Futhark adds (restrictions.go, exhaustive.go,
// literals.go), the causality restriction on sizes (causality.go), then
// uniqueness and aliasing (unique.go, unique_flow.go). Modules and module types are in modules.go and
// signatures.go; substitution in subst.go; errors in errors.go.
package types

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fut/interp/syntax"
)

// Type is a Futhark type. Concrete types are *Prim, *Array, *Record, *Sum,
// *Arrow, *Con (an abstract type or a rigid type parameter) and *TVar (a
// unification variable, only while a definition is being checked).
type Type interface {
	String() string
	isType()
}

// Prim is a primitive type.
type Prim struct{ Kind syntax.PrimType }

// Array is [Dim]Elem. Multi-dimensional arrays nest.
type Array struct {
	Unique bool
	Dim    Size
	Elem   Type
}

// Field is one field of a record.
type Field struct {
	Name string
	Type Type
}

// Record is {f: t, ...}; a tuple is a record with fields 0..n-1 (n ≠ 1).
// Fields are sorted by name (numerically for numeric names).
type Record struct{ Fields []Field }

// Constr is one constructor of a sum type.
type Constr struct {
	Name    string
	Payload []Type
}

// Sum is #a t | #b ...; constructors are sorted by name.
type Sum struct{ Constrs []Constr }

// Arrow is a function type. Param, when non-nil, names the parameter so
// that the result type may refer to it as a size ((n: i64) -> [n]i32).
// Exist lists sizes of the result that are fresh at each application.
type Arrow struct {
	Param *SizeName
	From  Type
	To    Type
	Exist []*SizeName
}

// TypeCon is a rigid type constructor: a type parameter of a function, or
// an abstract type of a module type. Identity is the pointer.
type TypeCon struct {
	Name   string
	Arity  int
	Lifted syntax.Liftedness
	id     int
	// inferred marks a type parameter made by generalisation (not
	// written): its liftedness is only the most general one.
	inferred bool
	// qual is the module path an abstract type was made under (M1.M.t),
	// for messages where two types print alike.
	qual string
}

// Con is a rigid type constructor applied to arguments.
type Con struct {
	Con    *TypeCon
	Args   []TypeArg
	Unique bool
}

// TypeArg is an argument of a type constructor: a type or a size.
type TypeArg struct {
	Type Type // nil for a size argument
	Size Size
}

// TVar is a unification variable.
type TVar struct{ *tvar }

type tvar struct {
	id     int
	link   Type
	level  int
	lifted syntax.Liftedness // what it may be bound to
	// constraints
	overload []syntax.PrimType // non-nil: must be one of these
	equality bool
	fields   map[string]Type // must be a record with at least these fields
	constrs  map[string][]Type
	// openCons counts the types in fields and constrs that held a
	// variable when they were added (facts.go); with none, nothing can
	// occur in the constraints and the walks skip them.
	openCons int
	span     syntax.Span // where the constraint arose
	why      string
	lit      bool // from an overloaded literal (for defaulting)
	index    bool // used as a slice bound (defaults to i64)
	uniq     bool // a unique view of link (*t where t is a type parameter)
}

// chainUnique reports whether a unification chain passes through a unique
// view.
func chainUnique(t Type) bool {
	for {
		v, ok := t.(TVar)
		if !ok || v.link == nil {
			return false
		}
		if v.uniq {
			return true
		}
		t = v.link
	}
}

func (*Prim) isType()   {}
func (*Array) isType()  {}
func (*Record) isType() {}
func (*Sum) isType()    {}
func (*Arrow) isType()  {}
func (*Con) isType()    {}
func (TVar) isType()    {}

// Size is the size of an array dimension: *SizeConst, *SizeName,
// *SizeVar, *SizeExpr or *SizeAny.
type Size interface {
	String() string
	isSize()
}

// SizeConst is a literal size.
type SizeConst struct {
	N int64
	// from is the expression of constants this size was folded from
	// (2 + 3 for 5), so that it still unifies with n + m as Futhark,
	// which does not fold, would unify it.
	from *SizeExpr
}

// SizeName is a size bound by a name: a size parameter, a variable of type
// i64, or an unknown size (Unknown set). Identity is the pointer.
type SizeName struct {
	Name    string
	Unknown bool
	// Origin says where an unknown size comes from ("unknown length of
	// range at 6:3"), for messages.
	Origin string
	id     int
	// scoped is the name whose going out of scope made this unknown size.
	scoped string
}

// SizeVar is a size unification variable.
type SizeVar struct{ *svar }

type svar struct {
	id    int
	link  Size
	level int
	// stands is the named parameter of a function type this variable
	// stands for, where the other function type does not name it.
	stands string
	// declared marks an anonymous size of a definition's declared type
	// (def f : i64 -> []t): it is introduced with the definition, outside
	// the scope of any parameter of a function inside it (unify.go).
	declared bool
}

// SizeExpr is a size given by an expression of other sizes (n+1, n*m,
// length xs). Key is a canonical text compared for equality.
type SizeExpr struct {
	Key  string
	Op   string // "+", "-", "*", "/" or "" for an opaque term
	L, R Size
}

// SizeAny is a size the checker does not track; it matches any size.
type SizeAny struct {
	// anon marks an anonymous size of a type abbreviation (type~ t =
	// []i32), which a binding's annotation makes a size of its own at
	// each use (flexsizes.go).
	anon bool
}

func (*SizeConst) isSize() {}
func (*SizeName) isSize()  {}
func (SizeVar) isSize()    {}
func (*SizeExpr) isSize()  {}
func (*SizeTerm) isSize()  {}

// SizeTerm is a size given by a function application (length xs,
// i64.sum ks): Head identifies the function, Args are its arguments as
// sizes (a variable of any type stands for itself).
type SizeTerm struct {
	Head string // canonical: name and binding identity
	Name string // as printed
	Args []Size
}

// indexHead is the head of a SizeTerm that stands for xs[i, j]: its
// arguments are the array and the indices.
const indexHead = "[]"

func (s *SizeTerm) String() string {
	if s.Head == indexHead && len(s.Args) > 0 {
		out := sizeAtom(s.Args[0]) + "["
		for i, a := range s.Args[1:] {
			if i > 0 {
				out += ", "
			}
			out += a.String()
		}
		return out + "]"
	}
	if strings.HasPrefix(s.Head, ".") && len(s.Args) == 1 {
		return sizeAtom(s.Args[0]) + s.Head // a field: count[0].0
	}
	out := s.Name
	for _, a := range s.Args {
		out += " " + sizeAtom(a)
	}
	return out
}
func (*SizeAny) isSize() {}

// Commonly used types.
var (
	Bool = &Prim{"bool"}
	I8   = &Prim{"i8"}
	I16  = &Prim{"i16"}
	I32  = &Prim{"i32"}
	I64  = &Prim{"i64"}
	U8   = &Prim{"u8"}
	U16  = &Prim{"u16"}
	U32  = &Prim{"u32"}
	U64  = &Prim{"u64"}
	F16  = &Prim{"f16"}
	F32  = &Prim{"f32"}
	F64  = &Prim{"f64"}
)

var (
	intPrims   = []syntax.PrimType{"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"}
	floatPrims = []syntax.PrimType{"f16", "f32", "f64"}
	numPrims   = append(append([]syntax.PrimType{}, intPrims...), floatPrims...)
	allPrims   = append(append([]syntax.PrimType{}, numPrims...), "bool")
)

func isPrimName(s string) bool {
	for _, p := range allPrims {
		if string(p) == s {
			return true
		}
	}
	return false
}

// IsFloat reports whether p is a floating-point type.
func IsFloat(p syntax.PrimType) bool { return p == "f16" || p == "f32" || p == "f64" }

// IsInt reports whether p is an integer type.
func IsInt(p syntax.PrimType) bool { return p != "" && p != "bool" && !IsFloat(p) }

// TupleType builds a tuple type (a record with fields 0..n-1).
func TupleType(ts ...Type) Type {
	fs := make([]Field, len(ts))
	for i, t := range ts {
		fs[i] = Field{strconv.Itoa(i), t}
	}
	return &Record{fs}
}

// NewRecord builds a record type, sorting its fields.
func NewRecord(fs []Field) *Record {
	sortFields(fs)
	return &Record{fs}
}

func fieldLess(a, b string) bool {
	ai, aerr := strconv.Atoi(a)
	bi, berr := strconv.Atoi(b)
	if aerr == nil && berr == nil {
		return ai < bi
	}
	if aerr == nil {
		return true
	}
	if berr == nil {
		return false
	}
	return a < b
}

func sortFields(fs []Field) {
	sort.Slice(fs, func(i, j int) bool { return fieldLess(fs[i].Name, fs[j].Name) })
}

// IsTuple reports whether r's fields are 0..n-1 with n ≠ 1.
func (r *Record) IsTuple() bool {
	if len(r.Fields) == 1 {
		return false
	}
	for i, f := range r.Fields {
		if f.Name != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

// Field returns the type of field name.
func (r *Record) Field(name string) (Type, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Type, true
		}
	}
	return nil, false
}

// Constr returns the payload of constructor name.
func (s *Sum) Constr(name string) ([]Type, bool) {
	// constructors are sorted by name: search, and scan only on a miss
	// (in case a Sum was built unsorted)
	cs := s.Constrs
	if i := sort.Search(len(cs), func(i int) bool { return cs[i].Name >= name }); i < len(cs) && cs[i].Name == name {
		return cs[i].Payload, true
	}
	for _, c := range s.Constrs {
		if c.Name == name {
			return c.Payload, true
		}
	}
	return nil, false
}

// Resolve follows unification links at the top of t.
func Resolve(t Type) Type {
	v, ok := t.(TVar)
	if !ok || v.link == nil {
		return t
	}
	if w, ok := v.link.(TVar); !ok || w.link == nil {
		return v.link
	}
	return resolveChain(v)
}

// resolveChain follows a chain of two links or more and shortens it:
// each variable is linked straight to the end, so that n unifications
// that each add a link (1 + 1 + … + 1) cost n, not n². A variable keeps
// its link where one after it is a unique view (chainUnique must still
// see it); links only ever go from unbound to bound, so a shortened link
// means what the chain meant.
func resolveChain(v TVar) Type {
	var chain []*tvar
	var end Type = v
	for {
		x, ok := end.(TVar)
		if !ok || x.link == nil {
			break
		}
		chain = append(chain, x.tvar)
		end = x.link
	}
	uniqAfter := false
	for i := len(chain) - 1; i >= 0; i-- {
		if !uniqAfter {
			chain[i].link = end
		}
		uniqAfter = uniqAfter || chain[i].uniq
	}
	return end
}

func resolveSize(s Size) Size {
	v, ok := s.(SizeVar)
	if !ok || v.link == nil {
		return s
	}
	if w, ok := v.link.(SizeVar); !ok || w.link == nil {
		return v.link
	}
	// a chain: link every variable on it to the end (see resolveChain)
	var chain []*svar
	for {
		x, ok := s.(SizeVar)
		if !ok || x.link == nil {
			break
		}
		chain = append(chain, x.svar)
		s = x.link
	}
	for _, x := range chain {
		x.link = s
	}
	return s
}

// ArrayElem returns the primitive element type and rank of an array type
// (or rank 0 for a primitive type). ok is false when the elements are not
// primitive (records, sums, abstract types).
func ArrayElem(t Type) (prim syntax.PrimType, rank int, ok bool) {
	t = Resolve(t)
	for {
		a, isArr := t.(*Array)
		if !isArr {
			break
		}
		rank++
		t = Resolve(a.Elem)
	}
	if p, isPrim := t.(*Prim); isPrim {
		return p.Kind, rank, true
	}
	return "", rank, false
}

// Shape returns the dimensions of an array type, outermost first, and its
// element type.
func Shape(t Type) ([]Size, Type) {
	var dims []Size
	t = Resolve(t)
	for {
		a, ok := t.(*Array)
		if !ok {
			return dims, t
		}
		dims = append(dims, resolveSize(a.Dim))
		t = Resolve(a.Elem)
	}
}

func (s *SizeConst) String() string { return strconv.FormatInt(s.N, 10) }
func (s *SizeName) String() string  { return s.Name }
func (s SizeVar) String() string {
	if s.link != nil {
		return s.link.String()
	}
	return ""
}
func (s *SizeExpr) String() string {
	if s.Op == "" {
		return s.Key
	}
	return sizeAtom(s.L) + " " + s.Op + " " + sizeAtom(s.R) // as Futhark prints it
}
func sizeAtom(s Size) string {
	s = resolveSize(s)
	if e, ok := s.(*SizeExpr); ok && e.Op != "" {
		return "(" + e.String() + ")"
	}
	if t, ok := s.(*SizeTerm); ok && len(t.Args) > 0 && t.Head != indexHead && !strings.HasPrefix(t.Head, ".") {
		return "(" + t.String() + ")"
	}
	if t := s.String(); t != "" {
		return t
	}
	return "?" // a size not known (yet) inside an expression: ? + 1
}
func (s *SizeAny) String() string { return "" }

// sizeKey is a canonical key for comparing sizes; "" when unknown.
func sizeKey(s Size) string {
	switch s := resolveSize(s).(type) {
	case *SizeConst:
		return strconv.FormatInt(s.N, 10)
	case *SizeName:
		return fmt.Sprintf("%s#%d", s.Name, s.id)
	case *SizeTerm:
		k := s.Head
		for _, a := range s.Args {
			ak := sizeKey(a)
			if ak == "" {
				return ""
			}
			k += " " + ak
		}
		return "(" + k + ")"
	case *SizeExpr:
		if s.Op == "" {
			return s.Key
		}
		l, r := sizeKey(s.L), sizeKey(s.R)
		if l == "" || r == "" {
			return ""
		}
		if ln, err := strconv.ParseInt(l, 10, 64); err == nil {
			if rn, err := strconv.ParseInt(r, 10, 64); err == nil {
				switch s.Op {
				case "+":
					return strconv.FormatInt(ln+rn, 10)
				case "-":
					return strconv.FormatInt(ln-rn, 10)
				case "*":
					return strconv.FormatInt(ln*rn, 10)
				}
			}
		}
		return "(" + l + s.Op + r + ")"
	}
	return ""
}

func sortConstrs(cs []Constr) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
}
