package syntax

import "math/big"

// The abstract syntax of Futhark as fut reads it. The tree stays as parsed:
// the type checker records what it learns in side tables keyed by node
// pointer (see package types), and never edits a node.
//
// Ambiguities the parser cannot settle are kept as written and resolved by
// the checker: a dotted name a.b.c is a *Var with Qual ["a","b"] whatever
// a and b turn out to be (modules or records), and f [x] is an *Apply or an
// *Index as the grammar's layout rule decides (see the parser).

// Node is any syntax tree node.
type Node interface {
	Pos() Pos // first byte
	End() Pos // one past the last byte
}

// SpanOf returns n's span.
func SpanOf(n Node) Span { return Span{n.Pos(), n.End()} }

// Loc is embedded in every node: its span.
type Loc struct{ Span Span }

func (l *Loc) Pos() Pos { return l.Span.Start }
func (l *Loc) End() Pos { return l.Span.End }

// QualName is a possibly qualified name: Quals["M","N"], Name "x" is M.N.x.
// Operators are names too: Name "+" (and Quals for M.+).
type QualName struct {
	Quals []string
	Name  string
}

func (q QualName) String() string {
	s := ""
	for _, m := range q.Quals {
		s += m + "."
	}
	return s + q.Name
}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// PrimType names a primitive type: "i8", …, "u64", "f16", "f32", "f64",
// "bool". The empty string means "not given" (an unsuffixed literal).
type PrimType string

