package eval

import (
	"strings"

	"fut/eval/value"
)

// Flat kernels shared by the closures of one lambda. A lambda inside a
// map's function (map (\b -> … map (\bj -> accel b bj) bodies) bodies)
// makes a new closure for each outer element, with the same body and
// the same module-level scope, and only its captured locals differ. Its
// kernel is compiled with those captured locals as leading parameters
// instead of constants, and kept by the body's node, so that the next
// closure of the lambda loads its captured values and runs the same
// code.
//
// What the kernel resolved at compile time must be what the next closure
// would resolve: the names found in the module-level scope stay bound to
// the same values while the scope is the same (env.go: a rebinding
// starts a new level), and the captured locals are checked to be locals
// of the same layouts. A kernel that inlined a function bound to a local,
// or took a constant from a local of another closure's environment, is
// not shared: those may differ from one closure to the next.

// fcapture is a local of the compiled closure's environment that the
// kernel reads: its layout and its registers.
type fcapture struct {
	name   string
	layout *kval
	val    *kval
}

// flatShared is a kernel kept by its body's node.
type flatShared struct {
	sc      *scope
	sig     string   // the arguments' layouts
	caps    []string // the captured locals, in parameter order
	capSig  string   // their layouts
	globals []string // names the kernel found outside the locals
	k       *flatKernel
}

// captured is the kval of a local of the closure's environment (or a
// field path of one), read from registers that the call loads.
func (fc *fcomp) captured(head string, path []string) (*kval, bool) {
	var v *kval
	for _, c := range fc.caps {
		if c.name == head {
			v = c.val
		}
	}
	if v == nil {
		val, _ := fc.top.lookupLocal(head)
		l, _, ok := layoutOf(val)
		if !ok {
			return nil, false
		}
		if v = fc.instantiate(l); v == nil {
			return nil, false
		}
		fc.caps = append(fc.caps, fcapture{head, l, v})
	}
	for _, p := range path {
		var ok bool
		if v, ok = v.field(p); !ok {
			return nil, false
		}
	}
	return v, true
}

// resolved notes that the kernel looked up name in e outside its
// registers: in the closure's environment a module-level name must not be
// a local where the kernel is used again, and a local of any other
// environment makes the kernel the closure's own.
func (fc *fcomp) resolved(name string, e *env) {
	switch {
	case e.hasLocal(name):
		fc.shareable = false
	case e == fc.top && !contains(fc.globals, name):
		fc.globals = append(fc.globals, name)
	}
}

// sharedFlat finds c's kernel for the argument signature sig among those
// kept by its body, and the scalars of the locals it captures from c's
// environment; found is true for a body known not to compile (k nil).
func (t *thread) sharedFlat(c *closure, sig string) (k *flatKernel, caps []value.Prim, found bool) {
	if c.env == nil {
		return nil, nil, false
	}
next:
	for _, s := range t.in.flatNodes[c.body] {
		if s.sc != c.env.sc || s.sig != sig {
			continue
		}
		if s.k == nil {
			return nil, nil, true
		}
		var sb strings.Builder
		var ps []value.Prim
		for _, name := range s.caps {
			v, ok := c.env.lookupLocal(name)
			if !ok {
				continue next
			}
			l, vps, ok := layoutOf(v)
			if !ok {
				continue next
			}
			l.sig(&sb)
			sb.WriteByte(';')
			ps = append(ps, vps...)
		}
		if sb.String() != s.capSig {
			continue
		}
		for _, g := range s.globals {
			if c.env.hasLocal(g) {
				continue next
			}
		}
		return s.k, ps, true
	}
	return nil, nil, false
}

// share keeps k (nil: the body does not compile) by c's body for others
// of its closures, when nothing in it is particular to c.
func (t *thread) share(c *closure, sig string, fc *fcomp, k *flatKernel) {
	if !fc.shareable || c.env == nil {
		return
	}
	s := &flatShared{sc: c.env.sc, sig: sig, globals: fc.globals, k: k}
	if k != nil {
		var sb strings.Builder
		for _, cp := range fc.caps {
			s.caps = append(s.caps, cp.name)
			cp.layout.sig(&sb)
			sb.WriteByte(';')
		}
		s.capSig = sb.String()
	}
	t.in.flatNodes = bounded(t.in.flatNodes)
	list := t.in.flatNodes[c.body]
	if len(list) >= 8 {
		list = list[1:]
	}
	t.in.flatNodes[c.body] = append(list, s)
}
