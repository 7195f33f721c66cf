package types

// Reporting errors: every error has the span of the node that caused it,
// and messages say what was expected and what was found.

import (
	"fmt"
	"sort"
	"strings"

	"fut/interp/syntax"
)

func (c *Checker) errorf(sp syntax.Span, format string, args ...any) {
	c.errs = append(c.errs, &syntax.Error{Span: sp, Msg: fmt.Sprintf(format, args...)})
}

// warnf records a warning, unless it is about the prelude's own code.
func (c *Checker) warnf(sp syntax.Span, format string, args ...any) {
	if f := c.fset.File(sp.Start); f != nil && f.Library {
		return
	}
	c.warns = append(c.warns, &syntax.Error{Span: sp, Msg: fmt.Sprintf(format, args...)})
}

// Warnings returns the warnings of the last program, declarations or
// expression checked (CheckProgram, CheckDecls, CheckExpr), in the order
// of their positions, and forgets them.
func (c *Checker) Warnings() syntax.ErrorList {
	l := c.warns
	c.warns = nil
	l.Sort()
	return l
}

func (c *Checker) takeErrors() error {
	if len(c.errs) == 0 {
		return nil
	}
	l := c.errs
	c.errs = nil
	l.Sort()
	return l
}

// mismatch describes a failed unification of the expected type want with
// the found type got: both types, then the innermost reason.
func (c *Checker) mismatch(want, got Type, err *unifyError) string {
	w, g := zonk(want).String(), zonk(got).String()
	if w == g {
		// Two abstract types of one name: say which modules they are of.
		w, g = qualified(zonk(want)).String(), qualified(zonk(got)).String()
	}
	msg := fmt.Sprintf("Expected: %s\nActual:   %s", w, g)
	if err != nil && err.msg != "" {
		msg += "\n" + err.msg
	}
	if err != nil && err.path != "" {
		msg += fmt.Sprintf(" (in record field \"%s\")", err.path)
	}
	return msg
}

// mismatchIn is a mismatch introduced by a sentence saying where it is.
func (c *Checker) mismatchIn(what string, want, got Type, err *unifyError) string {
	return what + "\n" + c.mismatch(want, got, err)
}

// quoteT prints a type in double quotes.
func quoteT(t Type) string { return "\"" + zonk(t).String() + "\"" }

// inField records that a mismatch was found inside the record field name.
func (e *unifyError) inField(name string) *unifyError {
	if e.path == "" {
		e.path = name
	} else {
		e.path = name + "." + e.path
	}
	return e
}

