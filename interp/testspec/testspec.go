// Package testspec reads the test blocks of Futhark programs, the `-- ==`
// comments that `fut test` runs.
//
// Input: the text of a .fut file. Output: a Spec, one Block per test block
// (and one per `entry:` section of a block), each with its cases. Values in
// `input { … }` and `output { … }` stay raw text (the comment markers
// removed) for the data reader in eval/value; data files named with
// `@ file` are read on demand by ReadDataFile.
//
// The format is Futhark's (futhark-test(1)). A test block is a run of
// lines that begin with `--`, the first of them `-- ==`; the comment lines
// just above it are its description. A block holds, in order:
//
//	[tags { name… }]
//	error: regex                                   a compile-time error, or
//	property: name…                                property tests, or
//	[entry: name…] case…  [structure …]  [warning: regex]
//
// and a case is
//
//	["name"] [tag…] input { values } | input @ file | random input { types }
//	                | script input { expression } | script input @ file
//	[output { values } | output @ file | auto output | error: regex]
//
// Invariants of a parsed Spec: every case has a name unique within its
// block; a block with cases has non-nil Entries (`main` when no `entry:`
// line names one; empty after an `entry:` line with no names, whose cases
// then run nowhere, as in Futhark); a block with CompileError has no
// cases. Parse accepts more than Futhark does in one respect only: tags,
// structure and warning lines may appear in any block, not just the first.
package testspec

import (
	"fmt"
	"slices"
)

// Spec is every test block of one file.
type Spec struct {
	File   string
	Blocks []*Block
}

// Block is one test block, or one `entry:` section of a block.
type Block struct {
	Line        int      // the line of its `-- ==`
	Description string   // the comment lines above `-- ==`, markers removed
	Tags        []string // from `tags { … }`; `disable` means skip the file
	Entries     []string // the entry points its cases apply to
	Cases       []*Case

	// CompileError is set when the block expects the program to fail to
	// compile; CompileErrorRegex is the regex it must match ("" for any).
	CompileError      bool
	CompileErrorRegex string

	Properties []string    // from `property: …`
	Structures []Structure // from `structure …` (not checked by fut)
	Warnings   []string    // regexes from `warning: …` (not checked by fut)
}

// InputKind says where a case's input comes from.
type InputKind int

const (
	InputValues     InputKind = iota // input { values }: Input holds the text
	InputFile                        // input @ file: InputFile holds the path
	InputRandom                      // random input { types }: Random holds them
	InputScript                      // script input { exp }: Input holds the expression
	InputScriptFile                  // script input @ file: InputFile holds the path
)

// Expect says what a case expects of the run.
type Expect int

const (
	ExpectSuccess    Expect = iota // no expected result: it must only not fail
	ExpectOutput                   // output { values }: Output holds the text
	ExpectOutputFile               // output @ file: OutputFile holds the path
	ExpectAuto                     // auto output: compare with a reference run
	ExpectError                    // error: regex, in ErrorRegex ("" for any error)
)

// Case is one input/output pair.
type Case struct {
	Line  int      // the line its input starts on
	Index int      // its number within its block, from 0
	Name  string   // the quoted name, or #Index, the file name (without .gz), or the random types
	Tags  []string // the words before `input`: compiled, nobench, random, script, no_python, …

	Compiled bool // tagged `compiled`: never run by an interpreter

	InputKind InputKind
	Input     string   // raw values or script text, between the braces
	InputFile string   // as written, relative to the .fut file
	Random    []string // the types (or primitive values) of random input

	Expect     Expect
	Output     string // raw values, between the braces
	OutputFile string // as written, relative to the .fut file
	AutoOutput bool   // Expect == ExpectAuto
	ErrorRegex string // for ExpectError; "" means any error
}

// Structure is a `structure [pipeline] { metric count … }` line. fut does
// not check these; they are kept for tools that want them.
type Structure struct {
	Pipeline string // "", "gpu", "gpu-mem", "mc", "mc-mem", "seq-mem", "internalised"
	Metrics  []Metric
}

// Metric is one `name count` pair of a structure test.
type Metric struct {
	Name  string
	Count int
}

// Error is a malformed test block, at a place in the file.
type Error struct {
	File      string
	Line, Col int // 1-based
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

// Tags are the tags of the file: those of its first block, where Futhark
// looks for them.
func (s *Spec) Tags() []string {
	if len(s.Blocks) == 0 {
		return nil
	}
	return s.Blocks[0].Tags
}

// Disabled reports whether the file is tagged `disable`.
func (s *Spec) Disabled() bool { return slices.Contains(s.Tags(), "disable") }

// Cases returns the number of cases in all blocks, counting a case once
// per entry point it applies to.
func (s *Spec) Cases() int {
	n := 0
	for _, b := range s.Blocks {
		n += len(b.Cases) * len(b.Entries)
	}
	return n
}

// HasTag reports whether the case carries tag.
func (c *Case) HasTag(tag string) bool { return slices.Contains(c.Tags, tag) }

var inputKindNames = [...]string{"values", "file", "random", "script", "script file"}
var expectNames = [...]string{"success", "output", "output file", "auto output", "error"}

func (k InputKind) String() string {
	if int(k) < len(inputKindNames) {
		return inputKindNames[k]
	}
	return fmt.Sprintf("InputKind(%d)", int(k))
}

func (e Expect) String() string {
	if int(e) < len(expectNames) {
		return expectNames[e]
	}
	return fmt.Sprintf("Expect(%d)", int(e))
}
