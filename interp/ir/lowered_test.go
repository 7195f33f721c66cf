package ir_test

import (
	"context"
	"strings"
	"testing"

	"fut/interp/ir"
	"fut/interp/lower"
)

// Forms that lower to plans costing more than the source (a gather for a
// strided slice or a rotation, two filters for partition, index
// arithmetic for scatter_2d): their values must agree with the reference
// path at every stage, and errors must be errors on both paths.
var loweredForms = []string{
	`reverse xs`,
	`xs[1:7:2]`,
	`xs[6:1:-2]`,
	`xs[::3]`,
	`m[:, 1:]`,
	`m[1, ::-1]`,
	`m[::-1, 0]`,
	`unzip (reverse (zip xs xs))`,
	`rotate 3 xs`,
	`rotate (-2) fs`,
	`partition (> 2) xs`,
	`scatter_2d (replicate 2 (replicate 3 0i32)) [(0, 1), (1, 2), (2, 0), (-1, 0)] [1, 2, 3, 4]`,
	`reduce_by_index_2d (replicate 2 (replicate 2 0i32)) (+) 0 [(0, 0), (0, 0), (1, 1), (5, 5)] [1, 2, 3, 4]`,
	`unzip (scatter (copy ps) [0, 2] [(7, 1f32), (8, 2f32)])`,
	`let k = n / 2 in unflatten (iota (k * 2)) : [k][2]i64`,
	`iota n :> [6]i64`,
	`assert (n > 2) (n + 1)`,
	`xs == xs`,
	`xs == reverse xs`,
	`m != m`,
	`twice (\x -> x + 1) 3i32`,
	`match 3 case 3 -> 1 case _ -> 2`,
	`match (n, xs[0]) case (6, y) -> y case _ -> 0`,
	`map (\x -> match x case #a i -> i case #b -> 0) ([#a 3i32, #b, #a 4] : [](#a i32 | #b))`,
	`map (\i -> match (if i % 2 == 0 then #even i else #odd) : (#even i64 | #odd) case #even k -> k case #odd -> -1) (iota 5)`,
	`map (\x -> (if x > 2 then #big else #small) : (#big | #small)) xs |> map (\s -> s == #big)`,
	`(1, 2.0) == (1, 2.0)`,
	`"abc"`,
	`hist f64.max f64.lowest 3 [0, 1, 1] [1.0, 2.0, 3.0]`, // a negative constant operand prints and parses back
	`jvp i32.abs (-5) 3`,
	`length ""`,
}

func TestLoweredForms(t *testing.T) {
	ctx := context.Background()
	s := newSession(t, "testdata/exprs.fut")
	for _, src := range loweredForms {
		checkStages(ctx, t, s, src)
	}
}

// Checks the source makes fail on the fused path too, at the source's
// position.
func TestLoweredChecks(t *testing.T) {
	ctx := context.Background()
	s := newSession(t, "testdata/exprs.fut")
	for _, src := range []string{
		`xs[5:2]`,
		`xs[2:9]`,
		`xs[::0]`,
		`iota n :> [5]i64`,
		`assert (n > 7) n`,
		`unflatten (iota 6 :> [4 * 2]i64)`, // (iota 6) alone is a type error: 6 is not n * m
	} {
		if _, err := s.EvalExpr(ctx, src); err == nil {
			t.Errorf("%s: the reference path does not fail", src)
			continue
		}
		p, args, err := s.LowerIR(src)
		if err != nil {
			if lower.IsNotLowered(err) && strings.Contains(err.Error(), "size coercion") {
				continue
			}
			t.Errorf("%s: %v", src, err)
			continue
		}
		final, _, err := ir.Run(p, "")
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		_, err = ir.EvalAll(ctx, final, args)
		if err == nil {
			t.Errorf("%s: the fused plan does not fail:\n%s", src, final)
			continue
		}
		if ae, ok := err.(*ir.AssertError); ok && !strings.Contains(ae.Where, "<repl:") {
			t.Errorf("%s: the failure has no position: %v", src, err)
		}
	}
}
