package syntax

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestHangScratch(t *testing.T) {
	dir := os.Getenv("HANGDIR")
	if dir == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(dir + "/*")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.SplitN(string(b), "\n", 2)
		s := strings.TrimSpace(lines[1])
		s = strings.TrimSuffix(strings.TrimPrefix(s, "[]byte("), ")")
		src, err := strconv.Unquote(s)
		if err != nil {
			continue
		}
		done := make(chan bool)
		go func() {
			fset := NewFileSet()
			prog, err := ParseFile(fset, "x", []byte(src))
			if err == nil {
				checkStable(prog)
			}
			ParseExpr(NewFileSet(), "e", []byte(src))
			ParseEntry(NewFileSet(), "e", []byte(src))
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("hang on %s: %q", f, src)
		}
	}
}
