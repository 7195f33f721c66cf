package syntax

import "testing"

// TestFormatSpan checks that spans print as Futhark prints them: the end
// column is the one just past the last character, and a span that stays
// on its line does not repeat the line.
func TestFormatSpan(t *testing.T) {
	fs := NewFileSet()
	src := "def main = (2.0 + 3.0) / (2 + 3i32)\ndef g =\n  1\n"
	f := fs.AddFile("a.fut", []byte(src))
	span := func(from, to int) Span { return Span{Start: f.Pos(from), End: f.Pos(to)} }
	for _, tc := range []struct {
		sp   Span
		want string
	}{
		{span(25, 35), "a.fut:1:26-36"},       // (2 + 3i32)
		{span(0, 3), "a.fut:1:1-4"},           // def
		{span(11, 12), "a.fut:1:12"},          // one character
		{span(11, 11), "a.fut:1:12"},          // empty
		{span(36, 47), "a.fut:2:1-3:4"},       // def g =\n  1
		{Span{Start: f.Pos(36)}, "a.fut:2:1"}, // no end
	} {
		if got := fs.FormatSpan(tc.sp); got != tc.want {
			t.Errorf("FormatSpan(%v) = %q, want %q", tc.sp, got, tc.want)
		}
	}
	e := &Error{Span: span(25, 35), Msg: "Cannot apply \"/\"."}
	if got, want := fs.Format(e), "a.fut:1:26-36: Cannot apply \"/\"."; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}
