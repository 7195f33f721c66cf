package opencl

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"fut/eval/value"
	"fut/gpu/kernel"
)

// gen emits the C of one kernel's bodies.
type gen struct {
	caps   Caps
	k      *kernel.Kernel
	b      strings.Builder
	indent int
	names  map[string]string // IR name → C name
	used   map[string]bool
	tmp    int
	pre    []string // statements that must precede the expression being emitted
	f16    bool     // an emulated f16 occurs (see emu)
	site   int      // the Site of the statement being emitted
	// tiles gives the local memory reads that replace reads of the tiled
	// buffers of a Tiled kernel (tile.go)
	tiles map[*kernel.Param]func(kernel.Read) (string, bool)
	// tile is the sizes asked of a Tiled kernel (the zero value: its
	// default), tsh the sizes it is being generated with
	tile TileConfig
	tsh  *tileShape
	// below maps the index variables of a map or scatter to their
	// bound (kernel.ExpString): the kernel's threads hold 0 <= i < bound
	// (genMap), so an index of a dimension of that very bound needs no
	// check (index)
	below map[string]string
	// divMagic: the map kernel takes its divisors' magic numbers
	// (splitIndex); elemIdx the map's index variables, whose element
	// number splitIndex keeps in names[elemKey]
	divMagic bool
	elemIdx  []kernel.Var
	err      error
}

func newGen(k *kernel.Kernel, caps Caps) *gen {
	return &gen{caps: caps, k: k, names: map[string]string{}, used: map[string]bool{}}
}

func (g *gen) fail(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf("opencl: kernel %s: %s", g.k.Name, fmt.Sprintf(format, args...))
	}
}

func (g *gen) line(format string, args ...any) {
	for i := 0; i < g.indent; i++ {
		g.b.WriteString("  ")
	}
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// name maps an IR name to a unique C identifier.
func (g *gen) name(n string) string {
	if c, ok := g.names[n]; ok {
		return c
	}
	var s strings.Builder
	s.WriteString("v_")
	for _, r := range n {
		if r == '_' || r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			s.WriteRune(r)
		} else {
			s.WriteByte('_')
		}
	}
	c := s.String()
	for i := 1; g.used[c]; i++ {
		c = fmt.Sprintf("%s_%d", s.String(), i)
	}
	g.used[c] = true
	g.names[n] = c
	return c
}

func (g *gen) fresh(prefix string) string {
	g.tmp++
	return fmt.Sprintf("t%s%d", prefix, g.tmp)
}

// emu reports whether t is an f16 emulated in float: without
// cl_khr_fp16, half is only a storage type (buffers, local memory, read
// and written with vload_half and vstore_half_rte); values live in float
// registers, and every operation's result is rounded to half precision
// (fut_r16, to nearest, ties to even), as the reference evaluator rounds
// every f16 operation.
func (g *gen) emu(t kernel.Type) bool {
	if t == kernel.F16 && !g.caps.F16 {
		g.f16 = true
		return true
	}
	return false
}

// ctype is the C type of a local value of t on this device.
func (g *gen) ctype(t kernel.Type) string {
	if g.emu(t) {
		return "float"
	}
	return ctype(t)
}

func (g *gen) checkType(t kernel.Type) {
	g.emu(t)
	switch {
	case t == kernel.F64 && !g.caps.F64:
		g.fail("f64 is not supported by this device")
	case t == kernel.NoType || t > kernel.F64:
		g.fail("invalid type %v", t)
	}
}

// flushPre writes the pending pre-statements.
func (g *gen) flushPre() {
	for _, s := range g.pre {
		g.line("%s", s)
	}
	g.pre = g.pre[:0]
}

// exp emits e; reads add bounds checks to g.pre.
func (g *gen) exp(e kernel.Exp) string {
	switch e := e.(type) {
	case kernel.Var:
		return g.name(e.Name)
	case kernel.Const:
		return g.constant(e)
	case kernel.BinOp:
		return g.binop(e)
	case kernel.UnOp:
		return g.unop(e)
	case kernel.Conv:
		return g.conv(e)
	case kernel.Call:
		return g.call(e)
	case kernel.Select:
		return fmt.Sprintf("(%s ? %s : %s)", g.exp(e.C), g.exp(e.T), g.exp(e.F))
	case kernel.Read:
		return g.read(e)
	case nil:
		g.fail("missing expression")
		return "0"
	}
	g.fail("unknown expression %T", e)
	return "0"
}

