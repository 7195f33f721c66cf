package testspec

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func mustParse(t *testing.T, src string) *Spec {
	t.Helper()
	s, err := Parse([]byte(src), "t.fut")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

func TestSimpleBlock(t *testing.T) {
	s := mustParse(t, `-- Sums an array.
-- ==
-- tags { small fast }
-- input { [1, 2, 3] 4i64 }
-- output { 10 }
-- input { [] }
-- error: index out of bounds
-- compiled input { [1,
--                   2] }
-- output {
--   3
-- }

def main (xs: []i32) = 0
`)
	if len(s.Blocks) != 1 {
		t.Fatalf("got %d blocks, want 1", len(s.Blocks))
	}
	b := s.Blocks[0]
	if b.Line != 2 || b.Description != "Sums an array." {
		t.Errorf("line %d, description %q", b.Line, b.Description)
	}
	if !reflect.DeepEqual(b.Tags, []string{"small", "fast"}) || !reflect.DeepEqual(s.Tags(), b.Tags) {
		t.Errorf("tags %q", b.Tags)
	}
	if !reflect.DeepEqual(b.Entries, []string{"main"}) {
		t.Errorf("entries %q, want main", b.Entries)
	}
	if len(b.Cases) != 3 {
		t.Fatalf("got %d cases, want 3", len(b.Cases))
	}
	c0, c1, c2 := b.Cases[0], b.Cases[1], b.Cases[2]
	if c0.Name != "#0" || c0.InputKind != InputValues || c0.Input != "[1, 2, 3] 4i64" || c0.Expect != ExpectOutput || c0.Output != "10" || c0.Line != 4 {
		t.Errorf("case 0: %+v", c0)
	}
	if c1.Name != "#1" || c1.Input != "[]" || c1.Expect != ExpectError || c1.ErrorRegex != "index out of bounds" {
		t.Errorf("case 1: %+v", c1)
	}
	if !c2.Compiled || c2.Input != "[1,\n                   2]" || c2.Output != "3" || c2.Line != 8 {
		t.Errorf("case 2: %+v", c2)
	}
	if s.Cases() != 3 || s.Disabled() {
		t.Errorf("Cases() = %d, Disabled() = %v", s.Cases(), s.Disabled())
	}
}

func TestKindsOfInputAndOutput(t *testing.T) {
	s := mustParse(t, `-- ==
-- entry: f g
-- input @ data/a.in output @ data/a.out.gz
-- random input { [100]i32 [10][3]f32 7i64 (i32, f32) } auto output
-- "named" nobench input { 1 }
-- script input { mk 10 } output { 2 }
-- script input @ gen.futharkscript
-- input { }
-- structure gpu { SegMap 1 /Index 2 }
-- warning: unused
`)
	b := s.Blocks[0]
	if !reflect.DeepEqual(b.Entries, []string{"f", "g"}) {
		t.Errorf("entries %q", b.Entries)
	}
	want := []struct {
		name   string
		kind   InputKind
		expect Expect
	}{
		{"data/a.in", InputFile, ExpectOutputFile},
		{"[100]i32 [10][3]f32 7i64 (i32, f32)", InputRandom, ExpectAuto},
		{"named", InputValues, ExpectSuccess},
		{"mk 10", InputScript, ExpectOutput},
		{"gen.futharkscript", InputScriptFile, ExpectSuccess},
		{"#5", InputValues, ExpectSuccess},
	}
	if len(b.Cases) != len(want) {
		t.Fatalf("got %d cases, want %d", len(b.Cases), len(want))
	}
	for i, w := range want {
		c := b.Cases[i]
		if c.Name != w.name || c.InputKind != w.kind || c.Expect != w.expect || c.Index != i {
			t.Errorf("case %d: name %q kind %v expect %v index %d; want %q %v %v", i, c.Name, c.InputKind, c.Expect, c.Index, w.name, w.kind, w.expect)
		}
	}
	if c := b.Cases[0]; c.InputFile != "data/a.in" || c.OutputFile != "data/a.out.gz" {
		t.Errorf("files %q %q", c.InputFile, c.OutputFile)
	}
	if r := b.Cases[1].Random; !reflect.DeepEqual(r, []string{"[100]i32", "[10][3]f32", "7i64", "(i32, f32)"}) {
		t.Errorf("random %q", r)
	}
	if !b.Cases[1].AutoOutput || !b.Cases[2].HasTag("nobench") {
		t.Errorf("auto output or nobench tag lost")
	}
	if len(b.Structures) != 1 || b.Structures[0].Pipeline != "gpu" ||
		!reflect.DeepEqual(b.Structures[0].Metrics, []Metric{{"SegMap", 1}, {"/Index", 2}}) {
		t.Errorf("structures %+v", b.Structures)
	}
	if !reflect.DeepEqual(b.Warnings, []string{"unused"}) {
		t.Errorf("warnings %q", b.Warnings)
	}
	if s.Cases() != 12 {
		t.Errorf("Cases() = %d, want 12 (6 cases, 2 entries)", s.Cases())
	}
}

func TestSeveralBlocks(t *testing.T) {
	s := mustParse(t, `-- ==
-- tags { disable }
-- entry: inc
-- input { 1 } output { 2 }
entry inc (x: i32) = x + 1

-- A comment, not a block: == is not alone on its line.
-- a == b

-- Decrement.
-- ==
-- entry: dec
-- input { 1 } output { 0 }
-- entry: dec2
-- input { 2 } output { 1 }
entry dec (x: i32) = x - 1
`)
	if len(s.Blocks) != 3 {
		t.Fatalf("got %d blocks, want 3", len(s.Blocks))
	}
	if !s.Disabled() {
		t.Errorf("tag disable not seen")
	}
	for i, want := range []string{"inc", "dec", "dec2"} {
		if b := s.Blocks[i]; len(b.Entries) != 1 || b.Entries[0] != want || len(b.Cases) != 1 || b.Cases[0].Name != "#0" {
			t.Errorf("block %d: entries %q, %d cases", i, b.Entries, len(b.Cases))
		}
	}
	if s.Blocks[1].Description != "Decrement." || s.Blocks[1].Line != 11 || s.Blocks[2].Line != 11 {
		t.Errorf("block 1: line %d, description %q", s.Blocks[1].Line, s.Blocks[1].Description)
	}
}

func TestCompileErrorAndProperties(t *testing.T) {
	s := mustParse(t, "-- ==\n-- error: Causality check\ndef main = 0\n")
	b := s.Blocks[0]
	if !b.CompileError || b.CompileErrorRegex != "Causality check" || len(b.Cases) != 0 {
		t.Errorf("block %+v", b)
	}
	s = mustParse(t, "-- ==\n-- error:\n")
	if b := s.Blocks[0]; !b.CompileError || b.CompileErrorRegex != "" {
		t.Errorf("any-error block %+v", b)
	}
	s = mustParse(t, "-- ==\n-- property: p1 p2\n-- property: p3\n")
	if p := s.Blocks[0].Properties; !reflect.DeepEqual(p, []string{"p1", "p2", "p3"}) {
		t.Errorf("properties %q", p)
	}
	s = mustParse(t, "def main = 1\n")
	if len(s.Blocks) != 0 {
		t.Errorf("a file without blocks gave %d", len(s.Blocks))
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"-- ==\n-- input { 1 \n", "t.fut:2:10: unclosed { after input"},
		{"-- ==\n-- input 1\n", "t.fut:2:10: expected { after input"},
		{"-- ==\n-- output { 1 }\n", "t.fut:2:4: output before any input"},
		{"-- ==\n-- input { 1 } output { 2 }\n--   hello\n", `t.fut:3:6: expected input after "hello"`},
		{"-- ==\n-- input { 1 }\n-- input { 2 } auto\n", "t.fut:3:20: expected output after auto"},
		{"-- ==\n-- \"a\" input { 1 }\n-- \"a\" input { 2 }\n", `t.fut:3:4: a second case named "a" (the first is on line 2)`},
		{"-- ==\n-- error: x\n-- input { 1 }\n", `t.fut:3:4: unexpected "input" after a compile-time error: the block must end there`},
		{"-- ==\n-- error: x\ndef f = 1\n-- ==\n-- input { 1 }\n", "t.fut:4:1: a test block after the one on line 1, which expects a compile error"},
		{"-- ==\n-- random input @ x.in\n", "t.fut:2:17: random input cannot come from a file"},
		{"-- ==\n-- entry: f\n-- foo: bar\n", "t.fut:3:4: unexpected foo: before input"},
		{"-- ==\n-- input { 1 } }\n", `t.fut:2:16: unexpected "}" in a test block: expected input`},
		{"-- ==\n-- structure { Map }\n", "t.fut:2:14: a structure test needs pairs of a name and a count"},
		{"-- ==\n-- \"open input { 1 }\n", "t.fut:2:4: unterminated case name"},
	} {
		_, err := Parse([]byte(tc.src), "t.fut")
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.src, tc.want)
			continue
		}
		if _, ok := err.(*Error); !ok || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

