package eval

import (
	"context"
	"testing"

	"fut/interp/syntax"
)

func TestDebugKernel(t *testing.T) {
	s := newSession(t, false)
	s.run(mandelSrc)
	for _, src := range []string{`\i -> mandel 255 (f32.i64 i * 3f32 / f32.i64 256 - 2f32) 1f32`, `\(x: f32) -> x * 3f32`, `\i -> f32.i64 i`, `\(i:i32) -> mandel 255 1f32 1f32`} {
		e, _ := syntax.ParseExpr(s.fset, "d", []byte(src))
		if s.check != nil {
			s.check.CheckExpr(e)
		}
		f, _, err := s.in.EvalExpr(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		th := s.in.newThread(context.Background())
		_, ok := th.compileFn(f, []int{1})
		t.Logf("%s: %v", src, ok)
	}
}