func (g *gen) constant(c kernel.Const) string {
	g.checkType(c.T)
	t := c.T
	switch {
	case t == kernel.Bool:
		if c.Bits != 0 {
			return "true"
		}
		return "false"
	case t.IsFloat():
		f := c.F
		switch {
		case math.IsNaN(f):
			return fmt.Sprintf("((%s)NAN)", g.ctype(t))
		case math.IsInf(f, 1):
			return fmt.Sprintf("((%s)INFINITY)", g.ctype(t))
		case math.IsInf(f, -1):
			return fmt.Sprintf("((%s)-INFINITY)", g.ctype(t))
		}
		if t == kernel.F64 {
			return fmt.Sprintf("((double)%s)", strconv.FormatFloat(f, 'x', -1, 64))
		}
		if g.emu(t) { // a float constant holding the f16 value (exact in float)
			return fmt.Sprintf("((float)%sf)", strconv.FormatFloat(value.RoundF16(f), 'x', -1, 32))
		}
		return fmt.Sprintf("((%s)%sf)", ctype(t), strconv.FormatFloat(float64(float32(f)), 'x', -1, 32))
	case t == kernel.I64:
		v := c.Int64()
		if v == math.MinInt64 {
			return "((long)(-9223372036854775807L - 1))"
		}
		return fmt.Sprintf("((long)%dL)", v)
	case t.IsSigned():
		return fmt.Sprintf("((%s)%d)", ctype(t), c.Int64())
	}
	return fmt.Sprintf("((%s)%dUL)", ctype(t), c.Bits&(uint64(math.MaxUint64)>>(64-t.Bits())))
}

