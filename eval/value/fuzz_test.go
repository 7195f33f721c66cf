package value

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzRead checks that malformed data never panics, and that whatever
// reads prints and reads back to an equal value.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"[1i32, 2i32]", "empty([0][3]f32)", "(1, [true])", "-f64.inf", "b\x02\x01 i32\x01\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00", "[[1,2],[3]]", "0x1.8p1f64", "1e400"} {
		f.Add([]byte(s))
	}
	// deep, irregular and mixed inputs (read_test.go)
	var bin bytes.Buffer
	bin.WriteString("(")
	for range 50 {
		WriteBinary(&bin, MkInt(I32, 7))
		bin.WriteString(", ")
	}
	bin.WriteString("1)")
	for _, s := range []string{
		strings.Repeat("[", 300) + "1" + strings.Repeat("]", 300),
		strings.Repeat("[", 255) + "1i8" + strings.Repeat("]", 255),
		strings.Repeat("(", 100) + "[1,2]" + strings.Repeat(",3)", 100),
		"[[1,2],[3]]", "[[1,2],3]", "[1i32, 2i64]", `[["ab"],["cd"]]`, "[[(1,true)],[(2,false)]]",
		"[empty([0]i32), empty([0]i32)]", bin.String(),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := Read(data)
		if err != nil {
			return
		}
		for _, v := range vs {
			text := String(v)
			back, err := Read([]byte(text))
			if err != nil || len(back) != 1 || !Equal(v, back[0], 0) {
				t.Fatalf("%q printed as %q does not read back: %v", data, text, err)
			}
			var buf bytes.Buffer
			if WriteBinary(&buf, v) == nil {
				bin, err := Read(buf.Bytes())
				if err != nil || len(bin) != 1 || !Equal(v, bin[0], 0) {
					t.Fatalf("%q does not survive the binary format: %v", text, err)
				}
			}
		}
	})
}
