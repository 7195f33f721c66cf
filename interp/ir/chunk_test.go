package ir

import (
	"strings"
	"testing"

	"fut/eval/value"
)

// TestChunkPrograms: the chunk, init and finish programs of chunkable
// programs are well formed (Verify), and programs that cannot be chunked
// say why.
func TestChunkPrograms(t *testing.T) {
	for _, c := range []struct{ src, why string }{
		{`prog (xs: [100i64]f32, ys: [100i64]f32) : (f32) {
  let (red: f32) = screma 100i64 (xs, ys) {
    reduce \(x: f32, y: f32) : (f32) {
      let (sum: f32) = x + y
      return (sum)
    } (0f32)
    map \(a: f32, b: f32) : (f32) {
      let (prod: f32) = a * b
      return (prod)
    }
  }
  let (m: f32) = red / 100f32
  return (m)
}`, ""},
		{`prog (xs: [100i64]i32) : ([100i64]i32) {
  let (sc: [100i64]i32) = screma 100i64 (xs) index i {
    scan \(x: i32, y: i32) : (i32) {
      let (sum: i32) = x + y
      return (sum)
    } (0i32)
    map \(a: i32) : (i32) {
      let (c: i32) = conv i32 i
      let (d: i32) = a + c
      return (d)
    }
  }
  return (sc)
}`, ""},
		{`prog (is: [100i64]i32, vs: [100i64]f32) : ([256i64]f32) {
  let (h0: [256i64]f32) = replicate 256i64 0f32
  let (h: [256i64]f32) = hist h0 100i64 (vs, is) op \(x: f32, y: f32) : (f32) {
    let (sum: f32) = x + y
    return (sum)
  } (0f32) map \(v: f32, j: i32) : (i64, f32) {
    let (k: i64) = conv i64 j
    return (k, v)
  }
  return (h)
}`, ""},
		{`prog (xs: [100i64]f32) : ([100i64]f32, [100i64]f32) {
  let (a: [100i64]f32) = screma 100i64 (xs) {
    map \(x: f32) : (f32) {
      let (y: f32) = x + 1f32
      return (y)
    }
  }
  let (b: [100i64]f32) = screma 100i64 (a) {
    map \(x: f32) : (f32) {
      let (y: f32) = x * 2f32
      return (y)
    }
  }
  return (a, b)
}`, "more than one SOAC"},
	} {
		p, err := Parse(c.src)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := Chunkable(p)
		if c.why != "" {
			if err == nil || !strings.Contains(err.Error(), c.why) {
				t.Errorf("chunkable: %v, want %q", err, c.why)
			}
			continue
		}
		if err != nil {
			t.Fatalf("not chunkable: %v\n%s", err, c.src)
		}
		for _, q := range []*Prog{ch.Chunk(32), ch.Chunk(4), ch.Init(), ch.Finish()} {
			if q == nil {
				continue
			}
			if err := Verify(q); err != nil {
				t.Errorf("%v\n%s", err, q)
			}
		}
	}
}

// TestChunkableSplit: an all-pairs nest (each element's reduction over
// every element) is refused by Chunkable, and split by ChunkableSplit
// with the array given whole to every chunk under a name of its own,
// which the inner reduction reads while the outer map reads the chunk.
func TestChunkableSplit(t *testing.T) {
	src := `prog (xs: [100i64]f32) : ([100i64]f32) {
  let (out: [100i64]f32) = screma 100i64 (xs) {
    map \(x: f32) : (f32) {
      let (r: f32) = screma 100i64 (xs) {
        reduce \(a: f32, b: f32) : (f32) {
          let (s: f32) = a + b
          return (s)
        } (0f32)
        map \(y: f32) : (f32) {
          let (d: f32) = y - x
          return (d)
        }
      }
      return (r)
    }
  }
  return (out)
}`
	p, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Chunkable(p); err == nil || !strings.Contains(err.Error(), "read whole inside the SOAC") {
		t.Fatalf("Chunkable: %v, want it refused as read whole", err)
	}
	ch, err := ChunkableSplit(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Whole) != 1 || ch.Whole[0].Param != 0 {
		t.Fatalf("Whole = %+v, want xs", ch.Whole)
	}
	q := ch.Chunk(25)
	if err := Verify(q); err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	last := q.Params[len(q.Params)-1]
	if last.Name != ch.Whole[0].Name || last.T.String() != "[100i64]f32" || q.Params[0].T.String() != "[25i64]f32" {
		t.Fatalf("chunk parameters %v: want xs of the chunk, then %s whole", q.Params, ch.Whole[0].Name)
	}
	text := q.String()
	if !strings.Contains(text, "screma 25i64 (xs)") || !strings.Contains(text, "screma 100i64 ("+last.Name+")") {
		t.Errorf("the outer map should read the chunk and the inner reduction the whole:\n%s", text)
	}
}