func (g *gen) binop(e kernel.BinOp) string {
	x, y := g.exp(e.X), g.exp(e.Y)
	t := e.X.Type()
	g.checkType(t)
	if e.Y.Type() != t {
		g.fail("operands of %s have types %v and %v", e.Op, t, e.Y.Type())
	}
	n := t.String()
	switch e.Op {
	case "==", "<", "<=", ">", ">=":
		if t == kernel.Bool { // false < true
			return fmt.Sprintf("((int)%s %s (int)%s)", x, e.Op, y)
		}
		return fmt.Sprintf("(%s %s %s)", x, e.Op, y)
	case "!=":
		return fmt.Sprintf("(%s != %s)", x, y)
	}
	switch {
	case t == kernel.Bool:
		switch e.Op {
		case "&&", "&", "min":
			return fmt.Sprintf("(%s && %s)", x, y)
		case "||", "|", "max":
			return fmt.Sprintf("(%s || %s)", x, y)
		case "^":
			return fmt.Sprintf("(%s != %s)", x, y)
		}
	case t.IsInt():
		switch e.Op {
		case "+":
			return fmt.Sprintf("add_%s(%s, %s)", n, x, y)
		case "-":
			return fmt.Sprintf("sub_%s(%s, %s)", n, x, y)
		case "*":
			return fmt.Sprintf("mul_%s(%s, %s)", n, x, y)
		case "/", "%", "**":
			f := map[string]string{"/": "div", "%": "mod", "**": "pow"}[e.Op]
			return fmt.Sprintf("%s_%s(%s, %s, err, %d)", f, n, x, y, g.site)
		case "//", "%%":
			f := map[string]string{"//": "quot", "%%": "rem"}[e.Op]
			if t.IsUnsigned() {
				f = map[string]string{"//": "div", "%%": "mod"}[e.Op]
			}
			return fmt.Sprintf("%s_%s(%s, %s, err, %d)", f, n, x, y, g.site)
		case "min", "max":
			return fmt.Sprintf("%s(%s, %s)", e.Op, x, y)
		case "&", "|", "^":
			return fmt.Sprintf("((%s)(%s %s %s))", ctype(t), x, e.Op, y)
		case "<<":
			return fmt.Sprintf("shl_%s(%s, %s)", n, x, y)
		case ">>":
			if t.IsSigned() {
				return fmt.Sprintf("ashr_%s(%s, %s)", n, x, y)
			}
			return fmt.Sprintf("lshr_%s(%s, %s)", n, x, y)
		case ">>>":
			return fmt.Sprintf("lshr_%s(%s, %s)", n, x, y)
		}
	case g.emu(t):
		switch e.Op {
		case "+", "-", "*":
			// float has 24 >= 2*11+2 bits: rounding to float, then to
			// half, rounds these once (as the reference, through f64)
			return fmt.Sprintf("fut_r16(%s %s %s)", x, e.Op, y)
		case "/":
			return g.wide("%s / %s", x, y)
		case "%":
			return fmt.Sprintf("mod_f16(%s, %s)", x, y)
		case "%%": // exact
			return fmt.Sprintf("fmod(%s, %s)", x, y)
		case "//":
			return g.wide("trunc(%s / %s)", x, y)
		case "**":
			return g.wide("pow(%s, %s)", x, y)
		case "min":
			return fmt.Sprintf("fmin(%s, %s)", x, y)
		case "max":
			return fmt.Sprintf("fmax(%s, %s)", x, y)
		}
	case t.IsFloat():
		switch e.Op {
		case "+", "-", "*", "/":
			return fmt.Sprintf("(%s %s %s)", x, e.Op, y)
		case "%":
			return fmt.Sprintf("mod_%s(%s, %s)", n, x, y)
		case "%%":
			return fmt.Sprintf("fmod(%s, %s)", x, y)
		case "//":
			return fmt.Sprintf("trunc(%s / %s)", x, y)
		case "**":
			return fmt.Sprintf("pow(%s, %s)", x, y)
		case "min":
			return fmt.Sprintf("fmin(%s, %s)", x, y)
		case "max":
			return fmt.Sprintf("fmax(%s, %s)", x, y)
		}
	}
	g.fail("operator %s is not defined on %v", e.Op, t)
	return "0"
}

// wide computes an emulated f16 operation (format, on args) in double
// where the device has it, rounded once to half precision (as the
// reference evaluator computes f16 in f64), else in float.
func (g *gen) wide(format string, args ...any) string {
	if !g.caps.F64 {
		return "fut_r16(" + fmt.Sprintf(format, args...) + ")"
	}
	for i, a := range args {
		args[i] = fmt.Sprintf("(double)(%s)", a)
	}
	return "fut_d2h(" + fmt.Sprintf(format, args...) + ")"
}

func (g *gen) unop(e kernel.UnOp) string {
	x := g.exp(e.X)
	t := e.X.Type()
	n := t.String()
	switch e.Op {
	case "neg":
		switch {
		case t == kernel.Bool:
			return x
		case t.IsInt():
			return fmt.Sprintf("neg_%s(%s)", n, x)
		}
		return fmt.Sprintf("(-%s)", x)
	case "!":
		if t == kernel.Bool {
			return fmt.Sprintf("(!%s)", x)
		}
		if t.IsInt() {
			return fmt.Sprintf("((%s)~%s)", ctype(t), x)
		}
	case "abs":
		switch {
		case t.IsSigned():
			return fmt.Sprintf("abs_%s(%s)", n, x)
		case t.IsUnsigned() || t == kernel.Bool:
			return x
		}
		return fmt.Sprintf("fabs(%s)", x)
	case "sgn":
		if t != kernel.Bool {
			return fmt.Sprintf("sgn_%s(%s)", n, x)
		}
	case "popc":
		if t.IsInt() {
			return fmt.Sprintf("((int)popcount((%s)%s))", utype(t), x)
		}
	case "clz":
		if t.IsInt() {
			return fmt.Sprintf("((int)clz((%s)%s))", utype(t), x)
		}
	case "ctz":
		if t.IsInt() {
			return fmt.Sprintf("ctz_%s(%s)", n, x)
		}
	}
	g.fail("unary %s is not defined on %v", e.Op, t)
	return "0"
}

