package testrun

import (
	"fmt"
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
	rng := rand.New(rand.NewPCG(1, 2))
	var out []value.Value
	for _, t := range types {
		v, err := randomValue(rng, t)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func randomValue(rng *rand.Rand, t string) (value.Value, error) {
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
		return randomPrim(rng, pt), nil
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
		value.DataSet(a.Data, i, randomPrim(rng, pt))
	}
	return a, nil
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
