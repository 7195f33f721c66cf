package eval

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// TestCorpus runs the input/output cases of the .fut programs under the
// directory $FUT_CORPUS (e.g. a checkout of Futhark's tests) through the
// evaluator and reports how many pass. It only measures: it is skipped
// unless the variable is set, and never fails on a program's result.
func TestCorpus(t *testing.T) {
	dir := os.Getenv("FUT_CORPUS")
	if dir == "" {
		t.Skip("FUT_CORPUS not set")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".fut") {
			files = append(files, p)
		}
		return nil
	})
	if pat := os.Getenv("FUT_CORPUS_MATCH"); pat != "" {
		var keep []string
		for _, f := range files {
			if strings.Contains(f, pat) {
				keep = append(keep, f)
			}
		}
		files = keep
	}
	var pass, fail, skip int
	failures := map[string]int{}
	for _, f := range files {
		src, _ := os.ReadFile(f)
		cases := parseTestBlock(string(src))
		if len(cases) == 0 {
			skip++
			continue
		}
		p, fl, msgs := runCorpusFile(t, f, src, cases)
		pass += p
		fail += fl
		for _, m := range msgs {
			failures[m]++
			if os.Getenv("FUT_CORPUS_V") != "" {
				t.Logf("%s: %s", filepath.Base(f), m)
			}
		}
	}
	t.Logf("corpus: %d cases pass, %d fail, %d files skipped", pass, fail, skip)
	type kv struct {
		k string
		v int
	}
	var top []kv
	for k, v := range failures {
		top = append(top, kv{k, v})
	}
	for i := 0; i < len(top); i++ {
		for j := i + 1; j < len(top); j++ {
			if top[j].v > top[i].v {
				top[i], top[j] = top[j], top[i]
			}
		}
	}
	for i := 0; i < len(top) && i < 40; i++ {
		t.Logf("%4d × %s", top[i].v, top[i].k)
	}
}

type corpusCase struct {
	entry  string
	input  string
	output string
	errRe  string
}

var blockRe = regexp.MustCompile(`(?s)(input|output)\s*\{(.*?)\}`)

// parseTestBlock reads the simple input/output cases of a -- == block.
func parseTestBlock(src string) []corpusCase {
	var lines []string
	in := false
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "-- ==") {
			in = true
			continue
		}
		if in {
			if !strings.HasPrefix(l, "--") {
				in = false
				continue
			}
			lines = append(lines, strings.TrimPrefix(l, "--"))
		}
	}
	text := strings.Join(lines, "\n")
	entry := "main"
	var out []corpusCase
	var cur *corpusCase
	for _, l := range strings.Split(text, "\n") {
		tl := strings.TrimSpace(l)
		if strings.HasPrefix(tl, "entry:") {
			entry = strings.Fields(strings.TrimPrefix(tl, "entry:"))[0]
		}
		_ = tl
	}
	// tokenise: walk through "input {", "output {", "error:"
	rest := text
	for {
		i := strings.Index(rest, "input")
		if i < 0 {
			break
		}
		pre := rest[:i]
		if strings.Contains(pre, "entry:") {
			e := strings.Fields(pre[strings.LastIndex(pre, "entry:")+6:])
			if len(e) > 0 {
				entry = e[0]
			}
		}
		rest = rest[i+5:]
		lineStart := strings.LastIndex(pre, "\n")
		prefix := strings.TrimSpace(pre[lineStart+1:])
		r := strings.TrimLeft(rest, " \t\n")
		if !strings.HasPrefix(r, "{") || prefix == "random" || strings.Contains(prefix, "compiled") || strings.Contains(prefix, "script") {
			continue
		}
		end := matchBrace(r)
		if end < 0 {
			break
		}
		c := corpusCase{entry: entry, input: r[1:end]}
		rest = r[end+1:]
		r2 := strings.TrimLeft(rest, " \t\n")
		switch {
		case strings.HasPrefix(r2, "output"):
			r3 := strings.TrimLeft(r2[6:], " \t\n")
			e := matchBrace(r3)
			if e < 0 {
				continue
			}
			c.output = r3[1:e]
			rest = r3[e+1:]
		case strings.HasPrefix(r2, "error:"):
			nl := strings.Index(r2, "\n")
			if nl < 0 {
				nl = len(r2)
			}
			c.errRe = strings.TrimSpace(r2[6:nl])
			if c.errRe == "" {
				c.errRe = "."
			}
		default:
			continue
		}
		cur = &c
		out = append(out, *cur)
	}
	return out
}