func (g *gen) conv(e kernel.Conv) string {
	x := g.exp(e.X)
	from, to := e.X.Type(), e.To
	g.checkType(from)
	g.checkType(to)
	switch {
	case from == to:
		return x
	case to == kernel.Bool:
		return fmt.Sprintf("(%s != 0)", x)
	case from == kernel.Bool:
		return fmt.Sprintf("((%s)(%s ? 1 : 0))", g.ctype(to), x)
	case from.IsFloat() && to.IsInt():
		return fmt.Sprintf("f2i_%s_%s(%s)", from, to, x)
	case g.emu(to) && from == kernel.F64:
		return fmt.Sprintf("fut_d2h(%s)", x)
	case g.emu(to):
		// integers of more than 24 bits round to float first, but then
		// are far beyond 65504: infinity either way
		return fmt.Sprintf("fut_r16((float)%s)", x)
	case from.IsSigned() && to.IsUnsigned():
		// Futhark zero-extends unless both types are signed
		return fmt.Sprintf("((%s)(%s)%s)", ctype(to), utype(from), x)
	}
	return fmt.Sprintf("((%s)%s)", g.ctype(to), x)
}

var mathFns = map[string]int{
	"sqrt": 1, "exp": 1, "exp2": 1, "log": 1, "log2": 1, "log10": 1, "sin": 1, "cos": 1, "tan": 1,
	"asin": 1, "acos": 1, "atan": 1, "sinh": 1, "cosh": 1, "tanh": 1, "asinh": 1, "acosh": 1,
	"atanh": 1, "atan2": 2, "pow": 2, "hypot": 2, "floor": 1, "ceil": 1, "trunc": 1, "round": 1,
	"fma": 3, "cbrt": 1, "erf": 1, "erfc": 1, "lgamma": 1, "gamma": 1, "copysign": 2,
	"log1p": 1, "expm1": 1, "exp10": 1, "rsqrt": 1, "sinpi": 1, "cospi": 1, "tanpi": 1,
	"asinpi": 1, "acospi": 1, "atanpi": 1, "atan2pi": 2, "nextafter": 2, "fmin": 2, "fmax": 2,
	"fmod": 2, "fabs": 1, "mad": 3, "ldexp": 2,
}

func (g *gen) call(e kernel.Call) string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.exp(a)
	}
	if len(args) == 0 {
		g.fail("call of %s without arguments", e.Fn)
		return "0"
	}
	t := e.Args[0].Type()
	switch e.Fn {
	case "isnan", "isinf":
		return fmt.Sprintf("(%s(%s) != 0)", e.Fn, args[0])
	case "f16_round": // an f16 value computed in f32 (see prelude)
		return fmt.Sprintf("fut_r16(%s)", args[0])
	case "to_bits":
		if t == kernel.F32 && e.Res == kernel.U16 || g.emu(t) { // an f16 held in an f32, or emulated
			return fmt.Sprintf("fut_f16_bits(%s)", args[0])
		}
		return fmt.Sprintf("as_%s(%s)", utype(t), args[0])
	case "from_bits":
		if t == kernel.U16 && e.Res == kernel.F32 || g.emu(e.Res) {
			return fmt.Sprintf("fut_f16_from_bits(%s)", args[0])
		}
		g.checkType(e.Res)
		return fmt.Sprintf("as_%s(%s)", ctype(e.Res), args[0])
	case "mul_hi":
		return fmt.Sprintf("mul_hi(%s, %s)", args[0], args[1])
	}
	n, ok := mathFns[e.Fn]
	if !ok || !t.IsFloat() {
		g.fail("unknown function %s on %v", e.Fn, t)
		return "0"
	}
	if n != len(args) {
		g.fail("%s takes %d arguments", e.Fn, n)
		return "0"
	}
	if g.emu(t) {
		return g.emuCall(e.Fn, args)
	}
	fn := e.Fn
	switch fn {
	case "ldexp":
		return fmt.Sprintf("ldexp(%s, (int)(%s))", args[0], args[1])
	case "round":
		fn = "rint" // half to even
	case "gamma":
		fn = "tgamma"
	}
	return fmt.Sprintf("%s(%s)", fn, strings.Join(args, ", "))
}

