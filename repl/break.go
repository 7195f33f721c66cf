package repl

// Break points. The evaluator calls onBreak at #[break] e (and break x)
// on the evaluating goroutine and waits; onBreak runs a nested prompt,
// fut[break] N>, until :continue, :unbreak, :quit or the end of input.
// Expressions typed there see the break point's local variables: each
// printable local is bound by a let around the expression, with its value
// written as a Futhark literal.

import (
	"context"
	"io"
	"strings"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/syntax"
)

type breakState struct {
	info  eval.BreakInfo
	abort bool // :quit: stop the evaluation
	done  bool // :continue or :unbreak
}

func (r *REPL) onBreak(b eval.BreakInfo) {
	if r.noBreaks || r.unbroken[b.Pos] || r.brk != nil {
		return // no nested break prompts: evaluating at a break runs on
	}
	st := &breakState{info: b}
	r.brk = st
	defer func() { r.brk = nil }()
	r.printf("%s %s\n", r.pal.head("break at"), r.sess.Fset.Position(b.Pos))
	r.showPlace(b.Pos)
	if n := len(b.Stack); n > 0 {
		f := b.Stack[n-1]
		r.printf("in %s, called at %s\n", frameName(f), r.sess.Fset.Position(f.Pos))
	}
	r.showLocals()
	r.printf("%s\n", r.pal.dim(":continue goes on, :unbreak stops breaking here, :frame N shows the stack, :quit stops the evaluation"))
	ctx := r.evalCtx
	if ctx == nil {
		ctx = context.Background()
	}
	for !st.done && !st.abort {
		if ctx.Err() != nil {
			return
		}
		src, err := r.readEntry(breakPrompt)
		if err == io.EOF {
			return
		}
		if err != nil {
			continue
		}
		r.handle(ctx, src)
	}
	if st.abort && r.cancel != nil {
		r.cancel()
	}
}

func frameName(f eval.Frame) string {
	if f.Name == "" {
		return "<lambda>"
	}
	return f.Name
}

// showPlace prints the source line of pos with a caret under it.
func (r *REPL) showPlace(pos syntax.Pos) {
	if line, caret := sourceCaret(r.sess.Fset, syntax.Span{Start: pos, End: pos + 1}); line != "" {
		r.printf("  %s\n  %s\n", line, r.pal.caret(caret))
	}
}

func (r *REPL) showLocals() {
	locals := r.brk.info.Locals
	if len(locals) == 0 {
		r.printf("no local variables\n")
		return
	}
	seen := map[string]bool{}
	r.printf("local variables:\n")
	for _, b := range locals {
		if seen[b.Name] {
			continue // shadowed
		}
		seen[b.Name] = true
		opts := r.printOptions()
		if opts.Elide == 0 || opts.Elide > 20 {
			opts.Elide = 20
		}
		s, _ := formatValueAt(b.Value, opts, len("  "+b.Name+" = "))
		r.printf("  %s = %s\n", b.Name, s)
	}
}

// evalAtBreak evaluates an expression in the break point's locals.
func (r *REPL) evalAtBreak(ctx context.Context, src string) {
	var b strings.Builder
	locals := r.brk.info.Locals
	for i := len(locals) - 1; i >= 0; i-- {
		l := locals[i]
		if !isIdent(l.Name) || !literal(l.Value) || !mentions(src, l.Name) {
			continue
		}
		b.WriteString("let " + l.Name + " = " + value.String(l.Value) + " in\n")
	}
	b.WriteString(src)
	res, err := r.evalExpr(ctx, b.String())
	if err != nil {
		r.printError(err)
		return
	}
	r.printResult(res)
}

// mentions reports whether name may occur in src (a cheap filter that
// keeps big locals out of expressions that do not use them).
func mentions(src, name string) bool {
	for i := strings.Index(src, name); i >= 0; {
		before := i == 0 || !identChar(src[i-1])
		end := i + len(name)
		after := end == len(src) || !identChar(src[end])
		if before && after {
			return true
		}
		j := strings.Index(src[i+1:], name)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func identChar(c byte) bool {
	return c == '_' || c == '\'' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// literal reports whether v can be written as a Futhark expression that
// the checker types without help: no functions, no sums, no empty arrays.
func literal(v value.Value) bool {
	switch v := v.(type) {
	case value.Prim:
		return true
	case value.Tuple:
		for _, x := range v {
			if !literal(x) {
				return false
			}
		}
		return true
	case *value.Record:
		for _, x := range v.Fields {
			if !literal(x) {
				return false
			}
		}
		return true
	case *value.Array:
		if v.NumElems() == 0 || v.NumElems() > 1<<20 {
			return false
		}
		switch v.Kind {
		case value.KPrim:
			return true
		case value.KTuple, value.KRecord:
			for _, f := range v.Fields {
				if !literal(f) {
					return false
				}
			}
			return true
		}
	}
	return false
}

func (r *REPL) cmdContinue(context.Context, string) { r.brk.done = true }

func (r *REPL) cmdUnbreak(_ context.Context, arg string) {
	if arg == "all" {
		r.noBreaks = true
	} else {
		r.unbroken[r.brk.info.Pos] = true
	}
	r.brk.done = true
}

func (r *REPL) cmdFrame(_ context.Context, arg string) {
	stack := r.brk.info.Stack
	if arg == "" {
		r.printf("#0 break at %s\n", r.sess.Fset.Position(r.brk.info.Pos))
		for i := len(stack) - 1; i >= 0; i-- {
			r.printf("#%d %s called at %s\n", len(stack)-i, frameName(stack[i]), r.sess.Fset.Position(stack[i].Pos))
		}
		r.showLocals()
		return
	}
	n, err := parseNat(arg)
	if err != nil || n > len(stack) {
		r.printf("%sno frame %s: frames are 0 to %d\n", r.pal.err("error: "), arg, len(stack))
		return
	}
	if n == 0 {
		r.printf("#0 break at %s\n", r.sess.Fset.Position(r.brk.info.Pos))
		r.showPlace(r.brk.info.Pos)
		r.showLocals()
		return
	}
	f := stack[len(stack)-n]
	r.printf("#%d %s called at %s\n", n, frameName(f), r.sess.Fset.Position(f.Pos))
	r.showPlace(f.Pos)
}

func parseNat(s string) (int, error) {
	n := 0
	if s == "" {
		return 0, io.ErrUnexpectedEOF
	}
	for _, c := range s {
		if c < '0' || c > '9' || n > 1<<20 {
			return 0, io.ErrUnexpectedEOF
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}
