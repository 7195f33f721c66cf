package costs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fut/interp/syntax"
)

// SplitAlternatives splits `e1 | e2 | …` at every `|` that stands alone
// outside brackets, strings and comments: the expressions that :cost puts
// side by side. Futhark's bitwise or is the same operator, so an or at
// the top of an expression must be written in parentheses there.
func SplitAlternatives(src string) []string {
	var parts []string
	start := 0
	scanTop(src, func(i, j int) {
		if src[i:j] == "|" {
			parts = append(parts, strings.TrimSpace(src[start:i]))
			start = j
		}
	})
	return append(parts, strings.TrimSpace(src[start:]))
}

// SplitWhere takes `EXPR where a = e1, b = e2` apart: the expression and
// the inputs given for it (a sweep defines them at each size, uncosted).
// The word where and the commas count only outside brackets.
func SplitWhere(src string) (string, []Binding, error) {
	at := -1
	scanTop(src, func(i, j int) {
		if at < 0 && src[i:j] == "where" {
			at = i
		}
	})
	if at < 0 {
		return strings.TrimSpace(src), nil, nil
	}
	rest := src[at+len("where"):]
	var bs []Binding
	start := 0
	add := func(s string) error {
		b, err := ParseBinding(s)
		if err != nil {
			return err
		}
		bs = append(bs, b)
		return nil
	}
	var err error
	scanTop(rest, func(i, j int) {
		if err == nil && rest[i:j] == "," {
			err = add(rest[start:i])
			start = j
		}
	})
	if err == nil {
		err = add(rest[start:])
	}
	return strings.TrimSpace(src[:at]), bs, err
}

// scanTop calls f(i, j) for every operator (a run of operator
// characters), comma and word src[i:j] outside brackets, strings, character
// literals and comments.
func scanTop(src string, f func(i, j int)) {
	depth := 0
	isOp := func(c byte) bool { return strings.IndexByte("+-*/%=!><|&^.", c) >= 0 }
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case c == '\'' && (i == 0 || !isIdentByte(src[i-1])):
			// a character literal 'c' or '\n' (a quote after a name is part of it: x')
			if j := strings.IndexByte(src[i+1:], '\''); j >= 0 && j <= 4 {
				i += j + 1
			}
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case isOp(c) || c == ',' || isIdentByte(c):
			j := i + 1
			for j < len(src) && (isOp(c) && isOp(src[j]) || isIdentByte(c) && isIdentByte(src[j])) {
				j++
			}
			if depth == 0 {
				f(i, j)
			}
			i = j - 1
		}
	}
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '\''
}

// Substitute replaces every unqualified use of the variable v in the
// expression src by the integer n, written as a user would type it (an
// unsuffixed literal takes the type the context wants). It reports
// whether v occurs at all.
func Substitute(src, v string, n int64) (string, bool, error) {
	fset := syntax.NewFileSet()
	e, err := syntax.ParseExpr(fset, "<sweep>", []byte(src))
	if err != nil {
		return "", false, fmt.Errorf("%s", fset.FormatAll(err))
	}
	file := fset.File(e.Pos())
	var spans [][2]int
	syntax.Inspect(e, func(x syntax.Node) bool {
		if x, ok := x.(*syntax.Var); ok && len(x.Name.Quals) == 0 && x.Name.Name == v {
			spans = append(spans, [2]int{file.Offset(x.Pos()), file.Offset(x.End())})
		}
		return true
	})
	if len(spans) == 0 {
		return src, false, nil
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	lit := strconv.FormatInt(n, 10)
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(src[last:sp[0]])
		b.WriteString(lit)
		last = sp[1]
	}
	b.WriteString(src[last:])
	return b.String(), true, nil
}
