package ir

import (
	"strings"

	"fut/eval/value"
)

// HasArrayWork reports whether b holds a SOAC or builds an array.
func HasArrayWork(b *Body) bool {
	for _, st := range b.Stms {
		switch e := st.E.(type) {
		case *ScremaE, *ScatterE, *HistE, *FilterE, *StreamE, *IotaE, *ReplicateE, *ArrayE, *ConcatE, *CopyE:
			return true
		case *IfE:
			if HasArrayWork(e.Then) || HasArrayWork(e.Else) {
				return true
			}
		case *LoopE:
			if HasArrayWork(e.Body) {
				return true
			}
		}
	}
	return false
}

func ZeroOf(p Prim) value.Prim {
	switch {
	case p == value.Bool:
		return value.MkBool(false)
	case p.IsFloat():
		return value.MkFloat(p, 0)
	}
	return value.MkInt(p, 0)
}

// SplitWhere is the source position of a statement's Where and the
// backtrace that follows it (innermost call first).
func SplitWhere(where string) (pos string, frames []string) {
	parts := strings.Split(where, " <- ")
	return parts[0], parts[1:]
}