// emuCall is a math function on emulated f16 (see emu): the exact ones
// in float, the others as the reference evaluator computes them (in
// f64, then rounded to f16; nextafter too, so it rarely moves).
func (g *gen) emuCall(fn string, args []string) string {
	switch fn {
	case "floor", "ceil", "trunc", "fabs", "copysign", "fmin", "fmax", "fmod":
		return fmt.Sprintf("%s(%s)", fn, strings.Join(args, ", "))
	case "round":
		return fmt.Sprintf("rint(%s)", args[0])
	case "ldexp": // exact in float wherever the result is a finite f16
		return fmt.Sprintf("fut_r16(ldexp(%s, (int)(%s)))", args[0], args[1])
	case "mad": // as the reference: a*b (exact in f64 and in float), then +c
		return g.wide("%s * %s + %s", args[0], args[1], args[2])
	case "gamma":
		fn = "tgamma"
	}
	as := make([]any, len(args))
	fs := make([]string, len(args))
	for i, a := range args {
		as[i], fs[i] = a, "%s"
	}
	return g.wide(fn+"("+strings.Join(fs, ", ")+")", as...)
}

// index emits the bounds check of buf[idx…] into g.pre and returns the
// names of the ok flag and the flat index.
func (g *gen) index(buf *kernel.Param, idx []kernel.Exp) (ok, flat string) {
	if !buf.Buffer {
		g.fail("%s is not a buffer", buf.Name)
		return "false", "0"
	}
	if len(idx) != len(buf.Shape) || len(idx) == 0 || len(idx) > MaxRank {
		g.fail("%s has rank %d, indexed with %d indices", buf.Name, len(buf.Shape), len(idx))
		return "false", "0"
	}
	is := make([]string, len(idx))
	for k, e := range idx {
		s := g.exp(e)
		is[k] = g.fresh("i")
		g.pre = append(g.pre, fmt.Sprintf("long %s = (long)%s;", is[k], s))
	}
	ds := make([]string, len(idx))
	for k, e := range buf.Shape {
		ds[k] = "(long)" + g.exp(e)
	}
	if g.inBounds(idx, buf.Shape) {
		if en, ok := g.names[elemKey]; ok && g.isElemIdx(idx) {
			return "true", en
		}
		flat = is[0]
		for k := 1; k < len(is); k++ {
			flat = fmt.Sprintf("(%s * %s + %s)", flat, ds[k], is[k])
		}
		return "true", flat
	}
	ok, flat = g.fresh("ok"), g.fresh("f")
	var conds []string
	for k := range is {
		conds = append(conds, fmt.Sprintf("%s >= 0 && %s < %s", is[k], is[k], ds[k]))
	}
	g.pre = append(g.pre, fmt.Sprintf("bool %s = %s;", ok, strings.Join(conds, " && ")))
	g.pre = append(g.pre, g.boundsFail("!"+ok, is, ds))
	f := is[0]
	for k := 1; k < len(is); k++ {
		f = fmt.Sprintf("(%s * %s + %s)", f, ds[k], is[k])
	}
	g.pre = append(g.pre, fmt.Sprintf("long %s = %s ? %s : 0;", flat, ok, f))
	return ok, flat
}

// isElemIdx says whether idx are the map's index variables (g.elemIdx)
// in order: with inBounds, the element's place in an array of the
// map's shape is its element number.
func (g *gen) isElemIdx(idx []kernel.Exp) bool {
	if len(idx) != len(g.elemIdx) {
		return false
	}
	for k, e := range idx {
		if v, ok := e.(kernel.Var); !ok || v.Name != g.elemIdx[k].Name {
			return false
		}
	}
	return true
}

