package testspec

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Parse reads every test block of src, the text of the file filename
// (used in positions and nothing else). A file without test blocks gives
// a Spec with no blocks. The first malformed block stops the parse with
// an *Error that gives its place.
func Parse(src []byte, filename string) (*Spec, error) {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	spec := &Spec{File: filename}
	prevEnd := 0 // the first line after the previous block
	compileErrorLine := 0
	for i := 0; i < len(lines); i++ {
		if !isBlockStart(lines[i]) {
			continue
		}
		// The description is the run of comment lines just above.
		d := i
		for d > prevEnd && strings.HasPrefix(lines[d-1], "--") {
			d--
		}
		var desc []string
		for _, l := range lines[d:i] {
			desc = append(desc, strings.TrimSpace(strings.TrimPrefix(l, "--")))
		}
		end := i + 1
		for end < len(lines) && strings.HasPrefix(lines[end], "--") {
			end++
		}
		if compileErrorLine > 0 {
			return nil, &Error{filename, i + 1, 1, fmt.Sprintf("a test block after the one on line %d, which expects a compile error", compileErrorLine)}
		}
		p := newParser(filename, lines[i+1:end], i+2)
		blocks, err := p.block(i+1, strings.Join(desc, "\n"))
		if err != nil {
			return nil, err
		}
		for _, b := range blocks {
			if b.CompileError {
				compileErrorLine = b.Line
			}
		}
		spec.Blocks = append(spec.Blocks, blocks...)
		prevEnd, i = end, end-1
	}
	return spec, nil
}

// isBlockStart reports whether a line opens a test block: `--`, spaces, `==`.
func isBlockStart(line string) bool {
	if !strings.HasPrefix(line, "--") {
		return false
	}
	rest := strings.TrimLeft(line[2:], " \t")
	return len(rest) < len(line)-2 && strings.TrimRight(rest, " \t") == "=="
}

// parser reads the body of one block: its lines with their leading `--`
// removed and joined by newlines, so that a value or regex may continue
// onto the next comment line as it may in Futhark.
type parser struct {
	file     string
	src      string
	pos      int
	starts   []int // offset in src of each line
	firstNum int   // the file line number of the first line
}

func newParser(file string, lines []string, firstNum int) *parser {
	p := &parser{file: file, firstNum: firstNum}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		p.starts = append(p.starts, b.Len())
		b.WriteString(strings.TrimPrefix(l, "--"))
	}
	p.src = b.String()
	return p
}

// lineCol turns an offset in src into a file line and column.
func (p *parser) lineCol(off int) (int, int) {
	i := 0
	for i+1 < len(p.starts) && p.starts[i+1] <= off {
		i++
	}
	if len(p.starts) == 0 {
		return p.firstNum - 1, 1
	}
	return p.firstNum + i, off - p.starts[i] + 3 // +2 for the "--", +1 for 1-based
}

func (p *parser) line(off int) int { l, _ := p.lineCol(off); return l }

func (p *parser) errorf(off int, format string, args ...any) *Error {
	l, c := p.lineCol(off)
	return &Error{p.file, l, c, fmt.Sprintf(format, args...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *parser) skipHSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\r') {
		p.pos++
	}
}

// isTagChar reports whether c may be part of a tag or keyword.
func isTagChar(c byte) bool {
	return c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// peekWord returns the tag-like word at the cursor, without consuming it.
func (p *parser) peekWord() string {
	i := p.pos
	for i < len(p.src) && isTagChar(p.src[i]) {
		i++
	}
	return p.src[p.pos:i]
}

// lit consumes s if it is next and, when s ends in a word character, is
// not followed by another one.
func (p *parser) lit(s string) bool {
	if !strings.HasPrefix(p.src[p.pos:], s) {
		return false
	}
	end := p.pos + len(s)
	if isTagChar(s[len(s)-1]) && end < len(p.src) && isTagChar(p.src[end]) {
		return false
	}
	p.pos = end
	return true
}

// restOfLine consumes and returns the rest of the current line, trimmed.
func (p *parser) restOfLine() string {
	i := strings.IndexByte(p.src[p.pos:], '\n')
	if i < 0 {
		i = len(p.src) - p.pos
	}
	s := p.src[p.pos : p.pos+i]
	p.pos += i
	return strings.TrimSpace(s)
}

// braced consumes `{ … }` and returns the text between the braces,
// trimmed. Nested braces and string literals (in scripts) are skipped.
func (p *parser) braced(what string) (string, error) {
	p.skipSpace()
	if p.eof() || p.src[p.pos] != '{' {
		return "", p.errorf(p.pos, "expected { after %s", what)
	}
	open := p.pos
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				p.pos = i + 1
				return strings.TrimSpace(p.src[open+1 : i]), nil
			}
		case '"':
			for i++; i < len(p.src) && p.src[i] != '"' && p.src[i] != '\n'; i++ {
				if p.src[i] == '\\' {
					i++
				}
			}
		}
	}
	return "", p.errorf(open, "unclosed { after %s", what)
}

