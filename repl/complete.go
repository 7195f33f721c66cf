package repl

// Tab completion: command names after ":", file names after :load and
// :cd, option names after :set, and otherwise the (qualified) names in
// scope at the cursor.

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type completer struct{ r *REPL }

// Do implements readline.AutoCompleter: it returns the candidates' text
// beyond what is typed, and the length (in runes) of what is typed.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	typed, cands := c.r.complete(string(line[:pos]))
	n := len([]rune(typed))
	out := make([][]rune, 0, len(cands))
	for _, s := range cands {
		if strings.HasPrefix(s, typed) {
			out = append(out, []rune(s[len(typed):]))
		}
	}
	return out, n
}

// complete returns the word being completed at the end of before and
// the full candidates for it.
func (r *REPL) complete(before string) (word string, cands []string) {
	trimmed := strings.TrimLeft(before, " \t")
	if strings.HasPrefix(trimmed, ":") {
		name, arg, hasArg := strings.Cut(trimmed[1:], " ")
		if !hasArg {
			for _, n := range r.commandNames(name) {
				cands = append(cands, ":"+n+" ")
			}
			return trimmed, cands
		}
		cmd, err := r.lookupCommand(name)
		if err != nil {
			return "", nil
		}
		switch cmd.arg {
		case argNone:
			return "", nil
		case argFile, argDir:
			w := lastField(arg)
			return w, completeFiles(w, cmd.arg == argDir)
		case argCommand:
			w := lastField(arg)
			for _, n := range r.commandNames(strings.TrimPrefix(w, ":")) {
				cands = append(cands, n)
			}
			return w, cands
		case argSetting:
			if strings.Contains(strings.TrimLeft(arg, " "), " ") {
				return "", nil
			}
			w := lastField(arg)
			for _, s := range settings {
				if strings.HasPrefix(s.name, w) {
					cands = append(cands, s.name+" ")
				}
			}
			return w, cands
		case argBackend:
			w := lastField(arg)
			for _, b := range []string{"interp", "opencl", "auto"} {
				if strings.HasPrefix(b, w) {
					cands = append(cands, b)
				}
			}
			return w, cands
		}
	}
	w := identAtEnd(before)
	if w == "" {
		return "", nil
	}
	return w, r.names.completions(w)
}

func lastField(s string) string {
	if i := strings.LastIndexAny(s, " \t"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// identAtEnd is the (possibly qualified) name that before ends with.
func identAtEnd(before string) string {
	i := len(before)
	for i > 0 && (identChar(before[i-1]) || before[i-1] == '.') {
		i--
	}
	w := before[i:]
	// A name cannot start with a digit or a quote (1.5, x').
	for w != "" && (w[0] >= '0' && w[0] <= '9' || w[0] == '\'' || w[0] == '.') {
		w = w[1:]
	}
	return w
}

// completeFiles lists the files and directories whose path starts with
// w; directories end in "/". For :load, only .fut files are offered.
func completeFiles(w string, dirsOnly bool) []string {
	dir, base := filepath.Split(w)
	read := dir
	if read == "" {
		read = "."
	} else if strings.HasPrefix(read, "~/") || read == "~/" {
		if home, err := os.UserHomeDir(); err == nil {
			read = filepath.Join(home, read[1:])
		}
	}
	ents, err := os.ReadDir(read)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(read, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		switch {
		case isDir:
			out = append(out, dir+name+"/")
		case !dirsOnly && strings.HasSuffix(name, ".fut"):
			out = append(out, dir+name)
		}
	}
	sort.Strings(out)
	return out
}
