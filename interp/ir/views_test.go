package ir_test

import (
	"context"
	"testing"

	"fut/eval/value"
	"fut/interp/ir"
)

// The marks of views, slice updates and implicit branches print, parse
// back and verify, and cost one step of their own: a gathered view (and
// the views nested in its lambda) one step, its implicit reads nothing,
// an update of a slice one step, an implicit branch nothing.
func TestViewMarksRoundTripAndCost(t *testing.T) {
	src := `prog (xs_1: [6i64]i32, ys_2: [2i64]i32) : ([3i64]i32, [6i64]i32, i32) {
  let (g_3: [3i64]i32) = gather 3i64 () index k_4 {
    map \() : (i32) {
      let (ix_5: i64) = implicit k_4 * 2i64
      let (e_6: i32) = implicit xs_1[ix_5]
      return (e_6)
    }
  }
  let (c_7: [6i64]i32) = copy xs_1
  let (u_8: [6i64]i32) = scatter_slice c_7 2i64 (ys_2) index q_9 map \(r_10: i32) : (i64, i32) {
    let (p_11: i64) = implicit q_9 + 1i64
    return (p_11, r_10)
  }
  let (b_12: bool) = implicit 3i64 == 3i64
  let (r_13: i32) = if implicit b_12 then {
    return (1i32)
  } else {
    return (2i32)
  } : (i32)
  return (g_3, u_8, r_13)
}
`
	p := parseBack(t, src)
	mk := func(vs ...int32) value.Value {
		xs := make([]value.Value, len(vs))
		for i, v := range vs {
			xs[i] = value.MkInt(value.I32, int64(v))
		}
		a, err := value.FromValues(xs, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	c, err := ir.FusedCost(context.Background(), p, []value.Value{mk(1, 2, 3, 4, 5, 6), mk(8, 9)})
	if err != nil {
		t.Fatal(err)
	}
	// the gather (1), the copy (‖xs‖ = 7 words), the update of the slice (1)
	if c.Work != 9 || c.Depth != 3 {
		t.Errorf("cost %+v, want W 9 D 3", c)
	}
}

// The marks of a tuple's later fields (copy_part, scatter_part,
// scatter_slice_part) print and parse back, and cost nothing of their own
// but a copy's words.
func TestPartMarksRoundTripAndCost(t *testing.T) {
	src := `prog (xs_1: [4i64]i32, ys_2: [4i64]i32, is_3: [2i64]i64) : ([4i64]i32, [4i64]i32) {
  let (a_4: [4i64]i32) = copy xs_1
  let (b_5: [4i64]i32) = copy_part ys_2
  let (c_6: [4i64]i32) = scatter a_4 2i64 (is_3) map \(i_7: i64) : (i64, i32) {
    return (i_7, 7i32)
  }
  let (d_8: [4i64]i32) = scatter_part b_5 2i64 (is_3) map \(i_9: i64) : (i64, i32) {
    return (i_9, 8i32)
  }
  let (e_10: [4i64]i32) = scatter_slice_part d_8 2i64 (is_3) map \(i_11: i64) : (i64, i32) {
    return (i_11, 9i32)
  }
  return (c_6, e_10)
}
`
	p := parseBack(t, src)
	arr := func(vs ...int64) value.Value {
		return value.NewPrimArrayData(value.I64, []int64{int64(len(vs))}, vs)
	}
	i32s := value.NewPrimArrayData(value.I32, []int64{4}, []int32{1, 2, 3, 4})
	c, err := ir.FusedCost(context.Background(), p, []value.Value{i32s, i32s, arr(0, 3)})
	if err != nil {
		t.Fatal(err)
	}
	// the copies' words (5 each: 4 elements and the shape), one depth;
	// the first scatter (2 elements, depth 1); the parts nothing more
	if c.Work != 12 || c.Depth != 2 {
		t.Errorf("cost %+v, want W 12 D 2", c)
	}
}

// TestHoistedChargedWhereNeeded checks the hoisted mark (Stm.Hoisted):
// its text form reads back, and a hoisted statement is charged where its
// value is first needed, once, with the hoisted statements it used; a
// loop of no iterations or a SOAC of no elements never needs it.
func TestHoistedChargedWhereNeeded(t *testing.T) {
	src := `prog (k_1: i32, n_2: i64, xs_3: [0i64]i32, ys_4: [2i64]i32) : (i32, [0i64]i32, [2i64]i32) {
  let hoisted (k2_5: i32) = k_1 * k_1
  let hoisted (k3_6: i32) = k2_5 + 1i32
  let (r_7: i32) = loop (acc_8: i32 = 0i32) for i_9 < n_2 {
    let (s_10: i32) = acc_8 + k3_6
    return (s_10)
  }
  let hoisted (e_11: i32) = k_1 - 1i32
  let (a_12: [0i64]i32) = screma 0i64 (xs_3) {
    map \(x_13: i32) : (i32) {
      let (y_14: i32) = x_13 + e_11
      return (y_14)
    }
  }
  let hoisted (f_15: i32) = k_1 + 2i32
  let (b_16: [2i64]i32) = screma 2i64 (ys_4) {
    map \(x_17: i32) : (i32) {
      let (y_18: i32) = x_17 * f_15
      return (y_18)
    }
  }
  return (r_7, a_12, b_16)
}
`
	p := parseBack(t, src)
	empty := value.NewPrimArrayData(value.I32, []int64{0}, []int32{})
	two := value.NewPrimArrayData(value.I32, []int64{2}, []int32{5, 6})
	for _, c := range []struct {
		n    int64
		w, d int64
	}{
		// no iterations: k2 and k3 never charged; the empty map (1, 1)
		// without e; the map of two, 2 + 2 instances + f in the first
		// (depth 1 + 2)
		{0, 6, 4},
		// three iterations (2 each), the first also charging k2 and k3
		{3, 14, 12},
	} {
		got, err := ir.FusedCost(context.Background(), p, []value.Value{value.I32Val(3), value.I64Val(c.n), empty, two})
		if err != nil {
			t.Fatal(err)
		}
		if got.Work != c.w || got.Depth != c.d {
			t.Errorf("n = %d: cost %+v, want W %d D %d", c.n, got, c.w, c.d)
		}
	}
}

// parseBack parses src, verifies it and checks that it prints back as
// src (the marks included).
func parseBack(t *testing.T, src string) *ir.Prog {
	t.Helper()
	p, err := ir.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(p); err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != src {
		t.Errorf("printed back differently:\n%s\nwant\n%s", got, src)
	}
	return p
}