// fileName consumes `@ name` (the @ already seen) and returns the name.
func (p *parser) fileName(what string) (string, error) {
	at := p.pos
	p.pos++ // the @
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) < 0 {
		p.pos++
	}
	if p.pos == start {
		return "", p.errorf(at, "expected a file name after %s @", what)
	}
	return p.src[start:p.pos], nil
}

// names consumes the names on the rest of the line (for entry: and property:).
func (p *parser) names() []string {
	return strings.Fields(strings.ReplaceAll(p.restOfLine(), "}", " "))
}

// block parses the whole body. It returns one Block per `entry:` section
// (one block when there is no `entry:` line or only one).
func (p *parser) block(line int, desc string) ([]*Block, error) {
	b := &Block{Line: line, Description: desc}
	p.skipSpace()
	if p.lit("tags") {
		s, err := p.braced("tags")
		if err != nil {
			return nil, err
		}
		b.Tags = strings.Fields(s)
		p.skipSpace()
	}
	switch {
	case p.lit("error:"):
		b.CompileError = true
		b.CompileErrorRegex = p.restOfLine()
		p.skipSpace()
		if !p.eof() {
			return nil, p.errorf(p.pos, "unexpected %q after a compile-time error: the block must end there", p.peekText())
		}
		return []*Block{b}, nil
	case strings.HasPrefix(p.src[p.pos:], "property:"):
		for p.lit("property:") {
			b.Properties = append(b.Properties, p.names()...)
			p.skipSpace()
		}
		if !p.eof() {
			return nil, p.errorf(p.pos, "unexpected %q after property: lines", p.peekText())
		}
		return []*Block{b}, nil
	}

	blocks := []*Block{b}
	cur := b // the section that cases go to
	for p.skipSpace(); !p.eof(); p.skipSpace() {
		start := p.pos
		switch {
		case p.lit("entry:"):
			entries := p.names()
			if len(cur.Cases) > 0 || cur.Entries != nil {
				cur = &Block{Line: b.Line, Description: b.Description, Tags: b.Tags}
				blocks = append(blocks, cur)
			}
			cur.Entries = entries
			if cur.Entries == nil {
				cur.Entries = []string{}
			}
		case p.lit("structure"):
			s, err := p.structure()
			if err != nil {
				return nil, err
			}
			b.Structures = append(b.Structures, s)
		case p.lit("warning:"):
			b.Warnings = append(b.Warnings, p.restOfLine())
		case p.lit("tags"):
			s, err := p.braced("tags")
			if err != nil {
				return nil, err
			}
			b.Tags = append(b.Tags, strings.Fields(s)...)
		default:
			c, err := p.runCase(len(cur.Cases))
			if err != nil {
				return nil, err
			}
			for _, prev := range cur.Cases {
				if prev.Name == c.Name {
					return nil, p.errorf(start, "a second case named %q (the first is on line %d)", c.Name, prev.Line)
				}
			}
			cur.Cases = append(cur.Cases, c)
		}
	}
	for _, s := range blocks {
		if s.Entries == nil {
			s.Entries = []string{"main"}
		}
	}
	return blocks, nil
}

// peekText returns a short piece of the text at the cursor, for messages.
func (p *parser) peekText() string {
	s := p.src[p.pos:]
	if i := strings.IndexAny(s, " \t\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 20 {
		s = s[:20] + "…"
	}
	return s
}

// structure parses the rest of `structure [pipeline] { name count … }`.
func (p *parser) structure() (Structure, error) {
	var s Structure
	p.skipSpace()
	if w := p.peekWord(); w != "" {
		s.Pipeline = w
		p.pos += len(w)
	}
	open := p.pos
	body, err := p.braced("structure")
	if err != nil {
		return s, err
	}
	f := strings.Fields(body)
	if len(f)%2 != 0 {
		return s, p.errorf(open, "a structure test needs pairs of a name and a count")
	}
	for i := 0; i < len(f); i += 2 {
		n, err := strconv.Atoi(f[i+1])
		if err != nil {
			return s, p.errorf(open, "structure count %q of %s is not a number", f[i+1], f[i])
		}
		s.Metrics = append(s.Metrics, Metric{f[i], n})
	}
	return s, nil
}

