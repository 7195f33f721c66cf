package eval

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The kernels' typed operators are what gen_typed.go makes.
func TestGeneratedFilesUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for gen, files := range map[string][]string{
		"gen_typed.go": {"kernel_typed_float.go", "kernel_typed_float_box.go", "kernel_typed_int.go", "kernel_typed_int_box.go"},
	} {
		dir := t.TempDir()
		if out, err := exec.Command("go", "run", gen, "-dir", dir).CombinedOutput(); err != nil {
			t.Skipf("cannot run %s: %v\n%s", gen, err, out)
		}
		for _, name := range files {
			want, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s differs from what %s generates: run go generate ./eval", name, gen)
			}
		}
	}
}