func TestReadDataFile(t *testing.T) {
	dir := t.TempDir()
	fut := filepath.Join(dir, "prog.fut")
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "plain.in"), []byte("1 2 3"), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("[4, 5]"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "data", "packed.out.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"data/plain.in": "1 2 3", "data/packed.out.gz": "[4, 5]"} {
		got, err := ReadDataFile(fut, name)
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := ReadDataFile(fut, "data/missing.in"); err == nil {
		t.Errorf("a missing file gave no error")
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDataFile(fut, "bad.gz"); err == nil || !strings.Contains(err.Error(), "bad.gz") {
		t.Errorf("a corrupt .gz gave %v", err)
	}
}

func TestMatchError(t *testing.T) {
	for _, tc := range []struct {
		regex, msg string
		want       bool
	}{
		{"", "anything", true},
		{`Index \[-1\]`, "Error: Index [-1] out of bounds", true},
		{"out of bounds.*line 3", "out of bounds\nat line 3", true},
		{"^Error$", "An Error", false},
		{"Dup", "duplicate", false},
	} {
		got, err := MatchError(tc.regex, tc.msg)
		if err != nil || got != tc.want {
			t.Errorf("MatchError(%q, %q) = %v, %v; want %v", tc.regex, tc.msg, got, err, tc.want)
		}
	}
	if _, err := MatchError("(", "x"); err == nil {
		t.Errorf("a bad regex gave no error")
	}
}