// inBounds reports whether every index of idx is an index variable of
// the kernel's threads whose bound is the same expression as the
// dimension it indexes (g.below): such an index cannot be out of bounds.
func (g *gen) inBounds(idx, shape []kernel.Exp) bool {
	for k, e := range idx {
		v, ok := e.(kernel.Var)
		if !ok {
			return false
		}
		b, ok := g.below[v.Name]
		if !ok || b != kernel.ExpString(shape[k]) {
			return false
		}
	}
	return len(idx) > 0
}

// boundsFail is the statement recording, when cond holds, an index out of
// bounds: the indices is (C expressions of type long) and the dimensions
// ds, and the statement's site.
func (g *gen) boundsFail(cond string, is, ds []string) string {
	var rec strings.Builder
	fmt.Fprintf(&rec, "if (%s && atomic_cmpxchg((volatile __global int *)err, 0, 1) == 0) { err[1] = %d; err[2] = %d; err[%d] = %d;", cond, ErrBounds, len(is)|len(ds)<<8, ErrSite, g.site)
	for k := range is {
		fmt.Fprintf(&rec, " err[%d] = %s;", 3+k, is[k])
	}
	for k := range ds {
		fmt.Fprintf(&rec, " err[%d] = %s;", 3+MaxRank+k, ds[k])
	}
	rec.WriteString(" }")
	return rec.String()
}

func (g *gen) read(r kernel.Read) string {
	if f, ok := g.tiles[r.Buf]; ok {
		if s, ok := f(r); ok {
			return s
		}
	}
	g.checkType(r.Buf.T)
	_, flat := g.index(r.Buf, r.Idx)
	return g.load(r.Buf.T, at(g.name(r.Buf.Name), flat))
}

// ref is element i of the buffer (global or local memory) p.
type ref struct{ p, i string }

func at(p, i string) ref { return ref{p, i} }

// load converts a stored element to a local value.
func (g *gen) load(t kernel.Type, r ref) string {
	switch {
	case t == kernel.Bool:
		return fmt.Sprintf("(%s[%s] != 0)", r.p, r.i)
	case g.emu(t):
		return fmt.Sprintf("vload_half(%s, %s)", r.i, r.p)
	}
	return fmt.Sprintf("%s[%s]", r.p, r.i)
}

// put is the statement storing the local value v into r.
func (g *gen) put(t kernel.Type, r ref, v string) string {
	switch {
	case t == kernel.Bool:
		return fmt.Sprintf("%s[%s] = ((uchar)%s);", r.p, r.i, v)
	case g.emu(t): // v is an f16 already: rte changes nothing
		return fmt.Sprintf("vstore_half_rte(%s, %s, %s);", v, r.i, r.p)
	}
	return fmt.Sprintf("%s[%s] = %s;", r.p, r.i, v)
}

// copyElem is the statement copying element src to dst.
func (g *gen) copyElem(t kernel.Type, dst, src ref) string {
	if g.emu(t) {
		return g.put(t, dst, g.load(t, src))
	}
	return fmt.Sprintf("%s[%s] = %s[%s];", dst.p, dst.i, src.p, src.i)
}

// stmts emits a body.
func (g *gen) stmts(ss []kernel.Stmt) {
	for _, s := range ss {
		g.stmt(s)
	}
}