type (
	// IntLit is an integer literal, perhaps with a suffix (42, 0xff, 1_000i64,
	// 'a' is a CharLit). Text is the literal as written, without the suffix.
	// An unsuffixed integer literal is overloaded: it may be any integer or
	// float type (the checker decides, defaulting to i32).
	IntLit struct {
		Loc
		Text   string
		Value  *big.Int
		Suffix PrimType
	}
	// FloatLit is a floating-point literal (2.5, 1e3, 0x1.8p1, 2.5f32).
	// Unsuffixed, it may be any float type (defaulting to f64).
	FloatLit struct {
		Loc
		Text   string
		Value  float64
		Suffix PrimType
	}
	// BoolLit is true or false.
	BoolLit struct {
		Loc
		Value bool
	}
	// CharLit is 'c': an overloaded integer literal with the code point.
	CharLit struct {
		Loc
		Value rune
	}
	// StringLit is "...": an array of u8 holding the UTF-8 bytes.
	StringLit struct {
		Loc
		Value string // decoded
	}
	// Var is a (possibly qualified) name in expression position, including
	// dotted field access on a variable (r.x.y: Quals ["r","x"], Name "y").
	Var struct {
		Loc
		Name QualName
	}
	// Paren is (e). Kept so that spans and printing stay faithful.
	Paren struct {
		Loc
		X Expr
	}
	// TupleLit is (e1, e2, …) with at least two elements; () is the empty
	// tuple (Elems nil).
	TupleLit struct {
		Loc
		Elems []Expr
	}
	// RecordLit is {f1 = e1, f2, …}. A field without "= e" takes the value
	// of the variable of that name (Value is then a *Var).
	RecordLit struct {
		Loc
		Fields []*RecordField
	}
	// ArrayLit is [e1, e2, …].
	ArrayLit struct {
		Loc
		Elems []Expr
	}
	// Range is Start[..Second](...|..<|..>)Stop. (The bound is not named
	// End: a field End would hide Loc's End method, and *Range would not
	// be a Node.)
	Range struct {
		Loc
		Start  Expr
		Second Expr // nil when absent
		Stop   Expr
		Op     RangeOp
	}
	// Project is e.f for an e that is not a plain name: (e).x, f(x).0, etc.
	Project struct {
		Loc
		X     Expr
		Field string
	}
	// QualParen is M.(e): e with the module M opened.
	QualParen struct {
		Loc
		Quals []string
		X     Expr
	}
	// Binary is a binary operator application, including backticked
	// functions (x `f` y, Backtick set) and the pipes |> and <|.
	Binary struct {
		Loc
		Op       QualName
		OpSpan   Span
		Backtick bool
		L, R     Expr
	}
	// Negate is -e (Futhark's prefix minus). A literal -1 is parsed as
	// Negate of the literal 1; the checker and evaluator fold it.
	Negate struct {
		Loc
		X Expr
	}
	// Not is !e (logical not on bool, bitwise complement on integers).
	Not struct {
		Loc
		X Expr
	}
	// Apply is f a1 … an (n ≥ 1).
	Apply struct {
		Loc
		Fn   Expr
		Args []Expr
	}
	// Constr is #c e1 … en: a sum-type constructor applied to its payload.
	Constr struct {
		Loc
		Name string // without the #
		Args []Expr
	}
	// OpSection is (op): the operator as a function.
	OpSection struct {
		Loc
		Op       QualName
		Backtick bool
	}
	// LeftSection is (e op): \y -> e op y.
	LeftSection struct {
		Loc
		Op       QualName
		Backtick bool
		L        Expr
	}
	// RightSection is (op e): \x -> x op e.
	RightSection struct {
		Loc
		Op       QualName
		Backtick bool
		R        Expr
	}
	// ProjectSection is (.a.b): \r -> r.a.b.
	ProjectSection struct {
		Loc
		Fields []string
	}
	// IndexSection is (.[i, j]) (and mixes such as (.a[i].b)): a projection
	// or indexing path as a function.
	IndexSection struct {
		Loc
		Path []PathElem
	}
	// Lambda is \p1 … pn [: t] -> body.
	Lambda struct {
		Loc
		Params  []Pat
		RetType TypeExp // nil when absent
		Body    Expr
	}
	// If is if c then t else f.
	If struct {
		Loc
		Cond, Then, Else Expr
	}
	// LetIn is let [n]… p = e in body (or a sequence of lets with the final
	// "in" left out, as Futhark allows: the body of the last is then the
	// expression after it).
	LetIn struct {
		Loc
		Sizes []*SizeBinder
		Pat   Pat
		Value Expr
		Body  Expr
	}
	// LetFun is a local function: let f 'a [n] (x: t) … : r = e in body.
	LetFun struct {
		Loc
		Fun  *FunBind
		Body Expr
	}
	// LetWith is let a[i, j] = v in body (also let r.f = v in body):
	// in-place update of a variable, rebinding it.
	LetWith struct {
		Loc
		Dest  *Var
		Path  []PathElem
		Value Expr
		Body  Expr
	}
	// Update is a with [i, j].f = v: a copy of a (consumed) with one
	// element or field replaced. Path holds the slices and fields in order.
	Update struct {
		Loc
		X     Expr
		Path  []PathElem
		Value Expr
	}
	// Index is a[i, j:k:s, …]: indexing and slicing.
	Index struct {
		Loc
		X       Expr
		Indices []*DimIndex
	}
	// Loop is loop p [= init] for/while … do body.
	Loop struct {
		Loc
		Sizes []*SizeBinder // loop [n] (xs: [n]t) = …
		Pat   Pat
		Init  Expr // nil: the initial value is the pattern's variables' current values
		Form  LoopForm
		Body  Expr
	}
	// Match is match e case p1 -> e1 case p2 -> e2 ….
	Match struct {
		Loc
		X     Expr
		Cases []*Case
	}
	// Assert is assert c e.
	Assert struct {
		Loc
		Cond Expr
		X    Expr
	}
	// Ascript is e : t (checks that e has type t).
	Ascript struct {
		Loc
		X    Expr
		Type TypeExp
	}
	// Coerce is e :> t (changes sizes, checked at run time).
	Coerce struct {
		Loc
		X    Expr
		Type TypeExp
	}
	// Attr is #[attr] e.
	Attr struct {
		Loc
		Attr *AttrInfo
		X    Expr
	}
	// Hole is ???: type-checks as anything, fails when evaluated.
	Hole struct{ Loc }
)

// RangeOp is the kind of a range's upper bound.
type RangeOp int

const (
	RangeIncl     RangeOp = iota // a...b
	RangeUpExcl                  // a..<b
	RangeDownExcl                // a..>b
)

// RecordField is one field of a record literal.
type RecordField struct {
	Loc
	Name  string
	Value Expr
	Short bool // written as just the name
}

// PathElem is one step of an update path: either an index list or a field.
type PathElem struct {
	Indices []*DimIndex // non-nil for [i, …]
	Field   string      // set for .f
	Span    Span
}

// DimIndex is one index in a[…]: either a single position (Fix) or a
// slice start:end:stride with any part left out (nil).
type DimIndex struct {
	Loc
	Fix                 Expr // set for a plain index; the others are then nil
	Start, End, Stride  Expr
	IsSlice             bool
	HasStride, HasColon bool // layout as written, for printing
}

