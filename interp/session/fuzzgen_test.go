package session

import (
	"fmt"
	"strings"
)

// gen builds well-typed Futhark expressions from a byte string: every
// choice reads one byte, and when the bytes run out every choice is 0,
// which is always a leaf, so generation ends. The constructs cover
// arithmetic on i32, u8, f32 and f64, let, if, loops (for, for-in and
// while), tuples, records, sum types with match, in-place updates,
// scatter, hist, reduce_by_index and 1-D and 2-D arrays with the SOACs.
type gen struct {
	data []byte
	pos  int
	vars int
	// shadow enables the constructs over fuzzPathsPrelude's names
	// (FuzzPaths' session has them).
	shadow bool
}

type gtype int

const (
	tI32 gtype = iota
	tF64
	tBool
	tArrI32
	tF32
	tU8
	tArr2I32 // a regular [n][m]i32
)

func (g *gen) pick(n int) int {
	if g.pos >= len(g.data) {
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return int(b) % n
}

func (g *gen) fresh() string {
	g.vars++
	return fmt.Sprintf("v%d", g.vars)
}

func (g *gen) expr(t gtype, depth int) string {
	if depth <= 0 {
		return g.leaf(t)
	}
	d := depth - 1
	switch t {
	case tI32:
		return g.i32(d)
	case tF64:
		return g.f64(d)
	case tF32:
		return g.f32(d)
	case tU8:
		return g.u8(d)
	case tBool:
		return g.bool(d)
	case tArr2I32:
		return g.arr2(d)
	default:
		return g.arr(d)
	}
}

func (g *gen) i32(d int) string {
	if g.shadow && g.pick(4) == 0 {
		return g.shadowed(d)
	}
	switch g.pick(24) {
	case 0:
		return g.leaf(tI32)
	case 1:
		ops := []string{"+", "-", "*", "/", "%", "//", "%%", "&", "|", "^", "<<", ">>", ">>>", "**"}
		return fmt.Sprintf("(%s %s %s)", g.expr(tI32, d), ops[g.pick(len(ops))], g.expr(tI32, d))
	case 2:
		return fmt.Sprintf("(if %s then %s else %s)", g.expr(tBool, d), g.expr(tI32, d), g.expr(tI32, d))
	case 3:
		v := g.fresh()
		return fmt.Sprintf("(let %s = %s in %s + %s)", v, g.expr(tI32, d), v, g.expr(tI32, d))
	case 4:
		return fmt.Sprintf("(reduce (+) 0 %s)", g.expr(tArrI32, d))
	case 5:
		return fmt.Sprintf("(i32.f64 %s)", g.expr(tF64, d))
	case 6:
		return fmt.Sprintf("(length %s |> i32.i64)", g.expr(tArrI32, d))
	case 7: // indexing: mostly in bounds, sometimes not (a clean error)
		if g.pick(4) == 0 {
			return fmt.Sprintf("(%s)[%s]", g.expr(tArrI32, d), g.expr(tI32, d))
		}
		a := g.fresh()
		return fmt.Sprintf("(let %s = %s in if null %s then 0 else %s[i64.i32 %s %% length %s])", a, g.expr(tArrI32, d), a, a, g.expr(tI32, d), a)
	case 8:
		v, i := g.fresh(), g.fresh()
		if g.pick(3) == 0 { // the state named as the index: the state's in the body
			return fmt.Sprintf("(loop %s = %s for %s < %d do %s * 2 + 1)", v, g.expr(tI32, d), v, g.pick(20), v)
		}
		return fmt.Sprintf("(loop %s = %s for %s < %d do %s + i32.i64 %s)", v, g.expr(tI32, d), i, g.pick(20), v, i)
	case 9: // a tuple, taken apart by a pattern or by projection
		x, y := g.fresh(), g.fresh()
		if g.pick(2) == 0 {
			return fmt.Sprintf("(let (%s, %s) = (%s, %s) in %s - i32.f32 %s)", x, y, g.expr(tI32, d), g.expr(tF32, d), x, y)
		}
		return fmt.Sprintf("((%s, %s, %s).%d)", g.expr(tI32, d), g.expr(tI32, d), g.expr(tBool, d), g.pick(2))
	case 10: // a record, by field and by pattern
		x := g.fresh()
		if g.pick(2) == 0 {
			return fmt.Sprintf("({a = %s, b = %s}.%s)", g.expr(tI32, d), g.expr(tI32, d), []string{"a", "b"}[g.pick(2)])
		}
		return fmt.Sprintf("(let {a = %s, b} = {b = %s, a = %s} in %s * i32.u8 b)", x, g.expr(tU8, d), g.expr(tI32, d), x)
	case 11: // a sum type and match
		x := g.fresh()
		return fmt.Sprintf("(match (if %s then #lit %s else #pair %s %s : (#lit i32 | #pair i32 bool | #none)) case #lit %s -> %s case #pair %s true -> %s + 1 case #pair _ false -> 0 case #none -> %s)",
			g.expr(tBool, d), g.expr(tI32, d), g.expr(tI32, d), g.expr(tBool, d), x, x, x, x, g.expr(tI32, d))
	case 12: // a while loop over a tuple, bounded
		v, k := g.fresh(), g.fresh()
		return fmt.Sprintf("((loop (%s, %s) = (%s, 0i32) while %s < %d do (%s ^ (%s + %s), %s + 1)).0)",
			v, k, g.expr(tI32, d), k, g.pick(12), v, v, k, k)
	case 13: // a for-in loop over an array
		v, x := g.fresh(), g.fresh()
		if g.pick(3) == 0 { // the state named as the element: the state's in the body
			return fmt.Sprintf("(loop %s = %s for %s in %s do %s * 3 + 1)", v, g.expr(tI32, d), v, g.expr(tArrI32, d), v)
		}
		return fmt.Sprintf("(loop %s = %s for %s in %s do %s * 3 + %s)", v, g.expr(tI32, d), x, g.expr(tArrI32, d), v, x)
	case 14:
		return fmt.Sprintf("(i32.u8 %s)", g.expr(tU8, d))
	case 15:
		return fmt.Sprintf("(i32.f32 %s)", g.expr(tF32, d))
	case 16: // a 2-D array: its size and an element
		a := g.fresh()
		return fmt.Sprintf("(let %s = %s in i32.i64 (length %s) + (if length %s > 0 && length %s[0] > 0 then %s[0, length %s[0] - 1] else 7))",
			a, g.expr(tArr2I32, d), a, a, a, a, a)
	case 17:
		return fmt.Sprintf("(i32.sum (flatten %s))", g.expr(tArr2I32, d))
	case 18: // a match on literals and a tuple
		x := g.fresh()
		return fmt.Sprintf("(match (%s, %s) case (0, _) -> 1 case (%s, true) -> %s case _ -> 2)",
			g.expr(tI32, d), g.expr(tBool, d), x, x)
	case 19:
		f := g.fresh()
		return fmt.Sprintf("(let %s (x: i32) (y: i32) = x * 2 - y in %s %s %s)", f, f, g.expr(tI32, d), g.expr(tI32, d))
	case 20:
		return fmt.Sprintf("(i32.maximum %s)", g.expr(tArrI32, d))
	case 21:
		return fmt.Sprintf("(%s |> i32.bool)", g.expr(tBool, d))
	case 22:
		return fmt.Sprintf("(i32.abs %s)", g.expr(tI32, d))
	default:
		return fmt.Sprintf("(i32.min %s %s)", g.expr(tI32, d), g.expr(tI32, d))
	}
}

func (g *gen) f64(d int) string {
	switch g.pick(5) {
	case 0:
		return g.leaf(tF64)
	case 1:
		ops := []string{"+", "-", "*", "/", "**"}
		return fmt.Sprintf("(%s %s %s)", g.expr(tF64, d), ops[g.pick(len(ops))], g.expr(tF64, d))
	case 2:
		fs := []string{"f64.sqrt", "f64.log", "f64.exp", "f64.sin", "f64.abs", "f64.floor", "f64.round"}
		return fmt.Sprintf("(%s %s)", fs[g.pick(len(fs))], g.expr(tF64, d))
	case 3:
		return fmt.Sprintf("(f64.f32 %s)", g.expr(tF32, d))
	default:
		return fmt.Sprintf("(f64.i32 %s)", g.expr(tI32, d))
	}
}

func (g *gen) f32(d int) string {
	switch g.pick(5) {
	case 0:
		return g.leaf(tF32)
	case 1:
		ops := []string{"+", "-", "*", "/", "**"}
		return fmt.Sprintf("(%s %s %s)", g.expr(tF32, d), ops[g.pick(len(ops))], g.expr(tF32, d))
	case 2:
		fs := []string{"f32.sqrt", "f32.log", "f32.exp", "f32.cos", "f32.abs", "f32.ceil"}
		return fmt.Sprintf("(%s %s)", fs[g.pick(len(fs))], g.expr(tF32, d))
	case 3:
		return fmt.Sprintf("(f32.f64 %s)", g.expr(tF64, d))
	default:
		return fmt.Sprintf("(f32.i32 %s)", g.expr(tI32, d))
	}
}

func (g *gen) u8(d int) string {
	switch g.pick(4) {
	case 0:
		return g.leaf(tU8)
	case 1:
		ops := []string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"}
		return fmt.Sprintf("(%s %s %s)", g.expr(tU8, d), ops[g.pick(len(ops))], g.expr(tU8, d))
	case 2:
		return fmt.Sprintf("(u8.max %s %s)", g.expr(tU8, d), g.expr(tU8, d))
	default:
		return fmt.Sprintf("(u8.i32 %s)", g.expr(tI32, d))
	}
}

func (g *gen) bool(d int) string {
	switch g.pick(6) {
	case 0:
		return g.leaf(tBool)
	case 1:
		ops := []string{"<", "<=", "==", "!=", ">", ">="}
		return fmt.Sprintf("(%s %s %s)", g.expr(tI32, d), ops[g.pick(len(ops))], g.expr(tI32, d))
	case 2:
		return fmt.Sprintf("(%s && %s)", g.expr(tBool, d), g.expr(tBool, d))
	case 3:
		return fmt.Sprintf("(%s || !%s)", g.expr(tBool, d), g.expr(tBool, d))
	case 4:
		return fmt.Sprintf("(f32.isnan %s || %s < %s)", g.expr(tF32, d), g.expr(tF64, d), g.expr(tF64, d))
	default:
		return fmt.Sprintf("(any (> %s) %s)", g.expr(tI32, d), g.expr(tArrI32, d))
	}
}

func (g *gen) arr(d int) string {
	switch g.pick(17) {
	case 0:
		return g.leaf(tArrI32)
	case 1:
		v := g.fresh()
		return fmt.Sprintf("(map (\\%s -> %s + %s) %s)", v, v, g.expr(tI32, d), g.expr(tArrI32, d))
	case 2:
		return fmt.Sprintf("(scan (+) 0 %s)", g.expr(tArrI32, d))
	case 3:
		return fmt.Sprintf("(filter (> %s) %s)", g.expr(tI32, d), g.expr(tArrI32, d))
	case 4:
		return fmt.Sprintf("(%s ++ %s)", g.expr(tArrI32, d), g.expr(tArrI32, d))
	case 5:
		return fmt.Sprintf("(reverse %s)", g.expr(tArrI32, d))
	case 6: // an in-place update, in bounds or out
		a := g.fresh()
		return fmt.Sprintf("(let %s = copy %s in if length %s == 0 then %s else %s with [i64.i32 (%s %% i32.i64 (length %s))] = %s)",
			a, g.expr(tArrI32, d), a, a, a, g.expr(tI32, d), a, g.expr(tI32, d))
	case 7: // scatter: out-of-range indices are ignored
		s := g.fresh()
		return fmt.Sprintf("(let %s = %s in scatter (copy %s) (map i64.i32 %s) (map (*2) %s))", s, g.expr(tArrI32, d), g.expr(tArrI32, d), s, s)
	case 8: // hist with a small number of bins
		s := g.fresh()
		return fmt.Sprintf("(let %s = %s in hist (+) 0 %d (map (\\x -> i64.i32 (x %%%% 5)) %s) %s)", s, g.expr(tArrI32, d), g.pick(6), s, s)
	case 9:
		s := g.fresh()
		return fmt.Sprintf("(let %s = %s in reduce_by_index (replicate 4 0) i32.max i32.lowest (map i64.i32 %s) %s)", s, g.expr(tArrI32, d), s, s)
	case 10:
		return fmt.Sprintf("(map (reduce (+) 0) %s)", g.expr(tArr2I32, d))
	case 11:
		return fmt.Sprintf("(flatten %s)", g.expr(tArr2I32, d))
	case 12:
		a := g.fresh()
		return fmt.Sprintf("(let %s = %s in map2 (-) %s (reverse %s))", a, g.expr(tArrI32, d), a, a)
	case 13:
		return fmt.Sprintf("(map i32.u8 (map u8.i32 %s))", g.expr(tArrI32, d))
	case 14:
		a := g.fresh()
		return fmt.Sprintf("(let %s = %s in %s[%d:])", a, g.expr(tArrI32, d), a, g.pick(3))
	case 15: // a filter inside a map
		r, f := g.fresh(), g.fresh()
		return fmt.Sprintf("(map (\\%s -> let %s = filter (> 0) %s in i32.i64 (length %s) + reduce (+) 0 %s) %s)", r, f, r, f, f, g.expr(tArr2I32, d))
	default:
		return fmt.Sprintf("(map i32.i64 (iota (i64.i32 (%s %% 50))))", g.expr(tI32, d))
	}
}

func (g *gen) arr2(d int) string {
	switch g.pick(11) {
	case 0:
		return g.leaf(tArr2I32)
	case 1:
		v := g.fresh()
		return fmt.Sprintf("(map (\\%s -> map (+%s) %s) %s)", v, v, g.expr(tArrI32, d), g.expr(tArrI32, d))
	case 2:
		return fmt.Sprintf("(transpose %s)", g.expr(tArr2I32, d))
	case 3:
		return fmt.Sprintf("(replicate %d %s)", g.pick(4), g.expr(tArrI32, d))
	case 4:
		return fmt.Sprintf("(map reverse %s)", g.expr(tArr2I32, d))
	// nests the flattener distributes, scans by segments, interchanges
	// with a loop, or runs in a thread
	case 6:
		r, s, x := g.fresh(), g.fresh(), g.fresh()
		return fmt.Sprintf("(map (\\%s -> let %s = reduce (+) 0 %s in map (\\%s -> %s - %s) %s) %s)", r, s, r, x, x, s, r, g.expr(tArr2I32, d))
	case 7:
		return fmt.Sprintf("(map (scan (+) 0) %s)", g.expr(tArr2I32, d))
	case 8:
		r, i, x := g.fresh(), g.fresh(), g.fresh()
		return fmt.Sprintf("(map (\\%s -> loop %s = %s for %s < 3 do map (\\%s -> %s * 2 + i32.i64 %s) %s) %s)", r, r, r, i, x, x, i, r, g.expr(tArr2I32, d))
	case 9:
		r, x := g.fresh(), g.fresh()
		return fmt.Sprintf("(map (\\%s -> hist (+) 0 3 (map (\\%s -> i64.i32 (%s %%%% 3)) %s) %s) %s)", r, x, x, r, r, g.expr(tArr2I32, d))
	case 10:
		r, t := g.fresh(), g.fresh()
		return fmt.Sprintf("(map (\\%s -> let %s = scan (+) 0 %s in map2 (+) %s (reverse %s)) %s)", r, t, r, t, r, g.expr(tArr2I32, d))
	default:
		a := g.fresh()
		return fmt.Sprintf("(let %s = copy %s in if length %s == 0 || length %s[0] == 0 then %s else %s with [0, 0] = %s)",
			a, g.expr(tArr2I32, d), a, a, a, a, g.expr(tI32, d))
	}
}

func (g *gen) leaf(t gtype) string {
	switch t {
	case tI32:
		return fmt.Sprintf("(%di32)", g.pick(256)-128)
	case tF64:
		return fmt.Sprintf("(%d.5f64)", g.pick(100)-50)
	case tF32:
		return fmt.Sprintf("(%d.25f32)", g.pick(100)-50)
	case tU8:
		return fmt.Sprintf("%du8", g.pick(256))
	case tBool:
		return []string{"true", "false"}[g.pick(2)]
	case tArr2I32:
		if g.pick(4) == 0 {
			// a few wide rows (the flattener's segmented histograms and
			// filters take those)
			return fmt.Sprintf("(tabulate_2d %d %d (\\i j -> i32.i64 ((i * %d + j * %d) %%%% %d) - %d))",
				1+g.pick(4), []int{32, 40, 64}[g.pick(3)], g.pick(50), 1+g.pick(30), 1+g.pick(97), g.pick(60))
		}
		n, m := g.pick(3), g.pick(3)
		if n == 0 || m == 0 {
			return fmt.Sprintf("(replicate %d (replicate %d 0i32))", n, m)
		}
		rows := make([]string, n)
		for i := range rows {
			elems := make([]string, m)
			for j := range elems {
				elems[j] = fmt.Sprintf("%di32", g.pick(100)-50)
			}
			rows[i] = "[" + strings.Join(elems, ", ") + "]"
		}
		return "[" + strings.Join(rows, ", ") + "]"
	default:
		n := g.pick(5)
		elems := make([]string, n)
		for i := range elems {
			elems[i] = fmt.Sprintf("%di32", g.pick(100)-50)
		}
		if n == 0 {
			return "([] : []i32)"
		}
		return "[" + strings.Join(elems, ", ") + "]"
	}
}
