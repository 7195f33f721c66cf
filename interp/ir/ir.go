// Package ir is fut's typed core IR and its passes.
//
// Input: a program made by package interp/lower (which lowers the
// checked, first-order program of its source stages), or the IR's text
// form (Parse). The package imports neither the syntax tree nor the
// checker.
// Output: a *Prog in A-normal form, the passes that rewrite it
// (simplification, fusion), its text form (String), an evaluator (Eval)
// and the cost of the fused plan (FusedCost).
//
// Invariants of a Prog (checked by Verify):
//   - first order and monomorphic: no functions, modules, type variables;
//   - A-normal form: every operand is an atom (a variable or a constant);
//   - tuples and records are flattened: every variable holds one scalar or
//     one array of scalars (an array of tuples is a tuple of arrays);
//   - sizes are explicit: every array type lists its dimensions as atoms
//     (constants or i64 variables in scope);
//   - every name is bound once; a consumed array (update, scatter, hist
//     destination) is not used after the consuming statement;
//   - SOACs: one composite Screma (map, reduce and scan in one, as
//     Futhark's), Scatter and Hist, each with a lambda over the elements,
//     and Stream (reduce_stream, map_stream) with a lambda over chunks.
//
// Files: ir.go (the nodes), print.go and parse.go (the text form),
// verify.go, pass.go (the pass table), ad*.go (forward and reverse mode),
// simplify.go, fuse.go, walk.go (traversals), eval.go and cost.go (the
// evaluator and the cost of the fused plan).
package ir

import "fut/eval/value"

// Prim is a primitive type (value.I8 … value.F64, value.Bool).
type Prim = value.PrimType

// Atom is an operand: a variable (Name != "") or a constant (Val).
type Atom struct {
	Name string
	Val  value.Prim
}

// start is an iota's first element.
func (e *IotaE) start() Atom {
	if e.Start == (Atom{}) {
		return I64(0)
	}
	return e.Start
}

// V is a variable atom; C a constant one.
func V(name string) Atom     { return Atom{Name: name} }
func C(p value.Prim) Atom    { return Atom{Val: p} }
func I64(n int64) Atom       { return C(value.I64Val(n)) }
func (a Atom) IsConst() bool { return a.Name == "" }

// Type is a scalar (no Shape) or an array of scalars with its dimensions.
type Type struct {
	Elem   Prim
	Shape  []Atom
	Unique bool
}

// Scalar is the type of one scalar.
func Scalar(p Prim) Type { return Type{Elem: p} }

// Rank is the number of dimensions.
func (t Type) Rank() int { return len(t.Shape) }

// Row is the type of one element of the outermost dimension.
func (t Type) Row() Type { return Type{Elem: t.Elem, Shape: t.Shape[1:]} }

// ArrayOf prepends a dimension.
func (t Type) ArrayOf(n Atom) Type {
	return Type{Elem: t.Elem, Shape: append([]Atom{n}, t.Shape...)}
}

// Param binds a name to a type.
type Param struct {
	Name string
	T    Type
}

// Body is a sequence of statements and the atoms it returns.
type Body struct {
	Stms []*Stm
	Res  []Atom
}

// Stm binds the results of an expression: let (x: t, …) = e.
//
// Where is the source position (file:line:col) that an error of the
// statement names, as the reference path names it: set by the lowering on
// statements that can fail (an index or update out of bounds, a division
// by zero, a size that does not fit), "" elsewhere. Passes keep it; the
// evaluator and the device report it, so that an error on the fused path
// or in a kernel names its source without running the reference path.
//
// Hoisted marks a statement that the simplifier moved out of a loop's
// body or a SOAC's lambda (text form let hoisted (x: t) = e): the plan
// computes it once, before the loop or SOAC, but charges it where its
// value is first needed (see machine.body), so that a loop of no
// iterations or a SOAC of no elements does not pay for it, as the source,
// which computes it in each iteration or instance, does not.
type Stm struct {
	Pat     []Param
	E       Exp
	Where   string
	Hoisted bool
}

// CanFail says whether evaluating e can fail at run time with an error of
// the program whose message is the reference path's (an index out of
// bounds, a division by zero, a negative exponent): the statements whose
// Where the lowering sets. The others that can fail (a slice, a size) are
// preceded by assertions (AssertE) with the message.
func CanFail(e Exp) bool {
	switch e := e.(type) {
	case *IndexE, *UpdateE:
		return true
	case *BinOpE:
		switch e.Op {
		case "/", "%", "//", "%%", "**":
			return true
		}
	}
	return false
}

// Lambda is an anonymous function of a SOAC, first order.
type Lambda struct {
	Params []Param
	Ret    []Type
	Body   *Body
}

// Prog is a whole lowered expression or function: its parameters (the free
// variables, with concrete types), its body and the types of its results.
type Prog struct {
	Params []Param
	Ret    []Type
	Body   *Body
}

