package syntax

import (
	"os"
	"testing"
)

func TestScratchPrint(t *testing.T) {
	path := os.Getenv("PPFILE")
	if path == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(path)
	fset := NewFileSet()
	prog, err := ParseFile(fset, path, src)
	if err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	os.Stdout.WriteString(Print(prog))
}
