package types

// Sizes that a binding's annotation or a coercion leaves for the value to
// decide.
//
// A size-lifted type abbreviation may have anonymous sizes (type~ t =
// #a ([]i32) | #b ([]i32)); each use of it in a let binding's annotation
// or in an ascription has sizes of its own, which the bound value must
// decide: let v: t = #a xs decides the size of #a's payload, and nothing
// decides #b's. A size coercion e :> t checks at run time that e has the
// sizes t names, so it needs e's sizes: every size of t stands for the
// size e has in that place, and where e's type has no array there
// (#none :> opt ([2]i64), whose #some payload is not e's), it cannot be
// known. As in Futhark, such a size that nothing decided by the end of
// the definition is reported as ambiguous.

import (
	"fmt"

	"fut/interp/syntax"
)

// flexSize is a size variable made for one such place, and why.
type flexSize struct {
	v      SizeVar
	sp     syntax.Span
	why    string // "explicit type ascription" or "a size coercion …"
	detail string
}

const coercionWhy = "a size coercion where the underlying expression size cannot be determined"

// anonMode says what the anonymous sizes of a type abbreviation become
// where it is used in a type annotation converted with dimFlex.
type anonMode int

const (
	anonUntracked anonMode = iota // untracked sizes (SizeAny)
	anonAscribed                  // sizes the bound value must decide (checked)
	anonResult                    // sizes of a declared result, as its [] are
)

// freshAnonSizes is t, the body of a type abbreviation used at sp, with
// the abbreviation's anonymous and existential sizes made fresh for this
// use: one size for each of them (an existential that appears twice is
// one size), new untracked ones inside another abbreviation, size
// variables in an annotation whose anonMode asks for them.
func (c *Checker) freshAnonSizes(t Type, sp syntax.Span, ctx *typeCtx) Type {
	var fresh func() Size
	switch {
	case ctx.mode == dimAny:
		fresh = func() Size { return &SizeAny{anon: true} }
	case ctx.mode == dimFlex && c.anonFlex == anonAscribed:
		fresh = func() Size {
			v := c.newSizeVar()
			c.flexSizes = append(c.flexSizes, flexSize{v, sp, "explicit type ascription",
				fmt.Sprintf("an anonymous size of \"%s\" that the value does not decide", c.srcText(sp))})
			return v
		}
	case ctx.mode == dimFlex && c.anonFlex == anonResult:
		fresh = func() Size {
			v := c.newSizeVar()
			v.declared = true
			return v
		}
	default:
		return t
	}
	made := map[*SizeAny]Size{}
	return c.mapArraySizes(t, true, func(z Size) Size {
		a, ok := z.(*SizeAny)
		if !ok || !a.anon {
			return z
		}
		if m, ok := made[a]; ok {
			return m
		}
		made[a] = fresh()
		return made[a]
	})
}

// coercionTarget is the type a value of type t is unified with when
// coerced to d: d with each size that is not an anonymous size variable
// of its own replaced by a fresh variable, which the value's size decides.
// It is nil where d holds a function type (whose sizes a coercion does not
// check).
func (c *Checker) coercionTarget(d Type, sp syntax.Span) Type {
	if hasArrow(d) {
		return nil
	}
	return c.mapArraySizes(d, false, func(z Size) Size {
		if v, ok := resolveSize(z).(SizeVar); ok {
			return v
		}
		v := c.newSizeVar()
		c.flexSizes = append(c.flexSizes, flexSize{v, sp, coercionWhy,
			"the value's type has no array where the type it is coerced to has one"})
		return v
	})
}

// mapArraySizes rebuilds t with f applied to the size of each array
// dimension (and each size argument of an abstract type), inside function
// types only if arrows is set; parts with nothing changed are t's own.
func (c *Checker) mapArraySizes(t Type, arrows bool, f func(Size) Size) Type {
	switch t := Resolve(t).(type) {
	case *Array:
		dim, elem := f(t.Dim), c.mapArraySizes(t.Elem, arrows, f)
		if dim == t.Dim && elem == t.Elem {
			return t
		}
		return &Array{Unique: t.Unique, Dim: dim, Elem: elem}
	case *Record:
		changed := false
		fs := make([]Field, len(t.Fields))
		for i, fl := range t.Fields {
			fs[i] = Field{fl.Name, c.mapArraySizes(fl.Type, arrows, f)}
			changed = changed || fs[i].Type != fl.Type
		}
		if !changed {
			return t
		}
		return &Record{Fields: fs}
	case *Sum:
		changed := false
		cs := make([]Constr, len(t.Constrs))
		for i, cn := range t.Constrs {
			ps := make([]Type, len(cn.Payload))
			for j, p := range cn.Payload {
				ps[j] = c.mapArraySizes(p, arrows, f)
				changed = changed || ps[j] != p
			}
			cs[i] = Constr{cn.Name, ps}
		}
		if !changed {
			return t
		}
		return &Sum{Constrs: cs}
	case *Con:
		changed := false
		args := make([]TypeArg, len(t.Args))
		for i, a := range t.Args {
			args[i] = a
			if a.Type != nil {
				args[i].Type = c.mapArraySizes(a.Type, arrows, f)
				changed = changed || args[i].Type != a.Type
			} else if a.Size != nil {
				args[i].Size = f(a.Size)
				changed = changed || args[i].Size != a.Size
			}
		}
		if !changed {
			return t
		}
		return &Con{Con: t.Con, Args: args, Unique: t.Unique}
	case *Arrow:
		if !arrows {
			return t
		}
		from, to := c.mapArraySizes(t.From, arrows, f), c.mapArraySizes(t.To, arrows, f)
		if from == t.From && to == t.To {
			return t
		}
		return &Arrow{Param: t.Param, From: from, To: to, Exist: t.Exist}
	default:
		return t
	}
}

// checkFlexSizes reports, at the end of a definition, a size of a
// binding's annotation or of a coercion that nothing decided.
func (c *Checker) checkFlexSizes() {
	for _, fs := range c.flexSizes {
		if len(c.errs) != c.defErrStart {
			return
		}
		if v, ok := resolveSize(fs.v).(SizeVar); ok && v.svar == fs.v.svar {
			c.errorf(fs.sp, "Ambiguous size arising from %s: %s (ambiguous-size).", fs.why, fs.detail)
		}
	}
}