// TestChunkLasts: the first pass of a split scan (the chunk's scan as a
// reduction by its operator, with the element's index; the operator
// keeps its right operand, associative but not commutative, so that the
// order shows) verifies, takes
// Chunk's parameters without the carries, and gives the last element of
// the chunk's scan from the neutral element, for chunks at several
// offsets.
func TestChunkLasts(t *testing.T) {
	ch := chunksOf(t, `prog (xs: [100i64]i32) : ([100i64]i32, [100i64]i32) {
  let (sc: [100i64]i32, m: [100i64]i32) = screma 100i64 (xs) index i {
    scan \(x: i32, y: i32) : (i32) {
      return (y)
    } (0i32)
    map \(a: i32) : (i32, i32) {
      let (c: i32) = conv i32 i
      let (d: i32) = a + c
      return (d, c)
    }
  }
  return (sc, m)
}`)
	const n = 32
	q, l := ch.Chunk(n), ch.ChunkLasts(n)
	if err := Verify(l); err != nil {
		t.Fatalf("%v\n%s", err, l)
	}
	if len(l.Params) != len(q.Params)-1 || len(l.Ret) != 1 || l.Ret[0].Rank() != 0 {
		t.Fatalf("ChunkLasts takes %d parameters (Chunk %d) and gives %v:\n%s", len(l.Params), len(q.Params), l.Ret, l)
	}
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = int32(i*7%11) - 5
	}
	for _, off := range []int64{0, 32, 64} {
		whole, err := EvalAll(t.Context(), q, chunkArgs(q, xs, off, 0))
		if err != nil {
			t.Fatal(err)
		}
		last, err := EvalAll(t.Context(), l, chunkArgs(l, xs, off, 0))
		if err != nil {
			t.Fatal(err)
		}
		sc := whole[0].(*value.Array)
		if want := sc.Index(n - 1); !value.Equal(last[0], want, 0) {
			t.Errorf("chunk at %d: last value %s, want %s", off, value.String(last[0]), value.String(want))
		}
	}
}

// TestChunkCarry: a chunk of a split scan takes its carry into its first
// element, so that its scan is the carry combined with the scan from the
// neutral element, with and without the element's index.
func TestChunkCarry(t *testing.T) {
	for _, index := range []string{" index i", ""} {
		body := "let (d: i32) = a * 2i32"
		if index != "" {
			body = "let (c: i32) = conv i32 i\n      let (d: i32) = a + c"
		}
		ch := chunksOf(t, `prog (xs: [100i64]i32) : ([100i64]i32) {
  let (sc: [100i64]i32) = screma 100i64 (xs)`+index+` {
    scan \(x: i32, y: i32) : (i32) {
      let (s: i32) = x + y
      return (s)
    } (0i32)
    map \(a: i32) : (i32) {
      `+body+`
      return (d)
    }
  }
  return (sc)
}`)
		const n = 16
		q := ch.Chunk(n)
		if err := Verify(q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = int32(i*5%7) - 3
		}
		run := func(carry int32) []int32 {
			out, err := EvalAll(t.Context(), q, chunkArgs(q, xs, 48, carry))
			if err != nil {
				t.Fatal(err)
			}
			return out[0].(*value.Array).Data.([]int32)
		}
		from0, from100 := run(0), run(100)
		for i := range from0 {
			if from100[i] != from0[i]+100 {
				t.Errorf("%q: element %d is %d with carry 100, %d with 0", index, i, from100[i], from0[i])
			}
		}
	}
}

// chunksOf is how the program src runs in chunks.
func chunksOf(t *testing.T, src string) *Chunks {
	t.Helper()
	p, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := Chunkable(p)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// chunkArgs are the arguments of a chunk program of one streamed i32
// array: the chunk xs, its offset off, and carry for each carry.
func chunkArgs(q *Prog, xs []int32, off int64, carry int32) []value.Value {
	var vs []value.Value
	for _, prm := range q.Params {
		switch {
		case prm.T.Rank() > 0:
			vs = append(vs, value.NewPrimArrayData(value.I32, []int64{int64(len(xs))}, xs))
		case strings.HasPrefix(prm.Name, "chunk_off"):
			vs = append(vs, value.I64Val(off))
		default:
			vs = append(vs, value.I32Val(carry))
		}
	}
	return vs
}
