package lower

import (
	"fut/interp/ir"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

// The operations the lowering knows: the intrinsics (prelude/
// intrinsics.fut; the prelude's functions are inlined from their
// definitions down to these), the checker's built-in operators, and two
// internal forms (a record projection section, an operator section with
// one operand fixed). Each entry gives the arity.
var intrinsics = map[string]int{
	"map": 2, "reduce": 3, "reduce_comm": 3, "scan": 3, "filter": 2, "partition": 2,
	"scatter": 3, "scatter_2d": 3, "scatter_3d": 3,
	"hist": 5, "reduce_by_index": 5, "reduce_by_index_2d": 5, "reduce_by_index_3d": 5,
	"reduce_stream": 3, "reduce_stream_per": 3, "map_stream": 2, "map_stream_per": 2,
	"length": 1, "iota": 1, "replicate": 2, "copy": 1, "manifest": 1, "concat": 2,
	"transpose": 1, "rotate": 2, "flatten": 1, "reverse": 1, "unflatten": 3,
	"zip": 2, "zip3": 3, "zip4": 4, "zip5": 5, "unzip": 1, "unzip3": 1, "unzip4": 1, "unzip5": 1,
	"opaque": 1, "trace": 1, "break": 1, "jvp2": 3, "vjp2": 3,
	"mul_hi": 2, "mad_hi": 3, "fma": 3, "mad": 3, "lerp": 3, "ldexp": 2,
	"popc": 1, "clz": 1, "ctz": 1, "neg": 1, "complement": 1, "abs": 1, "signum": 1,
	"isnan": 1, "isinf": 1,
	"f16_from_bits": 1, "f16_to_bits": 1, "f32_from_bits": 1, "f32_to_bits": 1,
	"f64_from_bits": 1, "f64_to_bits": 1,
}

// scalarIntrinsicOps are the intrinsics that are one of the IR's binary
// operators (the same table as the reference evaluator's).
var scalarIntrinsicOps = map[string]string{
	"add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "quot": "//", "rem": "%%",
	"pow": "**", "min": "min", "max": "max", "eq": "==", "neq": "!=", "lt": "<", "le": "<=",
	"gt": ">", "ge": ">=", "and": "&", "or": "|", "xor": "^", "shl": "<<", "shr": ">>",
	"lshr": ">>>",
}

// intrinsicArity is the arity of an intrinsic the lowering knows.
func intrinsicArity(name string) (int, bool) {
	if n, ok := intrinsics[name]; ok {
		return n, true
	}
	if _, ok := scalarIntrinsicOps[name]; ok {
		return 2, true
	}
	if strings.HasPrefix(name, "to_") && value.ParsePrimType(name[3:]) != value.NoPrim {
		return 1, true
	}
	if n, ok := value.HasMath(name); ok {
		return n, true
	}
	return 0, false
}

func builtinArity(name string) (int, bool) {
	if n, ok := intrinsicArity(name); ok {
		return n, true
	}
	if _, ok := binOpName(name); ok {
		return 2, true
	}
	switch {
	case strings.HasPrefix(name, "project:"):
		return 1, true
	case name == "apply-left" || name == "apply-right":
		return 3, true
	case name == "|>" || name == "<|":
		return 2, true
	}
	return 0, false
}

// scalarIntrinsic lowers a scalar intrinsic (ok false when name is not one).
func (l *lowerer) scalarIntrinsic(b *builder, name string, args []lv, at syntax.Node) (lv, bool) {
	atom := func(i int) *lvAtom {
		a, ok := args[i].(*lvAtom)
		if !ok || a.t.Rank() != 0 {
			l.fail(at, "the intrinsic %s applied to a value that is not a scalar", name)
		}
		return a
	}
	if op, ok := scalarIntrinsicOps[name]; ok {
		return l.binop(b, op, atom(0), atom(1), at), true
	}
	if strings.HasPrefix(name, "to_") {
		to := value.ParsePrimType(name[3:])
		if to == value.NoPrim {
			return nil, false
		}
		x := atom(0)
		if x.a.IsConst() {
			return &lvAtom{ir.C(value.Convert(x.a.Val, to)), ir.Scalar(to)}, true
		}
		return b.let1("conv", &ir.ConvE{To: to, X: x.a}, ir.Scalar(to)), true
	}
	n, isMath := value.HasMath(name)
	floatOnly := isMath
	switch name {
	case "neg", "complement", "abs", "signum", "isnan", "isinf", "popc", "clz", "ctz",
		"mul_hi", "mad_hi", "f16_from_bits", "f16_to_bits", "f32_from_bits", "f32_to_bits",
		"f64_from_bits", "f64_to_bits":
		n, isMath, floatOnly = intrinsics[name], true, false
	case "fma", "mad", "lerp", "ldexp":
		n, isMath, floatOnly = intrinsics[name], true, true
	}
	if !isMath {
		return nil, false
	}
	as := make([]ir.Atom, n)
	var t ir.Type
	for i := range as {
		x := atom(i)
		as[i] = x.a
		if i == 0 {
			t = x.t
		}
	}
	if floatOnly && !t.Elem.IsFloat() {
		l.fail(at, "the intrinsic %s on %s", name, t)
	}
	op := name
	switch name {
	case "complement":
		op = "not"
	case "signum":
		op = "sgn"
	case "abs":
		if t.Elem.IsFloat() {
			op = "fabs"
		}
	case "isnan", "isinf":
		t = ir.Scalar(value.Bool)
	case "popc", "clz", "ctz":
		t = ir.Scalar(value.I32)
	case "f16_from_bits":
		t = ir.Scalar(value.F16)
	case "f32_from_bits":
		t = ir.Scalar(value.F32)
	case "f64_from_bits":
		t = ir.Scalar(value.F64)
	case "f16_to_bits":
		t = ir.Scalar(value.U16)
	case "f32_to_bits":
		t = ir.Scalar(value.U32)
	case "f64_to_bits":
		t = ir.Scalar(value.U64)
	}
	return b.let1(op, &ir.UnOpE{Op: op, Args: as}, t), true
}

func (l *lowerer) callBuiltin(b *builder, name string, args []lv, at syntax.Node) lv {
	atom := func(i int) *lvAtom {
		a, ok := args[i].(*lvAtom)
		if !ok {
			l.fail(at, "%s expects a scalar or an array of scalars", name)
		}
		return a
	}
	if strings.HasPrefix(name, "project:") {
		return l.projectPath(at, args[0], strings.Split(strings.TrimPrefix(name, "project:"), "."))
	}
	if r, ok := l.scalarIntrinsic(b, name, args, at); ok {
		return r
	}
	if _, ok := binOpName(name); ok {
		return l.binop(b, name, atom(0), atom(1), at)
	}
	switch name {
	case "|>":
		return l.apply(b, args[1], args[:1], at)
	case "<|":
		return l.apply(b, args[0], args[1:], at)
	case "apply-left":
		return l.apply(b, args[0], []lv{args[1], args[2]}, at)
	case "apply-right":
		return l.apply(b, args[0], []lv{args[2], args[1]}, at)
	case "map":
		return l.mapN(b, args[0], args[1:], at)
	case "reduce", "reduce_comm":
		return l.reduce(b, args[0], args[1], args[2], false, at)
	case "scan":
		return l.reduce(b, args[0], args[1], args[2], true, at)
	case "hist":
		ne := atom(1)
		k := l.toI64(b, atom(2))
		dest := b.let1("hist", &ir.ReplicateE{N: k, X: ne.a}, ne.t.ArrayOf(k))
		return l.hist(b, dest, args[0], ne, args[3], args[4], at)
	case "reduce_by_index":
		return l.hist(b, atom(0), args[1], atom(2), args[3], args[4], at)
	case "reduce_by_index_2d", "reduce_by_index_3d":
		return l.histN(b, atom(0), args[1], atom(2), args[3], args[4], int(name[len(name)-2]-'0'), at)
	case "scatter":
		return l.scatterN(b, args[0], args[1], args[2], 1, at)
	case "scatter_2d", "scatter_3d":
		return l.scatterN(b, args[0], args[1], args[2], int(name[len(name)-2]-'0'), at)
	case "unflatten":
		return l.unflatten(b, atom(0), atom(1), args[2], at)
	case "rotate":
		return l.rotate(b, atom(0), args[1], at)
	case "partition":
		return l.partition(b, args[0], args[1], at)
	case "iota":
		n := l.toI64(b, atom(0))
		l.checkNonNegative(b, n, at)
		return b.let1("iota", &ir.IotaE{N: n}, ir.Type{Elem: value.I64, Shape: []ir.Atom{n}})
	case "replicate":
		n := l.toI64(b, atom(0))
		l.checkNonNegative(b, n, at)
		as, ts := l.flatten(args[1], at)
		var outs []ir.Atom
		var outTs []ir.Type
		for i, a := range as {
			t := ts[i].ArrayOf(n)
			outs = append(outs, b.let("rep", &ir.ReplicateE{N: n, X: a}, t)[0])
			outTs = append(outTs, t)
		}
		return rebuild(args[1], outs, outTs, 1)
	case "zip", "zip3", "zip4", "zip5":
		t := &lvTuple{rank: 1}
		for _, a := range args {
			if len(leafShape(a)) == 0 {
				l.fail(at, "zip of a value that is not an array")
			}
			t.elems = append(t.elems, a)
		}
		return t
	case "unzip", "unzip3", "unzip4", "unzip5":
		t, ok := args[0].(*lvTuple)
		if !ok || t.rank == 0 {
			l.fail(at, "unzip of a value that is not an array of tuples")
		}
		return &lvTuple{elems: t.elems}
	case "length":
		sh := leafShape(args[0])
		if len(sh) == 0 {
			l.fail(at, "length of a value that is not an array")
		}
		return &lvAtom{sh[0], ir.Scalar(value.I64)}
	case "transpose", "copy", "manifest":
		as, ts := l.flatten(args[0], at)
		var outs []ir.Atom
		var outTs []ir.Type
		for i, a := range as {
			t := noUnique(ts[i])
			var e ir.Exp = &ir.CopyE{Arr: a.Name, Part: i > 0}
			if name == "transpose" {
				if t.Rank() < 2 {
					l.fail(at, "transpose of an array of rank %d", t.Rank())
				}
				e = &ir.TransposeE{Arr: a.Name}
				t.Shape = append([]ir.Atom{t.Shape[1], t.Shape[0]}, t.Shape[2:]...)
			}
			if a.IsConst() {
				outs, outTs = append(outs, a), append(outTs, t)
				continue
			}
			outs = append(outs, b.let(name, e, t)[0])
			outTs = append(outTs, t)
		}
		return rebuild(args[0], outs, outTs, 0)
	case "reduce_stream", "reduce_stream_per":
		return l.stream(b, args[0], args[1], args[2], at)
	case "map_stream", "map_stream_per":
		return l.stream(b, nil, args[0], args[1], at)
	case "concat":
		sx, sy := leafShape(args[0]), leafShape(args[1])
		if len(sx) == 0 || len(sy) == 0 {
			l.fail(at, "concatenation of values that are not arrays")
		}
		// the result's length is part of concat's rule (its elements):
		// implicit, also where it is a loop's changing size or a value
		n := sx[0]
		if !(sx[0].IsConst() && sy[0].IsConst()) {
			n = b.let("size", &ir.BinOpE{Op: "+", X: sx[0], Y: sy[0], Implicit: true}, ir.Scalar(value.I64))[0]
		} else {
			n = l.arith(b, "+", sx[0], sy[0])
		}
		xa, xt := l.flatten(args[0], at)
		ya, yt := l.flatten(args[1], at)
		if len(xa) != len(ya) {
			l.fail(at, "concatenation of arrays of different element types")
		}
		outs := make([]ir.Atom, len(xa))
		outTs := make([]ir.Type, len(xa))
		for i := range xa {
			if !xt[i].Row().Equal(yt[i].Row()) {
				l.fail(at, "concatenation of arrays whose rows differ (%s and %s)", xt[i], yt[i])
			}
			outTs[i] = xt[i].Row().ArrayOf(n)
			outs[i] = b.let("concat", &ir.ConcatE{N: n, Arrs: []string{xa[i].Name, ya[i].Name}}, outTs[i])[0]
		}
		return rebuild(args[0], outs, outTs, 0)
	case "flatten", "reverse":
		as, ts := l.flatten(args[0], at)
		outs := make([]ir.Atom, len(as))
		outTs := make([]ir.Type, len(as))
		for i, a := range as {
			t := ts[i]
			var e ir.Exp = &ir.ReverseE{Arr: a.Name}
			if name == "flatten" {
				if t.Rank() < 2 {
					l.fail(at, "flatten of an array of rank %d", t.Rank())
				}
				t = ir.Type{Elem: t.Elem, Shape: append([]ir.Atom{l.arith(b, "*", t.Shape[0], t.Shape[1])}, t.Shape[2:]...)}
				e = &ir.ReshapeE{Arr: a.Name, Shape: t.Shape}
			} else if t.Rank() == 0 {
				l.fail(at, "reverse of a value that is not an array")
			}
			outs[i] = b.let(name, e, noUnique(t))[0]
			outTs[i] = noUnique(t)
		}
		delta := 0
		if name == "flatten" {
			delta = -1
		}
		return rebuild(args[0], outs, outTs, delta)
	case "filter":
		return l.filterWith(b, args[0], args[1], at)
	case "jvp2":
		return l.jvp2(b, args[0], args[1], args[2], at)
	case "vjp2":
		return l.vjp2(b, args[0], args[1], args[2], at)
	case "opaque", "trace", "break":
		// trace and break are events of the reference evaluator; a
		// compiled path ignores them, as Futhark's compilers do.
		return args[0]
	}
	l.fail(at, "the function %s is not known to the IR", name)
	return nil
}

// arith is x op y on i64 sizes, folded when both are constants.
func (l *lowerer) arith(b *builder, op string, x, y ir.Atom) ir.Atom {
	if x.IsConst() && y.IsConst() {
		r, err := ir.BinOp(op, x.Val, y.Val)
		if err == nil {
			return ir.C(r)
		}
	}
	return b.let("size", &ir.BinOpE{Op: op, X: x, Y: y}, ir.Scalar(value.I64))[0]
}

func noUnique(t ir.Type) ir.Type {
	t.Unique = false
	return t
}

// rows makes lambda parameters for one element of each input array (the
// inputs must share their outer size) and the element values over them.
func (l *lowerer) rows(b *builder, inputs []lv, at syntax.Node) (arrs []string, w ir.Atom, params []ir.Param, elems []lv) {
	for i, in := range inputs {
		sh := leafShape(in)
		if len(sh) == 0 {
			l.fail(at, "a SOAC over a value that is not an array")
		}
		if i == 0 {
			w = sh[0]
		}
		as, ts := l.flatten(in, at)
		var pas []ir.Atom
		var pts []ir.Type
		for k, a := range as {
			if a.IsConst() {
				l.fail(at, "a SOAC over a constant")
			}
			if d := ts[k].Shape[0]; d != w {
				// Sizes the checker proved equal that the lowering computed
				// apart: checked, then the input is given the SOAC's size.
				a, ts[k] = l.sameSize(b, a, ts[k], w, at)
			}
			p := ir.Param{Name: l.fresh(a.Name), T: ts[k].Row()}
			params = append(params, p)
			arrs = append(arrs, a.Name)
			pas = append(pas, ir.V(p.Name))
			pts = append(pts, p.T)
		}
		elems = append(elems, rebuild(in, pas, pts, -1))
	}
	return
}

// lambda lowers f applied to elems in a new body, whose results must have
// sizes that do not depend on the element.
func (l *lowerer) lambda(f lv, params []ir.Param, elems []lv, at syntax.Node) (*ir.Lambda, lv) {
	lb := &builder{l: l}
	r := l.apply(lb, f, elems, at)
	res, ts := l.flatten(r, at)
	local := map[string]bool{}
	for _, p := range params {
		local[p.Name] = true
	}
	for _, st := range lb.stms {
		for _, p := range st.Pat {
			local[p.Name] = true
		}
	}
	for _, t := range ts {
		for _, d := range t.Shape {
			if local[d.Name] {
				l.fail(at, "a function whose result size depends on its argument (irregular nested arrays)")
			}
		}
	}
	return &ir.Lambda{Params: params, Ret: ts, Body: &ir.Body{Stms: lb.stms, Res: res}}, r
}

func (l *lowerer) mapN(b *builder, f lv, inputs []lv, at syntax.Node) lv {
	arrs, w, params, elems := l.rows(b, inputs, at)
	lam, r := l.lambda(f, params, elems, at)
	ts := make([]ir.Type, len(lam.Ret))
	for i, t := range lam.Ret {
		ts[i] = t.ArrayOf(w)
	}
	outs := b.let("map", &ir.ScremaE{W: w, Arrs: arrs, Map: lam}, ts...)
	return rebuild(r, outs, ts, 1)
}

// reduce lowers reduce (or scan, when scan is set) op ne xs.
func (l *lowerer) reduce(b *builder, op, ne, xs lv, scan bool, at syntax.Node) lv {
	arrs, w, params, _ := l.rows(b, []lv{xs}, at)
	nes, nts := l.flatten(ne, at)
	if len(nes) != len(params) {
		l.fail(at, "a neutral element that does not match the array's elements")
	}
	for i, p := range params {
		if !p.T.Equal(nts[i]) {
			l.fail(at, "a neutral element of type %s for elements of type %s", nts[i], p.T)
		}
	}
	id := identity(params)
	var xps, yps []ir.Param
	var xas, yas []ir.Atom
	for _, t := range nts {
		x, y := ir.Param{Name: l.fresh("x"), T: t}, ir.Param{Name: l.fresh("y"), T: t}
		xps, yps = append(xps, x), append(yps, y)
		xas, yas = append(xas, ir.V(x.Name)), append(yas, ir.V(y.Name))
	}
	opLam, _ := l.lambda(op, append(xps, yps...), []lv{rebuild(ne, xas, nts, 0), rebuild(ne, yas, nts, 0)}, at)
	if err := ir.SameTypes("the operator's result", opLam.Ret, nts); err != nil {
		l.fail(at, "an operator whose result does not match its operands")
	}
	seg := &ir.SegOp{Lam: opLam, Nes: nes}
	s := &ir.ScremaE{W: w, Arrs: arrs, Map: id}
	if scan {
		s.Scans = []*ir.SegOp{seg}
		ts := make([]ir.Type, len(nts))
		for i, t := range nts {
			ts[i] = t.ArrayOf(w)
		}
		return rebuild(ne, b.let("scan", s, ts...), ts, 1)
	}
	s.Reds = []*ir.SegOp{seg}
	return rebuild(ne, b.let("red", s, nts...), nts, 0)
}

// identity is \params -> params, the map lambda of a plain reduce or scan.
func identity(params []ir.Param) *ir.Lambda {
	res := make([]ir.Atom, len(params))
	for i, p := range params {
		res[i] = ir.V(p.Name)
	}
	return &ir.Lambda{Params: params, Ret: ir.ParamTypes(params), Body: &ir.Body{Res: res}}
}

func (l *lowerer) hist(b *builder, dest *lvAtom, op lv, ne *lvAtom, is, vs lv, at syntax.Node) lv {
	if dest.a.IsConst() || dest.t.Rank() == 0 || !ne.t.Equal(dest.t.Row()) {
		l.fail(at, "a histogram whose neutral element does not fit its destination")
	}
	arrs, w, params, elems := l.rows(b, []lv{is, vs}, at)
	ia, ok1 := elems[0].(*lvAtom)
	va, ok2 := elems[1].(*lvAtom)
	if !ok1 || !ok2 {
		l.fail(at, "a histogram of tuples")
	}
	x, y := ir.Param{Name: l.fresh("x"), T: ne.t}, ir.Param{Name: l.fresh("y"), T: ne.t}
	opLam, _ := l.lambda(op, []ir.Param{x, y}, []lv{&lvAtom{ir.V(x.Name), x.T}, &lvAtom{ir.V(y.Name), y.T}}, at)
	lam := &ir.Lambda{Params: params, Ret: []ir.Type{ia.t, va.t}, Body: &ir.Body{Res: []ir.Atom{ia.a, va.a}}}
	h := &ir.HistE{Dest: dest.a.Name, W: w, Arrs: arrs, Op: &ir.SegOp{Lam: opLam, Nes: []ir.Atom{ne.a}}, Map: lam}
	return b.let1("hist", h, noUnique(dest.t))
}

// stream lowers reduce_stream op f xs (op nil: map_stream f xs). f is
// lowered once, for a chunk of symbolic size.
func (l *lowerer) stream(b *builder, op, f, xs lv, at syntax.Node) lv {
	shape := leafShape(xs)
	if len(shape) == 0 {
		l.fail(at, "a stream over a value that is not an array")
	}
	w := shape[0]
	as, ts := l.flatten(xs, at)
	chunk := ir.Param{Name: l.fresh("chunk"), T: ir.Scalar(value.I64)}
	params := []ir.Param{chunk}
	var cas []ir.Atom
	var cts []ir.Type
	var arrs []string
	for k, a := range as {
		if a.IsConst() {
			l.fail(at, "a stream over a constant")
		}
		t := ir.Type{Elem: ts[k].Elem, Shape: append([]ir.Atom{ir.V(chunk.Name)}, ts[k].Shape[1:]...)}
		p := ir.Param{Name: l.fresh(a.Name), T: t}
		params = append(params, p)
		arrs = append(arrs, a.Name)
		cas, cts = append(cas, ir.V(p.Name)), append(cts, t)
	}
	lb := &builder{l: l}
	r := l.apply(lb, f, []lv{&lvAtom{ir.V(chunk.Name), chunk.T}, rebuild(xs, cas, cts, 0)}, at)
	res, rts := l.flatten(r, at)
	local := map[string]bool{}
	for _, p := range params[1:] {
		local[p.Name] = true
	}
	for _, st := range lb.stms {
		for _, p := range st.Pat {
			local[p.Name] = true
		}
	}
	for _, t := range rts {
		for k, d := range t.Shape {
			if local[d.Name] || (d.Name == chunk.Name && (op != nil || k > 0)) {
				l.fail(at, "a stream function whose result size is not the chunk's")
			}
		}
		if op == nil && (t.Rank() == 0 || t.Shape[0] != ir.V(chunk.Name)) {
			l.fail(at, "a map_stream function that does not return arrays of the chunk's size")
		}
	}
	fold := &ir.Lambda{Params: params, Ret: rts, Body: &ir.Body{Stms: lb.stms, Res: res}}
	s := &ir.StreamE{W: w, Arrs: arrs, Fold: fold}
	if op == nil {
		outTs := make([]ir.Type, len(rts))
		for i, t := range rts {
			outTs[i] = ir.Type{Elem: t.Elem, Shape: append([]ir.Atom{w}, t.Shape[1:]...)}
		}
		return rebuild(r, b.let("stream", s, outTs...), outTs, 0)
	}
	var xps, yps []ir.Param
	var xas, yas []ir.Atom
	for _, t := range rts {
		x, y := ir.Param{Name: l.fresh("x"), T: t}, ir.Param{Name: l.fresh("y"), T: t}
		xps, yps = append(xps, x), append(yps, y)
		xas, yas = append(xas, ir.V(x.Name)), append(yas, ir.V(y.Name))
	}
	red, _ := l.lambda(op, append(xps, yps...), []lv{rebuild(r, xas, rts, 0), rebuild(r, yas, rts, 0)}, at)
	if err := ir.SameTypes("the operator", red.Ret, rts); err != nil {
		l.fail(at, "a stream operator whose result does not match its operands")
	}
	s.Red = red
	return rebuild(r, b.let("stream", s, rts...), rts, 0)
}

// filterWith lowers filter p xs, or, with negate, the elements for which
// p does not hold.
func (l *lowerer) filterWith(b *builder, p, xs lv, at syntax.Node) lv {
	return l.filterParts(b, p, xs, false, at)
}

// filterParts lowers filter p xs, or partition p xs (a pair: the elements
// p holds for, then the others, in one FilterE with Partition set).
func (l *lowerer) filterParts(b *builder, p, xs lv, partition bool, at syntax.Node) lv {
	arrs, w, params, elems := l.rows(b, []lv{xs}, at)
	lb := &builder{l: l}
	keep, ok := l.apply(lb, p, elems, at).(*lvAtom)
	if !ok || !keep.t.Equal(ir.Scalar(value.Bool)) {
		l.fail(at, "a filter predicate that does not return a bool")
	}
	ret := []ir.Type{keep.t}
	res := []ir.Atom{keep.a}
	for _, p := range params {
		ret = append(ret, p.T)
		res = append(res, ir.V(p.Name))
	}
	lam := &ir.Lambda{Params: params, Ret: ret, Body: &ir.Body{Stms: lb.stms, Res: res}}
	var pat []ir.Param
	var parts []lv
	for part := 0; part < 1 || partition && part < 2; part++ {
		k := ir.Param{Name: l.fresh("count"), T: ir.Scalar(value.I64)}
		pat = append(pat, k)
		var outs []ir.Atom
		var outTs []ir.Type
		for i, p := range params {
			t := p.T.ArrayOf(ir.V(k.Name))
			pat = append(pat, ir.Param{Name: l.fresh(arrs[i]), T: t})
			outs, outTs = append(outs, ir.V(pat[len(pat)-1].Name)), append(outTs, t)
		}
		parts = append(parts, rebuild(xs, outs, outTs, 0))
	}
	b.stms = append(b.stms, &ir.Stm{Pat: pat, E: &ir.FilterE{W: w, Arrs: arrs, Map: lam, Partition: partition}})
	if !partition {
		return parts[0]
	}
	return &lvTuple{elems: parts}
}
