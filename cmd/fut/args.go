package main

import (
	"fmt"
	"strings"

	"fut/eval/value"
	"fut/interp/session"
	"fut/interp/types"
)

// Reading an entry point's arguments from stdin. Every mistake in the
// input is one line: where in the input (line:col for text, the byte for
// binary), which argument, and what was expected.

// readArgs reads the arguments of entry point entry, whose parameter
// types are params, from input.
func readArgs(input []byte, entry string, params []types.Type, opts value.ReadOptions) ([]value.Value, error) {
	want := make([]value.PrimType, len(params))
	for i, p := range params {
		want[i] = session.ElemPrim(p)
	}
	if off, ok := tooDeep(input); !ok {
		return nil, fmt.Errorf("<stdin>:%s: arrays nested more than %d deep (no type has that rank)", where(input, off), maxRank)
	}
	vals, err := value.ReadWith(input, want, opts)
	if err != nil {
		n := len(vals) + 1
		if n > len(params) {
			return nil, fmt.Errorf("<stdin>:%v (after the %d arguments of %s)", err, len(params), entry)
		}
		return nil, fmt.Errorf("<stdin>:%v (argument %d of %s, of type %s)", err, n, entry, session.TypeText(params[n-1], session.SizeNames(params)))
	}
	starts := valueStarts(input)
	at := func(i int) string {
		if i < len(starts) {
			return "<stdin>:" + where(input, starts[i])
		}
		return "<stdin>:" + where(input, len(input))
	}
	if len(vals) < len(params) {
		return nil, fmt.Errorf("%s: argument %d of %s (of type %s) is missing: the input holds %d value%s, %s takes %d",
			at(len(vals)), len(vals)+1, entry, session.TypeText(params[len(vals)], session.SizeNames(params)), len(vals), plural(len(vals)), entry, len(params))
	}
	if len(vals) > len(params) {
		return nil, fmt.Errorf("%s: %s takes %d argument%s, but the input holds %d values; this is value %d",
			at(len(params)), entry, len(params), plural(len(params)), len(vals), len(params)+1)
	}
	sizes := map[*types.SizeName]session.SizeSeen{}
	names := session.SizeNames(params)
	for i, p := range params {
		if msg := session.MatchType(vals[i], p, i, sizes, names); msg != "" {
			return nil, fmt.Errorf("%s: argument %d of %s: %s", at(i), i+1, entry, msg)
		}
	}
	return vals, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// valueStarts finds the byte offset at which each value of a data input
// begins, for messages. It understands just enough of the formats to
// skip a value; what it cannot skip ends the list.
func valueStarts(src []byte) []int {
	var starts []int
	i := 0
	for {
		i = skipSpace(src, i)
		if i >= len(src) {
			return starts
		}
		starts = append(starts, i)
		j := skipValue(src, i)
		if j <= i {
			return starts
		}
		i = j
	}
}

func skipSpace(src []byte, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case src[i] == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// skipValue returns the offset just after the value at i, or i if it
// cannot tell.
func skipValue(src []byte, i int) int {
	if src[i] == 'b' && i+1 < len(src) && src[i+1] == 2 {
		return skipBinary(src, i)
	}
	depth := 0
	j := i
	for ; j < len(src); j++ {
		c := src[j]
		switch c {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
			if depth == 0 {
				return j + 1
			}
			if depth < 0 {
				return i
			}
		case ' ', '\t', '\n', '\r', ',':
			if depth == 0 {
				return j
			}
		}
	}
	return j
}

// skipBinary skips b, version 2, rank, a 4-byte type name, the shape
// (rank 8-byte little-endian sizes) and the elements.
func skipBinary(src []byte, i int) int {
	if i+7 > len(src) {
		return i
	}
	rank := int(src[i+2])
	t := value.ParsePrimType(strings.TrimSpace(string(src[i+3 : i+7])))
	if t == value.NoPrim {
		return i
	}
	j := i + 7
	n := int64(1)
	for k := 0; k < rank; k++ {
		if j+8 > len(src) {
			return i
		}
		var d int64
		for b := 7; b >= 0; b-- {
			d = d<<8 | int64(src[j+b])
		}
		if d < 0 || d > int64(len(src)) {
			return i
		}
		n *= d
		if n > int64(len(src)) {
			return i
		}
		j += 8
	}
	size := int64(t.Bits() / 8)
	if j+int(n*size) > len(src) {
		return i
	}
	return j + int(n*size)
}

// where is line:col of a text input's offset, or "byte N" for binary.
func where(src []byte, off int) string {
	line, col := 1, 1
	for k := 0; k < off && k < len(src); k++ {
		if src[k] == 0 || src[k] == 'b' && k+1 < len(src) && src[k+1] == 2 {
			return fmt.Sprintf("byte %d", off)
		}
		if src[k] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%d:%d", line, col)
}

// maxRank is the highest rank the binary data format can state (one byte).
const maxRank = 255

// tooDeep finds the first '[' of text input nested more than maxRank
// deep, which no parameter can accept and which the reader would take a
// long time over. It skips comments and binary values.
func tooDeep(src []byte) (int, bool) {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == 'b' && i+1 < len(src) && src[i+1] == 2:
			if j := skipBinary(src, i); j > i {
				i = j - 1
			}
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '[':
			depth++
			if depth > maxRank {
				return i, false
			}
		case c == ']':
			depth--
		}
	}
	return 0, true
}
