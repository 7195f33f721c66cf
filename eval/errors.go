package eval

import (
	"fmt"
	"runtime"
	"strings"

	"fut/interp/syntax"
)

// Frame is one call on the evaluator's call stack.
type Frame struct {
	Name string     // the function called ("" for a lambda)
	Pos  syntax.Pos // where it was called
}

// RuntimeError is an error in the user's program found while running it:
// an index out of bounds, a failed assertion, a size mismatch, division by
// zero. Stack holds the calls that led to it, innermost last.
type RuntimeError struct {
	Pos   syntax.Pos
	Msg   string
	Stack []Frame
	Err   error // an underlying cause (ErrInterrupted, context errors), if any
}

func (e *RuntimeError) Error() string { return e.Msg }

func (e *RuntimeError) Unwrap() error { return e.Err }

// Format prints the error with file:line:col and the call stack.
func (e *RuntimeError) Format(fset *syntax.FileSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Error at %s:\n%s", fset.Position(e.Pos), e.Msg)
	if len(e.Stack) > 0 {
		b.WriteString("\n\nBacktrace:")
		for i := len(e.Stack) - 1; i >= 0; i-- {
			f := e.Stack[i]
			name := f.Name
			if name == "" {
				name = "<lambda>"
			}
			fmt.Fprintf(&b, "\n-> #%d %s called at %s", len(e.Stack)-1-i, name, fset.Position(f.Pos))
		}
	}
	return b.String()
}

// InternalError is a bug in the evaluator (a Go panic turned into an error).
type InternalError struct {
	Msg   string
	Trace string
}

func (e *InternalError) Error() string { return "internal evaluator error: " + e.Msg }

func (t *thread) errf(pos syntax.Pos, format string, args ...any) error {
	return &RuntimeError{Pos: t.userPos(pos), Msg: fmt.Sprintf(format, args...), Stack: append([]Frame(nil), t.stack...)}
}

// userPos is pos, or, when pos is in the prelude, the innermost call
// site in the user's code (the prelude's frames stay in the backtrace).
func (t *thread) userPos(pos syntax.Pos) syntax.Pos {
	if !t.in.inPrelude(pos) {
		return pos
	}
	for i := len(t.stack) - 1; i >= 0; i-- {
		if p := t.stack[i].Pos; p.IsValid() && !t.in.inPrelude(p) {
			return p
		}
	}
	return pos
}

// inPrelude reports whether p is in one of the prelude's files.
func (in *Interp) inPrelude(p syntax.Pos) bool {
	if in.fset == nil || !p.IsValid() {
		return false
	}
	f := in.fset.File(p)
	return f != nil && f.Library
}

// recoverPanic turns an evaluator panic into an InternalError.
func (t *thread) recoverPanic(err *error) {
	if r := recover(); r != nil {
		if re, ok := r.(*RuntimeError); ok {
			*err = re
			return
		}
		buf := make([]byte, 8192)
		n := runtime.Stack(buf, false)
		*err = &InternalError{Msg: fmt.Sprint(r), Trace: string(buf[:n])}
	}
}
