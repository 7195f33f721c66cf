package repl

// Reading lines: readline on a terminal, a plain scanner otherwise.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

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
	// peekLine returns the next line without reading it, when that
	// needs no one to type it (input from a file or pipe); ok is false
	// otherwise, and at the end of input.
	peekLine() (line string, ok bool)
	// reprompt shows line, just read after the prompt old, as typed
	// after the prompt new instead.
	reprompt(old, new, line string)
	close() error
}

// plainReader reads lines from any reader; with echo, it writes each
// prompt and line it reads to out, so that out is a transcript.
type plainReader struct {
	sc      *bufio.Scanner
	out     io.Writer
	echo    bool
	prompts bool
	peeked  *string // a line read by peekLine and not yet by readLine
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
	line, err := p.next()
	if err != nil {
		return "", err
	}
	if p.echo {
		io.WriteString(p.out, prompt+line+"\n")
	}
	return line, nil
}

func (p *plainReader) next() (string, error) {
	if p.peeked != nil {
		l := *p.peeked
		p.peeked = nil
		return l, nil
	}
	if !p.sc.Scan() {
		if err := p.sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return strings.TrimRight(p.sc.Text(), "\r"), nil
}

// peekLine looks ahead only where no one types at a prompt: with
// prompts shown live (and not echoed), reading on would wait for a
// line the user has not been asked for.
func (p *plainReader) peekLine() (string, bool) {
	if p.prompts && !p.echo {
		return "", false
	}
	if p.peeked == nil {
		l, err := p.next()
		if err != nil {
			return "", false
		}
		p.peeked = &l
	}
	return *p.peeked, true
}

// reprompt: what a plain reader wrote stays written.
func (p *plainReader) reprompt(old, new, line string) {}

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

func (p *rlReader) peekLine() (string, bool) { return "", false }

// reprompt rewrites the screen rows of the line just typed (it may have
// wrapped) with the new prompt in front of it.
func (p *rlReader) reprompt(old, new, line string) {
	w := terminalWidth(os.Stdout)
	rows := (visibleWidth(old)+utf8.RuneCountInString(line)-1)/w + 1
	fmt.Fprintf(p.rl.Stdout(), "\x1b[%dA\r\x1b[J%s%s\n", rows, new, line)
}

// visibleWidth is the number of columns s takes, without its colour
// escapes.
func visibleWidth(s string) int {
	return utf8.RuneCountInString(ansiRE.ReplaceAllString(s, ""))
}

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

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