// runCase parses one case: ["name"] tag… input … [expected result].
func (p *parser) runCase(index int) (*Case, error) {
	c := &Case{Line: p.line(p.pos), Index: index}
	if p.src[p.pos] == '"' {
		start, i := p.pos, p.pos+1
		for i < len(p.src) && p.src[i] != '"' && p.src[i] != '\n' {
			if p.src[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(p.src) || p.src[i] != '"' {
			return nil, p.errorf(start, "unterminated case name")
		}
		name, err := strconv.Unquote(p.src[start : i+1])
		if err != nil {
			name = p.src[start+1 : i]
		}
		c.Name = name
		p.pos = i + 1
		p.skipSpace()
	}
	caseStart := p.pos
	for {
		w := p.peekWord()
		switch {
		case w == "" && p.eof() && len(c.Tags) > 0:
			return nil, p.errorf(caseStart, "expected input after %q", strings.Join(c.Tags, " "))
		case w == "" && p.eof():
			return nil, p.errorf(caseStart, "expected input at the end of the test block")
		case w == "":
			return nil, p.errorf(p.pos, "unexpected %q in a test block: expected input", p.peekText())
		case w == "output" || w == "auto" || w == "error":
			return nil, p.errorf(p.pos, "%s before any input", w)
		}
		p.pos += len(w)
		if w == "input" {
			break
		}
		if !p.eof() && p.src[p.pos] == ':' {
			return nil, p.errorf(p.pos-len(w), "unexpected %s: before input", w)
		}
		c.Tags = append(c.Tags, w)
		p.skipSpace()
	}
	c.Compiled = c.HasTag("compiled")
	if err := p.input(c); err != nil {
		return nil, err
	}
	if err := p.expected(c); err != nil {
		return nil, err
	}
	if c.Name == "" {
		c.Name = defaultName(c)
	}
	return c, nil
}

func (p *parser) input(c *Case) error {
	p.skipSpace()
	random, script := c.HasTag("random"), c.HasTag("script")
	if !p.eof() && p.src[p.pos] == '@' {
		if random {
			return p.errorf(p.pos, "random input cannot come from a file")
		}
		name, err := p.fileName("input")
		if err != nil {
			return err
		}
		c.InputKind, c.InputFile = InputFile, name
		if script {
			c.InputKind = InputScriptFile
		}
		return nil
	}
	body, err := p.braced("input")
	if err != nil {
		return err
	}
	switch {
	case random:
		c.InputKind, c.Random = InputRandom, splitTypes(body)
	case script:
		c.InputKind, c.Input = InputScript, body
	default:
		c.InputKind, c.Input = InputValues, body
	}
	return nil
}

func (p *parser) expected(c *Case) error {
	save := p.pos
	p.skipSpace()
	switch {
	case p.lit("auto"):
		p.skipSpace()
		if !p.lit("output") {
			return p.errorf(p.pos, "expected output after auto")
		}
		c.Expect, c.AutoOutput = ExpectAuto, true
	case p.lit("output"):
		p.skipSpace()
		if !p.eof() && p.src[p.pos] == '@' {
			name, err := p.fileName("output")
			if err != nil {
				return err
			}
			c.Expect, c.OutputFile = ExpectOutputFile, name
			return nil
		}
		body, err := p.braced("output")
		if err != nil {
			return err
		}
		c.Expect, c.Output = ExpectOutput, body
	case p.lit("error:"):
		c.Expect, c.ErrorRegex = ExpectError, p.restOfLine()
	default:
		p.pos = save
		c.Expect = ExpectSuccess
	}
	return nil
}

// defaultName names a case as Futhark does when no name is given: the
// data file (without .gz), the random types, or # and its index.
func defaultName(c *Case) string {
	switch c.InputKind {
	case InputFile, InputScriptFile:
		if path.Ext(c.InputFile) == ".gz" {
			return strings.TrimSuffix(c.InputFile, ".gz")
		}
		return c.InputFile
	case InputRandom:
		return strings.Join(c.Random, " ")
	case InputScript:
		return strings.Join(strings.Fields(c.Input), " ")
	}
	return "#" + strconv.Itoa(c.Index)
}

// splitTypes splits the body of random input into its types and values:
// fields separated by white space outside brackets and parentheses.
func splitTypes(s string) []string {
	var out []string
	depth, start := 0, -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || depth == 0 && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
		switch s[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		}
	}
	return out
}