// Exp is an expression whose operands are atoms.
type Exp interface{ isExp() }

type (
	// AtomE is a copy of an atom.
	AtomE struct{ X Atom }
	// BinOpE is x op y on scalars (op a value.BinOp symbol, or min/max).
	// Implicit marks arithmetic the lowering or a pass introduced to
	// compute an element or an index the source's rule already charges
	// (a range's element start + i·step, a fused iota's start, a
	// multi-dimensional index flattened for scatter and hist): it costs
	// nothing, as an implicit ConvE does. Its text form is prefixed by
	// implicit.
	BinOpE struct {
		Op       string
		X, Y     Atom
		Implicit bool
	}
	// UnOpE is a scalar unary operation: neg, not, abs, sgn, or a float
	// math function (value.Math1/Math2 names: sqrt, exp, atan2, …).
	UnOpE struct {
		Op   string
		Args []Atom
	}
	// ConvE converts a scalar to another primitive type. Implicit marks
	// a conversion the lowering or a pass introduced (a loop index, an
	// index widened to i64), not one of the source: it costs nothing, as
	// lowering adds no cost of its own (COST_MODEL.md, the fused plan).
	// Its text form is cast instead of conv.
	ConvE struct {
		To       Prim
		X        Atom
		Implicit bool
	}
	// AssertE fails with Msg when Cond is false: a check of the source
	// (assert, a size coercion, a slice's bounds) that the reference path
	// makes too. Where is the source position (file:line:col) the error
	// names. It binds Cond, true afterwards; simplification keeps it
	// unless Cond is the constant true.
	//
	// Approx marks a message that is not the reference path's (which
	// names values known only when it fails: shapes, a slice as written):
	// its failure is then reported by running the reference path.
	AssertE struct {
		Cond   Atom
		Msg    string
		Where  string
		Approx bool
	}
	// IfE chooses a branch. Implicit marks a choice the lowering adds
	// inside a construct whose source rule covers it (a match's later
	// cases, the shape test of == on arrays): it costs no step of its
	// own; text form "if implicit c then …".
	IfE struct {
		Cond       Atom
		Then, Else *Body
		Ret        []Type
		Implicit   bool
	}
	// LoopE is loop (params = init) for I < Bound do body: a sequential
	// loop, maybe over the rows of arrays (Elems, Over); or, when While is set, loop … while cond do body, where While
	// computes the condition from the parameters (I and Bound unused).
	LoopE struct {
		Params []Param
		Init   []Atom
		I      string
		Bound  Atom
		While  *Body
		Body   *Body
		// for x in xs: each iteration binds Elems[k] to row I of Over[k].
		Elems []Param
		Over  []string
	}
	// IndexE is arr[i, …] with fixed indices (a scalar or a row).
	// Implicit marks a read that makes an element of a view the source
	// has as a view (a strided or inner slice, gathered): the view's rule
	// covers it and it costs nothing; text form "implicit arr[i, …]".
	IndexE struct {
		Arr      string
		Idx      []Atom
		Implicit bool
	}
	// UpdateE is arr with [i, …] = v; arr is consumed.
	UpdateE struct {
		Arr string
		Idx []Atom
		X   Atom
	}
	// SliceE is arr[Start : Start+Len] on the outer dimension: a view.
	SliceE struct {
		Arr        string
		Start, Len Atom
	}
	// IotaE is [s, s+1, …, s+n-1] for Start s (of any integer type; the
	// zero Atom stands for 0i64): iota and ranges.
	IotaE struct{ N, Start Atom }
	// ReplicateE is [n]x.
	ReplicateE struct{ N, X Atom }
	// ArrayE is an array literal of atoms of type Elem.
	ArrayE struct {
		Elem  Type
		Elems []Atom
	}
	// TransposeE swaps the two outer dimensions.
	TransposeE struct{ Arr string }
	// ConcatE joins arrays along the outer dimension; N is the result's
	// length (checked when run).
	ConcatE struct {
		N    Atom
		Arrs []string
	}
	// ReshapeE views an array with another shape of as many elements
	// (flatten); checked when run. Coerce marks a reshape that is free: a
	// size coercion (e :> t) that only renames sizes, as the source's
	// coercion is, or a view whose source rule includes it (the
	// destination of scatter_2d or hist_2d viewed flat and back); text
	// form "coerce" instead of "reshape".
	ReshapeE struct {
		Arr    string
		Shape  []Atom
		Coerce bool
	}
	// ReverseE views an array's rows in reverse order.
	ReverseE struct{ Arr string }
	// CopyE copies an array. Part marks the copy of a later field of an
	// array of tuples (copy (zip xs ys) lowers to one copy per field): it
	// runs beside the first field's, so its step adds no depth, as the
	// source's one copy; text form "copy_part".
	CopyE struct {
		Arr  string
		Part bool
	}
	// ScremaE is Futhark's composite SOAC over W elements of Arrs: the map
	// lambda Map (with Index bound to the element's index when set) gives
	// for each element first the scans' inputs, then the reductions', then
	// the map's own results. The statement's results are the scans' arrays,
	// then the reductions' values, then the mapped arrays. Gens counts the
	// iota and replicate producers fused into it (each costs 1 work per
	// element in the fused plan).
	//
	// View marks the map that gathers a slice the source has as a view
	// (a[i:j:s], a[:, i:j]): its own step costs 1, as the slice's rule,
	// not one per element (what fused into it costs what it costs); text
	// form "gather" instead of "screma".
	ScremaE struct {
		W     Atom
		Arrs  []string
		Index string
		Gens  int
		Scans []*SegOp
		Reds  []*SegOp
		Map   *Lambda
		View  bool
	}
	// StreamE processes W elements of Arrs in chunks: Fold takes the
	// chunk's size (its first parameter, an i64) and the chunks of Arrs
	// (arrays of that size) and returns the chunk's results. With Red set
	// (reduce_stream) the chunks' results are combined by Red, an
	// associative operator, in a tree; without (map_stream) each result
	// is an array of the chunk's size and the results are concatenated.
	// The chunk size is the reference semantics' (StreamChunk).
	StreamE struct {
		W    Atom
		Arrs []string
		Red  *Lambda
		Fold *Lambda
	}
	// FilterE keeps, of W elements, those for which the lambda's first
	// result is true; the lambda's other results are the kept values. Its
	// statement binds the number kept, then one array of that many rows
	// per value: let (k: i64, ys: [k]t, …) = filter ….
	//
	// With Partition set (partition, text "partition") the elements for
	// which the predicate is false follow, in order: let (k: i64, ys: [k]t,
	// …, r: i64, zs: [r]t, …) = partition … binds the kept count and
	// arrays, then the count of the others (W − k) and theirs. It costs
	// one filter (the model's rule for partition); SplitPartitions writes
	// it as two filters for the stages that take only those.
	FilterE struct {
		W         Atom
		Arrs      []string
		Index     string
		Gens      int
		Map       *Lambda
		Partition bool
	}
	// ScatterE writes, for each of W elements, the lambda's (index, value)
	// results into Dest (consumed); out-of-range indices are skipped.
	//
	// Slice marks the scatter that an update of a slice (a with [i:j] =
	// v) lowers to: its own step costs 1, as the source's rule for the
	// update, whatever the number of elements (what fused into it costs
	// what it costs); text form "scatter_slice" instead of "scatter".
	//
	// Part marks the scatter of a later field of an array of tuples (a
	// scatter of tuples lowers to one scatter per field): the source's
	// rule charges the scatter once, by its first field's, so this one
	// costs nothing but its space; text form suffix "_part".
	ScatterE struct {
		Dest  string
		W     Atom
		Arrs  []string
		Index string
		Gens  int
		Map   *Lambda
		Slice bool
		Part  bool
	}
	// HistE combines, for each of W elements, the lambda's (bucket, value)
	// results into Dest (consumed) with Op; out-of-range buckets are skipped.
	HistE struct {
		Dest  string
		W     Atom
		Arrs  []string
		Index string
		Gens  int
		Op    *SegOp
		Map   *Lambda
	}
)

