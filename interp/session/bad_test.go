package session

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fut/eval/value"
)

var updateBad = flag.Bool("update-bad", false, "rewrite the -- error: lines of testdata/bad/*.fut")

// TestBadPrograms runs the corpus of bad programs in testdata/bad. Each
// file states the exact error it must give in its `-- error:` lines (the
// error as fut prints it, up to the backtrace); a program that checks is
// run: its `main` on the values of its `-- input:` line. The session's
// memory limit is 1 GiB and each program has 20 seconds.
func TestBadPrograms(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.fut")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad programs: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".fut"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, input := badHeader(string(data))
			got := badRun(t, file, input)
			if *updateBad {
				rewriteBad(t, file, string(data), got)
				return
			}
			if len(want) == 0 {
				t.Fatalf("no -- error: lines; the program gives:\n%s", strings.Join(got, "\n"))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("wrong error\nwant:\n%s\ngot:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
		})
	}
}

// badHeader reads the expected error lines and the input of a bad program.
func badHeader(src string) (want []string, input string) {
	for _, l := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(l, "-- error: "):
			want = append(want, strings.TrimPrefix(l, "-- error: "))
		case strings.HasPrefix(l, "-- input: "):
			input = strings.TrimPrefix(l, "-- input: ")
		}
	}
	return want, input
}

// badRun loads file and runs its main, and returns the error's lines up
// to the backtrace. A program that runs without an error fails the test.
func badRun(t *testing.T, file, input string) []string {
	t.Helper()
	s, err := NewSession(Options{MaxMemory: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err = s.LoadFile(ctx, file)
	if err == nil {
		params, _, ok := s.EntryPoint("main")
		if !ok {
			t.Fatalf("the program loads and has no main")
		}
		want := make([]value.PrimType, len(params))
		for i, p := range params {
			want[i] = ElemPrim(p)
		}
		args, rerr := value.ReadTyped([]byte(input), want)
		if rerr != nil {
			t.Fatalf("bad -- input: line: %v", rerr)
		}
		_, _, err = s.CallEntry(ctx, "main", args)
	}
	if err == nil {
		t.Fatalf("the program ran without an error")
	}
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		t.Fatalf("the program did not finish in 20 seconds")
	}
	checkUserError(t, s, file, err)
	msg := strings.TrimRight(s.FormatError(err), "\n")
	if i := strings.Index(msg, "\n\nBacktrace:"); i >= 0 {
		msg = msg[:i]
	}
	return strings.Split(msg, "\n")
}

// rewriteBad replaces the -- error: lines of a file, which go at its end
// so that writing them moves no position in the program.
func rewriteBad(t *testing.T, file, src string, got []string) {
	var keep []string
	for _, l := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		if !strings.HasPrefix(l, "-- error: ") {
			keep = append(keep, l)
		}
	}
	for _, g := range got {
		keep = append(keep, "-- error: "+g)
	}
	out := strings.Join(keep, "\n") + "\n"
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}
