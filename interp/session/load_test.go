package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A file whose evaluation fails half-way leaves nothing of itself behind,
// and what was defined before it stays.
func TestLoadFailureRollsBack(t *testing.T) {
	s, err := NewSession(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Enter(ctx, "def before = 1i32"); err != nil {
		t.Fatal(s.FormatError(err))
	}
	path := filepath.Join(t.TempDir(), "partial.fut")
	if err := os.WriteFile(path, []byte("def keep = 2i32\ndef boom = [1, 2][7]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.LoadFile(ctx, path); err == nil {
		t.Fatal("loading a file with a failing constant succeeded")
	}
	if _, err := s.EvalExpr(ctx, "keep"); err == nil {
		t.Error("a definition of the failed file is still in scope")
	}
	r, err := s.EvalExpr(ctx, "before + 1")
	if err != nil {
		t.Fatalf("the definition made before the failed load is gone: %s", s.FormatError(err))
	}
	if got := r.Value; got == nil {
		t.Fatal("no value")
	}
	// The same file, fixed, loads.
	if err := os.WriteFile(path, []byte("def keep = 2i32\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.LoadFile(ctx, path); err != nil {
		t.Fatal(s.FormatError(err))
	}
	if _, err := s.EvalExpr(ctx, "keep + before"); err != nil {
		t.Error(s.FormatError(err))
	}
}
