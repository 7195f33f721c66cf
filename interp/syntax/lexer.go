package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The lexer turns one file into a slice of tokens. It follows Futhark's
// lexical rules, including the two that depend on layout:
//
//   - "[" immediately after an identifier character, ")" or "]" is an
//     indexing bracket (xs[i]); after anything else (a space) it opens an
//     array literal (f [x]).
//   - A decimal number right after "." is never a float, so that x.0.1 is
//     two tuple projections.
//
// Comments are dropped; a "-- |" documentation comment (with the comment
// lines that follow it) is attached to the next token.

type tokKind int

const (
	tEOF tokKind = iota
	tIllegal
	tIdent
	tConstr   // #name; text without '#'
	tInt      // integer literal (text includes any suffix)
	tFloat    // float literal (text includes any suffix)
	tChar     // 'c'
	tString   // "..."
	tOp       // operator symbol: + - * < ! == |> etc.
	tQualOp   // M.N.+ (text is the whole thing)
	tEqu      // =
	tLParen   // (
	tRParen   // )
	tLBracket // [ after a space
	tIndex    // [ right after a name, ) or ]
	tRBracket // ]
	tLBrace   // {
	tRBrace   // }
	tComma
	tUnderscore
	tQuestion
	tArrow     // ->
	tColon     // :
	tColonGt   // :>
	tBackslash // \
	tTilde     // ~
	tApos      // '
	tAposHat   // '^
	tAposTilde // '~
	tBacktick
	tHashBracket // #[
	tDotDotLt    // ..<
	tDotDotGt    // ..>
	tDotDotDot   // ...
	tDotDot      // ..
	tDot         // .
	tDollar
	tHole // ???

	// keywords
	tTrue
	tFalse
	tIf
	tThen
	tElse
	tDef
	tLet
	tLoop
	tIn
	tVal
	tFor
	tDo
	tWith
	tLocal
	tOpen
	tInclude
	tImport
	tType
	tEntry
	tModule
	tWhile
	tAssert
	tMatch
	tCase
)

var keywords = map[string]tokKind{
	"true": tTrue, "false": tFalse, "if": tIf, "then": tThen, "else": tElse,
	"def": tDef, "let": tLet, "loop": tLoop, "in": tIn, "val": tVal,
	"for": tFor, "do": tDo, "with": tWith, "local": tLocal, "open": tOpen,
	"include": tInclude, "import": tImport, "type": tType, "entry": tEntry,
	"module": tModule, "while": tWhile, "assert": tAssert, "match": tMatch,
	"case": tCase,
}

var fixedText = map[tokKind]string{
	tEOF: "end of input", tEqu: "=", tLParen: "(", tRParen: ")", tLBracket: "[",
	tIndex: "[", tRBracket: "]", tLBrace: "{", tRBrace: "}", tComma: ",",
	tUnderscore: "_", tQuestion: "?", tArrow: "->", tColon: ":", tColonGt: ":>",
	tBackslash: `\`, tTilde: "~", tApos: "'", tAposHat: "'^", tAposTilde: "'~",
	tBacktick: "`", tHashBracket: "#[", tDotDotLt: "..<", tDotDotGt: "..>",
	tDotDotDot: "...", tDotDot: "..", tDot: ".", tDollar: "$", tHole: "???",
}

func (k tokKind) String() string {
	if s, ok := fixedText[k]; ok {
		return s
	}
	for w, kk := range keywords {
		if kk == k {
			return w
		}
	}
	switch k {
	case tIdent:
		return "identifier"
	case tConstr:
		return "constructor"
	case tInt:
		return "integer literal"
	case tFloat:
		return "float literal"
	case tChar:
		return "character literal"
	case tString:
		return "string literal"
	case tOp, tQualOp:
		return "operator"
	}
	return "illegal token"
}