func matchBrace(s string) int {
	depth := 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func runCorpusFile(t *testing.T, name string, src []byte, cases []corpusCase) (pass, fail int, msgs []string) {
	defer func() {
		if r := recover(); r != nil {
			fail += len(cases)
			msgs = append(msgs, "panic: "+short(strings.Split(strings.TrimSpace(toString(r)), "\n")[0]))
		}
	}()
	s := newSessionImporting(t, false, filepath.Dir(name))
	prog, err := syntax.ParseFile(s.fset, name, src)
	if err != nil {
		return 0, len(cases), []string{"parse error"}
	}
	var chk *types.Checker
	if s.check != nil {
		if err := s.check.CheckProgram(prog); err != nil {
			msgs = append(msgs, "type error: "+firstLine(err.Error()))
		} else {
			chk = s.check
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := s.in.EvalProgram(ctx, prog); err != nil {
		return 0, len(cases), append(msgs, "decl error: "+firstLine(err.Error()))
	}
	for _, c := range cases {
		var want []value.PrimType
		if chk != nil {
			if params, _, ok := chk.EntryPoint(c.entry); ok {
				for _, p := range params {
					want = append(want, elemPrim(p))
				}
			}
		}
		args, err := value.ReadTyped([]byte(c.input), want)
		if err != nil {
			fail++
			msgs = append(msgs, "bad input: "+firstLine(err.Error()))
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		res, _, err := s.in.CallEntry(ctx, c.entry, args)
		cancel()
		if c.errRe != "" {
			if err != nil {
				pass++
			} else {
				fail++
				msgs = append(msgs, "expected an error")
			}
			continue
		}
		if err != nil {
			fail++
			msgs = append(msgs, "run error: "+normalise(firstLine(err.Error())))
			continue
		}
		var rwant []value.PrimType
		for _, r := range res {
			if a, ok := r.(*value.Array); ok && a.Kind == value.KPrim {
				rwant = append(rwant, a.T)
			} else if p, ok := r.(value.Prim); ok {
				rwant = append(rwant, p.T)
			} else {
				rwant = append(rwant, value.NoPrim)
			}
		}
		exp, err := value.ReadTyped([]byte(c.output), rwant)
		if err != nil {
			fail++
			msgs = append(msgs, "bad output block: "+firstLine(err.Error()))
			continue
		}
		ok := len(exp) == len(res)
		for i := 0; ok && i < len(exp); i++ {
			ok = value.Equal(exp[i], res[i], value.DefaultTolerance)
		}
		if ok {
			pass++
		} else {
			fail++
			msgs = append(msgs, "wrong result")
			if os.Getenv("FUT_CORPUS_V") != "" {
				var got []string
				for _, r := range res {
					got = append(got, short(value.String(r)))
				}
				t.Logf("%s: got %s want %s", filepath.Base(name), strings.Join(got, " "), short(c.output))
			}
		}
	}
	return
}

func elemPrim(t types.Type) value.PrimType {
	for {
		switch x := types.Resolve(t).(type) {
		case *types.Array:
			t = x.Elem
			continue
		case *types.Prim:
			return value.ParsePrimType(string(x.Kind))
		}
		return value.NoPrim
	}
}

var numRe = regexp.MustCompile(`-?[0-9]+`)

func normalise(s string) string { return numRe.ReplaceAllString(s, "N") }

func firstLine(s string) string {
	if i := strings.Index(s, "\n"); i >= 0 {
		return s[:i]
	}
	return s
}

func toString(r any) string {
	if e, ok := r.(error); ok {
		return e.Error()
	}
	if s, ok := r.(string); ok {
		return s
	}
	return "panic"
}
