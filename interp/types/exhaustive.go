package types

// Exhaustiveness of match expressions, by the usefulness algorithm of
// Maranget ("Warnings for pattern matching", 2007): the cases are
// exhaustive when a wildcard is not useful after them. Tuples and records
// are single constructors; sum types and bool have finite constructor
// sets; numbers have infinitely many, so only a wildcard covers them.

import (
	"fmt"
	"sort"
	"strconv"

	"fut/interp/syntax"
)

// spat is a pattern reduced to what matters for coverage.
type spat struct {
	wild bool
	con  string // constructor, literal or "()" for a tuple or record
	args []*spat
}

var wildPat = &spat{wild: true}

func simplifyPat(p syntax.Pat) *spat {
	switch p := p.(type) {
	case *syntax.PId, *syntax.PWild:
		return wildPat
	case *syntax.PParen:
		return simplifyPat(p.P)
	case *syntax.PAttr:
		return simplifyPat(p.P)
	case *syntax.PAscript:
		return simplifyPat(p.P)
	case *syntax.PTuple:
		if len(p.Elems) == 0 {
			return wildPat
		}
		s := &spat{con: "()"}
		for _, e := range p.Elems {
			s.args = append(s.args, simplifyPat(e))
		}
		return s
	case *syntax.PRecord:
		fs := append([]*syntax.PField{}, p.Fields...)
		sort.Slice(fs, func(i, j int) bool { return fieldLess(fs[i].Name, fs[j].Name) })
		s := &spat{con: "()"}
		for _, f := range fs {
			s.args = append(s.args, simplifyPat(f.Pat))
		}
		return s
	case *syntax.PConstr:
		s := &spat{con: "#" + p.Name}
		for _, a := range p.Args {
			s.args = append(s.args, simplifyPat(a))
		}
		return s
	case *syntax.PLit:
		return &spat{con: litKey(p.Lit)}
	}
	return wildPat
}

func litKey(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.BoolLit:
		return strconv.FormatBool(e.Value)
	case *syntax.IntLit:
		if e.Value != nil {
			return "i" + e.Value.String()
		}
	case *syntax.FloatLit:
		return "f" + strconv.FormatFloat(e.Value, 'g', -1, 64)
	case *syntax.CharLit:
		return "i" + strconv.Itoa(int(e.Value))
	case *syntax.Negate:
		return "-" + litKey(e.X)
	}
	return fmt.Sprintf("%p", e)
}

// constructors gives the full set of constructors of t with their
// argument types, or ok false when the set is infinite or unknown.
func constructors(t Type) (names []string, args map[string][]Type, ok bool) {
	switch t := Resolve(t).(type) {
	case *Prim:
		if t.Kind == "bool" {
			return []string{"false", "true"}, map[string][]Type{"false": nil, "true": nil}, true
		}
	case *Sum:
		args = map[string][]Type{}
		for _, c := range t.Constrs {
			names = append(names, "#"+c.Name)
			args["#"+c.Name] = c.Payload
		}
		return names, args, true
	case *Record:
		var ts []Type
		for _, f := range t.Fields {
			ts = append(ts, f.Type)
		}
		return []string{"()"}, map[string][]Type{"()": ts}, true
	}
	return nil, nil, false
}

// useful reports whether the pattern vector q matches a value that no
// row of rows matches. ts are the column types.
func useful(rows [][]*spat, q []*spat, ts []Type) bool {
	if len(q) == 0 {
		return len(rows) == 0
	}
	if len(rows) == 0 {
		return true
	}
	head := q[0]
	var t Type
	if len(ts) > 0 {
		t = ts[0]
	}
	names, args, complete := constructors(t)
	if !head.wild {
		return useful(specialize(rows, head.con, len(head.args)), append(append([]*spat{}, head.args...), q[1:]...), append(args[head.con], tail(ts)...))
	}
	seen := map[string]int{}
	for _, r := range rows {
		if !r[0].wild {
			seen[r[0].con] = len(r[0].args)
		}
	}
	if complete && len(seen) == len(names) {
		byCon := groupRows(rows)
		for _, n := range names {
			k := len(args[n])
			wilds := make([]*spat, k)
			for i := range wilds {
				wilds[i] = wildPat
			}
			if useful(byCon.specialize(n, k), append(wilds, q[1:]...), append(append([]Type{}, args[n]...), tail(ts)...)) {
				return true
			}
		}
		return false
	}
	// Some constructor is missing: only the rows with a wildcard here can
	// cover it.
	var def [][]*spat
	for _, r := range rows {
		if r[0].wild {
			def = append(def, r[1:])
		}
	}
	return useful(def, q[1:], tail(ts))
}

func tail(ts []Type) []Type {
	if len(ts) == 0 {
		return nil
	}
	return ts[1:]
}