// LoopForm is For, ForIn or While.
type LoopForm interface {
	Node
	loopForm()
}

type (
	// For is "for i < n".
	For struct {
		Loc
		I     *Ident
		Bound Expr
	}
	// ForIn is "for p in xs".
	ForIn struct {
		Loc
		Pat Pat
		Arr Expr
	}
	// While is "while c".
	While struct {
		Loc
		Cond Expr
	}
)

// Case is one "case p -> e" of a match.
type Case struct {
	Loc
	Pat  Pat
	Body Expr
}

// SizeBinder is [n] in let [n] … and loop [n] ….
type SizeBinder struct {
	Loc
	Name string
}

// Ident is a binding occurrence of a plain name.
type Ident struct {
	Loc
	Name string
}

// AttrInfo is the contents of #[...]: a name, maybe applied to arguments
// (#[trace], #[unroll], #[incremental_flattening(only_inner)]), or an
// integer.
type AttrInfo struct {
	Loc
	Name string
	Args []*AttrInfo
	Int  *int64 // for numeric attributes
}

// ---------------------------------------------------------------------------
// Patterns

// Pat is a pattern.
type Pat interface {
	Node
	patNode()
}

type (
	// PId binds a name.
	PId struct {
		Loc
		Name string
	}
	// PWild is _.
	PWild struct{ Loc }
	// PTuple is (p1, …, pn) (n ≠ 1), () when empty.
	PTuple struct {
		Loc
		Elems []Pat
	}
	// PRecord is {f1 = p1, f2, …}; a field without a pattern binds its name.
	PRecord struct {
		Loc
		Fields []*PField
	}
	// PParen is (p).
	PParen struct {
		Loc
		P Pat
	}
	// PAscript is p : t.
	PAscript struct {
		Loc
		P    Pat
		Type TypeExp
	}
	// PLit is a literal pattern: an *IntLit, *FloatLit, *BoolLit, *CharLit,
	// possibly under a *Negate.
	PLit struct {
		Loc
		Lit Expr
	}
	// PConstr is #c p1 … pn.
	PConstr struct {
		Loc
		Name string
		Args []Pat
	}
	// PAttr is #[attr] p.
	PAttr struct {
		Loc
		Attr *AttrInfo
		P    Pat
	}
)

// PField is one field of a record pattern.
type PField struct {
	Loc
	Name  string
	Pat   Pat // a *PId of Name when written without a pattern
	Short bool
}

// ---------------------------------------------------------------------------
// Type expressions

// TypeExp is a type as written.
type TypeExp interface {
	Node
	typeNode()
}

type (
	// TEVar is a named type: a primitive (i32), an abbreviation (t, M.t) or
	// a type parameter.
	TEVar struct {
		Loc
		Name QualName
	}
	// TEParen is (t).
	TEParen struct {
		Loc
		T TypeExp
	}
	// TETuple is (t1, …, tn) (n ≠ 1), () when empty.
	TETuple struct {
		Loc
		Elems []TypeExp
	}
	// TERecord is {f1: t1, …}.
	TERecord struct {
		Loc
		Fields []*TEField
	}
	// TEArray is [d]t; Dim is nil for [] (an anonymous size).
	TEArray struct {
		Loc
		Dim  Expr // usually a *Var or *IntLit
		Elem TypeExp
	}
	// TEUnique is *t.
	TEUnique struct {
		Loc
		T TypeExp
	}
	// TEArrow is (x: a) -> b, or a -> b when Param is "".
	TEArrow struct {
		Loc
		Param string
		From  TypeExp
		To    TypeExp
	}
	// TESum is #c1 t… | #c2 ….
	TESum struct {
		Loc
		Constrs []*TEConstr
	}
	// TEApply is a type constructor applied to arguments: t [n] i32.
	TEApply struct {
		Loc
		Fn   TypeExp
		Args []TypeArg
	}
	// TEExist is ?[n][m].t: a type with existentially bound sizes.
	TEExist struct {
		Loc
		Sizes []string
		T     TypeExp
	}
)

// TEField is one field of a record type.
type TEField struct {
	Loc
	Name string
	Type TypeExp
}

// TEConstr is one constructor of a sum type.
type TEConstr struct {
	Loc
	Name    string // without the #
	Payload []TypeExp
}

// TypeArg is an argument to a type constructor: a size [n] / [] or a type.
type TypeArg struct {
	Span   Span
	IsSize bool
	Dim    Expr    // for a size; nil for []
	Type   TypeExp // for a type
}