func (g *gen) stmt(s kernel.Stmt) {
	saved := g.site
	defer func() { g.site = saved }()
	switch s := s.(type) {
	case *kernel.Let:
		g.site = s.Site
	case *kernel.Write:
		g.site = s.Site
	case *kernel.Assert:
		g.site = s.Site
	}
	switch s := s.(type) {
	case *kernel.Let:
		g.checkType(s.V.T)
		e := g.exp(s.E)
		if s.E.Type() != s.V.T {
			g.fail("let %s: %v bound to an expression of type %v", s.V.Name, s.V.T, s.E.Type())
		}
		g.flushPre()
		g.line("%s %s = %s;", g.ctype(s.V.T), g.name(s.V.Name), e)
	case *kernel.Write:
		v := g.exp(s.V)
		if s.V.Type() != s.Buf.T {
			g.fail("write of %v into %s of %v", s.V.Type(), s.Buf.Name, s.Buf.T)
		}
		ok, flat := g.index(s.Buf, s.Idx)
		g.flushPre()
		g.line("if (%s) %s", ok, g.put(s.Buf.T, at(g.name(s.Buf.Name), flat), v))
	case *kernel.Assert:
		c := g.exp(s.Cond)
		if len(s.Idx) > 0 {
			if len(s.Idx) > len(s.Shape) || len(s.Shape) > MaxRank {
				g.fail("a bounds check of %d indices against %d dimensions", len(s.Idx), len(s.Shape))
			}
			is := make([]string, len(s.Idx))
			ds := make([]string, len(s.Shape))
			for k := range s.Idx {
				is[k] = "(long)" + g.exp(s.Idx[k])
			}
			for k := range s.Shape {
				ds[k] = "(long)" + g.exp(s.Shape[k])
			}
			g.flushPre()
			g.line("%s", g.boundsFail("!("+c+")", is, ds))
			break
		}
		g.flushPre()
		g.line("if (!(%s) && atomic_cmpxchg((volatile __global int *)err, 0, 1) == 0) { err[1] = %d; err[%d] = %d; }", c, ErrAssert, ErrSite, g.site)
	case *kernel.If:
		c := g.exp(s.Cond)
		g.flushPre()
		for _, r := range s.Res {
			g.checkType(r.T)
			g.line("%s %s;", g.ctype(r.T), g.name(r.Name))
		}
		g.line("if (%s) {", c)
		g.branch(s.Then, s.ThenRes, s.Res)
		g.line("} else {")
		g.branch(s.Else, s.ElseRes, s.Res)
		g.line("}")
	case *kernel.Loop:
		g.loop(s)
	default:
		g.fail("unknown statement %T", s)
	}
}

// carryLoops: a loop's operations of its parameters that its body also
// computes of their next values are carried from one iteration to the
// next (kernel.Carry); FUT_LOOP_CARRY=0 turns it off, to compare.
var carryLoops = os.Getenv("FUT_LOOP_CARRY") != "0"

func (g *gen) branch(body []kernel.Stmt, res []kernel.Exp, vars []kernel.Var) {
	g.indent++
	g.stmts(body)
	if len(res) != len(vars) {
		g.fail("if: %d results for %d variables", len(res), len(vars))
	}
	for i := range min(len(res), len(vars)) {
		e := g.exp(res[i])
		g.flushPre()
		g.line("%s = %s;", g.name(vars[i].Name), e)
	}
	g.indent--
}

func (g *gen) loop(l *kernel.Loop) {
	if len(l.Init) != len(l.Params) || len(l.Next) != len(l.Params) {
		g.fail("loop with %d parameters, %d initial and %d next values", len(l.Params), len(l.Init), len(l.Next))
		return
	}
	if carryLoops {
		l = kernel.Carry(l)
	}
	inits := make([]string, len(l.Init))
	for i, e := range l.Init {
		inits[i] = g.exp(e)
	}
	g.flushPre()
	for i, p := range l.Params {
		g.checkType(p.T)
		g.line("%s %s = %s;", g.ctype(p.T), g.name(p.Name), inits[i])
	}
	if l.While != nil {
		g.line("for (;;) {")
		g.indent++
		c := g.exp(l.While)
		g.flushPre()
		g.line("if (!%s) break;", c)
	} else {
		n := g.exp(l.N)
		g.flushPre()
		bound := g.fresh("n")
		g.line("long %s = (long)%s;", bound, n)
		i := g.name(l.I.Name)
		g.line("for (long %s = 0; %s < %s; %s++) {", i, i, bound, i)
		g.indent++
	}
	g.stmts(l.Body)
	nexts := make([]string, len(l.Next))
	for i, e := range l.Next {
		nexts[i] = g.exp(e)
	}
	g.flushPre()
	tmps := make([]string, len(nexts))
	for i, p := range l.Params {
		tmps[i] = g.fresh("nx")
		g.line("%s %s = %s;", g.ctype(p.T), tmps[i], nexts[i])
	}
	for i, p := range l.Params {
		g.line("%s = %s;", g.name(p.Name), tmps[i])
	}
	g.indent--
	g.line("}")
}
