package types

import (
	"fmt"
	"sort"
	"strings"
)

// Types print as they are written. Every String method writes into one
// builder, so printing costs the length of the text even for a sum of
// thousands of constructors, a constructor of thousands of payloads or a
// deeply nested type (concatenating the parts' strings was quadratic).

func typeString(t Type) string {
	t = renameSizes(t, printNames(t, nil))
	var b strings.Builder
	writeType(&b, t)
	return b.String()
}

func (t *Prim) String() string   { return string(t.Kind) }
func (t *Array) String() string  { return typeString(t) }
func (t *Record) String() string { return typeString(t) }
func (t *Sum) String() string    { return typeString(t) }
func (t *Arrow) String() string  { return typeString(t) }
func (t *Con) String() string    { return typeString(t) }
func (t TVar) String() string    { return typeString(t) }

func sizeInBrackets(s Size) string {
	s = resolveSize(s)
	switch s.(type) {
	case *SizeAny, SizeVar:
		return ""
	}
	return s.String()
}

// atomString prints t, parenthesised when it is not atomic.
func atomString(t Type) string {
	var b strings.Builder
	writeAtom(&b, t)
	return b.String()
}

func writeAtom(b *strings.Builder, t Type) {
	t = Resolve(t)
	paren := false
	switch t := t.(type) {
	case *Arrow, *Sum:
		paren = true
	case *Con:
		paren = len(t.Args) > 0
	}
	if paren {
		b.WriteByte('(')
		writeType(b, t)
		b.WriteByte(')')
		return
	}
	writeType(b, t)
}

func writeType(b *strings.Builder, t Type) {
	// an array's dimensions and a function's results are written in a
	// loop, not by recursion, so that their nesting costs no stack
	for {
		switch x := t.(type) {
		case *Array:
			if x.Unique {
				b.WriteByte('*')
			}
			b.WriteByte('[')
			b.WriteString(sizeInBrackets(x.Dim))
			b.WriteByte(']')
			t = x.Elem
			continue
		case *Arrow:
			var exist string
			if len(x.Exist) > 0 {
				var e strings.Builder
				e.WriteByte('?')
				for _, n := range x.Exist {
					e.WriteString("[" + n.String() + "]")
				}
				e.WriteByte('.')
				exist = e.String()
			}
			switch {
			case x.Param != nil:
				b.WriteString("(" + x.Param.Name + ": ")
				writeType(b, x.From)
				b.WriteByte(')')
			default:
				switch Resolve(x.From).(type) {
				case *Arrow, *Sum:
					writeAtom(b, x.From)
				default:
					writeType(b, x.From)
				}
			}
			b.WriteString(" -> ")
			b.WriteString(exist)
			t = x.To
			continue
		case TVar:
			if x.link != nil {
				t = x.link
				continue
			}
		}
		break
	}
	switch t := t.(type) {
	case *Prim:
		b.WriteString(string(t.Kind))
	case *Record:
		if t.IsTuple() {
			b.WriteByte('(')
			for i, f := range t.Fields {
				if i > 0 {
					b.WriteString(", ")
				}
				writeType(b, f.Type)
			}
			b.WriteByte(')')
			return
		}
		writeFields(b, t.Fields, "")
	case *Sum:
		for i, c := range t.Constrs {
			if i > 0 {
				b.WriteString(" | ")
			}
			writeConstr(b, c.Name, c.Payload)
		}
	case *Con:
		if t.Unique {
			b.WriteByte('*')
		}
		b.WriteString(t.Con.Name)
		for _, a := range t.Args {
			b.WriteByte(' ')
			if a.Type != nil {
				writeAtom(b, a.Type)
			} else {
				b.WriteString("[" + sizeInBrackets(a.Size) + "]")
			}
		}
	case TVar:
		writeTVar(b, t)
	default:
		b.WriteString(t.String())
	}
}

func writeFields(b *strings.Builder, fs []Field, more string) {
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name + ": ")
		writeType(b, f.Type)
	}
	b.WriteString(more + "}")
}

func writeConstr(b *strings.Builder, name string, payload []Type) {
	b.WriteString("#" + name)
	for _, p := range payload {
		b.WriteByte(' ')
		writeAtom(b, p)
	}
}

// writeTVar writes an unbound variable: its constraints, or ?tN.
func writeTVar(b *strings.Builder, t TVar) {
	switch {
	case t.overload != nil && len(t.overload) > 3:
		b.WriteString("(" + overloadText(t.tvar) + ")")
	case t.overload != nil:
		parts := make([]string, len(t.overload))
		for i, p := range t.overload {
			parts[i] = string(p)
		}
		b.WriteString("(" + strings.Join(parts, "|") + ")")
	case t.fields != nil:
		var fs []Field
		for n, ft := range t.fields {
			fs = append(fs, Field{n, ft})
		}
		sortFields(fs)
		writeFields(b, fs, ", ...")
	case t.constrs != nil:
		var names []string
		for n := range t.constrs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			writeConstr(b, n, t.constrs[n])
			b.WriteString(" | ")
		}
		b.WriteString("...")
	default:
		fmt.Fprintf(b, "?t%d", t.id%1000)
	}
}
