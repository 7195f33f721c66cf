package repl

// Errors at the prompt: "error: file:line:col: message", then the
// offending source line with a caret under the span, then a hint or the
// evaluator's backtrace when there is one.

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"fut/eval"
	"fut/interp/session"
	"fut/interp/syntax"
)

// formatError renders err for the terminal; paint colours the parts.
func (r *REPL) formatError(err error) string {
	fset := r.sess.Fset
	var b strings.Builder
	var list syntax.ErrorList
	var one *syntax.Error
	var rt *eval.RuntimeError
	switch {
	case session.Interrupted(err):
		msg := r.pal.err("interrupted")
		if errors.As(err, &rt) && rt.Pos.IsValid() {
			msg += " at " + fset.Position(rt.Pos).String()
			if n := len(rt.Stack); n > 0 {
				msg += " in " + frameName(rt.Stack[n-1])
			}
		}
		return msg
	case errors.As(err, &list):
		for i, e := range list {
			if i > 0 {
				b.WriteByte('\n')
			}
			r.writeSourceError(&b, fset, e.Span, e.Msg, e.Hint)
			if i == 9 && len(list) > 10 {
				fmt.Fprintf(&b, "\n(and %d more errors)", len(list)-10)
				break
			}
		}
	case errors.As(err, &one):
		r.writeSourceError(&b, fset, one.Span, one.Msg, one.Hint)
	case errors.As(err, &rt):
		r.writeSourceError(&b, fset, syntax.Span{Start: rt.Pos, End: rt.Pos + 1}, rt.Msg, "")
		if n := len(rt.Stack); n > 0 {
			b.WriteString("\nbacktrace:")
			for i := n - 1; i >= 0; i-- {
				f := rt.Stack[i]
				name := f.Name
				if name == "" {
					name = "<lambda>"
				}
				fmt.Fprintf(&b, "\n  #%d %s called at %s", n-1-i, name, fset.Position(f.Pos))
				if n-1-i == 19 && i > 0 {
					fmt.Fprintf(&b, "\n  … %d more", i)
					break
				}
			}
		}
	default:
		b.WriteString(r.pal.err("error: ") + err.Error())
	}
	return b.String()
}

// writeSourceError writes one positioned error with its source line and
// a caret (^~~~) under the span, when the position has a source.
func (r *REPL) writeSourceError(b *strings.Builder, fset *syntax.FileSet, sp syntax.Span, msg, hint string) {
	r.writeSourceMessage(b, r.pal.err("error: "), fset, sp, msg, hint)
}

// formatWarnings renders the checker's warnings as errors are rendered,
// each labelled "warning:".
func (r *REPL) formatWarnings(ws syntax.ErrorList) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte('\n')
		}
		r.writeSourceMessage(&b, r.pal.warn("warning: "), r.sess.Fset, w.Span, w.Msg, w.Hint)
	}
	return b.String()
}

// writeSourceMessage is writeSourceError with the given label.
func (r *REPL) writeSourceMessage(b *strings.Builder, label string, fset *syntax.FileSet, sp syntax.Span, msg, hint string) {
	b.WriteString(label)
	if sp.Start.IsValid() {
		b.WriteString(fset.FormatSpan(sp) + ": ")
	}
	b.WriteString(msg)
	if line, caret := sourceCaret(fset, sp); line != "" {
		b.WriteString("\n  " + line + "\n  " + r.pal.caret(caret))
	}
	if hint != "" {
		b.WriteString("\n" + hint)
	}
}

// sourceCaret returns the line that holds sp.Start and a caret line whose
// marks sit under the span (up to the end of that line). Tabs in the
// source are kept in the caret line so the columns match.
func sourceCaret(fset *syntax.FileSet, sp syntax.Span) (line, caret string) {
	f := fset.File(sp.Start)
	if f == nil {
		return "", ""
	}
	pos := fset.Position(sp.Start)
	line = f.Line(pos.Line)
	if strings.TrimSpace(line) == "" {
		return "", ""
	}
	col := min(pos.Col-1, len(line))
	width := 1
	if sp.End > sp.Start+1 {
		end := fset.Position(sp.End - 1)
		if end.Line == pos.Line && end.Col > pos.Col {
			width = utf8.RuneCountInString(line[col:min(end.Col, len(line))])
		} else if end.Line > pos.Line {
			width = max(1, utf8.RuneCountInString(line[col:]))
		}
	}
	var c strings.Builder
	for _, ch := range line[:col] {
		if ch == '\t' {
			c.WriteByte('\t')
		} else {
			c.WriteByte(' ')
		}
	}
	c.WriteByte('^')
	if width > 1 {
		c.WriteString(strings.Repeat("~", width-1))
	}
	return line, c.String()
}
