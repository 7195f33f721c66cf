package ir_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/interp/ir"
)

// Text-to-text pass tests: testdata/passes/NAME.ir holds a program, a
// comment "-- pass: P" naming the pass to run on it, and "-- args: …"
// (Futhark data) to run it on; NAME.golden holds the result's text. The
// result must verify and compute what the input computes.
func TestPassesFromText(t *testing.T) {
	files, _ := filepath.Glob("testdata/passes/*.ir")
	if len(files) == 0 {
		t.Fatal("no pass tests")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ir")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var passName, argText string
			for _, line := range strings.Split(string(src), "\n") {
				if s, ok := strings.CutPrefix(line, "-- pass: "); ok {
					passName = strings.TrimSpace(s)
				}
				if s, ok := strings.CutPrefix(line, "-- args: "); ok {
					argText = s
				}
			}
			var pass *ir.Pass
			for i := range ir.Passes {
				if ir.Passes[i].Name == passName {
					pass = &ir.Passes[i]
				}
			}
			if pass == nil {
				t.Fatalf("no pass %q", passName)
			}
			p, err := ir.Parse(string(src))
			if err != nil {
				t.Fatal(err)
			}
			if err := ir.Verify(p); err != nil {
				t.Fatal(err)
			}
			q, err := pass.Run(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := ir.Verify(q); err != nil {
				t.Fatalf("after %s: %v\n%s", passName, err, q)
			}
			checkGolden(t, "testdata/passes/"+name+".golden", q.String())
			args, err := value.Read([]byte(argText))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			want, err := ir.Eval(ctx, p, args)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ir.Eval(ctx, q, args)
			if err != nil {
				t.Fatal(err)
			}
			if !close(got, want) {
				t.Errorf("after %s: %s, before: %s", passName, value.String(got), value.String(want))
			}
		})
	}
}

// Verify rejects what the IR forbids; Parse reports bad text with a line.
func TestVerifyRejects(t *testing.T) {
	bad := map[string]string{
		"use after consume": `prog (a: [2i64]i32) : ([2i64]i32, i32) {
  let (b: [2i64]i32) = a with [0i64] = 1i32
  let (x: i32) = a[1i64]
  return (b, x)
}`,
		"type mismatch": `prog (a: f32) : (f32) {
  let (b: f32) = a + 1i32
  return (b)
}`,
		"unbound": `prog (a: f32) : (f32) {
  return (c)
}`,
		"bound twice": `prog (a: f32) : (f32) {
  let (a: f32) = a
  return (a)
}`,
		"size mismatch": `prog (a: [2i64]f32, b: [3i64]f32) : ([2i64]f32) {
  let (m: [2i64]f32) = screma 2i64 (a, b) {
    map \(x: f32, y: f32) : (f32) {
      return (x)
    }
  }
  return (m)
}`,
		"consumed in a lambda": `prog (a: [2i64]i32, b: [2i64]i32) : ([2i64]i32) {
  let (m: [2i64]i32) = screma 2i64 (a) {
    map \(x: i32) : (i32) {
      let (c: [2i64]i32) = b with [0i64] = x
      return (x)
    }
  }
  return (m)
}`,
	}
	for what, src := range bad {
		p, err := ir.Parse(src)
		if err != nil {
			t.Errorf("%s: does not parse: %v", what, err)
			continue
		}
		if err := ir.Verify(p); err == nil {
			t.Errorf("%s: Verify accepted it", what)
		}
	}
	if _, err := ir.Parse("prog (a: f32) : (f32) {\n  let (b: f32) = \n}"); err == nil || !strings.Contains(err.Error(), ":3:") {
		t.Errorf("a parse error should name line 3: %v", err)
	}
}