type token struct {
	kind     tokKind
	pos, end int    // byte offsets in the file
	text     string // the source text
	doc      string // documentation comment just before the token
	val      string // decoded value of string and char literals
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIdent:
		return fmt.Sprintf("identifier %q", t.text)
	case tConstr:
		return fmt.Sprintf("constructor %q", "#"+t.text)
	case tInt, tFloat, tChar, tString:
		return fmt.Sprintf("%s %s", t.kind, t.text)
	case tIllegal:
		return fmt.Sprintf("%q", t.text)
	}
	if _, ok := keywords[t.text]; ok {
		return fmt.Sprintf("keyword %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

func isOpChar(c byte) bool { return strings.IndexByte("+-*/%=!><|&^.", c) >= 0 }
func isOpStart(c byte) bool {
	return c != '.' && isOpChar(c)
}
func isLetter(c byte) bool      { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isConstituent(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '\'' }
func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

type lexer struct {
	src      []byte
	off      int
	errs     *ErrorList
	file     *File
	doc      string // pending doc comment
	docs     int    // doc comments seen before the first token
	fileDoc  string
	firstDoc string
	toks     []token
	// chainEnd is where the last chain of names a.b.c… that ended in
	// no qualified operator stops: an identifier inside it needs no new
	// look-ahead (which would make a long chain quadratic).
	chainEnd int
}

func (l *lexer) errorAt(start, end int, format string, args ...any) {
	l.errs.Add(Span{l.file.Pos(start), l.file.Pos(end)}, format, args...)
}

// lex tokenises the whole file; lexical errors go to errs and leave
// tIllegal tokens behind.
func lex(file *File, errs *ErrorList) (toks []token, fileDoc string) {
	l := &lexer{src: file.Src, errs: errs, file: file}
	l.toks = make([]token, 0, len(file.Src)/3+16)
	for {
		t := l.next()
		if len(l.toks) == 0 && l.docs >= 2 {
			l.fileDoc = l.firstDoc
		}
		l.toks = append(l.toks, t)
		if t.kind == tEOF {
			break
		}
	}
	return l.toks, l.fileDoc
}

func (l *lexer) skipSpaceAndComments() {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.off++
		case c == '-' && l.off+1 < len(l.src) && l.src[l.off+1] == '-':
			l.comment()
		default:
			return
		}
	}
}

// comment reads a comment starting at "--". A documentation comment takes
// the following comment-only lines with it.
func (l *lexer) comment() {
	line := l.restOfLine()
	if !strings.HasPrefix(line, "-- |") {
		return
	}
	lines := []string{trimOneSpace(line[4:])}
	for {
		// Next line: optional spaces then "--".
		p := l.off
		if p < len(l.src) && l.src[p] == '\n' {
			p++
		}
		q := p
		for q < len(l.src) && (l.src[q] == ' ' || l.src[q] == '\t' || l.src[q] == '\f' || l.src[q] == '\v') {
			q++
		}
		if q+1 < len(l.src) && l.src[q] == '-' && l.src[q+1] == '-' && p > l.off {
			l.off = q
			s := l.restOfLine()
			lines = append(lines, trimOneSpace(s[2:]))
			continue
		}
		break
	}
	l.doc = strings.Join(lines, "\n")
	l.docs++
	if l.docs == 1 {
		l.firstDoc = l.doc
	}
}

func trimOneSpace(s string) string {
	s = strings.TrimRight(s, "\r")
	return strings.TrimPrefix(s, " ")
}

func (l *lexer) restOfLine() string {
	start := l.off
	for l.off < len(l.src) && l.src[l.off] != '\n' {
		l.off++
	}
	return string(l.src[start:l.off])
}

func (l *lexer) next() token {
	l.skipSpaceAndComments()
	t := l.scan()
	t.doc = l.doc
	l.doc = ""
	t.text = string(l.src[t.pos:t.end])
	if t.kind == tConstr {
		t.text = t.text[1:]
	}
	return t
}

func (l *lexer) scan() token {
	start := l.off
	tok := func(k tokKind, n int) token {
		l.off = start + n
		return token{kind: k, pos: start, end: l.off}
	}
	if l.off >= len(l.src) {
		return token{kind: tEOF, pos: start, end: start}
	}
	src := l.src
	c := src[start]
	at := func(i int) byte {
		if start+i < len(src) {
			return src[start+i]
		}
		return 0
	}
	switch {
	case isLetter(c) || c == '_' && isLetter(at(1)) || c == '_' && isDigit(at(1)):
		return l.ident()
	case c == '_':
		return tok(tUnderscore, 1)
	case isDigit(c):
		t := l.number()
		if l.off < len(l.src) && (isLetter(l.src[l.off]) || l.src[l.off] == '_') &&
			!(l.off == t.pos+1 && c == '0' && l.src[l.off] == 'r') { // 0rXIV lexes as before
			// 1i33, 2.0f31, 7abc: a suffix that is no type.
			end := l.off
			for end < len(l.src) && isConstituent(l.src[end]) {
				end++
			}
			l.errorAt(l.off, end, "invalid suffix %q on a numeric literal", string(l.src[l.off:end]))
			l.off = end
		}
		return t
	case c == '"':
		return l.stringLit()
	case c == '\'':
		if at(1) == '\\' || at(1) != 0 && at(1) != '\'' && at(1) != '\n' && l.charCloses() {
			return l.charLit()
		}
		switch at(1) {
		case '^':
			return tok(tAposHat, 2)
		case '~':
			return tok(tAposTilde, 2)
		}
		return tok(tApos, 1)
	case c == '#':
		if at(1) == '[' {
			return tok(tHashBracket, 2)
		}
		if isLetter(at(1)) || at(1) == '_' && (isLetter(at(2)) || isDigit(at(2))) {
			l.off = start + 1
			t := l.ident()
			t.pos = start
			t.kind = tConstr
			return t
		}
	case c == '(':
		return tok(tLParen, 1)
	case c == ')':
		return tok(tRParen, 1)
	case c == '[':
		if start > 0 {
			p := src[start-1]
			if isConstituent(p) || p == ')' || p == ']' {
				return tok(tIndex, 1)
			}
		}
		return tok(tLBracket, 1)
	case c == ']':
		return tok(tRBracket, 1)
	case c == '{':
		return tok(tLBrace, 1)
	case c == '}':
		return tok(tRBrace, 1)
	case c == ',':
		return tok(tComma, 1)
	case c == '?':
		if at(1) == '?' && at(2) == '?' {
			return tok(tHole, 3)
		}
		return tok(tQuestion, 1)
	case c == ':':
		if at(1) == '>' {
			return tok(tColonGt, 2)
		}
		return tok(tColon, 1)
	case c == '\\':
		return tok(tBackslash, 1)
	case c == '~':
		return tok(tTilde, 1)
	case c == '`':
		return tok(tBacktick, 1)
	case c == '$':
		return tok(tDollar, 1)
	case c == '.':
		if at(1) == '.' {
			switch at(2) {
			case '.':
				return tok(tDotDotDot, 3)
			case '<':
				return tok(tDotDotLt, 3)
			case '>':
				return tok(tDotDotGt, 3)
			}
			return tok(tDotDot, 2)
		}
		return tok(tDot, 1)
	case isOpStart(c):
		n := 1
		for isOpChar(at(n)) {
			n++
		}
		switch string(src[start : start+n]) {
		case "=":
			return tok(tEqu, 1)
		case "->":
			return tok(tArrow, 2)
		}
		return tok(tOp, n)
	}
	_, size := utf8.DecodeRune(src[start:])
	l.errorAt(start, start+size, "unexpected character %q", string(src[start:start+size]))
	return tok(tIllegal, size)
}

// charCloses reports whether the ' at l.off starts a one-character
// literal 'c' (c possibly a multi-byte UTF-8 character).
func (l *lexer) charCloses() bool {
	_, size := utf8.DecodeRune(l.src[l.off+1:])
	p := l.off + 1 + size
	return p < len(l.src) && l.src[p] == '\''
}

func (l *lexer) ident() token {
	start := l.off
	p := l.off + 1
	for p < len(l.src) && isConstituent(l.src[p]) {
		p++
	}
	end := p
	// A qualified operator: (name ".")+ op.
	q := end
	for start >= l.chainEnd && q+1 < len(l.src) && l.src[q] == '.' {
		c := l.src[q+1]
		if isOpStart(c) {
			r := q + 2
			for r < len(l.src) && isOpChar(l.src[r]) {
				r++
			}
			l.off = r
			return token{kind: tQualOp, pos: start, end: r}
		}
		if !(isLetter(c) || c == '_' && q+2 < len(l.src) && (isLetter(l.src[q+2]) || isDigit(l.src[q+2]))) {
			break
		}
		q += 2
		for q < len(l.src) && isConstituent(l.src[q]) {
			q++
		}
	}
	if start >= l.chainEnd {
		l.chainEnd = q
	}
	l.off = end
	if k, ok := keywords[string(l.src[start:end])]; ok {
		return token{kind: k, pos: start, end: end}
	}
	return token{kind: tIdent, pos: start, end: end}
}

var intSuffixes = []string{"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"}
var floatSuffixes = []string{"f16", "f32", "f64"}

func (l *lexer) suffix(list []string) bool {
	for _, s := range list {
		if strings.HasPrefix(string(l.src[l.off:min(l.off+3, len(l.src))]), s) {
			l.off += len(s)
			return true
		}
	}
	return false
}

func (l *lexer) digits(ok func(byte) bool) int {
	n := 0
	for l.off < len(l.src) && (ok(l.src[l.off]) || l.src[l.off] == '_' && n > 0) {
		l.off++
		n++
	}
	return n
}

func (l *lexer) number() token {
	start := l.off
	src := l.src
	peek := func(i int) byte {
		if l.off+i < len(src) {
			return src[l.off+i]
		}
		return 0
	}
	if src[start] == '0' && (peek(1) == 'x' || peek(1) == 'X') && isHex(peek(2)) {
		l.off += 2
		l.digits(isHex)
		if peek(0) == '.' && isHex(peek(1)) {
			save := l.off
			l.off++
			l.digits(isHex)
			if (peek(0) == 'p' || peek(0) == 'P') && (isDigit(peek(1)) || (peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))) {
				l.off++
				if peek(0) == '+' || peek(0) == '-' {
					l.off++
				}
				l.digits(isDigit)
				l.suffix(floatSuffixes)
				return token{kind: tFloat, pos: start, end: l.off}
			}
			l.off = save
		}
		l.suffix(intSuffixes)
		return token{kind: tInt, pos: start, end: l.off}
	}
	if src[start] == '0' && (peek(1) == 'b' || peek(1) == 'B') && (peek(2) == '0' || peek(2) == '1') {
		l.off += 2
		l.digits(func(c byte) bool { return c == '0' || c == '1' })
		l.suffix(intSuffixes)
		return token{kind: tInt, pos: start, end: l.off}
	}
	l.digits(isDigit)
	afterDot := start > 0 && src[start-1] == '.' && !(start > 1 && src[start-2] == '.')
	if afterDot {
		// x.0.1 is two projections, never a float; but 1...10i32 and
		// 0..<5 are ranges, whose numbers are whole literals.
		return token{kind: tInt, pos: start, end: l.off}
	}
	isFloat := false
	if peek(0) == '.' && isDigit(peek(1)) {
		l.off++
		l.digits(isDigit)
		isFloat = true
	}
	if (peek(0) == 'e' || peek(0) == 'E') && (isDigit(peek(1)) || (peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))) {
		l.off++
		if peek(0) == '+' || peek(0) == '-' {
			l.off++
		}
		for isDigit(peek(0)) {
			l.off++
		}
		isFloat = true
	}
	if l.suffix(floatSuffixes) {
		isFloat = true
	} else if !isFloat {
		l.suffix(intSuffixes)
	}
	if isFloat {
		return token{kind: tFloat, pos: start, end: l.off}
	}
	return token{kind: tInt, pos: start, end: l.off}
}

