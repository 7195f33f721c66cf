package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The command line as a user meets it, run through this test binary (which
// becomes fut when FUT_RUN_MAIN is set).
func init() {
	if os.Getenv("FUT_RUN_MAIN") == "1" {
		os.Args = append([]string{"fut"}, strings.Fields(os.Getenv("FUT_ARGS"))...)
		main()
		os.Exit(0)
	}
}

func runFut(t *testing.T, args string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FUT_RUN_MAIN=1", "FUT_ARGS="+args)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func TestVersionAndMissingFile(t *testing.T) {
	for _, a := range []string{"--version", "-V", "version"} {
		if out, code := runFut(t, a); code != 0 || !strings.HasPrefix(out, "fut "+version) {
			t.Errorf("fut %s: %d %q", a, code, out)
		}
	}
	out, code := runFut(t, "nonexist.fut")
	if code != 1 || !strings.Contains(out, "nonexist.fut: no such file") {
		t.Errorf("fut nonexist.fut: %d %q", code, out)
	}
	out, code = runFut(t, "frobnicate")
	if code != 2 || !strings.Contains(out, `unknown command "frobnicate"`) {
		t.Errorf("fut frobnicate: %d %q", code, out)
	}
}
