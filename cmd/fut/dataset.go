package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"fut/eval/value"
	"fut/interp/testrun"
)

// cmdDataset is futhark dataset: random values of given types (-g TYPE,
// with --T-bounds=lo:hi and -s SEED applying to the -g after them), or,
// without -g, the values on standard input converted (text or binary in,
// --text or -b out; -t prints their types).
func cmdDataset(args []string) int {
	const use = "dataset [-b|--text] [-t] [-s SEED] [--T-bounds=LO:HI] [-g TYPE]..."
	binary, typesOnly := false, false
	seed := uint64(1)
	var gen *testrun.Generator
	var vals []value.Value
	type generate struct {
		gen *testrun.Generator
		t   string
	}
	var gens []generate // the -g values, made when written (nil in vals)
	generated := false
	bad := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "fut dataset: "+format+"\nusage: fut %s\n", append(a, use)...)
		return 2
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, bool) {
			if k := strings.IndexByte(a, '='); k >= 0 {
				return a[k+1:], true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		switch {
		case a == "-h" || a == "--help":
			fmt.Printf("usage: fut %s\n\n", use)
			fmt.Print(`Random values of the given types, as futhark dataset makes them, or the
values on standard input converted.

Flags (each applies to the -g after it):
  -g, --generate TYPE  a value of TYPE ([4][2]i32, f64, …; or a literal value, which stands for itself)
  -b, --binary         write the binary data format
  --text               write the text data format (the default)
  -t, --type           write the values' types instead of the values
  -s SEED              the random seed (default 1)
  --T-bounds=LO:HI     values of the primitive type T (i32, f64, …) between LO and HI inclusive
`)
			return 0
		case a == "-b" || a == "--binary":
			binary = true
		case a == "--text":
			binary = false
		case a == "-t" || a == "--type":
			typesOnly = true
		case a == "-s" || strings.HasPrefix(a, "-s=") || a == "--seed" || strings.HasPrefix(a, "--seed="):
			v, ok := val()
			n, err := strconv.ParseUint(v, 10, 64)
			if !ok || err != nil {
				return bad("-s takes a seed, a number")
			}
			seed, gen = n, nil
		case strings.HasPrefix(a, "--") && strings.Contains(a, "-bounds="):
			name := strings.TrimSuffix(a[2:strings.Index(a, "=")], "-bounds")
			t := value.ParsePrimType(name)
			lohi := strings.SplitN(a[strings.Index(a, "=")+1:], ":", 2)
			if t == value.NoPrim || len(lohi) != 2 {
				return bad("%s: want --T-bounds=LO:HI with T a primitive type", a)
			}
			lo, err1 := strconv.ParseFloat(lohi[0], 64)
			hi, err2 := strconv.ParseFloat(lohi[1], 64)
			if err1 != nil || err2 != nil {
				return bad("%s: the bounds are not numbers", a)
			}
			if gen == nil {
				gen = testrun.NewGenerator(seed)
			}
			if err := gen.SetBounds(t, lo, hi); err != nil {
				return bad("%v", err)
			}
		case a == "-g" || a == "--generate" || strings.HasPrefix(a, "--generate=") || strings.HasPrefix(a, "-g="):
			t, ok := val()
			if !ok {
				return bad("-g takes a type")
			}
			if gen == nil {
				gen = testrun.NewGenerator(seed)
			}
			// made when written, in order, with the bounds given so far
			gens = append(gens, generate{gen.Snapshot(), t})
			vals = append(vals, nil)
			generated = true
		default:
			return bad("unknown argument %q", a)
		}
	}
	if !generated {
		in, err := io.ReadAll(os.Stdin)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fut dataset:", err)
			return 1
		}
		vals, err = value.Read(in)
		if err != nil {
			fmt.Fprintf(os.Stderr, "fut dataset: <stdin>:%v\n", err)
			return 1
		}
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, v := range vals {
		if v == nil {
			g := gens[0]
			gens = gens[1:]
			if binary && !typesOnly {
				// written a block at a time: arrays larger than memory
				ok, err := g.gen.WriteBinary(w, g.t)
				if err != nil {
					fmt.Fprintln(os.Stderr, "fut dataset:", err)
					return 1
				}
				if ok {
					continue
				}
			}
			var err error
			if v, err = g.gen.Value(g.t); err != nil {
				fmt.Fprintf(os.Stderr, "fut dataset: %v\n", err)
				return 2
			}
		}
		switch {
		case typesOnly:
			fmt.Fprintln(w, valueTypeText(v))
		case binary:
			if err := value.WriteBinary(w, v); err != nil {
				fmt.Fprintln(os.Stderr, "fut dataset:", err)
				return 1
			}
		default:
			value.Write(w, v)
			w.WriteString("\n")
		}
	}
	return 0
}

// valueTypeText is the type of a value of the data format, as [2][3]i32.
func valueTypeText(v value.Value) string {
	switch v := v.(type) {
	case value.Prim:
		return v.T.String()
	case *value.Array:
		if v.Kind == value.KPrim {
			return value.ShapeString(v.FullShape()) + v.T.String()
		}
	}
	return "?"
}

// cmdDatacmp is futhark datacmp: whether two files hold the same values
// (floats within a small relative tolerance), and where they first differ.
func cmdDatacmp(args []string) int {
	const use = "datacmp FILE FILE"
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Printf("usage: fut %s\n\nCompare the values of two data files (text or binary); exit 1 at the first difference.\n", use)
		return 0
	}
	if len(args) != 2 {
		fmt.Fprintf(os.Stderr, "fut datacmp: two files wanted\nusage: fut %s\n", use)
		return 2
	}
	var sets [2][]value.Value
	for i, f := range args {
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fut datacmp:", err)
			return 2
		}
		if sets[i], err = value.Read(data); err != nil {
			fmt.Fprintf(os.Stderr, "fut datacmp: %s:%v\n", f, err)
			return 2
		}
	}
	if len(sets[0]) != len(sets[1]) {
		fmt.Printf("%s holds %d values, %s %d\n", args[0], len(sets[0]), args[1], len(sets[1]))
		return 1
	}
	for i := range sets[0] {
		if m := testrun.Mismatch(i, sets[0][i], sets[1][i], value.DefaultTolerance); m != "" {
			fmt.Println(m)
			return 1
		}
	}
	return 0
}