// TypeParam is a parameter of a type abbreviation or a function: [n] is a
// size parameter, 'a a type parameter, '~a size-lifted, '^a fully lifted.
type TypeParam struct {
	Loc
	Name string
	Kind TypeParamKind
}

type TypeParamKind int

const (
	TPSize       TypeParamKind = iota // [n]
	TPType                            // 'a
	TPSizeLifted                      // '~a
	TPLifted                          // '^a
)

// Liftedness of a type declaration: type, type~, type^.
type Liftedness int

const (
	Unlifted Liftedness = iota
	SizeLifted
	Lifted
)

// ---------------------------------------------------------------------------
// Declarations

// Decl is a top-level or module-level declaration.
type Decl interface {
	Node
	declNode()
}

// FunBind is a value or function definition: def/let/entry at the top
// level, or a local let-function. A constant is a FunBind with no params.
type FunBind struct {
	Loc
	Name       string // an operator's symbol for (op) definitions
	NameSpan   Span
	IsOp       bool
	TypeParams []*TypeParam
	Params     []Pat
	RetType    TypeExp // nil when absent
	Body       Expr
	Attrs      []*AttrInfo
	Doc        string // the -- | comment before it
}

type (
	// ValDecl is def/let/entry.
	ValDecl struct {
		Loc
		Entry bool
		Fun   *FunBind
	}
	// TypeDecl is type[^~] t params = def.
	TypeDecl struct {
		Loc
		Name   string
		Lifted Liftedness
		Params []*TypeParam
		Def    TypeExp
		Doc    string
	}
	// ModDecl is module m (p: S) … : S' = me.
	ModDecl struct {
		Loc
		Name   string
		Params []*ModParam
		Sig    ModTypeExp // nil when absent
		Body   ModExp
		Doc    string
	}
	// ModTypeDecl is module type S = st.
	ModTypeDecl struct {
		Loc
		Name string
		Def  ModTypeExp
		Doc  string
	}
	// OpenDecl is open me.
	OpenDecl struct {
		Loc
		Mod ModExp
	}
	// ImportDecl is import "path" (the path without .fut).
	ImportDecl struct {
		Loc
		Path string
	}
	// LocalDecl is local d.
	LocalDecl struct {
		Loc
		D Decl
	}
)

// ModParam is (p: S) in a parametric module.
type ModParam struct {
	Loc
	Name string
	Sig  ModTypeExp
}

// ---------------------------------------------------------------------------
// Module expressions

// ModExp is a module expression.
type ModExp interface {
	Node
	modNode()
}

type (
	// ModVar is a (qualified) module name.
	ModVar struct {
		Loc
		Name QualName
	}
	// ModParen is (me).
	ModParen struct {
		Loc
		M ModExp
	}
	// ModStruct is { decls }.
	ModStruct struct {
		Loc
		Decls []Decl
	}
	// ModImport is import "path" as a module expression.
	ModImport struct {
		Loc
		Path string
	}
	// ModApply is functor application f a.
	ModApply struct {
		Loc
		Fn, Arg ModExp
	}
	// ModAscript is me : S.
	ModAscript struct {
		Loc
		M   ModExp
		Sig ModTypeExp
	}
	// ModLambda is \(p: S) [: S'] -> me.
	ModLambda struct {
		Loc
		Param *ModParam
		Sig   ModTypeExp // result signature, nil when absent
		Body  ModExp
	}
)

// ---------------------------------------------------------------------------
// Module types

// ModTypeExp is a module type expression.
type ModTypeExp interface {
	Node
	modTypeNode()
}

type (
	// SigVar is a (qualified) module type name.
	SigVar struct {
		Loc
		Name QualName
	}
	// SigParen is (S).
	SigParen struct {
		Loc
		S ModTypeExp
	}
	// SigSpecs is { specs }.
	SigSpecs struct {
		Loc
		Specs []Spec
	}
	// SigWith is S with t 'a [n] = u (Path is the qualified type name).
	SigWith struct {
		Loc
		S      ModTypeExp
		Path   QualName
		Params []*TypeParam
		Type   TypeExp
	}
	// SigArrow is (p: S) -> S' or S -> S' (Param "").
	SigArrow struct {
		Loc
		Param string
		From  ModTypeExp
		To    ModTypeExp
	}
)

