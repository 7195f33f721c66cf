package value

import (
	"io"
	"math"
	"strconv"
	"strings"
)

// Write prints v as `futhark run` does: 1i32, 3.5f64, true, [1i32, 2i32],
// empty([0][3]i32), (1i32, true), {a = 1i32}, #c 1i32.
func Write(w io.StringWriter, v Value) {
	switch v := v.(type) {
	case Prim:
		w.WriteString(PrimString(v))
	case Tuple:
		w.WriteString("(")
		for i, x := range v {
			if i > 0 {
				w.WriteString(", ")
			}
			Write(w, x)
		}
		w.WriteString(")")
	case *Record:
		if IsTupleRecord(v.Names) && len(v.Names) > 0 {
			Write(w, Tuple(v.Fields))
			return
		}
		w.WriteString("{")
		for i, x := range v.Fields {
			if i > 0 {
				w.WriteString(", ")
			}
			w.WriteString(v.Names[i] + " = ")
			Write(w, x)
		}
		w.WriteString("}")
	case *Sum:
		if len(v.Payload) == 0 {
			w.WriteString("#" + v.Constr)
			return
		}
		w.WriteString("(#" + v.Constr)
		for _, x := range v.Payload {
			w.WriteString(" ")
			Write(w, x)
		}
		w.WriteString(")")
	case Dual:
		w.WriteString("dual(")
		Write(w, v.P)
		w.WriteString(", ")
		Write(w, v.T)
		w.WriteString(")")
	case *Fun:
		if v.Name != "" {
			w.WriteString("<function " + v.Name + ">")
		} else {
			w.WriteString("<function>")
		}
	case *Array:
		writeArray(w, v)
	case nil:
		w.WriteString("<nil>")
	}
}

func writeArray(w io.StringWriter, a *Array) {
	if a.NumElems() == 0 && a.Kind != KBoxed {
		w.WriteString("empty(")
		w.WriteString(ShapeString(a.Shape))
		w.WriteString(elemTypeString(a))
		w.WriteString(")")
		return
	}
	if a.Kind == KPrim && len(a.Shape) == 1 {
		w.WriteString("[")
		n := int(a.Shape[0])
		for i := 0; i < n; i++ {
			if i > 0 {
				w.WriteString(", ")
			}
			w.WriteString(PrimString(DataGet(a.T, a.Data, i)))
		}
		w.WriteString("]")
		return
	}
	w.WriteString("[")
	for i := int64(0); i < a.Shape[0]; i++ {
		if i > 0 {
			w.WriteString(", ")
		}
		Write(w, a.Index(i))
	}
	w.WriteString("]")
}

// elemTypeString names the element type of an (empty) array.
func elemTypeString(a *Array) string {
	switch a.Kind {
	case KPrim:
		return a.T.String()
	case KTuple, KRecord:
		var parts []string
		for i, f := range a.Fields {
			s := ShapeString(f.FullShape()[len(a.Shape):]) + elemTypeString(f)
			if a.Kind == KRecord {
				s = a.Names[i] + ": " + s
			}
			parts = append(parts, s)
		}
		if a.Kind == KRecord {
			return "{" + strings.Join(parts, ", ") + "}"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return "?"
}

// PrimString prints one scalar with its type suffix.
func PrimString(p Prim) string {
	switch {
	case p.T == Bool:
		if p.B != 0 {
			return "true"
		}
		return "false"
	case p.T.IsSigned():
		return strconv.FormatInt(p.Int(), 10) + p.T.String()
	case p.T.IsUnsigned():
		return strconv.FormatUint(p.B, 10) + p.T.String()
	case p.T.IsFloat():
		return FloatString(p.Float(), p.T)
	}
	return "?"
}

// FloatString prints a float as Futhark does: 1.0f32, 2.5e-3f64, f32.nan,
// -f64.inf. Digits are the shortest that read back exactly at the type.
func FloatString(x float64, t PrimType) string {
	switch {
	case math.IsNaN(x):
		return t.String() + ".nan"
	case math.IsInf(x, 1):
		return t.String() + ".inf"
	case math.IsInf(x, -1):
		return "-" + t.String() + ".inf"
	}
	bitsz := 64
	if t != F64 {
		bitsz = 32
	}
	if t == F16 {
		// the shortest digits that round back to the same f16
		for prec := 1; prec < 10; prec++ {
			s := strconv.FormatFloat(x, 'e', prec-1, 64)
			y, _ := strconv.ParseFloat(s, 64)
			if RoundF16(y) == x {
				return haskellFloat(s) + t.String()
			}
		}
	}
	return haskellFloat(strconv.FormatFloat(x, 'e', -1, bitsz)) + t.String()
}

// haskellFloat turns Go's d.ddde±XX into Haskell's show format: fixed
// notation with at least one decimal for 0.1 ≤ |x| < 10^7, otherwise
// d.ddde-2 style.
func haskellFloat(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		digits = "0"
	}
	var out string
	switch {
	case digits == "0":
		out = "0.0"
	case exp >= -1 && exp < 7:
		if exp < 0 {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		} else if len(digits) > exp+1 {
			out = digits[:exp+1] + "." + digits[exp+1:]
		} else {
			out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		}
	default:
		frac := digits[1:]
		if frac == "" {
			frac = "0"
		}
		out = digits[:1] + "." + frac + "e" + strconv.Itoa(exp)
	}
	if neg {
		return "-" + out
	}
	return out
}
