package types

// Reporting errors: every error has the span of the node that caused it,
// and messages say what was expected and what was found.

import (
	"fmt"

	"fut/interp/syntax"
)

func (c *Checker) errorf(sp syntax.Span, format string, args ...any) {
	c.errs = append(c.errs, &syntax.Error{Span: sp, Msg: fmt.Sprintf(format, args...)})
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

func (c *Checker) mismatch(want, got Type, err *unifyError) string {
	ws, gs := want.String(), got.String()
	msg := fmt.Sprintf("type mismatch: expected %s, but found %s", ws, gs)
	if err.msg != "" && err.msg != msg {
		msg += " (" + err.msg + ")"
	}
	return msg
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
	return "(an unknown size)"
}
