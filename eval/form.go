package eval

import "fut/interp/syntax"

// The evaluation order of a construct and the points where it charges,
// stated once (formOf) for the two compilers of expressions: the closure
// compiler (ccomp, compile*.go), whose code applies the charges to the
// thread as it runs, and the flat kernels' compiler (fcomp,
// kernel_flat*.go), which applies them to a meter of its own while it
// emits a kernel. Each reads a construct's form and runs it by the one
// skeleton below: the kernels' compiler through one function
// (fcomp.construct; a loop in fcomp.loop), compiled code in each
// construct's closure (so that an operator's operands stay unboxed and
// no phase is a call), taking from the form which operands come in which
// order, the rule, the arms and the release. What is left to each is the
// construct's own operation (negating a value, binding a pattern,
// choosing an arm, running a loop's lanes), on values at run time in
// compiled code and on registers in a kernel. A match is compiled by
// ccomp only (the kernels refuse it), so its order is written once.
//
// The skeleton: the operands, evaluated in order from the live space
// where the construct begins (its base) and held above it; the
// construct's own operation on their values; the step rule charged after
// the operands, above base (meter.after); then the arm the construct
// goes on with, if it has arms (an if's then or else, as its condition
// chooses; an assert's or a let's body); and where the form holds its
// operands, their release after the arm (a let's bound value, live for
// the whole body). A late form charges its rule after the arm instead
// (&& and ||: the operator's step comes after whichever operand gives
// its value, the right one where the left does not decide). A loop's
// form runs its arms in turn once per iteration (a while loop's
// condition, then the body), each iteration from the state held above
// base (loopHeld), its rule charged after each body; after the loop the
// live space is loopEnd's (thread.go).

// stepRule is the charge of a construct's own step, a method of meter.
type stepRule uint8

const (
	stepNone      stepRule = iota // no step of its own
	stepScalar                    // meter.scalar
	stepControl                   // meter.control: it releases the operands
	stepIndex                     // thread.indexStep: a scalar result is a scalar step (all a kernel indexes: fcomp.after), a slice a step of no space
	stepIteration                 // meter.iteration, after each iteration's body: the live space stays
	stepUpdate                    // thread.updateStep: (1, 1), no space of its own, nothing fresh
)

// form is a construct's operands in the order they are evaluated (after
// its head, a call's function or an indexed array), the rule charged
// after them and the construct's own operation (for a call, the callee's
// body), the arms it may go on with, and whether its operands stay live
// until it is done.
type form struct {
	head syntax.Expr // a call's function or an indexed array: the first operand, which a kernel resolves as it compiles (a name)
	ops  []syntax.Expr
	rule stepRule
	arms []syntax.Expr // chosen by the first operand's truth where there are two; nil where that operand's value stands
	hold bool
	late bool // the rule is charged after the arm
}

// formOf is x's form; false for a construct that has none (a match, a
// name, a lambda, …) or whose form depends on its operator's resolution
// (a binary: opForm, logicForm, userOpForm).
func formOf(x syntax.Expr) (form, bool) {
	switch x := x.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit, *syntax.BoolLit:
		return form{rule: stepScalar}, true
	case *syntax.Negate:
		if isLiteral(x.X) {
			return form{rule: stepScalar}, true // a negated literal is a literal
		}
		return form{ops: []syntax.Expr{x.X}, rule: stepScalar}, true
	case *syntax.Not:
		return form{ops: []syntax.Expr{x.X}, rule: stepScalar}, true
	case *syntax.If:
		return form{ops: []syntax.Expr{x.Cond}, rule: stepControl, arms: []syntax.Expr{x.Then, x.Else}}, true
	case *syntax.Assert:
		return form{ops: []syntax.Expr{x.Cond}, rule: stepControl, arms: []syntax.Expr{x.X}}, true
	case *syntax.LetIn:
		return form{ops: []syntax.Expr{x.Value}, arms: []syntax.Expr{x.Body}, hold: true}, true
	case *syntax.Apply:
		return form{head: x.Fn, ops: x.Args, hold: true}, true // the arguments are released after the body
	case *syntax.TupleLit:
		return form{ops: x.Elems}, true // building it is free
	case *syntax.RecordLit:
		vals := make([]syntax.Expr, len(x.Fields))
		for i, f := range x.Fields {
			vals[i] = f.Value
		}
		return form{ops: vals}, true // in the order written; building it is free
	case *syntax.Project:
		return form{ops: []syntax.Expr{x.X}}, true // selecting a field is free
	case *syntax.Update:
		// the path's indices are the update's own operation's, taken in
		// its order (updatePathBy)
		return form{ops: []syntax.Expr{x.X, x.Value}, rule: stepUpdate}, true
	case *syntax.Coerce:
		return form{ops: []syntax.Expr{x.X}}, true // checking its sizes is free
	case *syntax.Index:
		return form{head: x.X, ops: indexParts(x.Indices), rule: stepIndex}, true
	case *syntax.Loop:
		// the initial state (nil: the pattern's names give it), then a
		// for loop's bound or array; a while loop's condition, then the
		// body, each iteration
		f := form{ops: []syntax.Expr{x.Init}, rule: stepIteration, arms: []syntax.Expr{x.Body}}
		switch l := x.Form.(type) {
		case *syntax.For:
			f.ops = append(f.ops, l.Bound)
		case *syntax.ForIn:
			f.ops = append(f.ops, l.Arr)
		case *syntax.While:
			f.arms = []syntax.Expr{l.Cond, x.Body}
		}
		return f, true
	}
	return form{}, false
}

// opForm is the form of a built-in operator other than && and || (which
// evaluate their right operand only where the left does not decide).
func opForm(x *syntax.Binary) form {
	return form{ops: []syntax.Expr{x.L, x.R}, rule: stepScalar}
}

// indexParts are the expressions of an index's dimensions in the order
// they are evaluated: each dimension's fixed index, or its stride, start
// and end.
func indexParts(ds []*syntax.DimIndex) []syntax.Expr {
	var xs []syntax.Expr
	for _, d := range ds {
		for _, x := range []syntax.Expr{d.Fix, d.Stride, d.Start, d.End} {
			if x != nil {
				xs = append(xs, x)
			}
		}
	}
	return xs
}

// logicForm is the form of && (and) or || (or): the left operand, then
// the right one where the left does not decide, then the operator's step.
func logicForm(x *syntax.Binary, and bool) form {
	arms := []syntax.Expr{nil, x.R}
	if and {
		arms = []syntax.Expr{x.R, nil}
	}
	return form{ops: []syntax.Expr{x.L}, rule: stepScalar, arms: arms, late: true}
}

// userOpForm is the form of any other operator, a call of the function
// the operator names (looked up, not evaluated) on both operands.
func userOpForm(x *syntax.Binary) form {
	return form{ops: []syntax.Expr{x.L, x.R}, hold: true}
}

// after charges rule r after operands held above base (an index's is
// the thread's, indexStep, or a kernel's, fcomp.after).
func (m *meter) after(r stepRule, base int64) {
	switch r {
	case stepScalar:
		m.scalar(base)
	case stepControl:
		m.control(base)
	case stepIteration:
		m.iteration()
	}
}

// after charges rule r after operands held above base (meter.after), as
// scalarStep and controlStep do.
func (t *thread) after(r stepRule, base int64) {
	if t.cost {
		t.meter.after(r, base)
	}
}
