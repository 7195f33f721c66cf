package testrun

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"fut/eval/value"
)

// randomValues makes one value for each type of a `random input` block,
// such as [100]i32 or [10][3]f32 (floats uniform in [0, 1), integers over
// their whole range, booleans either way). The generator is seeded, so a
// test run is repeatable.
func randomValues(types []string) ([]value.Value, error) {
	g := NewGenerator(1)
	var out []value.Value
	for _, t := range types {
		v, err := g.Value(t)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Generator makes random values of written types ([10][2]i32, f64, or a
// literal value, which stands for itself), as futhark dataset does: from a
// seed, within bounds per primitive type (by default the whole range of an
// integer type, [0, 1) for floats).
type Generator struct {
	rng    *rand.Rand
	bounds map[value.PrimType][2]float64
}

// NewGenerator starts a generator from seed.
func NewGenerator(seed uint64) *Generator {
	return &Generator{rng: rand.New(rand.NewPCG(seed, 2)), bounds: map[value.PrimType][2]float64{}}
}

// SetBounds bounds the values of type t to [lo, hi] (inclusive).
func (g *Generator) SetBounds(t value.PrimType, lo, hi float64) error {
	if lo > hi {
		return fmt.Errorf("bounds %g:%g of %s are empty", lo, hi, t)
	}
	g.bounds[t] = [2]float64{lo, hi}
	return nil
}

// Value generates a value of the written type t.
func (g *Generator) Value(t string) (value.Value, error) {
	rng := g.rng
	rest := strings.TrimSpace(t)
	var shape []int64
	for strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return nil, fmt.Errorf("bad random type %q", t)
		}
		n, err := strconv.ParseInt(rest[1:end], 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad size in random type %q", t)
		}
		shape = append(shape, n)
		rest = rest[end+1:]
	}
	pt := value.ParsePrimType(rest)
	if pt == value.NoPrim {
		// A literal value (random input { 10i64 }) stands for itself.
		vs, err := value.Read([]byte(t))
		if err != nil || len(vs) != 1 {
			return nil, fmt.Errorf("bad random type %q", t)
		}
		return vs[0], nil
	}
	if len(shape) == 0 {
		return g.prim(rng, pt), nil
	}
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	if n > 1<<28 {
		return nil, fmt.Errorf("random input %q is too large", t)
	}
	a := value.NewPrimArray(pt, shape)
	for i := 0; i < int(n); i++ {
		value.DataSet(a.Data, i, g.prim(rng, pt))
	}
	return a, nil
}

func (g *Generator) prim(rng *rand.Rand, t value.PrimType) value.Prim {
	if b, ok := g.bounds[t]; ok && t != value.Bool {
		lo, hi := b[0], b[1]
		if t.IsFloat() {
			return value.MkFloat(t, lo+rng.Float64()*(hi-lo))
		}
		span := uint64(int64(hi) - int64(lo) + 1)
		x := int64(lo)
		if span != 0 {
			x += int64(rng.Uint64N(span))
		} else {
			x = int64(rng.Uint64())
		}
		if t.IsSigned() {
			return value.MkInt(t, x)
		}
		return value.MkUint(t, uint64(x))
	}
	return randomPrim(rng, t)
}

func randomPrim(rng *rand.Rand, t value.PrimType) value.Prim {
	switch {
	case t == value.Bool:
		return value.MkBool(rng.IntN(2) == 1)
	case t.IsFloat():
		return value.MkFloat(t, rng.Float64())
	case t.IsSigned():
		return value.MkInt(t, int64(rng.Uint64()))
	default:
		return value.MkUint(t, rng.Uint64())
	}
}

// WriteBinary writes a random value of the written type t in the binary
// data format, a block at a time, so that an array larger than memory
// can be written (fut dataset -b); it gives the values Value would, from
// the same state. ok is false, and nothing is written, when t is not an
// array of a primitive type (Value makes those).
func (g *Generator) WriteBinary(w io.Writer, t string) (ok bool, err error) {
	rest := strings.TrimSpace(t)
	var shape []int64
	for strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return false, nil
		}
		n, err := strconv.ParseInt(rest[1:end], 10, 64)
		if err != nil || n < 0 {
			return false, nil
		}
		shape = append(shape, n)
		rest = rest[end+1:]
	}
	pt := value.ParsePrimType(rest)
	if len(shape) == 0 || pt == value.NoPrim {
		return false, nil
	}
	if err := value.WriteBinaryHeader(w, pt, shape); err != nil {
		return true, err
	}
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	const block = 1 << 20
	size := pt.Bits() / 8
	if pt == value.Bool {
		size = 1
	}
	buf := make([]byte, block*size)
	b, bounded := g.bounds[pt]
	for lo := int64(0); lo < n; lo += block {
		k := int(min(block, n-lo))
		switch { // the common cases without a test per element
		case pt == value.F32:
			base, span := 0.0, 1.0
			if bounded {
				base, span = b[0], b[1]-b[0]
			}
			for i := range k {
				x := g.rng.Float64()
				if bounded {
					x = base + x*span
				}
				binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(float32(x)))
			}
			k = -k
		case !bounded && size == 4 && !pt.IsFloat():
			for i := range k {
				binary.LittleEndian.PutUint32(buf[4*i:], uint32(g.rng.Uint64()))
			}
			k = -k
		}
		if k < 0 {
			if _, err := w.Write(buf[:-k*size]); err != nil {
				return true, err
			}
			continue
		}
		for i := range k {
			var bits uint64
			switch {
			case pt == value.Bool || pt == value.F16:
				bits = value.BitsOf(g.prim(g.rng, pt))
			case pt.IsFloat():
				x := g.rng.Float64()
				if bounded {
					x = b[0] + x*(b[1]-b[0])
				}
				if pt == value.F32 {
					bits = uint64(math.Float32bits(float32(x)))
				} else {
					bits = math.Float64bits(x)
				}
			case bounded:
				bits = value.BitsOf(g.prim(g.rng, pt))
			default:
				bits = g.rng.Uint64()
			}
			switch size {
			case 1:
				buf[i] = byte(bits)
			case 2:
				binary.LittleEndian.PutUint16(buf[2*i:], uint16(bits))
			case 4:
				binary.LittleEndian.PutUint32(buf[4*i:], uint32(bits))
			default:
				binary.LittleEndian.PutUint64(buf[8*i:], bits)
			}
		}
		if _, err := w.Write(buf[:k*size]); err != nil {
			return true, err
		}
	}
	return true, nil
}

// Snapshot is a generator that draws from the same random stream with the
// bounds set so far (later SetBounds calls on g do not change it).
func (g *Generator) Snapshot() *Generator {
	b := make(map[value.PrimType][2]float64, len(g.bounds))
	for k, v := range g.bounds {
		b[k] = v
	}
	return &Generator{rng: g.rng, bounds: b}
}
