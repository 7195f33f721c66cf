package syntax

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"
)

// dump writes a tree as a compact S-expression without positions and
// without Paren nodes, so that two texts that differ only in redundant
// parentheses dump the same: dump("a + b * c") == dump("a + (b * c)").
func dump(n any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(n))
	return b.String()
}

var (
	locType  = reflect.TypeOf(Loc{})
	spanType = reflect.TypeOf(Span{})
	bigType  = reflect.TypeOf(&big.Int{})
)

func dumpValue(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Type() == bigType {
			b.WriteString(v.Interface().(*big.Int).String())
			return
		}
		if p, ok := v.Interface().(*Paren); ok {
			dumpValue(b, reflect.ValueOf(p.X))
			return
		}
		if p, ok := v.Interface().(*PParen); ok {
			dumpValue(b, reflect.ValueOf(p.P))
			return
		}
		if p, ok := v.Interface().(*TEParen); ok {
			dumpValue(b, reflect.ValueOf(p.T))
			return
		}
		dumpValue(b, v.Elem())
	case reflect.Struct:
		t := v.Type()
		name := t.Name()
		if name == "QualName" {
			b.WriteString(v.Interface().(QualName).String())
			return
		}
		b.WriteString("(" + name)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Type == locType || f.Type == spanType || f.Name == "File" {
				continue
			}
			fv := v.Field(i)
			if fv.IsZero() {
				continue
			}
			b.WriteString(" " + f.Name + "=")
			dumpValue(b, fv)
		}
		b.WriteString(")")
	case reflect.Slice:
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(" ")
			}
			dumpValue(b, v.Index(i))
		}
		b.WriteString("]")
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	default:
		fmt.Fprint(b, v.Interface())
	}
}