// escape decodes one escape sequence after a backslash at l.off.
func (l *lexer) escape() (rune, bool) {
	src := l.src
	if l.off >= len(src) {
		return 0, false
	}
	c := src[l.off]
	l.off++
	switch c {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'v':
		return '\v', true
	case '\\', '\'', '"':
		return rune(c), true
	case 'x', 'u', 'U', 'o':
		base := 16
		ok := isHex
		if c == 'o' {
			base = 8
			ok = func(b byte) bool { return b >= '0' && b <= '7' }
		}
		var r rune
		n := 0
		for l.off < len(src) && ok(src[l.off]) && n < 8 {
			r = r*rune(base) + rune(hexVal(src[l.off]))
			l.off++
			n++
		}
		return r, n > 0 && r >= 0 && r <= utf8.MaxRune
	}
	if isDigit(c) {
		r := rune(c - '0')
		for l.off < len(src) && isDigit(src[l.off]) && r <= utf8.MaxRune {
			r = r*10 + rune(src[l.off]-'0')
			l.off++
		}
		return r, r <= utf8.MaxRune
	}
	return 0, false
}

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}

func (l *lexer) charLit() token {
	start := l.off
	l.off++
	var r rune
	if l.src[l.off] == '\\' {
		l.off++
		var ok bool
		r, ok = l.escape()
		if !ok {
			l.errorAt(start, l.off, "invalid escape sequence in character literal")
		}
	} else {
		var size int
		r, size = utf8.DecodeRune(l.src[l.off:])
		l.off += size
	}
	if l.off >= len(l.src) || l.src[l.off] != '\'' {
		l.errorAt(start, l.off, "unterminated character literal")
		return token{kind: tIllegal, pos: start, end: l.off}
	}
	l.off++
	return token{kind: tChar, pos: start, end: l.off, val: string(r)}
}

func (l *lexer) stringLit() token {
	start := l.off
	l.off++
	var b strings.Builder
	for {
		if l.off >= len(l.src) || l.src[l.off] == '\n' {
			l.errorAt(start, l.off, "unterminated string literal")
			return token{kind: tIllegal, pos: start, end: l.off}
		}
		c := l.src[l.off]
		if c == '"' {
			l.off++
			break
		}
		if c == '\\' {
			l.off++
			escStart := l.off - 1
			r, ok := l.escape()
			if !ok {
				l.errorAt(escStart, l.off, "invalid escape sequence in string literal")
			}
			b.WriteRune(r)
			continue
		}
		b.WriteByte(c)
		l.off++
	}
	return token{kind: tString, pos: start, end: l.off, val: b.String()}
}
