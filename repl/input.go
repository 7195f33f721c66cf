package repl

// Reading lines: readline on a terminal, a plain scanner otherwise.

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"
)

// errInterrupted is Ctrl-C at a prompt: drop the line, prompt again.
var errInterrupted = errors.New("interrupted")

type lineReader interface {
	// readLine shows prompt and returns the line typed, io.EOF at the end
	// of input (Ctrl-D on an empty line), errInterrupted on Ctrl-C.
	readLine(prompt string) (string, error)
	// saveHistory records an entry (its lines) in the history.
	saveHistory(lines []string)
	close() error
}

// plainReader reads lines from any reader; with echo, it writes each
// prompt and line it reads to out, so that out is a transcript.
type plainReader struct {
	sc      *bufio.Scanner
	out     io.Writer
	echo    bool
	prompts bool
}

func newPlainReader(in io.Reader, out io.Writer, echo, prompts bool) *plainReader {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	return &plainReader{sc: sc, out: out, echo: echo, prompts: prompts}
}

func (p *plainReader) readLine(prompt string) (string, error) {
	if p.prompts && !p.echo {
		io.WriteString(p.out, prompt)
	}
	if !p.sc.Scan() {
		if err := p.sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	line := strings.TrimRight(p.sc.Text(), "\r")
	if p.echo {
		io.WriteString(p.out, prompt+line+"\n")
	}
	return line, nil
}

func (p *plainReader) saveHistory([]string) {}
func (p *plainReader) close() error         { return nil }

// rlReader is readline on the terminal.
type rlReader struct {
	rl *readline.Instance
}

func newReadlineReader(r *REPL) (*rlReader, error) {
	if r.cfg.HistoryFile != "" {
		// A history that cannot be kept is no reason to refuse to start.
		_ = os.MkdirAll(filepath.Dir(r.cfg.HistoryFile), 0o755)
	}
	rl, err := readline.NewEx(&readline.Config{
		HistoryFile:            r.cfg.HistoryFile,
		HistoryLimit:           5000,
		HistorySearchFold:      true,
		DisableAutoSaveHistory: true,
		AutoComplete:           &completer{r: r},
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
	})
	if err != nil {
		return nil, err
	}
	return &rlReader{rl: rl}, nil
}

func (p *rlReader) readLine(prompt string) (string, error) {
	p.rl.SetPrompt(prompt)
	line, err := p.rl.Readline()
	switch {
	case err == readline.ErrInterrupt:
		return "", errInterrupted
	case err != nil:
		return "", err
	}
	return line, nil
}

// saveHistory keeps a multi-line entry as one line when joining its lines
// with spaces means the same (no -- comment would swallow the rest), so
// that the up arrow brings back the whole entry.
func (p *rlReader) saveHistory(lines []string) {
	joined := strings.Join(lines, " ")
	if len(lines) > 1 && strings.Contains(joined, "--") {
		for _, l := range lines {
			_ = p.rl.SaveHistory(l)
		}
		return
	}
	if strings.TrimSpace(joined) != "" {
		_ = p.rl.SaveHistory(joined)
	}
}

func (p *rlReader) close() error { return p.rl.Close() }

func isTerminal(f *os.File) bool { return readline.IsTerminal(int(f.Fd())) }

// terminalWidth is the number of columns of the terminal f (80 when it
// cannot be known).
func terminalWidth(f *os.File) int {
	w, _, err := readline.GetSize(int(f.Fd()))
	if err != nil || w <= 0 {
		return 80
	}
	return w
}