func specialize(rows [][]*spat, con string, arity int) [][]*spat {
	var out [][]*spat
	for _, r := range rows {
		h := r[0]
		switch {
		case h.wild:
			wilds := make([]*spat, arity)
			for i := range wilds {
				wilds[i] = wildPat
			}
			out = append(out, append(wilds, r[1:]...))
		case h.con == con && len(h.args) == arity:
			out = append(out, append(append([]*spat{}, h.args...), r[1:]...))
		}
	}
	return out
}

// rowGroups indexes rows by their first pattern, so that specializing
// them for every constructor of a sum costs the rows once, not once per
// constructor (a match of n cases over n constructors was n²).
type rowGroups struct {
	rows  [][]*spat
	byCon map[string][]int // rows whose head is the constructor
	wild  []int            // rows whose head is a wildcard
}

func groupRows(rows [][]*spat) *rowGroups {
	g := &rowGroups{rows: rows, byCon: map[string][]int{}}
	for i, r := range rows {
		if r[0].wild {
			g.wild = append(g.wild, i)
		} else {
			g.byCon[r[0].con] = append(g.byCon[r[0].con], i)
		}
	}
	return g
}

// specialize is specialize(g.rows, con, arity): the rows of con and the
// wildcard rows, merged in their order.
func (g *rowGroups) specialize(con string, arity int) [][]*spat {
	cs, ws := g.byCon[con], g.wild
	out := make([][]*spat, 0, len(cs)+len(ws))
	for len(cs) > 0 || len(ws) > 0 {
		var i int
		if len(ws) == 0 || (len(cs) > 0 && cs[0] < ws[0]) {
			i, cs = cs[0], cs[1:]
		} else {
			i, ws = ws[0], ws[1:]
		}
		r := g.rows[i]
		h := r[0]
		switch {
		case h.wild:
			wilds := make([]*spat, arity)
			for k := range wilds {
				wilds[k] = wildPat
			}
			out = append(out, append(wilds, r[1:]...))
		case len(h.args) == arity:
			out = append(out, append(append([]*spat{}, h.args...), r[1:]...))
		}
	}
	return out
}

// checkExhaustive reports the match expressions of the definition just
// checked whose cases do not cover every value.
func (c *Checker) checkExhaustive() {
	for _, m := range c.matches {
		t, ok := c.info.Types[m.X]
		if !ok {
			continue
		}
		var rows [][]*spat
		for _, cs := range m.Cases {
			rows = append(rows, []*spat{simplifyPat(cs.Pat)})
		}
		if useful(rows, []*spat{wildPat}, []Type{t}) {
			ex := ""
			if w := missing(rows, []Type{t}, 1); len(w) == 1 {
				ex = " For example: " + w[0].String() + "."
			}
			c.errorf(m.Span, "Unmatched cases in this match: its cases do not cover every value of type %s.%s", quoteT(t), ex)
		}
	}
}

// missing returns n patterns (one per column) that together match a value
// no row matches, or nil when the rows cover every value. ts are the
// column types, as far as known.
func missing(rows [][]*spat, ts []Type, n int) []*spat {
	if n == 0 {
		if len(rows) == 0 {
			return []*spat{}
		}
		return nil
	}
	var t Type
	if len(ts) > 0 {
		t = ts[0]
	}
	names, args, complete := constructors(t)
	seen := map[string]bool{}
	for _, r := range rows {
		if !r[0].wild {
			seen[r[0].con] = true
		}
	}
	if complete && len(seen) == len(names) {
		byCon := groupRows(rows)
		for _, name := range names {
			k := len(args[name])
			w := missing(byCon.specialize(name, k), append(append([]Type{}, args[name]...), tail(ts)...), k+n-1)
			if w != nil {
				return append([]*spat{{con: name, args: w[:k]}}, w[k:]...)
			}
		}
		return nil
	}
	var def [][]*spat
	for _, r := range rows {
		if r[0].wild {
			def = append(def, r[1:])
		}
	}
	w := missing(def, tail(ts), n-1)
	if w == nil {
		return nil
	}
	head := wildPat
	if complete {
		for _, name := range names {
			if !seen[name] {
				wilds := make([]*spat, len(args[name]))
				for i := range wilds {
					wilds[i] = wildPat
				}
				head = &spat{con: name, args: wilds}
				break
			}
		}
	}
	return append([]*spat{head}, w...)
}

// String prints a pattern as it would be written.
func (p *spat) String() string {
	if p.wild {
		return "_"
	}
	if p.con == "()" {
		s := "("
		for i, a := range p.args {
			if i > 0 {
				s += ", "
			}
			s += a.String()
		}
		return s + ")"
	}
	s := p.con
	for _, a := range p.args {
		if !a.wild && len(a.args) > 0 && a.con != "()" {
			s += " (" + a.String() + ")"
		} else {
			s += " " + a.String()
		}
	}
	return s
}