// SegOp is an associative operator with its neutral elements (one per
// component: the operator takes 2k scalars and returns k).
type SegOp struct {
	Lam *Lambda
	Nes []Atom
}

func (*AtomE) isExp()      {}
func (*BinOpE) isExp()     {}
func (*UnOpE) isExp()      {}
func (*ConvE) isExp()      {}
func (*IfE) isExp()        {}
func (*AssertE) isExp()    {}
func (*LoopE) isExp()      {}
func (*IndexE) isExp()     {}
func (*UpdateE) isExp()    {}
func (*IotaE) isExp()      {}
func (*SliceE) isExp()     {}
func (*ReplicateE) isExp() {}
func (*ArrayE) isExp()     {}
func (*TransposeE) isExp() {}
func (*CopyE) isExp()      {}
func (*ConcatE) isExp()    {}
func (*ReshapeE) isExp()   {}
func (*ReverseE) isExp()   {}
func (*ScremaE) isExp()    {}
func (*ScatterE) isExp()   {}
func (*StreamE) isExp()    {}
func (*FilterE) isExp()    {}

// StreamChunk is the chunk size of streams, as in the reference evaluator
// (a property of the cost model, not of a runtime).
const StreamChunk = 1024

func (*HistE) isExp() {}

// Arity of a SegOp: the number of components.
func (op *SegOp) Arity() int { return len(op.Nes) }