// unsharedFields lists the fields that only one of two records has, or
// "" when they have the same fields.
func unsharedFields(a, b *Record) string {
	in := func(r *Record, n string) bool {
		_, ok := r.Field(n)
		return ok
	}
	var out []string
	for _, f := range a.Fields {
		if !in(b, f.Name) {
			out = append(out, f.Name)
		}
	}
	for _, f := range b.Fields {
		if !in(a, f.Name) {
			out = append(out, f.Name)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// unsharedConstrs lists the constructors that only one of two sum types
// has, or "" when they have the same constructors.
func unsharedConstrs(a, b *Sum) string {
	in := func(s *Sum, n string) bool {
		_, ok := s.Constr(n)
		return ok
	}
	var out []string
	for _, k := range a.Constrs {
		if !in(b, k.Name) {
			out = append(out, "#"+k.Name)
		}
	}
	for _, k := range b.Constrs {
		if !in(a, k.Name) {
			out = append(out, "#"+k.Name)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// primVersusStructured explains why a type that must be primitive (prim)
// cannot also be the record or sum type that st must be.
func primVersusStructured(prim, st TVar) *unifyError {
	kind := "a record"
	if st.constrs != nil {
		kind = "a sum type"
	}
	return &unifyError{msg: fmt.Sprintf("Cannot unify type that must be %s with type that must be %s %s.", overloadText(prim.tvar), kind, st)}
}

func overloadText(v *tvar) string {
	switch {
	case len(v.overload) == len(numPrims):
		return "a numeric type"
	case len(v.overload) == len(intPrims) && containsPrim(v.overload, "i32") && !containsPrim(v.overload, "f32"):
		return "an integer type"
	case len(v.overload) == len(floatPrims) && containsPrim(v.overload, "f32"):
		return "a floating-point type"
	case len(v.overload) == len(allPrims):
		return "a primitive type"
	}
	s := ""
	for i, p := range v.overload {
		if i > 0 {
			s += ", "
		}
		s += string(p)
	}
	return s
}

func sizeText(s Size) string {
	if t := s.String(); t != "" {
		return "\"" + t + "\""
	}
	if n, ok := resolveSize(s).(*SizeName); ok && n.Origin != "" {
		return "(an unknown size: " + n.Origin + ")"
	}
	return "(an unknown size)"
}

// updateWhat introduces a mismatch in the value of an update "with path = v".
func updateWhat(path []syntax.PathElem) string {
	if n := len(path); n > 0 && path[n-1].Field != "" {
		return fmt.Sprintf("The new value of record field \"%s\" does not have the field's type.", path[n-1].Field)
	}
	return "The new value does not have the type of the element it replaces."
}

// canApply reports whether a value of type t may be applied to an
// argument: a function, or a type not yet known.
func canApply(t Type) bool {
	switch t := Resolve(t).(type) {
	case *Arrow:
		return true
	case TVar:
		return t.overload == nil && t.fields == nil && t.constrs == nil
	}
	return false
}

// exprName names an expression in a message: a variable by its name, a
// short expression by its source text, in quotes; anything else by the
// word other.
func (c *Checker) exprName(n syntax.Node, other string) string {
	switch e := n.(type) {
	case *syntax.Var:
		return "\"" + e.Name.String() + "\""
	case *syntax.Paren:
		return c.exprName(e.X, other)
	case syntax.Expr:
		if t := c.srcText(syntax.SpanOf(e)); t != "" {
			return "\"" + t + "\""
		}
	}
	return other
}

// srcText is the source text of sp when it is short and on one line, or "".
func (c *Checker) srcText(sp syntax.Span) string {
	if c.fset == nil {
		return ""
	}
	f := c.fset.File(sp.Start)
	if f == nil {
		return ""
	}
	a, b := f.Offset(sp.Start), f.Offset(sp.End)
	if a < 0 || b > len(f.Src) || b <= a || b-a > 40 {
		return ""
	}
	t := string(f.Src[a:b])
	if strings.ContainsAny(t, "\n\r") {
		return ""
	}
	return t
}

// mentionsWord reports whether text has name as a whole word.
func mentionsWord(text, name string) bool {
	for i := strings.Index(text, name); i >= 0; {
		j := i + len(name)
		if (i == 0 || !isWordByte(text[i-1])) && (j == len(text) || !isWordByte(text[j])) {
			return true
		}
		k := strings.Index(text[i+1:], name)
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b == '\'' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// fnName names the function of an application: a variable by its name in
// quotes, anything else as "function".
func fnName(n syntax.Node) string {
	for {
		p, ok := n.(*syntax.Paren)
		if !ok {
			break
		}
		n = p.X
	}
	if v, ok := n.(*syntax.Var); ok {
		return "\"" + v.Name.String() + "\""
	}
	return "function"
}

// qualified is t with its abstract types named by the module path they
// were made abstract under (M1.M.t), where known.
func qualified(t Type) Type {
	switch x := Resolve(t).(type) {
	case *Con:
		con := x.Con
		if con.qual != "" {
			c := *con
			c.Name = con.qual
			con = &c
		}
		args := make([]TypeArg, len(x.Args))
		for i, a := range x.Args {
			if a.Type != nil {
				args[i] = TypeArg{Type: qualified(a.Type)}
			} else {
				args[i] = a
			}
		}
		return &Con{Con: con, Args: args, Unique: x.Unique}
	case *Array:
		return &Array{Unique: x.Unique, Dim: x.Dim, Elem: qualified(x.Elem)}
	case *Record:
		fs := make([]Field, len(x.Fields))
		for i, f := range x.Fields {
			fs[i] = Field{f.Name, qualified(f.Type)}
		}
		return &Record{fs}
	case *Arrow:
		return &Arrow{Param: x.Param, From: qualified(x.From), To: qualified(x.To), Exist: x.Exist}
	}
	return t
}

// nameStandIns is z with each variable that stands for a named parameter
// of a function type replaced by that name, for messages.
func nameStandIns(z Size) Size {
	switch x := resolveSize(z).(type) {
	case SizeVar:
		if x.stands != "" {
			return &SizeName{Name: x.stands}
		}
	case *SizeExpr:
		if x.Op != "" {
			return &SizeExpr{Key: x.Key, Op: x.Op, L: nameStandIns(x.L), R: nameStandIns(x.R)}
		}
	case *SizeTerm:
		args := make([]Size, len(x.Args))
		for i, a := range x.Args {
			args[i] = nameStandIns(a)
		}
		return &SizeTerm{Head: x.Head, Name: x.Name, Args: args}
	}
	return z
}
