package syntax

import "fmt"

// checkStable prints prog, parses the text again and prints that; it
// returns a description of the first problem, or "".
func checkStable(prog *Program) string {
	text1 := Print(prog)
	fset := NewFileSet()
	prog2, err := ParseFile(fset, "<printed>", []byte(text1))
	if err != nil {
		return fmt.Sprintf("printed text does not parse: %s\n%s", fset.FormatAll(err), text1)
	}
	text2 := Print(prog2)
	if text1 != text2 {
		return fmt.Sprintf("print is not stable:\n%s", firstDiff(text1, text2))
	}
	return ""
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return fmt.Sprintf("first:  …%s…\nsecond: …%s…", a[lo:min(len(a), i+80)], b[lo:min(len(b), i+80)])
}

// checkSpans checks that every node of prog has a valid span inside its
// file and inside its parent's span.
func checkSpans(prog *Program) string {
	lo, hi := prog.Pos(), prog.End()
	var stack []Node
	var msg string
	Inspect(prog, func(n Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if msg == "" {
			switch {
			case !n.Pos().IsValid() || n.End() < n.Pos():
				msg = fmt.Sprintf("%T has span [%d,%d)", n, n.Pos(), n.End())
			case n.Pos() < lo || n.End() > hi:
				msg = fmt.Sprintf("%T span [%d,%d) outside file [%d,%d)", n, n.Pos(), n.End(), lo, hi)
			case len(stack) > 0:
				p := stack[len(stack)-1]
				if n.Pos() < p.Pos() || n.End() > p.End() {
					msg = fmt.Sprintf("%T [%d,%d) %q outside parent %T [%d,%d)", n, n.Pos(), n.End(),
						prog.File.Src[n.Pos()-lo:n.End()-lo], p, p.Pos(), p.End())
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	return msg
}
