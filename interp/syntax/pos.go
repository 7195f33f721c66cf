package syntax

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Pos is a compact source position: an offset into a FileSet. Every file
// added to the set gets a disjoint range of offsets, so a Pos alone names
// both the file and the place in it. The zero Pos is NoPos.
type Pos int

// NoPos is the position of things that have none (built-ins, synthesised
// nodes).
const NoPos Pos = 0

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p != NoPos }

// File is one source text in a FileSet: a file on disk, the prelude, or one
// REPL entry (named <repl:N>).
type File struct {
	Name string
	// Library marks the prelude's files: errors inside them are reported
	// at the user's call site.
	Library bool
	Base    int // offset of the first byte in the set
	Src     []byte
	lines   []int // offset of the first byte of each line, relative to the file
}

// Position is a human-readable position.
type Position struct {
	File string
	Line int // 1-based
	Col  int // 1-based, in bytes
}

func (p Position) String() string {
	if p.File == "" && p.Line == 0 {
		return "<unknown>"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// FileSet holds every source text of a session.
type FileSet struct {
	mu    sync.Mutex
	files []*File
	next  int
}

// NewFileSet returns an empty set. Offsets start at 1 so that 0 is NoPos.
func NewFileSet() *FileSet { return &FileSet{next: 1} }

// AddFile registers src under name and returns the file.
func (s *FileSet) AddFile(name string, src []byte) *File {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := &File{Name: name, Base: s.next, Src: src}
	f.lines = append(f.lines, 0)
	for i, c := range src {
		if c == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	s.files = append(s.files, f)
	// One extra offset so that the end-of-file position is still inside.
	s.next += len(src) + 1
	return f
}

// Pos returns the position of byte offset off of f.
func (f *File) Pos(off int) Pos { return Pos(f.Base + off) }

// Offset returns p's byte offset in f.
func (f *File) Offset(p Pos) int { return int(p) - f.Base }

// File returns the file that holds p, or nil.
func (s *FileSet) File(p Pos) *File {
	if !p.IsValid() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.files), func(i int) bool { return s.files[i].Base > int(p) }) - 1
	if i < 0 {
		return nil
	}
	f := s.files[i]
	if int(p) > f.Base+len(f.Src) {
		return nil
	}
	return f
}

// Position turns p into file:line:col.
func (s *FileSet) Position(p Pos) Position {
	f := s.File(p)
	if f == nil {
		return Position{}
	}
	off := f.Offset(p)
	line := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	return Position{File: f.Name, Line: line + 1, Col: off - f.lines[line] + 1}
}

// Line returns the text of the given 1-based line of f, without its newline.
func (f *File) Line(n int) string {
	if n < 1 || n > len(f.lines) {
		return ""
	}
	start := f.lines[n-1]
	end := len(f.Src)
	if n < len(f.lines) {
		end = f.lines[n] - 1
	}
	return strings.TrimRight(string(f.Src[start:end]), "\r")
}

// Span is a half-open range of positions [Start, End).
type Span struct{ Start, End Pos }

// Error is one error a user caused, at a place in the source.
type Error struct {
	Span Span
	Msg  string
	Hint string // optional; printed on its own line after the message
}

// ErrorList is a list of errors; it sorts by position.
type ErrorList []*Error

func (l *ErrorList) Add(sp Span, format string, args ...any) {
	*l = append(*l, &Error{Span: sp, Msg: fmt.Sprintf(format, args...)})
}

func (l ErrorList) Len() int           { return len(l) }
func (l ErrorList) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool { return l[i].Span.Start < l[j].Span.Start }

// Sort sorts the list by position and drops exact duplicates.
func (l *ErrorList) Sort() {
	sort.Stable(*l)
	out := (*l)[:0]
	for i, e := range *l {
		if i > 0 && e.Span == (*l)[i-1].Span && e.Msg == (*l)[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Error prints only the first error; use Format for all of them.
func (l ErrorList) Error() string {
	if len(l) == 0 {
		return "no errors"
	}
	if len(l) == 1 {
		return l[0].Msg
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Msg, len(l)-1)
}

// FormatSpan prints a span as Futhark prints one: file:line:col-col when
// it ends on the line it starts on, file:line:col-line:col otherwise, the
// end being the column just past the span's last character (4:26-36 for
// the ten characters from column 26); a span of at most one character is
// file:line:col.
func (s *FileSet) FormatSpan(sp Span) string {
	a := s.Position(sp.Start)
	if !sp.End.IsValid() || sp.End <= sp.Start+1 {
		return a.String()
	}
	b := s.Position(sp.End - 1)
	if b.File != a.File {
		return a.String()
	}
	if b.Line == a.Line {
		return fmt.Sprintf("%s-%d", a, b.Col+1)
	}
	return fmt.Sprintf("%s-%d:%d", a, b.Line, b.Col+1)
}

// Format prints one error as "file:line:col-col: message", its span as
// FormatSpan prints it.
func (s *FileSet) Format(e *Error) string {
	msg := fmt.Sprintf("%s: %s", s.FormatSpan(e.Span), e.Msg)
	if e.Hint != "" {
		msg += "\n" + e.Hint
	}
	return msg
}

// FormatAll prints every error of err (an ErrorList, an *Error or any
// other error) one per line.
func (s *FileSet) FormatAll(err error) string {
	switch e := err.(type) {
	case ErrorList:
		var b strings.Builder
		for i, x := range e {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s.Format(x))
		}
		return b.String()
	case *Error:
		return s.Format(e)
	default:
		return err.Error()
	}
}

func (e *Error) Error() string { return e.Msg }

// Last returns the file added last (nil for an empty set).
func (s *FileSet) Last() *File {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.files) == 0 {
		return nil
	}
	return s.files[len(s.files)-1]
}