// Spec is one specification in a module type.
type Spec interface {
	Node
	specNode()
}

type (
	// ValSpec is val f 'a [n]: t (an operator spec has IsOp).
	ValSpec struct {
		Loc
		Name       string
		IsOp       bool
		TypeParams []*TypeParam
		Type       TypeExp
		Doc        string
	}
	// TypeSpec is type[^~] t params [= def] (abstract when Def is nil).
	TypeSpec struct {
		Loc
		Name   string
		Lifted Liftedness
		Params []*TypeParam
		Def    TypeExp
		Doc    string
	}
	// ModSpec is module m: S.
	ModSpec struct {
		Loc
		Name string
		Sig  ModTypeExp
	}
	// IncludeSpec is include S.
	IncludeSpec struct {
		Loc
		S ModTypeExp
	}
)

// Program is one parsed file.
type Program struct {
	File  *File
	Decls []Decl
	Doc   string // the file's leading -- | comment
}

// ---------------------------------------------------------------------------
// Interface tags

func (*IntLit) exprNode()         {}
func (*FloatLit) exprNode()       {}
func (*BoolLit) exprNode()        {}
func (*CharLit) exprNode()        {}
func (*StringLit) exprNode()      {}
func (*Var) exprNode()            {}
func (*Paren) exprNode()          {}
func (*TupleLit) exprNode()       {}
func (*RecordLit) exprNode()      {}
func (*ArrayLit) exprNode()       {}
func (*Range) exprNode()          {}
func (*Project) exprNode()        {}
func (*QualParen) exprNode()      {}
func (*Binary) exprNode()         {}
func (*Negate) exprNode()         {}
func (*Not) exprNode()            {}
func (*Apply) exprNode()          {}
func (*Constr) exprNode()         {}
func (*OpSection) exprNode()      {}
func (*LeftSection) exprNode()    {}
func (*RightSection) exprNode()   {}
func (*ProjectSection) exprNode() {}
func (*IndexSection) exprNode()   {}
func (*Lambda) exprNode()         {}
func (*If) exprNode()             {}
func (*LetIn) exprNode()          {}
func (*LetFun) exprNode()         {}
func (*LetWith) exprNode()        {}
func (*Update) exprNode()         {}
func (*Index) exprNode()          {}
func (*Loop) exprNode()           {}
func (*Match) exprNode()          {}
func (*Assert) exprNode()         {}
func (*Ascript) exprNode()        {}
func (*Coerce) exprNode()         {}
func (*Attr) exprNode()           {}
func (*Hole) exprNode()           {}

func (*For) loopForm()   {}
func (*ForIn) loopForm() {}
func (*While) loopForm() {}

func (*PId) patNode()      {}
func (*PWild) patNode()    {}
func (*PTuple) patNode()   {}
func (*PRecord) patNode()  {}
func (*PParen) patNode()   {}
func (*PAscript) patNode() {}
func (*PLit) patNode()     {}
func (*PConstr) patNode()  {}
func (*PAttr) patNode()    {}

func (*TEVar) typeNode()    {}
func (*TEParen) typeNode()  {}
func (*TETuple) typeNode()  {}
func (*TERecord) typeNode() {}
func (*TEArray) typeNode()  {}
func (*TEUnique) typeNode() {}
func (*TEArrow) typeNode()  {}
func (*TESum) typeNode()    {}
func (*TEApply) typeNode()  {}
func (*TEExist) typeNode()  {}

func (*ValDecl) declNode()     {}
func (*TypeDecl) declNode()    {}
func (*ModDecl) declNode()     {}
func (*ModTypeDecl) declNode() {}
func (*OpenDecl) declNode()    {}
func (*ImportDecl) declNode()  {}
func (*LocalDecl) declNode()   {}

func (*ModVar) modNode()     {}
func (*ModParen) modNode()   {}
func (*ModStruct) modNode()  {}
func (*ModImport) modNode()  {}
func (*ModApply) modNode()   {}
func (*ModAscript) modNode() {}
func (*ModLambda) modNode()  {}

func (*SigVar) modTypeNode()   {}
func (*SigParen) modTypeNode() {}
func (*SigSpecs) modTypeNode() {}
func (*SigWith) modTypeNode()  {}
func (*SigArrow) modTypeNode() {}

func (*ValSpec) specNode()     {}
func (*TypeSpec) specNode()    {}
func (*ModSpec) specNode()     {}
func (*IncludeSpec) specNode() {}
