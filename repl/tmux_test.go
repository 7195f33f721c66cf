package repl

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// tmuxSession drives the fut binary in a real terminal: a tmux server of
// its own (its socket in a temporary directory), one pane 120×40.
type tmuxSession struct {
	t    *testing.T
	sock string
}

func (s *tmuxSession) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", s.sock}, args...)...).CombinedOutput()
	return string(out), err
}

func (s *tmuxSession) send(keys ...string) {
	s.t.Helper()
	if out, err := s.tmux(append([]string{"send-keys", "-t", "fut"}, keys...)...); err != nil {
		s.t.Fatalf("send-keys %q: %v\n%s", keys, err, out)
	}
}

// typeLine types text literally (no key names) and then Enter.
func (s *tmuxSession) typeLine(text string) {
	s.t.Helper()
	s.send("-l", text)
	s.send("Enter")
}

func (s *tmuxSession) screen(escapes bool) string {
	args := []string{"capture-pane", "-p", "-t", "fut"}
	if escapes {
		args = append(args, "-e")
	}
	out, _ := s.tmux(args...)
	return out
}

// poll looks at the screen every 20 ms until ok says yes or d has passed.
func (s *tmuxSession) poll(d time.Duration, ok func(screen string) bool) bool {
	deadline := time.Now().Add(d)
	for {
		if ok(s.screen(false)) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor polls the screen until ok says yes, and fails after 5 s.
func (s *tmuxSession) waitFor(what string, ok func(screen string) bool) {
	s.t.Helper()
	if !s.poll(5*time.Second, ok) {
		s.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, s.screen(false))
	}
}

// waitCount waits until text occurs at least n times on the screen.
func (s *tmuxSession) waitCount(text string, n int) {
	s.t.Helper()
	s.waitFor(fmt.Sprintf("%d× %q", n, text), func(scr string) bool { return strings.Count(scr, text) >= n })
}

// promptRE matches a main prompt at the start of a line, with what
// follows it.
var promptRE = regexp.MustCompile(`^fut ([0-9]+)> ?(.*)$`)

// atPrompt reports whether line is the main prompt numbered n (0: any)
// followed by text.
func atPrompt(line string, n int, text string) bool {
	m := promptRE.FindStringSubmatch(line)
	return m != nil && (n == 0 || m[1] == fmt.Sprint(n)) && m[2] == text
}

// lastLine is the last non-empty line of the screen.
func lastLine(scr string) string {
	lines := strings.Split(strings.TrimRight(scr, "\n "), "\n")
	return lines[len(lines)-1]
}

// TestTerminal runs fut in tmux: a multi-line entry, history with the up
// arrow, tab completion, Ctrl-C during a long evaluation, Ctrl-R, colours,
// Ctrl-D, and the history file.
func TestTerminal(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if testing.Short() {
		t.Skip("builds the fut binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "fut")
	if out, err := exec.Command("go", "build", "-o", bin, "fut/cmd/fut").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	s := &tmuxSession{t: t, sock: filepath.Join(dir, "tmux.sock")}
	config := filepath.Join(dir, "config")
	cmd := "env -u NO_COLOR TERM=xterm-256color XDG_CONFIG_HOME=" + config + " HOME=" + dir + " " + bin
	if out, err := s.tmux("new-session", "-d", "-s", "fut", "-x", "120", "-y", "40", cmd); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { s.tmux("kill-server") })
	s.waitFor("the prompt", func(scr string) bool { return atPrompt(lastLine(scr), 1, "") })

	// A definition, to check that it survives an interrupt.
	s.typeLine("def k = 7")

	// A multi-line entry: the open bracket asks for a continuation line.
	s.typeLine(`map (\x ->`)
	s.waitFor("the continuation prompt", func(scr string) bool { return strings.HasPrefix(lastLine(scr), "...") })
	s.typeLine("x + 1) [1, 2, 3]")
	s.waitCount("[2, 3, 4]", 1)

	// The up arrow brings the whole entry back as one line.
	s.send("Up")
	s.waitFor("the entry recalled", func(scr string) bool {
		l := lastLine(scr)
		return strings.HasPrefix(l, "fut 3> map (\\x ->") && strings.HasSuffix(l, "x + 1) [1, 2, 3]")
	})
	s.send("Enter")
	s.waitCount("[2, 3, 4]", 2)

	// Tab completes a module member and a command.
	s.send("-l", "f64.sqr")
	s.send("Tab")
	s.waitFor("f64.sqrt completed", func(scr string) bool { return atPrompt(lastLine(scr), 0, "f64.sqrt") })
	s.typeLine(" 16.0")
	s.waitFor("the square root", func(scr string) bool { return strings.Contains(scr, "\n4.0\n") })
	s.send("-l", ":lo")
	s.send("Tab")
	s.waitFor(":load completed", func(scr string) bool { return atPrompt(lastLine(scr), 0, ":load") })
	s.send("C-u")

	// Ctrl-C stops a long evaluation and leaves the definitions in scope.
	s.typeLine("loop x = 0 for i < 2000000000 do x + i")
	// A Ctrl-C that arrives before the line has left readline is only a
	// key press; repeat it until the evaluation reports the interrupt.
	for i := 0; ; i++ {
		time.Sleep(200 * time.Millisecond)
		s.send("C-c")
		if s.poll(500*time.Millisecond, func(scr string) bool { return strings.Contains(scr, "interrupted") }) {
			break
		}
		if i == 10 {
			t.Fatalf("Ctrl-C did not interrupt the evaluation; the screen:\n%s", s.screen(false))
		}
	}
	s.waitFor("a fresh prompt", func(scr string) bool { return atPrompt(lastLine(scr), 0, "") })
	s.typeLine("k * 6")
	s.waitCount("\n42\n", 1)

	// Ctrl-R searches the history backwards; Enter runs what it found.
	s.send("C-r")
	s.send("-l", "k *")
	s.waitFor("the search", func(scr string) bool { return strings.Contains(lastLine(scr), "search: k *") })
	s.send("Enter")
	s.waitCount("\n42\n", 2)

	// Colours: the prompt is green, an error red.
	s.typeLine("nosuchname")
	s.waitFor("the error", func(scr string) bool { return strings.Contains(strings.ToLower(scr), "unknown name") })
	colored := s.screen(true)
	if !regexp.MustCompile(`\x1b\[[0-9;]*32m[^\n]*fut [0-9]+>`).MatchString(colored) {
		t.Errorf("no green prompt in the captured pane:\n%q", colored)
	}
	if !regexp.MustCompile(`\x1b\[[0-9;]*31m[^\n]*error`).MatchString(colored) {
		t.Errorf("no red error in the captured pane:\n%q", colored)
	}

	// A long row wraps at the terminal's width, between elements, later
	// lines indented; after the window narrows, at the new width.
	for _, w := range []int{120, 50} {
		if w != 120 {
			if out, err := s.tmux("resize-window", "-t", "fut", "-x", fmt.Sprint(w)); err != nil {
				t.Fatalf("resize-window: %v\n%s", err, out)
			}
		}
		s.send("C-l") // a clean screen: only this value on it
		s.typeLine("map (* 1000) (iota 60)")
		// the whole value, first row to last, and the prompt after it: a
		// clear that lands late (a loaded machine) must not cut a row
		whole := func(scr string) bool {
			i, j := strings.Index(scr, "[    0,"), strings.Index(scr, "59000]")
			return i >= 0 && j > i && atPrompt(lastLine(scr), 0, "")
		}
		s.waitFor("the value of map (* 1000) (iota 60), then a prompt", whole)
		scr := s.screen(false)
		if !whole(scr) {
			t.Fatalf("width %d: the screen lost the value:\n%s", w, scr)
		}
		rows := strings.Split(scr[strings.Index(scr, "[    0,"):strings.Index(scr, "59000]")+len("59000]")], "\n")
		if len(rows) < 2 {
			t.Errorf("width %d: the array did not wrap:\n%s", w, scr)
		}
		for i, row := range rows {
			if len(row) > w || i > 0 && !strings.HasPrefix(row, " ") || !strings.HasSuffix(row, ",") && i < len(rows)-1 {
				t.Errorf("width %d: row %d is %q:\n%s", w, i, row, scr)
			}
		}
	}
	s.send("C-l")

	// The prompt's number is the one in messages: an entry abandoned
	// with Ctrl-C on a continuation line takes none, an entry continued
	// over lines and failing takes one.
	m := promptRE.FindStringSubmatch(lastLine(s.screen(false)))
	if m == nil {
		t.Fatalf("no prompt; the screen:\n%s", s.screen(false))
	}
	n := mustAtoi(m[1])
	s.typeLine("[1, 2,")
	s.waitFor("the continuation prompt", func(scr string) bool { return strings.HasPrefix(lastLine(scr), "...") })
	s.send("C-c")
	s.waitFor("the same number again", func(scr string) bool { return atPrompt(lastLine(scr), n, "") })
	s.typeLine("nope +")
	s.typeLine("1")
	s.waitFor("the error", func(scr string) bool { return strings.Contains(scr, fmt.Sprintf("error: <repl:%d>:1:1", n)) })
	s.waitFor("the next number", func(scr string) bool { return atPrompt(lastLine(scr), n+1, "") })

	// A declaration continued over lines goes on after a line that
	// completes it; a line typed in the first column at its continuation
	// prompt is the next entry, and is shown again at that entry's prompt.
	s.typeLine("def g3 (x: i32) =")
	s.typeLine("  x")
	s.typeLine("  + 1")
	s.waitFor("the continuation prompt", func(scr string) bool { return strings.HasPrefix(lastLine(scr), "...") })
	s.typeLine("g3 1")
	s.waitFor("g3 1 run as entry n+2", func(scr string) bool {
		return strings.Contains(scr, fmt.Sprintf("\nfut %d> g3 1\n2\n", n+2)) && atPrompt(lastLine(scr), n+3, "")
	})
	if regexp.MustCompile(`(?m)^\.\.\. +g3 1$`).MatchString(s.screen(false)) {
		t.Errorf("the line is still shown at the continuation prompt:\n%s", s.screen(false))
	}

	// Ctrl-D on an empty line leaves, and the history is kept.
	s.send("C-d")
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := s.tmux("has-session", "-t", "fut"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("fut did not exit on Ctrl-D; the screen:\n%s", s.screen(false))
		}
		time.Sleep(20 * time.Millisecond)
	}
	hist, err := os.ReadFile(filepath.Join(config, "fut", "history"))
	if err != nil {
		t.Fatalf("no history file: %v", err)
	}
	if !strings.Contains(string(hist), "k * 6") || !strings.Contains(string(hist), "x + 1) [1, 2, 3]") {
		t.Errorf("history lacks the entries typed:\n%s", hist)
	}
}
