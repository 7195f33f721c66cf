package types

// Range checks of literals, once their types are known.

import (
	"math"
	"math/big"

	"fut/interp/syntax"
)

var intBounds = map[syntax.PrimType][2]*big.Int{}

func init() {
	for _, b := range []struct {
		p    syntax.PrimType
		bits uint
		sign bool
	}{{"i8", 8, true}, {"i16", 16, true}, {"i32", 32, true}, {"i64", 64, true},
		{"u8", 8, false}, {"u16", 16, false}, {"u32", 32, false}, {"u64", 64, false}} {
		one := big.NewInt(1)
		if b.sign {
			max := new(big.Int).Sub(new(big.Int).Lsh(one, b.bits-1), one)
			min := new(big.Int).Neg(new(big.Int).Lsh(one, b.bits-1))
			intBounds[b.p] = [2]*big.Int{min, max}
		} else {
			intBounds[b.p] = [2]*big.Int{big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(one, b.bits), one)}
		}
	}
}

var floatMax = map[syntax.PrimType]float64{"f16": 65504, "f32": math.MaxFloat32, "f64": math.MaxFloat64}

// checkLiterals reports literals whose value does not fit their type.
func (c *Checker) checkLiterals() {
	negated := map[syntax.Expr]bool{}
	for _, e := range c.pendExprs {
		if n, ok := e.(*syntax.Negate); ok {
			x := n.X
			for {
				p, ok := x.(*syntax.Paren)
				if !ok {
					break
				}
				x = p.X
			}
			negated[x] = true
		}
	}
	for _, e := range c.pendExprs {
		p, ok := c.info.LitType(e)
		if !ok {
			continue
		}
		switch l := e.(type) {
		case *syntax.IntLit:
			if l.Value == nil || l.Suffix != "" {
				// As in Futhark, only a literal of inferred type is
				// bounds-checked: 255i8 is the bit pattern it spells.
				continue
			}
			v := l.Value
			if negated[e] {
				v = new(big.Int).Neg(v)
			}
			if b, ok := intBounds[p]; ok {
				if v.Cmp(b[0]) < 0 || v.Cmp(b[1]) > 0 {
					c.errorf(l.Span, "Literal %s out of bounds for type \"%s\" (%s to %s).", v, p, b[0], b[1])
				}
			} else if max, ok := floatMax[p]; ok {
				f, _ := new(big.Float).SetInt(v).Float64()
				if math.Abs(f) > max {
					c.errorf(l.Span, "Literal %s out of bounds for type \"%s\".", v, p)
				}
			}
		case *syntax.FloatLit:
			if l.Suffix != "" {
				continue
			}
			if max, ok := floatMax[p]; ok && (math.IsInf(l.Value, 0) || math.Abs(l.Value) > max) {
				c.errorf(l.Span, "Literal %s out of bounds for type \"%s\".", l.Text, p)
			}
		}
	}
}
